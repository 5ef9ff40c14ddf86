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
from .common import A, check_same_device, out

__all__ = ["OPS"]

OPS = OpTable()


def _work(dt):
    """The numpy dtype a product of ``dt`` is computed in: float32 for half precision."""
    return np.dtype(np.float32) if dt in (D.float16, D.bfloat16) else dt.np


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

