"""The derivative of ``linalg_vector_norm`` (torch's ``norm_backward``): a subgradient of 0 where
the norm is 0, the mean over the tied largest entries for the infinity norm (nans count as the
largest), ``sgn(x) |x|^(p-1) / norm^(p-1)`` otherwise."""

import math

from ._helpers import A, div, mul, normalize_dims
from .registry import Formula as F
from ..._exports import public_dir


def _unsqueeze_dims(x, dims):
    for d in dims:
        x = A.unsqueeze.default(x, d)
    return x


def _vector_norm(grads, a, n):
    g = grads[0]
    x, norm = a.self, a.result
    ord = float(a.ord)
    nd = len(x.shape)
    dims = normalize_dims(a.dim, nd) if nd else []
    if not a.keepdim and nd:
        g, norm = _unsqueeze_dims(g, dims), _unsqueeze_dims(norm, dims)
    if ord == 0:  # torch: no gradient
        return (None,)
    if ord == 1:
        return (mul(A.sgn.default(x), g),)
    if ord == 2:
        scaled = A.masked_fill.Scalar(div(x, norm), A.eq.Scalar(norm, 0), 0)
        return (mul(g, scaled),)
    if math.isinf(ord):
        ax = A.abs.default(x)
        mask = A.logical_or.default(A.eq.Tensor(ax, norm), A.isnan.default(ax))
        count = A.sum.dim_IntList(mask, dims or None, True)
        return (mul(A.sgn.default(x), mul(div(g, count), mask)),)
    if ord < 1:
        scaled = mul(A.sgn.default(x), A.masked_fill.Scalar(A.pow.Tensor_Scalar(A.abs.default(x), ord - 1),
                                                             A.eq.Scalar(x, 0), 0))
        return (mul(mul(scaled, g), A.pow.Tensor_Scalar(norm, 1 - ord)),)
    base = A.sgn.default(x) if ord < 2 else x
    scaled = mul(base, A.pow.Tensor_Scalar(A.abs.default(x), ord - 1 if ord < 2 else ord - 2))
    scale = A.masked_fill.Scalar(div(g, A.pow.Tensor_Scalar(norm, ord - 1)), A.eq.Scalar(norm, 0), 0)
    return (mul(scaled, scale),)


FORMULAS = {
    "aten::linalg_vector_norm": F("LinalgVectorNormBackward0", ("self",), _vector_norm, save=("self", "result")),
}


__dir__ = public_dir(globals())
