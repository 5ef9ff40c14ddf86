"""Reductions and normalizations (numpy)."""

import math

import numpy as np

from .. import _core
from .. import _dtype as D
from . import return_types as RT
from .common import INEXACT, _wrap_dim, dims_arg, dims_list_arg, np_dtype, out
from .precision import reduced, scanned, upcast

__all__ = ["KERNELS"]


# Above this many elements a float32/float64 ``sum``/``mean`` of a contiguous array runs the blocked
# sum on the intra-op pool (Note [Blocked sum] in src/kernels/reduce.rs); below it numpy's, bit for bit.
_BLOCKED_SUM_MIN = 1 << 18


def _acc_dtype(x, dtype):
    if dtype is not None:
        return dtype.np
    return np.int64 if x.dtype.kind in "biu" else x.dtype


def sum_all(self, *, dtype=None):
    x = self._data
    if dtype is None and x.dtype.kind in "fc" and x.itemsize > 2:  # the hot path: numpy's reduction, no wrapper
        if x.size > _BLOCKED_SUM_MIN:  # as the Rust kernel: by blocks on the intra-op pool
            s = _core._blocked_sum(x)
            if s is not None:
                return out(s, self)
        return out(np.add.reduce(x, axis=None), self)
    if dtype is None and x.size > _BLOCKED_SUM_MIN and x.dtype.name in _HALVES:  # float32 blocks, rounded once
        s = _blocked_sum_wide(x)
        if s is not None:
            return out(s.astype(x.dtype), self)
    return out(reduced(np.add.reduce, x, dtype, axis=None), self)


# The 16-bit floats whose large sums run the Rust float32 blocked sum, by numpy dtype name: whether
# bfloat16 (by name, so that this module's import does not load ml_dtypes).
_HALVES = {"bfloat16": True, "float16": False}


def _blocked_sum_wide(x):
    """The float32 blocked sum of a large contiguous bfloat16 or float16 array (widened exactly in
    Rust), or ``None``."""
    if x.size <= _BLOCKED_SUM_MIN or not x.flags.c_contiguous:
        return None
    return _core._blocked_sum_16(x.reshape(-1).view(np.uint16), _HALVES[x.dtype.name])


# From this many elements a float reduction along dims of C-contiguous data runs in Rust
# (src/kernels/reduce_dim.rs: float32/float64 sums bit for bit numpy's, 16-bit sums in float32).
_DIM_RUST_MIN = 1 << 15


def _dim_run(x, axes):
    """``(first, last)`` when the wrapped ``axes`` (None: all) of the large C-contiguous ``x`` are one run
    of adjacent dims, else None."""
    if x.size < _DIM_RUST_MIN or not x.flags.c_contiguous or x.ndim == 0:
        return None
    if axes is None:
        return 0, x.ndim - 1
    first, last = min(axes), max(axes)
    return (first, last) if last - first + 1 == len(axes) else None


def _kept(r, x, run, keepdim):
    """The Rust reduction ``r`` over the dims ``run`` of ``x`` with them kept as size 1 when ``keepdim``."""
    if keepdim:
        return r.reshape(x.shape[:run[0]] + (1,) * (run[1] - run[0] + 1) + x.shape[run[1] + 1:])
    return r


def _sum_dim_fast(x, axes, keepdim):
    """The sum over ``axes`` of large contiguous float data in Rust in its dtype (16-bit floats in
    float32, not yet rounded), or None."""
    run = _dim_run(x, axes)
    if run is None:
        return None
    if x.itemsize == 2:
        if x.dtype.name not in _HALVES:
            return None
        if run[1] == x.ndim - 1:  # rows: the blocked 16-bit sum of each
            rows = x.reshape(-1, math.prod(x.shape[run[0]:])).view(np.uint16)
            r = _core._row_sums_16(rows, _HALVES[x.dtype.name])
            r = None if r is None else r.reshape(x.shape[:run[0]])
        else:
            r = _core._sum_dim_16(x.view(np.uint16), run[0], run[1], _HALVES[x.dtype.name])
    elif run[0] != run[1]:  # numpy's order over several dims is its own
        return None
    else:
        r = _core._reduce_dim(x, run[0], run[1], "sum")
    return None if r is None else _kept(r, x, run, keepdim)


def sum_dim(self, dim, keepdim=False, *, dtype=None):
    x = self._data
    axes = dims_arg(dim, x.ndim)
    if dtype is None and x.size >= _DIM_RUST_MIN and x.dtype.kind in "fV" and x.itemsize <= 8:
        s = _sum_dim_fast(x, axes, keepdim)
        if s is not None:
            return out(s.astype(x.dtype, copy=False), self)
    return out(reduced(np.sum, x, dtype, axis=axes, keepdims=keepdim), self)


def _mean_check(x, dtype):
    """torch's refusal of a mean of integral or bool data (or into such a ``dtype``)."""
    if (dtype.np if dtype is not None else x.dtype) not in INEXACT:
        which = "Input" if dtype is None else "Optional"
        raise NotImplementedError(
            f"mean(): could not infer output dtype. {which} dtype must be either a floating point or "
            f"complex dtype. Got: {D.legacy_name(dtype or D.FROM_NP[x.dtype])}"
        )


def mean_all(self, *, dtype=None):
    _mean_check(self._data, dtype)
    x = self._data
    if dtype is None and x.size > _BLOCKED_SUM_MIN:
        s = _blocked_sum_wide(x) if x.dtype.name in _HALVES else _core._blocked_sum(x)
        if s is not None:  # numpy's mean: the sum divided by the count in the sum's dtype
            return out(np.true_divide(s, x.size, dtype=s.dtype).astype(x.dtype, copy=False), self)
    return out(reduced(np.mean, x, dtype), self)


def mean_dim(self, dim, keepdim=False, *, dtype=None):
    _mean_check(self._data, dtype)
    x = self._data
    if dtype is None and x.size >= _DIM_RUST_MIN and x.dtype.kind in "fV" and x.itemsize <= 8:
        axes = dims_arg(dim, x.ndim)
        s = _sum_dim_fast(x, axes, keepdim)
        if s is not None:  # numpy's mean: the sum divided by the count in the sum's dtype
            count = x.size // s.size
            return out(np.true_divide(s, count, dtype=s.dtype).astype(x.dtype, copy=False), self)
    r = reduced(np.mean, x, dtype, axis=dims_arg(dim, x.ndim), keepdims=keepdim)
    return out(np.asarray(r).astype(np_dtype(dtype) or x.dtype), self)


def prod(self, *, dtype=None):
    x = self._data
    return out(reduced(np.prod, x, dtype), self)


def prod_dim(self, dim, keepdim=False, *, dtype=None):
    x = self._data
    return out(reduced(np.prod, x, dtype, axis=_wrap_dim(dim, x.ndim), keepdims=keepdim), self)


def _nonempty(x, name):
    if x.size == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")


def nonempty_dims(x, dims, name):
    """torch's ``zero_numel_check_dims`` of a reduction without an identity (max, amax, argmax,
    aminmax, ...) over ``dims`` (an int, a list, or None/[] for all) of the data ``x``: an empty
    tensor needs dims, none of them of size zero (an IndexError naming the dim as given). ``name``
    is how torch's message names the op (``"amax()"``, ``"aminmax"``)."""
    if x.size:
        return
    if dims is None or (not isinstance(dims, int) and not len(dims)):
        raise RuntimeError(f"{name}: Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")
    for d in ([dims] if isinstance(dims, int) else dims):
        w = _wrap_dim(d, x.ndim) if x.ndim else d
        if x.ndim and x.shape[w] == 0:  # one dim is named wrapped, a list's as given (torch's)
            raise IndexError(f"{name}: Expected reduction dim {w if isinstance(dims, int) else d} to have "
                             "non-zero size.")


def _no_complex(x, kernel):
    """The message of torch's dispatch macro for a CPU kernel without a complex instance."""
    if x.dtype.kind == "c":
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.legacy_name(D.FROM_NP[x.dtype])}'")


def _no_complex_input(x, api):
    """torch's check of the ops whose result is an order (argmax, max.dim, ...): a TypeError."""
    if x.dtype.kind == "c":
        raise TypeError(f"{api}(): does not support complex input")


def _no_complex_sort(x, api):
    if x.dtype.kind == "c":
        raise TypeError(f" {api} does not support complex dtypes on CPU")


def _extreme_fast(x, axis, keepdim, op):
    """amax/amin (``op``) over ``axis`` of large contiguous float32/float64 data in Rust, or None."""
    if x.dtype.kind != "f" or x.itemsize < 4:
        return None
    run = _dim_run(x, axis)
    r = None if run is None else _core._reduce_dim(x, run[0], run[1], op)
    return None if r is None else _kept(r, x, run, keepdim)


def amax(self, dim=(), keepdim=False):
    _no_complex(self._data, "max_values_cpu")
    axis = dims_arg(dim, self._data.ndim)
    nonempty_dims(self._data, dim, "amax()")
    if self._data.size >= _DIM_RUST_MIN:
        r = _extreme_fast(self._data, axis, keepdim, "amax")
        if r is not None:
            return out(r, self)
    return out(np.asarray(np.amax(self._data, axis=axis, keepdims=keepdim)), self)


def amin(self, dim=(), keepdim=False):
    _no_complex(self._data, "min_values_cpu")
    axis = dims_arg(dim, self._data.ndim)
    nonempty_dims(self._data, dim, "amin()")
    if self._data.size >= _DIM_RUST_MIN:
        r = _extreme_fast(self._data, axis, keepdim, "amin")
        if r is not None:
            return out(r, self)
    return out(np.asarray(np.amin(self._data, axis=axis, keepdims=keepdim)), self)


def max_all(self):
    _no_complex(self._data, "max_all")
    _nonempty(self._data, "max")
    return out(np.asarray(np.max(self._data)), self)


def min_all(self):
    _no_complex(self._data, "min_all")
    _nonempty(self._data, "min")
    return out(np.asarray(np.min(self._data)), self)


def _with_indices(fn, argfn, rt):
    def kernel(self, dim, keepdim=False):
        x = self._data
        _no_complex_input(x, rt.__name__)
        d = _wrap_dim(dim, x.ndim)
        if x.ndim == 0:
            return RT.make(rt, (out(x.copy(), self), out(np.asarray(0, dtype=np.int64), self)))
        if x.shape[d] == 0:
            raise IndexError(f"{rt.__name__}(): Expected reduction dim {d} to have non-zero size.")
        idx = argfn(x, axis=d, keepdims=keepdim)
        vals = fn(x, axis=d, keepdims=keepdim)
        return RT.make(rt, (out(np.asarray(vals), self), out(np.asarray(idx, dtype=np.int64), self)))
    return kernel


def argmax(self, dim=None, keepdim=False):
    x = self._data
    _no_complex_input(x, "argmax")
    if dim is None:
        if x.size == 0:  # torch's message here is an IndexError without the advice
            raise IndexError("argmax(): Expected reduction dim to be specified for input.numel() == 0.")
        return out(np.asarray(np.argmax(x), dtype=np.int64), self)
    axis = _wrap_dim(dim, x.ndim)
    nonempty_dims(x, dim, "argmax()")
    return out(np.asarray(np.argmax(x, axis=axis, keepdims=keepdim), dtype=np.int64), self)


def argmin(self, dim=None, keepdim=False):
    x = self._data
    _no_complex_input(x, "argmin")
    if dim is None:
        if x.size == 0:  # torch's message here is an IndexError without the advice
            raise IndexError("argmin(): Expected reduction dim to be specified for input.numel() == 0.")
        return out(np.asarray(np.argmin(x), dtype=np.int64), self)
    axis = _wrap_dim(dim, x.ndim)
    nonempty_dims(x, dim, "argmin()")
    return out(np.asarray(np.argmin(x, axis=axis, keepdims=keepdim), dtype=np.int64), self)


def _var(fn):
    """var/std: real for complex data (the spread of the magnitudes of the deviations, as torch),
    accumulated in float32 for half-precision data (``precision``)."""
    def kernel(self, dim=None, *, correction=None, keepdim=False):
        x = self._data
        ddof = 1 if correction is None else correction
        rdt = x.real.dtype if x.dtype.kind == "c" else x.dtype
        with np.errstate(divide="ignore", invalid="ignore"):
            r = fn(upcast(x), axis=dims_arg(dim, x.ndim), ddof=ddof, keepdims=keepdim)
        return out(np.asarray(r).astype(rdt, copy=False), self)
    return kernel


def _softmax_impl(x, dim, log):
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return np.zeros_like(x) if log else np.ones_like(x)
    if x.size == 0:
        return x.copy()
    fused = _core._fused_softmax(x, d, log)  # one pass in Rust (float32/float64, contiguous)
    if fused is not None:
        return fused
    m = np.max(x, axis=d, keepdims=True)
    z = x - m
    lse = np.log(np.sum(np.exp(z), axis=d, keepdims=True))
    return (z - lse) if log else np.exp(z - lse)


def _softmax_kernel(log):
    def kernel(self, dim, dtype=None):
        x = self._data.astype(dtype.np) if dtype is not None else self._data
        if x.dtype not in INEXACT:
            raise RuntimeError(f'"{"log_" if log else ""}softmax_lastdim_kernel_impl" not implemented for '
                               f"'{D.FROM_NP[x.dtype].name}'")
        # Half-precision inputs accumulate in float32, as torch's kernels do.
        acc = x.astype(np.float32) if x.dtype.itemsize < 4 and x.dtype.kind != "c" else x
        return out(_softmax_impl(acc, dim, log).astype(x.dtype, copy=False), self)
    return kernel


def _private_softmax(log):
    def kernel(self, dim, half_to_float):
        return _softmax_kernel(log)(self, dim)
    return kernel


def _truth(r, x):
    """torch's any/all result: bool, but uint8 for uint8 data (its legacy byte form)."""
    r = np.asarray(r)
    return r.astype(np.uint8) if x.dtype == np.uint8 else r


def _any_all(fn, name):
    def whole(self):
        return out(_truth(fn(self._data), self._data), self)

    def along(self, dim, keepdim=False):
        x = self._data
        return out(_truth(fn(x, axis=_wrap_dim(dim, x.ndim), keepdims=keepdim), x), self)
    def along_dims(self, dim=None, keepdim=False):
        x = self._data
        return out(_truth(fn(x, axis=dims_list_arg(dim, x.ndim), keepdims=keepdim), x), self)
    whole.__name__, along.__name__, along_dims.__name__ = name, name + "_dim", name + "_dims"
    return whole, along, along_dims


def _order(x, d, descending):
    if x.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if descending:  # torch's default sort is not stable: ties may come in any order
        return np.flip(np.argsort(np.flip(x, d), axis=d, kind="stable"), d) * -1 + (x.shape[d] - 1)
    return np.argsort(x, axis=d, kind="stable")


# From this many elements along the dim, ``sort`` of 32-bit data sorts packed keys (see ``_packed_order``).
_PACKED_SORT_MIN = 1 << 12


def _packed_order(x, d, descending):
    """``(indices, values)`` of the stable sort of 32-bit data along ``d``, from numpy's SIMD sort of
    uint64 keys: the value's bits made order-preserving as an unsigned integer in the high half, the
    position in the low half, so equal values stay in position order (the stable sort's ties;
    descending inverts the value half only). float: -0.0 counts as 0.0 and every nan as the largest
    value, as numpy's order has them. ``None`` for other data."""
    n = x.shape[d]
    if x.dtype.kind not in "fi" or x.dtype.itemsize != 4 or not _PACKED_SORT_MIN <= n < 1 << 32:
        return None
    rows = np.moveaxis(x, d, -1)
    if x.dtype.kind == "f":
        v = rows + np.float32(0.0)  # -0.0 + 0.0 is 0.0
        bits = v.view(np.uint32)
        key = np.where(bits >> 31, ~bits, bits | np.uint32(1 << 31))
        key[np.isnan(v)] = np.uint32(0xFFFFFFFF)
    else:
        key = rows.view(np.uint32) ^ np.uint32(1 << 31)
    if descending:
        key = ~key
    packed = (key.astype(np.uint64) << np.uint64(32)) | np.arange(n, dtype=np.uint64)
    packed.sort(axis=-1)
    idx = np.moveaxis((packed & np.uint64(0xFFFFFFFF)).astype(np.int64), -1, d)
    return idx, np.take_along_axis(x, idx, d)


def sort(self, dim=-1, descending=False):
    x = self._data
    _no_complex_sort(x, "Sort")
    d = _wrap_dim(dim, x.ndim)
    quick = _packed_order(x, d, descending) if x.ndim else None
    if quick is not None:
        idx, vals = quick
        return RT.make(RT.sort, (out(np.ascontiguousarray(vals), self), out(np.ascontiguousarray(idx), self)))
    idx = _order(x, d, descending)
    vals = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
    return RT.make(RT.sort, (out(vals, self), out(idx.astype(np.int64), self)))


# From this many elements along the dim (and k at most half of them), ``topk`` selects before it sorts.
_SELECT_MIN = 256


def _selected_order(x, d, k, largest):
    """The first ``k`` indices of ``_order(x, d, largest)`` from a selection: each row's ``k`` best
    elements by ``argpartition`` (nan the largest value, as in ``_order``), then only those sorted
    (in position order first, so the stable sort breaks ties by position as on the whole row).
    ``None`` when a row has ties at its k-th value: which of them are kept is the full sort's choice."""
    rows = np.moveaxis(x, d, -1)
    n = rows.shape[-1]
    kth = n - k if largest else k - 1
    part = np.argpartition(rows, kth, axis=-1)
    thr = np.take_along_axis(rows, part[..., kth:kth + 1], -1)
    if largest:
        count = (~(rows < thr)).sum(-1, keepdims=True)  # nan rows count as larger than thr
        if rows.dtype.kind == "f":
            nan_thr = np.isnan(thr)
            if nan_thr.any():
                count = np.where(nan_thr, np.isnan(rows).sum(-1, keepdims=True), count)
        chosen = part[..., kth:]
    else:
        count = (rows <= thr).sum(-1, keepdims=True)
        if rows.dtype.kind == "f":
            count = np.where(np.isnan(thr), n, count)
        chosen = part[..., :k]
    if (count != k).any():
        return None
    chosen = np.sort(chosen, axis=-1)
    picked = np.take_along_axis(rows, chosen, -1)
    idx = np.take_along_axis(chosen, _order(picked, picked.ndim - 1, largest), -1)
    return np.moveaxis(idx, -1, d)


# Rows this long (with k small beside them, and few rows) are filtered first: see ``_prefiltered_order``.
_PREFILTER_MIN, _PREFILTER_STEP, _PREFILTER_ROWS = 1 << 14, 16, 8


def _prefiltered_order(x, d, k, largest):
    """``_selected_order`` of a few long rows, each cut first to the elements at least as good as a
    bound taken from every 16th element (a rank there that more than k elements of the row beat, in
    expectation several times over): one comparison pass, then the selection on a few thousand
    elements instead of the row. ``None`` when a bound keeps fewer than k elements or too many (the
    selection on the whole row then decides)."""
    rows = np.moveaxis(x, d, -1)
    n = rows.shape[-1]
    flat = rows.reshape(-1, n)
    if flat.shape[0] > _PREFILTER_ROWS:
        return None
    sample = flat[:, ::_PREFILTER_STEP]
    m = sample.shape[-1]
    j = min(m - 1, 2 * (k // _PREFILTER_STEP) + 16)  # the sample's (j+1)-th best bounds the row's k-th
    out_idx = np.empty((flat.shape[0], k), dtype=np.int64)
    for r in range(flat.shape[0]):
        row = flat[r]
        if largest:
            bound = np.partition(sample[r], m - 1 - j)[m - 1 - j]
            cand = np.flatnonzero(~(row < bound))  # nan counts as the largest value
        else:
            bound = np.partition(sample[r], j)[j]
            cand = np.flatnonzero(row <= bound)
        if not k <= cand.size <= n // 4:
            return None
        sel = _selected_order(row[cand], 0, k, largest)
        if sel is None:
            return None
        out_idx[r] = cand[sel]
    return np.moveaxis(out_idx.reshape(rows.shape[:-1] + (k,)), -1, d)


def topk(self, k, dim=-1, largest=True, sorted=True):
    x = self._data
    _no_complex_sort(x, "topk")
    d = _wrap_dim(dim, x.ndim)
    size = x.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError(f"selected index k out of range (aten::topk: k={k}, dimension {d} has size {size})")
    fast = _core._select_topk(x, k, d, largest) if x.ndim else None  # Rust: contiguous 32/64-bit data
    if fast is not None:
        return RT.make(RT.topk, (out(fast[0], self), out(fast[1], self)))
    if x.ndim and size >= _SELECT_MIN and 0 < k <= size // 2 and x.dtype.kind in "fiub":
        idx = None
        if size >= _PREFILTER_MIN and k * 64 <= size:
            idx = _prefiltered_order(x, d, k, largest)
        if idx is None:
            idx = _selected_order(x, d, k, largest)
        if idx is not None:
            return RT.make(RT.topk, (out(np.take_along_axis(x, idx, d), self), out(idx.astype(np.int64), self)))
    idx = _order(x, d, largest)
    idx = idx[(slice(None),) * d + (slice(0, k),)] if x.ndim else idx
    vals = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
    return RT.make(RT.topk, (out(vals, self), out(idx.astype(np.int64), self)))


def cumsum(self, dim, *, dtype=None):
    x = self._data
    # torch writes cumulative results row-major whatever the input's layout
    return out(scanned(np.cumsum, x, dtype, _wrap_dim(dim, x.ndim), False), self)


KERNELS = {
    "sum": sum_all, "sum.dim_IntList": sum_dim, "mean": mean_all, "mean.dim": mean_dim,
    "prod": prod, "prod.dim_int": prod_dim, "amax": amax, "amin": amin, "max": max_all, "min": min_all,
    "max.dim": _with_indices(np.max, np.argmax, RT.max), "min.dim": _with_indices(np.min, np.argmin, RT.min),
    "argmax": argmax, "argmin": argmin, "var.correction": _var(np.var), "std.correction": _var(np.std),
    "softmax.int": _softmax_kernel(False), "log_softmax.int": _softmax_kernel(True),
    "_softmax": _private_softmax(False), "_log_softmax": _private_softmax(True), "cumsum": cumsum,
    "sort": sort, "topk": topk,
}
KERNELS["any"], KERNELS["any.dim"], KERNELS["any.dims"] = _any_all(np.any, "any")
KERNELS["all"], KERNELS["all.dim"], KERNELS["all.dims"] = _any_all(np.all, "all")

REDUCTIONS = {"sum", "sum.dim_IntList", "mean", "mean.dim", "prod", "prod.dim_int", "amax", "amin", "max", "min",
              "max.dim", "min.dim", "argmax", "argmin", "var.correction", "std.correction", "softmax.int",
              "log_softmax.int", "_softmax", "_log_softmax", "cumsum", "any", "all", "any.dim", "all.dim", "any.dims", "all.dims", "sort"}
KINDS = {"topk": "topk"}
