"""The dtype a computation runs in: decided here only.

torch computes on half-precision data (float16, bfloat16) in float32 and rounds the result once:
its pointwise kernels load the operands into float32 (``opmath_type``), its reductions, scans,
norms, softmaxes and matrix products accumulate in float32 (``acc_type``), and a Python number meets
the data as a float32 value, not as a half (``half * 1e6`` is inf where the product overflows,
``0 * 1e6`` stays 0). numpy computes a half reduction in half (``sum`` of 64 × 0.1 in bfloat16 drifts
to 6.156 where torch gives 6.406) and rounds a Python number into half first. Every kernel that
computes on floating data asks ``compute_dtype`` (an opyard dtype) or ``compute_np`` (a numpy dtype)
for the type to compute in and casts its result back to the result dtype once.

Example::

    >>> compute_np(np.dtype(np.float16))
    dtype('float32')
"""

import numpy as np

from .. import _core
from .. import _dtype as D

__all__ = ["compute_dtype", "compute_np", "is_reduced", "upcast", "sum_dtypes", "reduced", "scanned"]

_F32 = np.dtype(np.float32)


def is_reduced(npdt):
    """Whether numpy dtype ``npdt`` is a half-precision floating type: float16 (kind "f") or
    ml_dtypes' bfloat16 (kind "V"; asked without importing ml_dtypes)."""
    return npdt.itemsize == 2 and npdt.kind in "fV"


def compute_np(npdt):
    """The numpy dtype torch computes data of numpy dtype ``npdt`` in: float32 for float16 and
    bfloat16, ``npdt`` itself otherwise."""
    return _F32 if npdt.itemsize == 2 and npdt.kind in "fV" else npdt


def compute_dtype(dt):
    """``compute_np`` for an opyard dtype."""
    return D.float32 if dt._cat == 2 and dt.itemsize == 2 else dt


_I64 = np.dtype(np.int64)


def sum_dtypes(npdt, requested=None):
    """``(accumulate, result)`` numpy dtypes of a sum-like reduction or scan (sum, nansum, prod, mean,
    cumsum, cumprod) of data of numpy dtype ``npdt``, with the ``dtype=`` argument ``requested`` (an
    opyard dtype or None): integral and bool data sum to int64, half-precision data accumulate in
    float32 and round to their own type once; a requested dtype is the result's (the data is
    converted to it first, and a half type again accumulates in float32)."""
    if requested is not None:
        res = requested.np
    elif npdt.kind in "biu":
        res = _I64
    else:
        res = npdt
    return (_F32 if res.itemsize == 2 and res.kind in "fV" else res), res


def reduced(fn, x, requested=None, *, contiguous=False, upcast_first=False, **kwargs):
    """``fn(x, dtype=accumulate, **kwargs)`` (a numpy reduction or scan) rounded once to the result
    dtype (``sum_dtypes``), as an array of ``x``'s shape class (a scan of a 0-d array stays 0-d),
    row-major when ``contiguous``.
    With ``upcast_first`` half-precision data is converted to float32 before ``fn`` sees it (numpy's
    nan-aware reductions do not know ml_dtypes' bfloat16 as floating); the others accumulate it in
    float32 through their ``dtype=`` without a converted copy."""
    acc, res = sum_dtypes(x.dtype, requested)
    if upcast_first and x.dtype != acc and x.dtype.itemsize == 2 and x.dtype.kind in "fV":
        x = x.astype(acc)
    r = np.asarray(fn(x, dtype=acc, **kwargs))
    if x.ndim == 0 and r.ndim:
        r = r.reshape(())
    if r.dtype != res:
        r = r.astype(res)
    # ``contiguous``: torch writes its scans row-major whatever the input's layout.
    return r.copy(order="C") if contiguous and not r.flags.c_contiguous else r


# A scan's accumulate type where it is wider than ``sum_dtypes``' (see ``scanned``).
_SCAN_WIDE = {np.dtype(np.float32): np.dtype(np.float64), np.dtype(np.complex64): np.dtype(np.complex128)}
# From this many elements a float scan runs the Rust kernel.
_SCAN_RUST_MIN = 1 << 12


def scanned(fn, x, requested, axis, product):
    """The cumulative sum or product (``fn``: ``np.cumsum``/``np.cumprod``; ``product`` says which)
    of ``x`` along ``axis`` as torch's CPU kernel computes it, row-major: float32 and complex64
    data accumulate in double precision and each output is rounded to the result dtype (Note [Scan
    accumulation] in src/kernels/scan.rs); other types as ``reduced`` (16-bit floats in float32)."""
    acc, res = sum_dtypes(x.dtype, requested)
    wide = _SCAN_WIDE.get(res)
    if (wide is None and res.kind != "f") or x.ndim == 0:  # a 0-d scan is its one value, 0-d
        return reduced(fn, x, requested, contiguous=True, axis=axis)
    if x.dtype != res:
        x = x.astype(res)
    if x.size >= _SCAN_RUST_MIN and x.flags.c_contiguous:
        r = _core._scan(x, axis, product)
        if r is not None:
            return r
    if wide is None:
        return reduced(fn, x, requested, contiguous=True, axis=axis)
    r = np.asarray(fn(x, axis=axis, dtype=wide)).astype(res)
    return r if r.flags.c_contiguous else r.copy(order="C")


def upcast(arr):
    """``arr`` in the dtype torch computes it in (a float32 copy of half-precision data, else ``arr``)."""
    dt = arr.dtype
    return arr.astype(_F32) if dt.itemsize == 2 and dt.kind in "fV" else arr
