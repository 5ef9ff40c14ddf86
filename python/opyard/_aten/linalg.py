"""Matrix products (numpy), and the composite ones built from them."""

import numpy as np

from .common import A, check_same_device, data_as, out, tensor_result_dtype

__all__ = ["KERNELS", "COMPOSITE"]


def _dims(name, t, n):
    if t._data.ndim != n:
        raise RuntimeError(f"{name}: expected {n}D tensors, but got a {t._data.ndim}D tensor")


def _same_dtype(name, a, b):
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {a.dtype.name} != "
                           f"{b.dtype.name} ({name})")


def _in_dtype(r, x):
    """numpy's matmul over ml_dtypes' bfloat16/float8 answers float32; torch keeps the input dtype."""
    return r if r.dtype is x.dtype else r.astype(x.dtype)


def mm(self, mat2):
    x, y = self._data, mat2._data
    if x.ndim != 2 or y.ndim != 2:
        _dims("mm", self, 2)
        _dims("mm", mat2, 2)
    if self._dev is not mat2._dev:
        check_same_device("aten::mm", self, mat2)
    if x.dtype is not y.dtype:
        _same_dtype("aten::mm", self, mat2)
    if x.shape[1] != y.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]} "
                           f"and {y.shape[0]}x{y.shape[1]}) (aten::mm)")
    r = x @ y
    return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)


def bmm(self, mat2):
    check_same_device("aten::bmm", self, mat2)
    _dims("bmm", self, 3)
    _dims("bmm", mat2, 3)
    _same_dtype("aten::bmm", self, mat2)
    a, b = self._data.shape, mat2._data.shape
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] "
                           f"but got: [{b[0]}, {b[1]}].")
    return out(_in_dtype(np.matmul(self._data, mat2._data), self._data), self)


def dot(self, tensor):
    check_same_device("aten::dot", self, tensor)
    if self._data.ndim != 1 or tensor._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {tensor._data.ndim}D tensors")
    if self._data.shape != tensor._data.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{self._data.shape[0]}] and src "
                           f"[{tensor._data.shape[0]}] to have the same number of elements, but got "
                           f"{self._data.shape[0]} and {tensor._data.shape[0]} elements respectively")
    _same_dtype("aten::dot", self, tensor)
    return out(_in_dtype(np.asarray(np.dot(self._data, tensor._data)), self._data), self)


def outer(self, vec2):
    check_same_device("aten::outer", self, vec2)
    dt = tensor_result_dtype(self, vec2)
    return out(np.outer(data_as(self, dt), data_as(vec2, dt)), self)


def mv(self, vec):
    if self._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {self._data.ndim}, {vec._data.ndim} (aten::mv)")
    check_same_device("aten::mv", self, vec)
    _same_dtype("aten::mv", self, vec)
    if self._data.shape[1] != vec._data.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({self._data.shape[0]}), mat ({self._data.shape[0]}x"
                           f"{self._data.shape[1]}), vec ({vec._data.shape[0]}) (aten::mv)")
    return out(_in_dtype(self._data @ vec._data, self._data), self)


KERNELS = {"mm": mm, "bmm": bmm, "dot": dot, "outer": outer, "mv": mv}


def matmul(self, other):
    """torch.matmul's cases, composed of mm / bmm / dot / views (CompositeImplicitAutograd)."""
    check_same_device("aten::matmul", self, other)
    a, b = self.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return A.dot(self, other)
    if a == 2 and b == 1:
        return A.squeeze__dim(A.mm(self, A.unsqueeze(other, 1)), -1)
    if a == 1 and b == 2:
        return A.squeeze__dim(A.mm(A.unsqueeze(self, 0), other), 0)
    if a == 2 and b == 2:
        return A.mm(self, other)
    # batched: broadcast the batch dimensions, fold them, bmm, unfold.
    x = A.unsqueeze(self, 0) if a == 1 else self
    y = A.unsqueeze(other, -1) if b == 1 else other
    batch = np.broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]))
    n, k = x.shape[-2], x.shape[-1]
    k2, m = y.shape[-2], y.shape[-1]
    size = int(np.prod(batch, dtype=np.int64))  # not -1: an empty batch makes that ambiguous
    xb = A.reshape(A.expand(x, list(batch) + [n, k]), [size, n, k])
    yb = A.reshape(A.expand(y, list(batch) + [k2, m]), [size, k2, m])
    r = A.reshape(A.bmm(xb, yb), list(batch) + [n, m])
    if a == 1:
        r = A.squeeze__dim(r, -2)
    if b == 1:
        r = A.squeeze__dim(r, -1)
    return r


def linear(input, weight, bias=None):
    y = A.matmul(input, A.t(weight))
    return y if bias is None else A.add__Tensor(y, bias)


COMPOSITE = {"matmul": matmul, "linear": linear}
