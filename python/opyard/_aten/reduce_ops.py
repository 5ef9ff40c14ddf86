"""More reductions with a direct numpy equivalent: nansum, nanmean, cummax/cummin, median,
mode; var_mean/std_mean as the compositions torch differentiates through.

``median`` returns the lower of the two middle values for an even count, as torch does
(not numpy's average); nan propagates (the first nan's index is reported).
"""

import numpy as np

from .. import _core
from .. import _dtype as D
from . import return_types as RT
from .common import INEXACT, A, _wrap_dim, dims_arg, inplace_result, out
from .misc_ops import cumprod as _cumprod
from .reduction import cumsum as _cumsum, ordered, values_back
from .precision import reduced, sum_dtypes

__all__ = ["COMPOSITE", "KERNELS", "REDUCTIONS", "SCHEMAS"]

SCHEMAS = (
    "nansum(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    "nanmean(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
    "cummax(Tensor self, int dim) -> (Tensor values, Tensor indices)",
    "cummin(Tensor self, int dim) -> (Tensor values, Tensor indices)",
    "median(Tensor self) -> Tensor",
    "median.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
    "mode(Tensor self, int dim=-1, bool keepdim=False) -> (Tensor values, Tensor indices)",
    "var_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)",
    "var_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)",
    "var_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)",
    "std_mean.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> (Tensor, Tensor)",
    "std_mean.dim(Tensor self, int[1]? dim, bool unbiased=True, bool keepdim=False) -> (Tensor, Tensor)",
    "std_mean(Tensor self, bool unbiased=True) -> (Tensor, Tensor)",
    "cumprod_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
    "cumsum_(Tensor(a!) self, int dim, *, ScalarType? dtype=None) -> Tensor(a!)",
)


_FLOATS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


def nansum(self, dim=None, keepdim=False, *, dtype=None):
    x = self._data
    if dtype is None and type(x) is np.ndarray and x.ndim and x.dtype in _FLOATS:
        # the common call: np.nansum's steps (a copy with the nans zeroed, summed in its own type)
        # without its frames
        a = np.array(x, subok=True, copy=True)
        np.copyto(a, 0, where=np.isnan(x))
        return out(np.add.reduce(a, dims_arg(dim, x.ndim), None, None, keepdims=keepdim), self)
    if x.dtype.kind == "c":
        raise RuntimeError("nansum does not support complex inputs")
    return out(reduced(np.nansum, x, dtype, axis=dims_arg(dim, x.ndim), keepdims=keepdim, upcast_first=True), self)


def nanmean(self, dim=None, keepdim=False, *, dtype=None):
    x = self._data
    if (dtype.np if dtype is not None else x.dtype) not in INEXACT:
        raise NotImplementedError(f"nanmean(): expected input to have floating point or complex dtype but got "
                           f"{D.legacy_name(dtype or self.dtype)}")
    axes = dims_arg(dim, x.ndim)
    keep = ~np.isnan(x)
    with np.errstate(all="ignore"):
        acc, res = sum_dtypes(x.dtype, dtype)
        total = np.sum(np.where(keep, x, 0), axis=axes, keepdims=keepdim, dtype=acc)
        r = total / np.sum(keep, axis=axes, keepdims=keepdim)
    return out(np.asarray(r).astype(res, copy=False), self)


def _cum_extreme_at_once(x, d, ufunc):
    """``(values, indices)`` of the loop below (``ufunc``: ``np.maximum`` for cummax) over the numpy
    array ``x`` of a real numpy dtype along ``d`` (at least one element there), without a Python step
    per element: each index is the last position so far where the running extreme was reached or tied
    (an equal element takes over), or, from the first nan on, the last nan's (``ufunc`` propagates nan,
    so no number reaches the running value after it); the values are the elements there."""
    run = ufunc.accumulate(x, axis=d)
    hit = x == run
    if x.dtype.kind == "f":
        hit |= np.isnan(x)
    pos = np.arange(x.shape[d]).reshape((-1,) + (1,) * (x.ndim - 1 - d))
    idx = np.maximum.accumulate(pos * hit, axis=d)  # the position where hit, else 0
    if x.ndim == 1:
        vals = x[idx]
    else:  # the Rust gather where it takes the data (numpy's take_along_axis costs 5 us in frames)
        vals = _core._select_gather(x, d, idx)
        if vals is None:
            vals = np.take_along_axis(x, idx, d)
    return np.ascontiguousarray(vals), np.ascontiguousarray(idx)


def _cum_extreme(name, better, rt):
    ufunc = np.maximum if better is np.greater_equal else np.minimum

    def kernel(self, dim):
        x = self._data
        d = _wrap_dim(dim, x.ndim)
        if x.ndim == 0:
            return RT.make(rt, (out(x.copy(), self), out(np.zeros((), np.int64), self)))
        if type(x) is np.ndarray and x.shape[d] and x.dtype.kind in "biuf":
            vals, idx = _cum_extreme_at_once(x, d, ufunc)
            return RT.make(rt, (out(vals, self), out(idx, self)))
        xs = np.moveaxis(x, d, 0)
        vals = np.empty_like(xs)
        idx = np.empty(xs.shape, np.int64)
        if xs.shape[0]:
            vals[0], idx[0] = xs[0], 0
        for i in range(1, xs.shape[0]):
            # torch: an equal element takes over (the later index), and a nan stays once seen
            take = better(xs[i], vals[i - 1])
            if xs.dtype.kind in "fc":
                take = np.isnan(xs[i]) | (~np.isnan(vals[i - 1]) & take)
            vals[i] = np.where(take, xs[i], vals[i - 1])
            idx[i] = np.where(take, i, idx[i - 1])
        return RT.make(rt, (out(np.ascontiguousarray(np.moveaxis(vals, 0, d)), self),
                            out(np.ascontiguousarray(np.moveaxis(idx, 0, d)), self)))
    kernel.__name__ = name
    return kernel


def _median_index(xs):
    """Index along axis 0 of the lower median of each column (the first nan if any)."""
    n = xs.shape[0]
    order = np.argsort(xs, axis=0, kind="stable")  # nan sorts last
    pick = np.take_along_axis(order, np.full((1,) + xs.shape[1:], (n - 1) // 2), 0)[0]
    if xs.dtype.kind in "fc":
        has_nan = np.isnan(xs).any(axis=0)
        pick = np.where(has_nan, np.argmax(np.isnan(xs), axis=0), pick)
    return pick


def median(self):
    x = self._data
    if x.size == 0:
        return out(np.asarray(np.nan, dtype=x.dtype) if x.dtype in INEXACT else np.zeros((), x.dtype), self)
    flat = x.reshape(-1)
    if type(x) is np.ndarray and x.dtype.kind in "biuf":
        # ``_median_index``'s steps for one column: the lower middle of the stable sort, or the first
        # nan where there is one (numpy's sort puts the nans last: the last value tells)
        order = flat.argsort(kind="stable")
        i = order[(flat.size - 1) // 2]
        if flat.dtype.kind == "f" and flat[order[-1]] != flat[order[-1]]:
            i = np.isnan(flat).argmax()
        return out(np.asarray(flat[i]), self)
    return out(np.asarray(flat[_median_index(flat[:, None])[0]]), self)


def _median_along(x, d, keepdim):
    """``(values, indices)`` of ``median.dim`` of the numpy array ``x`` of a real numpy dtype along
    ``d`` (not empty): ``_median_index``'s steps along ``d`` itself, without moving it first, and the
    values picked by the Rust gather where it takes the data (numpy's moveaxis, take_along_axis and
    expand_dims cost 10 us in frames)."""
    pick = x.argsort(axis=d, kind="stable").take((x.shape[d] - 1) // 2, axis=d)
    if x.dtype.kind == "f":
        nan = np.isnan(x)
        if np.logical_or.reduce(nan, None):  # (the rare case: its where costs 4 us)
            pick = np.where(nan.any(axis=d), nan.argmax(axis=d), pick)
    at = pick.reshape(x.shape[:d] + (1,) + x.shape[d + 1:])  # np.expand_dims's view
    pick = at if keepdim else pick
    vals = _core._select_gather(x, d, at)
    if vals is None:
        vals = np.take_along_axis(x, at, d)
    return (vals if keepdim else vals.reshape(pick.shape)), pick.astype(np.int64, copy=False)


def median_dim(self, dim, keepdim=False):
    x = self._data
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return RT.make(RT.median, (out(x.copy(), self), out(np.zeros((), np.int64), self)))
    if x.shape[d] == 0:
        raise IndexError(f"median(): Expected reduction dim {d} to have non-zero size.")
    if type(x) is np.ndarray and x.dtype.kind in "biuf":
        vals, idx = _median_along(x, d, keepdim)
        return RT.make(RT.median, (out(vals, self), out(idx, self)))
    xs = np.moveaxis(x, d, 0)
    idx = _median_index(xs)
    vals = np.take_along_axis(xs, idx[None], 0)[0]
    if keepdim:
        idx, vals = np.expand_dims(idx, d), np.expand_dims(vals, d)
    return RT.make(RT.median, (out(np.asarray(vals), self), out(np.asarray(idx, dtype=np.int64), self)))


def mode(self, dim=-1, keepdim=False):
    """torch's CPU ``mode``: the first most frequent value of the C++ library's sort of the row by
    ``<`` (a nan is its own run) and the last index of its run there (Note [Unstable orders])."""
    x = self._data
    data, back = ordered(self, "mode_cpu", ("uint16", "uint32", "uint64"))
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return RT.make(RT.mode, (out(x.copy(), self), out(np.zeros((), np.int64), self)))
    if x.shape[d] == 0:
        raise IndexError(f"mode(): Expected reduction dim {d} to have non-zero size.")
    vals, idx = _core._mode(data, d)
    vals = values_back(vals, back)
    if not keepdim:
        vals, idx = np.squeeze(vals, d), np.squeeze(idx, d)
    return RT.make(RT.mode, (out(np.asarray(vals), self), out(np.asarray(idx), self)))


def _moment_mean(stat, correction_op):
    """The ``.correction``, ``.dim`` and unnamed kernels of ``var_mean``/``std_mean``; the last two
    call ``correction_op`` (``var_mean.correction``) through the dispatcher, as torch's do."""
    def correction_kernel(self, dim=None, *, correction=None, keepdim=False):
        v = stat(self, dim, correction=correction, keepdim=keepdim)
        return v, A.mean__dim(self, dim if dim else None, keepdim)

    def dim_kernel(self, dim, unbiased=True, keepdim=False):
        return correction_op()(self, dim, correction=1 if unbiased else 0, keepdim=keepdim)

    def all_kernel(self, unbiased=True):
        return correction_op()(self, None, correction=1 if unbiased else 0)
    return correction_kernel, dim_kernel, all_kernel


def _in_place_cum(name, functional):
    """cumsum_/cumprod_: the functional kernel called directly (not through the dispatcher, so the
    Meta strategy's stand-ins never meet a fake-tensor mode)."""
    op_name = "aten::" + name + "_"

    def kernel(self, dim, *, dtype=None):
        return inplace_result(self, functional(self, dim, dtype=dtype)._data, op_name)
    kernel.__name__ = name + "_"
    return kernel


KERNELS = {
    "nansum": nansum, "nanmean": nanmean,
    "cummax": _cum_extreme("cummax", np.greater_equal, RT.cummax),
    "cummin": _cum_extreme("cummin", np.less_equal, RT.cummin),
    "median": median, "median.dim": median_dim, "mode": mode,
    "cumprod_": _in_place_cum("cumprod", _cumprod), "cumsum_": _in_place_cum("cumsum", _cumsum),
}
_vm = _moment_mean(lambda *a, **k: A.var__correction(*a, **k), lambda: A.var_mean__correction)
_sm = _moment_mean(lambda *a, **k: A.std__correction(*a, **k), lambda: A.std_mean__correction)
COMPOSITE = {
    "var_mean.correction": _vm[0], "var_mean.dim": _vm[1], "var_mean": _vm[2],
    "std_mean.correction": _sm[0], "std_mean.dim": _sm[1], "std_mean": _sm[2],
}
REDUCTIONS = {"nansum", "nanmean", "median", "median.dim", "mode", "cummax", "cummin"}
