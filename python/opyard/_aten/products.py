"""Products beyond ``mm``/``bmm``/``dot``: ``vdot`` (the first vector conjugated), the BLAS-style
updates ``addr`` (``beta * self + alpha * outer(vec1, vec2)``), ``addmv`` (``... + alpha * mat @
vec``), ``addbmm`` (``... + alpha * sum_b batch1[b] @ batch2[b]``) and ``baddbmm`` (``... + alpha *
batch1[b] @ batch2[b]`` per batch), and the
CompositeImplicitAutograd ``tensordot`` (permute, reshape, one ``mm``) and ``inner`` (over
``tensordot``), as torch composes them.

The updates follow BLAS: ``beta == 0`` ignores ``self`` (its nans and infinities too) and
``alpha == 0`` the product. Half precision is computed in float32 and rounded once; bool ``addr``
is ``(beta and self) or (alpha and vec1 vec2^T)``.
"""

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import A, check_same_device, out, tensor_result_dtype
from .windows import CPP_NAMES

__all__ = ["OPS"]

OPS = OpTable()


def _work(dt):
    """The numpy dtype a product of ``dt`` is computed in: float32 for half precision."""
    return np.dtype(np.float32) if dt in (D.float16, D.bfloat16) else dt.np


def _scalar(v, dt, name):
    """``alpha``/``beta`` as the element type takes them (torch truncates for integers)."""
    if dt is D.bool:
        return bool(v)
    if dt._cat == 1:  # torch truncates a floating alpha/beta for integer tensors
        return int(v.real) if isinstance(v, complex) else int(v)
    return v


def _update(self_arr, prod, beta, alpha, dt, shape, work):
    """``beta * self + alpha * prod`` with BLAS's zero rules, in ``work`` precision, as ``dt``."""
    if dt is D.bool:
        r = np.zeros(shape, bool)
        if beta:
            r = r | np.broadcast_to(self_arr.astype(bool), shape)
        if alpha:
            r = r | prod.astype(bool)
        return r
    r = np.zeros(shape, work)
    if alpha != 0:
        r = r + (prod if alpha == 1 else alpha * prod)
    if beta != 0:
        s = np.broadcast_to(self_arr.astype(work, copy=False), shape)
        r = r + (s if beta == 1 else beta * s)
    return np.asarray(r).astype(dt.np, copy=False)


def _expand_to(api, self, shape):
    """torch expands ``self`` to the product's shape first, with ``expand``'s message."""
    have = tuple(self._data.shape)
    n = len(shape)
    if len(have) > n:
        A.expand(self, list(shape))  # expand's own message: more dims than sizes
    for i in range(1, len(have) + 1):
        if have[-i] != shape[-i] and have[-i] != 1:
            raise RuntimeError(f"The expanded size of the tensor ({shape[-i]}) must match the existing size "
                               f"({have[-i]}) at non-singleton dimension {n - i}.  Target sizes: {list(shape)}.  "
                               f"Tensor sizes: {list(have)}")


@OPS.op("vdot(Tensor self, Tensor other) -> Tensor", out="vdot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> "
        "Tensor(a!)", exact=True)
def vdot(self, other):
    check_same_device("aten::vdot", self, other)
    x, y = self._data, other._data
    if x.ndim != 1 or y.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {x.ndim}D and {y.ndim}D tensors")
    if x.dtype != y.dtype:
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {D.legacy_name(self.dtype)} and "
                           f"{D.legacy_name(other.dtype)}")
    if x.shape != y.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{x.shape[0]}] and src [{y.shape[0]}] to have the "
                           f"same number of elements, but got {x.shape[0]} and {y.shape[0]} elements respectively")
    work = _work(self.dtype)
    r = np.vdot(x.astype(work, copy=False), y.astype(work, copy=False))
    return out(np.asarray(r).astype(x.dtype), self)


@OPS.op("addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        inplace="addr_(Tensor(a!) self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
        out="addr.out(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> "
            "Tensor(a!)")
def addr(self, vec1, vec2, *, beta=1, alpha=1):
    """``beta * self + alpha * vec1 vec2^T`` element by element, as torch's kernel: ``beta == 0``
    ignores ``self``, ``alpha`` always multiplies (``0 * nan`` is nan); half precision rounds
    ``alpha``, ``beta`` and every operation's result, as torch's half arithmetic does."""
    check_same_device("aten::addr", self, vec1, vec2)
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    dt = tensor_result_dtype(self, vec1, vec2)
    shape = (vec1._data.shape[0], vec2._data.shape[0])
    _expand_to("addr", self, shape)
    v1, v2 = vec1._data[:, None], vec2._data[None, :]
    if dt is D.bool:
        r = (bool(alpha) & v1.astype(bool)) & v2.astype(bool)
        if beta:
            r = r | self._data.astype(bool)
        return out(np.ascontiguousarray(np.broadcast_to(r, shape)), vec1)
    beta, alpha = _scalar(beta, dt, "beta"), _scalar(alpha, dt, "alpha")
    if dt in (D.float16, D.bfloat16):
        def rnd(x):
            return np.asarray(x, np.float32).astype(dt.np).astype(np.float32)
        f = np.float32
        r = rnd(rnd(rnd(alpha) * v1.astype(f)) * v2.astype(f))  # alpha and beta are the dtype's values too
        if beta != 0:
            r = rnd(rnd(rnd(beta) * self._data.astype(f)) + r)
        return out(np.ascontiguousarray(np.broadcast_to(r, shape)).astype(dt.np), vec1)
    x1, x2 = v1.astype(dt.np, copy=False), v2.astype(dt.np, copy=False)
    r = (x1 if alpha == 1 else alpha * x1) * x2
    if beta != 0:
        s = self._data.astype(dt.np, copy=False)
        r = (s if beta == 1 else beta * s) + r
    return out(np.ascontiguousarray(np.broadcast_to(r, shape)).astype(dt.np, copy=False), vec1)


@OPS.op("addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        inplace="addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
        out="addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> "
            "Tensor(a!)", exact=True)
def addmv(self, mat, vec, *, beta=1, alpha=1):
    check_same_device("aten::addmv", self, mat, vec)
    s, m, v = self._data, mat._data, vec._data
    if m.ndim != 2 or v.ndim != 1 or s.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {s.ndim}, {m.ndim}, {v.ndim}")
    if not (s.dtype == m.dtype == v.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {D.legacy_name(self.dtype)}, "
                           f"{D.legacy_name(mat.dtype)}, and {D.legacy_name(vec.dtype)}")
    if m.shape[1] != v.shape[0] or (s.ndim == 1 and s.shape[0] not in (m.shape[0], 1)):
        raise RuntimeError(f"size mismatch, got input ({s.shape[0] if s.ndim else 1}), mat ({m.shape[0]}x{m.shape[1]}), "
                           f"vec ({v.shape[0]})")
    dt = self.dtype
    work = _work(dt)
    prod = m.astype(work, copy=False) @ v.astype(work, copy=False) if m.size else np.zeros(m.shape[0], work)
    return out(_update(s, prod, _scalar(beta, dt, "beta"), _scalar(alpha, dt, "alpha"), dt, (m.shape[0],), work), mat)


@OPS.op("addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        inplace="addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
        out="addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> "
            "Tensor(a!)", exact=True)
def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    check_same_device("aten::addbmm", self, batch1, batch2)
    b1, b2 = batch1._data, batch2._data
    if b1.ndim >= 2 and b2.ndim >= 3:
        _expand_to("addbmm", self, (b1.shape[1], b2.shape[2]))
    if b1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b1.shape[0] != b2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {b1.shape[0]} and {b2.shape[0]}")
    if b1.shape[2] != b2.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({b1.shape[1]}x{b1.shape[2]} and {b2.shape[1]}x"
                           f"{b2.shape[2]})")
    if not (self._data.dtype == b1.dtype == b2.dtype):
        raise RuntimeError(f"expected scalar type {D.legacy_name(self.dtype)} but found "
                           f"{D.legacy_name(batch1.dtype if b1.dtype != self._data.dtype else batch2.dtype)}")
    dt = self.dtype
    work = _work(dt)
    shape = (b1.shape[1], b2.shape[2])
    beta, alpha = _scalar(beta, dt, "beta"), _scalar(alpha, dt, "alpha")
    if dt in (D.float16, D.bfloat16) and b1.shape[0]:
        # torch adds one batch at a time (an addmm each, rounded to the dtype): so does this
        r = _update(self._data, _product(b1[0], b2[0], work), beta, alpha, dt, shape, work)
        for b in range(1, b1.shape[0]):
            r = _update(r, _product(b1[b], b2[b], work), 1, alpha, dt, shape, work)
        return out(r, self)
    prod = np.einsum("bij,bjk->ik", b1.astype(work, copy=False), b2.astype(work, copy=False), optimize=True) \
        if b1.size and b2.size else np.zeros(shape, work)
    return out(_update(self._data, prod, beta, alpha, dt, shape, work), self)


@OPS.op("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        inplace="addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)")
def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    """``beta * self + alpha * mat1 @ mat2`` with torch's checks in torch's order (dtypes, the
    matrices, their shapes, then ``self`` expanded to the result) and BLAS's zero rules: ``beta ==
    0`` ignores ``self`` and ``alpha == 0`` the product, nans included."""
    check_same_device("aten::addmm", self, mat1, mat2)
    s, m1, m2 = self._data, mat1._data, mat2._data
    if s.dtype != m2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {D.legacy_name(self.dtype)} and "
                           f"{D.legacy_name(mat2.dtype)}")
    if m1.dtype != m2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {D.legacy_name(mat1.dtype)} and "
                           f"{D.legacy_name(mat2.dtype)}")
    if m1.ndim != 2:  # torch's message names mat1 "self" here
        raise RuntimeError(f"addmm: self must be a matrix, got {m1.ndim}-D tensor")
    if m2.ndim != 2:
        raise RuntimeError(f"addmm: mat2 must be a matrix, got {m2.ndim}-D tensor")
    if m1.shape[1] != m2.shape[0]:
        raise RuntimeError(f"addmm: mat1 and mat2 shapes cannot be multiplied ({m1.shape[0]}x{m1.shape[1]} and "
                           f"{m2.shape[0]}x{m2.shape[1]})")
    shape = (m1.shape[0], m2.shape[1])
    _expand_to("addmm", self, shape)
    dt = self.dtype
    if dt is D.bool:
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    work = _work(dt)
    prod = _product(m1, m2, work)
    return out(_update(s, prod, _scalar(beta, dt, "beta"), _scalar(alpha, dt, "alpha"), dt, shape, work), self)


@OPS.op("baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        inplace="baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> "
                "Tensor(a!)",
        out="baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) -> "
            "Tensor(a!)", exact=True)
def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    """``beta * self + alpha * batch1 @ batch2`` per batch, with torch's checks in torch's order
    (dtypes, ``self`` expanded to the result, the batches' dims) and BLAS's zero rules; half
    precision accumulates in float32 and rounds once, integers truncate ``alpha`` and ``beta``."""
    check_same_device("aten::baddbmm", self, batch1, batch2)
    s, b1, b2 = self._data, batch1._data, batch2._data
    if not (s.dtype == b1.dtype == b2.dtype):
        raise RuntimeError(f"Input dtypes must be the same, got: input {CPP_NAMES[self.dtype.name]}, batch1: "
                           f"{CPP_NAMES[batch1.dtype.name]}, batch2: {CPP_NAMES[batch2.dtype.name]}")
    dt = self.dtype
    if dt is D.bool:
        raise NotImplementedError("\"baddbmm\" not implemented for 'Bool'")
    shape = (_size(b1, 0), _size(b1, 1), _size(b2, 2))
    _expand_to("baddbmm", self, shape)
    if b1.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b2.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if b2.shape[:2] != (b1.shape[0], b1.shape[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b1.shape[0]}, "
                           f"{b1.shape[2]}] but got: [{b2.shape[0]}, {b2.shape[1]}].")
    work = _work(dt)
    prod = np.matmul(b1.astype(work, copy=False), b2.astype(work, copy=False)) if b1.size and b2.size else \
        np.zeros(shape, work)
    return out(_update(s, prod, _scalar(beta, dt, "beta"), _scalar(alpha, dt, "alpha"), dt, shape, work), self)


def _size(x, d):
    """``x.size(d)`` with torch's message for a dim ``x`` does not have."""
    if d >= x.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.ndim, 1)}, "
                         f"{max(x.ndim, 1) - 1}], but got {d})")
    return x.shape[d]


def _product(x, y, work):
    return x.astype(work, copy=False) @ y.astype(work, copy=False) if x.size and y.size else \
        np.zeros((x.shape[0], y.shape[1]), work)


@OPS.op("tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor", kind="composite")
def tensordot(self, other, dims_self, dims_other):
    """Contract ``dims_self`` of ``self`` with ``dims_other`` of ``other``: permute the contracted
    dims last (first), flatten both to matrices, one ``mm`` (torch's composition)."""
    if len(dims_self) != len(dims_other):
        raise RuntimeError("both dimension lists should have same length")
    if self.dtype != other.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2 = self, other
    csize = 1
    for d1, d2 in zip(dims_self, dims_other):
        s1, s2 = self.shape[d1], other.shape[d2]
        if s2 == 1:  # broadcast dims are summed away at once
            t1 = A.sum__dim_IntList(t1, [d1], True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = A.sum__dim_IntList(t2, [d2], True, dtype=t2.dtype)
        else:
            if s1 != s2:
                raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {d1} and "
                                   f"second has size {s2} in dim {d2}")
            csize *= s1
    n1, n2 = self.dim(), other.dim()
    c1 = {d % n1 if n1 else 0 for d in dims_self}
    c2 = {d % n2 if n2 else 0 for d in dims_other}
    keep1 = [i for i in range(n1) if i not in c1]
    keep2 = [i for i in range(n2) if i not in c2]
    size1 = size2 = 1
    for i in keep1:
        size1 *= t1.shape[i]
    for i in keep2:
        size2 *= t2.shape[i]
    rsizes = [t1.shape[i] for i in keep1] + [t2.shape[i] for i in keep2]
    m1 = A.reshape(A.permute(t1, keep1 + [d % n1 for d in dims_self]), [size1, csize])
    m2 = A.reshape(A.permute(t2, [d % n2 for d in dims_other] + keep2), [csize, size2])
    return A.reshape(A.mm(m1, m2), rsizes)


@OPS.op("inner(Tensor self, Tensor other) -> Tensor", kind="composite",
        out="inner.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
def inner(self, other):
    check_same_device("aten::inner", self, other)
    if self.dim() == 0 or other.dim() == 0:
        return A.mul__Tensor(self, other)
    if self.shape[-1] != other.shape[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(self.shape)} and {list(other.shape)}")
    return A.tensordot(self, other, [-1], [-1])

