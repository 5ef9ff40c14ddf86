"""Complex tensors as pairs of reals, and conjugation.

``view_as_real`` views a complex tensor as its (real, imaginary) pairs in a trailing dimension of 2,
``view_as_complex`` the reverse; ``real`` and ``imag`` select one of the pair
(CompositeImplicitAutograd, so their gradients are the select's and the view's, as in torch).
``conj`` (CompositeImplicitAutograd: the input itself unless it is complex) over ``_conj``,
``conj_physical`` (likewise, over ``_conj_physical``) and ``resolve_conj``.

opyard tensors carry no lazy conjugate bit: ``_conj`` of a complex tensor is a conjugated copy, so
``resolve_conj`` has nothing left to resolve and returns its input, as torch does for a tensor whose
bit is clear.
"""

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import _dtype as D
from ._declare import OpTable
from .common import A, _make_view, out

__all__ = ["OPS"]

OPS = OpTable()


@OPS.op("conj(Tensor(a) self) -> Tensor(a)", kind="composite")
def conj(self):
    return A._conj(self) if self.is_complex() else self


@OPS.op("_conj(Tensor(a) self) -> Tensor(a)")
def _conj(self):
    """The complex conjugate (a copy: see the module note)."""
    return out(np.conjugate(self._data), self)


@OPS.op("conj_physical(Tensor self) -> Tensor", kind="composite")
def conj_physical(self):
    return A._conj_physical(self) if self.is_complex() else self


@OPS.op("_conj_physical(Tensor self) -> Tensor")
def _conj_physical(self):
    return out(np.conjugate(self._data), self)


@OPS.op("resolve_conj(Tensor(a) self) -> Tensor(a)", kind="composite")
def resolve_conj(self):
    return self


@OPS.op("view_as_real(Tensor(a) self) -> Tensor(a)", kind="view")
def view_as_real(self):
    x = self._data
    if x.dtype.kind != "c":
        raise TypeError("view_as_real is only supported for complex tensors")
    re = x.real  # a view: the real parts, with the complex array's byte strides
    return _make_view(as_strided(re, x.shape + (2,), re.strides + (re.itemsize,)), self)


@OPS.op("view_as_complex(Tensor(a) self) -> Tensor(a)", kind="view")
def view_as_complex(self):
    x = self._data
    if x.dtype not in _COMPLEX_OF:
        raise RuntimeError(f"view_as_complex is only supported for float, double and half tensors, but got a tensor "
                           f"of scalar type: {D.legacy_name(self.dtype)}")
    if x.ndim == 0 or x.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if x.size == 0:  # no element to view: numpy's strides of an empty array are arbitrary
        return _make_view(np.empty(x.shape[:-1], _COMPLEX_OF[x.dtype]), self)
    if x.strides[-1] != x.itemsize:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(st % (2 * x.itemsize) for st, n in zip(x.strides[:-1], x.shape[:-1]) if n > 1):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    return _make_view(x.view(_COMPLEX_OF[x.dtype])[..., 0], self)


_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


@OPS.op("real(Tensor(a) self) -> Tensor(a)", kind="composite")
def real(self):
    return A.select__int(A.view_as_real(self), -1, 0) if self.is_complex() else self


@OPS.op("imag(Tensor(a) self) -> Tensor(a)", kind="composite")
def imag(self):
    if not self.is_complex():
        raise TypeError("imag is not implemented for tensors with non-complex dtypes.")
    return A.select__int(A.view_as_real(self), -1, 1)


@OPS.op("adjoint(Tensor(a) self) -> Tensor(a)", kind="composite")
def adjoint(self):
    """The conjugate transpose of the last two dimensions (``tensor.mH``)."""
    if self.dim() < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                           f"{self.dim()}-D tensor.")
    return A.conj(A.transpose__int(self, -2, -1))
