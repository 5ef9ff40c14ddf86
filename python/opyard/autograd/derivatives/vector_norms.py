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


def _re(x):
    return A.real.default(x) if x.dtype.is_complex else x


def _cj(x):
    return A.conj.default(x) if x.dtype.is_complex else x


def _vector_norm_fw(t, a):
    """torch's ``norm_jvp``."""
    x, dx, norm = a.self, t[0], a.result
    ord = float(a.ord)
    nd = len(x.shape)
    dims = normalize_dims(a.dim, nd) if nd else []
    red = dims or None
    keep = a.keepdim

    def total(v):
        return A.sum.dim_IntList(v, red, keep) if nd else v

    if ord == 0:
        return A.zeros_like.default(norm)
    if ord == 1:
        return total(_re(mul(_cj(A.sgn.default(x)), dx)))
    if ord == 2:
        r = div(total(_re(mul(x, _cj(dx)))), norm)
        return A.masked_fill.Scalar(r, A.eq.Scalar(norm, 0), 0)
    if math.isinf(ord):
        n = norm if keep or not nd else _unsqueeze_dims(norm, dims)
        both_nan = A.logical_and.default(A.isnan.default(x), A.isnan.default(n))
        is_max = A._to_copy.default(A.logical_or.default(A.eq.Tensor(A.abs.default(x), n), both_nan), dtype=n.dtype)
        count = A.sum.dim_IntList(is_max, red, True) if nd else is_max
        return total(div(mul(_re(mul(A.sgn.default(x), _cj(dx))), is_max), count))
    if ord < 1:
        powed = A.masked_fill.Scalar(A.pow.Tensor_Scalar(A.abs.default(x), ord - 1), A.eq.Scalar(x, 0), 0)
        return mul(total(mul(powed, _re(mul(A.sgn.default(x), _cj(dx))))), A.pow.Tensor_Scalar(norm, 1 - ord))
    if ord < 2:
        s = total(mul(A.pow.Tensor_Scalar(A.abs.default(x), ord - 1), _re(mul(A.sgn.default(x), _cj(dx)))))
    else:
        s = total(mul(A.pow.Tensor_Scalar(A.abs.default(x), ord - 2), _re(mul(x, _cj(dx)))))
    return A.masked_fill.Scalar(div(s, A.pow.Tensor_Scalar(norm, ord - 1)), A.eq.Scalar(norm, 0), 0)


FORMULAS = {
    "aten::linalg_vector_norm": F("LinalgVectorNormBackward0", ("self",), _vector_norm, save=("self", "result"),
                                  forward=_vector_norm_fw),
}
# These formulas compute the conjugate Wirtinger derivative for complex inputs (torch's convention):
# complex results of these operators are differentiable (Note [Complex outputs]).
for _formula in FORMULAS.values():
    _formula.complex = True


__dir__ = public_dir(globals())
