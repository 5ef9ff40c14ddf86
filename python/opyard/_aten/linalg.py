"""Matrix products (numpy), and the composite ones built from them."""

import numpy as np

from .. import _dtype as D
from .common import A, check_same_device, data_as, out, tensor_result_dtype

__all__ = ["KERNELS", "COMPOSITE"]


def _dims(name, t, n):
    if t._data.ndim != n:
        raise RuntimeError(f"{name}: expected {n}D tensors, but got a {t._data.ndim}D tensor")


def _same_dtype(name, a, b):
    """torch's dtype check of each matrix product, in its words."""
    if a._data.dtype == b._data.dtype:
        return
    if name == "aten::bmm":
        raise RuntimeError(f"expected scalar type {D.legacy_name(a.dtype)} but found {D.legacy_name(b.dtype)}")
    if name == "aten::mv":
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {D.legacy_name(b.dtype)}, "
                           f"{D.legacy_name(a.dtype)}, and {D.legacy_name(b.dtype)}")
    if name == "aten::dot":
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {D.legacy_name(a.dtype)} and "
                           f"{D.legacy_name(b.dtype)}")
    raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {D.c_type_name(a.dtype)} != "
                       f"{D.c_type_name(b.dtype)}")


# The CPU kernel each product's dispatch macro names when it has no instance for bool.
_BOOL_KERNEL = {"aten::mm": "addmm_impl_cpu_", "aten::bmm": "bmm", "aten::mv": "addmv_impl_cpu", "aten::dot": "dot"}


def _no_bool(name, t):
    if t._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{_BOOL_KERNEL[name]}\" not implemented for 'Bool'")


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
    if x.dtype.kind == "b":
        _no_bool("aten::mm", self)
    if x.shape[1] != y.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]} "
                           f"and {y.shape[0]}x{y.shape[1]}) (aten::mm)")
    r = x @ y
    return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)


def bmm(self, mat2):
    x, y = self._data, mat2._data
    if not (x.ndim == 3 and y.ndim == 3 and self._dev is mat2._dev and x.dtype is y.dtype and x.dtype.kind != "b"):
        # a call the quick test above does not pass: torch's checks, in its order
        check_same_device("aten::bmm", self, mat2)
        _dims("bmm", self, 3)
        _dims("bmm", mat2, 3)
        _same_dtype("aten::bmm", self, mat2)
        _no_bool("aten::bmm", self)
    a, b = x.shape, y.shape
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] "
                           f"but got: [{b[0]}, {b[1]}].")
    if a[2] == 1 and x.dtype.kind in "fiu":
        # Inner size 1 (outer products, the backward of a batched dot): each element is one product,
        # so broadcasting multiply gives matmul's values exactly, without numpy's per-matrix loop
        # (2.4 us instead of 4.4 for 64 products of 16x1 by 1x1).
        return out(_in_dtype(np.multiply(x, y), x), self)
    return out(_in_dtype(np.matmul(x, y), x), self)


def dot(self, tensor):
    x, y = self._data, tensor._data
    if not (x.ndim == 1 and x.shape == y.shape and self._dev is tensor._dev and x.dtype is y.dtype
            and x.dtype.kind != "b"):
        # a call the quick test above does not pass: torch's checks, in its order
        check_same_device("aten::dot", self, tensor)
        if x.ndim != 1 or y.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {x.ndim}D and {y.ndim}D tensors")
        if x.shape != y.shape:
            raise RuntimeError(f"inconsistent tensor size, expected tensor [{x.shape[0]}] and src "
                               f"[{y.shape[0]}] to have the same number of elements, but got "
                               f"{x.shape[0]} and {y.shape[0]} elements respectively")
        _same_dtype("aten::dot", self, tensor)
        _no_bool("aten::dot", self)
    r = np.dot(x, y)
    return out(r if r.dtype is x.dtype else np.asarray(r).astype(x.dtype), self)


def outer(self, vec2):
    x, y = self._data, vec2._data
    if self._dev is vec2._dev and x.dtype is y.dtype and type(x) is np.ndarray and type(y) is np.ndarray:
        # the common call, one dtype (the result's): np.outer's one product, without its frames
        return out(np.multiply(x.ravel()[:, None], y.ravel()[None, :]), self)
    check_same_device("aten::outer", self, vec2)
    dt = tensor_result_dtype(self, vec2)
    return out(np.outer(data_as(self, dt), data_as(vec2, dt)), self)


def mv(self, vec):
    x, y = self._data, vec._data
    if not (x.ndim == 2 and y.ndim == 1 and self._dev is vec._dev and x.dtype is y.dtype and x.dtype.kind != "b"):
        # a call the quick test above does not pass: torch's checks, in its order
        if x.ndim != 2 or y.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got {x.ndim}, {y.ndim} (aten::mv)")
        check_same_device("aten::mv", self, vec)
        _same_dtype("aten::mv", self, vec)
        _no_bool("aten::mv", self)
    if x.shape[1] != y.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({x.shape[0]}), mat ({x.shape[0]}x"
                           f"{x.shape[1]}), vec ({y.shape[0]}) (aten::mv)")
    r = x @ y
    return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)


KERNELS = {"mm": mm, "bmm": bmm, "dot": dot, "outer": outer, "mv": mv}


def matmul(self, other):
    """torch.matmul's cases as torch composes them (``_matmul_impl``, CompositeImplicitAutograd):
    ``dot``/``mv``/``mm`` for vectors and matrices; a batch folded into the rows of one ``mm``/``mv``
    when that needs no copy (``_should_fold``); else the batch dims broadcast, flattened and ``bmm``,
    the result unflattened by ``_unsafe_view``. A trace records these calls, as torch's does."""
    if self._dev is not other._dev:
        check_same_device("aten::matmul", self, other)
    a, b = self.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return A.dot(self, other)
    if a == 2 and b == 1:
        return A.mv(self, other)
    if a == 1 and b == 2:
        # torch squeezes its temporary in place (``squeeze_``); opyard has no in-place squeeze operator
        return A.squeeze__dim(A.mm(A.unsqueeze(self, 0), other), 0)
    if a == 2 and b == 2:
        return A.mm(self, other)
    if _should_fold(self, other):
        transpose = b > a
        t1 = A.transpose__int(other, -2, -1) if transpose else self
        t2 = (A.t(self) if a == 2 else self) if transpose else other
        output_shape = list(t1.shape[:-1])
        folded = 1
        for s in output_shape:
            folded *= s
        t1_folded = A.reshape(t1, [folded, t1.shape[-1]])
        if t2.dim() == 2:
            output_shape.append(t2.shape[1])
            output = A._unsafe_view(A.mm(t1_folded, t2), output_shape)
            return A.contiguous(A.transpose__int(output, -2, -1)) if transpose else output
        return A._unsafe_view(A.mv(t1_folded, t2), output_shape)
    sa, sb = tuple(self.shape), tuple(other.shape)  # plain tuples: Size's indexing is a Python method
    n = sa[-2] if a > 1 else 1
    m1 = sa[-1]
    m2 = sb[-2] if b > 1 else sb[0]
    p = sb[-1] if b > 1 else 1
    batch_a, batch_b = sa[:max(a - 2, 0)], sb[:max(b - 2, 0)]
    # equal batch dims (the common call) are their own broadcast, without numpy's frames (4 us)
    output_shape = list(batch_a if batch_a == batch_b else np.broadcast_shapes(batch_a, batch_b))
    batch = 1
    for s in output_shape:
        batch *= s
    x = A.reshape(A.expand(self, output_shape + [n, m1]), [batch, n, m1])
    if b == 1:
        y = A.unsqueeze(A.reshape(A.expand(other, output_shape + [m2]), [batch, m2]), 2)
    else:
        y = A.reshape(A.expand(other, output_shape + [m2, p]), [batch, m2, p])
    if a > 1:
        output_shape.append(n)
    if b > 1:
        output_shape.append(p)
    product = A.bmm(x, y)
    if b == 1:
        product = A.squeeze__dim(product, -1)
    return A._unsafe_view(product, output_shape)


def _should_fold(t1, t2):
    """torch's ``should_fold``: the larger operand (3-D or more, the other 1-D or 2-D) folds its batch
    into the rows of a matrix without a copy (or the other operand requires grad)."""
    larger = t1.dim() >= t2.dim()
    big = t1 if larger else A.transpose__int(t2, -2, -1)  # torch computes it here too (a trace shows it)
    small_dim = t2.dim() if larger else t1.dim()
    if not (big.dim() >= 3 and small_dim <= 2):
        return False
    if t2.requires_grad:
        return True
    if t1.dim() == 2:
        return False
    if big.numel() == 0:
        return True
    shape, strides = big.shape, big.stride()
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(big.dim() - 2))


def linear(input, weight, bias=None):
    """torch's ``linear``: ``addmm`` for a matrix input with a bias, a contiguous input with a bias
    flattened to one (``_flatten_nd_linear``), else ``matmul`` with the transposed weight and the bias
    added."""
    if input.dim() == 2 and bias is not None:
        return A.addmm(bias, input, A.t(weight))
    if bias is not None and input.is_contiguous() and (input.dim() == 3 or bias.dim() == 1):
        rows = 1
        for s in input.shape[:-1]:
            rows *= s
        result = A.addmm(bias, A.reshape(input, [rows, input.shape[-1]]), A.t(weight))
        return A._unsafe_view(result, list(input.shape[:-1]) + [result.shape[1]])
    output = A.matmul(input, A.t(weight))
    return output if bias is None else A.add__Tensor(output, bias)


COMPOSITE = {"matmul": matmul, "linear": linear}
