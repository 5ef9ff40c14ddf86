"""Kernels real extension code calls beside the basics: ``view(dtype)``, ``as_strided``,
``split`` with a list of sizes, ``aminmax``, ``cumprod``, ``fmod``, ``round(decimals=)``, ``exp2``,
``count_nonzero``, ``masked_select``, ``diff``."""

import numpy as np
from numpy.lib.stride_tricks import as_strided as _np_as_strided

from .. import _dtype as D
from . import return_types as RT
from .common import A, INEXACT, _make_view, _wrap_dim, check_same_device, dims_arg, out
from .pointwise import binary, real_only
from .precision import scanned
from .reduction import nonempty_dims

__all__ = ["KERNELS", "META_KERNELS", "COMPOSITE", "DATA_DEPENDENT"]


def _view_dtype_geometry(self, dtype):
    """Shape and element strides of ``self`` reinterpreted as ``dtype`` (torch's rules and
    messages for different element sizes)."""
    old, new = self.dtype, dtype
    shape, strides = list(self.shape), list(self.stride())
    if old.itemsize == new.itemsize:
        return shape, strides, self.storage_offset()
    what = f"to view {D.legacy_name(old)} as {D.legacy_name(new)} (different element sizes)"
    if not shape:
        raise RuntimeError(f"self.dim() cannot be 0 {what}")
    if strides[-1] != 1:
        raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {strides[-1]}")
    offset = self.storage_offset()
    if new.itemsize > old.itemsize:
        ratio = new.itemsize // old.itemsize
        if shape[-1] % ratio:
            raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {shape[-1]}")
        if offset % ratio:
            raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but got {offset}")
        for i, st in enumerate(strides[:-1]):
            if st % ratio:
                raise RuntimeError(f"self.stride({i}) must be divisible by {ratio} {what}, but got {st}")
        shape[-1] //= ratio
        return shape, [st // ratio for st in strides[:-1]] + [1], offset // ratio
    ratio = old.itemsize // new.itemsize
    shape[-1] *= ratio
    return shape, [st * ratio for st in strides[:-1]] + [1], offset * ratio


def view_dtype(self, dtype):
    _view_dtype_geometry(self, dtype)  # torch's checks, before numpy's own
    x = self._data
    arr = x.view(dtype.np) if x.ndim else x.reshape(1).view(dtype.np).reshape(())
    return _make_view(arr, self)


def meta_view_dtype(self, dtype):
    shape, strides, offset = _view_dtype_geometry(self, dtype)
    m = _make_view(np.broadcast_to(np.zeros((), dtype.np), shape), self)
    m._meta_strides = tuple(strides)
    m._meta_offset = offset
    return m


def _negative(size, stride):
    """torch's refusals: negative strides first, then negative sizes (its storage size check)."""
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {stride}")
    raise RuntimeError(f"Storage size calculation overflowed with sizes={size} and strides={stride}")


def _strided_checks(self, size, stride, storage_offset):
    size, stride = [int(s) for s in size], [int(s) for s in stride]
    if len(size) != len(stride):
        raise RuntimeError(f"mismatch in length of strides and shape (as_strided: {len(stride)} strides "
                           f"for {len(size)} sizes)")
    if any(s < 0 for s in stride):
        _negative(size, stride)
    root = self._base if self._base is not None else self
    offset = self.storage_offset() if storage_offset is None else int(storage_offset)
    if offset < 0:  # numpy would index from the end, and the view would read past the buffer
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(s < 0 for s in size):
        _negative(size, stride)
    need = offset + 1 + sum((n - 1) * st for n, st in zip(size, stride)) if all(size) else 0
    storage = root._data.size
    if need > storage:
        raise RuntimeError(f"setStorage: sizes {size}, strides {stride}, storage offset {offset}, and "
                           f"itemsize {self._data.itemsize} requiring a storage size of "
                           f"{need * self._data.itemsize} are out of bounds for storage of size "
                           f"{storage * self._data.itemsize}")
    return size, stride, offset, root


def as_strided(self, size, stride, storage_offset=None):
    size, stride, offset, root = _strided_checks(self, size, stride, storage_offset)
    base = root._data
    if not base.flags.c_contiguous:
        raise RuntimeError("as_strided: the tensor's storage is not a dense array (an expanded view); "
                           "clone() it first")
    item = base.itemsize
    flat = base.reshape(-1)[offset:] if base.size else base.reshape(-1)
    arr = _np_as_strided(flat, size, [s * item for s in stride])
    return _make_view(arr, self)


def meta_as_strided(self, size, stride, storage_offset=None):
    size, stride, offset, _ = _strided_checks(self, size, stride, storage_offset)
    m = _make_view(np.broadcast_to(np.zeros((), self._data.dtype), size), self)
    m._meta_strides = tuple(stride)
    m._meta_offset = offset
    return m


def split_with_sizes(self, split_sizes, dim=0):
    x = self._data
    if not x.ndim:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, x.ndim)
    sizes = [int(s) for s in split_sizes]
    if sum(sizes) != x.shape[d] or any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {x.shape[d]} (input "
                           f"tensor's size at dimension {d}), but got split_sizes={sizes}")
    starts = np.cumsum([0] + sizes[:-1])
    return [_make_view(x[(slice(None),) * d + (slice(s, s + n),)], self) for s, n in zip(starts, sizes)]


def aminmax(self, *, dim=None, keepdim=False):
    x = self._data
    if x.size == 0 and dim is None:
        raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation "
                           "has no identity.")
    axis = None if dim is None else _wrap_dim(dim, x.ndim)
    nonempty_dims(x, dim, "aminmax")
    kd = keepdim if dim is not None else False
    return RT.aminmax((out(np.asarray(np.amin(x, axis=axis, keepdims=kd)), self),
                       out(np.asarray(np.amax(x, axis=axis, keepdims=kd)), self)))


def cumprod(self, dim, *, dtype=None):
    x = self._data
    # torch writes the scan row-major whatever the input's layout
    return out(scanned(np.cumprod, x, dtype, _wrap_dim(dim, x.ndim), True), self)


def round_decimals(self, *, decimals):
    x = self._data
    if x.dtype not in INEXACT or x.dtype.kind == "c":
        # decimals == 0 takes torch's plain rounding kernel (``round_vml_cpu``), others its own
        kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.legacy_name(self.dtype)}'")
    return out(np.round(x, decimals), self)


def exp2(self):
    x = self._data
    if x.dtype not in INEXACT:
        x = x.astype(D.get_default_dtype().np)
    return out(np.exp2(x), self)


def count_nonzero(self, dim=None):
    x = self._data
    return out(np.asarray(np.count_nonzero(x, axis=dims_arg(dim, x.ndim)), dtype=np.int64), self)


def masked_select(self, mask):
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_select: expected BoolTensor for mask, got {D.legacy_name(mask.dtype)}")
    check_same_device("aten::masked_select", self, mask)
    x, m = np.broadcast_arrays(self._data, mask._data)
    return out(x[m], self)


def diff(self, n=1, dim=-1, prepend=None, append=None):
    if self.dim() == 0:
        raise RuntimeError("diff expects input to be at least one-dimensional")
    if n < 0:
        raise RuntimeError(f"order must be non-negative but got {n}")
    if n == 0:  # torch: a copy of the input, prepend and append left out
        return A.clone(self)
    parts = [t for t in (prepend, self, append) if t is not None]
    x = A.cat(parts, dim) if len(parts) > 1 else self
    for _ in range(n):
        size = x.shape[dim]
        if size == 0:
            break
        hi = A.narrow(x, dim, 1, size - 1)
        lo = A.narrow(x, dim, 0, size - 1)
        x = A.logical_xor(hi, lo) if x.dtype is D.bool else A.sub__Tensor(hi, lo)
    return x


def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, pin_memory=None):
    return A.empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype,
                           device=self._dev if device is None else device)


KERNELS = {
    "new_empty_strided": new_empty_strided, "view.dtype": view_dtype, "as_strided": as_strided, "split_with_sizes": split_with_sizes,
    "split.sizes": split_with_sizes, "aminmax": aminmax, "cumprod": cumprod,
    "round.decimals": round_decimals, "exp2": exp2, "count_nonzero": count_nonzero,
    "count_nonzero.dim_IntList": count_nonzero,
    "masked_select": masked_select, "fmod.Tensor": real_only(binary(np.fmod, "aten::fmod"), "fmod"),
    "fmod.Scalar": real_only(binary(np.fmod, "aten::fmod"), "fmod"),
}
# new_empty_strided allocates through empty_strided on its input's device: meta inputs get meta.
META_KERNELS = {"view.dtype": meta_view_dtype, "as_strided": meta_as_strided,
                "new_empty_strided": new_empty_strided}
COMPOSITE = {"diff": diff}
DATA_DEPENDENT = {"masked_select"}
VIEWS = {"split_with_sizes", "split.sizes"}
REDUCTIONS = {"cumprod", "count_nonzero", "count_nonzero.dim_IntList"}
POINTWISE = {"exp2", "round.decimals", "fmod.Tensor", "fmod.Scalar"}
