"""Forward-mode formulas (jvp) of derivative-table rows defined in the other modules.

``FORWARD`` maps an overload to ``forward(t, a)``: ``t`` one tangent per differentiable
argument (None: zero), ``a`` the call's arguments by schema name plus ``result``. The
value-selecting reductions (max.dim, sort, topk, ...) read the tangent at the selected
indices; the even-split ones (amax, max()) average it over the tied elements, as torch's
``evenly_read_jvp``; ``prod`` uses the product of the other elements, so zeros are exact.
"""

import math

from ._helpers import A, div, lin, mul, normalize_dims, sub
from .math import fit
from ..._exports import public_dir


def _gather_along(t, dim, indices, keepdim):
    """``t`` read at ``indices`` (the indices output of a values/indices reduction along ``dim``)."""
    if len(t.shape) == 0:
        return t
    if keepdim:
        return A.gather.default(t, dim, indices)
    return A.squeeze.dim(A.gather.default(t, dim, A.unsqueeze.default(indices, dim)), dim)


def _values_indices(keepdim_default):
    def fw(t, a):
        keepdim = getattr(a, "keepdim", keepdim_default)
        return (_gather_along(t[0], a.dim, a.result[1], keepdim), None)
    return fw


def _sorted_like(t, a):
    return (A.gather.default(t[0], a.dim, a.result[1]) if len(t[0].shape) else t[0], None)


def _evenly_read(t, a, dims, keepdim):
    """mean of the tangent over the elements equal to the (broadcast) result."""
    nd = len(a.self.shape)
    dims = normalize_dims(dims, nd)
    result = a.result if keepdim or nd == 0 else _unsqueeze_all(a.result, dims)
    mask = A.eq.Tensor(a.self, result)
    masked = A.where.self(mask, t[0], A.zeros_like.default(t[0]))
    count = A.sum.dim_IntList(mask, dims, keepdim)
    return div(A.sum.dim_IntList(masked, dims, keepdim), count)


def _unsqueeze_all(x, dims):
    for d in sorted(dims):
        x = A.unsqueeze.default(x, d)
    return x


def _softmax_fw(t, a):
    y = a.result
    ty = mul(t[0], y)
    return sub(ty, mul(y, A.sum.dim_IntList(ty, [a.dim], True)))


def _log_softmax_fw(t, a):
    p = A.exp.default(a.result)
    return sub(t[0], A.sum.dim_IntList(mul(t[0], p), [a.dim], True))


def _correction(a):
    c = getattr(a, "correction", None)
    if c is not None:
        return c
    return 1 if getattr(a, "unbiased", True) else 0


def _var_fw(t, a):
    """d var = 2 / (N - c) * sum((x - mean) * t)."""
    nd = len(a.self.shape)
    dims = normalize_dims(getattr(a, "dim", None), nd)
    count = 1
    for d in dims:
        count *= a.self.shape[d]
    centered = sub(a.self, A.mean.dim(a.self, dims, True))
    s = A.sum.dim_IntList(mul(centered, t[0]), dims, a.keepdim if hasattr(a, "keepdim") else False)
    c = _correction(a)
    return A.mul.Scalar(s, 2.0 / (count - c) if count != c else math.inf)


def _std_fw(t, a):
    return div(_var_fw(t, a), A.mul.Scalar(a.result, 2))


def _minmax_fw(pick_self):
    def fw(t, a):
        cmp = A.gt.Tensor if pick_self else A.lt.Tensor
        wins = cmp(a.self, a.other)
        tie = A.eq.Tensor(a.self, a.other)
        ts = A.zeros_like.default(a.result) if t[0] is None else fit(t[0], a.result)
        to = A.zeros_like.default(a.result) if t[1] is None else fit(t[1], a.result)
        return A.where.self(wins, ts, A.where.self(tie, A.mul.Scalar(A.add.Tensor(ts, to), 0.5), to))
    return fw


def _masked_fill_tensor_fw(t, a):
    ts = A.zeros_like.default(a.result) if t[0] is None else fit(t[0], a.result)
    tv = A.zeros_like.default(a.result) if t[1] is None else A.expand.default(t[1], list(a.result.shape))
    return A.where.self(a.mask, tv, ts)


def _scatter_src_fw(t, a):
    ts = A.zeros_like.default(a.result) if t[0] is None else t[0]
    return A.scatter.src(ts, a.dim, a.index, A.zeros_like.default(a.src) if t[1] is None else t[1])


def _index_put_fw(t, a):
    ts = A.zeros_like.default(a.result) if t[0] is None else t[0]
    tv = A.zeros_like.default(a.values) if t[1] is None else t[1]
    return A.index_put.default(ts, list(a.indices), tv, a.accumulate)


def _index_add_fw(t, a):
    ts = A.zeros_like.default(a.result) if t[0] is None else t[0]
    tv = A.zeros_like.default(a.source) if t[1] is None else t[1]
    return A.index_add.default(ts, a.dim, a.index, tv, alpha=a.alpha)


def _pieces(op):
    return lambda t, a: tuple(op(t[0], a))


def _zero(t, a):
    return A.zeros_like.default(a.result)


def _div_mode_fw(t, a):
    if a.rounding_mode is not None:
        return _zero(t, a)
    ts = None if t[0] is None else div(t[0], a.other)
    to = None if len(t) < 2 or t[1] is None else A.neg.default(div(mul(t[1], a.self), mul(a.other, a.other)))
    return fit(lin(ts, to), a.result)


def _fmod_tensor_fw(t, a):
    ts = None if t[0] is None else t[0]
    to = None if t[1] is None else A.neg.default(mul(t[1], A.trunc.default(div(a.self, a.other))))
    return fit(lin(ts, to), a.result)


FORWARD = {
    "aten::amax": lambda t, a: _evenly_read(t, a, a.dim, a.keepdim),
    "aten::amin": lambda t, a: _evenly_read(t, a, a.dim, a.keepdim),
    "aten::max": lambda t, a: _evenly_read(t, a, None, False),
    "aten::min": lambda t, a: _evenly_read(t, a, None, False),
    "aten::max.dim": _values_indices(False),
    "aten::min.dim": _values_indices(False),
    "aten::kthvalue": _values_indices(False),
    "aten::sort": _sorted_like,
    "aten::sort.stable": _sorted_like,
    "aten::topk": _sorted_like,
    "aten::_softmax": _softmax_fw,
    "aten::softmax.int": _softmax_fw,
    "aten::_log_softmax": _log_softmax_fw,
    "aten::log_softmax.int": _log_softmax_fw,
    "aten::var.correction": _var_fw,
    "aten::var.dim": _var_fw,
    "aten::std.correction": _std_fw,
    "aten::std.dim": _std_fw,
    "aten::maximum": _minmax_fw(True),
    "aten::max.other": _minmax_fw(True),
    "aten::min.other": _minmax_fw(False),
    "aten::minimum": _minmax_fw(False),
    "aten::gather": lambda t, a: A.gather.default(t[0], a.dim, a.index),
    "aten::index_select": lambda t, a: A.index_select.default(t[0], a.dim, a.index),
    "aten::index_put": _index_put_fw,
    "aten::index_add": _index_add_fw,
    "aten::masked_fill.Scalar": lambda t, a: A.masked_fill.Scalar(fit(t[0], a.result), a.mask, 0),
    "aten::masked_fill.Tensor": _masked_fill_tensor_fw,
    "aten::scatter.src": _scatter_src_fw,
    "aten::scatter.value": lambda t, a: A.scatter.value(t[0], a.dim, a.index, 0),
    "aten::outer": lambda t, a: lin(None if t[0] is None else A.outer.default(t[0], a.vec2),
                                    None if t[1] is None else A.outer.default(a.self, t[1])),
    "aten::split.Tensor": _pieces(lambda x, a: A.split.Tensor(x, a.split_size, a.dim)),
    "aten::split.sizes": _pieces(lambda x, a: A.split.sizes(x, a.split_size, a.dim)),
    "aten::split_with_sizes": _pieces(lambda x, a: A.split_with_sizes.default(x, a.split_sizes, a.dim)),
    "aten::chunk": _pieces(lambda x, a: A.chunk.default(x, a.chunks, a.dim)),
    "aten::unbind.int": _pieces(lambda x, a: A.unbind.int(x, a.dim)),
    "aten::div.Tensor_mode": _div_mode_fw,
    "aten::div.Scalar_mode": _div_mode_fw,
    "aten::pow.Scalar": lambda t, a: mul(t[0], A.mul.Scalar(a.result, math.log(a.self))),
    "aten::fmod.Tensor": _fmod_tensor_fw,
    "aten::fill_.Scalar": _zero, "aten::zero_": _zero, "aten::uniform_": _zero, "aten::normal_": _zero,
    "aten::round": _zero, "aten::round.decimals": _zero, "aten::sign": _zero, "aten::floor": _zero,
    "aten::ceil": _zero,
    # The in-place comparisons (derivatives.yaml: ``result: self_t.zero_()``).
    **{f"aten::{op}_.{over}": _zero for op in ("eq", "ne", "lt", "le", "gt", "ge") for over in ("Tensor", "Scalar")},
}


def attach(formulas):
    """Give the rows of ``formulas`` named in ``FORWARD`` their forward formula."""
    for name, fw in FORWARD.items():
        row = formulas.get(name)
        if row is not None and row.forward is None:
            row.forward = fw


__dir__ = public_dir(globals())
