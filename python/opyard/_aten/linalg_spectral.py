"""Spectral and orthogonal decompositions as torch's kernels: ``_linalg_eigh``, ``linalg_eig`` /
``_linalg_eigvals``, ``_linalg_svd``, ``linalg_polar``, ``linalg_matrix_sqrth``,
``linalg_matrix_exp``, the pseudo-inverse (``linalg_pinv.atol_rtol_tensor``, which torch computes
from an SVD or an eigendecomposition behind its own derivative formula), least squares
(``linalg_lstsq``) and Householder QR's pieces (``geqrf``, ``linalg_householder_product``,
``ormqr``).

numpy.linalg runs the LAPACK drivers torch's CPU kernels call (``syevd``, ``geev``, ``gesdd``,
``geqrf`` through ``qr(mode="raw")``); ``lapack.py`` the ones numpy lacks. Matrix results are batched
column-major, as torch's.
"""

import numpy as np

from .. import _dtype as D
from . import lapack
from . import return_types as RT
from ._declare import OpTable
from .common import INEXACT, META, check_same_device, out
from .linalg_factor import matrix, square
from .linalg_ops import _fortran
from .linalg_ops import meta_result as M

__all__ = ["OPS", "pinv_array"]

OPS = OpTable()

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128),
               np.dtype(np.complex64): np.dtype(np.complex64), np.dtype(np.complex128): np.dtype(np.complex128)}


def _kernel_dtype(t, kernel):
    x = t._data
    if x.dtype not in INEXACT or (x.dtype.itemsize == 2 and x.dtype.kind != "c"):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.legacy_name(t.dtype)}'")
    return x


def _empty(dt):
    return np.zeros((0,), dt)


def _dt(x):
    """The opyard dtype of a numpy dtype."""
    return D.FROM_NP[np.dtype(x)]


# Meta inputs get the results' metadata after the checks: Note [Meta-aware linear algebra]
# (linalg_factor.py).


@OPS.op('_linalg_eigh(Tensor A, str UPLO="L", bool compute_v=True) -> (Tensor eigenvalues, Tensor eigenvectors)',
        kind="meta_aware")
def _linalg_eigh(A, UPLO="L", compute_v=True):
    if UPLO not in ("L", "U"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    square("linalg.eigh", A)
    x = _kernel_dtype(A, "linalg_eigh_cpu")
    if A._dev is META:
        return M(x.shape[:-1], _dt(x.real.dtype)), M(x.shape if compute_v else (0,), A.dtype, "F")
    if x.size == 0:
        w, v = np.zeros(x.shape[:-1], x.real.dtype), np.zeros(x.shape, x.dtype)
    elif compute_v:
        w, v = np.linalg.eigh(x, UPLO=UPLO)
    else:
        w, v = np.linalg.eigvalsh(x, UPLO=UPLO), None
    w = w.astype(x.real.dtype, copy=False)
    return out(w, A), out(_fortran(v.astype(x.dtype, copy=False)) if compute_v else _empty(x.dtype), A)


def _eig_checks(api, A):
    x = A._data
    if x.ndim >= 2 and x.dtype not in _COMPLEX_OF and x.dtype.kind != "V" and x.dtype.itemsize != 2:
        raise RuntimeError(f"Unknown Complex ScalarType for {D.legacy_name(A.dtype)}")
    square(api, A)
    return _kernel_dtype(A, "linalg_eig_out_cpu")


@OPS.op("linalg_eig(Tensor self) -> (Tensor eigenvalues, Tensor eigenvectors)", kind="meta_aware")
def linalg_eig(self):
    x = _eig_checks("linalg.eig", self)
    c = _COMPLEX_OF[x.dtype]
    if self._dev is META:
        return RT.make(RT.linalg_eig, (M(x.shape[:-1], _dt(c)), M(x.shape, _dt(c), "F")))
    if x.size == 0:
        w, v = np.zeros(x.shape[:-1], c), np.zeros(x.shape, c)
    else:
        w, v = np.linalg.eig(x)
    return RT.make(RT.linalg_eig, (out(w.astype(c, copy=False), self), out(_fortran(v.astype(c, copy=False)), self)))


@OPS.op("_linalg_eigvals(Tensor self) -> Tensor", kind="meta_aware")
def _linalg_eigvals(self):
    x = _eig_checks("linalg.eigvals", self)
    c = _COMPLEX_OF[x.dtype]
    if self._dev is META:
        return M(x.shape[:-1], _dt(c))
    w = np.zeros(x.shape[:-1], c) if x.size == 0 else np.linalg.eigvals(x)
    return out(w.astype(c, copy=False), self)


def _svd(x, full_matrices, compute_uv):
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)
    batch = x.shape[:-2]
    if x.size == 0:
        s = np.zeros(batch + (k,), x.real.dtype)
        if not compute_uv:
            return None, s, None
        u = np.zeros(batch + (m, m if full_matrices else k), x.dtype)
        vh = np.zeros(batch + (n if full_matrices else k, n), x.dtype)
        idx = np.arange(k if not full_matrices else m)
        u[..., idx, idx] = 1 if min(u.shape[-2:]) else 0
        idx = np.arange(k if not full_matrices else n)
        vh[..., idx, idx] = 1 if min(vh.shape[-2:]) else 0
        return u, s, vh
    if not compute_uv:
        return None, np.linalg.svd(x, compute_uv=False), None
    return np.linalg.svd(x, full_matrices=full_matrices)


@OPS.op("_linalg_svd(Tensor A, bool full_matrices=False, bool compute_uv=True, *, str? driver=None) -> "
        "(Tensor U, Tensor S, Tensor Vh)", kind="meta_aware")
def _linalg_svd(A, full_matrices=False, compute_uv=True, *, driver=None):
    matrix("linalg.svd", A)
    x = _kernel_dtype(A, "linalg_svd_cpu")
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with cuSOLVER "
                           "backend.")
    if A._dev is META:
        b, (m, n) = x.shape[:-2], x.shape[-2:]
        k = min(m, n)
        S = M(b + (k,), _dt(x.real.dtype))
        if not compute_uv:
            return M((0,), A.dtype), S, M((0,), A.dtype)
        return (M(b + (m, m if full_matrices else k), A.dtype, "F"), S,
                M(b + (n if full_matrices else k, n), A.dtype, "F"))
    u, s, vh = _svd(x, full_matrices, compute_uv)
    s = out(s.astype(x.real.dtype, copy=False), A)
    if not compute_uv:
        return out(_empty(x.dtype), A), s, out(_empty(x.dtype), A)
    return out(_fortran(u.astype(x.dtype, copy=False)), A), s, out(_fortran(vh.astype(x.dtype, copy=False)), A)


def _mh(a):
    return np.conj(np.swapaxes(a, -1, -2))


@OPS.op("linalg_polar(Tensor A) -> (Tensor U, Tensor H)", kind="meta_aware")
def linalg_polar(A):
    """``A = U H`` with ``U`` of orthonormal columns and ``H`` positive semi-definite (``m >= n``),
    through the reduced SVD ``A = W S V^H``: ``U = W V^H``, ``H = V S V^H``."""
    x = matrix("linalg.polar", A)
    if x.shape[-2] < x.shape[-1]:
        raise RuntimeError(f"linalg.polar: input must have at least as many rows as columns, but got {x.shape[-2]} by "
                           f"{x.shape[-1]} matrices")
    _kernel_dtype(A, "linalg_svd_cpu")
    if A._dev is META:
        n = x.shape[-1]
        return RT.make(RT.linalg_polar, (M(x.shape, A.dtype, "F"), M(x.shape[:-2] + (n, n), A.dtype, "F")))
    w, s, vh = _svd(x, False, True)
    u = w @ vh
    h = (_mh(vh) * s[..., None, :].astype(x.dtype)) @ vh
    return RT.make(RT.linalg_polar, (out(_fortran(u.astype(x.dtype, copy=False)), A),
                                     out(_fortran(h.astype(x.dtype, copy=False)), A)))


@OPS.op("linalg_matrix_sqrth(Tensor self) -> Tensor", kind="meta_aware")
def linalg_matrix_sqrth(self):
    """The principal square root of a symmetric (Hermitian) positive-definite matrix from the
    eigendecomposition of its lower triangle: ``V sqrt(max(w, 0)) V^H``."""
    x = square("linalg.matrix_sqrth", self, low_precision=False)
    if self._dev is META:
        return M(x.shape, self.dtype, "F")
    if x.size == 0:
        return out(np.zeros(x.shape, x.dtype), self)
    w, v = np.linalg.eigh(x)
    r = (v * np.sqrt(np.maximum(w, 0))[..., None, :].astype(x.dtype)) @ _mh(v)
    return out(_fortran(r.astype(x.dtype, copy=False)), self)


@OPS.op("linalg_matrix_exp(Tensor self) -> Tensor", kind="meta_aware")
def linalg_matrix_exp(self):
    """``exp(A)`` (Note [Matrix exponential]); half precision is computed in float32 and rounded once."""
    x = square("linalg.matrix_exp", self)
    if self._dev is META:
        return M(x.shape, self.dtype)
    work = x.astype(np.float32) if x.dtype.itemsize == 2 and x.dtype.kind != "c" else x
    r = lapack.expm(work)
    return out(np.ascontiguousarray(r).astype(x.dtype, copy=False), self)


# --- pseudo-inverse and least squares -----------------------------------------------------------


def _eps(dt):
    return float(np.finfo(dt.real.dtype if hasattr(dt, "real") else dt).eps)


def pinv_array(x, atol, rtol, hermitian):
    """numpy's computation of torch's ``linalg_pinv``: ``V diag(1/s) U^H`` over the singular values
    above ``max(atol, rtol * max(s))`` (``U diag(1/w) U^H`` over the eigenvalues when Hermitian);
    ``atol``/``rtol`` broadcast against the batch."""
    m, n = x.shape[-2], x.shape[-1]
    if x.size == 0:
        return np.zeros(x.shape[:-2] + (n, m), x.dtype)
    if hermitian:
        w, u = np.linalg.eigh(x)
        absw = np.abs(w)
        tol = np.maximum(atol[..., None], rtol[..., None] * absw.max(axis=-1, keepdims=True))
        with np.errstate(divide="ignore"):
            inv = np.where(absw > tol, 1 / w, 0).astype(x.dtype)
        return (u * inv[..., None, :]) @ _mh(u)
    u, s, vh = np.linalg.svd(x, full_matrices=False)
    tol = np.maximum(atol[..., None], rtol[..., None] * s[..., :1])
    with np.errstate(divide="ignore"):
        inv = np.where(s > tol, 1 / s, 0).astype(x.dtype)
    return (_mh(vh) * inv[..., None, :]) @ _mh(u)


def _tolerance(t, like, name):
    """``atol``/``rtol`` as float64 arrays (None stays None); complex tolerances are refused."""
    if t is None:
        return None
    if not hasattr(t, "_data"):
        return np.asarray(float(t), np.float64)
    if t._data.dtype.kind == "c":
        raise RuntimeError(f"{name}: {like} tensor of complex type is not supported.")
    return np.asarray(t._data, np.float64)


def atol_rtol(x, atol, rtol, api):
    """torch's ``get_atol_rtol``: ``atol`` defaults to 0, ``rtol`` to ``eps * max(m, n)`` unless a
    positive ``atol`` is given."""
    if x.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")
    a = _tolerance(atol, "atol", api)
    r = _tolerance(rtol, "rtol", api)
    default = np.float64(_eps(x.dtype) * max(x.shape[-1], x.shape[-2]))
    if r is None:
        r = np.where(a > 0, 0.0, default) if a is not None else np.asarray(default)
    if a is None:
        a = np.zeros((), np.float64)
    return a, r


@OPS.op("linalg_pinv.atol_rtol_tensor(Tensor self, *, Tensor? atol=None, Tensor? rtol=None, bool hermitian=False) -> "
        "Tensor", kind="meta_aware")
def linalg_pinv_atol_rtol_tensor(self, *, atol=None, rtol=None, hermitian=False):
    x = self._data
    if x.dtype not in (np.float32, np.float64, np.complex64, np.complex128) or x.ndim < 2:
        raise RuntimeError(f"linalg.pinv({D.legacy_name(self.dtype)}{{{list(x.shape)}}}): expected a tensor with 2 or "
                           "more dimensions of float, double, cfloat or cdouble types")
    check_same_device("aten::linalg_pinv", self, atol, rtol)
    a, r = atol_rtol(x, atol, rtol, "torch.linalg.pinv") if self._dev is not META else (None, None)
    if self._dev is META:
        return M(x.shape[:-2] + (x.shape[-1], x.shape[-2]), self.dtype)
    res = pinv_array(x, a, r, hermitian)
    return out(np.ascontiguousarray(res).astype(x.dtype, copy=False), self)


_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_checks(self, b, driver):
    x, y = self._data, b._data
    if x.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if y.ndim < 1:
        raise RuntimeError("torch.linalg.lstsq: other must have at least 1 dimension.")
    if x.dtype != y.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and other to have the same dtype, but got input's "
                           f"dtype {D.legacy_name(self.dtype)} and other's dtype {D.legacy_name(b.dtype)}")
    if x.dtype not in INEXACT or (x.dtype.itemsize == 2 and x.dtype.kind != "c"):
        raise RuntimeError(f"torch.linalg.lstsq: Expected a floating point or complex tensor as input. Got "
                           f"{D.legacy_name(self.dtype)}")
    vector = y.ndim == x.ndim - 1
    rows = y.shape[-1] if vector else y.shape[-2]
    if rows != x.shape[-2]:
        raise RuntimeError(f"torch.linalg.lstsq: input.size(-2) should match other.size(-{1 if vector else 2})")
    if driver is not None and driver not in _DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    return x, y, vector


@OPS.op("linalg_lstsq(Tensor self, Tensor b, float? rcond=None, *, str? driver=None) -> "
        "(Tensor solution, Tensor residuals, Tensor rank, Tensor singular_values)", kind="meta_aware")
def linalg_lstsq(self, b, rcond=None, *, driver=None):
    """The minimum-norm least-squares solution (through the SVD: every driver's answer for a matrix
    of full rank), and what the driver reports: the rank (``gelsy``, ``gelsd``, ``gelss``), the
    singular values (``gelsd``, ``gelss``), the squared residuals (``m > n``, except ``gelsy``, and
    for ``gelsd``/``gelss`` only when every matrix has full rank)."""
    check_same_device("aten::linalg_lstsq", self, b)
    x, y, vector = _lstsq_checks(self, b, driver)
    driver = driver or "gelsy"
    rhs = y[..., None] if vector else y
    m, n = x.shape[-2], x.shape[-1]
    batch = np.broadcast_shapes(x.shape[:-2], rhs.shape[:-2])
    a = np.broadcast_to(x, batch + (m, n))
    rhs = np.broadcast_to(rhs, batch + rhs.shape[-2:])
    k = rhs.shape[-1]
    real = x.real.dtype
    if self._dev is META:  # residuals and rank depend on the data: torch's meta shapes them as the driver does
        sol = M(batch + ((n,) if vector else (n, k)), self.dtype, "F")
        resid_shape = batch + (() if vector else (k,)) if m > n and driver != "gelsy" else (0,)
        return RT.make(RT.linalg_lstsq, (sol, M(resid_shape, _dt(real)), M(batch if driver != "gels" else (0,),
                                                                            D.int64),
                                         M(batch + (min(m, n),) if driver in ("gelsd", "gelss") else (0,), _dt(real))))
    rc = _eps(real) * max(m, n) if rcond is None or rcond < 0 else rcond
    if min(m, n) == 0:
        s = np.zeros(batch + (0,), real)
        sol = np.zeros(batch + (n, k), x.dtype)
        rank = np.zeros(batch, np.int64)
    else:
        u, s, vh = np.linalg.svd(a, full_matrices=False)
        keep = s > rc * s[..., :1]
        with np.errstate(divide="ignore"):
            inv = np.where(keep, 1 / s, 0).astype(x.dtype)
        sol = _mh(vh) @ ((_mh(u) @ rhs) * inv[..., :, None])
        rank = keep.sum(axis=-1).astype(np.int64)
    full = bool(np.all(rank == n)) if driver in ("gelsd", "gelss") else True
    if m > n and driver != "gelsy" and full:
        resid = a @ sol - rhs
        residuals = np.sum((resid * np.conj(resid)).real, axis=-2).astype(real)
        if vector:
            residuals = residuals[..., 0]
    else:
        residuals = np.zeros((0,), real)
    rank_out = rank if driver != "gels" else np.zeros((0,), np.int64)
    sv = s.astype(real) if driver in ("gelsd", "gelss") else np.zeros((0,), real)
    if vector:
        sol = sol[..., 0]
    return RT.make(RT.linalg_lstsq, (out(_fortran(sol.astype(x.dtype, copy=False)), self), out(residuals, self),
                                     out(rank_out, self), out(np.ascontiguousarray(sv), self)))


# --- Householder QR -------------------------------------------------------------------------------


@OPS.op("geqrf(Tensor self) -> (Tensor a, Tensor tau)", kind="meta_aware")
def geqrf(self):
    """LAPACK's ``geqrf``: ``R`` on and above the diagonal, the Householder vectors below it, and
    their scales ``tau``."""
    x = self._data
    if x.ndim < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _kernel_dtype(self, "geqrf_cpu")
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)
    if self._dev is META:
        return RT.make(RT.geqrf, (M(x.shape, self.dtype, "F"), M(x.shape[:-2] + (k,), self.dtype)))
    if x.size == 0:
        return RT.make(RT.geqrf, (out(_fortran(np.zeros(x.shape, x.dtype)), self),
                                  out(np.zeros(x.shape[:-2] + (k,), x.dtype), self)))
    h, tau = np.linalg.qr(x, mode="raw")
    return RT.make(RT.geqrf, (out(_fortran(np.swapaxes(h, -1, -2).astype(x.dtype, copy=False)), self),
                              out(tau.astype(x.dtype, copy=False), self)))


def _householder_checks(api, a, tau):
    if a.ndim < 2:
        raise RuntimeError(f"{api}: input must have at least 2 dimensions.")
    if tau.ndim < 1:
        raise RuntimeError(f"{api}: tau must have at least 1 dimension.")


@OPS.op("linalg_householder_product(Tensor input, Tensor tau) -> Tensor", kind="meta_aware")
def linalg_householder_product(input, tau):
    check_same_device("aten::linalg_householder_product", input, tau)
    a, t = input._data, tau._data
    api = "torch.linalg.householder_product"
    _householder_checks(api, a, t)
    if a.shape[-2] < a.shape[-1]:
        raise RuntimeError(f"{api}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if a.shape[-1] < t.shape[-1]:
        raise RuntimeError(f"{api}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if a.ndim - t.ndim != 1:
        raise RuntimeError(f"{api}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{t.ndim} and input.ndim is equal to {a.ndim}")
    if a.dtype != t.dtype:
        raise RuntimeError(f"{api}: tau dtype {D.legacy_name(tau.dtype)} does not match input dtype "
                           f"{D.legacy_name(input.dtype)}")
    _kernel_dtype(input, "orgqr_cpu")
    if input._dev is META:
        return M(a.shape, input.dtype, "F")
    return out(_fortran(lapack.orgqr(a, t)), input)


@OPS.op("ormqr(Tensor self, Tensor input2, Tensor input3, bool left=True, bool transpose=False) -> Tensor",
        kind="meta_aware")
def ormqr(self, input2, input3, left=True, transpose=False):
    """``op(Q) C`` (``left``) or ``C op(Q)`` for ``Q`` given by ``geqrf``'s ``(self, input2)``."""
    check_same_device("aten::ormqr", self, input2, input3)
    a, t, c = self._data, input2._data, input3._data
    _householder_checks("torch.ormqr", a, t)
    if c.ndim < 2:
        raise RuntimeError("torch.ormqr: other must have at least 2 dimensions.")
    side = -2 if left else -1
    if t.shape[-1] != min(c.shape[side], a.shape[-1]):
        raise RuntimeError(f"torch.ormqr: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])")
    if a.shape[-2] != c.shape[side]:
        raise RuntimeError(f"torch.ormqr: input.shape[-2] must be equal to other.shape[{side}]")
    if a.dtype != c.dtype or a.dtype != t.dtype:
        raise RuntimeError(f"torch.ormqr: Expected input and other to have the same dtype, but got input with dtype "
                           f"{D.legacy_name(self.dtype)} and other with dtype {D.legacy_name(input3.dtype)}")
    _kernel_dtype(self, "ormqr_cpu")
    if self._dev is META:
        return M(c.shape, input3.dtype, "F")
    return out(_fortran(lapack.ormqr(a, t, c, left, transpose)), self)
