"""Derivatives (reverse and forward) of the pointwise math of ``_aten/math_ops.py`` and of the
pointwise/shape rows that had none (clamp_min/max, lerp, trunc, tril/triu, flip).

Every forward formula returns a tangent of the output's shape: a tangent of a broadcast input
is first expanded (``fit``).
"""

import math

from ._helpers import A, div, lin, mul, neg, sub
from .registry import Formula as F
from ..._exports import public_dir


def fit(t, result):
    """``t`` broadcast to the output's shape (a tangent of a broadcast input)."""
    if t is None or tuple(t.shape) == tuple(result.shape):
        return t
    return A.expand.default(t, list(result.shape))


def _zeros(g):
    return A.zeros_like.default(g)


def _atan2(g, a, n):
    denom = A.add.Tensor(mul(a.self, a.self), mul(a.other, a.other))
    return (div(mul(g, a.other), denom) if n[0] else None,
            div(mul(g, neg(a.self)), denom) if n[1] else None)


def _atan2_fw(t, a):
    denom = A.add.Tensor(mul(a.self, a.self), mul(a.other, a.other))
    num = lin(None if t[0] is None else mul(t[0], a.other), None if t[1] is None else mul(t[1], neg(a.self)))
    return fit(div(num, denom), a.result)


def _hypot(g, a, n):
    return (mul(g, div(a.self, a.result)) if n[0] else None, mul(g, div(a.other, a.result)) if n[1] else None)


def _hypot_fw(t, a):
    return fit(lin(None if t[0] is None else mul(t[0], div(a.self, a.result)),
                   None if t[1] is None else mul(t[1], div(a.other, a.result))), a.result)


def _logaddexp_weights(a):
    """d/dself = sigmoid(self - other), d/dother = sigmoid(other - self): stable for large gaps."""
    return A.sigmoid.default(sub(a.self, a.other)), A.sigmoid.default(sub(a.other, a.self))


def _logaddexp(g, a, n):
    ws, wo = _logaddexp_weights(a)
    return (mul(g, ws) if n[0] else None, mul(g, wo) if n[1] else None)


def _logaddexp_fw(t, a):
    ws, wo = _logaddexp_weights(a)
    return fit(lin(None if t[0] is None else mul(t[0], ws), None if t[1] is None else mul(t[1], wo)), a.result)


def _one_plus_pow2(x, y):
    """1 + 2**(x - y), derivatives.yaml's denominator of logaddexp2."""
    return A.add.Scalar(A.pow.Scalar(2, sub(x, y)), 1)


def _logaddexp2(g, a, n):
    return (div(g, _one_plus_pow2(a.other, a.self)) if n[0] else None,
            div(g, _one_plus_pow2(a.self, a.other)) if n[1] else None)


def _logaddexp2_fw(t, a):
    return fit(lin(None if t[0] is None else div(t[0], _one_plus_pow2(a.other, a.self)),
                   None if t[1] is None else div(t[1], _one_plus_pow2(a.self, a.other))), a.result)


def _copysign_d(a):
    """result / self where self != 0, else 0 (torch's copysign_tensor_self_backward)."""
    nonzero = A.ne.Scalar(a.self, 0)
    safe = A.where.self(nonzero, a.self, A.ones_like.default(a.self))
    return A.where.self(nonzero, div(a.result, safe), A.zeros_like.default(a.result))


def _copysign(g, a, n):
    """self: grad * result / self (0 where self is 0); other: zeros (derivatives.yaml's rows)."""
    gs = mul(g, _copysign_d(a)) if n[0] else None
    if len(n) == 1:
        return (gs,)
    return gs, A.zeros_like.default(a.other) if n[1] else None


def _sinc_d(a):
    """(cos(pi x) - sinc(x)) / x, and 0 at x == 0."""
    x = a.self
    nonzero = A.ne.Scalar(x, 0)
    safe = A.where.self(nonzero, x, A.ones_like.default(x))
    d = div(sub(A.cos.default(A.mul.Scalar(safe, math.pi)), A.sinc.default(safe)), safe)
    return A.where.self(nonzero, d, A.zeros_like.default(d))


def _xlogy_self_d(a):
    """log(other), with 0 where self == 0 and other <= 0 (torch's masked xlogy)."""
    other = a.other
    d = A.log.default(other) if hasattr(other, "shape") else math.log(other) if other > 0 else math.nan
    if not hasattr(d, "shape"):
        d = A.full_like.default(a.self, d)
    mask = A.eq.Scalar(a.self, 0)
    mask = A.logical_and.default(mask, A.le.Scalar(other, 0) if hasattr(other, "shape") else
                                 A.full_like.default(mask, other <= 0))
    return A.masked_fill.Scalar(d, mask, 0)


def _xlogy(g, a, n):
    gs = mul(g, _xlogy_self_d(a)) if n[0] else None
    go = div(mul(g, a.self), a.other) if len(n) > 1 and n[1] else None
    return (gs, go) if len(n) > 1 else (gs,)


def _xlogy_fw(t, a):
    ts = None if t[0] is None else mul(t[0], _xlogy_self_d(a))
    to = None if len(t) < 2 or t[1] is None else div(mul(t[1], a.self), a.other)
    return fit(lin(ts, to), a.result)


def _xlogy_scalar_self(g, a, n):
    return (div(mul(g, a.self), a.other),)


def _lerp_scalar(g, a, n):
    w = a.weight
    return (A.mul.Scalar(g, 1 - w) if n[0] else None, A.mul.Scalar(g, w) if n[1] else None)


def _lerp_tensor(g, a, n):
    w = a.weight
    return (mul(g, A.rsub.Scalar(w, 1)) if n[0] else None, mul(g, w) if n[1] else None,
            mul(g, sub(a.end, a.self)) if n[2] else None)


def _lerp_tensor_fw(t, a):
    w = a.weight
    return fit(lin(None if t[0] is None else mul(t[0], A.rsub.Scalar(w, 1)),
                   None if t[1] is None else mul(t[1], w),
                   None if t[2] is None else mul(t[2], sub(a.end, a.self))), a.result)


def _mask_grad(mask_fn):
    def grad(g, a, n):
        return (A.where.self(mask_fn(a), g, _zeros(g)),)
    return grad


def _clamp_min_mask(a):
    return A.ge.Scalar(a.self, a.min)


def _clamp_max_mask(a):
    return A.le.Scalar(a.self, a.max)


def _g(fn):
    return lambda grads, a, n: fn(grads[0], a, n)


def _fw_of(fn):
    """A forward formula from a single-input reverse formula that is linear in ``g``."""
    return lambda t, a: fn(t[0], a, (True,))[0]


def _same(op):
    """Linear ops (tril, triu, flip): the gradient and the tangent go through the same op."""
    return _g(lambda g, a, n: (op(g, a),)), (lambda t, a: op(t[0], a))


def _remainder(g, a, n):
    if len(n) == 1:  # remainder.Scalar
        return (g,)
    return (g if n[0] else None,
            mul(neg(g), A.floor.default(div(a.self, a.other))) if n[1] else None)


def _remainder_fw(t, a):
    other = None
    if len(t) > 1 and t[1] is not None:
        other = mul(neg(t[1]), A.floor.default(div(a.self, a.other)))
    return fit(lin(t[0], other), a.result)


def _clamp_tensor(g, a, n):
    """clamp with tensor bounds: the gradient goes to whichever of self/min/max is the result."""
    zero = _zeros(g)
    below = A.lt.Tensor(a.self, a.min) if a.min is not None else None
    above = A.gt.Tensor(a.self, a.max) if a.max is not None else None
    inside = None
    for m in (below, above):
        if m is not None:
            out = A.logical_not.default(m)
            inside = out if inside is None else A.logical_and.default(inside, out)
    gs = g if inside is None else A.where.self(inside, g, zero)
    gmin = None if below is None else A.where.self(A.logical_and.default(below, A.logical_not.default(above))
                                                   if above is not None else below, g, zero)
    gmax = None if above is None else A.where.self(above, g, zero)
    return (gs if n[0] else None, gmin if len(n) > 1 and n[1] else None, gmax if len(n) > 2 and n[2] else None)


def _clamp_tensor_fw(t, a):
    shape = list(a.result.shape)
    parts = [A.zeros_like.default(a.result) if x is None else A.expand.default(x, shape) for x in t]
    below = A.lt.Tensor(a.self, a.min) if a.min is not None else None
    above = A.gt.Tensor(a.self, a.max) if a.max is not None else None
    r = parts[0]
    if below is not None:
        r = A.where.self(below, parts[1], r)
    if above is not None:
        r = A.where.self(above, parts[2], r)
    return r


def _where_scalar(self_side):
    def grad(g, a, n):
        zero = _zeros(g)
        return (A.where.self(a.condition, g, zero) if self_side else A.where.self(a.condition, zero, g),)

    def fw(t, a):
        x = fit(t[0], a.result)
        zero = A.zeros_like.default(a.result)
        return A.where.self(a.condition, x, zero) if self_side else A.where.self(a.condition, zero, x)
    return grad, fw


_where_other, _where_self = _where_scalar(True), _where_scalar(False)
_tril = _same(lambda x, a: A.tril.default(x, a.diagonal))
_triu = _same(lambda x, a: A.triu.default(x, a.diagonal))
_flip = _same(lambda x, a: A.flip.default(x, a.dims))
def _zero_fw(t, a):
    return A.zeros_like.default(a.result)

def _not_implemented(name):
    """derivatives.yaml's ``not_implemented``: the node records, its backward raises torch's message."""
    def backward(grads, a, n):
        raise RuntimeError(f"derivative for {name} is not implemented")
    return backward


FORMULAS = {
    "aten::heaviside": F("NotImplemented", ("self", "values"), _not_implemented("aten::heaviside")),
    "aten::atan2": F("Atan2Backward0", ("self", "other"), _g(_atan2), save=("self", "other"), forward=_atan2_fw),
    "aten::hypot": F("HypotBackward0", ("self", "other"), _g(_hypot), save=("self", "other", "result"),
                     forward=_hypot_fw),
    "aten::logaddexp": F("LogaddexpBackward0", ("self", "other"), _g(_logaddexp), save=("self", "other"),
                         forward=_logaddexp_fw),
    "aten::logaddexp2": F("Logaddexp2Backward0", ("self", "other"), _g(_logaddexp2), save=("self", "other"),
                          forward=_logaddexp2_fw),
    "aten::copysign.Tensor": F("CopysignBackward0", ("self", "other"), _g(_copysign), save=("self", "other", "result"),
                               forward=lambda t, a: fit(None if t[0] is None else mul(t[0], _copysign_d(a)),
                                                        a.result)),
    "aten::copysign.Scalar": F("CopysignBackward1", ("self",), _g(_copysign), save=("self", "result"),
                               forward=lambda t, a: mul(t[0], _copysign_d(a))),
    "aten::sinc": F("SincBackward0", ("self",), _g(lambda g, a, n: (mul(g, _sinc_d(a)),)), save=("self",),
                    forward=lambda t, a: mul(t[0], _sinc_d(a))),
    "aten::xlogy.Tensor": F("XlogyBackward0", ("self", "other"), _g(_xlogy), save=("self", "other"),
                            forward=_xlogy_fw),
    "aten::xlogy.Scalar_Other": F("XlogyBackward2", ("self",), _g(_xlogy), save=("self",), forward=_xlogy_fw),
    "aten::xlogy.Scalar_Self": F("XlogyBackward1", ("other",), _g(_xlogy_scalar_self), save=("other",),
                                 forward=lambda t, a: div(mul(t[0], a.self), a.other)),
    "aten::frac": F("FracBackward0", ("self",), _g(lambda g, a, n: (g,)), forward=lambda t, a: t[0]),
    "aten::sgn": F("SgnBackward0", ("self",), _g(lambda g, a, n: (_zeros(g),)), forward=_zero_fw),
    "aten::trunc": F("TruncBackward0", ("self",), _g(lambda g, a, n: (_zeros(g),)), forward=_zero_fw),
    "aten::lerp.Scalar": F("LerpBackward0", ("self", "end"), _g(_lerp_scalar),
                           forward=lambda t, a: fit(lin(None if t[0] is None else A.mul.Scalar(t[0], 1 - a.weight),
                                                        None if t[1] is None else A.mul.Scalar(t[1], a.weight)),
                                                    a.result)),
    "aten::lerp.Tensor": F("LerpBackward1", ("self", "end", "weight"), _g(_lerp_tensor),
                           save=("self", "end", "weight"), forward=_lerp_tensor_fw),
    "aten::clamp_min": F("ClampMinBackward0", ("self",), _g(_mask_grad(_clamp_min_mask)), save=("self",),
                         forward=_fw_of(_mask_grad(_clamp_min_mask))),
    "aten::clamp_max": F("ClampMaxBackward0", ("self",), _g(_mask_grad(_clamp_max_mask)), save=("self",),
                         forward=_fw_of(_mask_grad(_clamp_max_mask))),
    "aten::tan": F("TanBackward0", ("self",), _g(lambda g, a, n: (mul(g, A.add.Scalar(mul(a.result, a.result), 1)),)),
                   save=("result",), forward=lambda t, a: mul(t[0], A.add.Scalar(mul(a.result, a.result), 1))),
    "aten::log2": F("Log2Backward0", ("self",), _g(lambda g, a, n: (div(g, A.mul.Scalar(a.self, math.log(2))),)),
                    save=("self",), forward=lambda t, a: div(t[0], A.mul.Scalar(a.self, math.log(2)))),
    "aten::log10": F("Log10Backward0", ("self",),
                     _g(lambda g, a, n: (div(g, A.mul.Scalar(a.self, math.log(10))),)), save=("self",),
                     forward=lambda t, a: div(t[0], A.mul.Scalar(a.self, math.log(10)))),
    "aten::remainder.Tensor": F("RemainderBackward1", ("self", "other"), _g(_remainder), save=("self", "other"),
                                forward=_remainder_fw),
    "aten::remainder.Scalar": F("RemainderBackward0", ("self",), _g(_remainder), forward=lambda t, a: t[0]),
    "aten::clamp.Tensor": F("ClampBackward0", ("self", "min", "max"), _g(_clamp_tensor),
                            save=("self", "min", "max"), forward=_clamp_tensor_fw),
    "aten::where.ScalarOther": F("WhereBackward0", ("self",), _g(_where_other[0]), save=("condition",),
                                 forward=_where_other[1]),
    "aten::where.ScalarSelf": F("WhereBackward0", ("other",), _g(_where_self[0]), save=("condition",),
                                forward=_where_self[1]),
    "aten::tril": F("TrilBackward0", ("self",), _tril[0], forward=_tril[1]),
    "aten::triu": F("TriuBackward0", ("self",), _triu[0], forward=_triu[1]),
    "aten::flip": F("FlipBackward0", ("self",), _flip[0], forward=_flip[1]),
}


__dir__ = public_dir(globals())
