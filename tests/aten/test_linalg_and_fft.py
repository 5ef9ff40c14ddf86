"""The linear-algebra and Fourier-transform operators: numerics against numpy (LAPACK, pocketfft)
and closed forms, torch's result dtypes, views and messages, gradients in float64, vmap against a
loop, and meta tensors (shapes, dtypes and strides without data)."""

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck
from opyard.func import vmap

A = opyard.ops.aten
rng = np.random.default_rng(20)


def t(a, dtype=opyard.float64, **kw):
    return opyard.tensor(np.asarray(a), dtype=dtype, **kw)


def well(n, *batch):
    return rng.standard_normal(batch + (n, n)) + 3 * np.eye(n)


def spd(n, *batch):
    x = rng.standard_normal(batch + (n, n))
    return x @ np.swapaxes(x, -1, -2) + np.eye(n)


# --- factorizations and solves ------------------------------------------------------------------


def test_lu_factor_and_lu_solve_solve_the_system():
    a, b = well(4, 2), rng.standard_normal((2, 4, 3))
    lu, piv = opyard.linalg.lu_factor(t(a))
    assert piv.dtype == opyard.int32 and tuple(piv.shape) == (2, 4)
    x = opyard.linalg.lu_solve(lu, piv, t(b))
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b), rtol=1e-10)
    xa = opyard.linalg.lu_solve(lu, piv, t(b), adjoint=True)
    np.testing.assert_allclose(xa.numpy(), np.linalg.solve(np.swapaxes(a, -1, -2), b), rtol=1e-10)


def test_lu_reassembles_the_matrix():
    a = rng.standard_normal((3, 5))
    p, low, up = opyard.linalg.lu(t(a))
    np.testing.assert_allclose((p @ low @ up).numpy(), a, atol=1e-12)
    assert np.allclose(np.triu(low.numpy(), 1), 0) and np.allclose(np.diag(low.numpy()), 1)


def test_cholesky_ex_reports_the_failing_minor_instead_of_raising():
    a = spd(3)
    low, info = opyard.linalg.cholesky_ex(t(a))
    np.testing.assert_allclose(low.numpy(), np.linalg.cholesky(a), rtol=1e-10)
    assert info.item() == 0
    _, info = opyard.linalg.cholesky_ex(t(-np.eye(3)))
    assert info.item() == 1
    with pytest.raises(opyard.linalg.LinAlgError, match=r"the leading minor of order 1 is not positive-definite"):
        opyard.linalg.cholesky(t(-np.eye(3)))


def test_cholesky_solve_and_inverse():
    a, b = spd(3), rng.standard_normal((3, 2))
    low = np.linalg.cholesky(a)
    np.testing.assert_allclose(opyard.cholesky_solve(t(b), t(low)).numpy(), np.linalg.solve(a, b), rtol=1e-10)
    np.testing.assert_allclose(opyard.cholesky_inverse(t(low)).numpy(), np.linalg.inv(a), rtol=1e-10)
    np.testing.assert_allclose(opyard.cholesky_inverse(t(low.T), upper=True).numpy(), np.linalg.inv(a), rtol=1e-10)


@pytest.mark.parametrize("left", [True, False])
@pytest.mark.parametrize("upper", [True, False])
def test_solve_triangular_reads_one_triangle(upper, left):
    a = well(3)
    tri = np.triu(a) if upper else np.tril(a)
    b = rng.standard_normal((3, 2) if left else (2, 3))
    x = opyard.linalg.solve_triangular(t(a), t(b), upper=upper, left=left).numpy()
    np.testing.assert_allclose(tri @ x if left else x @ tri, b, atol=1e-12)


def test_ldl_factor_and_solve():
    a, b = spd(4), rng.standard_normal((4, 2))
    ld, piv = opyard.linalg.ldl_factor(t(a))
    np.testing.assert_allclose(opyard.linalg.ldl_solve(ld, piv, t(b)).numpy(), np.linalg.solve(a, b), rtol=1e-9)


def test_inverse_determinant_and_solve():
    a, b = well(3, 2), rng.standard_normal((2, 3))
    inv, info = opyard.linalg.inv_ex(t(a))
    np.testing.assert_allclose(inv.numpy(), np.linalg.inv(a), rtol=1e-10)
    assert info.tolist() == [0, 0]
    sign, logabs = opyard.linalg.slogdet(t(a))
    s, la = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign.numpy(), s)
    np.testing.assert_allclose(logabs.numpy(), la, rtol=1e-10)
    p = spd(3)
    np.testing.assert_allclose(opyard.logdet(t(p)).item(), np.linalg.slogdet(p)[1], rtol=1e-10)
    x, info = opyard.linalg.solve_ex(t(a), t(b))
    np.testing.assert_allclose(x.numpy(), np.linalg.solve(a, b[..., None])[..., 0], rtol=1e-10)


def test_householder_product_and_ormqr_rebuild_q():
    a = rng.standard_normal((5, 3))
    h, tau = opyard.geqrf(t(a))
    q = opyard.linalg.householder_product(h, tau).numpy()
    r = np.triu(h.numpy())[:3]
    np.testing.assert_allclose(q @ r, a, atol=1e-12)
    c = rng.standard_normal((5, 2))
    np.testing.assert_allclose(opyard.ormqr(h, tau, t(c), transpose=True).numpy(), _full_q(h, tau).T @ c, atol=1e-12)


def _full_q(h, tau):
    m = h.shape[0]
    padded = np.zeros((m, m))
    padded[:, :h.shape[1]] = h.numpy()
    taus = np.zeros(m)
    taus[:tau.shape[0]] = tau.numpy()
    return opyard.linalg.householder_product(t(padded), t(taus)).numpy()


# --- spectral ---------------------------------------------------------------------------------


def test_eig_and_eigvals_are_complex_and_reassemble():
    a = rng.standard_normal((4, 4))
    w, v = opyard.linalg.eig(t(a))
    assert w.dtype == opyard.complex128 and v.dtype == opyard.complex128
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * w.numpy()[None], atol=1e-10)
    np.testing.assert_allclose(np.sort_complex(opyard.linalg.eigvals(t(a)).numpy()), np.sort_complex(w.numpy()))


def test_svd_pinv_lstsq_and_rank():
    a = rng.standard_normal((5, 3))
    u, s, vh = opyard.linalg.svd(t(a), full_matrices=False)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ vh.numpy(), a, atol=1e-12)
    np.testing.assert_allclose(opyard.linalg.pinv(t(a)).numpy(), np.linalg.pinv(a), atol=1e-12)
    b = rng.standard_normal((5, 2))
    sol = opyard.linalg.lstsq(t(a), t(b)).solution
    np.testing.assert_allclose(sol.numpy(), np.linalg.lstsq(a, b, rcond=None)[0], atol=1e-12)
    low_rank = a[:, :2] @ rng.standard_normal((2, 4))
    assert opyard.linalg.matrix_rank(t(low_rank)).item() == 2


def test_polar_and_matrix_sqrth():
    a = rng.standard_normal((4, 3))
    u, h = opyard.linalg.polar(t(a))
    np.testing.assert_allclose((u @ h).numpy(), a, atol=1e-12)
    np.testing.assert_allclose((u.mT @ u).numpy(), np.eye(3), atol=1e-12)
    p = spd(3)
    r = opyard.linalg.matrix_sqrth(t(p)).numpy()
    np.testing.assert_allclose(r @ r, p, atol=1e-10)


def test_matrix_exp_closed_forms():
    theta = 0.7
    rot = np.array([[0.0, -theta], [theta, 0.0]])
    np.testing.assert_allclose(opyard.linalg.matrix_exp(t(rot)).numpy(),
                               [[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]], atol=1e-14)
    nil = np.array([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0], [0.0, 0.0, 0.0]])  # exp = I + N + N^2 / 2
    np.testing.assert_allclose(opyard.matrix_exp(t(nil)).numpy(), np.eye(3) + nil + nil @ nil / 2, atol=1e-14)


def test_composites():
    x = rng.standard_normal(4)
    np.testing.assert_allclose(opyard.linalg.vander(t(x)).numpy(), np.vander(x, increasing=True), rtol=1e-12)
    a, b, c = rng.standard_normal((3, 4)), rng.standard_normal((4, 5)), rng.standard_normal((5, 2))
    np.testing.assert_allclose(opyard.linalg.multi_dot([t(a), t(b), t(c)]).numpy(), a @ b @ c, rtol=1e-12)
    y = rng.standard_normal((3, 4))
    np.testing.assert_allclose(opyard.linalg.vecdot(t(y), t(y)).numpy(), (y * y).sum(-1), rtol=1e-12)
    m = well(6).reshape(2, 3, 6)
    inv = opyard.linalg.tensorinv(t(m), ind=2).numpy()
    np.testing.assert_allclose(inv.reshape(6, 6), np.linalg.inv(m.reshape(6, 6)), rtol=1e-10)
    rhs = rng.standard_normal((2, 3))
    np.testing.assert_allclose(opyard.linalg.tensorsolve(t(m), t(rhs)).numpy(),
                               np.linalg.tensorsolve(m, rhs), rtol=1e-10)
    np.testing.assert_allclose(opyard.tensordot(t(a), t(b), 1).numpy(), a @ b, rtol=1e-12)
    np.testing.assert_allclose(opyard.inner(t(a), t(a)).numpy(), a @ a.T, rtol=1e-12)
    w = well(3)
    np.testing.assert_allclose(opyard.linalg.cond(t(w)).item(), np.linalg.cond(w), rtol=1e-10)


# --- BLAS-style updates -------------------------------------------------------------------------


def test_baddbmm_values_and_zero_rules():
    s, b1, b2 = rng.standard_normal((2, 3, 4)), rng.standard_normal((2, 3, 5)), rng.standard_normal((2, 5, 4))
    r = opyard.baddbmm(t(s), t(b1), t(b2), beta=0.5, alpha=2)
    np.testing.assert_allclose(r.numpy(), 0.5 * s + 2 * b1 @ b2, rtol=1e-12)
    nan = np.full((2, 3, 4), np.nan)
    assert not np.isnan(opyard.baddbmm(t(nan), t(b1), t(b2), beta=0).numpy()).any()
    x = opyard.ones(2, 2, 2, dtype=opyard.int64)  # integers truncate alpha and beta: 1 * 1 + 2 * 2
    assert set(opyard.baddbmm(x, x, x, beta=1.7, alpha=2.9).reshape(-1).tolist()) == {5}
    y = t(s)
    assert y.baddbmm_(t(b1), t(b2)) is y
    np.testing.assert_allclose(y.numpy(), s + b1 @ b2, rtol=1e-12)


def test_addmm_follows_blas_zero_rules():
    nan = opyard.full((2, 2), float("nan"))
    assert opyard.addmm(nan, opyard.ones(2, 3), opyard.ones(3, 2), beta=0).tolist() == [[3.0, 3.0], [3.0, 3.0]]
    m = opyard.ones(2, 3)
    m[0, 0] = float("nan")
    assert opyard.addmm(opyard.ones(2, 2), m, opyard.ones(3, 2), alpha=0).tolist() == [[1.0, 1.0], [1.0, 1.0]]
    i = opyard.ones(2, 2, dtype=opyard.int64)
    assert opyard.addmm(i, i, i, beta=1.7, alpha=2.9).tolist() == [[5, 5], [5, 5]]
    x = opyard.zeros(2, 2)
    assert x.addmm_(opyard.ones(2, 3), opyard.ones(3, 2)) is x and x.tolist() == [[3.0, 3.0], [3.0, 3.0]]


ADDMM_ERRORS = [
    ((2, 2), (2, 3), (4, 2), None, r"addmm: mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x2\)"),
    ((2, 2), (3,), (3, 2), None, r"addmm: self must be a matrix, got 1-D tensor"),
    ((2, 2), (2, 3), (3,), None, r"addmm: mat2 must be a matrix, got 1-D tensor"),
    ((2, 2), (2, 3), (3, 2), opyard.float64, r"self and mat2 must have the same dtype, but got Float and Double"),
    ((4, 4), (2, 3), (3, 2), None, r"The expanded size of the tensor \(2\) must match the existing size \(4\)"),
]


@pytest.mark.parametrize("s, m1, m2, m2_dtype, match", ADDMM_ERRORS)
def test_addmm_errors_are_torchs(s, m1, m2, m2_dtype, match):
    with pytest.raises(RuntimeError, match=match):
        opyard.addmm(opyard.ones(*s), opyard.ones(*m1), opyard.ones(*m2, dtype=m2_dtype))


def test_baddbmm_rounds_half_precision_once():
    b1 = rng.standard_normal((2, 3, 5)).astype(np.float32)
    b2 = rng.standard_normal((2, 5, 4)).astype(np.float32)
    s = rng.standard_normal((4,)).astype(np.float32)
    h = opyard.baddbmm(t(s, opyard.float16), t(b1, opyard.float16), t(b2, opyard.float16))
    want = (s.astype(np.float16).astype(np.float32) + b1.astype(np.float16).astype(np.float32)
            @ b2.astype(np.float16).astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(h.numpy(), want)


BADDBMM_ERRORS = [
    ((2, 3, 4), (2, 3, 5), (2, 5, 4), opyard.float64, RuntimeError,
     r"Input dtypes must be the same, got: input float, batch1: double, batch2: float"),
    ((3, 5, 4), (3, 5), (2, 5, 4), None, RuntimeError, r"batch1 must be a 3D tensor"),
    ((2, 3, 4), (2, 3, 5), (1, 5, 4), None, RuntimeError,
     r"Expected size for first two dimensions of batch2 tensor to be: \[2, 5\] but got: \[1, 5\]\."),
    ((2, 3, 4), (2, 3, 5), (5, 4), None, IndexError, r"Dimension out of range \(expected to be in range of \[-2, 1\]"),
    ((3, 3), (2, 3, 5), (2, 5, 4), None, RuntimeError,
     r"The expanded size of the tensor \(4\) must match the existing size \(3\) at non-singleton dimension 2"),
]


@pytest.mark.parametrize("s, b1, b2, b1_dtype, exc, match", BADDBMM_ERRORS)
def test_baddbmm_errors_are_torchs(s, b1, b2, b1_dtype, exc, match):
    with pytest.raises(exc, match=match):
        opyard.baddbmm(opyard.randn(*s), opyard.randn(*b1, dtype=b1_dtype), opyard.randn(*b2))


def test_baddbmm_gradients():
    args = (t(rng.standard_normal((3, 1)), requires_grad=True), t(rng.standard_normal((2, 3, 5)), requires_grad=True),
            t(rng.standard_normal((2, 5, 4)), requires_grad=True))
    assert gradcheck(lambda s, a, b: opyard.baddbmm(s, a, b, beta=0.5, alpha=2), args)
    assert opyard.baddbmm(*args).grad_fn.name() == "BaddbmmBackward0"


# --- einsum -----------------------------------------------------------------------------------

EINSUM = [("ij,jk->ik", [(2, 3), (3, 4)]), ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("i,i->", [(3,), (3,)]),
          ("i,j", [(3,), (4,)]), ("ii->i", [(3, 3)]), ("ii", [(3, 3)]), ("...ij,...jk", [(2, 1, 3, 4), (5, 4, 2)]),
          ("i...->...", [(3, 4, 5)]), ("ijk,ikl,ilm->jm", [(2, 3, 4), (2, 4, 5), (2, 5, 3)]),
          ("bn,anm,bm->ba", [(2, 3), (4, 3, 5), (2, 5)]), ("Ab,ba", [(2, 3), (3, 2)]), ("ijj->ij", [(2, 3, 3)]),
          ("...ik, ...j -> ij", [(1, 2, 3), (3,)])]


@pytest.mark.parametrize("equation, shapes", EINSUM)
def test_einsum_matches_numpy(equation, shapes):
    xs = [rng.standard_normal(s) for s in shapes]
    got = opyard.einsum(equation, [t(x) for x in xs]).numpy()
    if equation == "...ik, ...j -> ij":  # the ellipsis dims, absent from the output, are summed
        want = np.einsum("aik,j->ij", xs[0], xs[1])
    else:
        want = np.einsum(equation, *xs)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_einsum_dtypes_and_views_are_torchs():
    x = opyard.arange(6, dtype=opyard.int16).reshape(2, 3)
    assert opyard.einsum("ij->i", x).dtype == opyard.int64  # a sum within one operand
    assert opyard.einsum("ij,ij->ij", x, x).dtype == opyard.int16
    assert opyard.einsum("ij,kj->ik", x, x).dtype == opyard.int16  # a bmm keeps the dtype
    y = opyard.randn(2, 3)
    v = opyard.einsum("ij->ji", y)
    assert v.stride() == (1, 3) and v._base is y
    d = opyard.einsum("ii->i", opyard.randn(3, 3))
    assert d.stride() == (4,)


EINSUM_ERRORS = [
    ("ij,jk->ik", [(2, 3)], "einsum(): fewer operands were provided than specified in the equation"),
    ("ij", [(2, 3), (3, 4)], "einsum(): more operands were provided than specified in the equation"),
    ("ij->ik", [(2, 3)], "einsum(): output subscript k does not appear in the equation for any input operand"),
    ("ij->ii", [(2, 3)], "einsum(): output subscript i appears more than once in the output"),
    ("i..j->ij", [(2, 3)], "einsum(): found '.' for operand 0 that is not part of any ellipsis"),
    ("ij", [(2, 3, 4)], r"einsum(): the number of subscripts in the equation (2) does not match the number of "
                        r"dimensions (3) for operand 0 and no ellipsis was given"),
    ("ijk...", [(2, 3)], r"einsum(): the number of subscripts in the equation (3) is more than the number of "
                         r"dimensions (2) for operand 0"),
    ("ij,jk->ik", [(2, 3), (4, 5)],
     "einsum(): subscript j has size 4 for operand 1 which does not broadcast with previously seen size 3"),
    ("ii->i", [(2, 3)], "einsum(): subscript i is repeated for operand 0 but the sizes don't match, 3 != 2"),
    ("i1->i", [(2, 3)], "einsum(): invalid subscript given at index 1 in the equation string, subscripts must be "
                        "in [a-zA-Z]"),
    ("...i...->i", [(2, 3)], "einsum(): found '.' for operand 0 for which an ellipsis was already found"),
]


@pytest.mark.parametrize("equation, shapes, message", EINSUM_ERRORS)
def test_einsum_errors_are_torchs(equation, shapes, message):
    with pytest.raises(RuntimeError) as info:
        opyard.einsum(equation, [opyard.randn(*s) for s in shapes])
    assert str(info.value).startswith(message)


def test_einsum_gradients_and_vmap():
    a, b = t(rng.standard_normal((2, 3)), requires_grad=True), t(rng.standard_normal((3, 3, 4)), requires_grad=True)
    assert gradcheck(lambda x, y: opyard.einsum("ij,jjk->ik", x, y), (a, b))
    xs, ys = opyard.randn(5, 2, 3), opyard.randn(5, 3, 4)
    got = vmap(lambda x, y: opyard.einsum("ij,jk->ik", x, y))(xs, ys)
    np.testing.assert_allclose(got.numpy(), np.einsum("bij,bjk->bik", xs.numpy(), ys.numpy()), rtol=1e-5, atol=1e-6)


# --- FFT ---------------------------------------------------------------------------------------

FFTS = [
    ("fft", lambda x: opyard.fft.fft(x, n=6, norm="ortho"), lambda x: np.fft.fft(x, n=6, norm="ortho"), True),
    ("ifft", lambda x: opyard.fft.ifft(x, dim=0), lambda x: np.fft.ifft(x, axis=0), True),
    ("rfft", lambda x: opyard.fft.rfft(x), lambda x: np.fft.rfft(x), False),
    ("irfft", lambda x: opyard.fft.irfft(x, n=7), lambda x: np.fft.irfft(x, n=7), True),
    ("hfft", lambda x: opyard.fft.hfft(x, norm="forward"), lambda x: np.fft.hfft(x, norm="forward"), True),
    ("ihfft", lambda x: opyard.fft.ihfft(x), lambda x: np.fft.ihfft(x), False),
    ("fft2", lambda x: opyard.fft.fft2(x), lambda x: np.fft.fft2(x), True),
    ("rfftn", lambda x: opyard.fft.rfftn(x, s=(4, 6)), lambda x: np.fft.rfftn(x, s=(4, 6)), False),
    ("irfftn", lambda x: opyard.fft.irfftn(x), lambda x: np.fft.irfftn(x), True),
    ("fftshift", lambda x: opyard.fft.fftshift(x), lambda x: np.fft.fftshift(x), False),
    ("ifftshift", lambda x: opyard.fft.ifftshift(x, dim=1), lambda x: np.fft.ifftshift(x, axes=1), False),
]


@pytest.mark.parametrize("name, ours, theirs, complex_input", FFTS, ids=[f[0] for f in FFTS])
def test_fft_matches_numpy(name, ours, theirs, complex_input):
    x = rng.standard_normal((4, 5))
    if complex_input:
        x = x + 1j * rng.standard_normal((4, 5))
    got = ours(t(x, opyard.complex128 if complex_input else opyard.float64))
    np.testing.assert_allclose(got.numpy(), theirs(x), rtol=1e-10, atol=1e-12)


def test_fft_dtypes_follow_torch():
    assert opyard.fft.rfft(opyard.randn(8)).dtype == opyard.complex64
    assert opyard.fft.fft(opyard.arange(4)).dtype == opyard.complex64  # integers go through the default dtype
    assert opyard.fft.irfft(opyard.randn(5, dtype=opyard.complex128)).dtype == opyard.float64


def test_stft_and_istft_round_trip():
    x = rng.standard_normal(64)
    window = t(0.5 - 0.5 * np.cos(2 * np.pi * np.arange(16) / 16))  # periodic Hann
    spec = opyard.stft(t(x), 16, hop_length=4, window=window, return_complex=True)
    assert tuple(spec.shape) == (9, 17) and spec.dtype == opyard.complex128
    back = opyard.istft(spec, 16, hop_length=4, window=window, length=64)
    np.testing.assert_allclose(back.numpy(), x, atol=1e-12)


def test_fft_gradients():
    x = t(rng.standard_normal((3, 5)), requires_grad=True)
    assert gradcheck(lambda v: opyard.view_as_real(opyard.fft.rfft2(v)), (x,))
    z = t(rng.standard_normal((4, 2)), requires_grad=True)
    assert gradcheck(lambda v: opyard.fft.irfft(opyard.view_as_complex(v), n=6), (z,))


# --- errors ------------------------------------------------------------------------------------

ERRORS = [
    (lambda: opyard.linalg.inv(opyard.zeros(2, 2)), opyard.linalg.LinAlgError,
     r"linalg.inv: The diagonal element 1 is zero, the inversion could not be completed because the input matrix "
     r"is singular."),
    (lambda: opyard.linalg.lu_factor(opyard.ones(2, 3, dtype=opyard.int64)), NotImplementedError,
     r"\"lu_cpu\" not implemented for 'Long'"),
    (lambda: opyard.linalg.solve_triangular(opyard.eye(3), opyard.ones(2, 2), upper=True), RuntimeError,
     r"linalg.solve_triangular: Incompatible shapes of A and B for the equation AX = B \(3x3 and 2x2\)"),
    (lambda: opyard.linalg.eig(opyard.ones(2, 3)), RuntimeError,
     r"linalg.eig: A must be batches of square matrices, but they are 2 by 3 matrices"),
    (lambda: opyard.linalg.householder_product(opyard.ones(2, 3), opyard.ones(1)), RuntimeError,
     r"torch.linalg.householder_product: input.shape\[-2\] must be greater than or equal to input.shape\[-1\]"),
    (lambda: opyard.fft.fft(opyard.ones(3), n=0), RuntimeError, r"Invalid number of data points \(0\) specified"),
    (lambda: opyard.fft.rfft(opyard.ones(3, dtype=opyard.complex64)), TypeError,
     r"rfft expects a real input tensor, but got ComplexFloat"),
    (lambda: opyard.fft.rfftn(opyard.ones(3, 3, dtype=opyard.complex64)), TypeError,
     r"rfftn expects a real-valued input tensor, but got ComplexFloat"),
    (lambda: opyard.fft.ihfft2(opyard.ones(3, 3, dtype=opyard.complex64)), TypeError,
     r"Only supports floating-point dtypes, but found: ComplexFloat"),
    (lambda: opyard.stft(opyard.ones(10), 4), RuntimeError,
     r"stft requires the return_complex parameter be given for real inputs"),
    (lambda: opyard.linalg.vecdot(opyard.ones(3), opyard.ones(3, dtype=opyard.float64)), RuntimeError,
     r"linalg.vecdot: Expected x and y to have the same dtype, but found x of type Float and y of type Double"),
    (lambda: opyard.linalg.multi_dot([opyard.ones(3)]), RuntimeError,
     r"multi_dot\(\): expected at least 2 tensors but got 1"),
    (lambda: opyard.linalg.polar(opyard.ones(2, 3)), RuntimeError,
     r"linalg.polar: input must have at least as many rows as columns, but got 2 by 3 matrices"),
    (lambda: opyard.diagonal(opyard.ones(3, 3), 0, 1, -1), RuntimeError,
     r"diagonal dimensions cannot be identical 1, -1"),
]


@pytest.mark.parametrize("fn, exc, match", ERRORS, ids=[e[2][:40] for e in ERRORS])
def test_errors_are_torchs(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn()


# --- meta tensors and vmap ---------------------------------------------------------------------

META = [
    (lambda m: opyard.linalg.lu_factor(m(2, 4, 3))[0], (2, 4, 3), (12, 1, 4)),
    (lambda m: opyard.linalg.lu_factor(m(2, 4, 3))[1], (2, 3), None),
    (lambda m: opyard.linalg.eig(m(3, 3))[0], (3,), None),
    (lambda m: opyard.linalg.svd(m(2, 5, 3), full_matrices=False)[0], (2, 5, 3), (15, 1, 5)),
    (lambda m: opyard.linalg.lstsq(m(5, 3), m(5, 2)).solution, (3, 2), (1, 3)),
    (lambda m: opyard.baddbmm(m(2, 3, 4), m(2, 3, 5), m(2, 5, 4)), (2, 3, 4), (12, 4, 1)),
    (lambda m: opyard.einsum("bij,bjk->bik", m(2, 3, 5), m(2, 5, 4)), (2, 3, 4), None),
    (lambda m: opyard.fft.rfft(m(4, 10)), (4, 6), None),
]


@pytest.mark.parametrize("fn, shape, strides", META)
def test_meta_results_have_the_cpu_layout(fn, shape, strides):
    r = fn(lambda *s: opyard.randn(*s, device="meta"))
    assert tuple(r.shape) == shape and r.device.type == "meta"
    cpu = fn(lambda *s: opyard.tensor(rng.standard_normal(s) + (3 * np.eye(s[-1]) if s[-1] == s[-2] else 0),
                                      dtype=opyard.float32))
    assert r.dtype == cpu.dtype and tuple(r.shape) == tuple(cpu.shape)
    if strides is not None:
        assert r.stride() == strides == cpu.stride()


def test_vmap_of_lu_solve_matches_a_loop():
    a, b = well(3, 4), rng.standard_normal((4, 3, 2))
    lu, piv = opyard.linalg.lu_factor(t(a))
    got = vmap(opyard.linalg.lu_solve)(lu, piv, t(b))
    np.testing.assert_allclose(got.numpy(), np.stack([np.linalg.solve(a[i], b[i]) for i in range(4)]), rtol=1e-10)
