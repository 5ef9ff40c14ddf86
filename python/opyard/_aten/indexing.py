"""Indexing, gather/scatter, masking (numpy)."""

import warnings

import numpy as np

from .. import _core
from .. import _dtype as D

from .common import Tensor, _wrap_dim, check_same_device, checked_fill_of, inplace_result, out, read_only_error
from .scalars import checked

__all__ = ["KERNELS"]


# numpy dtypes compared with dtype objects, not with scalar types (which numpy converts at each test)
_INT64 = np.dtype(np.int64)
_INDEX_DTYPES = (_INT64, np.dtype(np.int32))
_UINT8, _BOOL = np.dtype(np.uint8), np.dtype(np.bool_)
_ndarray = np.ndarray
_FEW = 32  # an index of at most this many elements is bounds-checked as Python ints


def _first_outside(a, lo, hi):
    """The first element (row-major) of the integer array ``a`` outside ``[lo, hi)``, or None. A
    small index is read as Python ints: numpy's comparisons and reductions cost more than a few
    elements do."""
    if a.size <= _FEW:
        for v in a.ravel().tolist():
            if not lo <= v < hi:
                return v
        return None
    bad = (a < lo) | (a >= hi)
    return int(a[bad].reshape(-1)[0]) if bad.any() else None


def _index_key(self, indices):
    """The numpy key of ``aten::index``/``index_put_`` with torch's rules: int64/int32 indices, bool
    masks (a uint8 index is torch's deprecated mask form), each mask consuming its own dims; other
    dtypes refused with torch's message."""
    key = []
    used = 0
    for idx in indices:
        if idx is None:
            key.append(slice(None))
            used += 1
            continue
        a = idx._data
        if a.dtype == _UINT8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                          "instead.", UserWarning, stacklevel=4)
            a = a.astype(bool)
        shape = self._data.shape
        if a.dtype == _BOOL:
            for i, n in enumerate(a.shape):
                if used + i < len(shape) and n != shape[used + i]:
                    raise IndexError(f"The shape of the mask {list(a.shape)} at index {i} does not match the shape "
                                     f"of the indexed tensor {list(shape)} at index {used + i}")
            used += a.ndim
        elif a.dtype in _INDEX_DTYPES:
            if a.size and used < len(shape):
                n = shape[used]
                v = _first_outside(a, -n, n)
                if v is not None:
                    raise IndexError(f"index {v} is out of bounds for dimension {used} with size {n}")
            used += 1
        else:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        key.append(a)
    if used > self._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self._data.ndim} (got {used})")
    return tuple(key)


def index(self, indices):
    check_same_device("aten::index", self, *(i for i in indices if i is not None))
    x = self._data
    try:
        key = _index_key(self, indices)
        if len(key) == 1 and key[0].__class__ is _ndarray and key[0].dtype in _INDEX_DTYPES \
                and x.__class__ is _ndarray and x.flags.c_contiguous:
            # x[i] of a row-major array by one integer index (checked in range): numpy's ``take``
            # gives the same row-major copy for a fifth of fancy indexing's cost
            return out(x.take(key[0], axis=0), self)
        return out(np.asarray(x[key]), self)
    except IndexError as e:
        raise IndexError(f"index: {e}") from None


def index_put_(self, indices, values, accumulate=False):
    check_same_device("aten::index_put_", self, values, *(i for i in indices if i is not None))
    if values._data.dtype != self._data.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                           f"{D.legacy_name(self.dtype)} for the destination and {D.legacy_name(values.dtype)} "
                           "for the source.")
    if (len(indices) == 1 and indices[0] is not None and indices[0]._data.dtype == np.uint8
            and values._data.size == 1 and not accumulate):
        # torch writes one value through a single mask with masked_fill_, which wants a bool mask
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    key = _index_key(self, indices)
    if accumulate:
        np.add.at(self._data, key, values._data.astype(self._data.dtype, copy=False))
        self._bump_version()
        return self
    if not self._data.flags.writeable:
        raise RuntimeError("index_put_: the destination is a read-only (expanded or meta) view; clone() it first")
    self._data[key] = values._data
    self._bump_version()
    return self


def index_put(self, indices, values, accumulate=False):
    copy = out(self._data.copy(), self)
    return index_put_(copy, indices, values, accumulate)


def index_select(self, dim, index):
    check_same_device("aten::index_select", self, index)
    idx = index._data
    if idx.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    if idx.dtype not in _INDEX_DTYPES:
        raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
    x = self._data
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:  # torch: a scalar selects from itself, by a one-element index
        if idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        if int(idx.reshape(-1)[0]) != 0:
            raise IndexError("index out of range in self")
        return out(x.copy(), self)
    idx = idx.reshape(-1)
    if idx.size and _first_outside(idx, 0, x.shape[d]) is not None:  # no negative indices, as torch
        raise IndexError("index out of range in self")
    return out(x.take(idx, axis=d), self)  # (np.take's own call)


def _nonempty_dims(x):
    """torch's ``ensure_nonempty_dim``: a scalar counts as one dimension."""
    return max(x.ndim, 1)


def _index_dtype(name, idx):
    if idx.dtype not in _INDEX_DTYPES:
        raise RuntimeError(f"{name}(): Expected dtype int32/int64 for index")


def _check_bounds(idx, d, n):
    """torch's bounds check of gather/scatter indices: 0 <= i < n (no negative indices)."""
    if idx.size:
        v = _first_outside(idx, 0, n)
        if v is not None:
            raise RuntimeError(f"index {v} is out of bounds for dimension {d} with size {n}")


def _as_vector(x):
    return x.reshape(1) if x.ndim == 0 else x


def gather(self, dim, index, *, sparse_grad=False):
    check_same_device("aten::gather", self, index)
    x, idx = self._data, index._data
    d = _wrap_dim(dim, x.ndim)
    if idx.size == 0:  # torch: an empty index selects nothing and is not checked further
        return out(np.empty(idx.shape, x.dtype), self)
    _index_dtype("gather", idx)
    if _nonempty_dims(idx) != _nonempty_dims(x):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    xv, iv = _as_vector(x), _as_vector(idx)
    for i in range(xv.ndim):
        if i != d and iv.shape[i] > xv.shape[i]:
            raise RuntimeError(f"Size does not match at dimension {i} expected index {list(idx.shape)} to be no "
                               f"larger than self {list(x.shape)} apart from dimension {d}")
    if x.ndim and idx.dtype == _INT64:
        fast = _core._select_gather(x, d, idx)  # Rust: contiguous data, index of its shape apart from dim
        if fast is not None:
            return out(fast, self)
    _check_bounds(iv, d, xv.shape[d])
    part = xv[tuple(slice(0, n) if i != d else slice(None) for i, n in enumerate(iv.shape))]
    return out(np.take_along_axis(part, iv.astype(np.int64, copy=False), axis=d).reshape(idx.shape), self)


def _scatter_into(r, self, dim, index, src, name, reduce=None):
    """Write ``src`` (a tensor or a number) into the array ``r`` at ``index`` along ``dim``, with torch's
    checks (``scatter_gather_dtype_check``, ``scatter_shape_check``, the bounds); ``r=None``: into a copy
    of ``self``'s array, returned (the Rust kernel makes it when it takes the inputs)."""
    check_same_device(name, self, index, src)
    op = name.split("::")[1].rstrip("_")
    idx = index._data
    x = self._data
    if idx.size == 0:
        return x.copy() if r is None else r
    _index_dtype(op, idx)
    if isinstance(src, Tensor) and src._data.dtype != x.dtype:
        raise RuntimeError(f"{op}(): Expected self.dtype to be equal to src.dtype")
    if _nonempty_dims(idx) != _nonempty_dims(x):
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    if isinstance(src, Tensor) and _nonempty_dims(idx) != _nonempty_dims(src._data):
        raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
    d = _wrap_dim(dim, x.ndim)
    iv, xv = _as_vector(idx), _as_vector(x)
    sv = _as_vector(src._data) if isinstance(src, Tensor) else None
    if any((i != d and iv.shape[i] > xv.shape[i]) or (sv is not None and iv.shape[i] > sv.shape[i])
           for i in range(iv.ndim)):
        src_part = f" and to be no larger size than src {list(src._data.shape)}" if sv is not None else ""
        raise RuntimeError(f"Expected index {list(idx.shape)} to be no larger than self {list(x.shape)} apart from "
                           f"dimension {d}{src_part}")
    if r is None:  # a new result: Rust takes contiguous data, index and src of its shape apart from dim
        fast = None
        if x.ndim and idx.dtype == _INT64:
            if sv is not None:
                fast = _core._select_scatter(x, d, idx, src._data, False, reduce or "")
            else:
                try:  # the fallback's conversion below; on its error the fallback raises in its order
                    v = np.asarray(src, dtype=x.dtype)
                except (OverflowError, TypeError, ValueError):
                    v = None
                if v is not None:
                    fast = _core._select_scatter(x, d, idx, v, True, reduce or "")
        if fast is not None:
            return fast
        r = x.copy()
    rv = _as_vector(r)
    _check_bounds(iv, d, xv.shape[d])
    if sv is not None:
        values = sv[tuple(slice(0, s) for s in iv.shape)]
    else:
        values = np.broadcast_to(np.asarray(src, dtype=r.dtype), iv.shape)
    grids = list(np.indices(iv.shape, sparse=True))
    grids[d] = iv.astype(np.int64, copy=False)
    if reduce == "add":
        if r.dtype == np.bool_:
            np.logical_or.at(rv, tuple(grids), values.astype(bool, copy=False))
        else:
            np.add.at(rv, tuple(grids), values.astype(r.dtype, copy=False))
    elif reduce == "multiply":
        if r.dtype == np.bool_:
            np.logical_and.at(rv, tuple(grids), values.astype(bool, copy=False))
        else:
            np.multiply.at(rv, tuple(grids), values.astype(r.dtype, copy=False))
    else:
        rv[tuple(grids)] = values
    return r


def _reduce_arg(reduce):
    if reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    return reduce


def _scatter_value(src, self):
    """A Scalar ``src`` in ``self``'s element type (torch's conversion: truncated, wrapped or refused)."""
    return src if isinstance(src, Tensor) else checked(src, self.dtype)


def scatter_reduce_legacy(self, dim, index, src, *, reduce):
    """``scatter(..., reduce="add"|"multiply")`` (``scatter.reduce`` / ``scatter.value_reduce``)."""
    reduce = _reduce_arg(reduce)
    return out(_scatter_into(None, self, dim, index, _scatter_value(src, self), "aten::scatter", reduce), self)


def scatter_reduce_legacy_(self, dim, index, src, *, reduce):
    reduce = _reduce_arg(reduce)
    if not self._data.flags.writeable:
        raise read_only_error("aten::scatter_", self._data)
    _scatter_into(self._data, self, dim, index, _scatter_value(src, self), "aten::scatter_", reduce)
    self._bump_version()
    return self


def _scatter(self, dim, index, src):
    return out(_scatter_into(None, self, dim, index, src, "aten::scatter"), self)


def scatter_(self, dim, index, src):
    if not self._data.flags.writeable:
        raise RuntimeError("aten::scatter_: the destination is a read-only (expanded) view; clone() it first")
    _scatter_into(self._data, self, dim, index, src, "aten::scatter_")
    self._bump_version()
    return self


def scatter_add(self, dim, index, src):
    return out(_scatter_into(None, self, dim, index, src, "aten::scatter_add", "add"), self)


def masked_fill(self, mask, value):
    check_same_device("aten::masked_fill", self, mask)
    if mask._data.dtype != np.bool_:
        raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {mask.dtype.name}")
    v = value._data.item() if isinstance(value, Tensor) else value
    if isinstance(value, Tensor) and value._data.ndim != 0:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")
    v = checked_fill_of(v, self._data)  # a value the dtype cannot hold raises, as in torch
    return out(np.where(mask._data, np.asarray(v).astype(self._data.dtype), self._data), self)


def masked_fill_(self, mask, value):
    return inplace_result(self, masked_fill(self, mask, value)._data, "aten::masked_fill_")


def nonzero(self):
    x = self._data
    if x.ndim == 0:  # torch: one row of no coordinates when the scalar is nonzero
        return out(np.zeros((int(bool(x)), 0), np.int64), self)
    return out(np.stack(np.nonzero(x), axis=1).astype(np.int64).reshape(-1, x.ndim), self)


KERNELS = {
    "index.Tensor": index, "index_put_": index_put_, "index_put": index_put,
    "index_select": index_select, "gather": gather, "scatter.src": _scatter, "scatter.value": _scatter,
    "masked_fill.Scalar": masked_fill, "masked_fill.Tensor": masked_fill,
    "masked_fill_.Scalar": masked_fill_, "masked_fill_.Tensor": masked_fill_, "nonzero": nonzero,
    "scatter_.src": scatter_, "scatter_.value": scatter_, "scatter_add": scatter_add,
    "scatter.reduce": scatter_reduce_legacy, "scatter.value_reduce": scatter_reduce_legacy,
    "scatter_.reduce": scatter_reduce_legacy_, "scatter_.value_reduce": scatter_reduce_legacy_,
}

DATA_DEPENDENT = {"nonzero"}
