"""Derivatives of the distance, bilinear and bag-embedding kernels (derivatives.yaml rows:
_cdist_forward, _euclidean_dist, _pdist_forward, _trilinear, _embedding_bag), built from
differentiable ops so ``create_graph=True`` works. Where a distance is 0 its gradient is 0 (the
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
    g, x = grads[0], a.self
    rows = meta.shape(x)[0]
    i, j = _pairs(rows, x.device)
    diff = A.sub.Tensor(A.index_select.default(x, 0, i), A.index_select.default(x, 0, j))
    part = A.mul.Tensor(norm_grad(diff, A.unsqueeze.default(a.result, -1), a.p), A.unsqueeze.default(g, -1))
    zeros = A.zeros_like.default(x)
    return (A.sub.Tensor(A.index_add.default(zeros, 0, i, part), A.index_add.default(zeros, 0, j, part)),)


def _trilinear(grads, a, n):
    g = grads[0]
    t = A._trilinear.default
    return (t(g, a.i2, a.i3, a.sumdim, a.expand2, a.expand3, a.expand1) if n[0] else None,
            t(a.i1, g, a.i3, a.expand1, a.sumdim, a.expand3, a.expand2) if n[1] else None,
            t(a.i1, a.i2, g, a.expand1, a.expand2, a.sumdim, a.expand3) if n[2] else None)


def _embedding_bag(grads, a, n):
    """Each used index position gets its bag's gradient (scaled by its per-sample weight, or by
    1 / bag size for a mean; for a max, only the maximal row of each feature), added into the
    weight's rows; the per-sample weights get the dot product of their row with the gradient."""
    g, w, idx, offs = grads[0], a.weight, a.indices, a.offsets
    count = meta.shape(idx)[0] if meta.shape(idx) else 1
    idx = A.reshape.default(idx, [-1])
    starts = A.slice.Tensor(offs, 0, 0, meta.shape(offs)[0] - 1) if a.include_last_offset else offs
    pos = A.arange.default(count, dtype=meta.dtype(idx), device=idx.device)
    bag = A.sub.Scalar(A.searchsorted.Tensor(starts, pos, right=True), 1)
    use = A.logical_and.default(A.ne.Scalar(idx, a.padding_idx), A.ge.Scalar(bag, 0))
    if a.include_last_offset and meta.shape(offs)[0]:
        use = A.logical_and.default(use, A.lt.Tensor(pos, A.select.int(offs, 0, -1)))
    bag = A.clamp_min.default(bag, 0)
    used = A._to_copy.default(use, dtype=meta.dtype(g))
    rows, dim = meta.shape(w)[0], meta.shape(w)[1]
    gw = gp = None
    if n[0]:
        zeros = A.new_zeros.default(g, [rows, dim])
        if a.mode == 2:
            mi = a.result[3]
            nonempty = A.unsqueeze.default(A.gt.Scalar(_bag_counts(bag, used, g), 0), 1)
            cols = A.expand.default(A.unsqueeze.default(A.arange.default(dim, dtype=D.int64, device=idx.device), 0),
                                    list(meta.shape(mi)))
            vals = A.mul.Tensor(g, A._to_copy.default(nonempty, dtype=meta.dtype(g)))
            gw = A.index_put.default(zeros, [A._to_copy.default(mi, dtype=D.int64), cols], vals, True)
        else:
            coeff = used
            if a.per_sample_weights is not None:
                coeff = A.mul.Tensor(coeff, A.reshape.default(a.per_sample_weights, [-1]))
            if a.mode == 1:
                coeff = A.div.Tensor(coeff, A.clamp_min.default(A.index_select.default(_bag_counts(bag, used, g), 0,
                                                                                     bag), 1))
            if a.scale_grad_by_freq:
                freq = A.index_add.default(A.new_zeros.default(g, [rows]), 0, idx, used)
                coeff = A.div.Tensor(coeff, A.clamp_min.default(A.index_select.default(freq, 0, idx), 1))
            spread = A.mul.Tensor(A.index_select.default(g, 0, bag), A.unsqueeze.default(coeff, 1))
            gw = A.index_add.default(zeros, 0, idx, spread)
    if n[1]:
        dots = A.sum.dim_IntList(A.mul.Tensor(A.index_select.default(g, 0, bag), A.index_select.default(w, 0, idx)),
                                 [1], False)
        gp = A.reshape.default(A.mul.Tensor(dots, used), list(meta.shape(a.per_sample_weights)))
    return (gw, gp)


def _bag_counts(bag, used, like):
    """How many used index positions each bag has (as ``like``'s dtype)."""
    bags = meta.shape(like)[0]
    return A.index_add.default(A.new_zeros.default(like, [bags]), 0, bag, used)


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
}

__dir__ = public_dir(globals())
