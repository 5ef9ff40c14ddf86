"""Meta samples of the linear-algebra, Fourier-transform and complex-view operators (merged into
``meta_samples.SAMPLES``): per overload name, ``m -> (args, kwargs)`` on the device ``m`` makes
tensors for. Inputs are well-conditioned where the CPU kernel needs it (symmetric positive-definite
matrices for Cholesky, factorizations that exist)."""

import numpy as np

import opyard

f32, f64, c64, i32, i64 = opyard.float32, opyard.float64, opyard.complex64, opyard.int32, opyard.int64


def _spd(m, n=3, batch=()):
    """A symmetric positive-definite batch on ``m``'s device (fixed data)."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal(batch + (n, n))
    return opyard.tensor(a @ np.swapaxes(a, -1, -2) + n * np.eye(n), dtype=f32, device=m.device)


def _chol(m):
    """The Cholesky factor of a fixed positive-definite matrix, made on CPU, on ``m``'s device."""
    return opyard.linalg.cholesky(_spd(_CPU)).to(m.device)


class _OnCpu:
    device = "cpu"


_CPU = _OnCpu()


def _lu(m, shape=(2, 3, 3)):
    """An LU factorization (``LU``, ``pivots``) made on CPU, moved to ``m``'s device."""
    a = opyard.tensor(np.random.default_rng(2).standard_normal(shape), dtype=f32)
    lu, piv = opyard.linalg.lu_factor(a)
    return lu.to(m.device), piv.to(m.device)


def _ldl(m):
    a = opyard.tensor(np.random.default_rng(3).standard_normal((4, 4)), dtype=f32)
    ld, piv = opyard.linalg.ldl_factor(a + a.mT)
    return ld.to(m.device), piv.to(m.device)


def _geqrf(m, shape=(4, 3)):
    a, tau = opyard.geqrf(opyard.tensor(np.random.default_rng(4).standard_normal(shape), dtype=f32))
    return a.to(m.device), tau.to(m.device)


def _out(functional, dtype=f32):
    def sample(m):
        args, kwargs = functional(m)
        return args, {**kwargs, "out": opyard.empty(0, dtype=dtype, device=m.device)}
    return sample


SAMPLES = {
    # complex views and conjugation
    "view_as_real": lambda m: ((m(2, 3, dtype=c64),), {}), "view_as_complex": lambda m: ((m(2, 3, 2),), {}),
    "real": lambda m: ((m(2, 3, dtype=c64),), {}), "imag": lambda m: ((m(2, 3, dtype=c64),), {}),
    "conj": lambda m: ((m(2, 3, dtype=c64),), {}), "_conj": lambda m: ((m(2, 3, dtype=c64),), {}),
    "conj_physical": lambda m: ((m(2, 3, dtype=c64),), {}), "_conj_physical": lambda m: ((m(2, 3, dtype=c64),), {}),
    "resolve_conj": lambda m: ((m(2, 3, dtype=c64),), {}), "adjoint": lambda m: ((m(4, 2, 3, dtype=c64),), {}),
    # Fourier transforms
    "_fft_c2c": lambda m: ((m(2, 5, 4, dtype=c64), [0, 2], 1, True), {}),
    "_fft_r2c": lambda m: ((m(2, 5, 4), [1, 2], 2, True), {}),
    "_fft_c2r": lambda m: ((m(2, 5, 3, dtype=c64), [1, 2], 0, 4), {}),
    "fft_fft": lambda m: ((m(3, 5),), {"n": 7}), "fft_ifft": lambda m: ((m(3, 5, dtype=c64),), {"dim": 0}),
    "fft_rfft": lambda m: ((m(3, 6),), {}), "fft_irfft": lambda m: ((m(3, 4, dtype=c64),), {"n": 5}),
    "fft_hfft": lambda m: ((m(3, 4, dtype=c64),), {}), "fft_ihfft": lambda m: ((m(3, 5),), {"norm": "ortho"}),
    "fft_fft2": lambda m: ((m(2, 3, 4),), {}), "fft_ifft2": lambda m: ((m(2, 3, 4, dtype=c64),), {"s": [4, 2]}),
    "fft_rfft2": lambda m: ((m(2, 3, 4),), {}), "fft_irfft2": lambda m: ((m(2, 3, 4, dtype=c64),), {}),
    "fft_hfft2": lambda m: ((m(2, 3, 4, dtype=c64),), {}), "fft_ihfft2": lambda m: ((m(2, 3, 4),), {}),
    "fft_fftn": lambda m: ((m(2, 3, 4),), {"dim": [0, 2]}), "fft_ifftn": lambda m: ((m(2, 3, dtype=c64),), {}),
    "fft_rfftn": lambda m: ((m(2, 3, 4),), {}), "fft_irfftn": lambda m: ((m(2, 3, 4, dtype=c64),), {"s": [3, 6]}),
    "fft_hfftn": lambda m: ((m(2, 3, 4, dtype=c64),), {}), "fft_ihfftn": lambda m: ((m(2, 3, 4),), {}),
    "fft_fftshift": lambda m: ((m(3, 4),), {}), "fft_ifftshift": lambda m: ((m(3, 5),), {"dim": [1]}),
    "stft": lambda m: ((m(2, 20), 8), {"hop_length": 3, "return_complex": True, "window": m(8, positive=True)}),
    "stft.center": lambda m: ((m(20), 8), {"return_complex": True, "window": m(8, positive=True)}),
    "istft": lambda m: ((opyard.stft(m(30), 8, window=opyard.ones(8, device=m.device), return_complex=True), 8),
                        {"window": opyard.ones(8, device=m.device)}),
    "_fft_c2c.out": _out(lambda m: ((m(2, 5, dtype=c64), [1], 0, False), {}), c64),
    "_fft_r2c.out": _out(lambda m: ((m(2, 5), [1], 0, False), {}), c64),
    "_fft_c2r.out": _out(lambda m: ((m(2, 3, dtype=c64), [1], 0, 4), {})),
    "unfold_backward": lambda m: ((m(2, 3, 4), [2, 9], 1, 4, 2), {}),
    # products
    "vdot": lambda m: ((m(4), m(4)), {}), "vdot.out": _out(lambda m: ((m(4), m(4)), {})),
    "addr": lambda m: ((m(3), m(2), m(3)), {"beta": 2}), "addr_": lambda m: ((m(2, 3), m(2), m(3)), {"alpha": 3}),
    "addr.out": _out(lambda m: ((m(2, 3), m(2), m(3)), {})),
    "addmv": lambda m: ((m(2), m(2, 3), m(3)), {}), "addmv_": lambda m: ((m(2), m(2, 3), m(3)), {"beta": 0}),
    "addmv.out": _out(lambda m: ((m(2), m(2, 3), m(3)), {})),
    "addbmm": lambda m: ((m(2, 4), m(3, 2, 5), m(3, 5, 4)), {}),
    "addmm_": lambda m: ((m(2, 4), m(2, 3), m(3, 4)), {"alpha": 2}),
    "baddbmm_": lambda m: ((m(3, 2, 4), m(3, 2, 5), m(3, 5, 4)), {"beta": 0.5}),
    "baddbmm.out": _out(lambda m: ((m(4), m(3, 2, 5), m(3, 5, 4)), {})),
    "addbmm_": lambda m: ((m(2, 4), m(3, 2, 5), m(3, 5, 4)), {"alpha": 2}),
    "addbmm.out": _out(lambda m: ((m(2, 4), m(3, 2, 5), m(3, 5, 4)), {})),
    "tensordot": lambda m: ((m(2, 3, 4), m(4, 3, 5), [1, 2], [1, 0]), {}),
    "inner": lambda m: ((m(2, 3), m(4, 3)), {}), "inner.out": _out(lambda m: ((m(2, 3), m(4, 3)), {})),
    # factorizations and solves
    "linalg_cholesky_ex": lambda m: ((_spd(m),), {"upper": True}),
    "linalg_inv_ex": lambda m: ((m(2, 3, 3),), {}),
    "_linalg_solve_ex": lambda m: ((m(2, 3, 3), m(3, 2)), {}),
    "linalg_solve_ex": lambda m: ((m(3, 3), m(2, 3)), {"left": False}),
    "_linalg_det": lambda m: ((m(2, 3, 3),), {}), "_linalg_slogdet": lambda m: ((m(3, 3),), {}),
    "linalg_slogdet": lambda m: ((m(2, 3, 3),), {}), "slogdet": lambda m: ((m(3, 3),), {}),
    "logdet": lambda m: ((_spd(m),), {}),
    "linalg_lu_factor_ex": lambda m: ((m(2, 4, 3),), {}), "linalg_lu_factor": lambda m: ((m(3, 3),), {}),
    "_lu_with_info": lambda m: ((m(3, 4),), {}), "linalg_lu": lambda m: ((m(2, 3, 5),), {}),
    "lu_unpack": lambda m: (_lu(m, (2, 4, 3)), {}),
    "linalg_lu_solve": lambda m: (_lu(m) + (m(3, 2),), {"adjoint": True}),
    "lu_solve": lambda m: ((m(2, 3, 2),) + _lu(m), {}),
    "linalg_solve_triangular": lambda m: ((m(3, 3), m(2, 4, 3)), {"upper": False, "left": False}),
    "triangular_solve": lambda m: ((m(3, 2), m(2, 3, 3)), {"transpose": True}),
    "cholesky_solve": lambda m: ((m(3, 2), _chol(m)), {}),
    "cholesky_inverse": lambda m: ((_chol(m),), {"upper": False}),
    "linalg_ldl_factor_ex": lambda m: ((m(2, 3, 3),), {}), "linalg_ldl_factor": lambda m: ((m(3, 3),), {}),
    "linalg_ldl_solve": lambda m: (_ldl(m) + (m(4, 2),), {}),
    # decompositions
    "_linalg_eigh": lambda m: ((m(2, 3, 3),), {"compute_v": False}), "linalg_eigvalsh": lambda m: ((m(3, 3),), {}),
    "linalg_eig": lambda m: ((m(2, 3, 3),), {}), "linalg_eigvals": lambda m: ((m(3, 3),), {}),
    "_linalg_eigvals": lambda m: ((m(2, 3, 3),), {}),
    "_linalg_svd": lambda m: ((m(2, 4, 3),), {"full_matrices": True}), "linalg_svdvals": lambda m: ((m(3, 5),), {}),
    "svd": lambda m: ((m(2, 4, 3),), {"some": False}),
    "linalg_polar": lambda m: ((m(2, 4, 3),), {}), "linalg_matrix_sqrth": lambda m: ((_spd(m),), {}),
    "linalg_matrix_exp": lambda m: ((m(2, 3, 3),), {}), "matrix_exp": lambda m: ((m(3, 3),), {}),
    "geqrf": lambda m: ((m(2, 4, 3),), {}),
    "linalg_householder_product": lambda m: (_geqrf(m), {}), "orgqr": lambda m: (_geqrf(m, (5, 3)), {}),
    "ormqr": lambda m: (_geqrf(m) + (m(4, 2),), {"transpose": True}),
    "linalg_pinv.atol_rtol_tensor": lambda m: ((m(2, 4, 3),), {"hermitian": False}),
    "linalg_pinv.atol_rtol_float": lambda m: ((m(4, 3),), {"rtol": 0.1}),
    "linalg_pinv": lambda m: ((m(3, 4), 1e-5), {}), "linalg_pinv.rcond_tensor": lambda m: ((m(3, 3), m()), {}),
    "pinverse": lambda m: ((m(2, 3, 4),), {}),
    "linalg_lstsq": lambda m: ((m(5, 3), m(5, 2)), {"driver": "gelsd"}),
    # functions of decompositions
    "linalg_matrix_rank.atol_rtol_tensor": lambda m: ((m(2, 4, 3),), {}),
    "linalg_matrix_rank.atol_rtol_float": lambda m: ((m(3, 3),), {"atol": 0.5, "hermitian": True}),
    "linalg_matrix_rank": lambda m: ((m(3, 4), 0.1), {}), "linalg_matrix_rank.tol_tensor": lambda m: ((m(3, 3), m()), {}),
    "linalg_cond": lambda m: ((m(2, 3, 3),), {}), "linalg_cond.p_str": lambda m: ((m(3, 3), "fro"), {}),
    "linalg_diagonal": lambda m: ((m(2, 3, 4),), {"offset": 1}),
    "linalg_multi_dot": lambda m: (([m(3), m(3, 4), m(4, 2), m(2, 5)],), {}),
    "linalg_tensorinv": lambda m: ((m(4, 2, 2, 4),), {}),
    "linalg_tensorsolve": lambda m: ((m(2, 3, 6), m(2, 3)), {}),
    "linalg_vander": lambda m: ((m(2, 4),), {"N": 3}),
    "linalg_vecdot": lambda m: ((m(2, 3), m(3)), {"dim": -1}),
    "linalg_matrix_norm": lambda m: ((m(2, 3, 4), 1), {}),
    "linalg_matrix_norm.str_ord": lambda m: ((m(3, 4), "nuc"), {"keepdim": True}),
    "linalg_norm": lambda m: ((m(3, 4),), {"ord": 2}), "linalg_norm.ord_str": lambda m: ((m(3, 4), "fro"), {}),
}
