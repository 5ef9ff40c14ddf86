"""Reductions and normalizations (numpy)."""

import math

import numpy as np

from .. import _core
from .. import _dtype as D
from . import return_types as RT
from .common import INEXACT, _wrap_dim, dims_arg, dims_list_arg, np_dtype, out
from .precision import _SCAN_RUST_MIN, reduced, scanned, upcast

__all__ = ["KERNELS"]

_ndarray = np.ndarray
_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
# The dtypes of the common calls' fast paths (native byte order: a set lookup, 40 ns).
_FLOATS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})
_INT64 = frozenset({np.dtype(np.int64)})


def _is_float(x):
    """Whether ``x`` is a numpy float32/float64 array: the data of the common calls' fast paths
    (``type(x) is ndarray``: numpy's wrappers take that same branch; device arrays keep the general
    paths)."""
    return type(x) is _ndarray and x.dtype in _FLOATS


def _dims(dim, ndim):
    """``dims_arg(dim, ndim)``, the common call (one int dim in range, alone or in a list, of an
    array with dims) answered without its frames (about 1 us)."""
    d = dim[0] if type(dim) is list and len(dim) == 1 else dim
    if type(d) is int and ndim:
        if 0 <= d < ndim:
            return (d,)
        if -ndim <= d < 0:
            return (d + ndim,)
    return dims_arg(dim, ndim)


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
    axes = _dims(dim, x.ndim)
    if dtype is None and x.size >= _DIM_RUST_MIN and x.dtype.kind in "fV" and x.itemsize <= 8:
        s = _sum_dim_fast(x, axes, keepdim)
        if s is not None:
            return out(s.astype(x.dtype, copy=False), self)
    if dtype is None and x.dtype.kind == "f" and x.itemsize >= 4:
        # float32/float64 accumulate in their own type: ``np.sum``'s one step, without its frames
        return out(np.asarray(np.add.reduce(x, axis=axes, keepdims=keepdim)), self)
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
    x = self._data
    if dtype is None and 0 < x.size <= _BLOCKED_SUM_MIN and _is_float(x):
        # the common call: np.mean's two steps without its frames: the sum, then its division by the
        # count in double precision rounded to the sum's type (numpy's sum / intp count: the same
        # value, computed in Python in 0.4 us where numpy's scalar arithmetic takes 2)
        s = np.add.reduce(x, axis=None)
        return out(np.asarray(float(s) / x.size, x.dtype), self)
    _mean_check(self._data, dtype)
    if dtype is None and x.size > _BLOCKED_SUM_MIN:
        s = _blocked_sum_wide(x) if x.dtype.name in _HALVES else _core._blocked_sum(x)
        if s is not None:  # numpy's mean: the sum divided by the count in the sum's dtype
            return out(np.true_divide(s, x.size, dtype=s.dtype).astype(x.dtype, copy=False), self)
    return out(reduced(np.mean, x, dtype), self)


def mean_dim(self, dim, keepdim=False, *, dtype=None):
    x = self._data
    if dtype is None and x.size < _DIM_RUST_MIN and _is_float(x):  # the common call: numpy's steps (below)
        return out(_float_mean(x, _dims(dim, x.ndim), keepdim), self)
    _mean_check(self._data, dtype)
    if dtype is None and x.size >= _DIM_RUST_MIN and x.dtype.kind in "fV" and x.itemsize <= 8:
        axes = dims_arg(dim, x.ndim)
        s = _sum_dim_fast(x, axes, keepdim)
        if s is not None:  # numpy's mean: the sum divided by the count in the sum's dtype
            count = x.size // s.size
            return out(np.true_divide(s, count, dtype=s.dtype).astype(x.dtype, copy=False), self)
    axes = _dims(dim, x.ndim)
    if dtype is None and x.dtype.kind == "f" and x.itemsize >= 4:
        return out(_float_mean(x, axes, keepdim), self)
    r = reduced(np.mean, x, dtype, axis=axes, keepdims=keepdim)
    return out(np.asarray(r).astype(np_dtype(dtype) or x.dtype), self)


def _float_mean(x, axes, keepdim):
    """``np.mean`` of float32/float64 data: its two steps (the sum, then the division by the count in
    place) without the Python frames around them, which cost more than a small mean itself."""
    s = np.add.reduce(x, axis=axes, keepdims=keepdim)
    count = 1
    for a in range(x.ndim) if axes is None else axes:
        count *= x.shape[a]
    if isinstance(s, np.ndarray):
        return np.true_divide(s, count, out=s, casting="unsafe")
    return np.asarray(s.dtype.type(s / count))


def prod(self, *, dtype=None):
    x = self._data
    if dtype is None and type(x) is _ndarray and (x.dtype in _FLOATS or x.dtype in _INT64):
        # the common call: np.prod's one reduction in the data's own type, without its frames
        return out(np.multiply.reduce(x, axis=None), self)
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
    """amax/amin (``op``) over ``axis`` of large contiguous float32/float64 or bfloat16/float16 data in
    Rust (the 16-bit values widened exactly and the result narrowed back exactly), or None."""
    half = x.itemsize == 2 and x.dtype.name in _HALVES
    if not half and (x.dtype.kind != "f" or x.itemsize < 4):
        return None
    run = _dim_run(x, axis)
    if run is None:
        return None
    if half:
        r = _core._extreme_dim_16(x.view(np.uint16), run[0], run[1], _HALVES[x.dtype.name], op)
        r = None if r is None else r.astype(x.dtype)
    else:
        r = _core._reduce_dim(x, run[0], run[1], op)
    return None if r is None else _kept(r, x, run, keepdim)


def _np_reduce(ufunc, fn, x, axis, keepdims):
    """``fn(x, axis=axis, keepdims=keepdims)`` (``np.amax``, ``np.sum``, ...: ``ufunc``'s reduction): for
    a numpy array the one ``ufunc.reduce`` call numpy's wrapper makes, without its frames (1.5 us)."""
    if type(x) is _ndarray:
        return ufunc.reduce(x, axis, None, None, keepdims=keepdims)
    return fn(x, axis=axis, keepdims=keepdims)


def _extreme_all(x, op, ufunc, keepdim):
    """amax/amin (``op``; numpy's ``ufunc``) of every element of the non-empty real numpy array ``x``
    (each dim kept as size 1 when ``keepdim``). Contiguous float32/float64 data is scanned in Rust
    first (0.5 us where numpy's reduction takes 1.1): its answer is numpy's but for a zero, whose sign
    depends on the order of the scan, or a nan, whose bits do; numpy answers those."""
    r = None
    if x.dtype in _FLOATS and x.ndim and x.flags.c_contiguous:
        r = _core._reduce_dim(x, 0, x.ndim - 1, op)
        if r is not None:
            v = float(r)
            if not (v != 0 and v == v):
                r = None
    if r is None:
        r = ufunc.reduce(x, None, None, None, keepdims=keepdim)
    elif keepdim:
        r = r.reshape((1,) * x.ndim)
    return r


def _extreme_common(x, dim):
    """Whether an amax/amin/max/min call is the common one: of every element (``dim`` empty) of a
    non-empty real numpy array, which no check refuses."""
    return (dim == () or dim == []) and type(x) is _ndarray and x.size and x.dtype.kind in "biuf"


def amax(self, dim=(), keepdim=False):
    if self._data.size < _DIM_RUST_MIN and _extreme_common(self._data, dim):  # (larger: ``_extreme_fast``)
        return out(_extreme_all(self._data, "amax", np.maximum, keepdim), self)
    _no_complex(self._data, "max_values_cpu")
    axis = _dims(dim, self._data.ndim)
    nonempty_dims(self._data, dim, "amax()")
    if self._data.size >= _DIM_RUST_MIN:
        r = _extreme_fast(self._data, axis, keepdim, "amax")
        if r is not None:
            return out(r, self)
    return out(np.asarray(_np_reduce(np.maximum, np.amax, self._data, axis, keepdim)), self)


def amin(self, dim=(), keepdim=False):
    if self._data.size < _DIM_RUST_MIN and _extreme_common(self._data, dim):  # (larger: ``_extreme_fast``)
        return out(_extreme_all(self._data, "amin", np.minimum, keepdim), self)
    _no_complex(self._data, "min_values_cpu")
    axis = _dims(dim, self._data.ndim)
    nonempty_dims(self._data, dim, "amin()")
    if self._data.size >= _DIM_RUST_MIN:
        r = _extreme_fast(self._data, axis, keepdim, "amin")
        if r is not None:
            return out(r, self)
    return out(np.asarray(_np_reduce(np.minimum, np.amin, self._data, axis, keepdim)), self)


def max_all(self):
    if _extreme_common(self._data, ()):
        return out(_extreme_all(self._data, "amax", np.maximum, False), self)
    _no_complex(self._data, "max_all")
    _nonempty(self._data, "max")
    return out(np.asarray(np.max(self._data)), self)


def min_all(self):
    if _extreme_common(self._data, ()):
        return out(_extreme_all(self._data, "amin", np.minimum, False), self)
    _no_complex(self._data, "min_all")
    _nonempty(self._data, "min")
    return out(np.asarray(np.min(self._data)), self)


def _with_indices(fn, argfn, ufunc, rt):
    method = argfn.__name__  # the array method np.argmax calls

    def kernel(self, dim, keepdim=False):
        x = self._data
        _no_complex_input(x, rt.__name__)
        d = _wrap_dim(dim, x.ndim)
        if x.ndim == 0:
            return RT.make(rt, (out(x.copy(), self), out(np.asarray(0, dtype=np.int64), self)))
        if x.shape[d] == 0:
            raise IndexError(f"{rt.__name__}(): Expected reduction dim {d} to have non-zero size.")
        if type(x) is _ndarray:  # numpy's calls (the method, the ufunc's reduction), without the wrappers
            idx = getattr(x, method)(axis=d, keepdims=keepdim)
            vals = ufunc.reduce(x, d, None, None, keepdims=keepdim)
        else:
            idx = argfn(x, axis=d, keepdims=keepdim)
            vals = fn(x, axis=d, keepdims=keepdim)
        return RT.make(rt, (out(np.asarray(vals), self), out(np.asarray(idx, dtype=np.int64), self)))
    return kernel


def argmax(self, dim=None, keepdim=False):
    x = self._data
    if dim is None and type(x) is _ndarray and x.size and x.dtype.kind in "biuf":
        return out(np.asarray(x.argmax(), dtype=np.int64), self)  # np.argmax's call, without its frames
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
    if dim is None and type(x) is _ndarray and x.size and x.dtype.kind in "biuf":
        return out(np.asarray(x.argmin(), dtype=np.int64), self)  # np.argmin's call, without its frames
    _no_complex_input(x, "argmin")
    if dim is None:
        if x.size == 0:  # torch's message here is an IndexError without the advice
            raise IndexError("argmin(): Expected reduction dim to be specified for input.numel() == 0.")
        return out(np.asarray(np.argmin(x), dtype=np.int64), self)
    axis = _wrap_dim(dim, x.ndim)
    nonempty_dims(x, dim, "argmin()")
    return out(np.asarray(np.argmin(x, axis=axis, keepdims=keepdim), dtype=np.int64), self)


def _var_all(x, ddof, root):
    """``np.var`` (``np.std`` when ``root``) of every element of the C-contiguous float32/float64 array
    ``x`` with dims, ``0 <= ddof < x.size``: numpy's steps (``_methods._var``) without their frames and
    the general path's ``errstate`` (1 us), or None for data not all finite. Finite data meets no
    invalid operation or division by zero, the floating-point errors that ``errstate`` silences: a
    finite sum means finite elements (an inf or nan element makes the sum inf or nan)."""
    s = np.add.reduce(x, axis=None)
    if not math.isfinite(s):
        return None
    # numpy divides by the count as an intp: in double precision, rounded to the type (``mean_all``)
    mean = s.dtype.type(float(s) / x.size)
    d = np.subtract(x, mean)
    np.square(d, out=d)
    r = np.add.reduce(d, axis=None)
    r = r.dtype.type(float(r) / (x.size - ddof))
    # a double's square root rounded to float32 is the float32 square root (as for the division)
    return r.dtype.type(math.sqrt(r)) if root else r


def _var_dims(x, axes, count, ddof, keepdim, root):
    """``np.var`` (``np.std`` when ``root``) of the float32/float64 numpy array ``x`` over ``axes``
    (None: all) of ``count`` elements, ``0 <= ddof < count``: numpy's steps (``_methods._var``), in the
    general path's ``errstate``, without numpy's frames (5 us). numpy divides by the count as an intp,
    in double precision rounded to the data's type; here by the count as a float in the data's type,
    which is the same value (float64: the same division; float32: a quotient of float32 values
    rounded to double and then to float32 is the float32 quotient, as double has more than twice
    float32's precision, and a count below 2**24 is exact in float32) at a third of the time."""
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = np.add.reduce(x, axes, None, keepdims=True)
        np.true_divide(mean, float(count), out=mean)
        d = np.subtract(x, mean)
        np.square(d, out=d)
        r = np.add.reduce(d, axes, None, None, keepdim)
        if type(r) is _ndarray:
            np.true_divide(r, float(count - ddof), out=r)
            return np.sqrt(r, out=r) if root else r
        r = r.dtype.type(float(r) / (count - ddof))
        return r.dtype.type(math.sqrt(r)) if root else r


def _var(fn):
    """var/std: real for complex data (the spread of the magnitudes of the deviations, as torch),
    accumulated in float32 for half-precision data (``precision``)."""
    root = fn is np.std

    def kernel(self, dim=None, *, correction=None, keepdim=False):
        x = self._data
        ddof = 1 if correction is None else correction
        if type(ddof) is int and ddof >= 0 and x.ndim and _is_float(x):  # the common call, unless too few
            axes = _dims(dim, x.ndim)
            count = x.size if axes is None else math.prod(x.shape[a] for a in axes)
            if ddof < count < 1 << 24:  # (numpy warns of fewer; ``_var_dims``: an exact float32 count)
                r = _var_all(x, ddof, root) if axes is None and not keepdim and x.flags.c_contiguous else None
                return out(r if r is not None else _var_dims(x, axes, count, ddof, keepdim, root), self)
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


_BOOL = np.dtype(np.bool_)


def _any_all(fn, ufunc, name):
    def whole(self):
        x = self._data
        if type(x) is _ndarray and x.dtype is _BOOL:  # the common call: np.any's one reduction, no frames
            return out(ufunc.reduce(x, None, _BOOL, None), self)
        return out(_truth(fn(x), x), self)

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


# torch sorts 1-D integer data of this many elements or more ascending with a stable radix sort.
_RADIX_SORT_MIN = 1 << 15


def stable_sort(x, d, descending):
    """``(values, indices)`` of the stable sort of ``x`` along ``d`` (equal values in position order)."""
    quick = _packed_order(x, d, descending) if x.ndim else None
    if quick is not None:
        idx, vals = quick
        return np.ascontiguousarray(vals), np.ascontiguousarray(idx)
    idx = _order(x, d, descending)
    vals = np.take_along_axis(x, idx, d) if x.ndim else x.copy()
    return vals, idx.astype(np.int64)


def sort_values(self, d, descending, stable):
    """``(values, indices)`` of torch's CPU ``sort``: stable when asked (and for 1-D integer data of
    ``_RADIX_SORT_MIN`` or more elements ascending, torch's radix sort), else the C++ library's sort,
    whose order among equal values ``_core._sort_unstable`` repeats (Note [Unstable orders])."""
    x = self._data
    _no_complex_sort(x, "Sort")
    data, back = ordered(self, "sorting_kernel_method_name")
    radix = x.ndim == 1 and x.dtype.kind in "iu" and x.size >= _RADIX_SORT_MIN and not descending
    if radix:
        idx = _core._radix_order(data)
        if idx is not None:
            return x[idx], idx
    if stable or radix or x.ndim == 0:
        return stable_sort(x, d, descending)
    vals, idx = _core._sort_unstable(data, d, descending)
    return values_back(vals, back), idx


def sort(self, dim=-1, descending=False):
    vals, idx = sort_values(self, _wrap_dim(dim, self._data.ndim), descending, False)
    return RT.make(RT.sort, (out(vals, self), out(idx, self)))


# The element type the Rust order kernels (``_core._topk``, ``_sort_unstable``, ``_kthvalue``,
# ``_mode``) read each real dtype as, without loss (None: as it is).
_ORDER_AS = {"float32": None, "float64": None, "int64": None, "int32": None, "uint64": None,
             "float16": np.float32, "bfloat16": np.float32, "int16": np.int32, "int8": np.int32,
             "uint8": np.int32, "uint16": np.int32, "uint32": np.int64, "bool": np.int32}
_UNSIGNED_WIDE = ("uint16", "uint32", "uint64")
_NAMES = {}  # numpy dtype -> its name, which numpy computes in Python on each ask (1 us)


def _dtype_name(dt):
    name = _NAMES.get(dt)
    if name is None:
        name = _NAMES[dt] = dt.name
    return name


def ordered(self, kernel, refused=()):
    """``self``'s data for a Rust order kernel (C-contiguous, in the element type ``_ORDER_AS`` gives)
    and the dtype its values go back to (None: unchanged). torch's NotImplementedError naming
    ``kernel`` for the ``refused`` dtypes and those no order kernel takes (float8)."""
    x = self._data
    name = _dtype_name(x.dtype)
    if name in refused or name not in _ORDER_AS:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.legacy_name(self.dtype)}'")
    wide = _ORDER_AS[name]
    return np.ascontiguousarray(x if wide is None else x.astype(wide)), (None if wide is None else x.dtype)


def unstable_order(x, d):
    """The indices of torch's ``sort(stable=False)`` of the numpy array ``x`` (a real dtype the order
    kernels take, at least 1-D) along ``d`` (Note [Unstable orders])."""
    wide = _ORDER_AS[_dtype_name(x.dtype)]
    return _core._sort_unstable(np.ascontiguousarray(x if wide is None else x.astype(wide)), d, False)[1]


def values_back(vals, dtype):
    return vals if dtype is None else vals.astype(dtype)


def topk(self, k, dim=-1, largest=True, sorted=True):
    """torch's CPU ``topk``, equal values included: which of them are kept and their order are those of
    the C++ library's partial sort or selection torch runs (Note [topk order] in src/kernels/topk.rs)."""
    x = self._data
    _no_complex_sort(x, "topk")
    if x.dtype == np.bool_:
        raise NotImplementedError("topk does not support bool dtypes on CPU")
    data, back = ordered(self, "topk_cpu", _UNSIGNED_WIDE)
    d = _wrap_dim(dim, x.ndim)
    size = x.shape[d] if x.ndim else 1
    if not 0 <= k <= size:
        raise RuntimeError(f"selected index k out of range (aten::topk: k={k}, dimension {d} has size {size})")
    if not x.ndim:  # torch returns the one element, for k = 0 too
        return RT.make(RT.topk, (out(x.copy(), self), out(np.zeros((), np.int64), self)))
    vals, idx = _core._topk(data, k, d, largest, sorted)
    return RT.make(RT.topk, (out(values_back(vals, back), self), out(idx, self)))


def cumsum(self, dim, *, dtype=None):
    x = self._data
    if dtype is None and x.size < _SCAN_RUST_MIN and _is_float(x) and x.ndim and x.flags.c_contiguous:
        # the common call: ``scanned``'s numpy scan (float32 accumulated in float64), without its frames
        d = _wrap_dim(dim, x.ndim)
        return out(x.cumsum(d) if x.itemsize == 8 else x.cumsum(d, _F64).astype(_F32), self)
    # torch writes cumulative results row-major whatever the input's layout
    return out(scanned(np.cumsum, x, dtype, _wrap_dim(dim, x.ndim), False), self)


KERNELS = {
    "sum": sum_all, "sum.dim_IntList": sum_dim, "mean": mean_all, "mean.dim": mean_dim,
    "prod": prod, "prod.dim_int": prod_dim, "amax": amax, "amin": amin, "max": max_all, "min": min_all,
    "max.dim": _with_indices(np.max, np.argmax, np.maximum, RT.max),
    "min.dim": _with_indices(np.min, np.argmin, np.minimum, RT.min),
    "argmax": argmax, "argmin": argmin, "var.correction": _var(np.var), "std.correction": _var(np.std),
    "softmax.int": _softmax_kernel(False), "log_softmax.int": _softmax_kernel(True),
    "_softmax": _private_softmax(False), "_log_softmax": _private_softmax(True), "cumsum": cumsum,
    "sort": sort, "topk": topk,
}
KERNELS["any"], KERNELS["any.dim"], KERNELS["any.dims"] = _any_all(np.any, np.logical_or, "any")
KERNELS["all"], KERNELS["all.dim"], KERNELS["all.dims"] = _any_all(np.all, np.logical_and, "all")

REDUCTIONS = {"sum", "sum.dim_IntList", "mean", "mean.dim", "prod", "prod.dim_int", "amax", "amin", "max", "min",
              "max.dim", "min.dim", "argmax", "argmin", "var.correction", "std.correction", "softmax.int",
              "log_softmax.int", "_softmax", "_log_softmax", "cumsum", "any", "all", "any.dim", "all.dim", "any.dims", "all.dims", "sort"}
KINDS = {"topk": "topk"}
