"""Indexing, gather/scatter, masking (numpy)."""

import numpy as np

from .common import Tensor, _wrap_dim, check_same_device, checked_fill_of, inplace_result, out

__all__ = ["KERNELS"]


def _index_key(self, indices):
    if len(indices) > self._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {self._data.ndim} (got {len(indices)})")
    key = []
    for idx in indices:
        if idx is None:
            key.append(slice(None))
        elif idx._data.dtype.kind in "biu":
            key.append(idx._data)
        else:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    return tuple(key)


def index(self, indices):
    check_same_device("aten::index", self, *(i for i in indices if i is not None))
    try:
        return out(np.asarray(self._data[_index_key(self, indices)]), self)
    except IndexError as e:
        raise IndexError(f"index: {e}") from None


def index_put_(self, indices, values, accumulate=False):
    check_same_device("aten::index_put_", self, values, *(i for i in indices if i is not None))
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
    if index._data.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    d = _wrap_dim(dim, self._data.ndim)
    return out(np.take(self._data, index._data.reshape(-1).astype(np.int64), axis=d), self)


def gather(self, dim, index, *, sparse_grad=False):
    check_same_device("aten::gather", self, index)
    d = _wrap_dim(dim, self._data.ndim)
    if index._data.dtype != np.int64:
        raise RuntimeError("gather(): Expected dtype int64 for index")
    return out(np.take_along_axis(self._data, index._data, axis=d), self)


def _scatter_into(r, self, dim, index, src, name, reduce=None):
    """Write ``src`` (a tensor or a number) into the array ``r`` at ``index`` along ``dim``."""
    check_same_device(name, self, index, src)
    if index._data.dtype != np.int64:
        raise RuntimeError(f"{name.split('::')[1]}(): Expected dtype int64 for index")
    if index._data.ndim != self._data.ndim and index._data.size:
        raise RuntimeError(f"Index tensor must have the same number of dimensions as self tensor ({name})")
    d = _wrap_dim(dim, self._data.ndim)
    idx = index._data
    values = src._data if isinstance(src, Tensor) else np.asarray(src, dtype=r.dtype)
    if isinstance(src, Tensor):
        values = values[tuple(slice(0, s) for s in idx.shape)]
    else:
        values = np.broadcast_to(values, idx.shape)
    grids = list(np.indices(idx.shape, sparse=True))
    grids[d] = idx
    if reduce == "add":
        np.add.at(r, tuple(grids), values.astype(r.dtype, copy=False))
    else:
        r[tuple(grids)] = values
    return r


def _scatter(self, dim, index, src):
    return out(_scatter_into(self._data.copy(), self, dim, index, src, "aten::scatter"), self)


def scatter_(self, dim, index, src):
    if not self._data.flags.writeable:
        raise RuntimeError("aten::scatter_: the destination is a read-only (expanded) view; clone() it first")
    _scatter_into(self._data, self, dim, index, src, "aten::scatter_")
    self._bump_version()
    return self


def scatter_add(self, dim, index, src):
    return out(_scatter_into(self._data.copy(), self, dim, index, src, "aten::scatter_add", "add"), self)


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
    return out(np.stack(np.nonzero(self._data), axis=1).astype(np.int64).reshape(-1, self._data.ndim), self)


KERNELS = {
    "index.Tensor": index, "index_put_": index_put_, "index_put": index_put,
    "index_select": index_select, "gather": gather, "scatter.src": _scatter, "scatter.value": _scatter,
    "masked_fill.Scalar": masked_fill, "masked_fill.Tensor": masked_fill,
    "masked_fill_.Scalar": masked_fill_, "masked_fill_.Tensor": masked_fill_, "nonzero": nonzero,
    "scatter_.src": scatter_, "scatter_.value": scatter_, "scatter_add": scatter_add,
}

DATA_DEPENDENT = {"nonzero"}
