"""Derivatives of reductions, softmax and matrix products (derivatives.yaml rows)."""

import math

from ..._exports import public_dir
from .. import _tensor_meta as meta
from ._helpers import A, cj, div, expand_reduced, lin, mul, normalize_dims, reduced_count, sub
from .registry import Formula as F


def _sum_all(grads, a, n):
    return (A.expand.default(grads[0], list(a.self.shape)),)


_expand = A.expand.default


def _sum_all_apply(node, grads):
    """``SumBackward0.apply``: ``_sum_all`` on the node's one saved value (``self``'s shape).
    See Note [Direct node apply]."""
    g = grads[0]
    if g is None:
        return (None,)
    return (_expand(g, list(node._saved[0].shape)),)


def _sum_dim(grads, a, n):
    return (expand_reduced(grads[0], a.self.shape, a.dim, a.keepdim),)


def _mean_all(grads, a, n):
    count = max(reduced_count(a.self.shape, None), 1)
    return (A.expand.default(A.div.Scalar(grads[0], count), list(a.self.shape)),)


def _mean_dim(grads, a, n):
    count = max(reduced_count(a.self.shape, a.dim), 1)
    return (expand_reduced(A.div.Scalar(grads[0], count), a.self.shape, a.dim, a.keepdim),)


def _amax_like(grads, a, n):
    """Gradient split evenly between the maximal elements (torch's amax/amin rule)."""
    result = expand_reduced(a.result, a.self.shape, a.dim, a.keepdim)
    mask = A.eq.Tensor(a.self, result)
    count = expand_reduced(A.sum.dim_IntList(mask, normalize_dims(a.dim, len(a.self.shape)), a.keepdim),
                           a.self.shape, a.dim, a.keepdim)
    g = expand_reduced(grads[0], a.self.shape, a.dim, a.keepdim)
    # grad / count * mask, as torch: an all-nan slice (no element equals the result) gets nan.
    return (mul(div(g, count), A._to_copy.default(mask, dtype=meta.dtype(g))),)


def _max_dim(grads, a, n):
    """values/indices reductions: the gradient goes to the selected index."""
    g = grads[0]
    if g is None:
        return (None,)
    idx = a.result[1]
    if not a.keepdim:
        g = A.unsqueeze.default(g, a.dim)
        idx = A.unsqueeze.default(idx, a.dim)
    zeros = A.new_zeros.default(g, list(a.self.shape))
    return (A.scatter.src(zeros, a.dim, idx, g),)


def _softmax(grads, a, n):
    # torch's SoftmaxBackward0: one fused kernel, itself differentiable (create_graph=True works).
    return (A._softmax_backward_data.default(grads[0], a.result, a.dim, meta.dtype(a.self)),)


def _log_softmax(grads, a, n):
    return (A._log_softmax_backward_data.default(grads[0], a.result, a.dim, meta.dtype(a.self)),)


def _var_grad(grads, a, n, std=False):
    dims = a.dim
    correction = _correction(a)
    count = reduced_count(a.self.shape, dims)
    mean = A.mean.dim(a.self, normalize_dims(dims, len(a.self.shape)), True)
    g = expand_reduced(grads[0], a.self.shape, dims, a.keepdim)
    # No degrees of freedom (count == correction) gives an infinite scale, as torch's 2 / 0.
    dof = count - correction
    if std:
        # torch's std_backward: a zero std (constant input) gets a zero gradient, not 0/0.
        std_ = expand_reduced(a.result, a.self.shape, dims, a.keepdim)
        g = A.where.self(A.eq.Scalar(std_, 0), A.zeros_like.default(g), div(g, std_))
        scale = 1.0 / dof if dof else math.inf
    else:
        scale = 2.0 / dof if dof else math.inf
    return (mul(g, A.mul.Scalar(sub(a.self, mean), scale)),)


def _correction(a):
    c = getattr(a, "correction", None)
    if c is not None:
        return c
    return 1 if getattr(a, "unbiased", True) else 0


def _mm(grads, a, n):
    g = grads[0]
    return (A.mm.default(g, cj(A.t.default(a.mat2))) if n[0] else None,
            A.mm.default(cj(A.t.default(a.self)), g) if n[1] else None)


def _bmm(grads, a, n):
    g = grads[0]
    return (A.bmm.default(g, cj(A.transpose.int(a.mat2, 1, 2))) if n[0] else None,
            A.bmm.default(cj(A.transpose.int(a.self, 1, 2)), g) if n[1] else None)


def _addmm(grads, a, n):
    g = grads[0]
    gm1 = A.mul.Scalar(A.mm.default(g, cj(A.t.default(a.mat2))), cj(a.alpha)) if n[1] else None
    gm2 = A.mul.Scalar(A.mm.default(cj(A.t.default(a.mat1)), g), cj(a.alpha)) if n[2] else None
    return (A.mul.Scalar(g, cj(a.beta)) if n[0] else None, gm1, gm2)


def _mv(grads, a, n):
    g = grads[0]
    return (A.mul.Tensor(A.unsqueeze.default(g, 1), cj(A.unsqueeze.default(a.vec, 0))) if n[0] else None,
            A.mv.default(cj(A.t.default(a.self)), g) if n[1] else None)


def _dot(grads, a, n):
    g = grads[0]
    return (mul(g, cj(a.tensor)) if n[0] else None, mul(g, cj(a.self)) if n[1] else None)


def _fw_bilinear(op):
    return lambda t, a: lin(None if t[0] is None else op(t[0], _second(a)),
                            None if t[1] is None else op(a.self, t[1]))


def _second(a):
    for name in ("mat2", "vec", "tensor"):
        if name in a.__dict__:
            return a.__dict__[name]
    raise KeyError("bilinear op without a second operand")


FORMULAS = {
    "aten::sum": F("SumBackward0", ("self",), _sum_all, forward=lambda t, a: A.sum.default(t[0]),
                   node_apply=_sum_all_apply, rust_apply="sum"),
    "aten::sum.dim_IntList": F("SumBackward1", ("self",), _sum_dim,
                               forward=lambda t, a: A.sum.dim_IntList(t[0], a.dim, a.keepdim)),
    "aten::mean": F("MeanBackward0", ("self",), _mean_all, forward=lambda t, a: A.mean.default(t[0]),
                    rust_apply="mean"),
    "aten::mean.dim": F("MeanBackward1", ("self",), _mean_dim,
                        forward=lambda t, a: A.mean.dim(t[0], a.dim, a.keepdim), rust_apply="mean_dim"),
    "aten::amax": F("AmaxBackward0", ("self",), _amax_like, save=("self", "result")),
    "aten::amin": F("AminBackward0", ("self",), _amax_like, save=("self", "result")),
    "aten::max.dim": F("MaxBackward0", ("self",), _max_dim, save=("result",)),
    "aten::min.dim": F("MinBackward0", ("self",), _max_dim, save=("result",)),
    "aten::_softmax": F("SoftmaxBackward0", ("self",), _softmax, save=("result",)),
    "aten::softmax.int": F("SoftmaxBackward0", ("self",), _softmax, save=("result",)),
    "aten::_log_softmax": F("LogSoftmaxBackward0", ("self",), _log_softmax, save=("result",)),
    "aten::log_softmax.int": F("LogSoftmaxBackward0", ("self",), _log_softmax, save=("result",)),
    "aten::var.correction": F("VarBackward0", ("self",), _var_grad, save=("self",)),
    "aten::var.dim": F("VarBackward1", ("self",), _var_grad, save=("self",)),
    "aten::std.correction": F("StdBackward0", ("self",), lambda g, a, n: _var_grad(g, a, n, True),
                              save=("self", "result")),
    "aten::std.dim": F("StdBackward1", ("self",), lambda g, a, n: _var_grad(g, a, n, True),
                       save=("self", "result")),
    "aten::mm": F("MmBackward0", ("self", "mat2"), _mm, save=("self", "mat2"), save_if={"self": "mat2", "mat2": "self"},
                  forward=_fw_bilinear(lambda x, y: A.mm.default(x, y)), rust_apply="mm"),
    "aten::bmm": F("BmmBackward0", ("self", "mat2"), _bmm, save=("self", "mat2"),
                   save_if={"self": "mat2", "mat2": "self"},
                   forward=_fw_bilinear(lambda x, y: A.bmm.default(x, y)), rust_apply="bmm"),
    "aten::addmm": F("AddmmBackward0", ("self", "mat1", "mat2"), _addmm, save=("mat1", "mat2"),
                     save_if={"mat1": "mat2", "mat2": "mat1"},
                     forward=lambda t, a: lin(
                         None if t[0] is None else A.mul.Scalar(t[0], a.beta),
                         None if t[1] is None else A.mul.Scalar(A.mm.default(t[1], a.mat2), a.alpha),
                         None if t[2] is None else A.mul.Scalar(A.mm.default(a.mat1, t[2]), a.alpha)),
                     rust_apply="addmm"),
    "aten::mv": F("MvBackward0", ("self", "vec"), _mv, save=("self", "vec"), save_if={"self": "vec", "vec": "self"},
                  forward=_fw_bilinear(lambda x, y: A.mv.default(x, y))),
    "aten::dot": F("DotBackward0", ("self", "tensor"), _dot, save=("self", "tensor"),
                   save_if={"self": "tensor", "tensor": "self"},
                   forward=_fw_bilinear(lambda x, y: A.dot.default(x, y))),
}

__dir__ = public_dir(globals())
