"""Differentiable samples of the linear-algebra, Fourier-transform and complex-view operators
(merged into ``grad_samples``): per overload, a callable and float64 inputs that exercise its
derivative formula. Eigen- and singular vectors enter sign-invariantly (``v * v``), matrices that
must be invertible or positive-definite are made so, and complex results are taken apart with
``view_as_real`` so that gradcheck sees real outputs."""

import numpy as np

import opyard

A = opyard.ops.aten
rng = np.random.default_rng(7)


def r(*shape, grad=True):
    return opyard.tensor(rng.standard_normal(shape), dtype=opyard.float64, requires_grad=grad)


def _eye(n):
    return opyard.eye(n, dtype=opyard.float64)


def _spd(x):
    return x @ x.mT + _eye(x.shape[-1])


def _well(x):
    """``x`` plus a multiple of the identity: far from singular."""
    return x + 3 * _eye(x.shape[-1])


def _lower(x):
    """A lower-triangular factor with a positive diagonal."""
    return A.tril.default(x, -1) + _eye(x.shape[-1]) * 2


def _real(z):
    return A.view_as_real.default(z)


def _eigh_value(x):
    w, v = A._linalg_eigh.default(x + x.mT)
    return w + (v * v).sum(-2)


def _svd_value(x):
    u, s, vh = A._linalg_svd.default(x, False)
    return s.sum() + ((u * u * s.unsqueeze(-2)).sum() + (vh * vh * s.unsqueeze(-1)).sum())


def _eig_value(x):
    w, v = A.linalg_eig.default(x)
    return _real(w) + (_real(v) ** 2).sum()  # |v|^2 through real views: phase-invariant


def _polar_value(x):
    u, h = A.linalg_polar.default(x)
    return u.sum() + h.sum()


def _lu_value(x):
    p, low, up = A.linalg_lu.default(x)
    return low.sum() + (up * up).sum()


def _lu_factor_value(x):
    lu, _, _ = A.linalg_lu_factor_ex.default(x)
    return lu


def _lu_unpack_value(lu):
    _, pivots = opyard.linalg.lu_factor(lu.detach())
    _, low, up = A.lu_unpack.default(lu, pivots)
    return low.sum() + (up * 2).sum()


_PIVOTS = opyard.tensor([2, 2, 3], dtype=opyard.int32)  # rows 1 and 2 swapped, then none


def _lu_solve_value(lu, b):
    """Any matrix stores an LU factorization (unit L below the diagonal, U on and above it)."""
    return A.linalg_lu_solve.default(_well(lu), _PIVOTS, b, adjoint=True)


def _householder_value(a, tau):
    return A.linalg_householder_product.default(a, tau)


def _ormqr_value(a, tau, c):
    return A.ormqr.default(a, tau, c, False, True)


def _lstsq_value(a, b):
    x, res, _, _ = A.linalg_lstsq.default(a, b, driver="gelsd")
    return x.sum() + res.sum()


SAMPLES = {
    "aten::_conj": (lambda a: A._conj.default(a), (r(3),)),
    "aten::_conj_physical": (lambda a: A._conj_physical.default(a), (r(3),)),
    "aten::view_as_real": (lambda a: _real(A.view_as_complex.default(a) * 2), (r(3, 2),)),
    "aten::view_as_complex": (lambda a: _real(A.view_as_complex.default(a)), (r(2, 3, 2),)),
    "aten::_fft_c2c": (lambda a: _real(A._fft_c2c.default(A.view_as_complex.default(a), [0, 1], 1, False)),
                       (r(3, 4, 2),)),
    "aten::_fft_r2c": (lambda a: _real(A._fft_r2c.default(a, [0, 1], 2, True)), (r(3, 5),)),
    "aten::_fft_c2r": (lambda a: A._fft_c2r.default(A.view_as_complex.default(a), [1], 0, 6), (r(2, 4, 2),)),
    "aten::unfold_backward": (lambda a: A.unfold_backward.default(a, [2, 7], 1, 3, 2), (r(2, 3, 3),)),
    "aten::vdot": (lambda a, b: A.vdot.default(a, b), (r(4), r(4))),
    "aten::addr": (lambda s, a, b: A.addr.default(s, a, b, beta=0.5, alpha=2), (r(2, 3), r(2), r(3))),
    "aten::addmv": (lambda s, m, v: A.addmv.default(s, m, v, beta=2, alpha=0.5), (r(2), r(2, 3), r(3))),
    "aten::baddbmm": (lambda s, a, b: A.baddbmm.default(s, a, b, beta=0.5, alpha=2), (r(3, 1), r(2, 3, 5),
                                                                                       r(2, 5, 4))),
    "aten::addbmm": (lambda s, a, b: A.addbmm.default(s, a, b, alpha=2), (r(2, 4), r(3, 2, 5), r(3, 5, 4))),
    "aten::linalg_vector_norm": (lambda a: A.linalg_vector_norm.default(a, 3, [1]), (r(2, 3),)),
    "aten::linalg_cholesky_ex": (lambda a: A.linalg_cholesky_ex.default(_spd(a))[0], (r(2, 3, 3),)),
    "aten::linalg_inv_ex": (lambda a: A.linalg_inv_ex.default(_well(a))[0], (r(3, 3),)),
    "aten::_linalg_solve_ex": (lambda a, b: A._linalg_solve_ex.default(_well(a), b, left=False)[0],
                               (r(3, 3), r(2, 3))),
    "aten::_linalg_det": (lambda a: A._linalg_det.default(a)[0], (r(2, 3, 3),)),
    "aten::_linalg_slogdet": (lambda a: A._linalg_slogdet.default(a)[1], (r(3, 3),)),
    "aten::linalg_lu_factor_ex": (_lu_factor_value, (r(4, 3),)),
    "aten::linalg_lu": (_lu_value, (r(3, 5),)),
    "aten::lu_unpack": (_lu_unpack_value, (r(3, 3),)),
    "aten::linalg_lu_solve": (_lu_solve_value, (r(3, 3), r(3, 2))),
    "aten::linalg_solve_triangular": (lambda a, b: A.linalg_solve_triangular.default(_well(a), b, upper=True),
                                      (r(3, 3), r(3, 2))),
    "aten::triangular_solve": (lambda b, a: A.triangular_solve.default(b, _well(a), False)[0], (r(3, 2), r(3, 3))),
    "aten::cholesky_solve": (lambda b, a: A.cholesky_solve.default(b, _lower(a)), (r(3, 2), r(3, 3))),
    "aten::cholesky_inverse": (lambda a: A.cholesky_inverse.default(_lower(a).mT, True), (r(3, 3),)),
    "aten::linalg_householder_product": (_householder_value, (r(4, 3), r(2))),
    "aten::ormqr": (_ormqr_value, (r(4, 3), r(3), r(2, 4))),
    "aten::_linalg_eigh": (_eigh_value, (r(3, 3),)),
    "aten::linalg_eig": (_eig_value, (r(3, 3),)),
    "aten::_linalg_svd": (_svd_value, (r(4, 3),)),
    "aten::linalg_polar": (_polar_value, (r(4, 3),)),
    "aten::linalg_matrix_sqrth": (lambda a: A.linalg_matrix_sqrth.default(_spd(a)), (r(3, 3),)),
    "aten::linalg_matrix_exp": (lambda a: A.linalg_matrix_exp.default(a), (r(2, 3, 3),)),
    "aten::linalg_pinv.atol_rtol_tensor": (lambda a: A.linalg_pinv.atol_rtol_tensor(a), (r(4, 3),)),
    "aten::linalg_lstsq": (_lstsq_value, (r(5, 3), r(5, 2))),
    "aten::linalg_qr": (lambda a: A.linalg_qr.default(a)[1], (r(3, 5),)),
}

# The CompositeImplicitAutograd functions: their gradients are those of the operators they call.
COMPOSITE_SAMPLES = {
    "aten::linalg_det": (lambda a: A.linalg_det.default(a), (r(2, 3, 3),)),
    "aten::linalg_inv": (lambda a: A.linalg_inv.default(_spd(a)), (r(3, 3),)),
    "aten::linalg_solve": (lambda a, b: A.linalg_solve.default(_spd(a), b, left=False), (r(3, 3), r(2, 3))),
    "aten::linalg_cholesky": (lambda a: A.linalg_cholesky.default(_spd(a), upper=True), (r(3, 3),)),
    "aten::linalg_eigvalsh": (lambda a: A.linalg_eigvalsh.default(a + a.mT), (r(3, 3),)),
    "aten::linalg_svdvals": (lambda a: A.linalg_svdvals.default(a), (r(2, 4, 3),)),
    "aten::logdet": (lambda a: A.logdet.default(_spd(a)), (r(3, 3),)),
    "aten::linalg_cond": (lambda a: A.linalg_cond.default(_well(a), 1), (r(3, 3),)),
    "aten::linalg_multi_dot": (lambda a, b, c: A.linalg_multi_dot.default([a, b, c]), (r(3), r(3, 4), r(4, 2))),
    "aten::linalg_tensorinv": (lambda a: A.linalg_tensorinv.default(_well(a.reshape(4, 4)).reshape(2, 2, 4), 2),
                               (r(2, 2, 4),)),
    "aten::linalg_vander": (lambda x: A.linalg_vander.default(x, N=4), (r(3),)),
    "aten::linalg_vecdot": (lambda x, y: A.linalg_vecdot.default(x, y, dim=0), (r(3, 2), r(3, 1))),
    "aten::linalg_matrix_norm.str_ord": (lambda a: A.linalg_matrix_norm.str_ord(a, "nuc"), (r(2, 3, 4),)),
    "aten::tensordot": (lambda a, b: A.tensordot.default(a, b, [1, 2], [1, 0]), (r(2, 3, 4), r(4, 3, 2))),
    "aten::inner": (lambda a, b: A.inner.default(a, b), (r(2, 3), r(4, 3))),
    "aten::fft_hfftn": (lambda a: A.fft_hfftn.default(A.view_as_complex.default(a), [3, 4]), (r(3, 3, 2),)),
    "aten::fft_ihfft2": (lambda a: _real(A.fft_ihfft2.default(a)), (r(3, 4),)),
    "aten::stft": (lambda a: _real(A.stft.default(a, 8, 2, return_complex=True)), (r(20),)),
}
