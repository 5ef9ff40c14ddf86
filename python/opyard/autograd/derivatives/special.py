"""Derivatives (reverse and forward) of the special functions: the gamma family, the error-function
family, the Bessel functions and the modified Bessel functions, entr, xlog1py and the incomplete
gamma ratios (derivatives.yaml's rows and torch's ``*_backward`` helpers, in Python).

The functions torch gives no derivative (Airy's Ai, the scaled modified Bessel functions of the
second kind, the spherical Bessel function, the orthogonal polynomials) never record a node:
their outputs do not require grad, as torch's.
"""

import math

from ._helpers import A, div, mul, neg, sub
from .math import fit
from .registry import Formula as F
from ..._exports import public_dir

_SQRT_PI = math.sqrt(math.pi)


def _unary(node, d, save=("self",)):
    """``grad * d(a)`` (and the tangent ``t * d(a)``) for a one-argument function."""
    return F(node, ("self",), lambda g, a, n: (mul(g[0], d(a)),), save=save,
             forward=lambda t, a: mul(t[0], d(a)))


def _near_zero_half(a, value, tiny):
    """0.5 where ``|x| <= eps``, else ``value(x)``: the derivative of the I1/J1 family, whose quotient
    ``result / x`` torch's helpers keep off 0 by evaluating it at ``eps`` there (so that the
    unused branch has no nan for double backward; a nan ``x`` keeps its nan)."""
    x = a.self
    eps = tiny(x)
    small = A.le.Scalar(A.abs.default(x), eps)
    safe = A.where.self(small, A.full_like.default(x, eps), x)
    return A.where.self(small, A.full_like.default(x, 0.5), value(safe))


def _eps(x):
    """The machine epsilon of ``x``'s dtype (float32's, else double's: torch's helpers dispatch on
    float and double)."""
    return 1.1920928955078125e-07 if x.dtype.itemsize == 4 else 2.220446049250313e-16


def _i1_d(a):  # i0(x) - i1(x) / x
    return _near_zero_half(a, lambda s: sub(A.i0.default(s), div(a.result, s)), _eps)


def _i1e_d(a):  # i0e(x) - i1e(x) (sgn(x) + 1 / x)
    return _near_zero_half(a, lambda s: sub(A.special_i0e.default(s),
                                            mul(a.result, A.add.Tensor(A.sgn.default(s), A.reciprocal.default(s)))),
                           _eps)


def _j1_d(a):  # J0(x) - J1(x) / x
    return _near_zero_half(a, lambda s: sub(A.special_bessel_j0.default(s), div(a.result, s)), _eps)


def _modified_i1_d(a):  # I0(x) - I1(x) / x
    return _near_zero_half(a, lambda s: sub(A.special_modified_bessel_i0.default(s), div(a.result, s)), _eps)


def _y1_d(a):
    """Y0(x) - Y1(x) / x, and +inf at 0 (where the quotient is inf - inf)."""
    x = a.self
    d = sub(A.special_bessel_y0.default(x), div(a.result, x))
    return A.where.self(A.eq.Scalar(x, 0), A.full_like.default(x, math.inf), d)


def _k1_d(a):  # -K0(x) - K1(x) / x
    return sub(neg(A.special_modified_bessel_k0.default(a.self)), div(a.result, a.self))


def _not_implemented(what):
    """derivatives.yaml's ``not_implemented``: the node records, its backward raises torch's error."""
    raise NotImplementedError(f"the derivative for '{what}' is not implemented.")


def _igamma_weight(a):
    """``exp((a - 1) log(x) - x - lgamma(a))``: the density the incomplete gamma ratios integrate."""
    s, x = a.self, a.other
    return A.exp.default(sub(sub(mul(A.sub.Scalar(s, 1), A.log.default(x)), x), A.lgamma.default(s)))


def _igamma(sign, name):
    def backward(grads, a, n):
        if n[0]:
            _not_implemented(f"{name}: input")
        g = grads[0]
        return None, mul(g, _igamma_weight(a)) if sign > 0 else mul(neg(g), _igamma_weight(a))

    def forward(t, a):
        if t[0] is not None:
            _not_implemented(f"{name}: input")
        w = _igamma_weight(a)
        return fit(mul(t[1], w) if sign > 0 else mul(neg(t[1]), w), a.result)
    return backward, forward


_igamma_fw, _igammac_fw = _igamma(1, "igamma"), _igamma(-1, "igammac")


def _xlog1py_self_d(a, g):
    """``xlog1py(grad, other)``, 0 where ``self == 0`` and ``other <= -1`` (torch's mask)."""
    other = a.other
    r = A.special_xlog1py.default(g, other) if hasattr(other, "shape") else A.special_xlog1py.other_scalar(g, other)
    if hasattr(other, "shape"):
        mask = A.logical_and.default(A.eq.Scalar(a.self, 0), A.le.Scalar(other, -1))
        return A.masked_fill.Scalar(r, mask, 0)
    if other > -1:
        return r
    return A.masked_fill.Scalar(r, A.eq.Scalar(a.self, 0), 0)


def _xlog1py(grads, a, n):
    g = grads[0]
    gs = _xlog1py_self_d(a, g) if n[0] else None
    go = div(mul(g, a.self), A.add.Scalar(a.other, 1)) if len(n) > 1 and n[1] else None
    return (gs, go) if len(n) > 1 else (gs,)


def _xlog1py_fw(t, a):
    parts = []
    if t[0] is not None:
        parts.append(_xlog1py_self_d(a, t[0]))
    if len(t) > 1 and t[1] is not None:
        parts.append(div(mul(t[1], a.self), A.add.Scalar(a.other, 1)))
    r = parts[0] if len(parts) == 1 else A.add.Tensor(*parts)
    return fit(r, a.result)


def _xlog1py_self_scalar(grads, a, n):
    return (div(mul(grads[0], a.self), A.add.Scalar(a.other, 1)),)


def _zeta_other(grads, a, n):
    if n[0]:
        _not_implemented("zeta")
    g = grads[0]
    s = a.self
    shifted = A.add.Scalar(s, 1.0) if hasattr(s, "shape") else s + 1.0
    z = A.special_zeta.default(shifted, a.other) if hasattr(s, "shape") else \
        A.special_zeta.self_scalar(shifted, a.other)
    return (None, mul(mul(g, neg(s) if hasattr(s, "shape") else -s), z))


def _zeta_self_scalar(grads, a, n):
    g = grads[0]
    return (mul(mul(g, -a.self), A.special_zeta.self_scalar(a.self + 1.0, a.other)),)


def _zeta_other_scalar(grads, a, n):
    _not_implemented("zeta")


def _zeta_fw(t, a):
    """The tangent through ``other`` (torch has none through ``self``: not implemented)."""
    if t[0] is not None:
        _not_implemented("zeta")
    return fit(mul(mul(t[1], neg(a.self)), A.special_zeta.default(A.add.Scalar(a.self, 1.0), a.other)), a.result)


def _zeta_self_scalar_fw(t, a):
    return fit(mul(mul(t[0], -a.self), A.special_zeta.self_scalar(a.self + 1.0, a.other)), a.result)


def _zeta_other_scalar_fw(t, a):
    _not_implemented("zeta")


def _mvlgamma_d(a):
    """``sum_j digamma(x - j / 2)`` over torch's offsets ``-p/2 + 1/2, ..., 0``."""
    x = a.self
    offsets = A.arange.start_step(-a.p / 2 + 0.5, 0.5, 0.5, dtype=x.dtype)
    return A.sum.dim_IntList(A.digamma.default(A.add.Tensor(offsets, A.unsqueeze.default(x, -1))), [-1])


FORMULAS = {
    "aten::digamma": _unary("DigammaBackward0", lambda a: A.polygamma.default(1, a.self)),
    "aten::lgamma": _unary("LgammaBackward0", lambda a: A.digamma.default(a.self)),
    "aten::erfc": _unary("ErfcBackward0", lambda a: A.mul.Scalar(
        A.exp.default(neg(A.pow.Tensor_Scalar(a.self, 2))), -2.0 / _SQRT_PI)),
    "aten::erfinv": _unary("ErfinvBackward0", lambda a: A.mul.Scalar(
        A.exp.default(A.pow.Tensor_Scalar(A.erfinv.default(a.self), 2)), 0.5 * _SQRT_PI)),
    "aten::i0": _unary("I0Backward0", lambda a: A.special_i1.default(a.self)),
    "aten::special_i0e": _unary("SpecialI0EBackward0", lambda a: sub(
        A.special_i1e.default(a.self), mul(A.sgn.default(a.self), a.result)), save=("self", "result")),
    "aten::special_i1": _unary("SpecialI1Backward0", _i1_d, save=("self", "result")),
    "aten::special_i1e": _unary("SpecialI1EBackward0", _i1e_d, save=("self", "result")),
    "aten::special_ndtri": _unary("SpecialNdtriBackward0", lambda a: A.mul.Scalar(
        A.exp.default(A.div.Scalar(A.square.default(a.result), 2)), math.sqrt(2 * math.pi)), save=("result",)),
    "aten::special_log_ndtr": _unary("SpecialLogNdtrBackward0", lambda a: A.div.Scalar(A.exp.default(neg(
        A.add.Tensor(a.result, A.div.Scalar(A.pow.Tensor_Scalar(a.self, 2), 2)))), math.sqrt(2 * math.pi)),
        save=("self", "result")),
    "aten::special_erfcx": _unary("SpecialErfcxBackward0", lambda a: A.sub.Scalar(
        A.mul.Scalar(mul(a.self, a.result), 2.0), 2.0 / _SQRT_PI), save=("self", "result")),
    "aten::special_entr": _unary("SpecialEntrBackward0", lambda a: neg(A.add.Scalar(A.log.default(a.self), 1))),
    "aten::special_bessel_j0": _unary("SpecialBesselJ0Backward0",
                                      lambda a: neg(A.special_bessel_j1.default(a.self))),
    "aten::special_bessel_j1": _unary("SpecialBesselJ1Backward0", _j1_d, save=("self", "result")),
    "aten::special_bessel_y0": _unary("SpecialBesselY0Backward0",
                                      lambda a: neg(A.special_bessel_y1.default(a.self))),
    "aten::special_bessel_y1": _unary("SpecialBesselY1Backward0", _y1_d, save=("self", "result")),
    "aten::special_modified_bessel_i0": _unary("SpecialModifiedBesselI0Backward0",
                                               lambda a: A.special_modified_bessel_i1.default(a.self)),
    "aten::special_modified_bessel_i1": _unary("SpecialModifiedBesselI1Backward0", _modified_i1_d,
                                               save=("self", "result")),
    "aten::special_modified_bessel_k0": _unary("SpecialModifiedBesselK0Backward0",
                                               lambda a: neg(A.special_modified_bessel_k1.default(a.self))),
    "aten::special_modified_bessel_k1": _unary("SpecialModifiedBesselK1Backward0", _k1_d, save=("self", "result")),
    "aten::polygamma": F("PolygammaBackward0", ("self",),
                         lambda g, a, n: (mul(g[0], A.polygamma.default(a.n + 1, a.self)),), save=("self",),
                         forward=lambda t, a: mul(t[0], A.polygamma.default(a.n + 1, a.self))),
    "aten::mvlgamma": _unary("MvlgammaBackward0", _mvlgamma_d),
    "aten::igamma": F("IgammaBackward0", ("self", "other"), _igamma_fw[0], save=("self", "other"),
                      forward=_igamma_fw[1]),
    "aten::igammac": F("IgammacBackward0", ("self", "other"), _igammac_fw[0], save=("self", "other"),
                       forward=_igammac_fw[1]),
    "aten::special_xlog1py": F("SpecialXlog1PyBackward0", ("self", "other"), _xlog1py, save=("self", "other"),
                               forward=_xlog1py_fw),
    "aten::special_xlog1py.self_scalar": F("SpecialXlog1PyBackward1", ("other",), _xlog1py_self_scalar,
                                           save=("other",),
                                           forward=lambda t, a: div(mul(t[0], a.self), A.add.Scalar(a.other, 1))),
    "aten::special_xlog1py.other_scalar": F("SpecialXlog1PyBackward2", ("self",), _xlog1py, save=("self",),
                                            forward=_xlog1py_fw),
    "aten::special_zeta": F("SpecialZetaBackward0", ("self", "other"), _zeta_other, save=("self", "other"),
                               forward=_zeta_fw),
    "aten::special_zeta.self_scalar": F("SpecialZetaBackward1", ("other",), _zeta_self_scalar, save=("other",),
                                           forward=_zeta_self_scalar_fw),
    "aten::special_zeta.other_scalar": F("SpecialZetaBackward2", ("self",), _zeta_other_scalar,
                                            forward=_zeta_other_scalar_fw),
}

# torch's outputs of these never require grad (derivatives.yaml: ``non_differentiable``).
NON_DIFFERENTIABLE = ("aten::special_airy_ai", "aten::special_scaled_modified_bessel_k0",
                      "aten::special_scaled_modified_bessel_k1", "aten::special_spherical_bessel_j0") + tuple(f"aten::special_{kind}polynomial_{p}{overload}"
            for kind, letters in (("chebyshev_", "tuvw"), ("shifted_chebyshev_", "tuvw"), ("hermite_", ("h", "he")),
                                  ("laguerre_", "l"), ("legendre_", "p"))
            for p in letters for overload in ("", ".x_scalar", ".n_scalar"))


__dir__ = public_dir(globals())
