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

from .. import _dtype as D

__all__ = ["compute_dtype", "compute_np", "is_reduced", "upcast"]

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


def upcast(arr):
    """``arr`` in the dtype torch computes it in (a float32 copy of half-precision data, else ``arr``)."""
    dt = arr.dtype
    return arr.astype(_F32) if dt.itemsize == 2 and dt.kind in "fV" else arr
