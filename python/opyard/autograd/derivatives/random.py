"""Derivatives of the samplers: zero for the input a draw overwrites or reads a probability from
(derivatives.yaml's ``zeros_like(grad)`` rows, with torch's node names); ``bernoulli.p`` records a
node whose backward raises, as torch's; indices and integer draws never require grad."""

from ._helpers import A
from .registry import Formula as F


def _zero_grad(grads, a, n):
    return tuple(A.zeros_like.default(grads[0]) if need else None for need in n)


def _zero_like_inputs(grads, a, n):
    """``bernoulli_.Tensor``: zeros for ``self`` (the gradient's shape) and for ``p`` (its own)."""
    g = grads[0]
    return (A.zeros_like.default(g) if n[0] else None,
            A.zeros.default(list(a.p.shape), dtype=a.p.dtype, device=g.device) if n[1] else None)


def _zero_tangent(t, a):
    return A.zeros_like.default(a.result)


def _bernoulli_p(grads, a, n):
    raise RuntimeError("derivative for aten::bernoulli is not implemented")


def _binomial(grads, a, n):
    raise RuntimeError("derivative for aten::binomial is not implemented")


FORMULAS = {
    "aten::bernoulli": F("BernoulliBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::bernoulli_.Tensor": F("BernoulliBackward1", ("self", "p"), _zero_like_inputs, forward=_zero_tangent),
    "aten::bernoulli_.float": F("BernoulliBackward2", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::bernoulli.p": F("NotImplemented", ("self",), _bernoulli_p),
    "aten::cauchy_": F("CauchyBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::exponential_": F("ExponentialBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::geometric_": F("GeometricBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::log_normal_": F("LogNormalBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::random_.from": F("RandomBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::random_.to": F("RandomBackward1", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::random_": F("RandomBackward2", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::normal.Tensor_float": F("NormalBackward1", ("mean",), _zero_grad, forward=_zero_tangent),
    "aten::normal.float_Tensor": F("NormalBackward2", ("std",), _zero_grad, forward=_zero_tangent),
    "aten::normal.Tensor_Tensor": F("NormalBackward3", ("mean", "std"), _zero_grad, forward=_zero_tangent),
    "aten::poisson": F("PoissonBackward0", ("self",), _zero_grad, forward=_zero_tangent),
    "aten::binomial": F("NotImplemented", ("count", "prob"), _binomial),
}

NON_DIFFERENTIABLE = (
    "aten::multinomial", "aten::randint_like", "aten::randint_like.generator", "aten::randint_like.Tensor",
    "aten::randint_like.Tensor_generator", "aten::randint_like.low_dtype", "aten::randint_like.low_generator_dtype",
    "aten::normal.float_float", "aten::rand_like.generator", "aten::randn_like.generator",
)

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
