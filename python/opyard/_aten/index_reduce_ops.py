"""``index_reduce``: the slices of ``source`` along ``dim`` reduced (``prod``, ``mean``, ``amax``,
``amin``) into the slices of ``self`` that ``index`` names, with or without ``self``'s own values
(``include_self``). Duplicate indices reduce together, in index order, in the element type itself
(half and bfloat16 round after every step, as torch's CPU kernel); integer means round down."""

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import _wrap_dim, out

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op

_REDUCES = ("prod", "mean", "amax", "amin")
_UFUNC = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}
_LEGACY = D.legacy_name


def _check(self, dim, index, source, reduce):
    """torch's checks, in torch's order; the wrapped ``dim``."""
    dim = _wrap_dim(dim, self.dim())
    if reduce not in _REDUCES:
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    if index.dim() > 1:
        raise IndexError(f"index_reduce_(): Index is supposed to be a vector, but got dim: {index.dim()} with type: "
                         f"{_LEGACY(index.dtype)} and size: {list(index.shape)}")
    if index.dtype not in (D.int64, D.int32):
        raise RuntimeError(f"index_reduce_(): Expected dtype int32/int64 for index but got: {_LEGACY(index.dtype)}")
    if self.dtype is not source.dtype:
        raise RuntimeError(f"index_reduce_(): self ({_LEGACY(self.dtype)}) and source ({_LEGACY(source.dtype)}) must "
                           "have the same scalar type")
    src_n = source.shape[dim] if source.dim() > 0 else 1
    if index.numel() != src_n:
        raise RuntimeError(f"index_reduce_(): Number of indices ({index.numel()}) should be equal to "
                           f"source.size(dim): ({src_n}), for dim: {dim}")
    self_rest = [s for i, s in enumerate(self.shape) if i != dim]
    src_rest = [s for i, s in enumerate(source.shape) if i != dim]
    if self.dim() != source.dim() or self_rest != src_rest:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {list(self.shape)} source.shape = {list(source.shape)}")
    if self.dtype is D.bool or self.dtype.is_complex:
        raise NotImplementedError(f"\"index_func_\" not implemented for '{_LEGACY(self.dtype)}'")
    return dim


def _identity(reduce, dt):
    if reduce == "prod":
        return 1
    if reduce == "mean":
        return 0
    if dt.is_floating_point:
        return -np.inf if reduce == "amax" else np.inf
    info = np.iinfo(dt.np)
    return info.min if reduce == "amax" else info.max


def _accumulate(ufunc, res, idx, src, dt):
    """``res[idx[k]] = ufunc(res[idx[k]], src[k])`` for every k in order (torch's sequential loop,
    which half and bfloat16 round step by step in). The source slices are grouped by index (a stable
    sort keeps their order) and applied a rank at a time: the first slice of every group, then the
    second, ... (vectorised over the groups; as many steps as the most repeated index). A heavily
    repeated index in a type that rounds the same in any order reduces its group at once instead."""
    if idx.size == 0:
        return
    order = np.argsort(idx, kind="stable")
    grouped = idx[order]
    starts = np.flatnonzero(np.r_[True, grouped[1:] != grouped[:-1]])
    counts = np.diff(np.r_[starts, grouped.size])
    targets = grouped[starts]
    depth = int(counts.max())
    if depth > 64 and dt.name not in ("float16", "bfloat16"):
        res[targets] = ufunc(res[targets], ufunc.reduceat(src[order], starts, axis=0))
        return
    if depth > 64:
        ufunc.at(res, idx, src)
        return
    acc = res[targets]
    for k in range(depth):
        live = np.flatnonzero(counts > k)
        acc[live] = ufunc(acc[live], src[order[starts[live] + k]])
    res[targets] = acc


def _reduced(self, dim, index, source, reduce, include_self):
    """The result as an array of ``self``'s dtype and shape."""
    dt = self.dtype
    wide = dt.np
    n = self.shape[dim] if self.dim() else 1
    idx = index._data.reshape(-1).astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= n):
        raise IndexError("index out of range in self")
    res = np.moveaxis(np.array(self._data, dtype=wide).reshape(self.shape or (1,)), dim, 0).copy()
    src = np.moveaxis(np.asarray(source._data, dtype=wide).reshape(source.shape or (1,)), dim, 0)
    if not include_self:
        res[idx] = _identity(reduce, dt)
    if reduce == "mean" and not (dt.is_floating_point or dt.is_complex):
        res = res.astype(np.int64)  # integer means: the sum in int64, divided rounding down
    _accumulate(_UFUNC[reduce], res, idx, src.astype(res.dtype, copy=False), dt)
    if reduce == "mean":
        counts = np.full(res.shape[0], 1 if include_self else 0, dtype=np.int64)
        np.add.at(counts, idx, 1)
        counts = np.maximum(counts, 1).reshape((-1,) + (1,) * (res.ndim - 1))
        res = res // counts if res.dtype.kind in "iu" else res / counts.astype(res.dtype)
    res = np.moveaxis(res, 0, dim).reshape(self.shape)
    return res.astype(dt.np)


@_op("index_reduce(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True) -> Tensor",
     kind="proxy",
     inplace="index_reduce_(Tensor(a!) self, int dim, Tensor index, Tensor source, str reduce, *, "
             "bool include_self=True) -> Tensor(a!)",
     out="index_reduce.out(Tensor self, int dim, Tensor index, Tensor source, str reduce, *, bool include_self=True, "
         "Tensor(a!) out) -> Tensor(a!)")
def index_reduce(self, dim, index, source, reduce, *, include_self=True):
    dim = _check(self, dim, index, source, reduce)
    return out(_reduced(self, dim, index, source, reduce, include_self), self)
