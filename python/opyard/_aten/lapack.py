"""The LAPACK routines torch's linear-algebra kernels call that ``numpy.linalg`` does not expose,
written over numpy arrays with LAPACK's conventions, on batches of matrices (``(*, m, n)``).

- ``getrf``: blocked LU with partial pivoting (``dgetf2``'s choices within a panel: the first entry of largest
  ``|re| + |im|`` of the column, LAPACK's ``i?amax``; a zero column is left unpivoted and counted
  in ``info``), pivots 1-based as LAPACK returns them; ``getrs`` solves with it.
- ``trsm``: triangular solves (``numpy.linalg.solve`` on the triangle when its diagonal has no
  zero, else substitution, which gives LAPACK's infinities and nans for a singular triangle).
- ``orgqr``/``ormqr``: products of Householder reflectors ``H_i = I - tau_i v_i v_i^H`` as
  ``geqrf`` stores them (``v_i`` below the diagonal of column ``i``, a unit above it).
- ``sytrf``/``sytrs``: the Bunch-Kaufman ``L D L^T`` (``L D L^H`` when Hermitian) of the lower
  triangle, ``dsytf2``/``zhetf2``/``zsytf2``'s pivoting, and its solve (``dsytrs``/``zhetrs``).
- ``expm``: the matrix exponential by scaling and squaring of Pade approximants (Higham 2005).

Loops run over the columns of a factorization (each step vectorised over the batch) or, for the
pivoted symmetric factorization whose pivots differ per matrix, over the matrices.
"""

import numpy as np

__all__ = ["stack", "abs1", "getrf", "permutation", "getrs", "trsm", "orgqr", "ormqr", "sytrf", "sytrs", "expm"]


def stack(a, k=2):
    """``a`` with its batch dimensions flattened into one, before its last ``k`` (also when the batch
    is empty, where ``reshape(-1, ...)`` is ambiguous)."""
    tail = a.shape[a.ndim - k:]
    return a.reshape((int(np.prod(a.shape[:a.ndim - k], dtype=np.int64)),) + tail)


def abs1(x):
    """LAPACK's ``cabs1`` (``|re| + |im|``) for complex entries, ``|x|`` for real ones."""
    return np.abs(x.real) + np.abs(x.imag) if x.dtype.kind == "c" else np.abs(x)


def getrf(a):
    """``(lu, pivots, info)`` of ``a`` (``(*, m, n)``): ``P A = L U`` with ``L`` unit lower
    triangular in ``lu``'s strict lower part and ``U`` in its upper part; ``pivots`` (int32,
    1-based) the row swapped with row ``i`` at step ``i``; ``info`` the 1-based index of the first
    zero pivot (0 when none)."""
    lu = np.array(a, copy=True)
    shape = lu.shape
    m, n = shape[-2], shape[-1]
    k = min(m, n)
    lu = stack(lu)
    b = lu.shape[0]
    rows = np.arange(b)
    piv = np.empty((b, k), np.int32)
    info = np.zeros(b, np.int32)
    # Blocked as LAPACK's ``getrf``: a panel of ``_PANEL`` columns is factored column by column
    # (rank-1 updates of the panel only), then the rows to its right get ``U12 = L11^-1 A12`` and
    # the trailing matrix one product ``A22 -= L21 U12`` (the bulk of the work in one matmul).
    for j0 in range(0, k, _PANEL):
        j1 = min(j0 + _PANEL, k)
        # the panel transposed (its columns contiguous): pt[:, c, r] is lu[:, r, j0 + c]
        pt = np.ascontiguousarray(np.swapaxes(lu[:, :, j0:j1], -1, -2))
        for j in range(j0, j1):
            c = j - j0
            p = j + np.argmax(abs1(pt[:, c, j:]), axis=1) if b else np.zeros(0, np.intp)
            piv[:, j] = p + 1
            pivot = pt[rows, c, p]
            zero = pivot == 0
            info[(info == 0) & zero] = j + 1
            swap = (p != j) & ~zero
            if swap.any():  # whole rows: the panel's in pt, the others' in lu
                r, q = rows[swap], p[swap]
                top = lu[r, j].copy()
                lu[r, j] = lu[r, q]
                lu[r, q] = top
                top = pt[r, :, j].copy()
                pt[r, :, j] = pt[r, :, q]
                pt[r, :, q] = top
            if j + 1 < m:
                scale = np.where(zero, 1, pt[:, c, j])
                pt[:, c, j + 1:] /= scale[:, None]
                if j + 1 < j1:
                    pt[:, c + 1:, j + 1:] -= pt[:, c + 1:, j, None] * pt[:, c, None, j + 1:]
        lu[:, :, j0:j1] = np.swapaxes(pt, -1, -2)
        if j1 < n:
            unit = np.tril(lu[:, j0:j1, j0:j1], -1) + np.eye(j1 - j0, dtype=lu.dtype)
            if b:
                lu[:, j0:j1, j1:] = np.linalg.solve(unit, lu[:, j0:j1, j1:])
            if j1 < m:
                lu[:, j1:, j1:] -= lu[:, j1:, j0:j1] @ lu[:, j0:j1, j1:]
    return lu.reshape(shape), piv.reshape(shape[:-2] + (k,)), info.reshape(shape[:-2])


_PANEL = 32


def permutation(pivots, m):
    """The row order ``perm`` of LAPACK's sequential swaps ``pivots`` (1-based, ``(*, k)``):
    row ``i`` of ``P^T A`` is row ``perm[i]`` of ``A``."""
    batch = pivots.shape[:-1]
    piv = stack(pivots, 1).astype(np.intp) - 1
    b = piv.shape[0]
    perm = np.broadcast_to(np.arange(m), (b, m)).copy()
    rows = np.arange(b)
    for i in range(piv.shape[1]):
        p = piv[:, i]
        top = perm[:, i].copy()
        perm[:, i] = perm[rows, p]
        perm[rows, p] = top
    return perm.reshape(batch + (m,))


def _broadcast_batch(a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return np.broadcast_to(a, batch + a.shape[-2:]), np.broadcast_to(b, batch + b.shape[-2:])


def trsm(a, b, upper, unit=False):
    """``X`` with ``A X = B`` for the triangle of ``a`` (its upper part if ``upper``, the lower one
    otherwise, with ones on the diagonal if ``unit``); batch dimensions broadcast."""
    a, b = _broadcast_batch(a, b)
    n = a.shape[-1]
    t = np.triu(a) if upper else np.tril(a)
    if unit:
        t = t.copy()
        idx = np.arange(n)
        t[..., idx, idx] = 1
    dt = np.result_type(a.dtype, b.dtype)
    if b.size == 0 or n == 0:
        return np.zeros(b.shape, dt)
    diag = np.diagonal(t, axis1=-2, axis2=-1)
    if np.all(diag != 0) and np.all(np.isfinite(t)):
        try:
            return np.linalg.solve(t, b).astype(dt, copy=False)
        except np.linalg.LinAlgError:
            pass
    return _substitute(t, b.astype(dt), upper)


def _substitute(t, b, upper):
    n = t.shape[-1]
    x = np.zeros(b.shape, b.dtype)
    for i in (range(n - 1, -1, -1) if upper else range(n)):
        done = slice(i + 1, n) if upper else slice(0, i)
        s = b[..., i, :] - np.einsum("...j,...jk->...k", t[..., i, done], x[..., done, :])
        x[..., i, :] = s / t[..., i, i, None]
    return x


def getrs(lu, pivots, b, adjoint=False):
    """``X`` with ``A X = B`` (``A^H X = B`` if ``adjoint``) for ``A`` factored by ``getrf``."""
    lu, b = _broadcast_batch(lu, b)
    pivots = np.broadcast_to(pivots, lu.shape[:-1])
    n = lu.shape[-1]
    perm = permutation(pivots, n)
    if not adjoint:
        pb = np.take_along_axis(b, perm[..., None], axis=-2)
        y = trsm(lu, pb, upper=False, unit=True)
        return trsm(lu, y, upper=True)
    h = np.conj(np.swapaxes(lu, -1, -2))
    y = trsm(h, b, upper=False)  # U^H y = b
    z = trsm(h, y, upper=True, unit=True)  # L^H z = y
    x = np.empty_like(z)
    np.put_along_axis(x, np.broadcast_to(perm[..., None], z.shape), z, axis=-2)
    return x


def _reflector(a, i):
    """``v_i`` of ``geqrf``'s storage in ``a`` (``(B, m, n)``): zeros above ``i``, one at ``i``."""
    v = np.zeros(a.shape[:-1], a.dtype)
    v[:, i] = 1
    v[:, i + 1:] = a[:, i + 1:, i]
    return v


def orgqr(a, tau):
    """The first ``n`` columns of ``H_1 ... H_k`` (``a``: ``(*, m, n)``, ``tau``: ``(*, k)``)."""
    shape = a.shape
    m, n = shape[-2], shape[-1]
    a3 = stack(a)
    t = stack(tau, 1)
    q = np.zeros(a3.shape, a.dtype)
    idx = np.arange(min(m, n))
    q[:, idx, idx] = 1
    for i in range(t.shape[1] - 1, -1, -1):
        v = _reflector(a3, i)
        w = np.einsum("bm,bmn->bn", np.conj(v), q)
        q -= t[:, i, None, None] * v[:, :, None] * w[:, None, :]
    return q.reshape(shape)


def ormqr(a, tau, c, left, transpose):
    """``op(Q) C`` (``left``) or ``C op(Q)``, ``Q = H_1 ... H_k`` from ``geqrf``'s ``a`` and
    ``tau``, ``op`` the conjugate transpose when ``transpose``."""
    batch = c.shape[:-2]
    a3 = stack(np.broadcast_to(a, batch + a.shape[-2:]))
    t = stack(np.broadcast_to(tau, batch + tau.shape[-1:]), 1)
    r = stack(np.array(c, copy=True))
    k = t.shape[1]
    # Q C = H_1 (... (H_k C)); Q^H C = H_k^H (... (H_1^H C)); C Q = ((C H_1) ...) H_k; C Q^H the reverse.
    forward = left == transpose
    for i in (range(k) if forward else range(k - 1, -1, -1)):
        v = _reflector(a3, i)
        ti = np.conj(t[:, i]) if transpose else t[:, i]
        if left:  # H C = C - tau v (v^H C)
            w = np.einsum("bm,bmn->bn", np.conj(v), r)
            r -= ti[:, None, None] * v[:, :, None] * w[:, None, :]
        else:  # C H = C - tau (C v) v^H
            w = np.einsum("bmn,bn->bm", r, v)
            r -= ti[:, None, None] * w[:, :, None] * np.conj(v)[:, None, :]
    return r.reshape(c.shape)


_BK_ALPHA = (1 + np.sqrt(17)) / 8  # Bunch-Kaufman's growth bound


def sytrf(a, hermitian):
    """``(ld, pivots, info)``: the Bunch-Kaufman factorization of the lower triangle of each matrix
    of ``a``, in LAPACK's storage (``?sytf2``/``zhetf2`` with ``uplo='L'``)."""
    shape = a.shape
    n = shape[-1]
    ld = stack(np.tril(np.array(a, copy=True)))
    piv = np.zeros((ld.shape[0], n), np.int32)
    info = np.zeros(ld.shape[0], np.int32)
    herm = hermitian and a.dtype.kind == "c"
    for b in range(ld.shape[0]):
        info[b] = _sytf2(ld[b], piv[b], herm)
    return ld.reshape(shape), piv.reshape(shape[:-1]), info.reshape(shape[:-2])


def _diag_abs(x, herm):
    return abs(x.real) if herm else float(abs1(np.asarray(x)))


def _sytf2(a, ipiv, herm):
    """One matrix, in place (lower triangle); returns LAPACK's ``info``."""
    n = a.shape[0]
    info = 0
    conj = np.conj if herm else (lambda x: x)
    k = 0
    while k < n:
        kstep = 1
        if herm:
            a[k, k] = a[k, k].real
        absakk = _diag_abs(a[k, k], herm)
        if k < n - 1:
            imax = k + 1 + int(np.argmax(abs1(a[k + 1:, k])))
            colmax = float(abs1(np.asarray(a[imax, k])))
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            if info == 0:
                info = k + 1
            kp = k
        else:
            if absakk >= _BK_ALPHA * colmax:
                kp = k
            else:
                # the largest off-diagonal entry in row imax (columns k .. imax-1) and column imax
                jmax = k + int(np.argmax(abs1(a[imax, k:imax])))
                rowmax = float(abs1(np.asarray(a[imax, jmax])))
                if imax < n - 1:
                    jmax = imax + 1 + int(np.argmax(abs1(a[imax + 1:, imax])))
                    rowmax = max(rowmax, float(abs1(np.asarray(a[jmax, imax]))))
                if absakk >= _BK_ALPHA * colmax * (colmax / rowmax):
                    kp = k
                elif _diag_abs(a[imax, imax], herm) >= _BK_ALPHA * rowmax:
                    kp = imax
                else:
                    kp = imax
                    kstep = 2
            kk = k + kstep - 1
            if kp != kk:
                _interchange(a, kk, kp, herm)
                if kstep == 2:
                    t = a[k + 1, k]
                    a[k + 1, k] = a[kp, k]
                    a[kp, k] = t
            if kstep == 1:
                if herm:
                    a[k, k] = a[k, k].real
                if k < n - 1:
                    d11 = 1 / (a[k, k].real if herm else a[k, k])
                    x = a[k + 1:, k].copy()
                    a[k + 1:, k + 1:] -= np.tril(d11 * np.outer(x, conj(x)))
                    a[k + 1:, k] = x * d11
            else:
                if k < n - 2:
                    _two_by_two(a, k, herm)
                if herm:
                    a[k, k] = a[k, k].real
                    a[k + 1, k + 1] = a[k + 1, k + 1].real
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return info


def _interchange(a, kk, kp, herm):
    """Swap rows and columns ``kk`` and ``kp`` (``kk < kp``) of the trailing lower triangle."""
    n = a.shape[0]
    if kp < n - 1:
        t = a[kp + 1:, kk].copy()
        a[kp + 1:, kk] = a[kp + 1:, kp]
        a[kp + 1:, kp] = t
    seg = a[kk + 1:kp, kk].copy()
    if herm:
        a[kk + 1:kp, kk] = np.conj(a[kp, kk + 1:kp])
        a[kp, kk + 1:kp] = np.conj(seg)
        a[kp, kk] = np.conj(a[kp, kk])
    else:
        a[kk + 1:kp, kk] = a[kp, kk + 1:kp]
        a[kp, kk + 1:kp] = seg
    t = a[kk, kk]
    a[kk, kk] = a[kp, kp]
    a[kp, kp] = t


def _two_by_two(a, k, herm):
    """The update of the trailing matrix by a 2x2 pivot block at ``k`` (``?sytf2``'s loop)."""
    if herm:
        d = abs(a[k + 1, k])
        d11 = a[k + 1, k + 1].real / d
        d22 = a[k, k].real / d
        tt = 1 / (d11 * d22 - 1)
        d21 = a[k + 1, k] / d
        dd = tt / d
        rows = a[k + 2:, k].copy(), a[k + 2:, k + 1].copy()
        wk = dd * (d11 * rows[0] - d21 * rows[1])
        wkp1 = dd * (d22 * rows[1] - np.conj(d21) * rows[0])
        a[k + 2:, k + 2:] -= np.tril(np.outer(rows[0], np.conj(wk)) + np.outer(rows[1], np.conj(wkp1)))
        a[k + 2:, k] = wk
        a[k + 2:, k + 1] = wkp1
        return
    d21 = a[k + 1, k]
    d11 = a[k + 1, k + 1] / d21
    d22 = a[k, k] / d21
    t = 1 / (d11 * d22 - 1)
    d21 = t / d21
    c0, c1 = a[k + 2:, k].copy(), a[k + 2:, k + 1].copy()
    wk = d21 * (d11 * c0 - c1)
    wkp1 = d21 * (d22 * c1 - c0)
    a[k + 2:, k + 2:] -= np.tril(np.outer(c0, wk) + np.outer(c1, wkp1))
    a[k + 2:, k] = wk
    a[k + 2:, k + 1] = wkp1


def sytrs(ld, pivots, b, hermitian):
    """``X`` with ``A X = B`` for ``A`` factored by ``sytrf`` (``?sytrs``/``zhetrs``, lower)."""
    ld, b = _broadcast_batch(ld, b)
    pivots = np.broadcast_to(pivots, ld.shape[:-1])
    dt = np.result_type(ld.dtype, b.dtype)
    x = stack(np.array(b, dtype=dt, copy=True))
    a3 = stack(ld)
    p2 = stack(pivots, 1)
    herm = hermitian and dt.kind == "c"
    for i in range(x.shape[0]):
        _sytrs_one(a3[i], p2[i], x[i], herm)
    return x.reshape(b.shape)


def _sytrs_one(a, ipiv, b, herm):
    n = a.shape[0]
    conj = np.conj if herm else (lambda v: v)
    k = 0
    while k < n:  # L D y = b
        if ipiv[k] > 0:
            kp = ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            if k < n - 1:
                b[k + 1:] -= np.outer(a[k + 1:, k], b[k])
            b[k] /= a[k, k].real if herm else a[k, k]
            k += 1
        else:
            kp = -ipiv[k] - 1
            if kp != k + 1:
                b[[k + 1, kp]] = b[[kp, k + 1]]
            if k < n - 2:
                b[k + 2:] -= np.outer(a[k + 2:, k], b[k]) + np.outer(a[k + 2:, k + 1], b[k + 1])
            akm1k = a[k + 1, k]
            akm1 = a[k, k] / conj(akm1k)
            ak = a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1 = b[k] / conj(akm1k)
            bk = b[k + 1] / akm1k
            b[k] = (ak * bkm1 - bk) / denom
            b[k + 1] = (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # L^T x = y (L^H when Hermitian)
        if ipiv[k] > 0:
            if k < n - 1:
                b[k] -= conj(a[k + 1:, k]) @ b[k + 1:]
            kp = ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            if k < n - 1:
                b[k] -= conj(a[k + 1:, k]) @ b[k + 1:]
                b[k - 1] -= conj(a[k + 1:, k - 1]) @ b[k + 1:]
            kp = -ipiv[k] - 1
            if kp != k:
                b[[k, kp]] = b[[kp, k]]
            k -= 2


# Note [Matrix exponential]: torch's CPU kernel evaluates optimized Taylor polynomials of degree
# 1, 2, 4, 8, 12 or 18 with few products (Bader, Blanes and Casas, "Computing the matrix exponential
# with an optimized Taylor polynomial approximation", Mathematics 7 (2019) 1174), picking the degree
# by the 1-norm against bounds for the working precision, with scaling and squaring past the last
# one; a batch of several matrices uses degree 18 throughout. The same scheme here gives torch's
# values, rounding included, where a different approximant (Pade) would differ in the noise of the
# squarings for entries far below the matrix's norm. For single precision the products follow torch
# too: its CPU product of small matrices accumulates each dot product in order in single precision
# (``_ordered_matmul``; BLAS sums in another order, which moves such entries past float32 tolerances).
_DEGREES = (1, 2, 4, 8, 12, 18)
_BOUNDS = {
    np.dtype(np.float32): (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02,
                           5.800524627688768e-01, 1.461661507209034e+00, 3.010066362817634e+00),
    np.dtype(np.float64): (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04,
                           4.991228871115323e-02, 2.996158913811580e-01, 1.090863719290036e+00),
}
# Degree 12: rows are the coefficients of I, A, A^2, A^3 in q0..q3; exp ~ q0 + (q1 + r) r,
# r = q2 + q3 q3.
_T12 = ((-1.86023205146205530824e-02, -5.00702322573317714499e-03, -5.73420122960522249400e-01,
         -1.33399693943892061476e-01),
        (4.6, 9.92875103538486847299e-01, -1.32445561052799642976e-01, 1.72990000000000000000e-03),
        (2.11693118299809440730e-01, 1.58224384715726723583e-01, 1.65635169436727403003e-01,
         1.07862779315792429308e-02),
        (0., -1.31810610138301836924e-01, -2.02785554058925905629e-02, -6.75951846863086323186e-03))
# Degree 18: the coefficients of I, A, A^2, A^3, A^6 in q0..q4; exp ~ q1 + (q2 + r) r, r = q0 q4 + q3.
_T18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05))


def _combine(coeffs, powers, real):
    """``sum_j c_j P_j`` with the coefficients rounded to the working precision, as torch's are."""
    out = None
    for c, p in zip(coeffs, powers):
        c = real(c)
        if c != 0:
            out = c * p if out is None else out + c * p
    return out if out is not None else np.zeros_like(powers[0])


_SMALL = 32  # the matrix size up to which single-precision products accumulate in order


def _ordered_matmul(a, b):
    """``a @ b`` with every dot product summed in order of its index in ``a``'s precision."""
    a, b = _broadcast_batch(a, b)
    acc = np.zeros(a.shape[:-1] + b.shape[-1:], np.result_type(a.dtype, b.dtype))
    for k in range(a.shape[-1]):
        acc += a[..., :, k, None] * b[..., None, k, :]
    return acc


def _matmul_for(x):
    """The product the matrix exponential of ``x`` uses (Note [Matrix exponential])."""
    if x.real.dtype == np.float32 and x.shape[-1] <= _SMALL:
        return _ordered_matmul
    return np.matmul


def _taylor(x, degree):
    """The degree-``degree`` optimized Taylor approximant of ``exp`` at each matrix of ``x``."""
    mm = _matmul_for(x)
    real = x.real.dtype.type
    eye = np.broadcast_to(np.eye(x.shape[-1], dtype=x.dtype), x.shape)
    if degree == 1:
        return eye + x
    x2 = mm(x, x)
    if degree == 2:
        return eye + x + x2 / real(2)
    if degree == 4:
        return eye + x + mm(x2, eye / real(2) + x / real(6) + x2 / real(24))
    if degree == 8:
        r = np.sqrt(177.0)
        x3 = 2.0 / 3.0
        a1, a2 = x3 * (1 + r) / 88, x3 * (1 + r) / 352
        u2 = (857 - 58 * r) / 630
        c = ((-271 + 29 * r) / (315 * x3), 11 * (-1 + r) / (1260 * x3), 11 * (-9 + r) / (5040 * x3),
             (89 - r) / (5040 * x3 * x3))
        x4 = mm(x2, real(a1) * x + real(a2) * x2)
        x8 = mm(real(x3) * x2 + x4, real(c[0]) * eye + real(c[1]) * x + real(c[2]) * x2 + real(c[3]) * x4)
        return eye + x + real(u2) * x2 + x8
    x3 = mm(x, x2)
    if degree == 12:
        powers = (eye, x, x2, x3)
        q = [_combine(row, powers, real) for row in _T12]
        r = q[2] + mm(q[3], q[3])
        return q[0] + mm(q[1] + r, r)
    x6 = mm(x3, x3)
    powers = (eye, x, x2, x3, x6)
    q = [_combine(row, powers, real) for row in _T18]
    r = mm(q[0], q[4]) + q[3]
    return q[1] + mm(q[2] + r, r)


def expm(a):
    """``exp(A)`` of each matrix of ``a`` in ``a``'s precision (float32 or float64, real or complex):
    Note [Matrix exponential]."""
    shape = a.shape
    x = stack(a)
    out = np.empty_like(x)
    if x.shape[0] == 0 or shape[-1] == 0:
        return out.reshape(shape)
    real = x.real.dtype
    bounds = _BOUNDS[np.dtype(real)]
    norms = np.abs(x).sum(axis=-2).max(axis=-1).astype(real)  # 1-norms; nan for a matrix with a nan
    out[...] = np.nan
    if x.shape[0] == 1:
        low = -1.0
        for degree, bound in zip(_DEGREES[:-1], bounds[:-1]):
            sel = (norms > low) & (norms <= bound)
            if sel.any():
                out[sel] = _taylor(x[sel], degree)
            low = bound
        large = norms >= bounds[-2]
    else:
        large = np.ones(x.shape[0], bool)
    if large.any():
        nrm = norms[large]
        with np.errstate(divide="ignore", invalid="ignore"):
            s = np.ceil(np.log2(nrm / real.type(bounds[-1])))
        s = np.where(np.isfinite(s) & (s > 0), s, 0).astype(np.int64)
        scaled = x[large] / (real.type(2) ** s.astype(real))[:, None, None]
        r = _taylor(scaled, 18)
        mm = _matmul_for(x)
        for step in range(int(s.max()) if s.size else 0):
            more = s > step
            r[more] = mm(r[more], r[more])
        out[large] = r
    return out.reshape(shape)
