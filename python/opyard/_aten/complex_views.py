"""The parts of complex tensors: ``view_as_real``/``view_as_complex`` (views that reinterpret a
complex element as two reals and back), ``real``/``imag`` (a select of the first), ``conj`` and
``conj_physical``, ``resolve_conj``/``resolve_neg``, and ``angle``.

torch's ``conj`` of a complex tensor is a lazy view with a conjugate bit that later ops resolve;
opyard has no conjugate or negative bit, so ``_conj`` computes the conjugate into new memory laid out
as torch's view is (the input's strides, gaps and repeated elements included: the same values,
gradients, sizes and strides; a deliberate difference in that it shares no memory with its input,
tests/conformance/policy.py) and ``resolve_conj``/``resolve_neg``/``is_conj``/``is_neg`` see no bit set.
Of a real tensor every one of them is the tensor itself, as torch's.
"""

import math

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import A, _make_view, inplace_result, out

__all__ = ["OPS"]

OPS = OpTable()

_COMPLEX_OF = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_REAL_OF = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}


@OPS.op("view_as_real(Tensor(a) self) -> Tensor(a)", kind="view")
def view_as_real(self):
    """The complex tensor's memory as reals: a last dimension of 2 (real, imaginary), the other
    strides doubled."""
    x = self._data
    if x.dtype.kind != "c":
        raise TypeError("view_as_real is only supported for complex tensors")
    # A size-1 last axis is contiguous whatever its stride: numpy splits each element in two.
    return _make_view(x[..., None].view(_REAL_OF[x.dtype]), self)


@OPS.op("view_as_complex(Tensor(a) self) -> Tensor(a)", kind="view")
def view_as_complex(self):
    """Pairs of reals (a last dimension of 2 with stride 1) as complex elements: torch's checks of
    the dtype, sizes, strides and offset."""
    x = self._data
    if x.dtype not in _COMPLEX_OF:
        if self.dtype is D.float16:
            raise NotImplementedError("view_as_complex: a half tensor views as complex32 (ComplexHalf) in torch, "
                                      "a dtype opyard does not have; convert it to float32 first")
        raise NotImplementedError("view_as_complex is only supported for half, float and double tensors, but got a "
                                  f"tensor of scalar type: {D.legacy_name(self.dtype)}")
    if x.ndim == 0:
        raise RuntimeError("Input tensor must have one or more dimensions")
    if x.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if x.size == 0:
        # numpy gives an empty array zero strides (torch's are row-major): nothing to pair up.
        return _make_view(np.empty(x.shape[:-1], _COMPLEX_OF[x.dtype]), self)
    strides = self.stride()
    if strides[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in strides[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    if self.storage_offset() % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    return _make_view(x.view(_COMPLEX_OF[x.dtype])[..., 0], self)


@OPS.op("real(Tensor(a) self) -> Tensor(a)", kind="composite")
def real(self):
    """A complex tensor's real parts (a view); a real tensor itself."""
    if not self.dtype.is_complex:
        return self
    return A.select__int(A.view_as_real(self), -1, 0)


@OPS.op("imag(Tensor(a) self) -> Tensor(a)", kind="composite")
def imag(self):
    """A complex tensor's imaginary parts (a view); a real tensor has none."""
    if not self.dtype.is_complex:
        raise TypeError("imag is not implemented for tensors with non-complex dtypes.")
    return A.select__int(A.view_as_real(self), -1, 1)


@OPS.op("_conj(Tensor(a) self) -> Tensor(a)", kind="pointwise")
def _conj(self):
    """The complex conjugate. torch's is a view with the conjugate bit; opyard, with no such bit,
    computes it into new memory with the input's strides (``_strided_like``)."""
    return out(_strided_like(np.conj, self._data), self)


def _strided_like(fn, x):
    """``fn(x)`` written into new memory laid out with ``x``'s strides (the storage span they address,
    from offset 0): what a view of ``x`` would report as its strides."""
    if not x.size or x.ndim == 0 or x.flags.c_contiguous or any(s < 0 for s in x.strides):
        return fn(x)
    item = x.itemsize
    span = 1 + sum((n - 1) * (s // item) for n, s in zip(x.shape, x.strides))
    r = np.lib.stride_tricks.as_strided(np.empty(span, x.dtype), x.shape, x.strides)
    fn(x, out=r)  # a zero stride repeats an element of x, so every write of it agrees
    if 0 in r.strides:  # elements sharing memory: read-only, as opyard's expanded views (torch refuses writes)
        r.flags.writeable = False
    return r


@OPS.op("conj(Tensor(a) self) -> Tensor(a)", kind="composite")
def conj(self):
    """The complex conjugate (``_conj``); a real tensor itself."""
    return A._conj(self) if self.dtype.is_complex else self


@OPS.op("_conj_physical(Tensor self) -> Tensor", kind="pointwise")
def _conj_physical(self):
    """The complex conjugate in new memory (a real tensor: a copy)."""
    x = self._data
    return out(np.conj(x) if x.dtype.kind == "c" else x.copy(), self)


@OPS.op("conj_physical(Tensor self) -> Tensor", kind="composite",
        out="conj_physical.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def conj_physical(self):
    """The complex conjugate in new memory; a real tensor itself."""
    return A._conj_physical(self) if self.dtype.is_complex else self


@OPS.op("conj_physical_(Tensor(a!) self) -> Tensor(a!)")
def conj_physical_(self):
    """Conjugates ``self`` in place (a real tensor: unchanged)."""
    if not self.dtype.is_complex:
        return self
    return inplace_result(self, np.conj(self._data), "aten::conj_physical_")


@OPS.op("resolve_conj(Tensor(a) self) -> Tensor(a)", kind="composite")
def resolve_conj(self):
    """``self`` with its conjugate bit resolved: opyard has none, so ``self``."""
    return self


@OPS.op("resolve_neg(Tensor(a) self) -> Tensor(a)", kind="composite")
def resolve_neg(self):
    """``self`` with its negative bit resolved: opyard has none, so ``self``."""
    return self


@OPS.op("angle(Tensor self) -> Tensor", kind="pointwise",
        out="angle.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def angle(self):
    """The argument of each element: ``atan2(imag, real)`` of a complex one (a real result); of a
    real one pi when negative, else 0, nan kept (integers and bool give the default float dtype;
    half and bfloat16 are computed in float32 and rounded once)."""
    x = self._data
    if x.dtype.kind == "c":
        return out(np.angle(x), self)
    dt = self.dtype if self.dtype.is_floating_point else D.get_default_dtype()
    v = x.astype(np.float32) if dt.np.itemsize < 4 else x
    r = np.where(v < 0, np.asarray(math.pi, v.dtype if v.dtype.kind == "f" else np.float64), 0)
    if v.dtype.kind == "f":
        r = np.where(np.isnan(v), v, r)
    return out(r.astype(dt.np), self)
