"""Derivatives of the distance, bilinear and bag-embedding kernels (derivatives.yaml rows:
_cdist_forward, _euclidean_dist, _pdist_forward, _trilinear, _embedding_bag and its backward
kernels), built from differentiable ops so ``create_graph=True`` works (the bag embedding's own
backward kernels refuse a second derivative, as torch's). Where a distance is 0 its gradient is 0 (the
subgradient torch picks)."""

import math

import numpy as np

from ... import _dtype as D
from ... import _factories
from .. import _tensor_meta as meta
from ._helpers import A
from .registry import Formula as F
from ..._exports import public_dir


def _safe_div(num, den):
    """``num / den`` with 0 where ``den`` is 0."""
    zero = A.eq.Scalar(den, 0)
    return A.where.self(zero, A.zeros_like.default(num), A.div.Tensor(num, A.masked_fill.Scalar(den, zero, 1)))


def norm_grad(diff, dist, p):
    """d ||diff||_p / d diff along the last dim; ``dist`` is the norm, with that dim kept."""
    if p == 0:
        return A.zeros_like.default(diff)
    sign = A.sign.default(diff)
    if p == 1:
        return sign
    if p == math.inf:
        picked = A._to_copy.default(A.eq.Tensor(A.abs.default(diff), dist), dtype=meta.dtype(diff))
        return A.mul.Tensor(sign, picked)
    if p == 2:
        return _safe_div(diff, dist)
    mag = A.pow.Tensor_Scalar(A.abs.default(diff), p - 1)
    if p < 1:  # |0|^(p - 1) is infinite: torch gives those elements no gradient
        mag = A.masked_fill.Scalar(mag, A.eq.Scalar(diff, 0), 0)
    return _safe_div(A.mul.Tensor(sign, mag), A.pow.Tensor_Scalar(dist, p - 1))


def _cdist(grads, a, n):
    g, x1, x2 = grads[0], a.x1, a.x2
    diff = A.sub.Tensor(A.unsqueeze.default(x1, -2), A.unsqueeze.default(x2, -3))  # (..., P, R, M)
    weighted = A.mul.Tensor(norm_grad(diff, A.unsqueeze.default(a.result, -1), a.p), A.unsqueeze.default(g, -1))
    g1 = A.sum.dim_IntList(weighted, [-2], False) if n[0] else None
    g2 = A.neg.default(A.sum.dim_IntList(weighted, [-3], False)) if n[1] else None
    return (g1, g2)


def _euclidean(grads, a, n):
    g, x1, x2, res = grads[0], a.x1, a.x2, a.result
    ratio = _safe_div(g, res)
    g1 = A.sub.Tensor(A.mul.Tensor(x1, A.sum.dim_IntList(ratio, [-1], True)), A.matmul.default(ratio, x2)) \
        if n[0] else None
    g2 = A.sub.Tensor(A.mul.Tensor(x2, A.unsqueeze.default(A.sum.dim_IntList(ratio, [-2], False), -1)),
                      A.matmul.default(A.transpose.int(ratio, -1, -2), x1)) if n[1] else None
    return (g1, g2)


def _pairs(rows, device):
    i, j = np.triu_indices(rows, 1)
    return (_factories.tensor(i, dtype=D.int64, device=device), _factories.tensor(j, dtype=D.int64, device=device))


def _pdist(grads, a, n):
    """Each pair's term added to its first row and taken from its second: the terms placed in an
    (n, n) grid (each pair once, no accumulation), then summed along each side."""
    g, x = grads[0], a.self
    rows, cols = meta.shape(x)
    i, j = _pairs(rows, x.device)
    diff = A.sub.Tensor(A.index_select.default(x, 0, i), A.index_select.default(x, 0, j))
    part = A.mul.Tensor(norm_grad(diff, A.unsqueeze.default(a.result, -1), a.p), A.unsqueeze.default(g, -1))
    flat = A.add.Tensor(A.mul.Scalar(i, rows), j)
    grid = A.index_put_.default(A.new_zeros.default(x, [rows * rows, cols]), [flat], part, False)
    grid = A.view.default(grid, [rows, rows, cols])
    return (A.sub.Tensor(A.sum.dim_IntList(grid, [1], False), A.sum.dim_IntList(grid, [0], False)),)


def _trilinear(grads, a, n):
    g = grads[0]
    t = A._trilinear.default
    return (t(g, a.i2, a.i3, a.sumdim, a.expand2, a.expand3, a.expand1) if n[0] else None,
            t(a.i1, g, a.i3, a.expand1, a.sumdim, a.expand3, a.expand2) if n[1] else None,
            t(a.i1, a.i2, g, a.expand1, a.expand2, a.sumdim, a.expand3) if n[2] else None)


def _embedding_bag(grads, a, n):
    """torch's row: the weight's gradient from ``_embedding_bag_backward``, the per-sample
    weights' from ``_embedding_bag_per_sample_weights_backward``."""
    g, w = grads[0], a.weight
    gw = A._embedding_bag_backward.default(
        g, a.indices, a.offsets, a.result[1], a.result[2], a.result[3], meta.shape(w)[0], a.scale_grad_by_freq,
        a.mode, a.sparse, a.per_sample_weights, a.padding_idx) if n[0] else None
    gp = A._embedding_bag_per_sample_weights_backward.default(
        g, w, a.indices, a.offsets, a.result[1], a.mode, a.padding_idx) if n[1] else None
    return (gw, gp)


def _refused(message, error=NotImplementedError):
    """derivatives.yaml's ``not_implemented``: the node records, its backward raises torch's message."""
    def backward(grads, a, n):
        raise error(message)
    return backward


def _trilinear_jvp(t, a):
    """The sum of the three products with one factor's tangent in place of the factor."""
    op = A._trilinear.default
    terms = []
    if t[0] is not None:
        terms.append(op(t[0], a.i2, a.i3, a.expand1, a.expand2, a.expand3, a.sumdim))
    if t[1] is not None:
        terms.append(op(a.i1, t[1], a.i3, a.expand1, a.expand2, a.expand3, a.sumdim))
    if t[2] is not None:
        terms.append(op(a.i1, a.i2, t[2], a.expand1, a.expand2, a.expand3, a.sumdim))
    total = terms[0]
    for term in terms[1:]:
        total = A.add.Tensor(total, term)
    return total


FORMULAS = {
    "aten::_cdist_forward": F("CdistBackward0", ("x1", "x2"), _cdist, save=("x1", "x2", "result")),
    "aten::_euclidean_dist": F("EuclideanDistBackward0", ("x1", "x2"), _euclidean, save=("x1", "x2", "result")),
    "aten::_pdist_forward": F("PdistBackward0", ("self",), _pdist, save=("self", "result")),
    "aten::_trilinear": F("TrilinearBackward0", ("i1", "i2", "i3"), _trilinear, save=("i1", "i2", "i3"),
                          forward=_trilinear_jvp),
    "aten::_embedding_bag": F("EmbeddingBagBackward0", ("weight", "per_sample_weights"), _embedding_bag,
                              save=("weight", "indices", "offsets", "per_sample_weights", "result"),
                              outputs=(True, False, False, False)),
    "aten::_embedding_bag_backward": F(
        "EmbeddingBagBackwardBackward0", ("grad", "per_sample_weights"),
        _refused("the derivative for '_embedding_bag_backward' is not implemented.")),
    "aten::_embedding_bag_dense_backward": F(
        "EmbeddingBagDenseBackwardBackward0", ("grad", "per_sample_weights"),
        _refused("the derivative for '_embedding_bag_dense_backward' is not implemented.")),
    # no derivatives.yaml row: torch's not-implemented fallback node
    "aten::_embedding_bag_per_sample_weights_backward": F(
        "NotImplemented", ("grad", "weight"),
        _refused("derivative for aten::_embedding_bag_per_sample_weights_backward is not implemented", RuntimeError)),
}

__dir__ = public_dir(globals())
