"""Derivatives of the complex-number ops of ``_aten/complex_ops.py`` (derivatives.yaml's rows, in
Python): the views between a complex tensor and its (real, imag) pairs, the conjugate and the
argument. ``real``/``imag``/``conj`` are composites: autograd records what they call.
"""

from ._helpers import A, cj, div, mul
from .registry import Formula as F
from ..._exports import public_dir


def _contiguous(g):
    return A.contiguous.default(g)


def _angle(grads, a, n):
    """torch's angle_backward: ``grad * i * self / |self|**2`` for complex data (0 where self is 0),
    a zero gradient for real data (the argument is piecewise constant)."""
    g, x = grads[0], a.self
    if not x.dtype.is_complex:
        return (A.zeros_like.default(x),)
    d = div(mul(mul(g, x), 1j), A.pow.Tensor_Scalar(A.abs.default(x), 2))
    return (A.where.self(A.eq.Scalar(x, 0), A.zeros_like.default(d), d),)


def _angle_fw(t, a):
    x = a.self
    if not x.dtype.is_complex:
        return A.zeros_like.default(a.result)
    # d angle = Im(conj(x) dx) / |x|**2
    d = div(A.imag.default(mul(cj(x), t[0])), A.pow.Tensor_Scalar(A.abs.default(x), 2))
    return A.where.self(A.eq.Scalar(x, 0), A.zeros_like.default(d), d)


FORMULAS = {
    "aten::view_as_real": F("ViewAsRealBackward0", ("self",),
                            lambda g, a, n: (A.view_as_complex.default(_contiguous(g[0])),),
                            forward=lambda t, a: A.view_as_real.default(t[0])),
    "aten::view_as_complex": F("ViewAsComplexBackward0", ("self",),
                               lambda g, a, n: (A.view_as_real.default(_contiguous(g[0])),),
                               forward=lambda t, a: A.view_as_complex.default(_contiguous(t[0]))),
    "aten::_conj_physical": F("ConjPhysicalBackward0", ("self",), lambda g, a, n: (cj(g[0]),),
                              forward=lambda t, a: cj(t[0])),
    "aten::conj_physical_": F("ConjPhysicalBackward0", ("self",), lambda g, a, n: (cj(g[0]),),
                              forward=lambda t, a: cj(t[0])),
    "aten::angle": F("AngleBackward0", ("self",), _angle, save=("self",), forward=_angle_fw),
}


__dir__ = public_dir(globals())
