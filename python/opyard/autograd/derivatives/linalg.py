"""Derivatives of the linear-algebra basics (trace, det, inv, solve, cholesky, eigh, cross) and
of index_copy, index_fill, scatter_reduce (sum/mean) and unfold.

Matrix formulas are written for batches: ``mT`` is the transpose of the last two dims.
"""

import numpy as np

from ... import _factories
from ._helpers import A, lin, mul, sub
from .registry import Formula as F
from ..._exports import public_dir


def mT(x):
    return A.transpose.int(x, -2, -1)


def _eye_like(x):
    n = x.shape[-1]
    return A.eye.default(n, dtype=x.dtype)


def _unsq2(x):
    return A.unsqueeze.default(A.unsqueeze.default(x, -1), -1)


def _trace(grads, a, n):
    rows, cols = a.self.shape
    return (mul(grads[0], A.eye.m(rows, cols, dtype=grads[0].dtype)),)


def _det(grads, a, n):
    # d det = det * inv(A)^T; via solve so a batch of matrices works
    inv_t = mT(A.linalg_inv.default(a.A))
    return (mul(_unsq2(mul(grads[0], a.result)), inv_t),)


def _det_fw(t, a):
    x = A.linalg_solve.default(a.A, t[0])
    return mul(a.result, A.sum.dim_IntList(A.diagonal.default(x, 0, -2, -1), [-1], False))


def _inv(grads, a, n):
    it = mT(a.result)
    return (A.neg.default(A.matmul.default(A.matmul.default(it, grads[0]), it)),)


def _inv_fw(t, a):
    return A.neg.default(A.matmul.default(A.matmul.default(a.result, t[0]), a.result))


def _as_matrix(x, vector):
    return A.unsqueeze.default(x, -1) if vector else x


def _is_vector(a):
    b = len(a.B.shape)
    return b == 1 or (b == len(a.A.shape) - 1 and tuple(a.B.shape) == tuple(a.A.shape[:-1]))


def _solve(grads, a, n):
    vector = _is_vector(a)
    g, X = _as_matrix(grads[0], vector), _as_matrix(a.result, vector)
    if a.left:  # A X = B: gB = A^-T g, gA = -gB X^T
        gB = A.linalg_solve.default(mT(a.A), g)
        gA = A.neg.default(A.matmul.default(gB, mT(X)))
    else:  # X A = B: gB = g A^-T, gA = -X^T gB
        gB = A.linalg_solve.default(mT(a.A), g, left=False)
        gA = A.neg.default(A.matmul.default(mT(X), gB))
    gB = A.squeeze.dim(gB, -1) if vector else gB
    return (gA if n[0] else None, gB if n[1] else None)


def _solve_fw(t, a):
    vector = _is_vector(a)
    X = _as_matrix(a.result, vector)
    tB = None if t[1] is None else _as_matrix(t[1], vector)
    if t[0] is None:
        rhs = tB
    else:
        prod = A.matmul.default(t[0], X) if a.left else A.matmul.default(X, t[0])
        rhs = A.neg.default(prod) if tB is None else sub(tB, prod)
    r = A.linalg_solve.default(a.A, rhs, left=a.left)
    return A.squeeze.dim(r, -1) if vector else r


def _phi(x):
    """Lower triangle with the diagonal halved."""
    return sub(A.tril.default(x), A.mul.Scalar(mul(x, _eye_like(x)), 0.5))


def _cholesky(grads, a, n):
    """Murray (2016): gA = 1/2 (S + S^T), S = L^-T Phi(L^T gL) L^-1."""
    L, g = a.result, grads[0]
    if a.upper:
        L, g = mT(L), mT(g)
    Linv = A.linalg_inv.default(L)
    S = A.matmul.default(A.matmul.default(mT(Linv), _phi(A.matmul.default(mT(L), g))), Linv)
    return (A.mul.Scalar(A.add.Tensor(S, mT(S)), 0.5),)


def _cholesky_fw(t, a):
    """dL = L Phi(L^-1 dA L^-T)."""
    L = mT(a.result) if a.upper else a.result
    Linv = A.linalg_inv.default(L)
    dL = A.matmul.default(L, _phi(A.matmul.default(A.matmul.default(Linv, t[0]), mT(Linv))))
    return mT(dL) if a.upper else dL


def _eigh(grads, a, n):
    """gA = V (diag(gw) + (V^T gV) / E) V^T with E_ij = w_j - w_i off the diagonal."""
    gw, gV = grads
    w, V = a.result
    inner = None
    if gV is not None:
        E = sub(A.unsqueeze.default(w, -2), A.unsqueeze.default(w, -1))
        eye = _eye_like(V)
        E = A.add.Tensor(E, eye)  # the diagonal is masked below; keep it away from 0
        inner = mul(A.div.Tensor(A.matmul.default(mT(V), gV), E), A.rsub.Scalar(eye, 1))
    if gw is not None:
        diag = mul(A.unsqueeze.default(gw, -2), _eye_like(V))
        inner = diag if inner is None else A.add.Tensor(inner, diag)
    return (A.matmul.default(A.matmul.default(V, inner), mT(V)),)


def _eigh_fw(t, a):
    """dw = diag(V^T dA V); dV = V (F o (V^T dA V)), F_ij = 1 / (w_j - w_i) off the diagonal."""
    w, V = a.result
    inner = A.matmul.default(A.matmul.default(mT(V), t[0]), V)
    dw = A.diagonal.default(inner, 0, -2, -1)
    eye = _eye_like(V)
    E = A.add.Tensor(sub(A.unsqueeze.default(w, -2), A.unsqueeze.default(w, -1)), eye)
    dV = A.matmul.default(V, mul(A.div.Tensor(inner, E), A.rsub.Scalar(eye, 1)))
    return (dw, dV)


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
    g = grads[0]
    return (A.index_fill.int_Scalar(g, a.dim, a.index, 0) if n[0] else None,
            A.sum.default(A.index_select.default(g, a.dim, a.index)) if n[1] else None)


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
    "aten::trace": F("TraceBackward0", ("self",), _trace, forward=lambda t, a: A.trace.default(t[0])),
    "aten::linalg_det": F("LinalgDetBackward0", ("A",), _det, save=("A", "result"), forward=_det_fw),
    "aten::linalg_inv": F("LinalgInvExBackward0", ("A",), _inv, save=("result",), forward=_inv_fw),
    "aten::linalg_solve": F("LinalgSolveExBackward0", ("A", "B"), _solve, save=("A", "result"),
                            forward=_solve_fw),
    "aten::linalg_cholesky": F("LinalgCholeskyExBackward0", ("self",), _cholesky, save=("result",),
                               forward=_cholesky_fw),
    "aten::linalg_eigh": F("LinalgEighBackward0", ("self",), _eigh, save=("result",), forward=_eigh_fw),
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
