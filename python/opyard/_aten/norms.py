"""Norms: ``linalg_vector_norm`` (a kernel, as torch's, computed in float32 for half precision and
rounded once) and the CompositeImplicitAutograd matrix norms and ``linalg.norm`` over it and the
singular values, composed as torch composes them (LinearAlgebra.cpp)."""

import math

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .common import A, _wrap_dim, out
from .linalg_factor import matrix

__all__ = ["OPS"]

OPS = OpTable()


def _reduced_dims(x, dim):
    """The dims a norm reduces (every dim for None or ``[]``), wrapped as torch wraps them (a
    0-dim tensor takes 0 and -1)."""
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return tuple(range(x.ndim))
    dims = [dim] if isinstance(dim, int) else list(dim)
    wrapped = tuple(_wrap_dim(d, x.ndim) for d in dims)
    return () if x.ndim == 0 else wrapped


def _ord_text(ord):
    if math.isinf(ord):
        return "inf" if ord > 0 else "-inf"
    return str(int(ord)) if float(ord).is_integer() else repr(float(ord))


def _m_vector_norm(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    return _vector_norm(self, ord, dim, keepdim, dtype, meta=True)


@OPS.op("linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None) "
        "-> Tensor", meta=_m_vector_norm)
def linalg_vector_norm(self, ord=2, dim=None, keepdim=False, *, dtype=None):
    """``(sum |x|^ord)^(1/ord)`` over ``dim`` (``ord`` 0: the count of nonzeros, +-inf: the largest /
    smallest ``|x|``)."""
    return _vector_norm(self, ord, dim, keepdim, dtype)


# The data of ``_vector_norm``'s fast path.
_FLOATS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})


def _vector_norm(self, ord, dim, keepdim, dtype, meta=False):
    x = self._data
    if ord == 2 and type(ord) in (int, float) and dtype is None and not meta and type(x) is np.ndarray \
            and x.ndim and x.dtype in _FLOATS:
        # the common call, a 2-norm: the general path's numpy calls (below) without its frames and
        # checks, which float32/float64 data passes
        a = np.abs(x)
        return out(np.sqrt(np.add.reduce(a * a, _reduced_dims(x, dim), None, None, keepdims=keepdim)), self)
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise NotImplementedError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                                  f"{D.legacy_name(self.dtype)}")
    if dtype is not None:
        _check_norm_dtype(self.dtype, dtype, "linalg.vector_norm")
    if isinstance(ord, complex):
        raise RuntimeError("linalg.vector_norm: Expected a non-complex scalar as the order of norm.")
    ord = float(ord)
    axes = _reduced_dims(x, dim)
    if x.size == 0 and (ord < 0 or ord == math.inf):
        if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0) or any(x.shape[a] == 0 for a in axes):
            raise RuntimeError(f"linalg.vector_norm cannot compute the {_ord_text(ord)} norm on an empty tensor "
                               "because the operation does not have an identity")
    want = dtype if dtype is not None else self.dtype
    real = D.FROM_NP[np.zeros((), want.np).real.dtype] if want.is_complex else want
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape)) if keepdim else \
        tuple(n for i, n in enumerate(x.shape) if i not in axes)
    if meta:
        return _make_meta(shape, real)
    work = x.astype(want.np, copy=False)
    if want in (D.float16, D.bfloat16):  # torch's accumulate type: computed in float32, rounded once
        work = work.astype(np.float32)
    a = np.abs(work)
    if ord == math.inf:
        r = np.max(a, axis=axes, keepdims=keepdim) if a.size else np.zeros(shape, a.dtype)
    elif ord == -math.inf:
        r = np.min(a, axis=axes, keepdims=keepdim) if a.size else np.zeros(shape, a.dtype)
    elif ord == 0:
        r = np.sum(a != 0, axis=axes, keepdims=keepdim).astype(a.dtype)
    elif ord == 1:
        r = np.sum(a, axis=axes, keepdims=keepdim)
    elif ord == 2:
        r = np.sqrt(np.sum(a * a, axis=axes, keepdims=keepdim))
    else:
        with np.errstate(divide="ignore"):
            r = np.sum(a ** ord, axis=axes, keepdims=keepdim) ** (1.0 / ord)
    return out(np.asarray(r).reshape(shape).astype(real.np), self)


def _backshift(d0, d1, ndim):
    return [d for d in range(ndim) if d not in (d0, d1)] + [d0, d1]


def _matrix_norm_checks(x, dim, dtype, low_precision):
    api = "linalg.matrix_norm"
    if x.dim() < 2:
        raise RuntimeError(f"{api}: The input tensor A must have at least 2 dimensions.")
    matrix(api, x, low_precision=low_precision)
    dim = list(dim)
    if len(dim) != 2:
        raise RuntimeError(f"{api}: dim must be a 2-tuple. Got {dim}")
    n = x.dim()
    for d in dim:
        if not -n <= d < n:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    dim = [d % n for d in dim]
    if dim[0] == dim[1]:
        raise RuntimeError(f"{api}: dims must be different. Got ({dim[0]}, {dim[1]})")
    if dtype is not None:
        _check_norm_dtype(x.dtype, dtype, api)
    return dim


def _check_norm_dtype(have, want, api):
    """torch's ``check_linalg_norm_dtype``: a dtype argument keeps the input's kind and does not narrow it."""
    if not (want.is_floating_point or want.is_complex):
        raise RuntimeError(f"{api}: dtype should be floating point or complex, but got {D.legacy_name(want)}")
    kind = "complex" if have.is_complex else "real"
    if have.is_complex != want.is_complex:
        raise RuntimeError(f"{api}: dtype should be {kind} for {kind} inputs, but got {D.legacy_name(want)}")
    if D.promote_types(have, want) != want:
        raise RuntimeError(f"{api}: the dtype of the input ({D.legacy_name(have)}) should be convertible without "
                           f"narrowing to the specified dtype ({D.legacy_name(want)})")


def _to(x, dtype):
    return x if dtype is None or x.dtype == dtype else A._to_copy(x, dtype=dtype)


def _reduce_svdvals(x, dim, keepdim, dtype, reduce):
    perm = _backshift(dim[0], dim[1], x.dim())
    r = reduce(A.linalg_svdvals(A.permute(_to(x, dtype), perm)))
    if keepdim:
        inverse = [0] * len(perm)
        for i, p in enumerate(perm):
            inverse[p] = i
        r = A.permute(A.unsqueeze(r, -1), inverse)
    return r


def _matrix_norm(x, ord, dim, keepdim, dtype):
    if isinstance(ord, str):
        if ord not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
        dim = _matrix_norm_checks(x, dim, dtype, ord != "nuc")
        if ord == "fro":
            return A.linalg_vector_norm(x, 2, dim, keepdim, dtype=dtype)
        return _reduce_svdvals(x, dim, keepdim, dtype, lambda s: A.sum__dim_IntList(s, [-1], keepdim))
    ord = float(ord)
    if abs(ord) not in (1.0, 2.0, math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {_fmt(ord)} not supported.")
    dim = _matrix_norm_checks(x, dim, dtype, abs(ord) != 2)

    def pick(t, dims, keep):
        """amax for a positive order (0 over an empty dim: the norm of nothing), amin otherwise."""
        d = dims[0]
        if t.shape[d] == 0:
            if ord < 0:
                raise IndexError(f"amin(): Expected reduction dim {d} to have non-zero size.")
            return A.sum__dim_IntList(t, dims, keep)
        return (A.amax if ord > 0 else A.amin)(t, dims, keep)
    if abs(ord) == 2:
        return _reduce_svdvals(x, dim, keepdim, dtype, lambda s: pick(s, [-1], keepdim))
    if math.isinf(ord):  # the inf norm is the 1 norm of the transpose
        dim = [dim[1], dim[0]]
    if not keepdim and dim[0] < dim[1]:
        dim[1] -= 1
    return pick(A.linalg_vector_norm(x, 1.0, [dim[0]], keepdim, dtype=dtype), [dim[1]], keepdim)


def _fmt(v):
    return str(int(v)) if float(v).is_integer() else repr(v)


@OPS.op("linalg_matrix_norm(Tensor self, Scalar ord, int[] dim=[-2,-1], bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor", kind="composite")
def linalg_matrix_norm(self, ord, dim=(-2, -1), keepdim=False, *, dtype=None):
    return _matrix_norm(self, ord, list(dim), keepdim, dtype)


@OPS.op("linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor", kind="composite")
def linalg_matrix_norm_str_ord(self, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    return _matrix_norm(self, ord, list(dim), keepdim, dtype)


def _norm_dims(x, dim, ord_given):
    if dim is not None:
        dim = [dim] if isinstance(dim, int) else list(dim)
        if len(dim) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {dim}")
    elif ord_given and x.dim() not in (1, 2):
        raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                           f"{x.dim()}D.")
    return dim


@OPS.op("linalg_norm(Tensor self, Scalar? ord=None, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor", kind="composite")
def linalg_norm(self, ord=None, dim=None, keepdim=False, *, dtype=None):
    dim = _norm_dims(self, dim, ord is not None)
    if ord is not None and ((dim is not None and len(dim) == 2) or (dim is None and self.dim() == 2)):
        return _matrix_norm(self, ord, dim if dim is not None else [0, 1], keepdim, dtype)
    return A.linalg_vector_norm(self, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)


@OPS.op("linalg_norm.ord_str(Tensor self, str ord, int[1]? dim=None, bool keepdim=False, *, "
        "ScalarType? dtype=None) -> Tensor", kind="composite")
def linalg_norm_ord_str(self, ord, dim=None, keepdim=False, *, dtype=None):
    dim = _norm_dims(self, dim, True)
    return _matrix_norm(self, ord, dim if dim is not None else [0, 1], keepdim, dtype)


