"""Derivatives of the spectral and orthogonal decompositions and of what is computed from them
(torch's FunctionsManual.cpp formulas, for real and complex batches): ``_linalg_eigh``,
``linalg_eig``, ``_linalg_svd``, ``linalg_qr``, ``linalg_polar``, ``linalg_matrix_sqrth``,
``linalg_matrix_exp``, the pseudo-inverse and least squares.

Eigen- and singular vectors are defined up to a phase; a loss that depends on it has no gradient,
and the formulas refuse it for complex inputs, as torch's do.
"""

from ... import _dtype as _D
from ._helpers import A, add, mul, sub
from .factorizations import mh, real_if
from .registry import Formula as F
from ..._exports import public_dir

__all__ = ["FORMULAS", "eig_backward", "svd_backward"]


def _eye(n, like):
    return A.eye.default(n, dtype=like.dtype)


def _diag_embed(d):
    n = d.shape[-1]
    return mul(A.unsqueeze.default(d, -1), _eye(n, d))


def _diagonal(x):
    return A.diagonal.default(x, 0, -2, -1)


def _fill_diagonal(x, value):
    """``x`` with its diagonal replaced by ``value`` (a number or a ``(*, n)`` tensor)."""
    n = x.shape[-1]
    eye = _eye(n, x)
    off = mul(x, A.rsub.Scalar(eye, 1))
    if isinstance(value, (int, float, complex)):
        return add(off, mul(eye, value))
    return add(off, _diag_embed(A._to_copy.default(value, dtype=x.dtype)))


def _allclose_zero(x):
    return bool(A.all.default(A.le.Scalar(A.abs.default(x), 1e-2)).item()) if x.numel() else True


def eig_backward(gL, gV, L, V, hermitian):
    """torch's ``linalg_eig_backward`` (also eigh's, with ``hermitian``)."""
    if gL is None and gV is None:
        return None
    if gV is None:  # eigenvalues only
        if hermitian:
            return A.matmul.default(mul(V, A.unsqueeze.default(A._to_copy.default(gL, dtype=V.dtype), -2)), mh(V))
        return A.linalg_solve.default(mh(V), mul(A.unsqueeze.default(gL, -1), mh(V)))
    VhgV = A.matmul.default(mh(V), gV)
    diag = _diagonal(VhgV)
    if V.dtype.is_complex and not _allclose_zero(A.imag.default(diag)):
        raise RuntimeError(f"{'linalg_eigh_backward' if hermitian else 'linalg_eig_backward'}: The eigenvectors in the "
                           "complex case are specified up to multiplication by e^{i phi}. The specified loss function "
                           "depends on this quantity, so it is ill-defined.")
    if hermitian:
        VhgV = mul(sub(VhgV, mh(VhgV)), 0.5)
    else:
        re = A.real.default(diag) if diag.dtype.is_complex else diag
        VhgV = sub(VhgV, A.matmul.default(mh(V), mul(V, A.unsqueeze.default(A._to_copy.default(re, dtype=V.dtype), -2))))
    Lc = L if hermitian else A.conj.default(L)
    E = sub(A.unsqueeze.default(Lc, -2), A.unsqueeze.default(Lc, -1))
    E = _fill_diagonal(A._to_copy.default(E, dtype=VhgV.dtype), 1)
    ret = A.div.Tensor(VhgV, E)
    if gL is not None:
        ret = _fill_diagonal(ret, gL)
    if hermitian:
        return A.matmul.default(V, A.matmul.default(ret, mh(V)))
    return A.linalg_solve.default(mh(V), A.matmul.default(ret, mh(V)))


def _eigh(grads, a, n):
    w, V = a.result
    if not a.compute_v:
        raise RuntimeError("linalg_eigh_backward: torch.linalg.eigvalsh does not support autograd when the "
                           "eigenvectors are not computed")
    return (eig_backward(grads[0], grads[1], w, V, True),)


def _eig(grads, a, n):
    L, V = a.result
    g = eig_backward(grads[0], grads[1], L, V, False)
    return (None if g is None else real_if(g, a.self),)


def svd_backward(gU, gS, gVh, U, S, Vh):
    """torch's ``svd_backward`` on the reduced factors (distinct singular values; full rank when
    the matrix is not square or complex)."""
    if gU is None and gS is None and gVh is None:
        return None
    m, ncols = U.shape[-2], Vh.shape[-1]
    Sc = A._to_copy.default(S, dtype=U.dtype)
    if gU is None and gVh is None:
        gSc = A._to_copy.default(gS, dtype=U.dtype)
        if m >= ncols:
            return A.matmul.default(U, mul(A.unsqueeze.default(gSc, -1), Vh))
        return A.matmul.default(mul(U, A.unsqueeze.default(gSc, -2)), Vh)
    UhgU = None if gU is None else A.matmul.default(mh(U), gU)
    VhgV = None if gVh is None else A.matmul.default(Vh, mh(gVh))
    UhgU = None if UhgU is None else sub(UhgU, mh(UhgU))
    VhgV = None if VhgV is None else sub(VhgV, mh(VhgV))
    if U.dtype.is_complex:
        du = A.imag.default(_diagonal(UhgU)) if UhgU is not None else None
        dv = A.imag.default(_diagonal(VhgV)) if VhgV is not None else None
        total = du if dv is None else (dv if du is None else add(du, dv))
        if not _allclose_zero(total):
            raise RuntimeError("svd_backward: The singular vectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this phase term, "
                               "making it ill-defined.")
    S2 = mul(S, S)
    E = _fill_diagonal(sub(A.unsqueeze.default(S2, -2), A.unsqueeze.default(S2, -1)), 1)
    E = A._to_copy.default(E, dtype=U.dtype)
    if UhgU is not None and VhgV is not None:
        ret = A.div.Tensor(add(mul(UhgU, A.unsqueeze.default(Sc, -2)), mul(A.unsqueeze.default(Sc, -1), VhgV)), E)
    elif UhgU is not None:
        ret = mul(UhgU, A.div.Tensor(A.unsqueeze.default(Sc, -2), E))
    else:
        ret = mul(A.unsqueeze.default(Sc, -1), A.div.Tensor(VhgV, E))
    if gS is not None:
        ret = add(ret, _diag_embed(A._to_copy.default(gS, dtype=U.dtype)))
    if U.dtype.is_complex and UhgU is not None:
        ret = add(ret, _diag_embed(A.div.Tensor(_diagonal(UhgU), mul(Sc, 2))))
    if m > ncols and gU is not None:
        gA = A.matmul.default(U, ret)
        gUSinv = A.div.Tensor(gU, A.unsqueeze.default(Sc, -2))
        gA = sub(add(gA, gUSinv), A.matmul.default(U, A.matmul.default(mh(U), gUSinv)))
        return A.matmul.default(gA, Vh)
    if m < ncols and gVh is not None:
        gA = A.matmul.default(ret, Vh)
        SinvgVh = A.div.Tensor(gVh, A.unsqueeze.default(Sc, -1))
        gA = sub(add(gA, SinvgVh), A.matmul.default(A.matmul.default(SinvgVh, mh(Vh)), Vh))
        return A.matmul.default(U, gA)
    if m >= ncols:
        return A.matmul.default(U, A.matmul.default(ret, Vh))
    return A.matmul.default(A.matmul.default(U, ret), Vh)


def _svd(grads, a, n):
    gU, gS, gVh = grads
    U, S, Vh = a.result
    if not a.compute_uv:
        if gS is None:
            return (None,)
        raise RuntimeError("linalg.svd: The derivative of linalg.svd depends on U and Vh, which are not computed when "
                           "compute_uv=False. Please use linalg.svd(A, full_matrices=False) if you are going to "
                           "differentiate through the singular values")
    k = S.shape[-1]
    if a.full_matrices:  # the extra columns of U / rows of Vh carry no gradient
        U, Vh = A.narrow.default(U, -1, 0, k), A.narrow.default(Vh, -2, 0, k)
        gU = None if gU is None else A.narrow.default(gU, -1, 0, k)
        gVh = None if gVh is None else A.narrow.default(gVh, -2, 0, k)
    return (svd_backward(gU, gS, gVh, U, S, Vh),)


def _hermitian_from_lower(M):
    """The lower triangle of ``M`` mirrored onto the upper one, the real part of its diagonal."""
    low = A.tril.default(M, -1)
    d = _diagonal(M)
    d = A.real.default(d) if d.dtype.is_complex else d
    return add(add(low, mh(low)), _diag_embed(A._to_copy.default(d, dtype=M.dtype)))


def _qr_tall(gQ, gR, Q, R):
    """``A = Q R`` with ``m >= n`` (reduced): gA = (gQ + Q copyltu(M)) R^-H, M = R gR^H - gQ^H Q."""
    M = None
    if gR is not None:
        M = A.matmul.default(R, mh(gR))
    if gQ is not None:
        t = A.matmul.default(mh(gQ), Q)
        M = A.neg.default(t) if M is None else sub(M, t)
    X = A.matmul.default(Q, _hermitian_from_lower(M))
    if gQ is not None:
        X = add(X, gQ)
    return A.linalg_solve_triangular.default(mh(R), X, upper=False, left=False)


def _qr(grads, a, n):
    gQ, gR = grads
    Q, R = a.result
    if a.mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                           "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    m, ncols = Q.shape[-2], R.shape[-1]
    if a.mode == "complete" and m > ncols:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if gQ is None and gR is None:
        return (None,)
    if m >= ncols:
        return (_qr_tall(gQ, gR, Q, R),)
    # wide: A = Q [R1 R2], R1 square; R2 = Q^H A2 feeds Q's gradient, A1 = Q R1 is a square QR
    R1, R2 = A.narrow.default(R, -1, 0, m), A.narrow.default(R, -1, m, ncols - m)
    gR1 = None if gR is None else A.narrow.default(gR, -1, 0, m)
    gR2 = None if gR is None else A.narrow.default(gR, -1, m, ncols - m)
    gQ_ = gQ
    if gR2 is not None:
        t = A.matmul.default(Q, A.matmul.default(R2, mh(gR2)))
        gQ_ = t if gQ_ is None else add(gQ_, t)
    gA1 = _qr_tall(gQ_, gR1, Q, R1)
    gA2 = A.matmul.default(Q, gR2) if gR2 is not None else A.zeros_like.default(R2)
    return (A.cat.default([gA1, gA2], -1),)


def _polar(grads, a, n):
    """Through the SVD ``A = W S Vh``: ``U = W Vh``, ``H = Vh^H S Vh``."""
    gU, gH = grads
    if gU is None and gH is None:
        return (None,)
    W, S, Vh = A.linalg_svd.default(a.A, False)
    Sc = A._to_copy.default(S, dtype=W.dtype)
    gW = gVh = gS = None
    if gU is not None:
        gW = A.matmul.default(gU, mh(Vh))
        gVh = A.matmul.default(mh(W), gU)
    if gH is not None:
        sym = add(gH, mh(gH))
        t = mul(A.unsqueeze.default(Sc, -1), A.matmul.default(Vh, sym))
        gVh = t if gVh is None else add(gVh, t)
        d = _diagonal(A.matmul.default(A.matmul.default(Vh, gH), mh(Vh)))
        gS = A.real.default(d) if d.dtype.is_complex else d
    return (svd_backward(gW, gS, gVh, W, S, Vh),)


def _matrix_sqrth(grads, a, n):
    """The Sylvester equation ``X gA + gA X = gX`` in X's eigenbasis: (V^H gX V) / (s_i + s_j)."""
    g = grads[0]
    w, V = A.linalg_eigh.default(a.result)
    g = mul(add(g, mh(g)), 0.5)  # the result is Hermitian: only the Hermitian part of g counts
    G = A.matmul.default(mh(V), A.matmul.default(g, V))
    denom = add(A.unsqueeze.default(w, -2), A.unsqueeze.default(w, -1))
    return (A.matmul.default(V, A.matmul.default(A.div.Tensor(G, A._to_copy.default(denom, dtype=G.dtype)), mh(V))),)


def _matrix_exp_differential(x, g, adjoint):
    """Higham's block form: the top-right block of ``exp([[X, G], [0, X]])`` (X^H when ``adjoint``)."""
    xs = mh(x) if adjoint else x
    zero = A.zeros_like.default(xs)
    top = A.cat.default([xs, g], -1)
    bottom = A.cat.default([zero, xs], -1)
    n = x.shape[-1]
    big = A.linalg_matrix_exp.default(A.cat.default([top, bottom], -2))
    return A.narrow.default(A.narrow.default(big, -2, 0, n), -1, n, n)


def _pinv_backward(g, pinvA, A_):
    m, ncols = A_.shape[-2], A_.shape[-1]
    pinvAh, gh = mh(pinvA), mh(g)
    mm = A.matmul.default
    if m <= ncols:
        K = mm(gh, pinvA)
        KpinvAh = mm(K, pinvAh)
        return add(sub(sub(A.neg.default(mh(mm(pinvA, K))), A.neg.default(KpinvAh)), mm(mm(A_, pinvA), KpinvAh)),
                   mm(mm(pinvAh, pinvA), sub(gh, mm(K, A_))))
    K = mm(pinvA, gh)
    pinvAhK = mm(pinvAh, K)
    return sub(add(add(A.neg.default(mh(mm(K, pinvA))), mm(mm(sub(gh, mm(A_, K)), pinvA), pinvAh)), pinvAhK),
               mm(mm(pinvAhK, pinvA), A_))


def _pinv(grads, a, n):
    return (_pinv_backward(grads[0], a.result, a.self),)


def _lstsq(grads, a, n):
    """torch's ``linalg_lstsq_backward`` through ``pinv(A)``, plus the residuals' gradient
    (``||A X - B||^2`` per column, whose gradient through X vanishes at the solution)."""
    gX, gR = grads[0], grads[1]
    if gX is None and (gR is None or gR.numel() == 0):
        return (None, None)
    A_, B, X = a.self, a.b, a.result[0]
    vector = len(B.shape) == len(A_.shape) - 1
    B_ = A.unsqueeze.default(B, -1) if vector else B
    X_ = A.unsqueeze.default(X, -1) if vector else X
    pinvA = A.linalg_pinv.atol_rtol_tensor(A_)
    gA = gB = None
    if gX is not None:
        gX_ = A.unsqueeze.default(gX, -1) if vector else gX
        if n[0]:
            gA = _pinv_backward(A.matmul.default(gX_, mh(B_)), pinvA, A_)
        if n[1]:
            gB = A.matmul.default(mh(pinvA), gX_)
    if gR is not None and gR.numel():
        resid = sub(A.matmul.default(A_, X_), B_)
        w = A.unsqueeze.default(A.unsqueeze.default(gR, -1) if vector else gR, -2)
        rw = mul(mul(resid, A._to_copy.default(w, dtype=resid.dtype)), 2)
        if n[0]:
            t = A.matmul.default(rw, mh(X_))
            gA = t if gA is None else add(gA, t)
        if n[1]:
            gB = A.neg.default(rw) if gB is None else sub(gB, rw)
    if gB is not None and vector:
        gB = A.squeeze.dim(gB, -1)
    return (gA if n[0] else None, gB if n[1] else None)


opyard_bool = _D.bool


def _zero_diagonal(x):
    """``x`` with its diagonal set to 0 (``where``: a nan there does not leak)."""
    n = x.shape[-1]
    eye = A._to_copy.default(_eye(n, x), dtype=opyard_bool)
    return A.where.self(eye, A.zeros_like.default(x), x)


def eig_jvp(dA, L, V, hermitian):
    """torch's ``linalg_eig_jvp``: dL = diag(dP), dV = V (dP / E off the diagonal) (projected for
    eig), dP = V^-1 dA V."""
    dAc = A._to_copy.default(dA, dtype=V.dtype)
    dP = A.matmul.default(A.matmul.default(mh(V), dAc), V) if hermitian else \
        A.linalg_solve.default(V, A.matmul.default(dAc, V))
    d = _diagonal(dP)
    dL = A.real.default(d) if hermitian and d.dtype.is_complex else d
    E = sub(A.unsqueeze.default(L, -2), A.unsqueeze.default(L, -1))
    dX = A.matmul.default(V, _zero_diagonal(A.div.Tensor(dP, A._to_copy.default(E, dtype=dP.dtype))))
    if hermitian:
        return dL, dX
    re = A.real.default(_diagonal(A.matmul.default(mh(V), dX)))
    return dL, sub(dX, mul(V, A.unsqueeze.default(A._to_copy.default(re, dtype=V.dtype), -2)))


def _eigh_fw(t, a):
    w, V = a.result
    dL, dV = eig_jvp(t[0], w, V, True)
    return (A._to_copy.default(dL, dtype=w.dtype), dV)


def _eig_fw(t, a):
    L, V = a.result
    return eig_jvp(t[0], L, V, False)


def _svd_fw(t, a):
    """torch's ``linalg_svd_jvp``."""
    U_, S, Vh_ = a.result
    if not a.compute_uv:
        raise NotImplementedError("linalg.svd: forward AD needs the singular vectors (compute_uv=True)")
    dA = t[0]
    m, ncols, k = dA.shape[-2], dA.shape[-1], S.shape[-1]
    U = A.narrow.default(U_, -1, 0, k) if a.full_matrices else U_
    Vh = A.narrow.default(Vh_, -2, 0, k) if a.full_matrices else Vh_
    V = mh(Vh)
    dAc = A._to_copy.default(dA, dtype=U.dtype)
    dP = A.matmul.default(mh(U), A.matmul.default(dAc, V))
    d = _diagonal(dP)
    dS = A.real.default(d) if d.dtype.is_complex else d
    dP = sub(dP, _diag_embed(A._to_copy.default(dS, dtype=dP.dtype)))
    S2 = mul(S, S)
    E = A._to_copy.default(_fill_diagonal(sub(A.unsqueeze.default(S2, -2), A.unsqueeze.default(S2, -1)), 1),
                           dtype=U.dtype)
    Sc = A._to_copy.default(S, dtype=U.dtype)

    def sym(x):
        return add(x, mh(x))

    dUaux = A.div.Tensor(sym(mul(dP, A.unsqueeze.default(Sc, -2))), E)
    dVhaux = A.div.Tensor(sym(mul(dP, A.unsqueeze.default(A.neg.default(Sc), -1))), E)
    if U.dtype.is_complex:
        diag2S = _diag_embed(A.div.Tensor(_diagonal(dP), mul(Sc, 2)))
        dUaux, dVhaux = add(dUaux, diag2S), add(dVhaux, diag2S)
    dU = A.matmul.default(U, dUaux)
    if m > ncols:
        dAVSinv = A.matmul.default(dAc, A.div.Tensor(V, A.unsqueeze.default(Sc, -2)))
        dU = sub(add(dU, dAVSinv), A.matmul.default(U, A.matmul.default(mh(U), dAVSinv)))
        if a.full_matrices:
            shape = list(dU.shape)
            shape[-1] = m - ncols
            dU = A.cat.default([dU, A.new_zeros.default(dU, shape)], -1)
    dVh = A.matmul.default(dVhaux, Vh)
    if m < ncols:
        UHdASinv = A.matmul.default(A.div.Tensor(mh(U), A.unsqueeze.default(Sc, -1)), dAc)
        dVh = sub(add(dVh, UHdASinv), A.matmul.default(A.matmul.default(UHdASinv, V), Vh))
        if a.full_matrices:
            shape = list(dVh.shape)
            shape[-2] = ncols - m
            dVh = A.cat.default([dVh, A.new_zeros.default(dVh, shape)], -2)
    return (dU, dS, dVh)


def _matrix_sqrth_fw(t, a):
    """The Sylvester equation ``X dX + dX X = dA`` in X's eigenbasis."""
    w, V = A.linalg_eigh.default(a.result)
    G = A.matmul.default(mh(V), A.matmul.default(A._to_copy.default(t[0], dtype=V.dtype), V))
    denom = add(A.unsqueeze.default(w, -2), A.unsqueeze.default(w, -1))
    return A.matmul.default(V, A.matmul.default(A.div.Tensor(G, A._to_copy.default(denom, dtype=G.dtype)), mh(V)))


def pinv_jvp(A_, pinvA, dA):
    """torch's ``pinv_jvp``."""
    m, ncols = A_.shape[-2], A_.shape[-1]
    mm = A.matmul.default
    dAh, pinvAh = mh(dA), mh(pinvA)
    if m <= ncols:
        K = mm(pinvAh, dAh)
        return add(mm(pinvA, sub(sub(K, mh(K)), mm(K, mm(A_, pinvA)))), mm(sub(dAh, mm(pinvA, mm(A_, dAh))),
                                                                            mm(pinvAh, pinvA)))
    K = mm(pinvA, dA)
    Kh = mh(K)
    return add(mm(sub(sub(Kh, K), mm(mm(pinvA, A_), Kh)), pinvA), mm(mm(pinvA, pinvAh),
                                                                      sub(dAh, mm(mm(dAh, A_), pinvA))))


def _lstsq_fw(t, a):
    """X = pinv(A) B: dX = dpinv B + pinv dB; the residuals' tangent 2 Re sum((A X - B) conj(dA X - dB))
    (X's own change drops out at the optimum)."""
    dA, dB = t
    A_, B, X = a.self, a.b, a.result[0]
    vector = len(B.shape) == len(A_.shape) - 1
    B_ = A.unsqueeze.default(B, -1) if vector else B
    X_ = A.unsqueeze.default(X, -1) if vector else X
    pinvA = A.linalg_pinv.atol_rtol_tensor(A_)
    dX = None
    if dA is not None:
        dX = A.matmul.default(pinv_jvp(A_, pinvA, dA), B_)
    if dB is not None:
        dB_ = A.unsqueeze.default(dB, -1) if vector else dB
        term = A.matmul.default(pinvA, dB_)
        dX = term if dX is None else add(dX, term)
    resid = a.result[1]
    dR = None
    if resid.numel():
        R = sub(A.matmul.default(A_, X_), B_)
        inner = None if dA is None else A.matmul.default(dA, X_)
        if dB is not None:
            dB_ = A.unsqueeze.default(dB, -1) if vector else dB
            inner = A.neg.default(dB_) if inner is None else sub(inner, dB_)
        prod = mul(R, A.conj.default(inner))
        prod = A.real.default(prod) if prod.dtype.is_complex else prod
        dR = mul(A.sum.dim_IntList(prod, [-2], False), 2)
        dR = A.squeeze.dim(dR, -1) if vector else dR
    return (A.squeeze.dim(dX, -1) if vector else dX, dR, None, None)


FORMULAS = {
    "aten::_linalg_eigh": F("LinalgEighBackward0", ("A",), _eigh, save=("result",), forward=_eigh_fw),
    "aten::linalg_eig": F("LinalgEigBackward0", ("self",), _eig, save=("self", "result"), forward=_eig_fw),
    "aten::_linalg_svd": F("LinalgSvdBackward0", ("A",), _svd, save=("result",), forward=_svd_fw),
    "aten::linalg_qr": F("LinalgQrBackward0", ("A",), _qr, save=("result",)),
    "aten::linalg_polar": F("LinalgPolarBackward0", ("A",), _polar, save=("A",)),
    "aten::linalg_matrix_sqrth": F("LinalgMatrixSqrthBackward0", ("self",), _matrix_sqrth, save=("result",),
                                   forward=_matrix_sqrth_fw),
    "aten::linalg_matrix_exp": F("LinalgMatrixExpBackward0", ("self",),
                                 lambda g, a, n: (_matrix_exp_differential(a.self, g[0], True),), save=("self",),
                                 forward=lambda t, a: _matrix_exp_differential(a.self, t[0], False)),
    "aten::linalg_pinv.atol_rtol_tensor": F("LinalgPinvBackward0", ("self",), _pinv, save=("self", "result"),
                                            forward=lambda t, a: pinv_jvp(a.self, a.result, t[0])),
    "aten::linalg_lstsq": F("LinalgLstsqBackward0", ("self", "b"), _lstsq, save=("self", "b", "result"),
                            outputs=(True, True, False, False), forward=_lstsq_fw),
}

__dir__ = public_dir(globals())
