"""Derivatives of the factorizations and the solves built on them (torch's FunctionsManual.cpp
formulas): Cholesky, LU (``linalg_lu_factor_ex``, ``linalg_lu``, ``lu_unpack``, ``linalg_lu_solve``),
inverse, solve, determinants, triangular and Cholesky solves, Cholesky inverses, and the Householder
products (``linalg_householder_product``, ``ormqr``). Written for batches of real or complex
matrices with differentiable ops, so the formulas differentiate again.
"""

import numpy as np

from ..grad_mode import is_grad_enabled
from ._helpers import A, add, mul, sub
from .registry import Formula as F
from ..._exports import public_dir


def mh(x):
    """The conjugate transpose of the last two dims."""
    return A.adjoint.default(x)


def mt(x):
    return A.transpose.int(x, -2, -1)


def real_if(g, like):
    """torch's ``handle_r_to_c``: the real part of ``g`` for a real input."""
    return A.real.default(g) if g.dtype.is_complex and not like.dtype.is_complex else g


def _solve_tri(a, b, upper, left=True, unit=False):
    return A.linalg_solve_triangular.default(a, b, upper=upper, left=left, unitriangular=unit)


def _diag_embed_like(d, like):
    """``diag_embed(d)`` built from ops (``d``: ``(*, n)``; ``like``: ``(*, n, n)``)."""
    n = like.shape[-1]
    return mul(A.unsqueeze.default(d, -1), A.eye.default(n, dtype=d.dtype))


# --- Cholesky, inverse, solve ------------------------------------------------------------------------


def _phi(x):
    """The lower triangle with the diagonal halved."""
    n = x.shape[-1]
    return sub(A.tril.default(x), mul(mul(x, A.eye.default(n, dtype=x.dtype)), 0.5))


def _cholesky_ex(grads, a, n):
    """Murray (2016), as torch's ``cholesky_backward``: gA = L^-H X L^-1 with X Hermitian from the
    lower triangle of L^H gL (its diagonal halved)."""
    gL = grads[0]
    if gL is None:
        return (None,)
    L = a.result[0]
    if a.upper:
        L, gL = mh(L), mh(gL)
    T = A.tril.default(A.matmul.default(mh(L), gL))
    X = mul(add(T, mh(A.tril.default(T, -1))), 0.5)
    return (_solve_tri(L, _solve_tri(mh(L), X, upper=True), upper=False, left=False),)


def _cholesky_ex_fw(t, a):
    """dL = L Phi(L^-1 dA L^-H)."""
    L = mh(a.result[0]) if a.upper else a.result[0]
    inner = _solve_tri(mh(L), _solve_tri(L, t[0], upper=False), upper=True, left=False)
    dL = A.matmul.default(L, _phi(inner))
    return (mh(dL) if a.upper else dL, None)


def _inv_ex(grads, a, n):
    g = grads[0]
    if g is None:
        return (None,)
    inv_h = mh(a.result[0])
    return (A.neg.default(A.matmul.default(inv_h, A.matmul.default(g, inv_h))),)


def _inv_ex_fw(t, a):
    inv = a.result[0]
    return (A.neg.default(A.matmul.default(A.matmul.default(inv, t[0]), inv)), None)


def _is_vector(a):
    b = len(a.B.shape)
    return b == 1 or (b == len(a.A.shape) - 1 and tuple(a.B.shape) == tuple(a.A.shape[:-1]))


def _as_matrix(x, vector):
    return A.unsqueeze.default(x, -1) if vector else x


def _solve_ex(grads, a, n):
    """gB = A^-H g (left) or g A^-H; gA = -gB X^H (left) or -X^H gB."""
    g = grads[0]
    if g is None:
        return (None, None)
    vector = _is_vector(a)
    g, X = _as_matrix(g, vector), _as_matrix(a.result[0], vector)
    gB = A.linalg_solve.default(mh(a.A), g, left=a.left)
    gA = None
    if n[0]:
        gA = A.neg.default(A.matmul.default(gB, mh(X)) if a.left else A.matmul.default(mh(X), gB))
    if vector:
        gB = A.squeeze.dim(gB, -1)
    return (gA, gB if n[1] else None)


def _solve_ex_fw(t, a):
    vector = _is_vector(a)
    X = _as_matrix(a.result[0], vector)
    tB = None if t[1] is None else _as_matrix(t[1], vector)
    if t[0] is None:
        rhs = tB
    else:
        prod = A.matmul.default(t[0], X) if a.left else A.matmul.default(X, t[0])
        rhs = A.neg.default(prod) if tB is None else sub(tB, prod)
    r = A.linalg_solve.default(a.A, rhs, left=a.left)
    return (A.squeeze.dim(r, -1) if vector else r, None, None, None)


def _eps(dtype):
    return float(np.finfo(dtype.np).eps)


def _det(grads, a, n):
    """gA = g conj(det) A^-H; a singular A uses its LU with the zero pivots nudged to eps, or the
    SVD when a second derivative is being recorded (torch's ``linalg_det_backward``)."""
    g = grads[0]
    if g is None:
        return (None,)
    det, LU, pivots = a.result
    d = _diag_embed_like(A.expand.default(A.unsqueeze.default(mul(g, A.conj.default(det)), -1),
                                          list(pivots.shape)), LU)
    if not is_grad_enabled():
        diag = A.diagonal.default(LU, 0, -2, -1)
        eps = _eps(LU.dtype)
        nudge = A.mul.Scalar(A._to_copy.default(A.eq.Scalar(diag, 0), dtype=LU.dtype), eps)
        LU_ = add(LU, _diag_embed_like(nudge, LU))
        return (A.linalg_lu_solve.default(LU_, pivots, d, adjoint=True),)
    return (A.linalg_solve.default(mh(a.A), d),)


def _det_fw(t, a):
    det = a.result[0]
    x = A.linalg_solve.default(a.A, t[0])
    return (mul(det, A.sum.dim_IntList(A.diagonal.default(x, 0, -2, -1), [-1], False)), None, None)


def _slogdet(grads, a, n):
    """Only ``logabsdet`` carries a gradient for real inputs; for complex ones the sign's phase too:
    ``g = g_logabsdet - i Im(g_sign conj(sign))``, gA = (g I) A^-H."""
    g_sign, g_log = grads[0], grads[1]
    sign, _, LU, pivots = a.result
    complex_ = a.A.dtype.is_complex
    if not complex_ and g_log is None:
        return (None,)
    g = g_log
    if complex_:
        g = A._to_copy.default(g, dtype=sign.dtype) if g is not None else None
        if g_sign is not None:
            phase = A.mul.Scalar(A._to_copy.default(A.imag.default(mul(g_sign, A.conj.default(sign))),
                                                    dtype=sign.dtype), 1j)
            g = A.neg.default(phase) if g is None else sub(g, phase)
    if g is None:
        return (None,)
    d = _diag_embed_like(A.expand.default(A.unsqueeze.default(g, -1), list(pivots.shape)), LU)
    if not is_grad_enabled():
        return (A.linalg_lu_solve.default(LU, pivots, A._to_copy.default(d, dtype=LU.dtype), adjoint=True),)
    return (A.linalg_solve.default(mh(a.A), A._to_copy.default(d, dtype=LU.dtype)),)


def _slogdet_fw(t, a):
    x = A.linalg_solve.default(a.A, t[0])
    tr = A.sum.dim_IntList(A.diagonal.default(x, 0, -2, -1), [-1], False)
    if a.A.dtype.is_complex:
        sign = a.result[0]
        return (mul(sign, A.mul.Scalar(A._to_copy.default(A.imag.default(tr), dtype=sign.dtype), 1j)),
                A.real.default(tr), None, None)
    return (A.zeros_like.default(a.result[0]), tr, None, None)


# --- LU ----------------------------------------------------------------------------------------------


def lu_backward(gL, gU, P, L, U, pivot):
    """torch's ``linalg_lu_backward``: A = P L U for square, wide and tall A."""
    if gL is None and gU is None:
        return None
    m, k, ncols = L.shape[-2], L.shape[-1], U.shape[-1]
    if m == ncols:
        gA = None
        if gL is not None:
            gA = A.tril.default(A.matmul.default(mh(L), gL), -1)
        if gU is not None:
            term = A.triu.default(A.matmul.default(gU, mh(U)))
            gA = term if gA is None else add(gA, term)
        gA = _solve_tri(mh(U), gA, upper=False, left=False)
        gA = _solve_tri(mh(L), gA, upper=True, unit=True)
    elif m < ncols:  # wide: U = [U1 U2]
        U1 = A.narrow.default(U, -1, 0, k)
        gA = A.matmul.default(mh(L), gL) if gL is not None else None
        if gU is not None:
            term = A.matmul.default(A.triu.default(gU), mh(U))
            gA = A.neg.default(term) if gA is None else sub(gA, term)
        gA = _solve_tri(mh(U1), A.tril.default(gA, -1), upper=False, left=False)
        if gU is not None:
            gA = A.cat.default([add(gA, A.triu.default(A.narrow.default(gU, -1, 0, k))),
                                A.narrow.default(gU, -1, k, ncols - k)], -1)
        gA = _solve_tri(mh(L), gA, upper=True, unit=True)
        if gU is None:
            gA = A.cat.default([gA, A.zeros_like.default(A.narrow.default(U, -1, k, ncols - k))], -1)
    else:  # tall: L = [L1; L2]
        L1 = A.narrow.default(L, -2, 0, k)
        gA = A.matmul.default(gU, mh(U)) if gU is not None else None
        if gL is not None:
            term = A.matmul.default(mh(L), A.tril.default(gL, -1))
            gA = A.neg.default(term) if gA is None else sub(gA, term)
        gA = _solve_tri(mh(L1), A.triu.default(gA), upper=True, unit=True)
        if gL is not None:
            gA = A.cat.default([add(gA, A.tril.default(A.narrow.default(gL, -2, 0, k), -1)),
                                A.narrow.default(gL, -2, k, m - k)], -2)
        gA = _solve_tri(mh(U), gA, upper=False, left=False)
        if gL is None:
            gA = A.cat.default([gA, A.zeros_like.default(A.narrow.default(L, -2, k, m - k))], -2)
    return A.matmul.default(P, gA) if pivot else gA


def _lu_factor_ex(grads, a, n):
    g = grads[0]
    if g is None:
        return (None,)
    LU, pivots = a.result[0], a.result[1]
    P, L, U = A.lu_unpack.default(LU, pivots, True, a.pivot)
    k = min(LU.shape[-2], LU.shape[-1])
    return (lu_backward(A.narrow.default(g, -1, 0, k), A.narrow.default(g, -2, 0, k), P, L, U, a.pivot),)


def _lu(grads, a, n):
    P, L, U = a.result
    return (lu_backward(grads[1], grads[2], P, L, U, a.pivot),)


def _lu_unpack(grads, a, n):
    """The L gradient below the diagonal and the U gradient on and above it, in LU's shape."""
    gL, gU = grads[1], grads[2]
    if gL is None and gU is None:
        return (None, None)
    m, ncols = a.LU_data.shape[-2], a.LU_data.shape[-1]
    k = min(m, ncols)
    parts = []
    if gL is not None:
        low = A.tril.default(gL, -1)
        if ncols > k:
            shape = list(low.shape)
            shape[-1] = ncols - k
            low = A.cat.default([low, A.new_zeros.default(low, shape)], -1)
        parts.append(low)
    if gU is not None:
        up = A.triu.default(gU)
        if m > k:
            shape = list(up.shape)
            shape[-2] = m - k
            up = A.cat.default([up, A.new_zeros.default(up, shape)], -2)
        parts.append(up)
    g = parts[0] if len(parts) == 1 else add(parts[0], parts[1])
    return (g, None)


def _lu_solve(grads, a, n):
    """torch's ``linalg_lu_solve_LU`` for ``LU`` and a solve with the adjoint for ``B``."""
    gX = grads[0]
    if gX is None:
        return (None, None, None)
    LU, pivots, X, left, adjoint = a.LU, a.pivots, a.result, a.left, a.adjoint
    gB = A.linalg_lu_solve.default(LU, pivots, gX, left=left, adjoint=not adjoint) if n[2] else None
    gLU = None
    if n[0]:
        P, L, U = A.lu_unpack.default(LU, pivots, True, left == adjoint)
        if left != adjoint:
            gR = _solve_tri(mh(U), A.neg.default(A.matmul.default(gX if left else mh(gX), mh(X) if left else X)),
                            upper=False)
            gL = A.tril.default(_solve_tri(mh(L), A.matmul.default(gR, mh(U)), upper=True, unit=True), -1)
            gLU = add(gL, A.triu.default(gR))
        else:
            gR = A.neg.default(A.matmul.default(A.matmul.default(A.matmul.default(mt(P), X if left else mh(X)),
                                                                  mh(gX) if left else gX), P))
            gR = _solve_tri(mh(L), gR, upper=True, left=False, unit=True)
            gU = A.triu.default(_solve_tri(mh(U), A.matmul.default(mh(L), gR), upper=False, left=False))
            gLU = add(A.tril.default(gR, -1), gU)
    return (gLU, None, gB)


# --- triangular solves, Cholesky solves and inverses ----------------------------------------------------


def _solve_triangular(grads, a, n):
    g = grads[0]
    if g is None:
        return (None, None)
    gB = _solve_tri(mh(a.self), g, upper=not a.upper, left=a.left, unit=a.unitriangular)
    gA = None
    if n[0]:
        Xh = mh(a.result)
        gA = A.neg.default(A.matmul.default(gB, Xh) if a.left else A.matmul.default(Xh, gB))
        gA = A.triu.default(gA, int(a.unitriangular)) if a.upper else A.tril.default(gA, -int(a.unitriangular))
    return (gA, gB if n[1] else None)


def _solve_triangular_fw(t, a):
    tA, tB = t
    X = a.result
    rhs = tB
    if tA is not None:
        tA = A.triu.default(tA, int(a.unitriangular)) if a.upper else A.tril.default(tA, -int(a.unitriangular))
        prod = A.matmul.default(tA, X) if a.left else A.matmul.default(X, tA)
        rhs = A.neg.default(prod) if rhs is None else sub(rhs, prod)
    return _solve_tri(a.self, rhs, upper=a.upper, left=a.left, unit=a.unitriangular)


def _triangular_solve(grads, a, n):
    """torch's ``triangular_solve_backward``: the solution's gradient through a solve with the
    transposed triangle, and the cloned coefficient's gradient added to A's."""
    gX, gM = grads
    if gX is None and gM is None:
        return (None, None)
    gb = ga = None
    if gX is not None:
        gb = A.triangular_solve.default(gX, A.conj.default(a.A), a.upper, not a.transpose, a.unitriangular)[0]
        if n[1]:
            X = a.result[0]
            ga = A.neg.default(A.matmul.default(A.conj.default(X), mt(gb)) if a.transpose else
                               A.matmul.default(gb, mh(X)))
            ga = A.triu.default(ga, int(a.unitriangular)) if a.upper else A.tril.default(ga, -int(a.unitriangular))
    if n[1] and gM is not None:
        ga = gM if ga is None else add(ga, gM)
    return (gb if n[0] else None, ga if n[1] else None)


def _cholesky_solve(grads, a, n):
    g = grads[0]
    if g is None:
        return (None, None)
    gself = A.cholesky_solve.default(g, a.input2, a.upper)
    g2 = None
    if n[1]:
        common = A.matmul.default(gself, mh(a.result))
        common = add(common, mh(common))
        g2 = A.neg.default(A.matmul.default(a.input2, common) if a.upper else A.matmul.default(common, a.input2))
    return (gself if n[0] else None, g2)


def _cholesky_inverse(grads, a, n):
    g = grads[0]
    if g is None:
        return (None,)
    inv = a.result
    common = A.matmul.default(inv, A.matmul.default(add(g, mh(g)), inv))
    return (A.neg.default(A.matmul.default(a.self, common) if a.upper else A.matmul.default(common, a.self)),)


# --- Householder products ------------------------------------------------------------------------------


def _reflectors(inp, k):
    """The Householder vectors of ``geqrf``'s storage: ``(*, m, k)``, unit diagonal, zeros above."""
    m = inp.shape[-2]
    v = A.tril.default(A.narrow.default(inp, -1, 0, k), -1)
    return add(v, A.eye.m(m, k, dtype=inp.dtype))


def _householder(v, tau, i, conj):
    """``H_i = I - tau_i v_i v_i^H`` (``H_i^H`` with ``conj``) as ``(vi, ti)``: ``H X = X - ti vi (vi^H X)``."""
    vi = A.select.int(v, -1, i)
    ti = A.select.int(tau, -1, i)
    return vi, (A.conj.default(ti) if conj else ti)


def _apply(vi, ti, x, left):
    """``H x`` (``left``) or ``x H`` for ``H = I - ti vi vi^H``."""
    vcol = A.unsqueeze.default(vi, -1)
    t = A.unsqueeze.default(A.unsqueeze.default(ti, -1), -1)
    if left:
        return sub(x, mul(t, A.matmul.default(vcol, A.matmul.default(mh(vcol), x))))
    return sub(x, mul(t, A.matmul.default(A.matmul.default(x, vcol), mh(vcol))))


def _factor_grads(G_H, vi, ti, conj):
    """``(g_tau_i, g_v_i)`` from the gradient ``G_H`` of one factor ``I - t v v^H`` (``t = tau`` or
    ``conj(tau)``): ``g_t = -(v^H G v)``, ``g_v = -(conj(t) G v + t G^H v)``."""
    vcol = A.unsqueeze.default(vi, -1)
    Gv = A.squeeze.dim(A.matmul.default(G_H, vcol), -1)
    GHv = A.squeeze.dim(A.matmul.default(mh(G_H), vcol), -1)
    g_t = A.neg.default(A.sum.dim_IntList(mul(A.conj.default(vi), Gv), [-1], False))
    tt = A.unsqueeze.default(ti, -1)
    g_v = A.neg.default(add(mul(A.conj.default(tt), Gv), mul(tt, GHv)))
    return (A.conj.default(g_t) if conj else g_t), g_v


def reflector_product_backward(g, inp, tau, x, left, transpose):
    """The gradients of ``op(Q) x`` (``left``) or ``x op(Q)`` w.r.t. the reflectors ``inp``, their
    scales ``tau`` and ``x``, for ``Q = H_1 ... H_k`` (``op``: the conjugate transpose when
    ``transpose``). The factors are applied one by one; each one's gradient is the output gradient
    carried back through the factors after it and the partial product before it."""
    k = tau.shape[-1]
    v = _reflectors(inp, k)
    # The factors in the order they multiply x, first the one next to x.
    order = list(range(k - 1, -1, -1)) if left != transpose else list(range(k))
    factors = [_householder(v, tau, i, transpose) + (i,) for i in order]
    partial = [x]  # partial[j]: x with the first j factors applied
    for vi, ti, _ in factors:
        partial.append(_apply(vi, ti, partial[-1], left))
    g_tau = [None] * k
    g_v = [None] * k
    gy = g
    for j in range(len(factors) - 1, -1, -1):
        vi, ti, i = factors[j]
        before = partial[j]
        G_H = A.matmul.default(gy, mh(before)) if left else A.matmul.default(mh(before), gy)
        g_tau[i], g_v[i] = _factor_grads(G_H, vi, ti, transpose)
        gy = _apply(vi, A.conj.default(ti), gy, left)  # through H^H
    gx = gy
    g_tau_t = A.stack.default(g_tau, -1)
    gv = A.stack.default(g_v, -1)  # (*, m, k)
    g_inp = A.tril.default(gv, -1)
    ncols = inp.shape[-1]
    if ncols > k:
        shape = list(g_inp.shape)
        shape[-1] = ncols - k
        g_inp = A.cat.default([g_inp, A.new_zeros.default(g_inp, shape)], -1)
    return g_inp, g_tau_t, gx


def _empty(t):
    return 0 in tuple(t.shape)


def _householder_product(grads, a, n):
    g = grads[0]
    if g is None or _empty(a.input) or _empty(a.tau):  # torch: no gradient at all then
        return (None, None)
    m, ncols = a.input.shape[-2], a.input.shape[-1]
    eye = A.expand.default(A.eye.m(m, ncols, dtype=a.input.dtype), list(a.input.shape))
    g_inp, g_tau, _ = reflector_product_backward(g, a.input, a.tau, eye, True, False)
    return (g_inp if n[0] else None, g_tau if n[1] else None)


def _ormqr(grads, a, n):
    g = grads[0]
    if g is None:
        return (None, None, None)
    gx = A.ormqr.default(a.self, a.input2, g, a.left, not a.transpose) if n[2] else None
    if _empty(a.self) or _empty(a.input2):  # torch: no reflector gradient then
        return (None, None, gx)
    g_inp, g_tau, _ = reflector_product_backward(g, a.self, a.input2, a.input3, a.left, a.transpose)
    return (g_inp if n[0] else None, g_tau if n[1] else None, gx)


def _lu_jvp(dA, P, L, U, pivot):
    """torch's ``linalg_lu_jvp``: ``(dL, dU)`` of ``A = P L U`` along ``dA``."""
    m, ncols = dA.shape[-2], dA.shape[-1]
    k = min(m, ncols)
    PdA = A.matmul.default(mt(P), dA) if pivot else dA
    L1 = A.narrow.default(A.narrow.default(L, -2, 0, k), -1, 0, k)
    U1 = A.narrow.default(A.narrow.default(U, -2, 0, k), -1, 0, k)
    dK = _solve_tri(L1, A.narrow.default(A.narrow.default(PdA, -2, 0, k), -1, 0, k), upper=False, unit=True)
    dK = _solve_tri(U1, dK, upper=True, left=False)
    dL1 = A.matmul.default(L1, A.tril.default(dK, -1))
    dU1 = A.matmul.default(A.triu.default(dK), U1)
    if m == ncols:
        return dL1, dU1
    if m < ncols:
        dU2 = sub(_solve_tri(L1, A.narrow.default(PdA, -1, k, ncols - k), upper=False, unit=True),
                  A.matmul.default(A.tril.default(dK, -1), A.narrow.default(U, -1, k, ncols - k)))
        return dL1, A.cat.default([dU1, dU2], -1)
    dL2 = sub(_solve_tri(U1, A.narrow.default(PdA, -2, k, m - k), upper=True, left=False),
              A.matmul.default(A.narrow.default(L, -2, k, m - k), A.triu.default(dK)))
    return A.cat.default([dL1, dL2], -2), dU1


def _lu_factor_ex_fw(t, a):
    LU, pivots = a.result[0], a.result[1]
    P, L, U = A.lu_unpack.default(LU, pivots, True, a.pivot)
    dL, dU = _lu_jvp(t[0], P, L, U, a.pivot)
    m, ncols = LU.shape[-2], LU.shape[-1]
    if m >= ncols:  # LU stores dL (strictly lower) and dU (upper) in one matrix
        top = add(A.narrow.default(dL, -2, 0, ncols), dU)
        return (A.cat.default([top, A.narrow.default(dL, -2, ncols, m - ncols)], -2) if m > ncols else top,
                None, None)
    left = add(A.narrow.default(dU, -1, 0, m), dL)
    return (A.cat.default([left, A.narrow.default(dU, -1, m, ncols - m)], -1), None, None)


def _lu_fw(t, a):
    P, L, U = a.result
    dL, dU = _lu_jvp(t[0], P, L, U, a.pivot)
    return (None, dL, dU)


def _lu_unpack_fw(t, a):
    dLU = t[0]
    m, ncols = dLU.shape[-2], dLU.shape[-1]
    k = min(m, ncols)
    return (None, A.tril.default(A.narrow.default(dLU, -1, 0, k), -1), A.triu.default(A.narrow.default(dLU, -2, 0, k)))


def _cholesky_solve_fw(t, a):
    """torch's ``cholesky_solve_jvp``: dX = A^-1 (dB - dA X), dA = dU^H U + U^H dU (or the lower form)."""
    dB, dU = t
    X, U = a.result, a.input2
    rhs = dB
    if dU is not None:
        dK = A.matmul.default(mh(dU), U) if a.upper else A.matmul.default(dU, mh(U))
        dAX = A.matmul.default(add(dK, mh(dK)), X)
        rhs = A.neg.default(dAX) if rhs is None else sub(rhs, dAX)
    return A.cholesky_solve.default(rhs, U, a.upper)


def _cholesky_inverse_fw(t, a):
    """X = (C C^H)^-1 with C the lower factor: dX = -X (dC C^H + C dC^H) X over C's triangle.
    (torch 2.15's ``cholesky_inverse_jvp`` multiplies ``X dC X C^H``, which finite differences
    do not confirm; this is the derivative.)"""
    F_, dF, X = a.self, t[0], a.result
    CF = mh(F_) if a.upper else F_
    dCF = A.tril.default(mh(dF)) if a.upper else A.tril.default(dF)
    part = A.neg.default(A.matmul.default(A.matmul.default(A.matmul.default(X, dCF), mh(CF)), X))
    return add(part, mh(part))


def _triangular_solve_fw(t, a):
    """dX = op(A)^-1 (dB - op(dA) X) over A's triangle; the cloned coefficient's tangent is dA's."""
    dB, dA = t
    X = a.result[0]
    rhs = dB
    if dA is not None:
        tri = A.triu.default(dA, int(a.unitriangular)) if a.upper else A.tril.default(dA, -int(a.unitriangular))
        contrib = A.matmul.default(mt(tri) if a.transpose else tri, X)
        rhs = A.neg.default(contrib) if rhs is None else sub(rhs, contrib)
    dX = A.triangular_solve.default(rhs, a.A, a.upper, a.transpose, a.unitriangular)[0]
    return (dX, None if dA is None else A.expand.default(dA, list(a.result[1].shape)))


def _geqrf(grads, a, n):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


FORMULAS = {
    "aten::linalg_cholesky_ex": F("LinalgCholeskyExBackward0", ("self",), _cholesky_ex, save=("result",),
                                  forward=_cholesky_ex_fw, outputs=(True, False)),
    "aten::linalg_inv_ex": F("LinalgInvExBackward0", ("A",), _inv_ex, save=("result",), forward=_inv_ex_fw,
                             outputs=(True, False)),
    "aten::_linalg_solve_ex": F("LinalgSolveExBackward0", ("A", "B"), _solve_ex, save=("A", "result"),
                                forward=_solve_ex_fw, outputs=(True, False, False, False)),
    "aten::_linalg_det": F("LinalgDetBackward0", ("A",), _det, save=("A", "result"), forward=_det_fw,
                           outputs=(True, False, False)),
    "aten::_linalg_slogdet": F("LinalgSlogdetBackward0", ("A",), _slogdet, save=("A", "result"), forward=_slogdet_fw,
                               outputs=(True, True, False, False)),
    "aten::linalg_lu_factor_ex": F("LinalgLuFactorExBackward0", ("A",), _lu_factor_ex, save=("result",),
                                   outputs=(True, False, False), forward=_lu_factor_ex_fw),
    "aten::linalg_lu": F("LinalgLuBackward0", ("A",), _lu, save=("result",), outputs=(False, True, True),
                         forward=_lu_fw),
    "aten::lu_unpack": F("LuUnpackBackward0", ("LU_data", "LU_pivots"), _lu_unpack, outputs=(False, True, True),
                         forward=_lu_unpack_fw),
    "aten::linalg_lu_solve": F("LinalgLuSolveBackward0", ("LU", "pivots", "B"), _lu_solve,
                               save=("LU", "pivots", "result")),
    "aten::linalg_solve_triangular": F("LinalgSolveTriangularBackward0", ("self", "B"), _solve_triangular,
                                       save=("self", "result"), forward=_solve_triangular_fw),
    "aten::triangular_solve": F("TriangularSolveBackward0", ("self", "A"), _triangular_solve,
                                save=("A", "result"), forward=_triangular_solve_fw),
    "aten::cholesky_solve": F("CholeskySolveBackward0", ("self", "input2"), _cholesky_solve,
                              save=("input2", "result"), forward=_cholesky_solve_fw),
    "aten::cholesky_inverse": F("CholeskyInverseBackward0", ("self",), _cholesky_inverse, save=("self", "result"),
                                forward=_cholesky_inverse_fw),
    "aten::linalg_householder_product": F("LinalgHouseholderProductBackward0", ("input", "tau"),
                                          _householder_product, save=("input", "tau")),
    "aten::ormqr": F("OrmqrBackward0", ("self", "input2", "input3"), _ormqr, save=("self", "input2", "input3")),
    "aten::geqrf": F("GeqrfBackward0", ("self",), _geqrf),
}
# These formulas compute the conjugate Wirtinger derivative for complex inputs (torch's convention):
# complex results of these operators are differentiable (Note [Complex outputs]).
for _formula in FORMULAS.values():
    _formula.complex = True


__dir__ = public_dir(globals())
