"""Derivatives of the statistics kernels (``_aten/statistics.py``; derivatives.yaml rows nanmedian,
logcumsumexp, renorm, dist and segment_reduce), built from differentiable ops so ``create_graph=True``
works, except ``segment_reduce``'s, which is torch's backward kernel (no second derivative, as in
torch). The unique family, bincount and the histograms record torch's nodes whose backward refuses
(``not_implemented``, or torch's ``NotImplemented`` node where derivatives.yaml has no row); histc's
counts never require grad."""

from types import SimpleNamespace

from ... import _dtype as D
from ._helpers import A, cj, div, mul, neg, sub
from .reduce_more import _evenly, _values_indices, _values_indices_fw
from .registry import Formula as F
from .vector_norms import _vector_norm, _vector_norm_fw
from ..._exports import public_dir


def _norm_backward(g, x, p, norm, dims, keepdim):
    """torch's ``norm_backward``: d ||x||_p (over ``dims``) / dx applied to ``g``."""
    a = SimpleNamespace(self=x, result=norm, ord=p, dim=dims, keepdim=keepdim)
    return _vector_norm((g,), a, None)[0]


# --- logcumsumexp ------------------------------------------------------------------------------


def _reverse_logcumsumexp(x, dim):
    return A.flip.default(A.logcumsumexp.default(A.flip.default(x, [dim]), dim), [dim])


def _logcumsumexp(grads, a, n):
    """torch's ``logcumsumexp_backward``: the positive and negative parts of the gradient summed in
    log space from the right (complex: the conjugate gradient's log, no split)."""
    g = grads[0]
    x, result = a.self, a.result
    if len(g.shape) == 0 or g.numel() == 0:
        return (g,)
    dim = a.dim % len(x.shape)
    if not x.dtype.is_complex:
        lowest = A.full_like.default(g, float(-D.finfo(g.dtype).max))
        log_abs = A.log.default(A.abs.default(g))
        pos = A.where.self(A.gt.Scalar(g, 0), log_abs, lowest)
        neg_ = A.where.self(A.lt.Scalar(g, 0), log_abs, lowest)
        out_pos = A.exp.default(A.add.Tensor(_reverse_logcumsumexp(sub(pos, result), dim), x))
        out_neg = A.exp.default(A.add.Tensor(_reverse_logcumsumexp(sub(neg_, result), dim), x))
        return (sub(out_pos, out_neg),)
    log_g = A.log.default(A.conj.default(g))
    r = A.exp.default(A.add.Tensor(_reverse_logcumsumexp(sub(log_g, result), dim), x))
    return (A.conj.default(r),)


def _logcumsumexp_fw(t, a):
    """torch's ``logcumsumexp_jvp``: the tangent weighted by ``exp(x - max)``, both cumulated."""
    x, dx = a.self, t[0]
    if len(x.shape) == 0:
        return dx
    dim = a.dim % len(x.shape)
    real = A.real.default(x) if x.dtype.is_complex else x
    shift = A.amax.default(real, [dim], True)
    e = A.exp.default(sub(x, shift))
    return div(A.cumsum.default(mul(dx, e), dim), A.cumsum.default(e, dim))


# --- renorm and dist ---------------------------------------------------------------------------


def _renorm(grads, a, n):
    """torch's ``renorm_backward``: where a slice was scaled, the scale's own derivative through the
    slice's norm joins the scaled gradient."""
    g = grads[0]
    x = a.self
    nd = len(x.shape)
    dim = a.dim % nd
    dims = [i for i in range(nd) if i != dim]
    p, maxnorm = float(a.p), float(a.maxnorm)
    acc = D.float32 if x.dtype in (D.float16, D.bfloat16) else None
    norm = A.linalg_vector_norm.default(x, p, dims, True, dtype=acc)
    grad_output = mul(cj(x), g)
    if x.dtype.is_complex:
        grad_output = A.real.default(grad_output)
    grad_output = A.sum.dim_IntList(grad_output, dims, True, dtype=norm.dtype)
    nb = _norm_backward(grad_output, x, p, norm, dims, True)
    invnorm = A.reciprocal.default(A.add.Scalar(norm, 1e-7))
    factor = mul(invnorm, maxnorm)
    scaled = sub(mul(factor, g), mul(mul(factor, invnorm), nb))
    return (A.where.self(A.gt.Scalar(norm, maxnorm), scaled, g),)


def _renorm_fw(t, a):
    """torch's ``renorm_jvp``: the tangent scaled by the factor, plus the input times the factor's own
    derivative through the slice norms where a slice is scaled."""
    x, dx = a.self, t[0]
    nd = len(x.shape)
    dim = a.dim % nd
    dims = [i for i in range(nd) if i != dim]
    p, maxnorm = float(a.p), float(a.maxnorm)
    acc = D.float32 if x.dtype in (D.float16, D.bfloat16) else None
    norm = A.linalg_vector_norm.default(x, p, dims, True, dtype=acc)
    norm_t = _vector_norm_fw((dx,), SimpleNamespace(self=x, result=norm, ord=p, dim=dims, keepdim=True))
    eps_norm = A.add.Scalar(norm, 1e-7)
    scaled = A.gt.Scalar(norm, maxnorm)
    factor = A.where.self(scaled, div(A.full_like.default(norm, maxnorm), eps_norm), A.ones_like.default(norm))
    factor_t = A.where.self(scaled, div(mul(norm_t, -maxnorm), mul(eps_norm, eps_norm)), A.zeros_like.default(norm))
    return A.add.Tensor(mul(dx, factor), mul(x, factor_t))


def _dist(grads, a, n):
    """``norm_backward`` of ``self - other``: the gradient of ``self``, and its negation for ``other``."""
    diff = A.sub.Tensor(a.self, a.other)
    g = _norm_backward(grads[0], diff, float(a.p), a.result, None, False)
    return (g if n[0] else None, neg(g) if n[1] else None)


def _dist_fw(t, a):
    diff = A.sub.Tensor(a.self, a.other)
    ts = [x for x in t]
    dx = ts[0] if ts[0] is not None else None
    if ts[1] is not None:
        dx = neg(ts[1]) if dx is None else sub(dx, ts[1])
    shape = list(diff.shape)
    dx = A.expand.default(dx, shape) if list(dx.shape) != shape else dx
    return _vector_norm_fw((dx,), SimpleNamespace(self=diff, result=a.result, ord=float(a.p), dim=None, keepdim=False))


# --- segment_reduce ----------------------------------------------------------------------------


def _segment_reduce(grads, a, n):
    return (A._segment_reduce_backward.default(grads[0], a.result, a.data, a.reduce, lengths=a.lengths,
                                               offsets=a.offsets, axis=a.axis, initial=a.initial),)


FORMULAS = {
    "aten::nanmedian": F("NanmedianBackward0", ("self",), lambda g, a, n: (_evenly(g[0], a.self, a.result),),
                         save=("self", "result"),
                         forward=lambda t, a: A.sum.default(
                             mul(_evenly(A.ones_like.default(a.result), a.self, a.result), t[0]))),
    "aten::nanmedian.dim": F("NanmedianBackward1", ("self",), _values_indices, save=("result",),
                             forward=_values_indices_fw),
    "aten::logcumsumexp": F("LogcumsumexpBackward0", ("self",), _logcumsumexp, save=("self", "result"),
                            forward=_logcumsumexp_fw),
    "aten::renorm": F("RenormBackward0", ("self",), _renorm, save=("self",), forward=_renorm_fw),
    "aten::dist": F("DistBackward0", ("self", "other"), _dist, save=("self", "other", "result"), forward=_dist_fw),
    "aten::segment_reduce": F("SegmentReduceBackward0", ("data",), _segment_reduce,
                              save=("data", "lengths", "offsets", "result")),
}



def _refused(message, error=NotImplementedError):
    """derivatives.yaml's ``not_implemented`` (and torch's fallback node for an operator with no row):
    the node records, its backward raises torch's message."""
    def backward(grads, a, n):
        raise error(message)
    return backward


def _unique_node(node, op, outputs):
    return F(node, ("self",), _refused(f"the derivative for '{op}' is not implemented."), outputs=outputs)


def _no_row(op, diff):
    """An operator derivatives.yaml has no row for: torch's ``NotImplemented`` node over its tensor
    arguments, every floating result requiring grad."""
    return F("NotImplemented", diff, _refused(f"derivative for aten::{op} is not implemented", RuntimeError))


FORMULAS.update({
    "aten::_unique2": _unique_node("Unique2Backward0", "_unique2", (True, False, False)),
    "aten::_unique": _unique_node("UniqueBackward0", "_unique", (True, False)),
    "aten::unique_dim": _unique_node("UniqueDimBackward0", "unique_dim", (True, False, False)),
    "aten::unique_consecutive": _unique_node("UniqueConsecutiveBackward0", "unique_consecutive", (True, False, False)),
    "aten::unique_dim_consecutive": _unique_node("UniqueDimConsecutiveBackward0", "unique_dim_consecutive",
                                                 (True, False, False)),
    "aten::bincount": _no_row("bincount", ("weights",)),
    "aten::histogram.bins_tensor": _no_row("histogram", ("self", "bins", "weight")),
    "aten::histogram.bin_ct": _no_row("histogram", ("self", "weight")),
    "aten::_histogramdd_bin_edges": _no_row("_histogramdd_bin_edges", ("self", "weight")),
    "aten::_histogramdd_from_bin_cts": _no_row("_histogramdd_from_bin_cts", ("self", "weight")),
    "aten::_histogramdd_from_bin_tensors": _no_row("_histogramdd_from_bin_tensors", ("self", "bins", "weight")),
    "aten::_segment_reduce_backward": _no_row("_segment_reduce_backward", ("grad", "output", "data")),
})

# histc's counts never require grad (derivatives.yaml: output_differentiability [False]).
NON_DIFFERENTIABLE = ("aten::histc",)


__dir__ = public_dir(globals())
