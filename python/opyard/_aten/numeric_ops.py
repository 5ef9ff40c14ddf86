"""Pointwise arithmetic on the number representation: gcd and lcm of integers, ldexp and frexp
(scaling by and splitting off a power of two), nextafter (the adjacent representable value),
float_power (``pow`` in double precision).

numpy has each of these as a ufunc; the kernels add torch's dtype rules (which inputs each CPU
kernel takes, the promoted result dtype) and torch's values where they differ from numpy's (an
integral ``ldexp`` exponent scales exactly, a floating one multiplies by ``2**other``).
"""

import numpy as np

from .. import _dtype as D
from . import return_types as RT
from ._declare import OpTable
from .common import (A, INEXACT, Tensor, _make_meta, broadcast_error, check_same_device, data_as, inplace_result, out,
                     tensor_result_dtype)

__all__ = ["OPS"]

OPS = OpTable()


def _refuse(cpu_name, dt):
    raise NotImplementedError(f"\"{cpu_name}\" not implemented for '{D.legacy_name(dt)}'")


def _broadcast(name, a, b, ta=None, tb=None):
    """``a`` and ``b`` broadcast; torch's message naming the shapes of ``ta`` and ``tb`` (the tensors
    they came from) when they do not broadcast."""
    try:
        return np.broadcast_arrays(a, b)
    except ValueError:
        raise broadcast_error(f"aten::{name}", a if ta is None else ta, b if tb is None else tb) from None


def _binary_args(name, self, other):
    check_same_device(f"aten::{name}", self, other)
    return tensor_result_dtype(self, other)


# ---------------------------------------------------------------------------------------------
# gcd / lcm: integers only (torch's kernels have no floating or bool instance)


def _integer_binary(fn, name):
    def kernel(self, other):
        dt = _binary_args(name, self, other)
        if dt._cat != 1:
            _refuse(f"{name}_cpu", dt)
        x, y = _broadcast(name, data_as(self, dt), data_as(other, dt), self, other)
        return out(np.asarray(fn(np.array(x), np.array(y))).astype(dt.np, copy=False), self)
    kernel.__name__ = name
    return kernel


def _gcd(x, y):
    """torch's Euclid in the integer dtype: ``|x|`` and ``|y|`` (which wrap for the most negative
    value: gcd(6, -128) of int8 is -2), then ``x, y = y % x, x`` (C's remainder) until ``x == 0``."""
    a, b = np.array(np.abs(x)), np.array(np.abs(y))  # arrays (0-d too) in the dtype: the most negative value stays negative
    active = a != 0
    while active.any():
        c = a[active]
        a[active] = np.fmod(b[active], c)
        b[active] = c
        active &= a != 0
    return b


def _lcm(x, y):
    """``|x / gcd(x, y) * y|`` as torch's C++ computes it: C's truncating division, in ``int`` for the
    types narrower than it (C's integer promotion), and the result wrapped to the dtype; 0 when the
    gcd is 0."""
    g = _gcd(x, y)
    wide = np.promote_types(x.dtype, np.int32) if x.dtype.itemsize < 4 else x.dtype
    xw, yw, gw = x.astype(wide), y.astype(wide), np.where(g == 0, 1, g).astype(wide)
    with np.errstate(all="ignore"):
        q = (xw - np.fmod(xw, gw)) // gw
        return np.where(g == 0, 0, np.abs(q * yw)).astype(x.dtype)


for _name, _fn in (("gcd", _gcd), ("lcm", _lcm)):
    OPS.op(f"{_name}(Tensor self, Tensor other) -> Tensor", kind="pointwise",
           inplace=f"{_name}_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
           out=f"{_name}.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")(
        _integer_binary(_fn, _name))


# ---------------------------------------------------------------------------------------------
# ldexp / frexp


def _ldexp_exact(x, e):
    """``x * 2**e`` for integral ``e``, exact up to overflow and underflow (numpy's ldexp; complex
    parts separately)."""
    e = np.clip(e, -(1 << 20), 1 << 20).astype(np.int32)
    if x.dtype.kind == "c":
        return np.ldexp(x.real, e) + 1j * np.ldexp(x.imag, e)
    return np.ldexp(x, e)


def ldexp(self, other):
    """``self * 2**other`` in the promoted floating dtype: an integral ``other`` scales a real floating
    ``self`` exactly (up to overflow and underflow); otherwise the product with ``pow(2, other)``
    (computed in ``other``'s floating dtype, or the default one), as torch's."""
    dt = _binary_args("ldexp", self, other)
    if dt._cat < 2:
        dt = D.get_default_dtype()
    x, e = self._data, other._data
    work = np.dtype(np.float32) if dt.np.itemsize == 2 and dt._cat == 2 else dt.np
    with np.errstate(all="ignore"):
        if e.dtype not in INEXACT and x.dtype in INEXACT and x.dtype.kind != "c":
            xs, es = _broadcast("ldexp", x.astype(work, copy=False), e, self, other)
            r = _ldexp_exact(xs, es)
        else:
            p_dt = e.dtype if e.dtype in INEXACT else D.get_default_dtype().np
            if p_dt.itemsize == 2 and p_dt.kind in "fV":
                p_dt = np.dtype(np.float32)
            power = np.power(p_dt.type(2), e.astype(p_dt, copy=False))
            xs, ps = _broadcast("ldexp", x, power, self, other)
            calc = np.result_type(work, ps.dtype)
            r = xs.astype(calc, copy=False) * ps.astype(calc, copy=False)
    return out(np.asarray(r).astype(dt.np, copy=False), self)


OPS.op("ldexp.Tensor(Tensor self, Tensor other) -> Tensor", kind="pointwise",
       out="ldexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")(ldexp)


@OPS.op("ldexp_(Tensor(a!) self, Tensor other) -> Tensor(a!)", kind="inplace")
def ldexp_(self, other):
    if self.dtype._cat < 2:
        raise RuntimeError(f"ldexp can't be cast to the desired output type {D.legacy_name(self.dtype)}")
    return inplace_result(self, ldexp(self, other)._data, "aten::ldexp_")


def _frexp_meta(self):
    if self.dtype._cat != 2:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    shape, strides = tuple(self.shape), self.stride()
    return RT.make(RT.frexp, (_make_meta(shape, self.dtype, strides), _make_meta(shape, D.int32, strides)))


@OPS.op("frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", meta=_frexp_meta)
def frexp(self):
    """``self = mantissa * 2**exponent`` with ``0.5 <= |mantissa| < 1`` (0, inf and nan: themselves and
    exponent 0); the exponent is int32."""
    x = self._data
    if x.dtype not in INEXACT or x.dtype.kind == "c":
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    m, e = np.frexp(x)
    return RT.make(RT.frexp, (out(np.asarray(m).astype(x.dtype, copy=False), self),
                             out(np.asarray(e, dtype=np.int32), self)))


# ---------------------------------------------------------------------------------------------
# nextafter: floating dtypes only (integral and bool inputs are refused, not promoted)


def _floating_binary(fn, name):
    def kernel(self, other):
        dt = _binary_args(name, self, other)
        if dt._cat != 2:
            _refuse(f"{name}_cpu", dt)
        x, y = _broadcast(name, data_as(self, dt), data_as(other, dt), self, other)
        with np.errstate(all="ignore"):
            return out(np.asarray(fn(x, y)).astype(dt.np, copy=False), self)
    kernel.__name__ = name
    return kernel


OPS.op("nextafter(Tensor self, Tensor other) -> Tensor", kind="pointwise",
       inplace="nextafter_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
       out="nextafter.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")(
    _floating_binary(np.nextafter, "nextafter"))


# ---------------------------------------------------------------------------------------------
# float_power: pow in double (complex double when an argument is complex), composed as torch's


def _float_power_dtype(*items):
    complex_ = any((isinstance(v, Tensor) and v.dtype._cat == 3) or isinstance(v, complex) for v in items)
    return D.complex128 if complex_ else D.float64


def _as_number(v, dt):
    return complex(v) if dt is D.complex128 else float(v)


@OPS.op("float_power.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor", kind="composite",
        out="float_power.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)")
def float_power_tensor_tensor(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return A.pow__Tensor_Tensor(A._to_copy(self, dtype=dt) if self.dtype is not dt else self,
                                A._to_copy(exponent, dtype=dt) if exponent.dtype is not dt else exponent)


@OPS.op("float_power.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor", kind="composite",
        out="float_power.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)")
def float_power_tensor_scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return A.pow__Tensor_Scalar(A._to_copy(self, dtype=dt) if self.dtype is not dt else self,
                                _as_number(exponent, dt))


@OPS.op("float_power.Scalar(Scalar self, Tensor exponent) -> Tensor", kind="composite",
        out="float_power.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)")
def float_power_scalar(self, exponent):
    dt = _float_power_dtype(self, exponent)
    return A.pow__Scalar(_as_number(self, dt), A._to_copy(exponent, dtype=dt) if exponent.dtype is not dt
                         else exponent)


def _float_power_inplace(name, functional):
    def kernel(self, exponent):
        dt = _float_power_dtype(self, exponent)
        if self.dtype is not dt:
            raise RuntimeError(f"the base given to float_power_ has dtype {D.legacy_name(self.dtype)} but the "
                               f"operation's result requires dtype {D.legacy_name(dt)}")
        return A.copy_(self, functional(self, exponent))
    kernel.__name__ = name.replace(".", "_")
    return kernel


OPS.op("float_power_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)", kind="composite")(
    _float_power_inplace("float_power_.Scalar", float_power_tensor_scalar))
OPS.op("float_power_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)", kind="composite")(
    _float_power_inplace("float_power_.Tensor", float_power_tensor_tensor))


@OPS.op("positive(Tensor(a) self) -> Tensor(a)", kind="composite")
def positive(self):
    """``+x``: the tensor itself (torch refuses a bool tensor, as its ``+`` operator)."""
    if self.dtype is D.bool:
        raise NotImplementedError("The `+` operator, on a bool tensor is not supported.")
    return self
