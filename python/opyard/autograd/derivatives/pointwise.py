"""Derivatives of the pointwise ops (torch's tools/autograd/derivatives.yaml, in Python).

Each row: ``"overload": Formula(node name, differentiable args, backward,
save=..., forward=...)``. ``g = grads[0]``; ``n`` = needs per diff arg.
Gradients of broadcast inputs are reduced to shape by the engine.
"""

from ._helpers import A, cj, div, lin, mul, neg, scale, sub
from .registry import Formula as F


def _g(fn):
    """Adapt ``fn(g, a, n)`` (single output) to the ``(grads, a, n)`` convention."""
    return lambda grads, a, n: fn(grads[0], a, n)


def _unary(name, dfn, save=("self",), fw=True, rust_apply=None, holomorphic=True):
    """A unary op whose derivative is ``g * conj(dfn(a))`` (``g * dfn(a)`` for one that is not
    ``holomorphic``, such as abs: ``dfn`` is then already the conjugate-Wirtinger factor)."""
    forward = (lambda t, a: mul(t[0], dfn(a))) if fw else None
    if holomorphic:
        return F(name, ("self",), _g(lambda g, a, n: (mul(g, cj(dfn(a))),)), save=save, forward=forward,
                 rust_apply=rust_apply)
    # A real-valued function of complex data: its tangent is the real part of conj(t) * dfn (torch's
    # handle_r_to_c), its gradient g * dfn.
    forward = (lambda t, a: _real_part(mul(cj(t[0]), dfn(a)))) if fw else None
    return F(name, ("self",), _g(lambda g, a, n: (mul(g, dfn(a)),)), save=save, forward=forward,
             rust_apply=rust_apply)


def _real_part(x):
    return A.real.default(x) if x.dtype.is_complex else x


def _pow_tensor_scalar_grad(g, a, n):
    e = a.exponent
    if e == 0:
        return (A.mul.Scalar(g, 0),)
    # torch's pow kernel computes x ** -0.5 as rsqrt, which differs from pow at -0 and -inf.
    p = A.rsqrt.default(a.self) if e - 1 == -0.5 else A.pow.Tensor_Scalar(a.self, e - 1)
    return (mul(g, cj(A.mul.Scalar(p, e))),)


def _pow_tensor_tensor_grad(g, a, n):
    zero = A.zeros_like.default(g)
    gs = ge = None
    if n[0]:  # a zero exponent has a zero derivative, even where self ** -1 is inf (0 ** 0)
        d = mul(g, cj(mul(a.exponent, A.pow.Tensor_Tensor(a.self, sub(a.exponent, 1)))))
        gs = A.where.self(A.eq.Scalar(a.exponent, 0), zero, d)
    if n[1]:  # 0 ** e for e >= 0 is constant in e from the right: torch's derivative there is 0
        exp = a.exponent
        real_nonneg = (A.logical_and.default(A.eq.Scalar(A.imag.default(exp), 0), A.ge.Scalar(A.real.default(exp), 0))
                       if exp.dtype.is_complex else A.ge.Scalar(exp, 0))
        at_zero = A.logical_and.default(A.eq.Scalar(a.self, 0), real_nonneg)
        ge = mul(g, cj(A.where.self(at_zero, zero, mul(a.result, A.log.default(a.self)))))
    return gs, ge


def _where_grad(g, a, n):
    zero = A.zeros_like.default(g)
    return (A.where.self(a.condition, g, zero) if n[0] else None,
            A.where.self(a.condition, zero, g) if n[1] else None)


def _clamp_mask(a):
    # Strict bounds, as torch: at x == min or x == max the gradient is 0.
    mask = None
    if a.min is not None:
        mask = A.gt.Scalar(a.self, a.min)
    if a.max is not None:
        upper = A.lt.Scalar(a.self, a.max)
        mask = upper if mask is None else A.logical_and.default(mask, upper)
    return mask


def _clamp_grad(g, a, n):
    mask = _clamp_mask(a)
    return (g if mask is None else A.where.self(mask, g, A.zeros_like.default(g)),)


def _minmax_grad(pick_self):
    """maximum/minimum: the gradient goes to the chosen side; ties split it in half.

    Written as torch's masks (zero only where the other side strictly wins), so a
    nan on either side (the result is nan) passes the gradient to both."""
    def grad(g, a, n):
        self_loses = (A.lt.Tensor if pick_self else A.gt.Tensor)(a.self, a.other)
        other_loses = (A.gt.Tensor if pick_self else A.lt.Tensor)(a.self, a.other)
        shared = A.where.self(A.eq.Tensor(a.self, a.other), A.mul.Scalar(g, 0.5), g)
        zero = A.zeros_like.default(g)
        gs = A.where.self(self_loses, zero, shared) if n[0] else None
        go = A.where.self(other_loses, zero, shared) if n[1] else None
        return (gs, go)
    return grad


def _abs_d(a):
    if a.self.dtype.is_complex:  # torch: grad * self.sgn()
        return A.sgn.default(a.self)
    # torch's sgn(nan) is 0 (numpy's sign(nan) is nan).
    s = A.sign.default(a.self)
    return A.where.self(A.isnan.default(a.self), A.zeros_like.default(s), s)


def _sigmoid_d(a):
    return mul(a.result, A.rsub.Scalar(a.result, 1))


def _tanh_d(a):
    return A.rsub.Scalar(mul(a.result, a.result), 1)


def _relu_grad(g, a, n):
    # threshold_backward: zero where result <= 0, so a nan input passes the gradient.
    return (A.where.self(A.le.Scalar(a.result, 0), A.zeros_like.default(g), g),)


FORMULAS = {
    "aten::add.Tensor": F("AddBackward0", ("self", "other"),
                          _g(lambda g, a, n: (g, scale(g, cj(a.alpha)) if n[1] else None)),
                          forward=lambda t, a: lin(t[0], None if t[1] is None else scale(t[1], a.alpha)),
                          rust_apply="add"),
    "aten::add.Scalar": F("AddBackward1", ("self",), _g(lambda g, a, n: (g,)),
                          forward=lambda t, a: t[0], rust_apply="identity"),
    "aten::sub.Tensor": F("SubBackward0", ("self", "other"),
                          _g(lambda g, a, n: (g, scale(neg(g), cj(a.alpha)) if n[1] else None)),
                          forward=lambda t, a: lin(t[0], None if t[1] is None else neg(scale(t[1], a.alpha))),
                          rust_apply="sub"),
    "aten::sub.Scalar": F("SubBackward1", ("self",), _g(lambda g, a, n: (g,)),
                          forward=lambda t, a: t[0], rust_apply="identity"),
    "aten::rsub.Tensor": F("RsubBackward0", ("self", "other"),
                           _g(lambda g, a, n: (neg(scale(g, cj(a.alpha))), g)),
                           forward=lambda t, a: lin(None if t[0] is None else neg(scale(t[0], a.alpha)), t[1])),
    "aten::rsub.Scalar": F("RsubBackward1", ("self",), _g(lambda g, a, n: (neg(scale(g, cj(a.alpha))),)),
                           forward=lambda t, a: neg(scale(t[0], a.alpha))),
    "aten::mul.Tensor": F("MulBackward0", ("self", "other"),
                          # ``mul.Tensor`` also for a Python number operand (``x * 2``), as torch's
                          # formula multiplies by the wrapped number.
                          _g(lambda g, a, n: (A.mul.Tensor(g, cj(a.other)) if n[0] else None,
                                              A.mul.Tensor(g, cj(a.self)) if n[1] else None)),
                          save=("self", "other"), save_if={"self": "other", "other": "self"},
                          forward=lambda t, a: lin(None if t[0] is None else mul(t[0], a.other),
                                                   None if t[1] is None else mul(t[1], a.self)),
                          rust_apply="mul"),
    "aten::mul.Scalar": F("MulBackward1", ("self",), _g(lambda g, a, n: (mul(g, cj(a.other)),)),
                          forward=lambda t, a: mul(t[0], a.other), rust_apply="mul_scalar"),
    "aten::div.Tensor": F("DivBackward0", ("self", "other"),
                          _g(lambda g, a, n: (A.div.Tensor(g, cj(a.other)) if n[0] else None,
                                              neg(mul(g, cj(div(div(a.self, a.other), a.other))))
                                              if n[1] else None)),
                          save=("self", "other"), save_if={"self": "other"}, rust_apply="div",
                          forward=lambda t, a: lin(None if t[0] is None else div(t[0], a.other),
                                                   None if t[1] is None else
                                                   neg(div(mul(t[1], a.self), mul(a.other, a.other))))),
    "aten::div.Scalar": F("DivBackward1", ("self",), _g(lambda g, a, n: (div(g, cj(a.other)),)),
                          forward=lambda t, a: div(t[0], a.other), rust_apply="div_scalar"),
    "aten::neg": F("NegBackward0", ("self",), _g(lambda g, a, n: (neg(g),)),
                   forward=lambda t, a: neg(t[0]), rust_apply="neg"),
    "aten::pow.Tensor_Scalar": F("PowBackward0", ("self",), _g(_pow_tensor_scalar_grad), save=("self",),
                                 forward=lambda t, a: _pow_tensor_scalar_grad(t[0], a, None)[0],
                                 rust_apply="pow_scalar"),
    "aten::pow.Tensor_Tensor": F("PowBackward1", ("self", "exponent"), _g(_pow_tensor_tensor_grad),
                                 save=("self", "exponent", "result"),
                                 forward=lambda t, a: lin(_pow_fw_self(t, a), _pow_fw_exp(t, a))),
    "aten::exp": _unary("ExpBackward0", lambda a: a.result, save=("result",), rust_apply="mul_result"),
    "aten::log": F("LogBackward0", ("self",), _g(lambda g, a, n: (div(g, cj(a.self)),)), save=("self",),
                   forward=lambda t, a: div(t[0], a.self)),
    "aten::sin": _unary("SinBackward0", lambda a: A.cos.default(a.self)),
    "aten::cos": _unary("CosBackward0", lambda a: neg(A.sin.default(a.self))),
    "aten::tanh": _unary("TanhBackward0", _tanh_d, save=("result",), rust_apply="tanh"),
    "aten::sigmoid": _unary("SigmoidBackward0", _sigmoid_d, save=("result",), rust_apply="sigmoid"),
    "aten::relu": F("ReluBackward0", ("self",), _g(_relu_grad), save=("result",),
                    forward=lambda t, a: _relu_grad(t[0], a, None)[0], rust_apply="relu"),
    "aten::sqrt": F("SqrtBackward0", ("self",), _g(lambda g, a, n: (div(g, cj(A.mul.Scalar(a.result, 2))),)),
                    save=("result",), forward=lambda t, a: div(t[0], A.mul.Scalar(a.result, 2))),
    "aten::rsqrt": _unary("RsqrtBackward0",
                          lambda a: A.mul.Scalar(A.pow.Tensor_Scalar(a.result, 3), -0.5), save=("result",)),
    "aten::abs": _unary("AbsBackward0", _abs_d, holomorphic=False),
    "aten::reciprocal": _unary("ReciprocalBackward0", lambda a: neg(mul(a.result, a.result)),
                               save=("result",)),
    "aten::log1p": F("Log1PBackward0", ("self",), _g(lambda g, a, n: (div(g, cj(A.add.Scalar(a.self, 1))),)),
                     save=("self",), forward=lambda t, a: div(t[0], A.add.Scalar(a.self, 1))),
    "aten::expm1": _unary("Expm1Backward0", lambda a: A.add.Scalar(a.result, 1), save=("result",)),
    # torch's square is pow(self, 2): its node is pow's.
    "aten::square": _unary("PowBackward0", lambda a: A.mul.Scalar(a.self, 2)),
    "aten::where.self": F("WhereBackward0", ("self", "other"), _g(_where_grad), save=("condition",),
                          forward=lambda t, a: lin(
                              None if t[0] is None else A.where.self(a.condition, t[0], A.zeros_like.default(t[0])),
                              None if t[1] is None else A.where.self(a.condition, A.zeros_like.default(t[1]), t[1]))),
    "aten::clamp": F("ClampBackward1", ("self",), _g(_clamp_grad), save=("self",),
                     forward=lambda t, a: _clamp_grad(t[0], a, None)[0]),
    "aten::maximum": F("MaximumBackward0", ("self", "other"), _g(_minmax_grad(True)), save=("self", "other")),
    "aten::minimum": F("MinimumBackward0", ("self", "other"), _g(_minmax_grad(False)), save=("self", "other")),
    "aten::max.other": F("MaxBackward2", ("self", "other"), _g(_minmax_grad(True)), save=("self", "other")),
    "aten::min.other": F("MinBackward2", ("self", "other"), _g(_minmax_grad(False)), save=("self", "other")),
}


def _pow_fw_self(t, a):
    if t[0] is None:
        return None
    return mul(t[0], mul(a.exponent, A.pow.Tensor_Tensor(a.self, sub(a.exponent, 1))))


def _pow_fw_exp(t, a):
    if t[1] is None:
        return None
    return mul(t[1], mul(a.result, A.log.default(a.self)))

