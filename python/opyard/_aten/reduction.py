"""Reductions and normalizations (numpy)."""

import numpy as np

from .. import _dtype as D
from . import return_types as RT
from .common import INEXACT, _wrap_dim, dims_arg, np_dtype, out

__all__ = ["KERNELS"]


def _acc_dtype(x, dtype):
    if dtype is not None:
        return dtype.np
    return np.int64 if x.dtype.kind in "biu" else x.dtype


def sum_all(self, *, dtype=None):
    x = self._data
    if dtype is None and x.dtype.kind in "fc":  # the hot path: numpy's reduction, no wrapper
        return out(np.add.reduce(x, axis=None), self)
    if dtype is None and x.dtype == D.bfloat16.np:  # torch sums bfloat16 in float32, rounded once
        return out(np.asarray(np.add.reduce(x, axis=None, dtype=np.float32)).astype(x.dtype), self)
    return out(np.add.reduce(x, axis=None, dtype=_acc_dtype(x, dtype)), self)


def sum_dim(self, dim, keepdim=False, *, dtype=None):
    x = self._data
    axes = dims_arg(dim, x.ndim)
    if dtype is None and x.dtype == D.bfloat16.np:  # torch sums bfloat16 in float32, rounded once
        return out(np.asarray(np.sum(x, axis=axes, keepdims=keepdim, dtype=np.float32)).astype(x.dtype), self)
    return out(np.asarray(np.sum(x, axis=axes, keepdims=keepdim, dtype=_acc_dtype(x, dtype))), self)


def _mean_check(x, dtype):
    if (dtype.np if dtype is not None else x.dtype) not in INEXACT:
        name = (dtype or D.FROM_NP[x.dtype]).name
        raise RuntimeError(
            f"mean(): could not infer output dtype. Input dtype must be either a floating point or "
            f"complex dtype. Got: {name.capitalize()}"
        )


def _mean_acc(x, dtype):
    """The accumulation dtype of a mean: the requested one, float32 for float16/bfloat16 data
    (torch's CPU kernel sums those in float32 and rounds once), else numpy's."""
    if dtype is not None:
        return dtype.np
    return np.float32 if x.dtype in (D.float16.np, D.bfloat16.np) else None


def mean_all(self, *, dtype=None):
    _mean_check(self._data, dtype)
    x = self._data
    return out(np.asarray(np.mean(x, dtype=_mean_acc(x, dtype))).astype(np_dtype(dtype) or x.dtype), self)


def mean_dim(self, dim, keepdim=False, *, dtype=None):
    _mean_check(self._data, dtype)
    x = self._data
    r = np.mean(x, axis=dims_arg(dim, x.ndim), keepdims=keepdim, dtype=_mean_acc(x, dtype))
    return out(np.asarray(r).astype(np_dtype(dtype) or x.dtype), self)


def prod(self, *, dtype=None):
    x = self._data
    return out(np.asarray(np.prod(x, dtype=_acc_dtype(x, dtype))), self)


def prod_dim(self, dim, keepdim=False, *, dtype=None):
    x = self._data
    return out(np.asarray(np.prod(x, axis=_wrap_dim(dim, x.ndim), keepdims=keepdim, dtype=_acc_dtype(x, dtype))), self)


def _nonempty(x, name):
    if x.size == 0:
        raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
                           "Specify the reduction dim with the 'dim' argument.")


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


def amax(self, dim=(), keepdim=False):
    _no_complex(self._data, "max_values_cpu")
    _nonempty(self._data, "amax")
    return out(np.asarray(np.amax(self._data, axis=dims_arg(dim, self._data.ndim), keepdims=keepdim)), self)


def amin(self, dim=(), keepdim=False):
    _no_complex(self._data, "min_values_cpu")
    _nonempty(self._data, "amin")
    return out(np.asarray(np.amin(self._data, axis=dims_arg(dim, self._data.ndim), keepdims=keepdim)), self)


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
        return out(np.asarray(np.argmax(x), dtype=np.int64), self)
    return out(np.asarray(np.argmax(x, axis=_wrap_dim(dim, x.ndim), keepdims=keepdim), dtype=np.int64), self)


def argmin(self, dim=None, keepdim=False):
    x = self._data
    _no_complex_input(x, "argmin")
    if dim is None:
        return out(np.asarray(np.argmin(x), dtype=np.int64), self)
    return out(np.asarray(np.argmin(x, axis=_wrap_dim(dim, x.ndim), keepdims=keepdim), dtype=np.int64), self)


def _var(fn):
    def kernel(self, dim=None, *, correction=None, keepdim=False):
        x = self._data
        ddof = 1 if correction is None else correction
        with np.errstate(divide="ignore", invalid="ignore"):
            r = fn(x, axis=dims_arg(dim, x.ndim), ddof=ddof, keepdims=keepdim)
        return out(np.asarray(r).astype(x.dtype, copy=False), self)
    return kernel


def _softmax_impl(x, dim, log):
    d = _wrap_dim(dim, x.ndim)
    if x.ndim == 0:
        return np.zeros_like(x) if log else np.ones_like(x)
    if x.size == 0:
        return x.copy()
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


def _any_all(fn, name):
    def whole(self):
        return out(np.asarray(fn(self._data)), self)

    def along(self, dim, keepdim=False):
        return out(np.asarray(fn(self._data, axis=_wrap_dim(dim, self._data.ndim), keepdims=keepdim)), self)
    whole.__name__, along.__name__ = name, name + "_dim"
    return whole, along


def _order(x, d, descending):
    if x.ndim == 0:
        return np.zeros((), dtype=np.int64)
    if descending:  # torch's default sort is not stable: ties may come in any order
        return np.flip(np.argsort(np.flip(x, d), axis=d, kind="stable"), d) * -1 + (x.shape[d] - 1)
    return np.argsort(x, axis=d, kind="stable")


def sort(self, dim=-1, descending=False):
    x = self._data
    _no_complex_sort(x, "Sort")
    d = _wrap_dim(dim, x.ndim)
    idx = _order(x, d, descending)
    vals = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
    return RT.make(RT.sort, (out(vals, self), out(idx.astype(np.int64), self)))


def topk(self, k, dim=-1, largest=True, sorted=True):
    x = self._data
    _no_complex_sort(x, "topk")
    d = _wrap_dim(dim, x.ndim)
    size = x.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError(f"selected index k out of range (aten::topk: k={k}, dimension {d} has size {size})")
    idx = _order(x, d, largest)
    idx = idx[(slice(None),) * d + (slice(0, k),)] if x.ndim else idx
    vals = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
    return RT.make(RT.topk, (out(vals, self), out(idx.astype(np.int64), self)))


def cumsum(self, dim, *, dtype=None):
    x = self._data
    # torch writes cumulative results row-major whatever the input's layout
    return out(np.ascontiguousarray(np.cumsum(x, axis=_wrap_dim(dim, x.ndim), dtype=_acc_dtype(x, dtype))), self)


KERNELS = {
    "sum": sum_all, "sum.dim_IntList": sum_dim, "mean": mean_all, "mean.dim": mean_dim,
    "prod": prod, "prod.dim_int": prod_dim, "amax": amax, "amin": amin, "max": max_all, "min": min_all,
    "max.dim": _with_indices(np.max, np.argmax, RT.max), "min.dim": _with_indices(np.min, np.argmin, RT.min),
    "argmax": argmax, "argmin": argmin, "var.correction": _var(np.var), "std.correction": _var(np.std),
    "softmax.int": _softmax_kernel(False), "log_softmax.int": _softmax_kernel(True),
    "_softmax": _private_softmax(False), "_log_softmax": _private_softmax(True), "cumsum": cumsum,
    "sort": sort, "topk": topk,
}
KERNELS["any"], KERNELS["any.dim"] = _any_all(np.any, "any")
KERNELS["all"], KERNELS["all.dim"] = _any_all(np.all, "all")

REDUCTIONS = {"sum", "sum.dim_IntList", "mean", "mean.dim", "prod", "prod.dim_int", "amax", "amin", "max", "min",
              "max.dim", "min.dim", "argmax", "argmin", "var.correction", "std.correction", "softmax.int",
              "log_softmax.int", "_softmax", "_log_softmax", "cumsum", "any", "all", "any.dim", "all.dim", "sort"}
KINDS = {"topk": "topk"}
