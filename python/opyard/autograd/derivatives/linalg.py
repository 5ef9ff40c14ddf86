"""Derivatives of trace and cross, and of index_copy, index_fill, scatter_reduce (sum/mean) and unfold
(the factorizations are ``factorizations.py``'s, the decompositions ``decompositions.py``'s).

Matrix formulas are written for batches: ``mT`` is the transpose of the last two dims.
"""

import numpy as np

from ... import _factories
from ._helpers import A, lin, mul
from .registry import Formula as F
from ..._exports import public_dir


def mT(x):
    return A.transpose.int(x, -2, -1)


def _eye_like(x):
    n = x.shape[-1]
    return A.eye.default(n, dtype=x.dtype)


def _trace(grads, a, n):
    rows, cols = a.self.shape
    return (mul(grads[0], A.eye.m(rows, cols, dtype=grads[0].dtype)),)


def _scatter_reduce_fw(t, a):
    if a.reduce not in ("sum", "mean"):
        raise NotImplementedError(f"ScatterReduceBackward0: the forward derivative of scatter_reduce with "
                                  f"reduce='{a.reduce}' is not implemented in opyard (sum and mean are)")
    ts = A.zeros_like.default(a.result) if t[0] is None else t[0]
    tsrc = A.zeros_like.default(a.src) if t[1] is None else t[1]
    return A.scatter_reduce.two(ts, a.dim, a.index, tsrc, a.reduce, include_self=a.include_self)


def _cross(grads, a, n):
    g = grads[0]
    return (A.linalg_cross.default(a.other, g, dim=a.dim) if n[0] else None,
            A.linalg_cross.default(g, a.self, dim=a.dim) if n[1] else None)


def _cross_fw(t, a):
    return lin(None if t[0] is None else A.linalg_cross.default(t[0], a.other, dim=a.dim),
               None if t[1] is None else A.linalg_cross.default(a.self, t[1], dim=a.dim))


def _index_copy(grads, a, n):
    g = grads[0]
    return (A.index_fill.int_Scalar(g, a.dim, a.index, 0) if n[0] else None,
            A.index_select.default(g, a.dim, a.index) if n[1] else None)


def _index_fill_scalar(grads, a, n):
    return (A.index_fill.int_Scalar(grads[0], a.dim, a.index, 0),)


def _index_fill_tensor(grads, a, n):
    """derivatives.yaml: ``value`` gets the sum of ``grad`` over the filled slices, each counted once
    (torch selects the unique indices); here a 0/1 mask of the filled positions along ``dim``."""
    g = grads[0]
    gv = None
    if n[1]:
        if len(g.shape) == 0:
            gv = g
        else:
            d = a.dim % len(g.shape)
            size = g.shape[d]
            mask = A.index_fill.int_Scalar(A.new_zeros.default(g, [size]), 0, a.index, 1)
            view = [1] * len(g.shape)
            view[d] = size
            gv = A.sum.default(A.mul.Tensor(g, A.view.default(mask, view)))
    return (A.index_fill.int_Scalar(g, a.dim, a.index, 0) if n[0] else None, gv)


def _scatter_reduce(grads, a, n):
    g = grads[0]
    if a.reduce not in ("sum", "mean"):
        raise NotImplementedError(f"ScatterReduceBackward0: the gradient of scatter_reduce with reduce="
                                  f"'{a.reduce}' is not implemented in opyard (sum and mean are)")
    hit = A.scatter.value(A.zeros_like.default(g), a.dim, a.index, 1)
    if a.reduce == "mean":
        ones = A.ones_like.default(a.index, dtype=g.dtype)
        count = A.scatter_add.default(A.full_like.default(g, 1 if a.include_self else 0), a.dim, a.index, ones)
        g = A.div.Tensor(g, A.clamp_min.default(count, 1))
    gs = g if a.include_self else mul(g, A.rsub.Scalar(hit, 1))
    return (gs if n[0] else None, A.gather.default(g, a.dim, a.index) if n[1] else None)


def _unfold(grads, a, n):
    """Every window element adds its gradient to the input element it views."""
    g = grads[0]
    shape = list(a.self.shape)
    numel = int(np.prod(shape)) if shape else 1
    positions = A.unfold.default(_factories.arange(numel).reshape(shape or []), a.dimension, a.size, a.step)
    flat = A.index_add.default(A.new_zeros.default(g, [numel]), 0, A.reshape.default(positions, [-1]),
                               A.reshape.default(g, [-1]))
    return (A.reshape.default(flat, shape),)


def _scatter_add(grads, a, n):
    g = grads[0]
    return (g if n[0] else None, A.gather.default(g, a.dim, a.index) if n[1] else None)


def _scatter_add_fw(t, a):
    ts = A.zeros_like.default(a.result) if t[0] is None else t[0]
    return A.scatter_add.default(ts, a.dim, a.index, A.zeros_like.default(a.src) if t[1] is None else t[1])


FORMULAS = {
    "aten::scatter_add": F("ScatterAddBackward0", ("self", "src"), _scatter_add, save=("index",),
                           forward=_scatter_add_fw),
    "aten::movedim.int": F("MovedimBackward0", ("self",),
                           lambda g, a, n: (A.movedim.int(g[0], a.destination, a.source),),
                           forward=lambda t, a: A.movedim.int(t[0], a.source, a.destination)),
    "aten::movedim.intlist": F("MovedimBackward0", ("self",),
                               lambda g, a, n: (A.movedim.intlist(g[0], a.destination, a.source),),
                               forward=lambda t, a: A.movedim.intlist(t[0], a.source, a.destination)),
    "aten::trace": F("TraceBackward0", ("self",), _trace, forward=lambda t, a: A.trace.default(t[0])),
    "aten::linalg_cross": F("LinalgCrossBackward0", ("self", "other"), _cross, save=("self", "other"),
                            save_if={"self": "other", "other": "self"},
                            forward=_cross_fw),
    "aten::index_copy": F("IndexCopyBackward0", ("self", "source"), _index_copy, save=("index",),
                          forward=lambda t, a: A.index_copy.default(
                              A.zeros_like.default(a.result) if t[0] is None else t[0], a.dim, a.index,
                              A.zeros_like.default(a.source) if t[1] is None else t[1])),
    "aten::index_fill.int_Scalar": F("IndexFillBackward0", ("self",), _index_fill_scalar, save=("index",),
                                     forward=lambda t, a: A.index_fill.int_Scalar(t[0], a.dim, a.index, 0)),
    "aten::index_fill.int_Tensor": F("IndexFillBackward1", ("self", "value"), _index_fill_tensor,
                                     save=("index",), forward=lambda t, a: A.index_fill.int_Tensor(
                                         A.zeros_like.default(a.result) if t[0] is None else t[0], a.dim, a.index,
                                         A.zeros_like.default(a.value) if t[1] is None else t[1])),
    "aten::scatter_reduce.two": F("ScatterReduceBackward0", ("self", "src"), _scatter_reduce, save=("index",),
                                  forward=_scatter_reduce_fw),
    "aten::unfold": F("UnfoldBackward0", ("self",), _unfold,
                      forward=lambda t, a: A.unfold.default(t[0], a.dimension, a.size, a.step)),
}


__dir__ = public_dir(globals())
