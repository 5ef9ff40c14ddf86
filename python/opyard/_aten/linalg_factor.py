"""Factorizations and the solves built on them, as torch's kernels: Cholesky (``linalg_cholesky_ex``),
LU (``linalg_lu_factor_ex``, ``linalg_lu``, ``lu_unpack``, ``linalg_lu_solve``), the inverse and
solve through LU (``linalg_inv_ex``, ``_linalg_solve_ex``), determinants (``_linalg_det``,
``_linalg_slogdet``), triangular solves (``linalg_solve_triangular``, ``triangular_solve``),
Cholesky solves and inverses, and the Bunch-Kaufman ``L D L^T`` (``linalg_ldl_factor_ex``,
``linalg_ldl_solve``).

Each kernel takes batches of matrices and returns what torch's does, including the LAPACK outputs
torch keeps for the derivative formulas (``LU``, ``pivots``) and the ``info`` codes its ``_ex``
forms return; the public forms (``linalg.det``, ``linalg.inv``, ``linalg.solve``, ...) are their
CompositeImplicitAutograd compositions (``linalg_composite.py``). Matrices come back batched
column-major, as torch's. The numpy routines are ``lapack.py``'s.
"""

import numpy as np

from .. import _dtype as D
from . import lapack
from . import return_types as RT
from ._declare import OpTable
from .common import INEXACT, META, check_same_device, out
from .linalg_ops import LinAlgError, _fortran, _solve_shapes
from .linalg_ops import meta_result as M

__all__ = ["OPS", "raise_info", "square", "matrix", "batch"]

OPS = OpTable()


def matrix(api, t, arg="A", low_precision=True):
    """``t``'s array after torch's checks of a batch of matrices of a floating or complex dtype."""
    x = t._data
    if x.ndim < 2:
        raise RuntimeError(f"{api}: The input tensor {arg} must have at least 2 dimensions.")
    if x.dtype not in INEXACT:
        raise NotImplementedError(f"{api}: Expected a floating point or complex tensor as input. Got "
                                  f"{D.legacy_name(t.dtype)}")
    if not low_precision and x.dtype.itemsize == 2 and x.dtype.kind != "c":
        raise NotImplementedError(f"{api}: Low precision dtypes not supported. Got {D.legacy_name(t.dtype)}")
    return x


def square(api, t, arg="A", low_precision=True):
    x = matrix(api, t, arg, low_precision)
    if x.shape[-1] != x.shape[-2]:
        raise RuntimeError(f"{api}: {arg} must be batches of square matrices, but they are {x.shape[-2]} by "
                           f"{x.shape[-1]} matrices")
    return x


def _lapack_dtype(api, t, kernel):
    """torch's dispatch error for the dtypes its LAPACK kernels lack (half precision)."""
    if t._data.dtype.itemsize == 2 and t._data.dtype.kind != "c":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{D.legacy_name(t.dtype)}\'')


def raise_info(info, message, batch_dims, error=LinAlgError):
    """torch's ``_linalg_check_errors``: raise for the first nonzero ``info``, naming its batch
    element when the input was a batch. ``message(code)`` words the error."""
    info = np.asarray(info)
    bad = np.flatnonzero(info.reshape(-1))
    if bad.size == 0:
        return
    first = int(bad[0])
    code = int(info.reshape(-1)[first])
    text = message(code)
    api, _, rest = text.partition(": ")
    raise error(f"{api}: (Batch element {first}): {rest}" if batch_dims else text)


def batch(*arrays):
    """The broadcast batch shape (all dims but the last two) of ``arrays``."""
    return tuple(np.broadcast_shapes(*(a.shape[:-2] for a in arrays)))


_INT32 = D.int32

# Note [Meta-aware linear algebra]: these kernels run the argument checks torch's do, then return
# meta tensors when their input is one (kind "meta_aware"): the shapes, dtypes and layouts of the
# results (batched column-major matrices, as ``_fortran`` lays them out), without a factorization
# of stand-in data.


# --- Cholesky ---------------------------------------------------------------------------------


def _cholesky(x):
    """``(L, info)`` of the lower triangles of ``x``: ``numpy.linalg.cholesky`` for the positive-definite
    matrices, LAPACK ``potf2``'s partial factor and failing order for the others."""
    batch = x.shape[:-2]
    n = x.shape[-1]
    flat = lapack.stack(x)
    low = np.empty_like(flat)
    info = np.zeros(flat.shape[0], np.int32)
    try:
        low[...] = np.linalg.cholesky(flat) if flat.shape[0] and n else 0
    except np.linalg.LinAlgError:
        for b in range(flat.shape[0]):
            low[b], info[b] = _potf2(flat[b])
    return low.reshape(x.shape), info.reshape(batch)


def _potf2(a):
    n = a.shape[-1]
    low = np.tril(a).astype(a.dtype, copy=True)
    for j in range(n):
        d = low[j, j].real - np.vdot(low[j, :j], low[j, :j]).real
        if not d > 0:
            low[j, j] = d
            return low, j + 1
        d = np.sqrt(d)
        low[j, j] = d
        if j + 1 < n:
            low[j + 1:, j] = (low[j + 1:, j] - low[j + 1:, :j] @ np.conj(low[j, :j])) / d
    return low, 0


def _chol_message(api):
    return lambda k: (f"{api}: The factorization could not be completed because the input is not positive-definite "
                      f"(the leading minor of order {k} is not positive-definite).")


@OPS.op("linalg_cholesky_ex(Tensor self, *, bool upper=False, bool check_errors=False) -> (Tensor L, Tensor info)",
        kind="meta_aware")
def linalg_cholesky_ex(self, *, upper=False, check_errors=False):
    x = square("linalg.cholesky", self)
    _lapack_dtype("linalg.cholesky", self, "cholesky_cpu")
    if self._dev is META:
        return RT.make(RT.linalg_cholesky_ex, (M(x.shape, self.dtype, "F"), M(x.shape[:-2], _INT32)))
    low, info = _cholesky(x)
    if check_errors:
        raise_info(info, _chol_message("linalg.cholesky_ex"), x.ndim > 2)
    if upper:
        low = np.conj(np.swapaxes(low, -1, -2))
    return RT.make(RT.linalg_cholesky_ex, (out(_fortran(low), self), out(info, self)))


# --- LU ---------------------------------------------------------------------------------------


def _lu_checks(api, t):
    x = t._data
    if x.ndim < 2:
        raise RuntimeError(f"{api}: Expected tensor with 2 or more dimensions. Got size: {list(x.shape)} instead")
    if x.dtype not in INEXACT or (x.dtype.itemsize == 2 and x.dtype.kind != "c"):
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{D.legacy_name(t.dtype)}'")
    return x


def _no_pivot(api, pivot):
    if not pivot:
        raise RuntimeError(f"{api}: LU without pivoting is not implemented on the CPU")


def _lu_message(api):
    return lambda k: (f"{api}: U[{k},{k}] is zero and using it on lu_solve would result in a division by zero. If you "
                      "still want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                      "linalg.lu_factor_ex(A, pivot)")


@OPS.op("linalg_lu_factor_ex(Tensor A, *, bool pivot=True, bool check_errors=False) -> "
        "(Tensor LU, Tensor pivots, Tensor info)", kind="meta_aware")
def linalg_lu_factor_ex(A, *, pivot=True, check_errors=False):
    x = _lu_checks("torch.lu_factor", A)
    _no_pivot("linalg.lu_factor", pivot)
    if A._dev is META:
        k = min(x.shape[-2:])
        return RT.make(RT.linalg_lu_factor_ex, (M(x.shape, A.dtype, "F"), M(x.shape[:-2] + (k,), _INT32),
                                                M(x.shape[:-2], _INT32)))
    lu, piv, info = lapack.getrf(x)
    if check_errors:
        raise_info(info, _lu_message("torch.linalg.lu_factor_ex"), x.ndim > 2, RuntimeError)
    return RT.make(RT.linalg_lu_factor_ex, (out(_fortran(lu), A), out(piv, A), out(info, A)))


def _unpack(lu, piv, unpack_data=True, unpack_pivots=True):
    """``(P, L, U)`` arrays of an LU factorization (empty arrays for what is not unpacked)."""
    m, n = lu.shape[-2], lu.shape[-1]
    k = min(m, n)
    batch = lu.shape[:-2]
    if unpack_data:
        low = np.tril(lu[..., :, :k], -1)
        idx = np.arange(k)
        low[..., idx, idx] = 1
        up = np.triu(lu[..., :k, :])
    else:
        low = up = np.zeros((0,), lu.dtype)
    if unpack_pivots:
        perm = lapack.permutation(piv, m)
        p = np.zeros(batch + (m, m), lu.dtype)
        np.put_along_axis(p, perm[..., :, None], 1, axis=-1)
        p = np.swapaxes(p, -1, -2)  # A = P L U: column i of P has its one at row perm[i]
    else:
        p = np.zeros((0,), lu.dtype)
    return p, low, up


@OPS.op("linalg_lu(Tensor A, *, bool pivot=True) -> (Tensor P, Tensor L, Tensor U)", kind="meta_aware")
def linalg_lu(A, *, pivot=True):
    x = _lu_checks("linalg.lu", A)
    _no_pivot("linalg.lu_factor", pivot)
    if A._dev is META:
        b, (m, n) = x.shape[:-2], x.shape[-2:]
        k = min(m, n)
        return RT.make(RT.linalg_lu, (M(b + (m, m), A.dtype, "F"), M(b + (m, k), A.dtype, "F"),
                                      M(b + (k, n), A.dtype, "F")))
    lu, piv, _ = lapack.getrf(x)
    p, low, up = _unpack(lu, piv)
    return RT.make(RT.linalg_lu, (out(_fortran(p), A), out(_fortran(low), A), out(_fortran(up), A)))


@OPS.op("lu_unpack(Tensor LU_data, Tensor LU_pivots, bool unpack_data=True, bool unpack_pivots=True) -> "
        "(Tensor P, Tensor L, Tensor U)", kind="meta_aware")
def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    check_same_device("aten::lu_unpack", LU_data, LU_pivots)
    lu, piv = LU_data._data, LU_pivots._data
    if lu.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {list(lu.shape)} "
                           "instead")
    if unpack_pivots and piv.dtype != np.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                           "Note: this function is intended to be used with the output produced by "
                           "torch.linalg.lu_factor")
    k = min(lu.shape[-2:])
    if unpack_pivots and piv.shape != lu.shape[:-2] + (k,):
        raise RuntimeError(f"torch.lu_unpack: LU_pivots must have shape {list(lu.shape[:-2] + (k,))}, but got "
                           f"{list(piv.shape)}")
    if LU_data._dev is META:
        b, (m, n) = lu.shape[:-2], lu.shape[-2:]
        dt = LU_data.dtype
        return RT.make(RT.lu_unpack, (M(b + (m, m) if unpack_pivots else (0,), dt, "F"),
                                      M(b + (m, k) if unpack_data else (0,), dt, "F"),
                                      M(b + (k, n) if unpack_data else (0,), dt, "F")))
    p, low, up = _unpack(lu, piv, unpack_data, unpack_pivots)
    return RT.make(RT.lu_unpack, (out(_fortran(p), LU_data), out(_fortran(low), LU_data), out(_fortran(up), LU_data)))


def _matrix_rhs(api, x, b, left):
    """torch's shape check of a solve's right-hand side (``AX = B`` or ``XA = B``)."""
    if b.ndim < 2:
        raise RuntimeError(f"{api}: The input tensor B must have at least 2 dimensions.")
    n = x.shape[-1]
    rows, cols = b.shape[-2], b.shape[-1]
    if (rows if left else cols) != n:
        raise RuntimeError(f"{api}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
                           f"({x.shape[-2]}x{n} and {rows}x{cols})")


@OPS.op("linalg_lu_solve(Tensor LU, Tensor pivots, Tensor B, *, bool left=True, bool adjoint=False) -> Tensor",
        kind="meta_aware")
def linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    check_same_device("aten::linalg_lu_solve", LU, pivots, B)
    lu = square("linalg.lu_solve", LU, "LU")
    b = B._data
    _matrix_rhs("linalg.lu_solve", lu, b, left)
    if b.dtype != lu.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{D.legacy_name(LU.dtype)} and B of type {D.legacy_name(B.dtype)} instead")
    piv = pivots._data
    if piv.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type Int")
    if B._dev is META:
        return M(batch(lu, b) + b.shape[-2:], B.dtype, "F")
    if left:
        r = lapack.getrs(lu, piv, b, adjoint)
    else:  # X A = B <=> A^H X^H = B^H (X A^H = B <=> A X^H = B^H)
        r = np.conj(np.swapaxes(lapack.getrs(lu, piv, np.conj(np.swapaxes(b, -1, -2)), not adjoint), -1, -2))
    return out(_fortran(r), B)


# --- inverse, solve, determinants through LU ----------------------------------------------------


def _inv_message(api):
    return lambda k: (f"{api}: The diagonal element {k} is zero, the inversion could not be completed because the "
                      "input matrix is singular.")


@OPS.op("linalg_inv_ex(Tensor A, *, bool check_errors=False) -> (Tensor inverse, Tensor info)", kind="meta_aware")
def linalg_inv_ex(A, *, check_errors=False):
    x = square("linalg.inv", A, low_precision=False)
    if A._dev is META:
        return RT.make(RT.linalg_inv_ex, (M(x.shape, A.dtype, "F"), M(x.shape[:-2], _INT32)))
    n = x.shape[-1]
    try:
        r, info = np.linalg.inv(x), np.zeros(x.shape[:-2], np.int32)
    except np.linalg.LinAlgError:
        lu, piv, info = lapack.getrf(x)
        r = lapack.getrs(lu, piv, np.broadcast_to(np.eye(n, dtype=x.dtype), x.shape))
    if check_errors:
        raise_info(info, _inv_message("linalg.inv"), x.ndim > 2)
    return RT.make(RT.linalg_inv_ex, (out(_fortran(r.astype(x.dtype, copy=False)), A), out(info, A)))


@OPS.op("_linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
        "(Tensor result, Tensor LU, Tensor pivots, Tensor info)", kind="meta_aware")
def _linalg_solve_ex(A, B, *, left=True, check_errors=False):
    check_same_device("aten::_linalg_solve_ex", A, B)
    a = square("linalg.solve", A)
    b = B._data
    if a.dtype != b.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type "
                           f"{D.legacy_name(A.dtype)} and B of type {D.legacy_name(B.dtype)} instead")
    vector, shape = _solve_shapes(a.shape, b.shape, left)
    if A._dev is META:
        return (M(shape, A.dtype, "F" if left else "C"), M(a.shape, A.dtype, "F"), M(a.shape[:-1], _INT32),
                M(a.shape[:-2], _INT32))
    lu, piv, info = lapack.getrf(a)
    rhs = b[..., None] if vector else b
    if not left:  # X A = B <=> A^T X^T = B^T
        rhs = np.swapaxes(rhs, -1, -2)
    r = None
    if left and not np.any(info):
        try:
            r = np.linalg.solve(a, rhs)
        except np.linalg.LinAlgError:  # singular to working precision: LAPACK's values below
            pass
    if r is None:
        r = _lu_solve_transposed(lu, piv, rhs, left)
    if not left:
        r = np.swapaxes(r, -1, -2)
    if check_errors:
        raise_info(info, lambda k: "torch.linalg.solve_ex: The solver failed because the input matrix is singular.",
                   a.ndim > 2)
    r = np.broadcast_to(np.asarray(r).reshape(shape), shape).astype(a.dtype, copy=False)
    return (out(_fortran(r) if left else np.ascontiguousarray(r), A), out(_fortran(lu), A), out(piv, A),
            out(info, A))


def _lu_solve_transposed(lu, piv, rhs, left):
    """``A X = rhs`` (``left``) or ``A^T X = rhs`` through ``A``'s LU."""
    if left:
        return lapack.getrs(lu, piv, rhs)
    if lu.dtype.kind == "c":  # A^T X = rhs <=> A^H conj(X) = conj(rhs)
        return np.conj(lapack.getrs(lu, piv, np.conj(rhs), adjoint=True))
    return lapack.getrs(lu, piv, rhs, adjoint=True)


def _det_from_lu(lu, piv):
    """``(sign, logabsdet, det)`` of matrices from their LU: the product of ``U``'s diagonal, negated
    for every row swap."""
    n = lu.shape[-1]
    diag = np.diagonal(lu, axis1=-2, axis2=-1)
    swaps = np.count_nonzero(piv != np.arange(1, n + 1, dtype=piv.dtype), axis=-1) if n else np.zeros(piv.shape[:-1])
    parity = np.where(swaps % 2 == 1, -1, 1).astype(lu.real.dtype)
    det = np.prod(diag, axis=-1) * parity
    absd = np.abs(diag)
    with np.errstate(divide="ignore", invalid="ignore"):
        logabs = np.sum(np.log(absd), axis=-1)
        phase = np.where(absd == 0, 0, diag / np.where(absd == 0, 1, absd))
    sign = np.prod(phase, axis=-1) * parity
    return sign, logabs, det


@OPS.op("_linalg_det(Tensor A) -> (Tensor result, Tensor LU, Tensor pivots)", kind="meta_aware")
def _linalg_det(A):
    x = square("linalg.det", A)
    _lapack_dtype("linalg.det", A, "lu_cpu")
    if A._dev is META:
        return M(x.shape[:-2], A.dtype), M(x.shape, A.dtype, "F"), M(x.shape[:-1], _INT32)
    lu, piv, _ = lapack.getrf(x)
    _, _, det = _det_from_lu(lu, piv)
    return out(np.asarray(det, x.dtype), A), out(_fortran(lu), A), out(piv, A)


@OPS.op("_linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet, Tensor LU, Tensor pivots)", kind="meta_aware")
def _linalg_slogdet(A):
    x = square("linalg.slogdet", A, low_precision=False)
    if A._dev is META:
        real = D.FROM_NP[x.real.dtype]
        return (M(x.shape[:-2], A.dtype), M(x.shape[:-2], real), M(x.shape, A.dtype, "F"),
                M(x.shape[:-1], _INT32))
    lu, piv, _ = lapack.getrf(x)
    sign, logabs, _ = _det_from_lu(lu, piv)
    return (out(np.asarray(sign, x.dtype), A), out(np.asarray(logabs, x.real.dtype), A), out(_fortran(lu), A),
            out(piv, A))


# --- triangular solves ------------------------------------------------------------------------


def _tri_dtype(A, B):
    """The common dtype of a triangular solve (torch promotes the two)."""
    dt = D.promote_types(A.dtype, B.dtype)
    if not (dt.is_floating_point or dt.is_complex) or dt in (D.float16, D.bfloat16):
        raise NotImplementedError(f"\"triangular_solve_cpu\" not implemented for '{D.legacy_name(dt)}'")
    return dt


@OPS.op("linalg_solve_triangular(Tensor self, Tensor B, *, bool upper, bool left=True, bool unitriangular=False) -> "
        "Tensor", kind="meta_aware")
def linalg_solve_triangular(self, B, *, upper, left=True, unitriangular=False):
    check_same_device("aten::linalg_solve_triangular", self, B)
    a, b = self._data, B._data
    if a.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor A must have at least 2 dimensions.")
    if b.ndim < 2:
        raise RuntimeError("linalg.solve_triangular: The input tensor B must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, but they are "
                           f"{a.shape[-2]} by {a.shape[-1]} matrices")
    _matrix_rhs("linalg.solve_triangular", a, b, left)
    dt = _tri_dtype(self, B)
    if B._dev is META:
        return M(batch(a, b) + b.shape[-2:], dt, "F")
    a, b = a.astype(dt.np, copy=False), b.astype(dt.np, copy=False)
    if left:
        r = lapack.trsm(a, b, upper, unitriangular)
    else:  # X A = B <=> A^T X^T = B^T, and A^T's triangle is the other one
        r = np.swapaxes(lapack.trsm(np.swapaxes(a, -1, -2), np.swapaxes(b, -1, -2), not upper, unitriangular), -1, -2)
    return out(_fortran(r), self)


@OPS.op("triangular_solve(Tensor self, Tensor A, bool upper=True, bool transpose=False, bool unitriangular=False) -> "
        "(Tensor solution, Tensor cloned_coefficient)", kind="meta_aware")
def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
    check_same_device("aten::triangular_solve", self, A)
    b, a = self._data, A._data
    if b.ndim < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {b.ndim} "
                           "dimensions instead")
    if a.ndim < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {a.ndim} "
                           "dimensions instead")
    if a.shape[-1] != a.shape[-2] or a.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is {a.shape[-2]} by "
                           f"{a.shape[-1]} but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    if a.dtype != b.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {D.legacy_name(self.dtype)} "
                           f"and A of type {D.legacy_name(A.dtype)} instead.")
    _tri_dtype(self, A)
    common = batch(a, b)
    if A._dev is META:
        return RT.make(RT.triangular_solve, (M(common + b.shape[-2:], A.dtype, "F"),
                                             M(common + a.shape[-2:], A.dtype, "F")))
    coeff = np.broadcast_to(a, common + a.shape[-2:])
    eff = np.swapaxes(coeff, -1, -2) if transpose else coeff
    r = lapack.trsm(eff, b, upper != bool(transpose), unitriangular)
    return RT.make(RT.triangular_solve, (out(_fortran(r), self), out(_fortran(coeff.copy()), self)))


@OPS.op("cholesky_solve(Tensor self, Tensor input2, bool upper=False) -> Tensor", kind="meta_aware")
def cholesky_solve(self, input2, upper=False):
    """``X`` with ``A X = B`` for ``A = L L^H`` (``U^H U`` when ``upper``) given its factor ``input2``."""
    check_same_device("aten::cholesky_solve", self, input2)
    b, f = self._data, input2._data
    if b.ndim < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {b.ndim} dimensions instead")
    if f.ndim < 2:
        raise RuntimeError(f"u should have at least 2 dimensions, but has {f.ndim} dimensions instead")
    if f.shape[-1] != f.shape[-2] or f.shape[-1] != b.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {f.shape[-2]} by "
                           f"{f.shape[-1]} but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    if f.dtype != b.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {D.legacy_name(self.dtype)} "
                           f"and A of type {D.legacy_name(input2.dtype)} instead.")
    _lapack_dtype("cholesky_solve", self, "cholesky_solve_cpu")
    if self._dev is META:
        return M(batch(b, f) + b.shape[-2:], self.dtype, "F")
    low = np.conj(np.swapaxes(f, -1, -2)) if upper else f
    y = lapack.trsm(low, b, upper=False)
    r = lapack.trsm(np.conj(np.swapaxes(low, -1, -2)), y, upper=True)
    return out(_fortran(r), self)


@OPS.op("cholesky_inverse(Tensor self, bool upper=False) -> Tensor", kind="meta_aware")
def cholesky_inverse(self, upper=False):
    """``(L L^H)^-1`` (``(U^H U)^-1`` when ``upper``) from the Cholesky factor ``self``."""
    f = square("cholesky_inverse", self)
    _lapack_dtype("cholesky_inverse", self, "cholesky_inverse_out_cpu")
    if self._dev is META:
        return M(f.shape, self.dtype, "F")
    n = f.shape[-1]
    up = np.triu(f) if upper else np.conj(np.swapaxes(np.tril(f), -1, -2))  # A = U^H U
    diag = lapack.stack(np.diagonal(up, axis1=-2, axis2=-1), 1)
    zero = np.argmax(diag == 0, axis=-1) + 1 if n else np.zeros(diag.shape[0], np.intp)
    info = np.where((diag == 0).any(axis=-1), zero, 0)
    raise_info(info, _inv_message("cholesky_inverse"), f.ndim > 2)
    eye = np.broadcast_to(np.eye(n, dtype=f.dtype), f.shape)
    uinv = lapack.trsm(up, eye, upper=True)
    r = uinv @ np.conj(np.swapaxes(uinv, -1, -2))
    return out(_fortran(r), self)


# --- symmetric indefinite: L D L^T ----------------------------------------------------------------


@OPS.op("linalg_ldl_factor_ex(Tensor self, *, bool hermitian=False, bool check_errors=False) -> "
        "(Tensor LD, Tensor pivots, Tensor info)", kind="meta_aware")
def linalg_ldl_factor_ex(self, *, hermitian=False, check_errors=False):
    x = square("torch.linalg.ldl_factor_ex", self)
    _lapack_dtype("torch.linalg.ldl_factor_ex", self, "ldl_factor_kernel_cpu")
    if self._dev is META:
        return RT.make(RT.linalg_ldl_factor_ex, (M(x.shape, self.dtype, "F"), M(x.shape[:-1], _INT32),
                                                 M(x.shape[:-2], _INT32)))
    ld, piv, info = lapack.sytrf(x, hermitian)
    if check_errors:
        raise_info(info, lambda k: (
            f"torch.linalg.ldl_factor_ex: The factorization could not be completed because the input is singular: "
            f"D[{k - 1}, {k - 1}] is zero."), x.ndim > 2)
    return RT.make(RT.linalg_ldl_factor_ex, (out(_fortran(ld), self), out(piv, self), out(info, self)))


@OPS.op("linalg_ldl_solve(Tensor LD, Tensor pivots, Tensor B, *, bool hermitian=False) -> Tensor", kind="meta_aware")
def linalg_ldl_solve(LD, pivots, B, *, hermitian=False):
    check_same_device("aten::linalg_ldl_solve", LD, pivots, B)
    ld = square("torch.linalg.ldl_solve", LD, "LD")
    b = B._data
    if b.ndim < 2:
        raise RuntimeError("torch.linalg.ldl_solve: The input tensor B must have at least 2 dimensions.")
    if b.shape[-2] != ld.shape[-1]:
        raise RuntimeError(f"torch.linalg.ldl_solve: Incompatible shapes of A and B for the equation AX = B "
                           f"({ld.shape[-2]}x{ld.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})")
    if pivots._data.dtype != np.int32:
        raise RuntimeError("torch.linalg.ldl_solve: Expected pivots to be integers. Got " +
                           D.legacy_name(pivots.dtype))
    if ld.dtype != b.dtype:
        raise RuntimeError(f"torch.linalg.ldl_solve: Expected LD and B to have the same dtype, but found LD of type "
                           f"{D.legacy_name(LD.dtype)} and B of type {D.legacy_name(B.dtype)} instead")
    if B._dev is META:
        return M(batch(ld, b) + b.shape[-2:], B.dtype, "F")
    return out(_fortran(lapack.sytrs(ld, pivots._data, b, hermitian)), B)
