"""``opyard.linalg``: torch.linalg over the ``aten::linalg_*`` operators (decompositions, solves,
inverses, determinants, norms, ...). Functions with ``out=`` write their result into it.

Example::

    >>> opyard.linalg.vector_norm(opyard.tensor([3.0, 4.0]))
    tensor(5.)
"""

from ._ops import ops

from ._aten.linalg_ops import LinAlgError

__all__ = ["vector_norm", "matrix_norm", "norm", "det", "slogdet", "cond", "matrix_rank", "cholesky", "cholesky_ex",
           "inv", "inv_ex", "solve", "solve_ex", "solve_triangular", "lu", "lu_factor", "lu_factor_ex", "lu_solve",
           "ldl_factor", "ldl_factor_ex", "ldl_solve", "qr", "eig", "eigvals", "eigh", "eigvalsh", "svd", "svdvals",
           "pinv", "lstsq", "matrix_exp", "matrix_power", "matrix_sqrth", "polar", "cross", "matmul", "diagonal",
           "multi_dot", "householder_product", "tensorinv", "tensorsolve", "vander", "vecdot", "LinAlgError"]

_A = ops.aten


def _dims(dim):
    return None if dim is None else ([dim] if isinstance(dim, int) else list(dim))


def _out(r, out):
    """``r``, or ``out`` (a tensor, or a tuple of them for several results) with ``r`` copied in."""
    if out is None:
        return r
    if isinstance(r, tuple):
        for o, x in zip(out, r):
            o.copy_(x)
        return out
    return out.copy_(r)


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    return _out(_A.linalg_vector_norm.default(x, ord, _dims(dim), keepdim, dtype=dtype), out)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    op = _A.linalg_matrix_norm.str_ord if isinstance(ord, str) else _A.linalg_matrix_norm.default
    return _out(op(A, ord, list(dim), keepdim, dtype=dtype), out)


def norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    """torch.linalg.norm: a vector norm for 1 dimension (or ``ord=None`` with ``dim=None``),
    a matrix norm for 2."""
    if isinstance(ord, str):
        return _out(_A.linalg_norm.ord_str(A, ord, _dims(dim), keepdim, dtype=dtype), out)
    return _out(_A.linalg_norm.default(A, ord, _dims(dim), keepdim, dtype=dtype), out)


def det(A, *, out=None):
    return _out(_A.linalg_det.default(A), out)


def slogdet(A, *, out=None):
    return _out(_A.linalg_slogdet.default(A), out)


def cond(A, p=None, *, out=None):
    if isinstance(p, str):
        return _out(_A.linalg_cond.p_str(A, p), out)
    return _out(_A.linalg_cond.default(A, p), out)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values (absolute eigenvalues when ``hermitian``) above
    ``max(atol, rtol * largest)``; ``tol`` is the deprecated spelling of ``atol``."""
    if tol is not None:
        r = (_A.linalg_matrix_rank.tol_tensor(A, tol, hermitian) if hasattr(tol, "shape")
             else _A.linalg_matrix_rank.default(A, float(tol), hermitian))
    elif (atol is None or hasattr(atol, "shape")) and (rtol is None or hasattr(rtol, "shape")):
        r = _A.linalg_matrix_rank.atol_rtol_tensor(A, atol=atol, rtol=rtol, hermitian=hermitian)
    else:
        r = _A.linalg_matrix_rank.atol_rtol_float(A, atol=_float(atol), rtol=_float(rtol), hermitian=hermitian)
    return _out(r, out)


def _float(v):
    return None if v is None else float(v)


def cholesky(A, *, upper=False, out=None):
    return _out(_A.linalg_cholesky.default(A, upper=upper), out)


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    return _out(_A.linalg_cholesky_ex.default(A, upper=upper, check_errors=check_errors), out)


def inv(A, *, out=None):
    return _out(_A.linalg_inv.default(A), out)


def inv_ex(A, *, check_errors=False, out=None):
    return _out(_A.linalg_inv_ex.default(A, check_errors=check_errors), out)


def solve(A, B, *, left=True, out=None):
    return _out(_A.linalg_solve.default(A, B, left=left), out)


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    return _out(_A.linalg_solve_ex.default(A, B, left=left, check_errors=check_errors), out)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    return _out(_A.linalg_solve_triangular.default(A, B, upper=upper, left=left, unitriangular=unitriangular), out)


def lu(A, *, pivot=True, out=None):
    return _out(_A.linalg_lu.default(A, pivot=pivot), out)


def lu_factor(A, *, pivot=True, out=None):
    return _out(_A.linalg_lu_factor.default(A, pivot=pivot), out)


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    return _out(_A.linalg_lu_factor_ex.default(A, pivot=pivot, check_errors=check_errors), out)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    return _out(_A.linalg_lu_solve.default(LU, pivots, B, left=left, adjoint=adjoint), out)


def ldl_factor(A, *, hermitian=False, out=None):
    return _out(_A.linalg_ldl_factor.default(A, hermitian=hermitian), out)


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    return _out(_A.linalg_ldl_factor_ex.default(A, hermitian=hermitian, check_errors=check_errors), out)


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    return _out(_A.linalg_ldl_solve.default(LD, pivots, B, hermitian=hermitian), out)


def qr(A, mode="reduced", *, out=None):
    return _out(_A.linalg_qr.default(A, mode), out)


def eig(A, *, out=None):
    return _out(_A.linalg_eig.default(A), out)


def eigvals(A, *, out=None):
    return _out(_A.linalg_eigvals.default(A), out)


def eigh(A, UPLO="L", *, out=None):
    return _out(_A.linalg_eigh.default(A, UPLO), out)


def eigvalsh(A, UPLO="L", *, out=None):
    """The eigenvalues of a symmetric (Hermitian) matrix, ascending."""
    return _out(_A.linalg_eigvalsh.default(A, UPLO), out)


def svd(A, full_matrices=True, *, driver=None, out=None):
    return _out(_A.linalg_svd.default(A, full_matrices, driver=driver), out)


def svdvals(A, *, driver=None, out=None):
    """The singular values, descending."""
    return _out(_A.linalg_svdvals.default(A, driver=driver), out)


def pinv(A, rcond=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The pseudo-inverse: singular values below ``max(atol, rtol * largest)`` count as zero;
    ``rcond`` is the deprecated spelling of ``rtol``."""
    if rcond is not None:
        r = (_A.linalg_pinv.rcond_tensor(A, rcond, hermitian) if hasattr(rcond, "shape")
             else _A.linalg_pinv.default(A, float(rcond), hermitian))
    elif (atol is None or hasattr(atol, "shape")) and (rtol is None or hasattr(rtol, "shape")):
        r = _A.linalg_pinv.atol_rtol_tensor(A, atol=atol, rtol=rtol, hermitian=hermitian)
    else:
        r = _A.linalg_pinv.atol_rtol_float(A, atol=_float(atol), rtol=_float(rtol), hermitian=hermitian)
    return _out(r, out)


def lstsq(A, B, rcond=None, *, driver=None):
    return _A.linalg_lstsq.default(A, B, rcond, driver=driver)


def matrix_exp(A):
    return _A.linalg_matrix_exp.default(A)


def matrix_power(A, n, *, out=None):
    return _out(_A.linalg_matrix_power.default(A, n), out)


def matrix_sqrth(A):
    return _A.linalg_matrix_sqrth.default(A)


def polar(A, *, out=None):
    return _out(_A.linalg_polar.default(A), out)


def cross(input, other, *, dim=-1, out=None):
    return _out(_A.linalg_cross.default(input, other, dim=dim), out)


def matmul(input, other, *, out=None):
    return _out(_A.matmul.default(input, other), out)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    return _A.linalg_diagonal.default(A, offset=offset, dim1=dim1, dim2=dim2)


def multi_dot(tensors, *, out=None):
    return _out(_A.linalg_multi_dot.default(list(tensors)), out)


def householder_product(A, tau, *, out=None):
    return _out(_A.linalg_householder_product.default(A, tau), out)


def tensorinv(A, ind=2, *, out=None):
    return _out(_A.linalg_tensorinv.default(A, ind), out)


def tensorsolve(A, B, dims=None, *, out=None):
    return _out(_A.linalg_tensorsolve.default(A, B, None if dims is None else list(dims)), out)


def vander(x, N=None):
    return _A.linalg_vander.default(x, N=N)


def vecdot(x, y, *, dim=-1, out=None):
    return _out(_A.linalg_vecdot.default(x, y, dim=dim), out)


from ._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
