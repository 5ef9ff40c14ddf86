"""The linear-algebra functions torch keeps CompositeImplicitAutograd, composed as torch composes
them (BatchLinearAlgebra.cpp, LinearAlgebra.cpp): the public forms over the ``_ex`` and ``_linalg_*``
kernels (``linalg.inv`` over ``linalg_inv_ex`` and its error check, ``linalg.det`` over
``_linalg_det``, ...), and functions built from other ops (``linalg.cond``, ``linalg.matrix_rank``,
``linalg.pinv``'s overloads, ``linalg.multi_dot``, ``linalg.tensorinv``/``tensorsolve``,
``linalg.vander``, ``linalg.vecdot``, the matrix norms, ``logdet``, ``svd``, ``lu_solve``, ...).
Their gradients, batching and Meta behaviour are those of the ops they call.
"""

import math

import numpy as np

from .. import _core
from .. import _dtype as D
from .._tensor import _AUTOGRAD_SET
from . import return_types as RT
from ._declare import OpTable
from .common import A, INEXACT
from .linalg_factor import _chol_message, _inv_message, _lu_message, matrix, raise_info, square
from .linalg_ops import LinAlgError

__all__ = ["OPS"]

OPS = OpTable()


def _may_need_grad(t):
    """torch's ``_may_require_fw_or_bw_grad``: whether a derivative of ``t``'s result may be asked."""
    if t.requires_grad and not _core._is_excluded(_AUTOGRAD_SET):
        return True
    return getattr(t, "_fw_grad", None) is not None


def _check(info, message, A_, error=LinAlgError):
    """torch's ``_linalg_check_errors`` on an ``info`` tensor (nothing to check on meta tensors)."""
    if info.device.type != "meta":
        raise_info(info._data, message, A_.dim() > 2, error)


@OPS.op("linalg_cholesky(Tensor self, *, bool upper=False) -> Tensor", kind="composite")
def linalg_cholesky(self, *, upper=False):
    low, info = A.linalg_cholesky_ex(self, upper=upper)
    _check(info, _chol_message("linalg.cholesky"), self)
    return low


@OPS.op("linalg_inv(Tensor A) -> Tensor", kind="composite")
def linalg_inv(A_):
    result, info = A.linalg_inv_ex(A_)
    _check(info, _inv_message("linalg.inv"), A_)
    return result


@OPS.op("linalg_solve_ex(Tensor A, Tensor B, *, bool left=True, bool check_errors=False) -> "
        "(Tensor result, Tensor info)", kind="composite")
def linalg_solve_ex(A_, B, *, left=True, check_errors=False):
    result, _, _, info = A._linalg_solve_ex(A_, B, left=left, check_errors=check_errors)
    return RT.make(RT.linalg_solve_ex, (result, info))


@OPS.op("linalg_solve(Tensor A, Tensor B, *, bool left=True) -> Tensor", kind="composite")
def linalg_solve(A_, B, *, left=True):
    result, _, _, info = A._linalg_solve_ex(A_, B, left=left)
    _check(info, lambda k: "torch.linalg.solve: The solver failed because the input matrix is singular.", A_)
    return result


@OPS.op("linalg_det(Tensor A) -> Tensor", kind="composite")
def linalg_det(A_):
    return A._linalg_det(A_)[0]


@OPS.op("linalg_slogdet(Tensor A) -> (Tensor sign, Tensor logabsdet)", kind="composite")
def linalg_slogdet(A_):
    sign, logabsdet, _, _ = A._linalg_slogdet(A_)
    return RT.make(RT.linalg_slogdet, (sign, logabsdet))


@OPS.op("slogdet(Tensor self) -> (Tensor sign, Tensor logabsdet)", kind="composite")
def slogdet(self):
    return RT.make(RT.slogdet, tuple(A.linalg_slogdet(self)))


@OPS.op("logdet(Tensor self) -> Tensor", kind="composite")
def logdet(self):
    square("logdet", self, low_precision=False)
    sign, logabsdet = A.linalg_slogdet(self)
    if self.is_complex():
        return A.add__Tensor(A.log(sign), logabsdet)
    return A.where__self(A.eq__Scalar(sign, -1), A.full_like(logabsdet, math.nan), logabsdet)


@OPS.op('linalg_eigh(Tensor self, str UPLO="L") -> (Tensor eigenvalues, Tensor eigenvectors)', kind="composite")
def linalg_eigh(self, UPLO="L"):
    return RT.make(RT.linalg_eigh, tuple(A._linalg_eigh(self, UPLO, True)))


@OPS.op('linalg_eigvalsh(Tensor self, str UPLO="L") -> Tensor', kind="composite")
def linalg_eigvalsh(self, UPLO="L"):
    return A._linalg_eigh(self, UPLO, _may_need_grad(self))[0]


@OPS.op("linalg_eigvals(Tensor self) -> Tensor", kind="composite")
def linalg_eigvals(self):
    if _may_need_grad(self):  # the eigenvectors make it differentiable; they are not returned
        return A.linalg_eig(self)[0]
    return A._linalg_eigvals(self)


@OPS.op("linalg_svd(Tensor A, bool full_matrices=True, *, str? driver=None) -> (Tensor U, Tensor S, Tensor Vh)",
        kind="composite")
def linalg_svd(A_, full_matrices=True, *, driver=None):
    return RT.make(RT.linalg_svd, tuple(A._linalg_svd(A_, full_matrices, True, driver=driver)))


@OPS.op("linalg_svdvals(Tensor A, *, str? driver=None) -> Tensor", kind="composite")
def linalg_svdvals(A_, *, driver=None):
    return A._linalg_svd(A_, False, _may_need_grad(A_), driver=driver)[1]


@OPS.op("svd(Tensor self, bool some=True, bool compute_uv=True) -> (Tensor U, Tensor S, Tensor V)", kind="composite")
def svd(self, some=True, compute_uv=True):
    if self.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {self.dim()} dimensions "
                           "instead")
    if compute_uv:
        u, s, vh = A.linalg_svd(self, not some)
    else:  # U and V are zeros of the full sizes
        s = A.linalg_svdvals(self)
        m, n = self.shape[-2], self.shape[-1]
        batch = list(self.shape[:-2])
        u = A.zeros(batch + [m, m], dtype=self.dtype, device=self.device)
        vh = A.zeros(batch + [n, n], dtype=self.dtype, device=self.device)
    return RT.make(RT.svd, (u, s, A.adjoint(vh)))


@OPS.op("linalg_lu_factor(Tensor A, *, bool pivot=True) -> (Tensor LU, Tensor pivots)", kind="composite")
def linalg_lu_factor(A_, *, pivot=True):
    lu, pivots, info = A.linalg_lu_factor_ex(A_, pivot=pivot)
    _check(info, _lu_message("torch.linalg.lu_factor"), A_, RuntimeError)
    return RT.make(RT.linalg_lu_factor, (lu, pivots))


@OPS.op("_lu_with_info(Tensor self, bool pivot=True, bool check_errors=True) -> "
        "(Tensor LU, Tensor pivots, Tensor info)", kind="composite")
def _lu_with_info(self, pivot=True, check_errors=True):
    return A.linalg_lu_factor_ex(self, pivot=pivot)


@OPS.op("lu_solve(Tensor self, Tensor LU_data, Tensor LU_pivots) -> Tensor", kind="composite")
def lu_solve(self, LU_data, LU_pivots):
    return A.linalg_lu_solve(LU_data, LU_pivots, self)


@OPS.op("linalg_ldl_factor(Tensor self, *, bool hermitian=False) -> (Tensor LD, Tensor pivots)", kind="composite")
def linalg_ldl_factor(self, *, hermitian=False):
    ld, pivots, info = A.linalg_ldl_factor_ex(self, hermitian=hermitian)
    _check(info, lambda k: (f"torch.linalg.ldl_factor: The factorization could not be completed because the input is "
                            f"singular: D[{k - 1}, {k - 1}] is zero."), self)
    return RT.make(RT.linalg_ldl_factor, (ld, pivots))


@OPS.op("matrix_exp(Tensor self) -> Tensor", kind="composite")
def matrix_exp(self):
    return A.linalg_matrix_exp(self)


@OPS.op("orgqr(Tensor self, Tensor input2) -> Tensor", kind="composite")
def orgqr(self, input2):
    return A.linalg_householder_product(self, input2)


# --- pseudo-inverse, rank, condition number -----------------------------------------------------


def _scalar_tensor(value, like):
    return A.full([], float(value), dtype=D.float64, device=like.device)


@OPS.op("linalg_pinv.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) -> "
        "Tensor", kind="composite")
def linalg_pinv_atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False):
    return A.linalg_pinv__atol_rtol_tensor(
        self, atol=None if atol is None else _scalar_tensor(atol, self),
        rtol=None if rtol is None else _scalar_tensor(rtol, self), hermitian=hermitian)


@OPS.op("linalg_pinv(Tensor self, float rcond, bool hermitian=False) -> Tensor", kind="composite")
def linalg_pinv(self, rcond, hermitian=False):
    return A.linalg_pinv__atol_rtol_tensor(self, atol=_scalar_tensor(0.0, self), rtol=_scalar_tensor(rcond, self),
                                           hermitian=hermitian)


@OPS.op("linalg_pinv.rcond_tensor(Tensor self, Tensor rcond, bool hermitian=False) -> Tensor", kind="composite")
def linalg_pinv_rcond_tensor(self, rcond, hermitian=False):
    return A.linalg_pinv__atol_rtol_tensor(self, atol=_scalar_tensor(0.0, self), rtol=rcond, hermitian=hermitian)


@OPS.op("pinverse(Tensor self, float rcond=1e-15) -> Tensor", kind="composite")
def pinverse(self, rcond=1e-15):
    return linalg_pinv(self, rcond)


def _eps(dt):
    if dt not in (D.float32, D.float64, D.complex64, D.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")
    return float(np.finfo(dt.np).eps)


def _atol_rtol(x, atol, rtol, api):
    """torch's ``get_atol_rtol`` as tensors: ``atol`` 0 by default, ``rtol`` ``eps * max(m, n)``
    unless a positive ``atol`` is given (then 0)."""
    for name, t in (("atol", atol), ("rtol", rtol)):
        if t is not None and t.is_complex():
            raise RuntimeError(f"{api}: {name} tensor of complex type is not supported.")
    default = _eps(x.dtype) * max(x.shape[-1], x.shape[-2])
    if rtol is None:
        rtol = _scalar_tensor(default, x) if atol is None else A.where__ScalarOther(
            A.gt__Scalar(atol, 0), _scalar_tensor(0.0, x), default)
    if atol is None:
        atol = _scalar_tensor(0.0, x)
    return atol, rtol


def _rank(input, atol, rtol, hermitian):
    api = "torch.linalg.matrix_rank"
    if input.dim() >= 2:
        atol, rtol = _atol_rtol(input, atol, rtol, api)
    matrix(api, input, "input")
    if input.numel() == 0:
        return A.zeros(list(input.shape[:-2]), dtype=D.int64, device=input.device)
    if not hermitian:
        s = A.linalg_svdvals(input)
        top = A.narrow(s, -1, 0, 1)
    else:
        s = A.abs(A.linalg_eigvalsh(input))
        top = A.amax(s, [-1], True)
    tol = A.maximum(A.unsqueeze(atol, -1), A.mul__Tensor(A.unsqueeze(rtol, -1), top))
    return A.sum__dim_IntList(A.gt__Tensor(s, tol), [-1])


@OPS.op("linalg_matrix_rank.atol_rtol_tensor(Tensor input, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False)"
        " -> Tensor", kind="composite")
def linalg_matrix_rank_atol_rtol_tensor(input, *, atol=None, rtol=None, hermitian=False):
    return _rank(input, atol, rtol, hermitian)


@OPS.op("linalg_matrix_rank.atol_rtol_float(Tensor self, *, float? atol=None, float? rtol=None, bool hermitian=False) "
        "-> Tensor", kind="composite")
def linalg_matrix_rank_atol_rtol_float(self, *, atol=None, rtol=None, hermitian=False):
    return _rank(self, None if atol is None else _scalar_tensor(atol, self),
                 None if rtol is None else _scalar_tensor(rtol, self), hermitian)


@OPS.op("linalg_matrix_rank(Tensor self, float tol, bool hermitian=False) -> Tensor", kind="composite")
def linalg_matrix_rank(self, tol, hermitian=False):
    return _rank(self, _scalar_tensor(tol, self), _scalar_tensor(0.0, self), hermitian)


@OPS.op("linalg_matrix_rank.tol_tensor(Tensor input, Tensor tol, bool hermitian=False) -> Tensor", kind="composite")
def linalg_matrix_rank_tol_tensor(input, tol, hermitian=False):
    return _rank(input, tol, _scalar_tensor(0.0, input), hermitian)


_COND_ORDS = (2, -2, 1, -1, math.inf, -math.inf)


def _matrix_norm(x, ord):
    if isinstance(ord, str):
        return A.linalg_matrix_norm__str_ord(x, ord)
    return A.linalg_matrix_norm(x, ord)


def _cond_empty(self):
    return A.zeros(list(self.shape[:-2]), dtype=D.FROM_NP[np.dtype(self._data.real.dtype)], device=self.device)


def _cond_inverse(self, ord):
    inverse, info = A.linalg_inv_ex(self)
    bad = A.gt__Scalar(A.unsqueeze(A.unsqueeze(info, -1), -1), 0)
    inverse = A.masked_fill__Scalar(inverse, bad, math.inf)
    return A.mul__Tensor(_matrix_norm(self, ord), _matrix_norm(inverse, ord))


@OPS.op("linalg_cond(Tensor self, Scalar? p=None) -> Tensor", kind="composite")
def linalg_cond(self, p=None):
    if self.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    ord = 2 if p is None else p
    if ord not in _COND_ORDS:
        raise RuntimeError(f"linalg.cond got an invalid norm type: {ord}")
    if self.numel() == 0:
        return _cond_empty(self)
    if abs(ord) == 2:
        s = A.linalg_svdvals(self)
        top, bottom = A.narrow(s, -1, 0, 1), A.narrow(s, -1, -1, 1)
        r = A.div__Tensor(bottom, top) if ord == -2 else A.div__Tensor(top, bottom)
        return A.squeeze__dim(r, -1)
    word = f"{float(ord):.6f}" if isinstance(ord, float) and not math.isinf(ord) else str(int(ord)) if not \
        math.isinf(ord) else ("9223372036854775807" if ord > 0 else "-9223372036854775808")
    square(f"linalg.cond(ord={word})", self)
    return _cond_inverse(self, ord)


@OPS.op("linalg_cond.p_str(Tensor self, str p) -> Tensor", kind="composite")
def linalg_cond_p_str(self, p):
    if self.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if self.numel() == 0:
        return _cond_empty(self)
    square(f"linalg.cond(ord={p})", self)
    return _cond_inverse(self, p)


# --- functions of several matrices -----------------------------------------------------------------


@OPS.op("linalg_diagonal(Tensor(a) A, *, int offset=0, int dim1=-2, int dim2=-1) -> Tensor(a)", kind="composite")
def linalg_diagonal(A_, *, offset=0, dim1=-2, dim2=-1):
    return A.diagonal(A_, offset, dim1, dim2)


def _chain_order(shapes):
    """torch's ``matrix_chain_order``: the split points of the cheapest parenthesisation."""
    n = len(shapes)
    p = [s[0] for s in shapes] + [shapes[-1][1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(ts, split, i, j):
    if i == j:
        return ts[i]
    return A.mm(_chain(ts, split, i, split[i][j]), _chain(ts, split, split[i][j] + 1, j))


@OPS.op("linalg_multi_dot(Tensor[] tensors) -> Tensor", kind="composite")
def linalg_multi_dot(tensors):
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    ts = list(tensors)
    out_shape = []
    first, last = ts[0], ts[-1]
    if first.dim() == 1:
        ts[0] = A.unsqueeze(first, 0)
    elif first.dim() == 2:
        out_shape.append(first.shape[0])
    else:
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.dim()}D")
    if last.dim() == 1:
        ts[-1] = A.unsqueeze(last, -1)
    elif last.dim() == 2:
        out_shape.append(last.shape[1])
    else:
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.dim()}D")
    for i in range(1, n - 1):
        if ts[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {ts[i].dim()}D")
    for i in range(1, n):
        if ts[i].dtype != ts[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{ts[0].dtype} and tensor {i} {ts[i].dtype}")
        if ts[i].device != ts[0].device:
            raise RuntimeError(f"multi_dot(): all tensors must be on the same device but tensor 0 is on "
                               f"{ts[0].device} and tensor {i} on {ts[i].device}")
        if ts[i - 1].shape[-1] != ts[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1].shape)} and "
                               f"{list(tensors[i].shape)} cannot be multiplied")
    if n == 2:
        result = A.mm(ts[0], ts[1])
    elif n == 3:
        a, b, c, d = ts[0].shape[0], ts[1].shape[0], ts[2].shape[0], ts[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            result = A.mm(ts[0], A.mm(ts[1], ts[2]))
        else:
            result = A.mm(A.mm(ts[0], ts[1]), ts[2])
    else:
        result = _chain(ts, _chain_order([tuple(t.shape) for t in ts]), 0, n - 1)
    return A.view(result, out_shape)


def _prod(sizes):
    r = 1
    for s in sizes:
        r *= s
    return r


@OPS.op("linalg_tensorinv(Tensor self, int ind=2) -> Tensor", kind="composite")
def linalg_tensorinv(self, ind=2):
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape = list(self.shape)
    if ind > len(shape):
        raise RuntimeError(f"ArrayRef: invalid slice, N = {ind}; size = {len(shape)}")
    end, start = shape[ind:], shape[:ind]
    pe, ps = _prod(end), _prod(start)
    if pe != ps:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                           f"but got {pe} != {ps}")
    result, info = A.linalg_inv_ex(A.reshape(self, [pe, pe]))
    _check(info, _inv_message("inv"), A.reshape(self, [pe, pe]))
    return A.reshape(result, end + start)


@OPS.op("linalg_tensorsolve(Tensor self, Tensor other, int[]? dims=None) -> Tensor", kind="composite")
def linalg_tensorsolve(self, other, dims=None):
    ndim = self.dim()
    x = self
    if dims is not None:
        dims = list(dims)
        moved = [d % ndim for d in dims]
        x = A.permute(x, [d for d in range(ndim) if d not in moved] + moved)
    result_shape = list(x.shape[other.dim():])
    rp, op = _prod(result_shape), _prod(other.shape)
    if rp != op:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {rp} != {op}")
    result = A.linalg_solve(A.reshape(x, [rp, rp]), A.flatten__using_ints(other))
    return A.reshape(result, result_shape)


@OPS.op("linalg_vander(Tensor x, *, SymInt? N=None) -> Tensor", kind="composite")
def linalg_vander(x, *, N=None):
    dt = x.dtype
    if not (dt in (D.float32, D.float64, D.complex64, D.complex128) or (dt._cat == 1 and dt is not D.bool)):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got "
                           f"{D.legacy_name(dt)}")
    x_ = A.unsqueeze(x, -1) if x.dim() == 0 else x
    shape = list(x_.shape)
    n = shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape.append(n - 1)
    powers = A.cumprod(A.expand(A.unsqueeze(x_, -1), shape), -1)
    shape[-1] = 1
    return A.cat([A.new_ones(powers, shape), powers], -1)


@OPS.op("linalg_vecdot(Tensor x, Tensor y, *, int dim=-1) -> Tensor", kind="composite")
def linalg_vecdot(x, y, *, dim=-1):
    if x._data.dtype not in INEXACT:
        raise NotImplementedError(f"linalg.vecdot: Expected a floating point or complex tensor as input. Got "
                                  f"{D.legacy_name(x.dtype)}")
    if x.dtype != y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{D.legacy_name(x.dtype)} and y of type {D.legacy_name(y.dtype)} instead")
    return A.sum__dim_IntList(A.mul__Tensor(A.conj(x) if x.is_complex() else x, y), [dim])
