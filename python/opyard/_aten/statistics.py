"""Statistics over the values of a tensor, as torch computes them.

Kernels (numpy): ``_unique2``/``_unique``/``unique_dim``/``unique_consecutive``/
``unique_dim_consecutive`` (sorted distinct values, each nan its own value), ``bincount``, ``histc``,
``histogram`` (bin counts and edges), the ``_histogramdd_*`` parts of ``histogramdd``, ``nanmedian``,
``logcumsumexp``, ``renorm``, ``dist`` and ``segment_reduce`` with its backward kernel.
Compositions (CompositeImplicitAutograd, as torch's, so autograd, vmap and fake tensors come from
the ops they call): ``msort``, ``quantile``/``nanquantile``, ``cov``, ``corrcoef``, ``trapezoid``/
``trapz``, ``cumulative_trapezoid``, ``gradient`` and ``histogramdd``.
Derivatives: ``autograd/derivatives/statistics.py``; batching rules: ``func/rules/statistics.py``.

Reduced precision follows torch's kernels: ``logcumsumexp`` and ``renorm``'s norm accumulate in the
accumulate type and round once; ``histc`` bins an element with arithmetic in the element type (its
kernel's, so a half element lands where torch's lands); ``segment_reduce`` accumulates in the element
type, element after element, as its kernel does.
"""

import functools
import math
import warnings

import numpy as np

from .. import _core
from .. import _dtype as D
from .._tensor import _make_meta
from . import return_types as RT
from ._declare import OpTable
from .factory import torch_linspace
from .common import A, INEXACT, _wrap_dim, broadcast_error, out, tensor_result_dtype
from .nn_common import not_implemented
from .norms import _vector_norm
from .reduction import unstable_order

__all__ = ["OPS"]

OPS = OpTable()

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_FLOATS = frozenset({_F32, _F64})
_I64 = np.dtype(np.int64)


def _g(v):
    """A double as C++'s ``ostream`` prints it (torch's messages): ``1``, ``0.5``, ``inf``."""
    return f"{float(v):g}"


def _is_reduced(npdt):
    return npdt.itemsize == 2 and npdt.kind in "fV"


def _sort_key(x):
    """``x`` as an array numpy orders correctly (half precision as float32: exact, nan last)."""
    return x.astype(_F32) if _is_reduced(x.dtype) else x


# ---------------------------------------------------------------------------------------------
# unique


def _unique_dtype_check(self, kernel="unique"):
    if self.dtype.is_complex:
        raise not_implemented(kernel, self.dtype)


def _unique_flat(x, return_inverse, return_counts):
    """Sorted distinct values of ``x`` (flattened), the index of each element's value and the count
    of each value; nans compare unequal, so each is its own value (torch's ``equal_nan=False``), and
    they come in the order torch's sort (not stable) leaves them in, as torch sorts first."""
    flat = x.reshape(-1)
    nan_able = flat.dtype.kind in "fV" and flat.dtype.itemsize > 1
    order = _sort_key(flat).argsort(kind="stable")
    s = flat[order]
    key = _sort_key(s)
    # numpy's sort puts every nan last: one there means nans, which keep torch's unstable order
    if nan_able and s.size and key[-1] != key[-1]:
        order = unstable_order(flat, 0)
        s = flat[order]
        key = _sort_key(s)
    new = np.empty(s.size, bool)  # True where a sorted value differs from the one before it
    if s.size:
        new[0] = True
        np.not_equal(key[1:], key[:-1], out=new[1:])
    values = s[new]
    inverse = counts = np.zeros(0, _I64)
    if return_inverse:
        inverse = np.empty(flat.size, _I64)
        inverse[order] = np.cumsum(new) - 1
        inverse = inverse.reshape(x.shape)
    if return_counts:
        counts = np.diff(np.append(np.flatnonzero(new), s.size)).astype(_I64)
    return values, inverse, counts


def _consecutive_flat(x, return_inverse, return_counts):
    flat = x.reshape(-1)
    key = _sort_key(flat)
    new = np.ones(flat.size, bool)
    if flat.size:
        new[1:] = key[1:] != key[:-1]
    inverse = counts = np.zeros(0, _I64)
    if return_inverse:
        inverse = (np.cumsum(new) - 1).astype(_I64).reshape(x.shape)
    if return_counts:
        counts = np.diff(np.append(np.flatnonzero(new), flat.size)).astype(_I64)
    return flat[new], inverse, counts


def _unique_along(self, dim, consecutive):
    """torch's ``_unique_dim_cpu_template``: the distinct slices along ``dim`` (sorted
    lexicographically unless ``consecutive``), the index of each slice's distinct slice and the count
    of each; inverse and counts are always computed."""
    x = self._data
    if x.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim(dim, x.ndim)
    zero_dims = sum(1 for n in x.shape if n == 0)
    if x.shape[d] == 0:
        if zero_dims != 1:
            raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be applied ")
        return x.copy(), np.zeros(0, _I64), np.zeros(0, _I64)
    if zero_dims:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    moved = np.moveaxis(x, d, 0)
    rows = np.ascontiguousarray(moved).reshape(moved.shape[0], -1)
    key = _sort_key(rows)
    order = np.arange(rows.shape[0]) if consecutive else np.lexsort(key.T[::-1])
    s = key[order]
    new = np.ones(rows.shape[0], bool)
    new[1:] = np.any(s[1:] != s[:-1], axis=1)  # at::equal: a nan never equals
    group = np.cumsum(new) - 1
    inverse = np.empty(rows.shape[0], _I64)
    inverse[order] = group
    counts = np.diff(np.append(np.flatnonzero(new), rows.shape[0])).astype(_I64)
    kept = rows[order][new].reshape((-1,) + moved.shape[1:])
    return np.ascontiguousarray(np.moveaxis(kept, 0, d)), inverse, counts


def _three(self, parts):
    return tuple(out(np.asarray(p), self) for p in parts)


@OPS.op("_unique2(Tensor self, bool sorted=True, bool return_inverse=False, bool return_counts=False) "
        "-> (Tensor, Tensor, Tensor)", kind="data_dependent")
def _unique2(self, sorted=True, return_inverse=False, return_counts=False):
    """torch's CPU kernel always sorts (``sorted`` is a hint)."""
    _unique_dtype_check(self)
    return _three(self, _unique_flat(self._data, return_inverse, return_counts))


@OPS.op("_unique(Tensor self, bool sorted=True, bool return_inverse=False) -> (Tensor, Tensor)",
        kind="data_dependent")
def _unique(self, sorted=True, return_inverse=False):
    _unique_dtype_check(self)
    return _three(self, _unique_flat(self._data, return_inverse, False)[:2])


@OPS.op("unique_dim(Tensor self, int dim, bool sorted=True, bool return_inverse=False, bool return_counts=False) "
        "-> (Tensor, Tensor, Tensor)", kind="data_dependent")
def unique_dim(self, dim, sorted=True, return_inverse=False, return_counts=False):
    _unique_dtype_check(self, "unique_dim")
    return _three(self, _unique_along(self, dim, False))


@OPS.op("unique_dim_consecutive(Tensor self, int dim, bool return_inverse=False, bool return_counts=False) "
        "-> (Tensor, Tensor, Tensor)", kind="data_dependent")
def unique_dim_consecutive(self, dim, return_inverse=False, return_counts=False):
    _unique_dtype_check(self, "unique_dim")
    return _three(self, _unique_along(self, dim, True))


@OPS.op("unique_consecutive(Tensor self, bool return_inverse=False, bool return_counts=False, int? dim=None) "
        "-> (Tensor, Tensor, Tensor)", kind="data_dependent")
def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
    _unique_dtype_check(self, "unique" if dim is None else "unique_dim")
    if dim is not None:
        return _three(self, _unique_along(self, dim, True))
    return _three(self, _consecutive_flat(self._data, return_inverse, return_counts))


# ---------------------------------------------------------------------------------------------
# bincount

_BINCOUNT_TYPES = frozenset(np.dtype(t) for t in (np.uint8, np.int8, np.int16, np.int32, np.int64))


@OPS.op("bincount(Tensor self, Tensor? weights=None, SymInt minlength=0) -> Tensor", kind="data_dependent")
def bincount(self, weights=None, minlength=0):
    """Occurrences of each non-negative integer of the 1-d ``self`` (or the sum of its ``weights``):
    int64 counts; float32 weights sum in float32 element after element, others in float64."""
    x = self._data
    if x.dtype not in _BINCOUNT_TYPES:
        raise not_implemented("bincount_cpu", self.dtype)
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    if x.ndim == 1 and x.size == 0:
        return out(np.zeros(minlength, _I64), self)
    if x.ndim != 1 or x.min() < 0:
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is not None and (weights._data.ndim == 0 or weights.shape[0] != x.shape[0]):
        raise RuntimeError("weights should be 1-d and have the same length as input")
    idx = x.astype(np.intp)
    nbins = max(int(idx.max()) + 1, minlength)
    if weights is None:
        return out(np.bincount(idx, minlength=nbins).astype(_I64), self)
    w = weights._data
    if w.dtype == _F32:
        r = np.zeros(nbins, _F32)
        np.add.at(r, idx, w)  # unbuffered, in index order: torch's float accumulation
        return out(r, self)
    return out(np.bincount(idx, weights=w.astype(_F64), minlength=nbins), self)


# ---------------------------------------------------------------------------------------------
# histograms


def _linspace(start, end, steps, npdt):
    """torch's CPU ``linspace`` in ``npdt`` (the bin edges torch computes with it); in half precision
    only the first and last edges are read, which are ``start`` and ``end`` exactly."""
    if npdt in (_F32, _F64):
        return torch_linspace(start, end, steps, npdt)
    return np.linspace(start, end, steps).astype(npdt)


def _check_bins(bins):
    for d, b in enumerate(bins):
        if b <= 0:
            raise RuntimeError(f"opyard.histogram(): bins must be > 0, but got {b} for dimension {d}")


def _columns(x2d):
    """The (N, M) rows as an (M, N) row-major array: numpy reduces and searches rows much faster than
    strided columns."""
    return x2d.reshape(1, -1) if x2d.shape[1] == 1 else np.ascontiguousarray(x2d.T)


def _outer_edges(x2d, range_, kernel_name, dtype):
    """torch's ``select_outer_bin_edges``: per dimension the range given, else the data's min and
    max (0 and 1 for no data); an empty range widened by 0.5 each side."""
    n = x2d.shape[1]
    left, right = [0.0] * n, [1.0] * n
    if range_ is not None:
        if len(range_) != 2 * n:
            raise RuntimeError(f"opyard.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                               f"elements, but got {len(range_)}")
        left = [float(range_[2 * d]) for d in range(n)]
        right = [float(range_[2 * d + 1]) for d in range(n)]
    elif x2d.size:
        if dtype not in (D.float32, D.float64):
            raise not_implemented(kernel_name, dtype)
        cols = _columns(x2d)
        left = [float(v) for v in cols.min(axis=1)]
        right = [float(v) for v in cols.max(axis=1)]
    for d in range(n):
        lo, hi = left[d], right[d]
        if not (math.isfinite(lo) and math.isfinite(hi)):
            raise RuntimeError(f"opyard.histogramdd: dimension {d}'s range [{_g(lo)}, {_g(hi)}] is not finite")
        if lo > hi:
            raise RuntimeError(f"opyard.histogramdd: min should not exceed max, but got min {_g(lo)} max {_g(hi)} "
                               f"for dimension {d}")
        if lo == hi:
            left[d], right[d] = lo - 0.5, hi + 0.5
    return left, right


def _check_hist_inputs(self, bins_dtypes, weight):
    """torch's ``histogramdd_check_inputs`` (the input as (..., N), one bin sequence per N)."""
    x = self._data
    if x.ndim < 2:
        raise RuntimeError(f"opyard.histogramdd: input tensor should have at least 2 dimensions, but got {x.ndim}")
    n = x.shape[-1]
    if len(bins_dtypes) != n:
        raise RuntimeError(f"opyard.histogramdd: expected {n} sequences of bin edges for a {n}-dimensional histogram "
                           f"but got {len(bins_dtypes)}")
    if weight is not None:
        w = weight._data
        if weight.dtype is not self.dtype:
            raise _weight_dtype_error(self, weight)
        if w.shape != x.shape[:-1]:
            raise RuntimeError(f"opyard.histogramdd: if weight tensor is provided it should have the same shape as the "
                               f"input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(x.shape)} and weight with shape {list(w.shape)}")


def _weight_dtype_error(self, weight):
    return RuntimeError(f"opyard.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                        f"have the same dtype, but got input({_c_dtype(self.dtype)}), and "
                        f"weight({_c_dtype(weight.dtype)})")


def _check_bin_tensors(self, bins):
    for d, b in enumerate(bins):
        if b.dtype is not self.dtype:
            raise RuntimeError(f"opyard.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {_c_dtype(self.dtype)} and bins for dimension {d} with dtype "
                               f"{_c_dtype(b.dtype)}")
        if b._data.ndim != 1:
            raise RuntimeError(f"opyard.histogramdd: bins tensor should have one dimension, but got {b._data.ndim} "
                               f"dimensions in the bins tensor for dimension {d}")
        if b._data.size == 0:
            raise RuntimeError(f"opyard.histogramdd: bins tensor should have at least 1 element, but got 0 elements "
                               f"in the bins tensor for dimension {d}")


def _c_dtype(dt):
    """A dtype as torch's ``caffe2::TypeMeta`` prints it (``float``, ``double``)."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int"}.get(dt.name, dt.name)


def _hist_counts(x2d, edges, weight, density, npdt, linear=False):
    """The N-d histogram of the rows of ``x2d`` over the bin ``edges`` (one increasing array per
    column): an element's bin is the last edge not above it (the last bin holds its right edge),
    elements outside the edges or nan are left out; counts summed in float64 and rounded once."""
    nbins = [len(e) - 1 for e in edges]
    if not nbins:  # no dimension: one bin that holds nothing
        return np.zeros((), npdt)
    keep = np.ones(x2d.shape[0], bool)
    pos = []
    cols = _columns(x2d)
    for d, e in enumerate(edges):
        col = cols[d]
        keep &= (col >= e[0]) & (col <= e[-1])
        p = _linear_bins(col, e) if linear else np.searchsorted(e, col, side="right") - 1
        pos.append(np.clip(p, 0, max(nbins[d] - 1, 0)))
    size = int(np.prod(nbins))
    if size == 0 or not keep.any():
        hist = np.zeros(nbins, npdt)
    else:
        flat = np.ravel_multi_index([p[keep] for p in pos], nbins)
        w = None if weight is None else weight.reshape(-1)[keep].astype(_F64)
        hist = np.bincount(flat, weights=w, minlength=size).astype(npdt).reshape(nbins)
    if density:
        with np.errstate(all="ignore"):
            hist = hist / hist.sum(dtype=npdt)
            for d, e in enumerate(edges):
                shape = [1] * len(edges)
                shape[d] = nbins[d]
                hist = hist / np.diff(e).reshape(shape)
    return hist.astype(npdt, copy=False)


def _linear_bins(col, e):
    """torch's bins of evenly spaced edges ``e``: ``int((x - e[0]) * bins / (e[-1] - e[0]))`` in the
    element type, then the last edge not above ``x`` among the three edges around that guess (its
    local search; the elements outside the edges are dropped by the caller)."""
    last = e.size - 1
    with np.errstate(all="ignore"):
        guess = ((col - e[0]) * e.dtype.type(last)) / (e[-1] - e[0])
    guess = np.nan_to_num(guess, nan=0.0, posinf=last, neginf=0.0).clip(0, last).astype(np.int64)
    lo = np.maximum(guess - 1, 0)
    count = np.zeros(col.shape, np.int64)
    for k in range(3):
        at = lo + k
        count += (at <= last) & (e[np.minimum(at, last)] <= col)
    return lo + count - 1


def _as_rows(self):
    x = self._data
    return x.reshape(int(np.prod(x.shape[:-1], dtype=np.int64)), x.shape[-1])


def _bin_ct_edges(self, bins, range_, kernel_name):
    """The edges of ``bins`` equal bins per dimension over torch's outer edges, in the input's dtype."""
    rows = _as_rows(self)
    left, right = _outer_edges(rows, range_, kernel_name, self.dtype)
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented(kernel_name, self.dtype)
    return [_linspace(lo, hi, b + 1, rows.dtype) for lo, hi, b in zip(left, right, bins)]


@OPS.op("_histogramdd_bin_edges(Tensor self, int[] bins, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> Tensor[]")
def _histogramdd_bin_edges(self, bins, *, range=None, weight=None, density=False):
    _check_hist_inputs(self, bins, weight)
    _check_bins(bins)
    return [out(e, self) for e in _bin_ct_edges(self, bins, range, "histogramdd")]


@OPS.op("_histogramdd_from_bin_cts(Tensor self, int[] bins, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> Tensor")
def _histogramdd_from_bin_cts(self, bins, *, range=None, weight=None, density=False):
    _check_hist_inputs(self, bins, weight)
    _check_bins(bins)
    edges = _bin_ct_edges(self, bins, range, "histogramdd")
    w = None if weight is None else weight._data
    return out(_hist_counts(_as_rows(self), edges, w, density, self._data.dtype, linear=True), self)


@OPS.op("_histogramdd_from_bin_tensors(Tensor self, Tensor[] bins, *, Tensor? weight=None, bool density=False) "
        "-> Tensor")
def _histogramdd_from_bin_tensors(self, bins, *, weight=None, density=False):
    _check_hist_inputs(self, [b.dtype for b in bins], weight)
    _check_bin_tensors(self, bins)
    _check_bins([b._data.size - 1 for b in bins])
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented("histogramdd", self.dtype)
    w = None if weight is None else weight._data
    return out(_hist_counts(_as_rows(self), [b._data for b in bins], w, density, self._data.dtype), self)


@OPS.op("histogramdd(Tensor self, int[] bins, float[]? range=None, Tensor? weight=None, bool density=False) "
        "-> (Tensor hist, Tensor[] bin_edges)", kind="composite")
def histogramdd(self, bins, range=None, weight=None, density=False):
    if self.dim() < 2:
        raise RuntimeError(f"opyard.histogramdd: input tensor should have at least 2 dimensions, but got {self.dim()}")
    if len(bins) != self.shape[-1]:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    edges = A._histogramdd_bin_edges(self, bins, range=range, weight=weight, density=density)
    hist = A._histogramdd_from_bin_cts(self, bins, range=range, weight=weight, density=density)
    return RT.make(RT.histogramdd, (hist, list(edges)))


@OPS.op("histogramdd.int_bins(Tensor self, int bins, float[]? range=None, Tensor? weight=None, bool density=False) "
        "-> (Tensor hist, Tensor[] bin_edges)", kind="composite")
def histogramdd_int_bins(self, bins, range=None, weight=None, density=False):
    return histogramdd(self, [bins] * (self.shape[-1] if self.dim() else 1), range, weight, density)


@OPS.op("histogramdd.TensorList_bins(Tensor self, Tensor[] bins, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> (Tensor hist, Tensor[] bin_edges)", kind="composite")
def histogramdd_tensorlist_bins(self, bins, range=None, weight=None, density=False):
    hist = A._histogramdd_from_bin_tensors(self, list(bins), weight=weight, density=density)
    return RT.make(RT.histogramdd, (hist, list(bins)))


def _hist_1d(self, weight):
    """``self`` as the (M, 1) rows of a one-dimensional histogram, ``weight`` as (M,)."""
    rows = self._data.reshape(-1, 1)
    w = None
    if weight is not None:
        if weight.dtype is not self.dtype:
            raise _weight_dtype_error(self, weight)
        w = weight._data.reshape(-1)
        if w.shape[0] != rows.shape[0]:
            raise RuntimeError(f"opyard.histogramdd: if weight tensor is provided it should have the same shape as the "
                               f"input tensor excluding its innermost dimension, but got input with shape "
                               f"{list(rows.shape)} and weight with shape {list(w.shape)}")
    return rows, w


@OPS.op("histogram.bins_tensor(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False) "
        "-> (Tensor hist, Tensor bin_edges)")
def histogram_bins_tensor(self, bins, *, weight=None, density=False):
    """The histogram over the given bin edges; the edges returned are a copy of ``bins``."""
    rows, w = _hist_1d(self, weight)
    _check_bin_tensors(self, [bins])
    _check_bins([bins._data.size - 1])
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented("histogram_cpu", self.dtype)
    edges = np.ascontiguousarray(bins._data)
    hist = _hist_counts(rows, [edges], w, density, rows.dtype)
    return RT.make(RT.histogram, (out(hist, self), out(edges.copy(), self)))


@OPS.op("histogram.bin_ct(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, "
        "bool density=False) -> (Tensor hist, Tensor bin_edges)")
def histogram_bin_ct(self, bins=100, *, range=None, weight=None, density=False):
    """``bins`` equal bins over ``range`` (default: the data's min and max)."""
    rows, w = _hist_1d(self, weight)
    _check_bins([bins])
    left, right = _outer_edges(rows, range, "histogramdd", self.dtype)
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented("histogram_cpu", self.dtype)
    edges = _linspace(left[0], right[0], bins + 1, rows.dtype)
    hist = _hist_counts(rows, [edges], w, density, rows.dtype, linear=True)
    return RT.make(RT.histogram, (out(hist, self), out(edges, self)))


@OPS.op("histc(Tensor self, int bins=100, Scalar min=0, Scalar max=0) -> Tensor",
        out="histc.out(Tensor self, int bins=100, Scalar min=0, Scalar max=0, *, Tensor(a!) out) -> Tensor(a!)",
        exact=True)
def histc(self, bins=100, min=0, max=0):
    """``bins`` equal bins over [min, max] (the data's range when they are equal); an element's bin
    is computed in the element type, as torch's kernel: ``int((x - lo) * bins / (hi - lo))``."""
    x = self._data
    lo, hi = float(min), float(max)
    from_data = lo == hi and x.size > 0
    if from_data:
        if self.dtype.is_complex:
            raise TypeError(f"aminmax not implemented for {D.legacy_name(self.dtype)}")
        if self.dtype in _BAREBONES:
            raise not_implemented("aminmax_cpu", self.dtype)
        wide = x.astype(_F64)
        lo, hi = float(wide.min()), float(wide.max())
    if lo == hi:
        lo, hi = lo - 1, hi + 1
    if math.isinf(lo) or math.isinf(hi) or math.isnan(lo) or math.isnan(hi):
        # a nan of the data's range prints as torch's: its reduction yields x86's default nan, sign bit set
        shown = ["-nan" if math.isnan(v) and from_data else _g(v) for v in (lo, hi)]
        raise RuntimeError(f"opyard.histc: range of [{shown[0]}, {shown[1]}] is not finite")
    if not lo < hi:
        raise RuntimeError("opyard.histc: max must be larger than min")
    _check_bins([bins])
    if self.dtype is D.bool:
        raise not_implemented("linspace_cpu", self.dtype)  # torch makes the edges in the input's type
    if x.dtype not in INEXACT or self.dtype.is_complex:
        raise not_implemented("histogram_cpu", self.dtype)
    dt = x.dtype
    edges = _linspace(lo, hi, bins + 1, dt)
    left, right = edges[0], edges[-1]
    flat = x.reshape(-1)
    with np.errstate(all="ignore"):
        keep = (flat >= left) & (flat <= right)
        v = flat[keep]
        pos = (((v - left) * dt.type(bins)) / (right - left)).astype(np.float64).astype(np.int64)
    pos = np.minimum(pos, bins - 1)
    return out(_counts_in_type(np.flatnonzero(keep), pos, bins, flat.size, dt), self)


# torch's histogram kernel splits the elements into one contiguous range per thread (ranges of at least
# this many elements) and counts each range in the element type before adding the ranges' counts.
_HISTOGRAM_GRAIN = 200
# The count at which adding 1 in a floating type leaves it unchanged (2 ** significand bits).
_STUCK = {"bfloat16": 2 ** 8, "float16": 2 ** 11, "float32": 2 ** 24, "float64": 2 ** 53}


def _counts_in_type(where, pos, bins, total, dt):
    """The counts of ``pos`` (bins of the elements at flat positions ``where`` of ``total``) as torch's
    kernel forms them in the element type ``dt``: each thread's range counted by adding 1 (which
    stops growing where 1 is below half a unit in the last place: 256 in bfloat16, 2048 in float16),
    the ranges' counts then added in ``dt``, with torch's number of threads."""
    threads = max(1, min(_core.get_num_threads(), -(-total // _HISTOGRAM_GRAIN)))
    chunk = -(-total // threads) if total else 1
    counts = np.bincount((where // chunk) * bins + pos, minlength=threads * bins).reshape(threads, bins)
    counts = np.minimum(counts, _STUCK[D.FROM_NP[dt].name])
    result = counts[0].astype(dt)
    for row in counts[1:]:
        result = (result.astype(_F32) + row.astype(dt).astype(_F32)).astype(dt) if _is_reduced(dt) else \
            result + row.astype(dt)
    return result


# ---------------------------------------------------------------------------------------------
# nanmedian


# The element types without arithmetic in torch's CPU kernels (its "barebones" unsigned types).
_BAREBONES = frozenset((D.uint16, D.uint32, D.uint64))


def _median_checks(self, kernel):
    if self.dtype is D.bool or self.dtype.is_complex or self.dtype in _BAREBONES:
        raise not_implemented(kernel, self.dtype)


def _nan_lower_median_index(xs):
    """Index along axis 0 of the lower median of the non-nan values of each column (of the first
    nan when a column has no other value); among equal values the one a stable sort puts at the
    median's rank. The value is found by selection (``np.partition``, linear time), its index by
    counting the smaller values and the equal ones before it."""
    key = np.moveaxis(_sort_key(xs), 0, -1).reshape(-1, xs.shape[0])
    n = key.shape[1]
    nan = np.isnan(key) if key.dtype.kind == "f" else np.zeros(key.shape, bool)
    count = n - nan.sum(axis=1)
    k = np.maximum(count - 1, 0) // 2
    value = np.empty(key.shape[0], key.dtype)
    for kk in np.unique(k):  # one selection per distinct rank (one when no row has a nan)
        rows = k == kk
        value[rows] = np.partition(key[rows], kk, axis=1)[:, kk]
    with np.errstate(invalid="ignore"):
        rank = k - (key < value[:, None]).sum(axis=1)
        seen = np.cumsum(key == value[:, None], axis=1)
    idx = np.argmax(seen == (rank + 1)[:, None], axis=1)
    idx = np.where(count == 0, np.argmax(nan, axis=1), idx)
    return idx.reshape(xs.shape[1:])


@OPS.op("nanmedian(Tensor self) -> Tensor")
def nanmedian(self):
    """The lower median of the non-nan elements (nan when there is none)."""
    _median_checks(self, "median_cpu")
    x = self._data
    if x.size == 0:
        return out(np.asarray(np.nan, dtype=x.dtype) if x.dtype in INEXACT else np.zeros((), x.dtype), self)
    flat = x.reshape(-1)
    return out(np.asarray(flat[_nan_lower_median_index(flat[:, None])[0]]), self)


@OPS.op("nanmedian.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)")
def nanmedian_dim(self, dim, keepdim=False):
    _median_checks(self, "median_out")
    x = self._data
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return RT.make(RT.nanmedian, (out(x.copy(), self), out(np.zeros((), _I64), self)))
    if x.shape[d] == 0:
        raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
    xs = np.moveaxis(x, d, 0)
    idx = _nan_lower_median_index(xs)
    vals = np.take_along_axis(xs, idx[None], 0)[0]
    if keepdim:
        idx, vals = np.expand_dims(idx, d), np.expand_dims(vals, d)
    return RT.make(RT.nanmedian, (out(np.asarray(vals), self), out(np.asarray(idx, dtype=_I64), self)))


# ---------------------------------------------------------------------------------------------
# logcumsumexp

# torch's CPU accumulate type (``acc_type<T, false>``): half precision in float32, float32 in float64.
_ACC = {"float16": _F32, "bfloat16": _F32, "float32": _F64, "float64": _F64,
        "complex64": np.dtype(np.complex128), "complex128": np.dtype(np.complex128)}


def _log_add_exp_complex(x, y):
    """torch's complex ``_log_add_exp_helper(x, y)``: ordered by real part, a nan anywhere is nan,
    two infinities of one sign handled apart, else ``log1p(exp(min - max)) + max``."""
    y_nan = np.isnan(y.real) | np.isnan(y.imag)
    x_nan = np.isnan(x.real) | np.isnan(x.imag)
    x_first = x.real < y.real
    lo = np.where(x_first, x, y)
    hi = np.where(x_first, y, x)
    with np.errstate(all="ignore"):
        general = np.log1p(np.exp(lo - hi)) + hi
        both_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        plus_inf = np.log(np.exp(lo) + np.exp(hi))
    r = np.where(both_inf, np.where(lo.real < 0, lo, plus_inf), general)
    nan = np.complex128(complex(np.nan, np.nan)).astype(r.dtype)
    return np.where(y_nan | x_nan, nan, r)


def _logcumsumexp_data(self, dim):
    x = self._data
    if x.dtype not in INEXACT:
        raise not_implemented("logcumsumexp_out_cpu", self.dtype)
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0 or x.size == 0:
        return x.copy()
    acc = _ACC[self.dtype.name]
    work = x.astype(acc)
    if acc.kind != "c":
        with np.errstate(all="ignore"):
            r = np.logaddexp.accumulate(work, axis=d)
    else:
        moved = np.moveaxis(work, d, 0)
        r = np.empty_like(moved)
        r[0] = moved[0]
        for i in range(1, moved.shape[0]):
            r[i] = _log_add_exp_complex(moved[i], r[i - 1])
        r = np.moveaxis(r, 0, d)
    return np.ascontiguousarray(r).astype(x.dtype)


@OPS.op("_logcumsumexp(Tensor self, int dim) -> Tensor")
def _logcumsumexp(self, dim):
    return out(_logcumsumexp_data(self, dim), self)


@OPS.op("logcumsumexp(Tensor self, int dim) -> Tensor",
        out="logcumsumexp.out(Tensor self, int dim, *, Tensor(a!) out) -> Tensor(a!)")
def logcumsumexp(self, dim):
    """``log(cumsum(exp(self)))`` along ``dim`` without overflow: each step ``log1p(exp(min - max)) +
    max`` in the accumulate type (float64 for float32, float32 for half precision)."""
    return out(_logcumsumexp_data(self, dim), self)


# ---------------------------------------------------------------------------------------------
# renorm and dist


def _renorm_checks(self, p, dim, maxnorm):
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if not float(p) > 0.0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if not float(maxnorm) >= 0.0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {_g(maxnorm)}")
    if self._data.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self._data.ndim} dimensions")


def renorm_factor(self, p, dim, maxnorm):
    """The factor each slice along ``dim`` is multiplied by: ``maxnorm / (norm + 1e-7)`` where the
    slice's p-norm exceeds ``maxnorm``, else 1 (computed in the norm's type: float32 for half
    precision and complex64, as torch's)."""
    x = self._data
    d = _wrap_dim(dim, x.ndim)
    dims = [i for i in range(x.ndim) if i != d]
    acc = D.float32 if self.dtype in (D.float16, D.bfloat16) else None
    norm = _vector_norm(self, float(p), dims, True, acc)._data
    m = norm.dtype.type(float(maxnorm))
    with np.errstate(all="ignore"):
        return np.where(norm > m, m / (norm + norm.dtype.type(1e-7)), norm.dtype.type(1))


@OPS.op("renorm(Tensor self, Scalar p, int dim, Scalar maxnorm) -> Tensor",
        inplace="renorm_(Tensor(a!) self, Scalar p, int dim, Scalar maxnorm) -> Tensor(a!)",
        out="renorm.out(Tensor self, Scalar p, int dim, Scalar maxnorm, *, Tensor(a!) out) -> Tensor(a!)")
def renorm(self, p, dim, maxnorm):
    """Each slice along ``dim`` scaled so that its p-norm is at most ``maxnorm``; the factor is
    rounded to a half-precision input's type before the product, as torch's."""
    _renorm_checks(self, p, dim, maxnorm)
    x = self._data
    factor = renorm_factor(self, p, dim, maxnorm)
    if _is_reduced(x.dtype):
        r = x.astype(_F32) * factor.astype(x.dtype).astype(_F32)
    else:
        r = x * factor.astype(x.dtype)
    return out(np.asarray(r).astype(x.dtype, copy=False), self)


@OPS.op("dist(Tensor self, Tensor other, Scalar p=2) -> Tensor")
def dist(self, other, p=2):
    """``norm(self - other, p)``: the difference in the promoted dtype (rounded to it), then its norm."""
    x, y = self._data, other._data
    if type(x) is np.ndarray and type(y) is np.ndarray and x.dtype in _FLOATS and x.dtype == y.dtype \
            and x.shape == y.shape:
        # the common call: one float32/float64 dtype (the result's), one shape (the broadcast's)
        with np.errstate(all="ignore"):
            diff = x - y
        return _vector_norm(out(diff, self), p, None, False, None)
    dt = tensor_result_dtype(self, other)
    try:
        shape = np.broadcast_shapes(self._data.shape, other._data.shape)
    except ValueError:
        raise broadcast_error("aten::sub.Tensor", self, other) from None
    # torch's difference refuses these before the norm sees them
    if dt is D.bool:
        raise NotImplementedError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the "
                                  "`^` or `logical_xor()` operator instead.")
    if dt in _BAREBONES:
        raise not_implemented("add_stub", dt)
    a = self._data.astype(dt.np, copy=False)
    b = other._data.astype(dt.np, copy=False)
    if _is_reduced(dt.np):
        diff = (a.astype(_F32) - b.astype(_F32)).astype(dt.np)
    else:
        with np.errstate(all="ignore"):
            diff = a - b
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"norm(): input dtype should be either floating point or complex. Got "
                                  f"{D.legacy_name(dt)} instead.")
    return _vector_norm(out(np.broadcast_to(diff, shape), self), p, None, False, None)


# ---------------------------------------------------------------------------------------------
# segment_reduce

_SEGMENT_REDUCTIONS = {"sum": "sum", "prod": "prod", "mean": "mean", "max": "max", "min": "min", "amax": "max",
                       "amin": "min"}


def _segment_reduction(reduce):
    r = _SEGMENT_REDUCTIONS.get(reduce)
    if r is None:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    return r


_INDEX_TYPES = frozenset((np.dtype(np.int32), np.dtype(np.int64)))


def _segment_layout(data, reduce, lengths, offsets, axis, unsafe, indices=None):
    """torch's checks of a segment reduction, in its order, then the reduction kind, the axis and the
    (outer..., segments) lengths and starts of the segments (``offsets`` win over ``lengths``)."""
    x = data._data
    ax = _wrap_dim(axis, x.ndim)
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    kind = _segment_reduction(reduce)
    name, table = ("offsets", offsets) if offsets is not None else ("lengths", lengths)
    if x.ndim < table._data.ndim:
        raise RuntimeError(f"Expected data.dim() >= {name}_value.dim() to be true, but got false.")
    if ax != table._data.ndim - 1:
        raise RuntimeError(f"segment_reduce(): Expected axis to be the last dimension of {name} but got {ax}.")
    values = table._data
    if name == "lengths" and not unsafe:
        if values.size == 0:  # torch takes the lengths' min, which an empty tensor has not
            raise RuntimeError("min(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                               "reduction dim with the 'dim' argument.")
        if values.min() < 0:
            raise RuntimeError("lengths contains negative value!")
        if (values.sum(axis=-1) != x.shape[ax]).any():
            raise RuntimeError("segment_reduce(): Expected all rows of lengths along axis to sum to "
                               "data.size(lengths.dim()-1) when !unsafe.")
    if data.dtype not in (D.float16, D.bfloat16, D.float32, D.float64):
        raise not_implemented("_segment_reduce_cpu", data.dtype)
    if values.dtype not in _INDEX_TYPES:
        raise not_implemented(f"_segment_reduce_{name}_cpu_kernel1", table.dtype)
    values = values.astype(_I64)
    if name == "offsets":
        return kind, ax, np.diff(values, axis=-1), values[..., :-1]
    starts = np.concatenate([np.zeros(values.shape[:-1] + (1,), _I64), np.cumsum(values, axis=-1)[..., :-1]], -1)
    return kind, ax, values, starts


def _segment_init(kind, initial, npdt):
    if initial is not None:
        return npdt.type(initial)
    return npdt.type({"max": -np.inf, "min": np.inf, "sum": 0, "mean": 0, "prod": 1}[kind])


class _Segments:
    """Where each segment's elements are: ``data`` viewed as (O, n, I) (the dims before ``axis``, the
    axis, the dims after it), the O * S segments flattened, and for every element a segment takes (in
    segment order) its segment ``seg``, outer row ``row`` and position ``pos`` along the axis. When
    the segments tile the data in order (the usual case) the taken elements are the data itself."""

    def __init__(self, x, ax, lens, starts):
        outer = int(np.prod(x.shape[:ax], dtype=np.int64))
        self.n = x.shape[ax]
        self.inner = int(np.prod(x.shape[ax + 1:], dtype=np.int64))
        self.x3 = x.reshape(outer, self.n, self.inner)
        self.count = lens.shape[-1]
        self.lens = lens.reshape(-1)
        self.starts = starts.reshape(-1)
        ends = np.cumsum(self.lens)
        self.first = ends - self.lens  # index of each segment's first element among the taken ones
        rows = np.arange(self.lens.size) // max(self.count, 1)
        self.tiles = bool(np.array_equal(rows * self.n + self.starts, self.first)
                          and (ends[-1] if ends.size else 0) == outer * self.n)

    @functools.cached_property
    def seg(self):
        return np.repeat(np.arange(self.lens.size), self.lens)

    @functools.cached_property
    def row(self):
        return self.seg // max(self.count, 1)

    @functools.cached_property
    def pos(self):
        return np.repeat(self.starts, self.lens) + (np.arange(self.seg.size) - np.repeat(self.first, self.lens))

    def values(self):
        """The taken elements in segment order, (taken, I)."""
        if self.tiles:
            return self.x3.reshape(-1, self.inner)
        return self.x3[self.row, self.pos]

    def scatter(self, contrib):
        """An array like the (O, n, I) data holding ``contrib`` (one row per taken element) where the
        elements were taken, 0 elsewhere."""
        if self.tiles:
            return contrib.reshape(self.x3.shape)
        r = np.zeros(self.x3.shape, contrib.dtype)
        r[self.row, self.pos] = contrib
        return r

    def per_segment(self, ufunc, v):
        """``ufunc`` reduced over each non-empty segment of ``v`` (taken, I), in segment order."""
        full = self.lens > 0
        out = np.zeros((self.lens.size,) + v.shape[1:], v.dtype)
        if full.any():
            out[full] = ufunc.reduceat(v, self.first[full], axis=0)
        return out


def _segment_forward(x, kind, ax, lens, starts, initial):
    """The reduction of each segment (the result has ``x``'s shape with ``ax`` replaced by the number
    of segments). float32/float64 reduce each segment at once; half precision accumulates element
    after element in its own type, as torch's kernel does (each step rounded)."""
    t = _Segments(x, ax, lens, starts)
    dt = x.dtype
    init = _segment_init(kind, initial, dt)
    v = t.values()
    n = t.lens[:, None]
    with np.errstate(all="ignore"):
        if _is_reduced(dt):
            acc = np.full((t.lens.size,) + v.shape[1:], init, dt)
            ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[kind]
            full = np.flatnonzero(t.lens)
            longest = int(t.lens.max()) if t.lens.size else 0
            # Whichever loop is shorter: over the segments (each one accumulate, which rounds every
            # step; maximum/minimum propagate nan as torch's kernel), or over positions in a segment.
            for i in full if full.size < longest else ():
                part = np.concatenate([acc[i][None], v[t.first[i]:t.first[i] + t.lens[i]]])
                acc[i] = ufunc.accumulate(part, axis=0, dtype=dt)[-1]
            for j in range(longest) if full.size >= longest else ():
                active = t.lens > j
                cur = v[t.first[active] + j]
                prev = acc[active]
                if kind in ("sum", "mean"):
                    nxt = prev + cur
                elif kind == "prod":
                    nxt = prev * cur
                elif kind == "max":
                    nxt = np.where(np.isnan(cur), cur, np.maximum(prev, cur))
                else:
                    nxt = np.where(np.isnan(cur), cur, np.minimum(prev, cur))
                acc[active] = nxt
        else:
            ufunc = {"sum": np.add, "mean": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[kind]
            acc = np.where(n > 0, ufunc(init, t.per_segment(ufunc, v)), init).astype(dt)
        if kind == "mean":
            if initial is None:
                acc = np.where(n == 0, dt.type(np.nan), acc)
            divided = (acc / np.maximum(n, 1).astype(dt)).astype(dt)
            acc = np.where((n == 0) | np.isnan(acc), acc, divided)
    shape = x.shape[:ax] + (t.count,) + x.shape[ax + 1:]
    return np.ascontiguousarray(acc.reshape(shape)).astype(dt, copy=False)


def _segment_meta(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None):
    _segment_reduction(reduce)
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    shape = list(data.shape)
    ax = _wrap_dim(axis, len(shape))
    shape[ax] = lengths.shape[-1] if lengths is not None else offsets.shape[-1] - 1
    return _make_meta(shape, data.dtype)


@OPS.op("segment_reduce(Tensor data, str reduce, *, Tensor? lengths=None, Tensor? indices=None, "
        "Tensor? offsets=None, int axis=0, bool unsafe=False, Scalar? initial=None) -> Tensor", meta=_segment_meta)
def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None):
    """``reduce`` (sum, prod, mean, max/amax, min/amin) over consecutive segments along ``axis``
    given by ``lengths`` or ``offsets``; an empty segment holds ``initial`` (mean without one: nan)."""
    kind, ax, lens, starts = _segment_layout(data, reduce, lengths, offsets, axis, unsafe, indices)
    return out(_segment_forward(data._data, kind, ax, lens, starts, initial), data)


def _segment_backward_meta(grad, output, data, reduce, *, lengths=None, offsets=None, axis=0, initial=None):
    return _make_meta(list(data.shape), data.dtype)


@OPS.op("_segment_reduce_backward(Tensor grad, Tensor output, Tensor data, str reduce, *, Tensor? lengths=None, "
        "Tensor? offsets=None, int axis=0, Scalar? initial=None) -> Tensor", meta=_segment_backward_meta)
def _segment_reduce_backward(grad, output, data, reduce, *, lengths=None, offsets=None, axis=0, initial=None):
    """torch's CPU backward kernel: max/min give each element equal to its segment's result (or nan)
    the gradient, the positive ones shared by their count; mean divides by the length; prod is the
    product of the others (computed apart at zeros and nans)."""
    kind, ax, lens, starts = _segment_layout(data, reduce, lengths, offsets, axis, True)
    x = data._data
    dt = x.dtype
    t = _Segments(x, ax, lens, starts)
    v = t.values()
    g = grad._data.reshape(t.lens.size, t.inner)[t.seg]
    o = output._data.reshape(t.lens.size, t.inner)[t.seg]
    length = t.lens[t.seg][:, None]
    with np.errstate(all="ignore"):
        if kind == "sum":
            contrib = g
        elif kind == "mean":
            contrib = g / length.astype(dt)
        elif kind in ("max", "min"):
            hit = np.isnan(v) | (v == o)
            count = t.per_segment(np.add, hit.astype(np.int64))[t.seg]
            contrib = np.where(hit, np.where((count >= 2) & (g > 0), g / count.astype(dt), g), dt.type(0))
        else:
            nan, zero = np.isnan(v), v == 0
            special = nan | zero
            others = t.per_segment(np.multiply, np.where(special, dt.type(1), v))[t.seg]
            nans_else = t.per_segment(np.add, nan.astype(np.int64))[t.seg] - nan
            zeros_else = t.per_segment(np.add, zero.astype(np.int64))[t.seg] - zero
            init = dt.type(1) if initial is None else dt.type(initial)
            rest = np.where(nans_else > 0, dt.type(np.nan), np.where(zeros_else > 0, dt.type(0), dt.type(1)))
            contrib = np.where(special, g * (init * others * rest), (g * o) / np.where(special, dt.type(1), v))
        r = t.scatter(np.broadcast_to(np.asarray(contrib).astype(dt), (t.seg.size, t.inner)))
    return out(np.ascontiguousarray(r).reshape(x.shape), data)


# ---------------------------------------------------------------------------------------------
# Compositions (CompositeImplicitAutograd in torch)


@OPS.op("msort(Tensor self) -> Tensor", kind="composite", out="msort.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def msort(self):
    return A.sort(self, 0)[0]


def _int_dim(y, dim):
    """``dim`` wrapped as torch's ``maybe_wrap_dim`` without scalar wrapping (a 0-d ``y`` has none)."""
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, y.dim())


def _slices_need_dims(y):
    """torch's cumulative_trapezoid slices ``y`` before it reads ``dim``: a 0-d ``y`` fails there."""
    if y.dim() == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")


def _zeros_except(y, dim):
    shape = [n for i, n in enumerate(y.shape) if i != dim]
    return A.zeros(shape, dtype=y.dtype, device=y.device)


def _padded_x(name, y, x, dim):
    """``x`` viewed so that its differences broadcast against ``y``'s along ``dim`` (torch's rule:
    a 1-d ``x`` lies along ``dim``, a shorter one gets leading ones)."""
    if x.dim() == 1:
        if x.shape[0] != y.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * y.dim()
        shape[dim] = x.shape[0]
        return A.view(x, shape)
    if x.dim() < y.dim():
        return A.view(x, [1] * (y.dim() - x.dim()) + list(x.shape))
    return x


def _sides(t, dim):
    n = t.shape[dim]
    return A.slice__Tensor(t, dim, 0, n - 1), A.slice__Tensor(t, dim, 1, None)


def _check_bool(name, *tensors):
    if any(t.dtype is D.bool for t in tensors):
        which = "`x` or `y`" if len(tensors) > 1 else "`y`"
        raise NotImplementedError(f"{name}: received a bool input for {which}, but bool is not supported")


def _check_dx(name, dx):
    if isinstance(dx, (bool, complex)):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")


@OPS.op("trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", kind="composite")
def trapezoid_x(y, x, *, dim=-1):
    """The trapezoid rule over sample points ``x``: ``sum((y[:-1] + y[1:]) * diff(x)) / 2``."""
    dim = _int_dim(y, dim)
    if y.shape[dim] == 0:
        return _zeros_except(y, dim)
    _check_bool("trapezoid", y, x)
    left, right = _sides(_padded_x("trapezoid", y, x, dim), dim)
    ya, yb = _sides(y, dim)
    summed = A.sum__dim_IntList(A.mul__Tensor(A.add__Tensor(ya, yb), A.sub__Tensor(right, left)), [dim])
    return A.div__Scalar(summed, 2.)


@OPS.op("trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", kind="composite")
def trapezoid_dx(y, *, dx=1, dim=-1):
    """Evenly spaced samples: ``(sum(y) - (y[0] + y[-1]) / 2) * dx``."""
    dim = _int_dim(y, dim)
    if y.shape[dim] == 0:
        return _zeros_except(y, dim)
    _check_bool("trapezoid", y)
    _check_dx("trapezoid", dx)
    ends = A.add__Tensor(A.select__int(y, dim, 0), A.select__int(y, dim, -1))
    return A.mul__Scalar(A.sub__Tensor(A.sum__dim_IntList(y, [dim]), A.mul__Scalar(ends, 0.5)), float(dx))


@OPS.op("trapz.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", kind="composite")
def trapz_x(y, x, *, dim=-1):
    return A.trapezoid__x(y, x, dim=dim)


@OPS.op("trapz.dx(Tensor y, *, float dx=1, int dim=-1) -> Tensor", kind="composite")
def trapz_dx(y, *, dx=1, dim=-1):
    return A.trapezoid__dx(y, dx=dx, dim=dim)


@OPS.op("cumulative_trapezoid.x(Tensor y, Tensor x, *, int dim=-1) -> Tensor", kind="composite")
def cumulative_trapezoid_x(y, x, *, dim=-1):
    """The running trapezoid rule: ``cumsum(diff(x) * (y[:-1] + y[1:]) / 2)``."""
    _slices_need_dims(y)
    dim = _int_dim(y, dim)
    _check_bool("cumulative_trapezoid", y, x)
    left, right = _sides(_padded_x("cumulative_trapezoid", y, x, dim), dim)
    ya, yb = _sides(y, dim)
    return A.cumsum(A.div__Scalar(A.mul__Tensor(A.sub__Tensor(right, left), A.add__Tensor(ya, yb)), 2.), dim)


@OPS.op("cumulative_trapezoid.dx(Tensor y, *, Scalar dx=1, int dim=-1) -> Tensor", kind="composite")
def cumulative_trapezoid_dx(y, *, dx=1, dim=-1):
    _slices_need_dims(y)
    dim = _int_dim(y, dim)
    _check_bool("cumulative_trapezoid", y)
    _check_dx("cumulative_trapezoid", dx)
    ya, yb = _sides(y, dim)
    return A.cumsum(A.mul__Scalar(A.add__Tensor(ya, yb), float(dx) / 2.), dim)


def _is_true(t):
    """torch's ``is_scalar_tensor_true``: ``equal(t, True)`` (a fake tensor refuses it, as torch's)."""
    return A.equal(t, A.new_ones(t, []))


@OPS.op("cov(Tensor self, *, int correction=1, Tensor? fweights=None, Tensor? aweights=None) -> Tensor",
        kind="composite")
def cov(self, *, correction=1, fweights=None, aweights=None):
    """The covariance of the rows (variables) of ``self`` over its columns (observations), with
    frequency and observation weights (torch's Correlation.cpp)."""
    if self.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{self.dim()} dimensions")
    if self.dtype is D.bool:
        raise NotImplementedError("cov(): bool dtype is not supported for input")
    x = A.view(self, [1, -1]) if self.dim() < 2 else self
    n = x.shape[1]
    w = None
    if fweights is not None:
        if fweights.dim() > 1:
            raise RuntimeError(f"cov(): expected fweights to have one or fewer dimensions but got fweights with "
                               f"{fweights.dim()} dimensions")
        if fweights.dtype.is_floating_point or fweights.dtype.is_complex or fweights.dtype is D.bool:
            raise RuntimeError(f"cov(): expected fweights to have integral dtype but got fweights with "
                               f"{D.legacy_name(fweights.dtype)} dtype")
        if fweights.numel() != n:
            raise RuntimeError(f"cov(): expected fweights to have the same numel as there are observations in the "
                               f"input but got {fweights.numel()} != {n}")
        if n and not _is_true(A.ge__Scalar(A.min(fweights), 0)):
            raise RuntimeError("cov(): fweights cannot be negative")
        w = fweights
    if aweights is not None:
        if aweights.dim() > 1:
            raise RuntimeError(f"cov(): expected aweights to have one or fewer dimensions but got aweights with "
                               f"{aweights.dim()} dimensions")
        if not aweights.dtype.is_floating_point:
            raise RuntimeError(f"cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{D.legacy_name(aweights.dtype)} dtype")
        if aweights.numel() != n:
            raise RuntimeError(f"cov(): expected aweights to have the same numel as there are observations in the "
                               f"input but got {aweights.numel()} != {n}")
        if n and not _is_true(A.ge__Scalar(A.min(aweights), 0)):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = aweights if w is None else A.mul__Tensor(w, aweights)
    w_sum = A.sum(w) if w is not None else A.full([], n, dtype=D.int64, device=self.device)
    if w is not None and not _is_true(A.ne__Scalar(w_sum, 0)):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = A.div__Tensor(A.sum__dim_IntList(A.mul__Tensor(x, w) if w is not None else x, [1]), w_sum)
    if w is not None and aweights is not None and correction != 0:
        norm_factor = A.sub__Tensor(w_sum, A.div__Tensor(A.mul__Scalar(A.sum(A.mul__Tensor(w, aweights)),
                                                                       correction), w_sum))
    else:
        norm_factor = A.sub__Scalar(w_sum, correction)
    if _is_true(A.le__Scalar(norm_factor, 0)):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations.", UserWarning, stacklevel=2)
        norm_factor = A.zeros_like(norm_factor)
    centred = A.sub__Tensor(x, A.unsqueeze(avg, 1))
    weighted = A.mul__Tensor(centred, w) if w is not None else centred
    c = A.mm(centred, A.conj(A.t(weighted)))
    return A.squeeze(A.div__Tensor(c, norm_factor))


@OPS.op("corrcoef(Tensor self) -> Tensor", kind="composite")
def corrcoef(self):
    """The covariance normalised by the standard deviations, clipped to [-1, 1] (real and
    imaginary parts apart)."""
    if self.dim() > 2:
        raise RuntimeError(f"corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{self.dim()} dimensions")
    c = A.cov(self)
    if c.dim() == 0:
        return A.div__Tensor(c, c)
    d = A.diagonal(c)
    std = A.sqrt(A.real(d) if d.dtype.is_complex else d)
    c = A.div__Tensor(c, A.view(std, [-1, 1]))
    c = A.div__Tensor(c, A.view(std, [1, -1]))
    if c.dtype.is_complex:
        return A.complex(A.clamp(A.real(c), -1, 1), A.clamp(A.imag(c), -1, 1))
    return A.clamp(c, -1, 1)


# --- quantile ---------------------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_checks(self, q):
    if self.numel() == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if q.dim() > 1:
        raise RuntimeError("quantile() q must be a scalar or 1D tensor")
    if self.dtype not in (D.float32, D.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if self.dtype is not q.dtype:
        raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
    if self.device != q.device:
        raise RuntimeError("quantile() q tensor must be on the same device as the input tensor")


def _quantile(self, q, dim, keepdim, interpolation, ignore_nan):
    """torch's ``quantile_compute``: sort, turn q into (fractional) ranks, gather the values below
    and above and interpolate."""
    _quantile_checks(self, q)
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    nd = self.dim()
    wrapped = _wrap_dim(dim if dim is not None else 0, nd)
    shape = []
    if dim is not None and nd > 0:
        shape = list(self.shape)
        if keepdim:
            shape[wrapped] = 1
        else:
            del shape[wrapped]
    elif keepdim:
        shape = [1] * nd
    if q.dim() > 0:
        shape.insert(0, q.numel())
    # torch reads q's values on the CPU without dispatching (a fake tensor's stand-in zeros pass)
    qd = q._data
    if not np.all((qd >= 0) & (qd <= 1)):
        raise RuntimeError("quantile() q values must be in the range [0, 1]")
    if dim is None:
        srt = A.sort(A.flatten__using_ints(self))[0]
    elif wrapped == nd - 1:
        srt = A.sort(self)[0]
    else:
        srt = A.sort(A.transpose__int(A.unsqueeze(self, -1), wrapped, -1))[0]
    if q.dim() == 0:
        shape.insert(0, q.numel())
    srt = A.view(srt, shape[1:] + [srt.shape[-1]])
    if ignore_nan:
        valid = A.sum__dim_IntList(A.logical_not(A.isnan(srt)), [-1], True)
        ranks = A.mul__Tensor(q, A.sub__Scalar(valid, 1))
        ranks = A.masked_fill__Scalar(ranks, A.lt__Scalar(ranks, 0), 0)
    else:
        last = srt.shape[-1] - 1
        ranks, has_nan = A.broadcast_tensors([A.mul__Scalar(q, last), A.any__dim(A.isnan(srt), -1, True)])
        ranks = A.masked_fill__Scalar(ranks, has_nan, last)
    if interpolation == "lower":
        ranks = A.floor(ranks)
    elif interpolation == "higher":
        ranks = A.ceil(ranks)
    elif interpolation == "nearest":
        ranks = A.round(ranks)
    below = A._to_copy(ranks, dtype=D.int64)
    values = A.gather(srt, -1, below)
    if interpolation in ("linear", "midpoint"):
        weights = A.full_like(ranks, 0.5) if interpolation == "midpoint" else A.sub__Tensor(ranks, below)
        above = A._to_copy(A.ceil(ranks), dtype=D.int64)
        values = A.lerp__Tensor(values, A.gather(srt, -1, above), weights)
    if q.dim() == 0:
        return A.squeeze__dim(values, -1)
    return A.squeeze__dim(A.transpose__int(A.unsqueeze(values, 0), 0, -1), -1)


def _scalar_q(self, q):
    if not 0 <= q <= 1:
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {_g(q)}")
    return A.full([], q, dtype=self.dtype, device=self.device)


@OPS.op("quantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') -> Tensor",
        kind="composite", out="quantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
                              "str interpolation='linear', Tensor(a!) out) -> Tensor(a!)", exact=True)
def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, False)


@OPS.op("quantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') "
        "-> Tensor", kind="composite", exact=True,
        out="quantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear', Tensor(a!) out) -> Tensor(a!)")
def quantile_scalar(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, _scalar_q(self, q), dim, keepdim, interpolation, False)


@OPS.op("nanquantile(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, str interpolation='linear') "
        "-> Tensor", kind="composite", exact=True,
        out="nanquantile.out(Tensor self, Tensor q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear', Tensor(a!) out) -> Tensor(a!)")
def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, q, dim, keepdim, interpolation, True)


@OPS.op("nanquantile.scalar(Tensor self, float q, int? dim=None, bool keepdim=False, *, str interpolation='linear') "
        "-> Tensor", kind="composite", exact=True,
        out="nanquantile.scalar_out(Tensor self, float q, int? dim=None, bool keepdim=False, *, "
            "str interpolation='linear', Tensor(a!) out) -> Tensor(a!)")
def nanquantile_scalar(self, q, dim=None, keepdim=False, *, interpolation="linear"):
    return _quantile(self, _scalar_q(self, q), dim, keepdim, interpolation, True)


# --- gradient ---------------------------------------------------------------------------------


def _gradient_checks(self, spacing_size, dims, edge_order):
    """torch's ``pre_check_gradient`` (``dims`` None: every dimension)."""
    if self.dtype is D.uint8:
        raise NotImplementedError("opyard.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != self.dim():
        raise RuntimeError(f"opyard.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           f"to 'self.dim() = {self.dim()}', since dim argument was not given, but got a list of "
                           f"length {spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError(f"opyard.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {spacing_size} "
                           f"and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("opyard.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        seen = set()
        for d in dims:
            w = _wrap_dim(d, self.dim())
            if w in seen:
                raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
            seen.add(w)
        for d in dims:
            if self.shape[d] < edge_order + 1:
                raise RuntimeError("opyard.gradient expected each dimension size to be at least edge_order+1")
    else:
        for n in self.shape:
            if n < edge_order + 1:
                raise RuntimeError("opyard.gradient expected each dimension size to be at least edge_order+1")


def _sl(t, d, start, stop=None):
    return A.slice__Tensor(t, d, start, stop)


def _join(center, before, after, d):
    return A.cat([before, center, after], d)


def _gradient_uniform(self, spacing, dims, edge_order):
    """Central differences in the interior and one-sided ones at the edges, with a Python-number
    spacing per dimension."""
    result = []
    for h, dim in zip(spacing, dims):
        d = _wrap_dim(dim, self.dim())
        center = A.div__Scalar(A.sub__Tensor(_sl(self, d, 2), _sl(self, d, 0, -2)), h)
        if edge_order == 1:
            before = A.div__Scalar(A.sub__Tensor(_sl(self, d, 1, 2), _sl(self, d, 0, 1)), h)
            after = A.div__Scalar(A.sub__Tensor(_sl(self, d, -1), _sl(self, d, -2, -1)), h)
        else:
            before = A.div__Scalar(A.sub__Tensor(A.add__Tensor(A.mul__Scalar(_sl(self, d, 0, 1), -1.5),
                                                               A.mul__Scalar(_sl(self, d, 1, 2), 2)),
                                                 A.mul__Scalar(_sl(self, d, 2, 3), 0.5)), h)
            after = A.div__Scalar(A.add__Tensor(A.add__Tensor(A.mul__Scalar(_sl(self, d, -3, -2), 0.5),
                                                              A.mul__Scalar(_sl(self, d, -2, -1), -2)),
                                                A.mul__Scalar(_sl(self, d, -1), 1.5)), h)
        result.append(_join(A.div__Scalar(center, 2), before, after, d))
    return result


def _weighted3(a, b, c, x, y, z):
    """``a * x + b * y + c * z``, summed left to right (torch's order)."""
    return A.add__Tensor(A.add__Tensor(A.mul__Tensor(a, x), A.mul__Tensor(b, y)), A.mul__Tensor(c, z))


def _gradient_coordinates(self, coordinates, dims, edge_order):
    """Second-order differences over uneven sample coordinates (one 1-d tensor per dimension)."""
    for c in coordinates:
        if c.device != self.device:
            raise RuntimeError(f"opyard.gradient expected each tensor to be on the same device, but got devices "
                               f"{self.device} and {c.device}!")
    result = []
    for c, dim in zip(coordinates, dims):
        if c.dim() != 1:
            raise RuntimeError(f"opyard.gradient expected each element of spacing to have one dimension, but got an "
                               f"element with {c.dim()} dimensions!")
        d = _wrap_dim(dim, self.dim())
        shape = [1] * self.dim()
        shape[d] = -1
        ax = A.diff(c, 1, 0)
        dx1, dx2 = _sl(ax, 0, 0, -1), _sl(ax, 0, 1)
        a = A.reshape(A.div__Tensor(A.neg(dx2), A.mul__Tensor(dx1, A.add__Tensor(dx1, dx2))), shape)
        b = A.reshape(A.div__Tensor(A.sub__Tensor(dx2, dx1), A.mul__Tensor(dx1, dx2)), shape)
        cc = A.reshape(A.div__Tensor(dx1, A.mul__Tensor(dx2, A.add__Tensor(dx1, dx2))), shape)
        center = _weighted3(a, b, cc, _sl(self, d, 0, -2), _sl(self, d, 1, -1), _sl(self, d, 2))
        h0, h1 = A.select__int(ax, 0, 0), A.select__int(ax, 0, -1)
        if edge_order == 1:
            before = A.div__Tensor(A.sub__Tensor(_sl(self, d, 1, 2), _sl(self, d, 0, 1)), h0)
            after = A.div__Tensor(A.sub__Tensor(_sl(self, d, -1), _sl(self, d, -2, -1)), h1)
        else:
            g0, g1 = A.select__int(ax, 0, 1), A.select__int(ax, 0, -2)
            s01 = A.add__Tensor(h0, g0)
            a = A.div__Tensor(A.neg(A.add__Tensor(A.mul__Scalar(h0, 2.0), g0)), A.mul__Tensor(h0, s01))
            b = A.div__Tensor(s01, A.mul__Tensor(h0, g0))
            cc = A.div__Tensor(A.neg(h0), A.mul__Tensor(g0, s01))
            before = _weighted3(a, b, cc, _sl(self, d, 0, 1), _sl(self, d, 1, 2), _sl(self, d, 2, 3))
            s10 = A.add__Tensor(h1, g1)
            a = A.div__Tensor(h1, A.mul__Tensor(g1, s10))
            b = A.div__Tensor(A.neg(s10), A.mul__Tensor(h1, g1))
            cc = A.div__Tensor(A.add__Tensor(A.mul__Scalar(h1, 2), g1), A.mul__Tensor(h1, s10))
            after = _weighted3(a, b, cc, _sl(self, d, -3, -2), _sl(self, d, -2, -1), _sl(self, d, -1))
        result.append(_join(center, before, after, d))
    return result


def _all_dims(self, dim):
    return [dim] if dim is not None else list(range(self.dim()))


# The Tensor[] forms first: overload resolution tries the declarations in order, and a list of
# tensors must not be read as a list of scalars.
@OPS.op("gradient.tensorarrayint(Tensor self, *, Tensor[] spacing, int? dim=None, int edge_order=1) -> Tensor[]",
        kind="composite")
def gradient_tensorarrayint(self, *, spacing, dim=None, edge_order=1):
    dims = _all_dims(self, dim)
    _gradient_checks(self, len(spacing), dims if dim is not None else None, edge_order)
    return _gradient_coordinates(self, list(spacing), dims, edge_order)


@OPS.op("gradient.tensorarray(Tensor self, *, Tensor[] spacing, int[] dim, int edge_order=1) -> Tensor[]",
        kind="composite")
def gradient_tensorarray(self, *, spacing, dim, edge_order=1):
    _gradient_checks(self, len(spacing), list(dim), edge_order)
    return _gradient_coordinates(self, list(spacing), list(dim), edge_order)


@OPS.op("gradient.scalarint(Tensor self, *, Scalar? spacing=None, int? dim=None, int edge_order=1) -> Tensor[]",
        kind="composite")
def gradient_scalarint(self, *, spacing=None, dim=None, edge_order=1):
    """The gradient along ``dim`` (every dimension when None) with one spacing for all."""
    dims = _all_dims(self, dim)
    h = [spacing if spacing is not None else 1.0] * (1 if dim is not None else self.dim())
    _gradient_checks(self, len(h) if spacing is not None else None, dims if dim is not None else None, edge_order)
    return _gradient_uniform(self, h, dims, edge_order)


@OPS.op("gradient.scalararray(Tensor self, *, Scalar spacing, int[] dim, int edge_order=1) -> Tensor[]",
        kind="composite")
def gradient_scalararray(self, *, spacing, dim, edge_order=1):
    h = [spacing] * len(dim)
    _gradient_checks(self, len(h), list(dim), edge_order)
    return _gradient_uniform(self, h, list(dim), edge_order)


@OPS.op("gradient.array(Tensor self, *, int[] dim, int edge_order=1) -> Tensor[]", kind="composite")
def gradient_array(self, *, dim, edge_order=1):
    h = [1.0] * len(dim)
    _gradient_checks(self, len(h), list(dim), edge_order)
    return _gradient_uniform(self, h, list(dim), edge_order)


@OPS.op("gradient.scalarrayint(Tensor self, *, Scalar[] spacing, int? dim=None, int edge_order=1) -> Tensor[]",
        kind="composite")
def gradient_scalarrayint(self, *, spacing, dim=None, edge_order=1):
    dims = _all_dims(self, dim)
    _gradient_checks(self, len(spacing), dims if dim is not None else None, edge_order)
    return _gradient_uniform(self, list(spacing), dims, edge_order)


@OPS.op("gradient.scalarrayarray(Tensor self, *, Scalar[] spacing, int[] dim, int edge_order=1) -> Tensor[]",
        kind="composite")
def gradient_scalarrayarray(self, *, spacing, dim, edge_order=1):
    _gradient_checks(self, len(spacing), list(dim), edge_order)
    return _gradient_uniform(self, list(spacing), list(dim), edge_order)
