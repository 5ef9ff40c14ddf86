"""Sorting, searching and counting kernels (numpy): argsort, bucketize, searchsorted, argwhere,
kthvalue, repeat_interleave. Ops returning ``(values, indices)`` return torch's named tuples."""

import numpy as np

from .. import _core
from .. import _dtype as D
from .common import Tensor, _wrap_dim, check_same_device, out
from .reduction import ordered, sort_values, values_back
from .return_types import kthvalue as _kthvalue_rt, make as _make_rt, sort as _sort_rt

__all__ = ["KERNELS", "DATA_DEPENDENT"]


def argsort(self, dim=-1, descending=False):
    return out(sort_values(self, _wrap_dim(dim, self._data.ndim), descending, False)[1], self)


def argsort_stable(self, *, stable, dim=-1, descending=False):
    return out(sort_values(self, _wrap_dim(dim, self._data.ndim), descending, bool(stable))[1], self)


def sort_stable(self, *, stable=None, dim=-1, descending=False):
    vals, idx = sort_values(self, _wrap_dim(dim, self._data.ndim), descending, bool(stable))
    return _make_rt(_sort_rt, (out(vals, self), out(idx, self)))


def _search(name, boundaries, values, out_int32, right, side=None, sorter=None):
    """torch's searchsorted: per row of ``boundaries`` (1-D: one row for all values)."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side} ({name})")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of "
                               f"left while right was True ({name})")
        right = side == "right"
    b = boundaries._data
    if sorter is not None:
        b = np.take_along_axis(b, sorter._data, -1)
    v = values._data if isinstance(values, Tensor) else np.asarray(values)
    mode = "right" if right else "left"
    if b.ndim <= 1:
        r = np.searchsorted(b, v, side=mode) if v.size else np.zeros(v.shape, np.int64)
    else:
        if b.shape[:-1] != v.shape[:-1]:
            raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                               f"dimensions of boundaries tensor and input value tensor must match, but "
                               f"we got boundaries tensor {list(b.shape)} and input value tensor "
                               f"{list(v.shape)} ({name})")
        if v.size == 0 or b.shape[-1] == 0:  # nothing to place, or no boundaries: every value goes first
            r = np.zeros(v.shape, np.int64)
        else:
            rows_b = b.reshape(-1, b.shape[-1])
            rows_v = v.reshape(-1, v.shape[-1])
            r = np.stack([np.searchsorted(rb, rv, side=mode) for rb, rv in zip(rows_b, rows_v)]).reshape(v.shape)
    return np.asarray(r, dtype=np.int32 if out_int32 else np.int64)


def bucketize(self, boundaries, *, out_int32=False, right=False):
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    check_same_device("aten::bucketize", self, boundaries)
    ref = self if isinstance(self, Tensor) else boundaries
    return out(_search("aten::bucketize", boundaries, self, out_int32, right), ref)


def searchsorted(sorted_sequence, self, *, out_int32=False, right=False, side=None, sorter=None):
    check_same_device("aten::searchsorted", sorted_sequence, self, sorter)
    return out(_search("aten::searchsorted", sorted_sequence, self, out_int32, right, side, sorter),
               sorted_sequence)


def argwhere(self):
    return out(np.argwhere(self._data).astype(np.int64), self)


def kthvalue(self, k, dim=-1, keepdim=False):
    x = self._data
    data, back = ordered(self, "kthvalue_cpu", ("bool", "uint16", "uint32", "uint64"))
    d = _wrap_dim(dim, x.ndim)
    size = x.shape[d] if x.ndim else 1
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d} "
                           f"(k={k}, size {size})")
    if x.ndim == 0:
        return _make_rt(_kthvalue_rt, (out(x.copy(), self), out(np.asarray(0, dtype=np.int64), self)))
    vals, idx = _core._kthvalue(data, k, d)  # torch's quickselect (Note [Unstable orders])
    vals = values_back(vals, back)
    if not keepdim:
        idx, vals = np.squeeze(idx, d), np.squeeze(vals, d)
    return _make_rt(_kthvalue_rt, (out(vals, self), out(idx.astype(np.int64), self)))


def _repeats(name, repeats, n):
    if isinstance(repeats, Tensor):
        r = repeats._data
        if r.ndim > 1:
            raise RuntimeError(f"{name}: repeats must be 0-dim or 1-dim tensor")
        if r.dtype.kind not in "iu":
            raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for "
                                      f"'{D.legacy_name(repeats.dtype)}' (the repeats of {name})")
        # a single count (0-d, or one element) repeats every element, as torch expands it
        r = np.broadcast_to(r.reshape(-1), (n,)) if r.size == 1 else r
    else:
        r = np.full(n, int(repeats))
    if r.shape != (n,):
        raise RuntimeError(f"repeats must have the same size as input along dim, but got "
                           f"repeats.size(0) = {r.shape[0]} and input.size(0) = {n} ({name})")
    if np.any(r < 0):
        raise RuntimeError(f"repeats can not be negative ({name})")
    return r


def repeat_interleave_self(self, repeats, dim=None, *, output_size=None):
    x = self._data
    if dim is None:
        x = x.reshape(-1)
        d = 0
    elif not x.ndim:  # torch's errors for a dim of a 0-d tensor: its unsqueeze(dim + 1), its tensor path's dim
        if isinstance(repeats, Tensor):
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {_wrap_dim(dim, 0) + 1})")
    else:
        d = _wrap_dim(dim, x.ndim)
    r = _repeats("repeat_interleave", repeats, x.shape[d] if x.ndim else 1)
    result = np.repeat(x if x.ndim else x.reshape(1), r, axis=d)
    if output_size is not None and result.shape[d] != output_size:
        raise RuntimeError(f"repeat_interleave: allocated size does not match required size "
                           f"(output_size={output_size}, required {result.shape[d]})")
    return out(result, self)


def repeat_interleave_counts(repeats, *, output_size=None):
    r = _repeats("repeat_interleave", repeats, repeats._data.size if repeats._data.ndim else 1)
    return out(np.repeat(np.arange(r.shape[0], dtype=repeats._data.dtype), r), repeats)


KERNELS = {
    "argsort": argsort, "argsort.stable": argsort_stable, "sort.stable": sort_stable,
    "bucketize.Tensor": bucketize, "bucketize.Scalar": bucketize,
    "searchsorted.Tensor": searchsorted, "searchsorted.Scalar": searchsorted,
    "argwhere": argwhere, "kthvalue": kthvalue,
    "repeat_interleave.self_int": repeat_interleave_self,
    "repeat_interleave.self_Tensor": repeat_interleave_self,
    "repeat_interleave.Tensor": repeat_interleave_counts,
}
# Their output size depends on the data: no Meta kernel (a fake impl needs new_dynamic_size).
DATA_DEPENDENT = {"argwhere", "repeat_interleave.self_Tensor", "repeat_interleave.Tensor"}
REDUCTIONS = {"argsort", "argsort.stable", "sort.stable", "kthvalue"}
