"""Derivatives of the activation and dropout kernels (derivatives.yaml rows: celu, glu,
hardshrink, softshrink, hardsigmoid, hardswish, log_sigmoid_forward, mish, _prelu_kernel,
rrelu_with_noise, threshold, native_dropout, native_dropout_backward). Each is built from differentiable ops, so ``create_graph=True``
differentiates it again; the in-place forms (``celu_``, ``threshold_``, ...) use the same rows."""

from .. import _tensor_meta as meta
from ._helpers import A, mul
from .registry import Formula as F
from ..._exports import public_dir


def _mask(cond, like):
    """A 0/1 tensor of ``like``'s dtype from a boolean one."""
    return A._to_copy.default(cond, dtype=meta.dtype(like))


def _unary(name, dfn, save=("self",)):
    """``grad * dfn(a)`` for an op of one differentiable input (forward mode: ``tangent * dfn(a)``)."""
    return F(name, ("self",), lambda grads, a, n: (mul(grads[0], dfn(a)),), save=save,
             forward=lambda t, a: mul(t[0], dfn(a)))


def _celu_d(a):
    x, alpha = a.self, a.alpha
    neg = A.exp.default(A.mul.Scalar(x, 1.0 / alpha))
    return A.where.self(A.le.Scalar(x, 0), neg, A.ones_like.default(x))


def _glu(grads, a, n):
    g, x = grads[0], a.self
    first, second = A.chunk.default(x, 2, a.dim)
    sig = A.sigmoid.default(second)
    ga = A.mul.Tensor(g, sig)
    gb = A.mul.Tensor(A.mul.Tensor(ga, first), A.rsub.Scalar(sig, 1))
    return (A.cat.default([ga, gb], a.dim),)


def _glu_fw(t, a):
    first, second = A.chunk.default(a.self, 2, a.dim)
    tf, ts = A.chunk.default(t[0], 2, a.dim)
    sig = A.sigmoid.default(second)
    return A.add.Tensor(A.mul.Tensor(tf, sig),
                        A.mul.Tensor(A.mul.Tensor(ts, first), A.mul.Tensor(sig, A.rsub.Scalar(sig, 1))))


def _hardshrink_d(a):
    x = a.self
    return _mask(A.logical_or.default(A.lt.Scalar(x, -a.lambd), A.gt.Scalar(x, a.lambd)), x)


def _softshrink_d(a):
    x = a.self
    return _mask(A.gt.Scalar(A.abs.default(x), a.lambd), x)


def _hardsigmoid_d(a):
    x = a.self
    inside = A.logical_and.default(A.gt.Scalar(x, -3.0), A.lt.Scalar(x, 3.0))
    return A.div.Scalar(_mask(inside, x), 6.0)


def _hardswish_d(a):
    """torch's: 0 up to -3 (included), x / 3 + 1 / 2 below 3, then 1."""
    x = a.self
    middle = A.add.Scalar(A.div.Scalar(x, 3.0), 0.5)
    upper = A.where.self(A.lt.Scalar(x, 3.0), middle, A.ones_like.default(x))
    return A.where.self(A.le.Scalar(x, -3.0), A.zeros_like.default(x), upper)


def _log_sigmoid(grads, a, n):
    g = grads[0]
    return (None if g is None else A.mul.Tensor(g, A.sigmoid.default(A.neg.default(a.self))),)


def _mish_d(a):
    x = a.self
    t = A.tanh.default(A.softplus.default(x))
    return A.add.Tensor(t, A.mul.Tensor(A.mul.Tensor(x, A.sigmoid.default(x)), A.rsub.Scalar(A.mul.Tensor(t, t), 1)))


def _prelu(grads, a, n):
    g, x, w = grads[0], a.self, a.weight
    positive = A.gt.Scalar(x, 0)
    gx = A.where.self(positive, g, A.mul.Tensor(w, g)) if n[0] else None
    gw = A.where.self(positive, A.zeros_like.default(g), A.mul.Tensor(x, g)) if n[1] else None
    return (gx, gw)


def _prelu_fw(t, a):
    x, w = a.self, a.weight
    positive = A.gt.Scalar(x, 0)
    out = None
    if t[0] is not None:
        out = A.where.self(positive, t[0], A.mul.Tensor(w, t[0]))
    if t[1] is not None:
        part = A.where.self(positive, A.zeros_like.default(x), A.mul.Tensor(x, t[1]))
        out = part if out is None else A.add.Tensor(out, part)
    return out


def _rrelu_d(a):
    x = a.self
    if a.training:
        return a.noise
    slope = (float(a.lower) + float(a.upper)) / 2
    return A.where.self(A.gt.Scalar(x, 0), A.ones_like.default(x), A.full_like.default(x, slope))


def _threshold_d(a):
    return _mask(A.gt.Scalar(a.self, a.threshold), a.self)


def _dropout_scale(a):
    p = a.p
    return 1.0 if a.train is False else (0.0 if p == 1 else 1.0 / (1 - p))


def _native_dropout(grads, a, n):
    return (A.native_dropout_backward.default(grads[0], a.result[1], _dropout_scale(a)),)


def _native_dropout_backward(grads, a, n):
    return (A.native_dropout_backward.default(grads[0], a.mask, a.scale),)


FORMULAS = {
    "aten::celu": _unary("CeluBackward0", _celu_d),
    "aten::glu": F("GluBackward0", ("self",), _glu, save=("self",), forward=_glu_fw),
    "aten::hardshrink": _unary("HardshrinkBackward0", _hardshrink_d),
    "aten::softshrink": _unary("SoftshrinkBackward0", _softshrink_d),
    "aten::hardsigmoid": _unary("HardsigmoidBackward0", _hardsigmoid_d),
    "aten::hardswish": _unary("HardswishBackward0", _hardswish_d),
    "aten::log_sigmoid_forward": F("LogSigmoidBackward0", ("self",), _log_sigmoid, save=("self",),
                                   outputs=(True, False),
                                   forward=lambda t, a: (A.mul.Tensor(t[0], A.sigmoid.default(A.neg.default(a.self))),
                                                         None)),
    "aten::mish": _unary("MishBackward0", _mish_d),
    "aten::_prelu_kernel": F("PreluKernelBackward0", ("self", "weight"), _prelu, save=("self", "weight"),
                             forward=_prelu_fw),
    "aten::rrelu_with_noise": _unary("RreluWithNoiseBackward0", _rrelu_d, save=("self", "noise")),
    "aten::threshold": _unary("ThresholdBackward0", _threshold_d),
    "aten::native_dropout": F("NativeDropoutBackward0", ("input",), _native_dropout, save=("result",),
                              outputs=(True, False),
                              forward=lambda t, a: (A.native_dropout_backward.default(t[0], a.result[1],
                                                                                      _dropout_scale(a)), None)),
    "aten::native_dropout_backward": F("NativeDropoutBackwardBackward0", ("grad_output",), _native_dropout_backward,
                                       save=("mask",),
                                       forward=lambda t, a: A.native_dropout_backward.default(t[0], a.mask, a.scale)),
}

__dir__ = public_dir(globals())
