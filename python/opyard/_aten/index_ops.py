"""Index ops with a direct numpy equivalent: index_copy, index_fill, scatter_reduce, take,
take_along_dim; the views unfold and tensor_split; ``detach_``.

``take``/``take_along_dim``/``tensor_split`` are compositions (CompositeImplicitAutograd in
torch too), so their gradients and Meta kernels come from the ops they call.
"""

import numpy as np

from .. import _dtype as D
from .._tensor import _make_view
from .common import A, Tensor, _wrap_dim, check_same_device, checked_fill_of, inplace_result, out
from .indexing import _first_outside

__all__ = ["COMPOSITE", "KERNELS", "META_KERNELS", "SCHEMAS", "VIEWS"]

SCHEMAS = (
    "index_copy(Tensor self, int dim, Tensor index, Tensor source) -> Tensor",
    "index_copy_(Tensor(a!) self, int dim, Tensor index, Tensor source) -> Tensor(a!)",
    "index_fill.int_Scalar(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
    "index_fill.int_Tensor(Tensor self, int dim, Tensor index, Tensor value) -> Tensor",
    "index_fill_.int_Scalar(Tensor(a!) self, int dim, Tensor index, Scalar value) -> Tensor(a!)",
    "index_fill_.int_Tensor(Tensor(a!) self, int dim, Tensor index, Tensor value) -> Tensor(a!)",
    "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor",
    "scatter_reduce_.two(Tensor(a!) self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True) -> Tensor(a!)",
    "take(Tensor self, Tensor index) -> Tensor",
    "take_along_dim(Tensor self, Tensor indices, int? dim=None) -> Tensor",
    "unfold(Tensor(a) self, int dimension, int size, int step) -> Tensor(a)",
    "tensor_split.sections(Tensor(a -> *) self, SymInt sections, int dim=0) -> Tensor(a)[]",
    "tensor_split.indices(Tensor(a -> *) self, SymInt[] indices, int dim=0) -> Tensor(a)[]",
    "tensor_split.tensor_indices_or_sections(Tensor(a -> *) self, Tensor tensor_indices_or_sections, int dim=0) "
    "-> Tensor(a)[]",
    "detach_(Tensor(a!) self) -> Tensor(a!)",
)


def _check_index(name, index):
    idx = index._data
    if idx.dtype.kind not in "iu":
        raise IndexError(f"{name}(): Expected a long tensor for index, but got {index.dtype}")
    if idx.ndim > 1:
        raise IndexError(f"{name}(): Index is supposed to be a vector")
    return idx.reshape(-1)


def _in_range(idx, size, dim, prefix="", from_end=True):
    v = _first_outside(idx, -size if from_end else 0, size)
    if v is not None:
        raise IndexError(f"{prefix}index {v} is out of bounds for dimension {dim} with size {size}")


def _leading(arr, d):
    """``arr`` with dim ``d`` first (numpy's moveaxis; dim 0 already is, and its moveaxis is the same
    view of ``arr``)."""
    return arr if d == 0 else np.moveaxis(arr, d, 0)


def index_copy(self, dim, index, source):
    check_same_device("aten::index_copy", self, index, source)
    x, sx = self._data, source._data
    d = _wrap_dim(dim, x.ndim)
    _index_copy_checks(d, index, self, source)
    idx = index._data.reshape(-1)
    r = x.copy()
    _in_range(idx, x.shape[d] if x.ndim else 1, d, "index_copy_(): ", from_end=False)  # none from the end
    if not x.ndim:
        r[...] = sx.reshape(-1)[-1]  # the last write wins, as torch's loop over the indices
        return out(r, self)
    src = sx if sx.ndim else sx.reshape(x.shape[:d] + (1,) + x.shape[d + 1:])
    _leading(r, d)[idx] = _leading(src, d)
    return out(r, self)


def _index_copy_checks(d, index, self, source):
    """torch's checks of ``index_copy`` (its meta function), in its order: a vector of int64 indices, one
    index for a 0-d source, the same number of dims unless one side is 0-d, one dtype, the same slices
    (the shapes without ``dim``), one index per slice of ``source``."""
    idx, x, sx = index._data, self._data, source._data
    if idx.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    if sx.ndim == 0 and idx.size != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {idx.size})")
    if sx.ndim != x.ndim and sx.ndim and x.ndim:
        raise IndexError("index_copy_(): When source and destination are not scalars, their dimensionality must "
                         f"match. Source dimensionality ({sx.ndim}), destination dimensionality ({x.ndim})")
    if idx.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {D.legacy_name(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{D.legacy_name(self.dtype)} and (source) {D.legacy_name(source.dtype)}")
    xs, ss = list(x.shape), list(sx.shape)
    if xs:
        del xs[d]
    if ss:
        del ss[d]
    if xs != ss:  # torch prints a shape as its sizes between spaces here
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
                           f"shape: {' '.join(map(str, xs))} at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, ss))} at dimension 0.")
    if sx.ndim and idx.size != sx.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({idx.size}) should be equal to source.size(dim) "
                         f"({sx.shape[d]})")


def index_fill(self, dim, index, value):
    check_same_device("aten::index_fill", self, index)
    x = self._data
    d = _wrap_dim(dim, x.ndim)
    idx = _check_index("index_fill_", index)
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise RuntimeError(f"index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        value = value._data.item()
    if type(value) is complex and x.dtype.kind != "c":
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not supported")
    value = checked_fill_of(value, x)  # a value the dtype cannot hold raises, as in torch
    r = x.copy(order="K")  # torch's index_fill keeps the input's layout (index_copy does not)
    if not x.ndim:
        if idx.size:
            _in_range(idx, 1, 0)
            r[...] = value
        return out(r, self)
    _in_range(idx, x.shape[d], d)
    _leading(r, d)[idx] = value
    return out(r, self)


_REDUCE = ("sum", "prod", "mean", "amax", "amin")


def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
    check_same_device("aten::scatter_reduce", self, index, src)
    if reduce not in _REDUCE:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    x, idx, s = self._data, index._data, src._data
    if idx.dtype.kind not in "iu":
        raise RuntimeError("scatter_reduce(): Expected dtype int64 for index")
    if self.dtype is not src.dtype:
        raise RuntimeError("scatter_reduce(): Expected self.dtype to be equal to src.dtype")
    d = _wrap_dim(dim, x.ndim)
    if max(idx.ndim, 1) != max(x.ndim, 1) and idx.size:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    shape = x.shape
    if x.ndim == 0 or idx.ndim == 0 or s.ndim == 0:  # a 0-d tensor is a one-element vector, as in torch
        x, idx, s = np.reshape(x, (-1,)) if x.ndim == 0 else x, np.atleast_1d(idx), np.atleast_1d(s)
    if idx.size and (idx.max() >= max(x.shape[d] if x.ndim else 1, 1) or idx.min() < 0):
        bad = int(idx.max() if idx.max() >= (x.shape[d] if x.ndim else 1) else idx.min())
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {x.shape[d] if x.ndim else 1}")
    coords = list(np.indices(idx.shape, sparse=True))
    coords[d] = idx
    target = tuple(np.broadcast_arrays(*coords))
    vals = s[tuple(slice(0, n) for n in idx.shape)]
    acc = np.array(x, dtype=np.float64 if reduce == "mean" and x.dtype.kind in "biu" else x.dtype, order="C")
    hit = np.zeros(x.shape, bool)
    hit[target] = True
    if not include_self:
        fill = {"sum": 0, "mean": 0, "prod": 1, "amax": -np.inf, "amin": np.inf}[reduce]
        if x.dtype.kind in "biu" and reduce in ("amax", "amin"):
            info = np.iinfo(x.dtype)
            fill = info.min if reduce == "amax" else info.max
        acc[hit] = fill
    ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}[reduce]
    ufunc.at(acc, target, vals)
    if reduce == "mean":
        count = np.full(x.shape, 1 if include_self else 0, np.int64)
        np.add.at(count, target, 1)
        count = np.maximum(count, 1)
        # floating types (bfloat16's numpy kind is "V") divide; integral ones floor, as torch's kernel
        inexact = self.dtype.is_floating_point or self.dtype.is_complex
        acc = acc / np.asarray(count, acc.dtype) if inexact else np.floor_divide(acc, count)
    return out(np.asarray(acc).astype(x.dtype, copy=False).reshape(shape), self)


def take(self, index):
    check_same_device("aten::take", self, index)
    n = self.numel()
    idx = index._data
    if hasattr(idx, "size") and idx.size and not index.is_meta and idx.dtype.kind in "iu":
        bad = _first_outside(idx, -n, n)
        if bad is not None:
            raise IndexError(f"out of range: tried to access index {bad} on a tensor of {n} elements.")
    return A.reshape(A.index__Tensor(A.reshape(self, [-1]), [A.reshape(index, [-1])]), list(index.shape))


def take_along_dim(self, indices, dim=None):
    if dim is None:  # torch's gather of the flattened data: a vector, no index from the end
        return A.gather(A.reshape(self, [-1]), 0, A.reshape(indices, [-1]))
    if self.dim() != indices.dim():
        raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of "
                           f"dimensions, but got {self.dim()} dimensions for input, and {indices.dim()} "
                           "dimensions for indices")
    d = _wrap_dim(dim, self.dim())
    if not self.dim():
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    shape_self, shape_idx = list(self.shape), list(indices.shape)
    shape_self[d] = shape_idx[d] = 1
    b = list(np.broadcast_shapes(tuple(shape_self), tuple(shape_idx)))
    bs, bi = list(b), list(b)
    bs[d], bi[d] = self.shape[d], indices.shape[d]
    n = self.shape[d]
    if n:  # torch takes negative indices from the end (gather itself refuses them)
        indices = A.where__self(A.lt__Scalar(indices, 0), A.remainder__Scalar(indices, n), indices)
    return A.gather(A.expand(self, bs), d, A.expand(indices, bi))


def unfold(self, dimension, size, step):
    x = self._data
    d = _wrap_dim(dimension, max(x.ndim, 1))
    n = x.shape[d] if x.ndim else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    if step <= 0:
        raise RuntimeError(f"step is {step} but must be > 0")
    if size < 0:
        raise RuntimeError(f"size is {size} but must be >= 0")
    if not x.ndim:
        return _make_view(x.reshape(1), self)
    count = (n - size) // step + 1
    shape = x.shape[:d] + (count,) + x.shape[d + 1:] + (size,)
    strides = x.strides[:d] + (x.strides[d] * step,) + x.strides[d + 1:] + (x.strides[d],)
    return _make_view(np.lib.stride_tricks.as_strided(x, shape, strides, writeable=x.flags.writeable), self)


def _split_needs_dims(self):
    if not self.dim():
        raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")


def tensor_split_sections(self, sections, dim=0):
    _split_needs_dims(self)
    if sections <= 0:
        raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
    d = _wrap_dim(dim, self.dim())
    n = self.shape[d]
    small, extra = divmod(n, sections)
    bounds, start = [], 0
    for i in range(sections):
        length = small + (1 if i < extra else 0)
        bounds.append((start, length))
        start += length
    return [A.narrow(self, d, s, length) for s, length in bounds]


def tensor_split_indices(self, indices, dim=0):
    _split_needs_dims(self)
    d = _wrap_dim(dim, self.dim())
    n = self.shape[d]
    pieces, start = [], 0
    for stop in list(indices) + [n]:
        s, e = min(max(start, 0), n), min(max(stop, 0), n)
        pieces.append(A.slice__Tensor(self, d, s, max(e, s)))
        start = stop
    return pieces


def tensor_split_tensor(self, tensor_indices_or_sections, dim=0):
    """``tensor_split`` with the sections (a 0-dim tensor) or indices (a 1-dim tensor) as int64 data."""
    t = tensor_indices_or_sections
    if t.device.type != "cpu":
        raise RuntimeError("tensor_split expected tensor_indices_or_sections to be on cpu, but it's on "
                           f"{t.device}")
    if t.dtype is not D.int64:
        raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                           f"{D.legacy_name(t.dtype)}")
    if t.dim() > 1:
        raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                           f"one-dimensional tensor, but got a tensor with {t.dim()} dims")
    if t.dim() == 0:
        return A.tensor_split__sections(self, int(t.item()), dim)
    return A.tensor_split__indices(self, [int(i) for i in t.tolist()], dim)


def detach_(self):
    """Data and metadata stay; the autograd kernel (``autograd/derivatives``) drops the history."""
    return self


def _inplace(fn, name):
    op_name = "aten::" + name

    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, op_name)
    kernel.__name__ = name.replace(".", "_")
    return kernel


KERNELS = {
    "index_copy": index_copy, "index_copy_": _inplace(index_copy, "index_copy_"),
    "index_fill.int_Scalar": index_fill, "index_fill.int_Tensor": index_fill,
    "index_fill_.int_Scalar": _inplace(index_fill, "index_fill_.int_Scalar"),
    "index_fill_.int_Tensor": _inplace(index_fill, "index_fill_.int_Tensor"),
    "scatter_reduce.two": scatter_reduce, "scatter_reduce_.two": _inplace(scatter_reduce, "scatter_reduce_.two"),
    "unfold": unfold, "detach_": detach_,
}
COMPOSITE = {
    "take": take, "take_along_dim": take_along_dim,
    "tensor_split.sections": tensor_split_sections, "tensor_split.indices": tensor_split_indices,
    "tensor_split.tensor_indices_or_sections": tensor_split_tensor,
}
VIEWS = {"unfold"}
META_KERNELS = {"detach_": detach_}
