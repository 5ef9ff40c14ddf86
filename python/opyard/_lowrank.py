"""Randomized low-rank SVD and PCA (torch.svd_lowrank, torch.pca_lowrank): Halko, Martinsson and
Tropp's range finder (2009, algorithms 4.4 and 5.1), composed of operators as torch composes it, so
gradients, vmap and fake tensors follow.

Example::

    >>> a = opyard.randn(100, 3) @ opyard.randn(3, 40)
    >>> u, s, v = opyard.svd_lowrank(a, q=3)
    >>> opyard.allclose((u * s) @ v.mT, a, atol=1e-4)
    True
"""

from . import _dtype as D
from ._ops import ops

__all__ = ["svd_lowrank", "pca_lowrank", "approximate_basis"]

_A = ops.aten


def _conj(x):
    return _A.conj.default(x) if x.dtype.is_complex else x


def _mh(x):
    return _A.adjoint.default(x) if x.dtype.is_complex else _A.transpose.int(x, -2, -1)


def _qr_q(x):
    return _A.linalg_qr.default(x)[0]


def _minus(x, m, r):
    """``x - m @ r`` (``x`` alone when there is no ``m``)."""
    return x if m is None else _A.sub.Tensor(x, _A.matmul.default(m, r))


def approximate_basis(A, q, niter=2, M=None):
    """An orthonormal ``(*, m, q)`` basis whose span approximates the range of ``A - M``: a random
    Gaussian sketch, refined by ``niter`` power iterations with a QR after each product."""
    niter = 2 if niter is None else niter
    dtype = A.dtype if A.dtype.is_complex or A.dtype.is_floating_point else D.get_default_dtype()
    R = _A.randn.default([A.shape[-1], q], dtype=dtype, device=A.device)
    Q = _qr_q(_minus(_A.matmul.default(A, R), M, R))
    for _ in range(niter):
        Q = _qr_q(_minus(_A.matmul.default(_mh(A), Q), None if M is None else _mh(M), Q))
        Q = _qr_q(_minus(_A.matmul.default(A, Q), M, Q))
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """``(U, S, V)`` with ``A - M ~ U diag(S) V^H`` of rank ``q`` (``M`` defaults to zero)."""
    q = 6 if q is None else q
    m, n = A.shape[-2], A.shape[-1]
    if M is not None:
        M = _A.expand.default(M, list(A.shape))
    if m < n or n > q:  # the approximation of the transpose keeps B small
        Q = approximate_basis(_A.transpose.int(A, -2, -1), q, niter,
                              None if M is None else _A.transpose.int(M, -2, -1))
        Qc = _conj(Q)
        B_t = _minus(_A.matmul.default(A, Qc), M, Qc)
        U, S, Vh = _A.linalg_svd.default(B_t, False)
        V = _A.matmul.default(Q, _mh(Vh))
    else:
        Q = approximate_basis(A, q, niter, M)
        Qc = _conj(Q)
        B = _minus(_A.matmul.default(_A.transpose.int(A, -2, -1), Qc), None if M is None else
                   _A.transpose.int(M, -2, -1), Qc)
        U, S, Vh = _A.linalg_svd.default(_A.transpose.int(B, -2, -1), False)
        V = _mh(Vh)
        U = _A.matmul.default(Q, U)
    return U, S, V


def pca_lowrank(A, q=None, center=True, niter=2):
    """``(U, S, V)``: the principal components of the rows of ``A`` (centred by their mean when
    ``center``), from ``svd_lowrank``; ``q`` defaults to ``min(6, m, n)``."""
    if not hasattr(A, "shape"):
        raise ValueError(f"Input must be Tensor, not {type(A).__name__}")
    m, n = A.shape[-2], A.shape[-1]
    if q is None:
        q = min(6, m, n)
    elif not 0 <= q <= min(m, n):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    if not center:
        return svd_lowrank(A, q, niter=niter)
    C = _A.mean.dim(A, [-2], True)
    return svd_lowrank(_A.sub.Tensor(A, C), q, niter=niter)
