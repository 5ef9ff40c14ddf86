"""Derivatives (reverse and forward) of the inverse/hyperbolic trigonometry, angle conversion,
logit and fmax/fmin (derivatives.yaml's rows, in Python)."""

import math

from ._helpers import A, mul
from .math import fit
from .registry import Formula as F
from ..._exports import public_dir


def _sqrt(x):
    return A.sqrt.default(x)


def _sq(x):
    return mul(x, x)


# d f / d x as a function of the saved arguments
_D = {
    "asin": ("AsinBackward0", lambda a: A.reciprocal.default(_sqrt(A.rsub.Scalar(_sq(a.self), 1)))),
    "acos": ("AcosBackward0", lambda a: A.neg.default(A.reciprocal.default(_sqrt(A.rsub.Scalar(_sq(a.self), 1))))),
    "atan": ("AtanBackward0", lambda a: A.reciprocal.default(A.add.Scalar(_sq(a.self), 1))),
    "sinh": ("SinhBackward0", lambda a: A.cosh.default(a.self)),
    "cosh": ("CoshBackward0", lambda a: A.sinh.default(a.self)),
    "asinh": ("AsinhBackward0", lambda a: A.reciprocal.default(_sqrt(A.add.Scalar(_sq(a.self), 1)))),
    "acosh": ("AcoshBackward0", lambda a: A.reciprocal.default(_sqrt(A.sub.Scalar(_sq(a.self), 1)))),
    "atanh": ("AtanhBackward0", lambda a: A.reciprocal.default(A.rsub.Scalar(_sq(a.self), 1))),
}


def _unary(node, d):
    return F(node, ("self",), lambda g, a, n: (mul(g[0], d(a)),), save=("self",),
             forward=lambda t, a: mul(t[0], d(a)))


def _scaled(node, factor):
    return F(node, ("self",), lambda g, a, n: (A.mul.Scalar(g[0], factor),),
             forward=lambda t, a: A.mul.Scalar(t[0], factor))


def _logit_d(a):
    """1 / (x (1 - x)) (torch's logit_backward): outside [0, 1] nan without ``eps``, and with it 0
    outside [eps, 1 - eps] (the clamp's flat parts; a nan ``x`` keeps its nan)."""
    x = a.self
    d = A.reciprocal.default(mul(x, A.rsub.Scalar(x, 1)))
    lo, hi, fill = (0, 1, math.nan) if a.eps is None else (a.eps, 1 - a.eps, 0.0)
    outside = A.logical_or.default(A.lt.Scalar(x, lo), A.gt.Scalar(x, hi))
    return A.where.self(outside, A.full_like.default(d, fill), d)


def _fminmax(pick):
    """fmax/fmin: the gradient goes to self where it wins or other is nan, else to other."""
    def mask(a):
        wins = (A.ge.Tensor if pick == "max" else A.le.Tensor)(a.self, a.other)
        return A.logical_or.default(wins, A.isnan.default(a.other))

    def backward(grads, a, n):
        g = grads[0]
        m = mask(a)
        zero = A.zeros_like.default(g)
        return (A.where.self(m, g, zero) if n[0] else None, A.where.self(m, zero, g) if n[1] else None)

    def forward(t, a):
        m = mask(a)
        ts = A.zeros_like.default(a.result) if t[0] is None else fit(t[0], a.result)
        to = A.zeros_like.default(a.result) if t[1] is None else fit(t[1], a.result)
        return A.where.self(m, ts, to)
    return backward, forward


_fmax, _fmin = _fminmax("max"), _fminmax("min")

FORMULAS = {f"aten::{name}": _unary(node, d) for name, (node, d) in _D.items()}
FORMULAS.update({
    "aten::deg2rad": _scaled("Deg2RadBackward0", math.pi / 180),
    "aten::rad2deg": _scaled("Rad2DegBackward0", 180 / math.pi),
    "aten::logit": F("LogitBackward0", ("self",), lambda g, a, n: (mul(g[0], _logit_d(a)),), save=("self",),
                     forward=lambda t, a: mul(t[0], _logit_d(a))),
    "aten::fmax": F("FmaxBackward0", ("self", "other"), _fmax[0], save=("self", "other"), forward=_fmax[1]),
    "aten::fmin": F("FminBackward0", ("self", "other"), _fmin[0], save=("self", "other"), forward=_fmin[1]),
})
NON_DIFFERENTIABLE = ("aten::signbit", "aten::isposinf", "aten::isneginf")


__dir__ = public_dir(globals())
