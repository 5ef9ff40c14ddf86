"""Complex tensors built from real ones: ``complex(real, imag)`` and ``polar(abs, angle)``, and
``isreal`` (composed as torch's: every element of a real tensor is real, a complex element is when
its imaginary part is 0).

Both builders take float and double tensors of one dtype (a complex64 or complex128 result);
torch's half inputs give complex32, a dtype opyard does not have, and are refused saying so.
"""

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import A, broadcast_error, check_same_device, out

__all__ = ["OPS"]

OPS = OpTable()

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}


def _parts(name, a, b):
    """torch's checks of ``complex``/``polar``'s arguments: float or double (half has no complex
    type in opyard), one dtype; their arrays broadcast."""
    check_same_device(f"aten::{name}", a, b)
    x, y = a._data, b._data
    for t in (a, b):
        if t.dtype._cat != 2 or t.dtype is D.bfloat16 or t.dtype.name.startswith("float8"):
            raise NotImplementedError(f"Expected both inputs to be Half, Float or Double tensors but got "
                                      f"{D.legacy_name(a.dtype)} and {D.legacy_name(b.dtype)}")
    if x.dtype != y.dtype:
        raise RuntimeError(f"Expected object of scalar type {D.legacy_name(a.dtype)} but got scalar type "
                           f"{D.legacy_name(b.dtype)} for second argument")
    if x.dtype not in _COMPLEX_OF:
        raise NotImplementedError(f"aten::{name}: half inputs give a complex32 (ComplexHalf) result in torch, a "
                                  "dtype opyard does not have; convert the inputs to float32 first")
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        raise broadcast_error(f"aten::{name}", a, b) from None
    return x, y, _COMPLEX_OF[x.dtype]


@OPS.op("complex(Tensor real, Tensor imag) -> Tensor", kind="pointwise",
        out="complex.out(Tensor real, Tensor imag, *, Tensor(a!) out) -> Tensor(a!)", exact=True)
def complex_(real, imag):
    """``real + i imag`` (no arithmetic: the parts are stored as given, inf and nan included)."""
    x, y, dt = _parts("complex", real, imag)
    r = np.empty(x.shape, dtype=dt)
    r.real, r.imag = x, y
    return out(r, real)


@OPS.op("polar(Tensor abs, Tensor angle) -> Tensor", kind="pointwise",
        out="polar.out(Tensor abs, Tensor angle, *, Tensor(a!) out) -> Tensor(a!)", exact=True)
def polar(abs, angle):  # noqa: A002 - torch's argument name
    """``abs (cos(angle) + i sin(angle))``, each part a real product (``inf * 0`` is nan, as torch's)."""
    r_, t, dt = _parts("polar", abs, angle)
    r = np.empty(r_.shape, dtype=dt)
    with np.errstate(all="ignore"):
        r.real, r.imag = r_ * np.cos(t), r_ * np.sin(t)
    return out(r, abs)


@OPS.op("isreal(Tensor self) -> Tensor", kind="composite")
def isreal(self):
    """Whether each element is real: all of a real tensor's, a complex element's imaginary part is 0."""
    if not self.dtype.is_complex:
        return A.ones_like(self, dtype=D.bool)
    return A.eq__Scalar(A.imag(self), 0)
