"""More ops from the reference kernels of quantization and attention libraries: bit shifts
(4-bit packing), index_add, roll, nan_to_num, isin, and the compositions torch keeps
CompositeImplicitAutograd: norms, ``var``/``std`` with ``unbiased``, tile."""

import numpy as np

from .. import _core
from .. import _dtype as D
from .._fallbacks import meta_fallback_error
from .common import A, _wrap_dim, check_same_device, data_as, inplace_result, out, tensor_result_dtype
from .indexing import _first_outside, scatter_add as _scatter_add
from .pointwise import _general
from .scalars import checked

__all__ = ["SCHEMAS", "KERNELS", "COMPOSITE", "POINTWISE"]

SCHEMAS = (
    "bitwise_left_shift.Tensor(Tensor self, Tensor other) -> Tensor",
    "bitwise_left_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor",
    "bitwise_right_shift.Tensor(Tensor self, Tensor other) -> Tensor",
    "bitwise_right_shift.Tensor_Scalar(Tensor self, Scalar other) -> Tensor",
    "index_add(Tensor self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor",
    "index_add_(Tensor(a!) self, int dim, Tensor index, Tensor source, *, Scalar alpha=1) -> Tensor(a!)",
    "scatter_add_(Tensor(a!) self, int dim, Tensor index, Tensor src) -> Tensor(a!)",
    "roll(Tensor self, SymInt[1] shifts, int[1] dims=[]) -> Tensor",
    "nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor",
    "isin.Tensor_Tensor(Tensor elements, Tensor test_elements, *, bool assume_unique=False, bool invert=False) -> Tensor",
    "norm.Scalar(Tensor self, Scalar p=2) -> Tensor",
    "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor",
    "var.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
    "std.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> Tensor",
    "var(Tensor self, bool unbiased=True) -> Tensor",
    "std(Tensor self, bool unbiased=True) -> Tensor",
    "tile(Tensor self, SymInt[] dims) -> Tensor",
    "equal(Tensor self, Tensor other) -> bool",
    "_local_scalar_dense(Tensor self) -> Scalar",
)


def _shift(fn, name):
    def kernel(self, other):
        dt = tensor_result_dtype(self, other)
        if dt._cat > 1:
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{D.legacy_name(dt)}'")
        return _general(fn, self, other, "aten::" + name, dt)
    kernel.__name__ = name
    return kernel


def _left(x, y):
    return np.left_shift(x, y)


def _right(x, y):
    return np.right_shift(x, y)


def _index_add_into(r, self, dim, index, source, alpha, name):
    check_same_device(name, self, index, source)
    d = _wrap_dim(dim, r.ndim)
    idx, x, sx = index._data, self._data, source._data
    _index_add_checks(d, index, self, source)
    alpha = checked(alpha, self.dtype)  # torch's Scalar conversion: wrapped or truncated, or refused
    if not r.ndim:  # a scalar self is a one-element vector here (a view: the writes reach ``r``)
        r, d = r.reshape(1), 0
    idx = idx.reshape(-1)
    src = sx if sx.ndim else sx.reshape(1)
    bad = _first_outside(idx, 0, r.shape[d])  # torch takes no index from the end here
    if bad is not None:  # torch's two kernels: a vector's, a tensor's by dim
        if x.ndim <= 1:
            raise IndexError(f"index out of range in self ({name})")
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {r.shape[d]}")
    if src.ndim != r.ndim:  # a one-element source of a 0-d index (torch reads it as the vector it is)
        src = src.reshape(r.shape[:d] + (1,) + r.shape[d + 1:])
    moved = np.moveaxis(r, d, 0)
    with np.errstate(all="ignore"):
        add = src * np.asarray(alpha, r.dtype) if alpha != 1 else src
    np.add.at(moved, idx, np.moveaxis(add, d, 0).astype(r.dtype, copy=False))
    return r


def _index_add_checks(d, index, self, source):
    """torch's checks of ``index_add`` (``index_func_meta_impl``), in its order: a vector of int32/int64
    indices, one dtype, ``dim`` within ``source``, one index per slice of ``source`` (a 0-d source is one
    slice), and ``self``'s and ``source``'s shapes equal without ``dim`` (whole shapes when either is
    0-d)."""
    idx, x, sx = index._data, self._data, source._data
    if idx.ndim > 1:
        raise IndexError(f"index_add_(): Index is supposed to be a vector, but got dim: {idx.ndim} with type: "
                         f"{D.legacy_name(index.dtype)} and size: {list(idx.shape)}")
    if idx.dtype.kind != "i" or idx.itemsize < 4:
        raise RuntimeError(f"index_add_(): Expected dtype int32/int64 for index but got: "
                           f"{D.legacy_name(index.dtype)}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"index_add_(): self ({D.legacy_name(self.dtype)}) and source "
                           f"({D.legacy_name(source.dtype)}) must have the same scalar type")
    if not (d == 0 or d < sx.ndim):
        raise RuntimeError(f"index_add_(): Indexing dim {d} is out of bounds of the source tensor with dim {sx.ndim}")
    if sx.ndim == 0:
        if idx.size != 1:  # torch's message reads source.size(dim) of the 0-d source, which raises this
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    elif idx.size != sx.shape[d]:
        raise RuntimeError(f"index_add_(): Number of indices ({idx.size}) should be equal to source.size(dim): "
                           f"({sx.shape[d]}), for dim: {d}")
    xs, ss = list(x.shape), list(sx.shape)
    if x.ndim and sx.ndim:
        del xs[d], ss[d]
    if xs != ss:
        raise RuntimeError("source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(x.shape)} source.shape = {list(sx.shape)}")


def index_add(self, dim, index, source, *, alpha=1):
    r = self._data.copy()
    _index_add_into(r, self, dim, index, source, alpha, "aten::index_add")
    return out(r, self)


def index_add_(self, dim, index, source, *, alpha=1):
    return inplace_result(self, index_add(self, dim, index, source, alpha=alpha)._data, "aten::index_add_")


def scatter_add_(self, dim, index, src):
    return inplace_result(self, _scatter_add(self, dim, index, src)._data, "aten::scatter_add_")


def roll(self, shifts, dims=()):
    x = self._data
    shifts, dims = list(shifts), list(dims)
    if not dims:
        if len(shifts) != 1:
            raise RuntimeError(f"`shifts` required to be of size 1 when `dims` is empty, got {len(shifts)}")
        return out(_rolled(x.reshape(-1), shifts[0], 0).reshape(x.shape), self)
    if len(shifts) != len(dims):
        raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims)}")
    if not x.ndim:  # torch rolls a 0-d tensor only without dims
        raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
    for shift, axis in zip(shifts, [_wrap_dim(d, x.ndim) for d in dims]):
        x = _rolled(x, shift, axis)
    return out(x, self)


def _rolled(x, shift, axis):
    """``np.roll(x, shift, axis)`` as its two slices joined (numpy's ``roll`` is Python around the same
    copies: 7 us for 64 elements where this takes 1)."""
    n = x.shape[axis]
    k = shift % n if n else 0
    if not k:
        return x.copy()
    head = (slice(None),) * axis
    return np.concatenate((x[head + (slice(n - k, None),)], x[head + (slice(None, n - k),)]), axis=axis)


def nan_to_num(self, nan=None, posinf=None, neginf=None):
    x = self._data
    if x.dtype.kind in "biu":
        return out(x.copy(), self)
    if x.dtype.kind == "f" and x.itemsize > 2 and posinf is None and neginf is None:
        r = _finite_floats(x, nan)
        if r is not None:
            return out(r, self)
    info = D.finfo(self.dtype)  # of the real parts, for a complex dtype

    def replaced(v):
        with np.errstate(all="ignore"):
            r = np.where(np.isnan(v), 0.0 if nan is None else nan, v)
            r = np.where(np.isposinf(v), info.max if posinf is None else posinf, r)
            return np.where(np.isneginf(v), info.min if neginf is None else neginf, r)
    if x.dtype.kind == "c":  # torch replaces in the real and the imaginary part alike
        r = np.empty_like(x)
        r.real, r.imag = replaced(x.real), replaced(x.imag)
        return out(r, self)
    return out(np.asarray(replaced(x)).astype(x.dtype), self)


# The finite range of float32 and float64 (by itemsize): what their infinities become by default.
_FINITE = {n: (float(np.finfo(t).min), float(np.finfo(t).max)) for n, t in ((4, np.float32), (8, np.float64))}


def _finite_floats(x, nan):
    """``nan_to_num`` of float32/float64 data with the default replacements of infinities: clamped to
    the finite range in Rust (which keeps nan and -0.0), then nan replaced, 1.5 us where the general
    route's masks and ``where`` take 12; None when Rust declines, or for a ``nan`` replacement whose
    conversion to the data's dtype is the general route's to decide (one float32 cannot hold; not a
    Python float: the schema's ``float?`` gives one)."""
    if nan is not None and not (type(nan) is float and (x.itemsize == 8 or not abs(nan) > _FINITE[4][1])):
        return None
    r = _core._clamp_scalars(x, *_FINITE[x.itemsize])
    if r is not None:
        isnan = np.isnan(r)
        if np.count_nonzero(isnan):
            np.putmask(r, isnan, 0.0 if nan is None else nan)
    return r


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    check_same_device("aten::isin", elements, test_elements)
    dt = tensor_result_dtype(elements, test_elements)
    r = np.isin(data_as(elements, dt), data_as(test_elements, dt), invert=invert)
    return out(np.asarray(r), elements)


def norm_scalar(self, p=2):
    return A.linalg_vector_norm(self, p)


def norm_dim(self, p, dim, keepdim=False):
    return A.linalg_vector_norm(self, 2 if p is None else p, [dim] if isinstance(dim, int) else dim, keepdim)


def _var_std(op):
    def kernel(self, dim=None, unbiased=True, keepdim=False):
        return op(self, dim, correction=1 if unbiased else 0, keepdim=keepdim)
    return kernel


def _var_std_all(op):
    def kernel(self, unbiased=True):
        return op(self, None, correction=1 if unbiased else 0)
    return kernel


def equal(self, other):
    """``torch.equal``: the same size and equal elements (compared as values, across dtypes)."""
    if self._dev is not other._dev:
        check_same_device("aten::equal", self, other)
    x, y = self._data, other._data
    if x.shape != y.shape:
        return False
    # ``np.array_equal`` of one shape, 1.5 us cheaper: every element equal (nan never is).
    return bool(np.count_nonzero(x == y) == x.size)


def _local_scalar_dense(self):
    """The first element as a Python number (what ``item()`` reads; torch does not check the size)."""
    data = self._data.get() if hasattr(self._data, "get") else self._data
    if data.size == 0:
        raise RuntimeError("_local_scalar_dense: Empty tensor not supported")
    return data.reshape(-1)[0].item()


def _meta_local_scalar_dense(self):
    raise RuntimeError("Tensor.item() cannot be called on meta tensors")


def _meta_equal(self, other):
    # No Meta kernel in torch: a result that is data has none. FakeTensorMode refuses it first
    # (its data_dependent_output tag).
    raise meta_fallback_error("aten::equal")


def tile(self, dims):
    dims = [int(d) for d in dims]
    if len(dims) < self.dim():
        dims = [1] * (self.dim() - len(dims)) + dims
    return A.repeat(self, dims)


KERNELS = {
    "bitwise_left_shift.Tensor": _shift(_left, "lshift"),
    "bitwise_left_shift.Tensor_Scalar": _shift(_left, "lshift"),
    "bitwise_right_shift.Tensor": _shift(_right, "rshift"),
    "bitwise_right_shift.Tensor_Scalar": _shift(_right, "rshift"),
    "index_add": index_add, "index_add_": index_add_, "scatter_add_": scatter_add_, "roll": roll,
    "nan_to_num": nan_to_num, "isin.Tensor_Tensor": isin, "equal": equal,
    "_local_scalar_dense": _local_scalar_dense,
}
META_KERNELS = {"equal": _meta_equal, "_local_scalar_dense": _meta_local_scalar_dense}
COMPOSITE = {
    "norm.Scalar": norm_scalar, "norm.ScalarOpt_dim": norm_dim,
    "var.dim": _var_std(lambda *a, **k: A.var__correction(*a, **k)),
    "std.dim": _var_std(lambda *a, **k: A.std__correction(*a, **k)),
    "var": _var_std_all(lambda *a, **k: A.var__correction(*a, **k)),
    "std": _var_std_all(lambda *a, **k: A.std__correction(*a, **k)),
    "tile": tile,
}
POINTWISE = {"bitwise_left_shift.Tensor", "bitwise_left_shift.Tensor_Scalar", "bitwise_right_shift.Tensor",
             "bitwise_right_shift.Tensor_Scalar", "nan_to_num"}
