"""Derivatives (reverse and forward) of the arithmetic on the number representation
(``_aten/numeric_ops.py``): ldexp, frexp and nextafter (derivatives.yaml's rows);
gcd and lcm take integers only, and float_power is composed of ``pow``."""

import math

from ._helpers import A, div, lin, mul
from .math import fit
from .registry import Formula as F
from ..._exports import public_dir

_LN2 = math.log(2.0)


def _ldexp(grads, a, n):
    """self: ``grad * 2**other``; other: ``grad * result * ln 2``."""
    g = grads[0]
    gs = mul(g, A.exp2.default(a.other)) if n[0] else None
    go = A.mul.Scalar(mul(g, a.result), _LN2) if n[1] else None
    return gs, go


def _ldexp_fw(t, a):
    return fit(lin(None if t[0] is None else mul(t[0], A.exp2.default(a.other)),
                   None if t[1] is None else A.mul.Scalar(mul(t[1], a.result), _LN2)), a.result)


def _frexp(grads, a, n):
    """The mantissa's gradient over ``2**exponent`` (the exponent is not differentiable)."""
    return (div(grads[0], A.exp2.default(a.result[1])),)


def _nextafter_self(g, a):
    """The gradient itself, 0 where ``self == other`` (the result is then ``other``, which it does not
    move with but at its steps)."""
    return A.masked_fill.Scalar(g, A.eq.Tensor(a.self, a.other), 0)


def _nextafter(grads, a, n):
    """self: the gradient, but 0 where ``self == other``; other: zeros."""
    g = grads[0]
    return (_nextafter_self(g, a) if n[0] else None, A.zeros_like.default(a.other) if n[1] else None)


FORMULAS = {
    "aten::ldexp.Tensor": F("LdexpBackward0", ("self", "other"), _ldexp, save=("other", "result"),
                            forward=_ldexp_fw),
    "aten::frexp.Tensor": F("FrexpBackward0", ("self",), _frexp, save=("result",), outputs=(True, False),
                            forward=lambda t, a: (div(t[0], A.exp2.default(a.result[1])), None)),
    "aten::nextafter": F("NextafterBackward0", ("self", "other"), _nextafter, save=("self", "other"),
                         forward=lambda t, a: fit(_nextafter_self(fit(t[0], a.result), a) if t[0] is not None
                                                  else A.zeros_like.default(a.result), a.result)),
}
NON_DIFFERENTIABLE = ("aten::gcd", "aten::lcm")


__dir__ = public_dir(globals())
