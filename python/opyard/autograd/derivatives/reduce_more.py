"""Derivatives of prod (exact at zeros), cumprod, aminmax, the nan-aware and order-statistic
reductions (nansum, nanmean, median, mode, cummax/cummin), masked_select and as_strided.

The index arithmetic of ``as_strided`` is data (numpy, computed once per backward); every
gradient itself is built from differentiable ops, so ``create_graph=True`` works.
"""

import numpy as np

from ... import _factories
from ._helpers import A, cj, div, expand_reduced, mul, normalize_dims
from .registry import Formula as F
from ..._exports import public_dir


def products_except(x, dim):
    """``prod_{j != i} x_j`` along ``dim`` for every i, exact with zeros: the exclusive
    cumulative products from the left and from the right, multiplied."""
    n = x.shape[dim]
    if n == 0:
        return x
    ones_shape = list(x.shape)
    ones_shape[dim] = 1
    one = A.new_ones.default(x, ones_shape)
    left = A.cat.default([one, A.cumprod.default(A.narrow.default(x, dim, 0, n - 1), dim)], dim)
    flipped = A.flip.default(x, [dim])
    right = A.cat.default([one, A.cumprod.default(A.narrow.default(flipped, dim, 0, n - 1), dim)], dim)
    return mul(left, A.flip.default(right, [dim]))


def prod_all_d(x):
    """d prod(x) / dx, shaped like x."""
    if len(x.shape) == 0:
        return A.ones_like.default(x)
    return A.reshape.default(products_except(A.reshape.default(x, [-1]), 0), list(x.shape))


def _prod_all(grads, a, n):
    """d prod / d x_i = prod / x_i where no input is zero (nan next to inf or nan, as torch);
    with one zero, the zero's gradient is the product of the others and the rest get 0; with
    two or more, all 0 (torch's prod_safe_zeros_backward, written with masks)."""
    zero_mask = A.eq.Scalar(a.self, 0)
    zeros = A.sum.default(zero_mask)
    others = A.prod.default(A.where.self(zero_mask, A.ones_like.default(a.self), a.self))
    at_zero = A.where.self(A.eq.Scalar(zeros, 1), others, A.zeros_like.default(others))
    away = A.where.self(A.gt.Scalar(zeros, 0), A.zeros_like.default(a.self), div(a.result, a.self))
    d = A.where.self(zero_mask, A.expand.default(at_zero, list(a.self.shape)), away)
    return (mul(A.expand.default(grads[0], list(a.self.shape)), cj(d)),)


def _prod_dim(grads, a, n):
    if len(a.self.shape) == 0:
        return (grads[0],)
    d = a.dim % len(a.self.shape)
    return (mul(expand_reduced(grads[0], a.self.shape, [d], a.keepdim), cj(products_except(a.self, d))),)


def _cumprod(grads, a, n):
    """sum_{j >= i} g_j * prod_{k <= j, k != i} x_k; with no zero along ``dim`` this is
    reverse-cumsum(g * result) / x, otherwise the (n x n) products are formed explicitly."""
    g, x = grads[0], a.self
    if len(x.shape) == 0:
        return (g,)
    d = a.dim % len(x.shape)
    if not bool(A.any.default(A.eq.Scalar(x, 0))):
        rev = A.flip.default(A.cumsum.default(A.flip.default(mul(g, cj(a.result)), [d]), d), [d])
        return (div(rev, cj(x)),)
    xm = A.movedim.int(x, d, -1)
    gm = A.movedim.int(g, d, -1)
    size = xm.shape[-1]
    i = A.unsqueeze.default(A.arange.default(size), 1)
    j = A.unsqueeze.default(A.arange.default(size), 0)
    # row i: x_j for j > i, else 1; its cumprod along j is prod_{i < k <= j} x_k
    rows = A.where.self(A.gt.Tensor(j, i), A.unsqueeze.default(xm, -2), A.ones_like.default(A.unsqueeze.default(xm, -2)))
    inner = mul(A.cumprod.default(rows, -1), A._to_copy.default(A.ge.Tensor(j, i), dtype=x.dtype))
    left = products_except_left(xm)
    gi = mul(cj(left), A.sum.dim_IntList(mul(cj(inner), A.unsqueeze.default(gm, -2)), [-1], False))
    return (A.movedim.int(gi, -1, d),)


def products_except_left(x):
    """Exclusive cumulative product along the last dim: prod_{k < i} x_k."""
    size = x.shape[-1]
    one = A.new_ones.default(x, list(x.shape[:-1]) + [1])
    return A.cat.default([one, A.cumprod.default(A.narrow.default(x, -1, 0, size - 1), -1)], -1)


def _cumprod_fw(t, a):
    """d cumprod = cumsum(t * prod_{k<=j, k!=i}) = cumprod * cumsum(t / x) for nonzero x."""
    x = a.self
    if len(x.shape) == 0:
        return t[0]
    d = a.dim % len(x.shape)
    if not bool(A.any.default(A.eq.Scalar(x, 0))):
        return mul(a.result, A.cumsum.default(div(t[0], x), d))
    # exact with zeros: the j-th tangent is sum_i t_i * prod_{k <= j, k != i} x_k
    xm, tm = A.movedim.int(x, d, -1), A.movedim.int(t[0], d, -1)
    size = xm.shape[-1]
    i = A.unsqueeze.default(A.arange.default(size), 1)
    j = A.unsqueeze.default(A.arange.default(size), 0)
    rows = A.where.self(A.gt.Tensor(j, i), A.unsqueeze.default(xm, -2), A.ones_like.default(A.unsqueeze.default(xm, -2)))
    inner = mul(A.cumprod.default(rows, -1), A._to_copy.default(A.ge.Tensor(j, i), dtype=x.dtype))
    coeff = mul(inner, A.unsqueeze.default(products_except_left(xm), -1))
    r = A.sum.dim_IntList(mul(coeff, A.unsqueeze.default(tm, -1)), [-2], False)
    return A.movedim.int(r, -1, d)


def _select_back(g, shape, dim, index, keepdim):
    """values/indices reductions: ``g`` scattered to ``index`` along ``dim``."""
    if len(shape) == 0:
        return g
    if not keepdim:
        g = A.unsqueeze.default(g, dim)
        index = A.unsqueeze.default(index, dim)
    return A.scatter.src(A.new_zeros.default(g, list(shape)), dim, index, g)


def _values_indices(grads, a, n):
    g = grads[0]
    if g is None:
        return (None,)
    return (_select_back(g, a.self.shape, a.dim, a.result[1], getattr(a, "keepdim", False)),)


def _values_indices_fw(t, a):
    if len(a.self.shape) == 0:
        return (t[0], None)
    keepdim = getattr(a, "keepdim", False)
    idx = a.result[1] if keepdim else A.unsqueeze.default(a.result[1], a.dim)
    r = A.gather.default(t[0], a.dim, idx)
    return (r if keepdim else A.squeeze.dim(r, a.dim), None)


def _cum_extreme(grads, a, n):
    """cummax/cummin: each output's gradient goes to the element it was taken from."""
    g = grads[0]
    if g is None or len(a.self.shape) == 0:
        return (g,)
    zeros = A.new_zeros.default(g, list(a.self.shape))
    return (A.scatter_add.default(zeros, a.dim, a.result[1], g),)


def _cum_extreme_fw(t, a):
    return (t[0] if len(a.self.shape) == 0 else A.gather.default(t[0], a.dim, a.result[1]), None)


def _evenly(g, x, result):
    """median()/max(): shared evenly by the elements equal to the result (nan: the nans)."""
    mask = A.eq.Tensor(x, result)
    mask = A.logical_or.default(mask, A.logical_and.default(A.isnan.default(x), A.isnan.default(result)))
    g = A.expand.default(div(g, A.sum.default(mask)), list(x.shape))
    return A.where.self(mask, g, A.zeros_like.default(g))


def _aminmax(grads, a, n):
    gmin, gmax = grads
    dims = None if a.dim is None else [a.dim]
    keepdim = a.keepdim if a.dim is not None else False
    total = None
    for g, r in ((gmin, a.result[0]), (gmax, a.result[1])):
        if g is None:
            continue
        full = expand_reduced(r, a.self.shape, dims, keepdim)
        mask = A.eq.Tensor(a.self, full)
        count = expand_reduced(A.sum.dim_IntList(mask, normalize_dims(dims, len(a.self.shape)), keepdim),
                               a.self.shape, dims, keepdim)
        part = A.where.self(mask, div(expand_reduced(g, a.self.shape, dims, keepdim), count),
                            A.zeros_like.default(mask, dtype=a.self.dtype))
        total = part if total is None else A.add.Tensor(total, part)
    return (total,)


def _aminmax_fw(t, a):
    dims = normalize_dims(None if a.dim is None else [a.dim], len(a.self.shape))
    keepdim = a.keepdim if a.dim is not None else False
    outs = []
    for r in a.result:
        full = r if keepdim or not dims else _unsqueeze_all(r, dims)
        mask = A.eq.Tensor(a.self, full)
        s = A.sum.dim_IntList(A.where.self(mask, t[0], A.zeros_like.default(t[0])), dims, keepdim)
        outs.append(div(s, A.sum.dim_IntList(mask, dims, keepdim)))
    return tuple(outs)


def _unsqueeze_all(x, dims):
    for d in sorted(dims):
        x = A.unsqueeze.default(x, d)
    return x


def _nan_mask(x):
    return A.logical_not.default(A.isnan.default(x))


def _nansum(grads, a, n):
    g = expand_reduced(grads[0], a.self.shape, a.dim, a.keepdim)
    return (A.where.self(_nan_mask(a.self), g, A.zeros_like.default(g)),)


def _nanmean(grads, a, n):
    keep = _nan_mask(a.self)
    dims = normalize_dims(a.dim, len(a.self.shape))
    count = expand_reduced(A.sum.dim_IntList(keep, dims, a.keepdim), a.self.shape, a.dim, a.keepdim)
    g = div(expand_reduced(grads[0], a.self.shape, a.dim, a.keepdim), count)
    return (A.where.self(keep, g, A.zeros_like.default(g)),)


def _nan_fw(mean):
    def fw(t, a):
        keep = _nan_mask(a.self)
        dims = normalize_dims(a.dim, len(a.self.shape))
        s = A.sum.dim_IntList(A.where.self(keep, t[0], A.zeros_like.default(t[0])), dims, a.keepdim)
        return div(s, A.sum.dim_IntList(keep, dims, a.keepdim)) if mean else s
    return fw


def _masked_select(grads, a, n):
    """The selected gradients put back where the (broadcast) mask is true."""
    g = grads[0]
    shape = list(np.broadcast_shapes(tuple(a.self.shape), tuple(a.mask.shape)))
    if not shape:  # a scalar: its gradient is the one selected element's, or 0 (g is empty)
        return (A.sum.default(g),)
    mask = A.expand.default(a.mask, shape)
    return (A.index_put.default(A.new_zeros.default(g, shape), [mask], g, True),)


def _strided_positions(a):
    """For every output element of as_strided, the flat index of the input element it reads
    (-1: storage outside the input)."""
    x = a.self
    strides, offset = x.stride(), x.storage_offset()
    size, stride = list(a.size), list(a.stride)
    out_offset = offset if a.storage_offset is None else a.storage_offset
    span = max([offset + sum((s - 1) * st for s, st in zip(x.shape, strides)) + 1] +
               [out_offset + sum((s - 1) * st for s, st in zip(size, stride)) + 1 if all(size) else 0])
    owner = np.full(max(span, 1), -1, np.int64)
    flat = np.arange(int(np.prod(x.shape)), dtype=np.int64).reshape(x.shape)
    where = offset + sum(np.arange(s).reshape([-1 if i == d else 1 for i in range(len(x.shape))]) * st
                         for d, (s, st) in enumerate(zip(x.shape, strides))) if x.shape else np.array(offset)
    owner[np.asarray(where).reshape(-1)] = flat.reshape(-1)
    reads = out_offset + sum(np.arange(s).reshape([-1 if i == d else 1 for i in range(len(size))]) * st
                             for d, (s, st) in enumerate(zip(size, stride))) if size else np.array(out_offset)
    return owner[np.broadcast_to(reads, size).reshape(-1)]


def _as_strided(grads, a, n):
    g = grads[0]
    pos = _strided_positions(a)
    keep = pos >= 0
    numel = int(np.prod(a.self.shape))
    flat_g = A.reshape.default(g, [-1])
    if not keep.all():
        flat_g = A.index_select.default(flat_g, 0, _factories.tensor(np.flatnonzero(keep)))
    acc = A.index_add.default(A.new_zeros.default(g, [numel]), 0, _factories.tensor(pos[keep]), flat_g)
    return (A.reshape.default(acc, list(a.self.shape)),)


def _as_strided_fw(t, a):
    """The tangent read at the input elements each output element reads (0 outside the input)."""
    pos = _strided_positions(a)
    flat = A.cat.default([A.reshape.default(t[0], [-1]), A.new_zeros.default(t[0], [1])], 0)
    picked = A.index_select.default(flat, 0, _factories.tensor(np.where(pos >= 0, pos, flat.shape[0] - 1)))
    return A.reshape.default(picked, list(a.size))


FORMULAS = {
    "aten::prod": F("ProdBackward0", ("self",), _prod_all, save=("self", "result"),
                    forward=lambda t, a: A.sum.default(mul(t[0], prod_all_d(a.self)))),
    "aten::prod.dim_int": F("ProdBackward1", ("self",), _prod_dim, save=("self",),
                            forward=lambda t, a: t[0] if len(a.self.shape) == 0 else A.sum.dim_IntList(
                                mul(t[0], products_except(a.self, a.dim % len(a.self.shape))), [a.dim],
                                a.keepdim)),
    "aten::cumprod": F("CumprodBackward0", ("self",), _cumprod, save=("self", "result"), forward=_cumprod_fw),
    "aten::aminmax": F("AminmaxBackward0", ("self",), _aminmax, save=("self", "result"), forward=_aminmax_fw),
    "aten::nansum": F("NansumBackward0", ("self",), _nansum, save=("self",), forward=_nan_fw(False)),
    "aten::nanmean": F("NanmeanBackward0", ("self",), _nanmean, save=("self",), forward=_nan_fw(True)),
    "aten::median": F("MedianBackward0", ("self",), lambda g, a, n: (_evenly(g[0], a.self, a.result),),
                      save=("self", "result"),
                      forward=lambda t, a: A.sum.default(
                          mul(_evenly(A.ones_like.default(a.result), a.self, a.result), t[0]))),
    "aten::median.dim": F("MedianBackward1", ("self",), _values_indices, save=("result",),
                          forward=_values_indices_fw),
    "aten::mode": F("ModeBackward0", ("self",), _values_indices, save=("result",), forward=_values_indices_fw),
    "aten::cummax": F("CummaxBackward0", ("self",), _cum_extreme, save=("result",), forward=_cum_extreme_fw),
    "aten::cummin": F("CumminBackward0", ("self",), _cum_extreme, save=("result",), forward=_cum_extreme_fw),
    "aten::masked_select": F("MaskedSelectBackward0", ("self",), _masked_select, save=("mask",),
                             forward=lambda t, a: A.masked_select.default(t[0], a.mask)),
    "aten::as_strided": F("AsStridedBackward0", ("self",), _as_strided, save=("self",), forward=_as_strided_fw),
}


__dir__ = public_dir(globals())
