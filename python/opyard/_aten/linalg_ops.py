"""Linear algebra basics: qr (numpy.linalg), cross, trace; kron, matrix_power and the legacy
``det``/``inverse``/``cholesky``/``cross`` as the compositions torch keeps
CompositeImplicitAutograd; the helpers the other linear-algebra modules share (``LinAlgError``,
batched column-major results, the shape rule of ``linalg.solve``'s right-hand side).

Every kernel takes batches of matrices (``(*, n, n)``) and raises torch's messages, with
:class:`LinAlgError` (a ``RuntimeError``, ``opyard.linalg.LinAlgError``) for singular and
non-positive-definite inputs. Meta kernels compute the result shapes.
"""

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from . import return_types as RT
from .common import INEXACT, A, _wrap_dim, broadcast_shape, check_same_device, out

__all__ = ["COMPOSITE", "KERNELS", "META_KERNELS", "SCHEMAS", "LinAlgError", "meta_result"]

SCHEMAS = (
    "trace(Tensor self) -> Tensor",
    "det(Tensor self) -> Tensor",
    "inverse(Tensor self) -> Tensor",
    "cholesky(Tensor self, bool upper=False) -> Tensor",
    "linalg_qr(Tensor A, str mode='reduced') -> (Tensor Q, Tensor R)",
    "linalg_cross(Tensor self, Tensor other, *, int dim=-1) -> Tensor",
    "cross(Tensor self, Tensor other, int? dim=None) -> Tensor",
    "kron(Tensor self, Tensor other) -> Tensor",
    "matrix_power(Tensor self, int n) -> Tensor",
    "linalg_matrix_power(Tensor self, int n) -> Tensor",
)


class LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a singular or not positive-definite input."""


def _square(name, t, arg="A"):
    x = t._data
    if x.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {arg} must have at least 2 dimensions.")
    if x.shape[-1] != x.shape[-2]:
        raise RuntimeError(f"{name}: {arg} must be batches of square matrices, but they are "
                           f"{x.shape[-2]} by {x.shape[-1]} matrices")
    if x.dtype not in INEXACT:
        raise NotImplementedError(f"{name}: Expected a floating point or complex tensor as input. "
                                  f"Got {D.legacy_name(t.dtype)}")
    return x


def trace(self):
    x = self._data
    if x.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {x.ndim}")
    return out(np.asarray(np.trace(x), dtype=np.int64 if x.dtype.kind in "biu" else x.dtype), self)


def _fortran(r):
    """torch's linalg results are batches of column-major matrices."""
    r = np.asarray(r)
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(r, -1, -2)), -1, -2) if r.ndim >= 2 else r


def _solve_shapes(a_shape, b_shape, left):
    """``(vector, result shape)`` of linalg.solve, with torch's shape errors."""
    n = a_shape[-1]
    vector = left and (len(b_shape) == 1 or (len(b_shape) == len(a_shape) - 1 and b_shape == a_shape[:-1]))
    rows, cols = (b_shape[-1], 1) if len(b_shape) == 1 or vector else (b_shape[-2], b_shape[-1])
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({a_shape[-2]}x{n} and {rows}x{cols})")
    batch = tuple(np.broadcast_shapes(tuple(a_shape[:-2]), tuple(b_shape[:-1] if vector else b_shape[:-2])))
    return vector, batch + ((n,) if vector else (rows, cols))


def _matrix(name, t):
    x = t._data
    if x.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if x.dtype not in INEXACT:
        raise NotImplementedError(f"{name}: Expected a floating point or complex tensor as input. "
                                  f"Got {D.legacy_name(t.dtype)}")
    return x


def linalg_qr(A_, mode="reduced"):
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), "
                           "'r', or 'complete'")
    x = _matrix("linalg.qr", A_)
    q, r = np.linalg.qr(x, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        q = np.zeros((0,), x.dtype)
    return RT.make(RT.linalg_qr, (out(_fortran(q), A_), out(_fortran(r), A_)))


def linalg_cross(self, other, *, dim=-1):
    check_same_device("aten::linalg_cross", self, other)
    x, y = self._data, other._data
    if x.ndim != y.ndim:
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    shape = broadcast_shape("aten::linalg_cross", x.shape, y.shape)
    d = _wrap_dim(dim, len(shape))
    if x.shape[d] != 3 or y.shape[d] != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {x.shape[d]} and "
                           f"{y.shape[d]}")
    return out(np.ascontiguousarray(np.cross(x, y, axis=d)), self)


def kron(self, other):
    nd = max(self.dim(), other.dim())
    a = A.reshape(self, [1] * (nd - self.dim()) + list(self.shape))
    b = A.reshape(other, [1] * (nd - other.dim()) + list(other.shape))
    # interleave: a[i0, 1, i1, 1, ...] * b[1, j0, 1, j1, ...] -> sizes (a0 * b0, a1 * b1, ...)
    sa = [s for d in a.shape for s in (d, 1)]
    sb = [s for d in b.shape for s in (1, d)]
    prod = A.mul__Tensor(A.reshape(a, sa), A.reshape(b, sb))
    return A.reshape(prod, [x * y for x, y in zip(a.shape, b.shape)])


def matrix_power(self, n):
    x = self
    if x.dim() < 2 or x.shape[-1] != x.shape[-2]:
        _square("linalg.matrix_power", x)
    if n == 0:
        eye = A.eye(x.shape[-1], dtype=x.dtype, device=x.device)
        return A.add__Tensor(A.mul__Scalar(x, 0), eye) if x.dtype.is_floating_point else \
            A.expand(eye, list(x.shape)).clone()
    if n < 0:
        x, n = A.linalg_inv(x), -n
    result, base = None, x
    while n:  # square-and-multiply
        if n & 1:
            result = base if result is None else A.matmul(result, base)
        n >>= 1
        if n:
            base = A.matmul(base, base)
    return result


def _first_dim_of_3(t):
    """torch's deprecated ``cross`` default: the first dimension of size 3."""
    return next((i for i, s in enumerate(t.shape) if s == 3), -1)


def _meta_batch(shape_fn, dtype_fn=lambda t: t.dtype):
    """A Meta kernel from ``shape_fn``: one shape, or a list of ``(shape, layout)`` with layout
    "F" (batched column-major, as torch's linalg results) or "C"."""
    def meta(self, *args, **kwargs):
        r = shape_fn(self, *args, **kwargs)
        if not isinstance(r, list):
            return _make_meta(r, dtype_fn(self))
        return tuple(_make_meta(shape, dtype_fn(self), _f_strides(shape) if layout == "F" else None)
                     for shape, layout in r)
    return meta


def meta_result(shape, dtype, layout="C"):
    """A meta tensor laid out as a CPU kernel's numpy result: batched column-major (``"F"``, as
    ``_fortran`` makes) or row-major; all strides 0 for a shape without elements, as numpy's."""
    shape = tuple(int(s) for s in shape)
    if 0 in shape:
        strides = (0,) * len(shape)
    else:
        strides = _f_strides(shape) if layout == "F" else None
    return _make_meta(shape, dtype, strides)


def _f_strides(shape):
    if len(shape) < 2:
        return None
    m, n = shape[-2], shape[-1]
    strides, acc = [1, max(m, 1)], max(m, 1) * max(n, 1)
    for size in reversed(shape[:-2]):
        strides.insert(0, acc)
        acc *= max(size, 1)
    return tuple(strides[:len(shape) - 2]) + (1, max(m, 1))


class _Shape:
    """A stand-in with a meta tensor's shape/dtype for the argument checks."""

    def __init__(self, t):
        self._data = np.broadcast_to(np.zeros((), t._data.dtype), tuple(t.shape))
        self.dtype = t.dtype


def _m_qr(a, mode="reduced"):
    _matrix("linalg.qr", _Shape(a))
    m, n = a.shape[-2:]
    k = min(m, n)
    batch = tuple(a.shape[:-2])
    q = (0,) if mode == "r" else batch + (m, m if mode == "complete" else k)
    return [(q, "F"), (batch + ((m if mode == "complete" else k), n), "F")]


def _m_trace(t):
    if t.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {t.dim()}")
    return ()


def _m_cross(a, b, *, dim=-1):
    check_same_device("aten::linalg_cross", a, b)
    return tuple(broadcast_shape("aten::linalg_cross", tuple(a.shape), tuple(b.shape)))


KERNELS = {"trace": trace, "linalg_qr": linalg_qr, "linalg_cross": linalg_cross}
META_KERNELS = {
    "trace": _meta_batch(_m_trace, lambda t: D.int64 if t.dtype._cat < 2 else t.dtype),
    "linalg_qr": _meta_batch(_m_qr),
    "linalg_cross": _meta_batch(_m_cross),
}
COMPOSITE = {
    "det": lambda self: A.linalg_det(self), "inverse": lambda self: A.linalg_inv(self),
    "cholesky": lambda self, upper=False: A.linalg_cholesky(self, upper=upper),
    "cross": lambda self, other, dim=None: A.linalg_cross(
        self, other, dim=dim if dim is not None else _first_dim_of_3(self)),
    "kron": kron, "matrix_power": matrix_power, "linalg_matrix_power": matrix_power,
}
