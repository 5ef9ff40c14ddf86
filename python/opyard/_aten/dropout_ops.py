"""Dropout as torch structures it on CPU: the compositions ``dropout``, ``feature_dropout``,
``alpha_dropout``, ``feature_alpha_dropout`` and their in-place forms (torch's
``_dropout_impl``: a Bernoulli(1 - p) noise per element, or per channel for the feature forms,
drawn with ``rand_like`` so vmap's randomness modes apply), and the kernels ``native_dropout``
/ ``native_dropout_backward``."""

import math

import numpy as np

from .. import _dtype as D
from .._ops import ops
from .common import A, out, tensor_result_dtype
from .factory import generator

__all__ = ["COMPOSITE", "KERNELS", "SCHEMAS"]

SCHEMAS = (
    "dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)",
    "feature_dropout(Tensor input, float p, bool train) -> Tensor",
    "feature_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)",
    "alpha_dropout(Tensor input, float p, bool train) -> Tensor",
    "alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)",
    "feature_alpha_dropout(Tensor input, float p, bool train) -> Tensor",
    "feature_alpha_dropout_(Tensor(a!) self, float p, bool train) -> Tensor(a!)",
    "native_dropout(Tensor input, float p, bool? train) -> (Tensor, Tensor)",
    "native_dropout_backward(Tensor grad_output, Tensor mask, float scale) -> Tensor",
)
# ``dropout``'s schema is in schemas.py; its kernel is here.

# alpha dropout's constant: the negative saturation of selu, -scale * alpha.
_ALPHA = 1.7580993408473766


def _noise_like(input, feature):
    """A Bernoulli(keep) draw per element, or per (N, C) channel for the feature forms."""
    if feature:
        if input.dim() < 2:
            raise RuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = [input.shape[0], input.shape[1]] + [1] * (input.dim() - 2)
        base = A.new_empty(input, shape)
    else:
        base = input
    real = base.dtype.to_real() if base.dtype.is_complex else base.dtype
    if not real.is_floating_point:
        real = D.get_default_dtype()
    return A.rand_like(base, dtype=real)


def _dropout_impl(input, p, train, feature, alpha, inplace):
    if not 0 <= p <= 1:
        raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not train or input.numel() == 0:
        return input
    mul = ops.aten.mul_.Tensor if inplace else A.mul__Tensor
    if p == 1:
        return mul(input, A.zeros([], dtype=input.dtype, device=input.device))
    keep = A.lt__Scalar(_noise_like(input, feature), 1 - p)
    noise = A._to_copy(keep, dtype=input.dtype)
    if alpha:
        a = 1.0 / math.sqrt((_ALPHA * _ALPHA * p + 1) * (1 - p))
        b = A.add__Scalar(A.mul__Scalar(A.add__Scalar(noise, -1), _ALPHA * a), _ALPHA * a * p)
        noise = A.mul__Scalar(noise, a)
        result = mul(input, noise)
        return A.add__Tensor(result, b) if not inplace else ops.aten.add_.Tensor(result, b)
    return mul(input, A.div__Scalar(noise, 1 - p))


def dropout(input, p, train):
    return _dropout_impl(input, p, train, False, False, False)


def dropout_(self, p, train):
    return _dropout_impl(self, p, train, False, False, True)


def feature_dropout(input, p, train):
    return _dropout_impl(input, p, train, True, False, False)


def feature_dropout_(self, p, train):
    return _dropout_impl(self, p, train, True, False, True)


def alpha_dropout(input, p, train):
    return _dropout_impl(input, p, train, False, True, False)


def alpha_dropout_(self, p, train):
    return _dropout_impl(self, p, train, False, True, True)


def feature_alpha_dropout(input, p, train):
    return _dropout_impl(input, p, train, True, True, False)


def feature_alpha_dropout_(self, p, train):
    return _dropout_impl(self, p, train, True, True, True)


def native_dropout(input, p, train):
    """``(input * mask / (1 - p), mask)`` with a Bernoulli(1 - p) boolean ``mask``; outside
    training (``train`` False) the input is copied and the mask is all ones."""
    x = input._data
    if train is None or train:
        if not 0 <= p <= 1:
            raise RuntimeError(f"dropout probability has to be between 0 and 1, but got {p}")
        if p == 1:
            mask = np.zeros(x.shape, bool)
            return out(np.zeros_like(x), input), out(mask, input)
        mask = generator().random(x.shape) < 1 - p
        scale = 1.0 / (1 - p)
        r = (x * mask * scale).astype(x.dtype, copy=False)
        return out(r, input), out(mask, input)
    return out(x.copy(), input), out(np.ones(x.shape, bool), input)


def native_dropout_backward(grad_output, mask, scale):
    """``grad_output * mask * scale`` with torch's promotion (a bool or integer gradient gives the
    default floating dtype)."""
    g, m = grad_output._data, mask._data
    step = tensor_result_dtype(grad_output, mask)
    dt = D.combine_categories(step, D.wrapped_scalar_dtype(scale))
    prod = np.multiply(g.astype(step.np, copy=False), m.astype(step.np, copy=False))
    shape = np.broadcast_shapes(g.shape, m.shape)
    return out(np.broadcast_to(prod * np.asarray(scale).astype(dt.np), shape).astype(dt.np), grad_output)


KERNELS = {"native_dropout": native_dropout, "native_dropout_backward": native_dropout_backward}
COMPOSITE = {
    "dropout": dropout, "dropout_": dropout_, "feature_dropout": feature_dropout, "feature_dropout_": feature_dropout_,
    "alpha_dropout": alpha_dropout, "alpha_dropout_": alpha_dropout_, "feature_alpha_dropout": feature_alpha_dropout,
    "feature_alpha_dropout_": feature_alpha_dropout_,
}
