"""Complex numbers and their parts: ``view_as_real``/``view_as_complex`` (views), ``real``/``imag``
(composites of them, as torch's), ``conj``/``conj_physical``/``_conj_physical``, ``resolve_conj``/
``resolve_neg`` and ``angle``.

opyard's tensors carry no lazy conjugate or negative bit (numpy has none): ``conj`` of a complex
tensor is ``conj_physical``'s copy, ``is_conj()``/``is_neg()`` are always False and the ``resolve_*``
ops return their input. Everything differentiable here records autograd with torch's formulas
(``autograd/derivatives/complex.py``).

Example::

    >>> z = opyard.tensor([1 + 2j], requires_grad=True)
    >>> z.real.grad_fn
    <SelectBackward0 object at ...>
"""

import math

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import A, _make_view, inplace_result, out

__all__ = ["OPS"]

OPS = OpTable()

_REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}
_COMPLEX_OF = {v: k for k, v in _REAL_OF.items()}


@OPS.op("view_as_real(Tensor(a) self) -> Tensor(a)", kind="view")
def view_as_real(self):
    x = self._data
    if x.dtype.kind != "c":
        raise TypeError("view_as_real is only supported for complex tensors")
    # The pair (real, imag) of each element as a new innermost dimension of stride 1.
    return _make_view(x[..., None].view(_REAL_OF[x.dtype]), self)


@OPS.op("view_as_complex(Tensor(a) self) -> Tensor(a)", kind="view")
def view_as_complex(self):
    x = self._data
    dt = D.FROM_NP[x.dtype]
    if x.dtype not in _COMPLEX_OF:
        if dt is D.float16:
            raise NotImplementedError("view_as_complex: opyard has no complex32 (ComplexHalf) dtype; convert the "
                                      "half tensor to float32 first")
        raise NotImplementedError("view_as_complex is only supported for half, float and double tensors, but got a "
                                  f"tensor of scalar type: {D.legacy_name(dt)}")
    if x.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if x.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    item = x.itemsize
    if x.strides[-1] != item:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any((s // item) % 2 for s, n in zip(x.strides[:-1], x.shape[:-1]) if n > 1):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _make_view(x.view(_COMPLEX_OF[x.dtype])[..., 0], self)


@OPS.op("real(Tensor(a) self) -> Tensor(a)", kind="composite")
def real(self):
    """torch's composite: the real part is a view, ``view_as_real(self)[..., 0]``; a real tensor is
    its own real part."""
    if not self.is_complex():
        return self
    return A.select__int(A.view_as_real(self), -1, 0)


@OPS.op("imag(Tensor(a) self) -> Tensor(a)", kind="composite")
def imag(self):
    if not self.is_complex():
        raise TypeError("imag is not implemented for tensors with non-complex dtypes.")
    return A.select__int(A.view_as_real(self), -1, 1)


@OPS.op("_conj_physical(Tensor self) -> Tensor", kind="pointwise")
def _conj_physical(self):
    x = self._data
    return out(np.conj(x) if x.dtype.kind == "c" else x.copy(), self)


@OPS.op("conj_physical(Tensor self) -> Tensor", kind="composite")
def conj_physical(self):
    """The conjugate as a new tensor; a real tensor is its own conjugate (returned as is, as torch)."""
    return A._conj_physical(self) if self.is_complex() else self


@OPS.op("conj(Tensor(a) self) -> Tensor(a)", kind="composite")
def conj(self):
    """torch returns a lazily conjugated view of a complex tensor; opyard has no conjugate bit, so the
    conjugate is computed (``conj_physical``): same values, but no memory shared with ``self``."""
    return A._conj_physical(self) if self.is_complex() else self


@OPS.op("resolve_conj(Tensor(a) self) -> Tensor(a)", kind="composite")
def resolve_conj(self):
    """No lazy conjugate bit in opyard: every tensor is resolved already."""
    return self


@OPS.op("resolve_neg(Tensor(a) self) -> Tensor(a)", kind="composite")
def resolve_neg(self):
    """No lazy negative bit in opyard: every tensor is resolved already."""
    return self


@OPS.op("angle(Tensor self) -> Tensor", kind="pointwise",
        out="angle.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def angle(self):
    """The argument of each element: ``atan2(imag, real)`` for complex data (a real result); for real
    data ``pi`` below zero, ``0`` elsewhere (-0 too) and nan for nan, in the default floating type
    for integral data."""
    x = self._data
    if x.dtype.kind == "c":
        return out(np.angle(x), self)
    dt = D.FROM_NP[x.dtype]
    rdt = dt if dt._cat == 2 else D.get_default_dtype()
    with np.errstate(invalid="ignore"):
        r = np.where(x < 0, math.pi, np.where(np.isnan(x), x, 0) if dt._cat == 2 else 0)
    return out(np.asarray(r).astype(rdt.np), self)


@OPS.op("conj_physical_(Tensor(a!) self) -> Tensor(a!)", kind="inplace")
def conj_physical_(self):
    x = self._data
    if x.dtype.kind == "c":
        return inplace_result(self, np.conj(x), "aten::conj_physical_")
    return self
