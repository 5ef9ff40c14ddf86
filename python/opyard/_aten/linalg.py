"""Matrix products (numpy), and the composite ones built from them."""

import numpy as np

from .common import check_same_device, data_as, out, tensor_result_dtype

__all__ = ["KERNELS", "COMPOSITE"]


def _dims(name, t, n):
    if t._data.ndim != n:
        raise RuntimeError(f"{name}: expected {n}D tensors, but got a {t._data.ndim}D tensor")


def _same_dtype(name, a, b):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {a.dtype.name} != "
                           f"{b.dtype.name} ({name})")


def mm(self, mat2):
    _dims("mm", self, 2)
    _dims("mm", mat2, 2)
    _same_dtype("aten::mm", self, mat2)
    if self._data.shape[1] != mat2._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({self._data.shape[0]}x{self._data.shape[1]} "
                           f"and {mat2._data.shape[0]}x{mat2._data.shape[1]})")
    return out(self._data @ mat2._data, self)


def bmm(self, mat2):
    _dims("bmm", self, 3)
    _dims("bmm", mat2, 3)
    _same_dtype("aten::bmm", self, mat2)
    a, b = self._data.shape, mat2._data.shape
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] "
                           f"but got: [{b[0]}, {b[1]}].")
    return out(np.matmul(self._data, mat2._data), self)


def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    prod = mm(mat1, mat2)._data
    dt = tensor_result_dtype(self, mat1)
    r = (prod if alpha == 1 else alpha * prod) + (data_as(self, dt) if beta == 1 else beta * data_as(self, dt))
    return out(np.asarray(r).astype(dt.np, copy=False), mat1)


def dot(self, tensor):
    if self._data.ndim != 1 or tensor._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {tensor._data.ndim}D tensors")
    if self._data.shape != tensor._data.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{self._data.shape[0]}] and src "
                           f"[{tensor._data.shape[0]}] to have the same number of elements, but got "
                           f"{self._data.shape[0]} and {tensor._data.shape[0]} elements respectively")
    _same_dtype("aten::dot", self, tensor)
    return out(np.asarray(np.dot(self._data, tensor._data)), self)


def outer(self, vec2):
    dt = tensor_result_dtype(self, vec2)
    return out(np.outer(data_as(self, dt), data_as(vec2, dt)), self)


KERNELS = {"mm": mm, "bmm": bmm, "addmm": addmm, "dot": dot, "outer": outer}


def _ops():
    from .._ops import ops

    return ops.aten


def matmul(self, other):
    """torch.matmul's cases, composed of mm / bmm / dot / views (CompositeImplicitAutograd)."""
    check_same_device("aten::matmul", self, other)
    a, b = self.dim(), other.dim()
    A = _ops()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return A.dot.default(self, other)
    if a == 2 and b == 1:
        return A.squeeze.dim(A.mm.default(self, A.unsqueeze.default(other, 1)), -1)
    if a == 1 and b == 2:
        return A.squeeze.dim(A.mm.default(A.unsqueeze.default(self, 0), other), 0)
    if a == 2 and b == 2:
        return A.mm.default(self, other)
    # batched: broadcast the batch dimensions, fold them, bmm, unfold.
    x = A.unsqueeze.default(self, 0) if a == 1 else self
    y = A.unsqueeze.default(other, -1) if b == 1 else other
    batch = np.broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]))
    n, k = x.shape[-2], x.shape[-1]
    k2, m = y.shape[-2], y.shape[-1]
    xb = A.reshape.default(A.expand.default(x, list(batch) + [n, k]), [-1, n, k])
    yb = A.reshape.default(A.expand.default(y, list(batch) + [k2, m]), [-1, k2, m])
    r = A.reshape.default(A.bmm.default(xb, yb), list(batch) + [n, m])
    if a == 1:
        r = A.squeeze.dim(r, -2)
    if b == 1:
        r = A.squeeze.dim(r, -1)
    return r


def linear(input, weight, bias=None):
    A = _ops()
    y = A.matmul.default(input, A.t.default(weight))
    return y if bias is None else A.add.Tensor(y, bias)


COMPOSITE = {"matmul": matmul, "linear": linear}
