"""Pointwise kernels (numpy): arithmetic with torch's promotion, comparisons, bitwise ops.

Every binary kernel starts with a fast path for the common call (two tensors
of one dtype on one device, or a floating tensor and a Python number): numpy
then computes exactly torch's result dtype (a half tensor with a number takes
the general path: the number may not fit in half, and torch rounds it to inf
silently where numpy's cast warns). Everything else takes the general
path: torch's result type (``common.tensor_result_dtype``), the device check,
the op's own errors. Unary math lives in ``unary.py``.
"""

import numpy as np

from .. import _core
from .. import _dtype as D
from ._declare import OpTable
from .common import (CPU, CPU_KEYS, Tensor, _make_tensor, as_array, broadcast_error, cast, check_same_device,
                     data_as, device_keys, inplace_result, out, quietly, read_only_error, tensor_result_dtype,
                     writable_alias)
from .precision import compute_dtype, compute_np
from .scalars import checked, clamp_limit, operand, selected, wrapped

_ndarray = np.ndarray

__all__ = ["KERNELS", "binary", "real_only"]

_BOOL = np.dtype(np.bool_)
_NUMBERS = (int, float)
_F32_MAX = float(np.finfo(np.float32).max)  # the largest finite bound or exponent ``checked`` admits for float32


def _general(fn, a, b, name, dt=None, arithmetic=False):
    """``fn`` over ``a`` and ``b`` in their result dtype ``dt`` (torch's, by default), computed in
    ``precision.compute_dtype(dt)`` (half-precision data in float32) and rounded once to ``dt``. The
    operands are converted as torch's (``scalars.operand``): to ``dt`` first, except a scalar ``b``
    of the ``arithmetic`` ops (mul, div and the rounding divisions), read in the computation dtype."""
    if isinstance(b, Tensor) and a._dev is not b._dev:
        check_same_device(name, a, b)
    dt = dt or tensor_result_dtype(a, b)
    cdt = compute_dtype(dt)
    try:
        # torch: inf/nan silently (numpy's error state for the conversions and the call)
        r = quietly(lambda: fn(operand(a, dt, cdt), operand(b, dt, cdt, arithmetic)))
    except ValueError:
        raise broadcast_error(name, a, b) from None
    return out(cast(np.asarray(r), dt), a)


def _wide_floats(x, y):
    """Whether the arrays ``x`` and ``y`` are float32/float64 data of one shape: numpy's result dtype
    for them is then torch's (the wider one), and ``fn(x, y)`` computes on them as they are."""
    return x.dtype.kind == "f" and y.dtype.kind == "f" and x.itemsize > 2 and y.itemsize > 2 and x.shape == y.shape


def _float_fast(fn, self, other):
    """``fn`` of float32/float64 ``self`` and a float32/float64 tensor of its shape on its device, or a
    Python number (which does not widen the dtype: torch and numpy agree), as ``_general`` computes it
    (``wrapped``/``operand`` leave these as they are), without its conversions; None for any other call."""
    x = self._data
    if isinstance(other, Tensor):
        if self._dev is other._dev and _wide_floats(x, other._data):
            return out(quietly(fn, x, other._data), self)
    elif type(other) in _NUMBERS and x.dtype.kind == "f" and x.itemsize > 2:
        r = quietly(fn, x, other)
        return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)
    return None


def binary(fn, name, same_dtype_ok=True, arithmetic=False):
    """A Tensor/Scalar binary kernel of ``fn`` with torch's promotion (see the module note);
    ``arithmetic`` as in ``_general``."""
    def kernel(self, other):
        x = self._data
        if isinstance(other, Tensor):
            y = other._data
            if same_dtype_ok and x.dtype is y.dtype and self._dev is other._dev and x.shape == y.shape:
                return out(fn(x, y), self)
        elif x.dtype.kind == "f" and x.itemsize > 2 and type(other) in (int, float):
            r = fn(x, other)
            return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)
        return _general(fn, self, other, name, arithmetic=arithmetic)
    kernel.__name__ = name.split("::")[1]
    return kernel


def _alpha_check(dt, alpha, name):
    """torch's ``alpha_check``: the kind of ``alpha`` must fit the result dtype."""
    if dt is D.bool and not isinstance(alpha, bool):
        raise RuntimeError(f"Boolean alpha only supported for Boolean results. ({name})")
    if dt._cat < 2 and isinstance(alpha, float):
        raise RuntimeError(f"For integral input tensors, argument alpha must not be a floating point "
                           f"number. ({name})")
    if dt._cat < 3 and isinstance(alpha, complex):
        raise RuntimeError(f"For non-complex input tensors, argument alpha must not be a complex number. ({name})")


def _scaled(fn, name, scales_self=False, negated=False):
    """add: ``self + alpha * other``; sub (``negated``): ``self + (-alpha) * other``; rsub (also
    ``scales_self``): ``other + (-alpha) * self``. torch converts ``alpha`` (negated for sub and
    rsub, which are add with ``-alpha``) to the element type: unsigned types wrap, overflow raises.
    Adding the negated product is exact: ``x + (-a * y)`` is ``x - a * y`` bit for bit."""
    plain = binary(fn, name)

    def kernel(self, other, *, alpha=1):
        if alpha == 1 and not isinstance(alpha, bool):
            return plain(self, other)
        if isinstance(other, Tensor) and self._dev is not other._dev:
            check_same_device(name, self, other)
        dt = tensor_result_dtype(self, other)
        _alpha_check(dt, alpha, name)
        factor = -alpha if negated else alpha
        if dt._cat:
            factor = checked(factor, dt)
        # torch converts the operands and ``alpha`` to the element type (half data: rounded to the
        # half type, ``scalars.operand``) and its elementwise loop rounds ``alpha * y`` to that type
        # before adding (c10::Half arithmetic). Its vector loop, which takes whole blocks of 32
        # elements of larger tensors, rounds once instead: opyard follows the elementwise loop,
        # which computes every element of a small tensor.
        x, y, factor = operand(self, dt, dt), operand(other, dt, dt), operand(factor, dt, dt)
        if scales_self:
            x, y = y, x
        with np.errstate(over="ignore", invalid="ignore"):  # inf and nan, silently as torch
            return out(cast(np.asarray(np.add(x, np.multiply(y, factor))), dt), self)
    kernel.__name__ = plain.__name__
    return kernel


_SUB_TWO_BOOLS = ("Subtraction, the `-` operator, with two bool tensors is not supported. "
                  "Use the `^` or `logical_xor()` operator instead.")
_SUB_A_BOOL = ("Subtraction, the `-` operator, with a bool tensor is not supported. "
               "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def _sub_bool(self, other):
    """torch's ``sub_check``: no bool operand at all, a Python ``bool`` counting as a bool tensor
    (torch wraps it as one; a numpy bool scalar converts to a number and passes)."""
    a = self._data.dtype == _BOOL
    b = other._data.dtype == _BOOL if isinstance(other, Tensor) else type(other) is bool
    if a or b:
        raise NotImplementedError(_SUB_TWO_BOOLS if a and b else _SUB_A_BOOL)


_add_scaled = _scaled(np.add, "aten::add")
_sub_scaled = _scaled(np.subtract, "aten::sub", negated=True)
_rsub_scaled = _scaled(lambda x, y: np.subtract(y, x), "aten::rsub", scales_self=True, negated=True)


def add(self, other, *, alpha=1):
    if alpha == 1:
        # The hottest kernel of all (``a + b``): the fast path and ``out`` are written inline.
        x = self._data
        if isinstance(other, Tensor):
            y = other._data
            if x.dtype is y.dtype and self._dev is other._dev:
                try:
                    r = x + y
                except ValueError:
                    return _general(np.add, self, other, "aten::add")
                if type(r) is not _ndarray:
                    r = as_array(r)
                dev = self._dev
                if dev is CPU:
                    return _make_tensor(Tensor, r, CPU_KEYS)
                return _make_tensor(Tensor, r, device_keys(dev), dev)
        elif x.dtype.kind == "f" and x.itemsize > 2 and type(other) in (int, float):
            r = np.add(x, other)
            return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)
        return _general(np.add, self, other, "aten::add")
    return _add_scaled(self, other, alpha=alpha)


def sub(self, other, *, alpha=1):
    _sub_bool(self, other)
    return _sub_scaled(self, other, alpha=alpha)


def rsub(self, other, *, alpha=1):
    _sub_bool(self, other)
    return _rsub_scaled(self, other, alpha=alpha)


mul = binary(np.multiply, "aten::mul", arithmetic=True)


def _true_div(x, y):
    return np.true_divide(x, y)


def _div_dtype(a, b):
    dt = tensor_result_dtype(a, b)
    return dt if dt._cat >= 2 else D.get_default_dtype()


def div(self, other):
    x = self._data
    if isinstance(other, Tensor):
        y = other._data
        if x.dtype is y.dtype and x.dtype.kind in "fc" and self._dev is other._dev and x.shape == y.shape:
            with np.errstate(all="ignore"):
                return out(np.true_divide(x, y), self)
    elif x.dtype.kind == "f" and x.itemsize > 2 and type(other) in (int, float):
        with np.errstate(all="ignore"):
            r = np.true_divide(x, other)
        return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)
    return _general(np.true_divide, self, other, "aten::div", _div_dtype(self, other), arithmetic=True)


def _not_for_complex(kernel, dt):
    """torch's dispatch-macro error: the CPU kernel has no complex instance."""
    raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{D.legacy_name(dt)}'")


def real_only(kernel, cpu_kernel):
    """``kernel`` for a binary op whose CPU kernel has no complex instance (``fmod``)."""
    def checked(self, other):
        if self._data.dtype.kind == "c" or (other._data.dtype.kind == "c" if isinstance(other, Tensor)
                                            else type(other) is complex):
            _not_for_complex(cpu_kernel, tensor_result_dtype(self, other))
        return kernel(self, other)
    checked.__name__ = kernel.__name__
    return checked


def _int_zero_check(y, name):
    """torch's error for an integer divisor holding a zero (``y`` as converted: a wrapped number too)."""
    a = y if type(y) is _ndarray else np.asarray(y)
    if not a.all():  # (the array method: ``np.any(y == 0)`` costs 3 us more through its wrappers)
        raise RuntimeError(f"ZeroDivisionError: integer division by zero ({name})")


def _floor_div(x, y):
    """torch's ``div_floor``, which is numpy's ``floor_divide`` (both Python's float ``//``): for floating
    data the quotient of ``x - fmod(x, y)``, less one where the remainder's sign differs from ``y``'s
    (``-5 // inf`` is -1, where the floor of ``-5 / inf`` is -0), rounded; a zero quotient takes the
    sign of ``x / y``; division by zero is ``x / y``."""
    return np.floor_divide(x, y)


def _remainder(x, y):
    """torch's ``remainder``: ``fmod`` moved into the divisor's sign, which is numpy's ``remainder``
    except for a zero result: torch keeps fmod's (of ``x``'s sign), numpy gives it the divisor's sign."""
    r = np.remainder(x, y)
    if type(r) is not _ndarray or r.dtype.kind != "f":
        return r if r.dtype.kind in "biu" else _remainder_by_fmod(x, y)
    zero = np.logical_not(r)  # ``r == 0`` without converting a Python 0 (nan is not zero)
    if np.count_nonzero(zero):
        np.copysign(r, x, out=r, where=zero)
    return r


def _remainder_by_fmod(x, y):
    """``_remainder`` spelled out, for a numpy scalar result (0-d operands) or bfloat16 data."""
    mod = np.fmod(x, y)
    return np.where((mod != 0) & ((np.asarray(y) < 0) != (mod < 0)), mod + y, mod)


def _trunc_div(x, y):
    if np.result_type(x, y).kind in "biu":
        q = np.floor_divide(x, y)
        return q + ((np.remainder(x, y) != 0) & ((np.asarray(x) < 0) != (np.asarray(y) < 0)))
    return np.trunc(np.true_divide(x, y))


def div_mode(self, other, *, rounding_mode):
    if rounding_mode is None:
        return div(self, other)
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                           f"'{rounding_mode}' (aten::div)")
    dt = tensor_result_dtype(self, other)
    if dt._cat <= 1:
        _int_zero_check(data_as(other, dt), "aten::div")
    elif dt._cat == 3:
        _not_for_complex(f"div_{rounding_mode}", dt)
    fn = _floor_div if rounding_mode == "floor" else _trunc_div
    if rounding_mode == "trunc" and dt._cat == 2 and dt.itemsize == 2 and isinstance(other, Tensor):
        # torch's half-precision trunc division of two tensors rounds the quotient to the type before
        # truncating (with a Python number the quotient stays in float32).
        half = dt.np

        def fn(x, y):
            q = np.true_divide(x, y)
            return np.trunc(q.astype(half).astype(q.dtype))
    return _general(fn, self, other, "aten::div", dt, arithmetic=True)


def floor_divide(self, other):
    r = _float_fast(_floor_div, self, other)
    if r is not None:
        return r
    dt = tensor_result_dtype(self, other)
    if dt._cat <= 1:
        _int_zero_check(data_as(other, dt), "aten::floor_divide")
    elif dt._cat == 3:
        _not_for_complex("div_floor", dt)
    return _general(_floor_div, self, other, "aten::floor_divide", dt, arithmetic=True)


def _remainder_dtype(dt, divisor):
    """torch's checks of ``remainder`` in result dtype ``dt``: no bool, no complex, no integer zero divisor."""
    if dt is D.bool:
        raise NotImplementedError("\"remainder_cpu\" not implemented for 'Bool'")
    if dt._cat <= 1:
        _int_zero_check(data_as(divisor, dt), "aten::remainder")
    elif dt._cat == 3:
        _not_for_complex("remainder", dt)
    return dt


def remainder(self, other):
    r = _float_fast(_remainder, self, other)
    if r is not None:
        return r
    dt = _remainder_dtype(tensor_result_dtype(self, other), other)
    return _general(_remainder, self, other, "aten::remainder", dt)


def remainder_st(self, other):
    """``remainder.Scalar_Tensor``: a number divided by a tensor (``2 % x``)."""
    dt = _remainder_dtype(tensor_result_dtype(other, self), other)
    cdt = compute_dtype(dt)
    with np.errstate(all="ignore"):
        return out(cast(np.asarray(_remainder(wrapped(self, dt), data_as(other, cdt))), dt), other)


def _power(x, e):
    """``x ** e`` as torch's kernels: complex as ``_complex_power``; an integral power with a negative
    exponent is ``1`` for base 1, ``±1`` for base -1 and ``0`` otherwise (numpy refuses it)."""
    kind = np.result_type(x, e).kind
    if kind == "c":
        return _complex_power(x, e)
    if kind not in "biu":
        return np.power(x, e)
    neg = np.asarray(e) < 0
    if not neg.any():
        return np.power(x, e)
    r = np.power(x, np.where(neg, 0, e))
    odd = np.remainder(e, 2) != 0
    at_neg = np.where(np.asarray(x) == 1, 1, np.where(np.asarray(x) == -1, np.where(odd, -1, 1), 0))
    return np.where(neg, at_neg, r)


def _complex_power(x, y):
    """torch's CPU complex power of two tensors, ``exp(y log(x))`` (its vectorized kernel): a zero base
    gives ``exp(y * (-inf + 0j))``, so ``0 ** 0`` is nan and ``0 ** -1`` is ``inf + nan j`` (numpy's
    ``power`` gives 1 and ``inf + 0j``)."""
    with np.errstate(all="ignore"):
        return np.exp(np.multiply(y, np.log(x)))



def pow_tt(self, exponent):
    return _general(_power, self, exponent, "aten::pow")


def pow_ts(self, exponent):
    x = self._data
    if x.dtype.kind == "f" and x.itemsize > 2 and type(exponent) in _NUMBERS:
        # float32/float64 data and a number (the common call): the result is of the data's dtype and
        # the exponent as the general route converts it (``checked``: a finite value past float32's
        # range raises; ``wrapped``: unchanged).
        if x.itemsize == 4 and not -_F32_MAX <= exponent <= _F32_MAX:
            checked(exponent, D.float32)
        return out(quietly(np.power, x, exponent), self)
    dt = tensor_result_dtype(self, exponent)
    if dt._cat <= 1 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed. (aten::pow)")
    # torch's kernel converts the exponent to the element type (half data: rounded to the half type)
    exponent = wrapped(checked(exponent, dt), dt)
    with np.errstate(all="ignore"):
        return out(cast(np.asarray(np.power(data_as(self, compute_dtype(dt)), exponent)), dt), self)


def pow_st(self, exponent):
    e = exponent._data
    if e.dtype.kind == "f" and e.itemsize > 2 and type(self) in _NUMBERS:
        # A number to float32/float64 powers: the result is of the data's dtype, the base as is
        # (``wrapped``), and ``_power`` is ``np.power``.
        return out(quietly(np.power, self, e), exponent)
    dt = tensor_result_dtype(exponent, self)
    cdt = compute_dtype(dt)
    with np.errstate(all="ignore"):
        return out(cast(np.asarray(_power(wrapped(self, dt), data_as(exponent, cdt))), dt), exponent)


def _cmp(fn, name, ordered=False):
    """eq/ne, or with ``ordered`` lt/le/gt/ge, which complex numbers do not support (torch's
    kernels have no complex instance); the test costs one dtype-kind read on the fast path."""
    short = name.split("::")[1]

    def kernel(self, other):
        x = self._data
        if ordered and (x.dtype.kind == "c" or (other._data.dtype.kind == "c" if isinstance(other, Tensor)
                                                 else type(other) is complex)):
            _not_for_complex(short, tensor_result_dtype(self, other))
        if isinstance(other, Tensor):
            y = other._data
            if x.dtype is y.dtype and self._dev is other._dev and x.shape == y.shape:
                return out(fn(x, y), self)
            check_same_device(name, self, other)
            dt = tensor_result_dtype(self, other)
            try:
                return out(fn(data_as(self, dt), y.astype(dt.np, copy=False)), self)
            except ValueError:
                raise broadcast_error(name, self, other) from None
        if x.dtype.kind not in "fcb" and type(other) in (int, float):  # the number in x's type
            other = wrapped(other, D.FROM_NP[x.dtype])
        return out(fn(x, other), self)
    kernel.__name__ = name.split("::")[1]
    return kernel


def _logical(fn, name):
    def kernel(self, other):
        check_same_device(name, self, other)
        return out(fn(self._data, other._data), self)
    kernel.__name__ = name.split("::")[1]
    return kernel


def _bitwise(fn, name):
    def kernel(self, other):
        dt = tensor_result_dtype(self, other)
        if dt._cat > 1:
            raise NotImplementedError(f'"{name.split("::")[1]}_cpu" not implemented for \'{D.legacy_name(dt)}\'')
        return _general(fn, self, other, name, dt)
    kernel.__name__ = name.split("::")[1]
    return kernel


class BitwiseNotError(NotImplementedError, TypeError):
    """``bitwise_not`` of a floating or complex tensor. torch's kernel raises NotImplementedError,
    its ``~`` operator a TypeError (a dtype test before dispatch); opyard's ``Tensor.__invert__``
    is the packet itself (no Python frame on the path of ``~mask``), so this one error is both."""


def bitwise_not(self):
    if self._data.dtype.kind not in "biu":
        raise BitwiseNotError(f"\"bitwise_not_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    return out(np.invert(self._data), self)


def _same_kind_fast(fn, self, other):
    """``fn`` (``maximum``/``minimum``) of two tensors on one device and of one shape as ``_general``
    computes it when their dtypes need no conversion (one integral or bool dtype, float32/float64
    data), without its checks; None for any other call."""
    if not isinstance(other, Tensor) or self._dev is not other._dev:
        return None
    x, y = self._data, other._data
    if x.dtype is y.dtype and x.dtype.kind in "biu" and x.shape == y.shape or _wide_floats(x, y):
        return out(fn(x, y), self)
    return None


def maximum(self, other):
    r = _same_kind_fast(np.maximum, self, other)
    if r is not None:
        return r
    if self._data.dtype.kind == "c" or (isinstance(other, Tensor) and other._data.dtype.kind == "c"):
        raise TypeError("maximum not implemented for complex tensors.")
    return _general(np.maximum, self, other, "aten::maximum")


def minimum(self, other):
    r = _same_kind_fast(np.minimum, self, other)
    if r is not None:
        return r
    if self._data.dtype.kind == "c" or (isinstance(other, Tensor) and other._data.dtype.kind == "c"):
        raise TypeError("minimum not implemented for complex tensors.")
    return _general(np.minimum, self, other, "aten::minimum")


def _float_or_none(t):
    """The data of ``t`` if it is a float32/float64 tensor, else None."""
    if isinstance(t, Tensor):
        x = t._data
        if x.dtype.kind == "f" and x.itemsize > 2:
            return x
    return None


def where(condition, self, other):
    c = condition._data
    if c.dtype == _BOOL and (type(other) in _NUMBERS or type(self) in _NUMBERS):
        # A float32/float64 tensor and a number (``where(mask, x, 0.0)``): the result is of the
        # tensor's dtype, the number ``selected`` (``checked``: a finite value past float32's range
        # raises), numpy's ``where`` of them as the general route computes it, without its checks.
        ref, num = (self, other) if type(other) in _NUMBERS else (other, self)
        x = _float_or_none(ref)
        if x is not None and condition._dev is ref._dev:
            if x.itemsize == 4 and not -_F32_MAX <= num <= _F32_MAX:
                checked(num, D.float32)
            return out(np.where(c, x, num) if ref is self else np.where(c, num, x), ref)
    if condition._data.dtype != _BOOL:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{condition.dtype.name.capitalize()} (aten::where)")
    check_same_device("aten::where", condition, self, other)
    ref = self if isinstance(self, Tensor) else other
    dt = tensor_result_dtype(self, other)
    a = data_as(self, dt) if isinstance(self, Tensor) else selected(self, dt)
    b = data_as(other, dt) if isinstance(other, Tensor) else selected(other, dt)
    c = condition._data
    if c.size >= _WHERE_RUST_MIN and isinstance(self, Tensor) and isinstance(other, Tensor) and a.dtype == b.dtype \
            and a.dtype.kind != "O" and a.itemsize in _BITS and c.shape == a.shape == b.shape \
            and a.flags.c_contiguous and b.flags.c_contiguous and c.flags.c_contiguous:
        bits = _BITS[a.itemsize]  # a selection moves bits: one Rust loop per element size, on the pool
        r = _core._select_where(c, a.view(bits), b.view(bits))
        if r is not None:
            return out(r.view(a.dtype), ref)
    return out(cast(np.asarray(np.where(c, a, b)), dt), ref)


# From this many elements ``where`` of same-shape contiguous operands runs in Rust (numpy's loop branches
# on each element); the elements as unsigned integers of their size.
_WHERE_RUST_MIN = 1 << 15
_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _bound(v, dt, cdt, which):
    """A bound of clamp of result dtype ``dt`` computed in ``cdt``: a tensor's data, or a Scalar under
    torch's clamp rule (``scalars.clamp_limit``: None when it bounds nothing)."""
    if v is None or isinstance(v, Tensor):
        return None if v is None else data_as(v, cdt)
    return clamp_limit(v, dt, which)


def _rust_bound(v):
    """Whether ``v`` (a Scalar bound, or None) bounds float data in Rust as numpy does: not nan (every
    element is then nan, which Rust writes as one nan and numpy's ``maximum``/``minimum`` copy from
    the operands), no integer past 2**53 (numpy rounds it to float32 once, its Python float twice)."""
    t = type(v)
    return v is None or t is float and v == v or t is int and -_EXACT_INT <= v <= _EXACT_INT


_EXACT_INT = 1 << 53  # integers up to this magnitude are exact as a Python float


def _in_float32(v):
    """An integer ``v`` past 2**53 as the float32 nearest it (ties to even), rounded once as torch's
    cast of its int64 Scalar: a Python float would round it twice, and numpy's conversion of a Python
    int differs between its versions; any other ``v`` as it is."""
    if type(v) is not int or -_EXACT_INT <= v <= _EXACT_INT:
        return v
    m = abs(v)
    shift = m.bit_length() - 24  # the bits below float32's 24-bit significand
    q, r = divmod(m, 1 << shift)
    half = 1 << (shift - 1)
    if r > half or r == half and q & 1:
        q += 1
    return np.float32(-(q << shift) if v < 0 else q << shift)  # exact: 25 significant bits at most


def _float_limit(v, x):
    """A number bound of float32/float64 data ``x`` as ``scalars.clamp_limit`` admits it (``checked``:
    a finite value past float32's range raises), as a float."""
    if x.itemsize == 4 and not -_F32_MAX <= v <= _F32_MAX:
        checked(v, D.float32)
    return float(v)


def _clamp(self, min, max, name):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None (aten::clamp)")
    x = self._data
    if x.dtype.kind == "f" and x.itemsize > 2 and _rust_bound(min) and _rust_bound(max):
        # float32/float64 data and number bounds (the common call): the result is of the data's
        # dtype, and Rust computes it in one pass with the values of numpy's route below (0.4 us
        # where its two ``where`` take 4).
        lo = None if min is None else _float_limit(min, x)
        hi = None if max is None else _float_limit(max, x)
        r = _core._clamp_scalars(x, lo, hi)
        if r is not None:  # None: not C-contiguous, or the fast paths are off
            return out(r, self)
    scalars = not isinstance(min, Tensor) and not isinstance(max, Tensor)
    if not scalars:
        r = _clamp_by_like_tensors(self, min, max)
        if r is not None:
            return r
        check_same_device(name, self, min, max)
    dt = tensor_result_dtype(self, min, max)  # a None bound is no item of it
    if dt._cat == 3:
        raise NotImplementedError("clamp is not supported for complex types")
    cdt = compute_dtype(dt)
    lo, hi = _bound(min, dt, cdt, "min"), _bound(max, dt, cdt, "max")
    x = data_as(self, cdt)
    if x.dtype == np.float32:  # an integer bound past 2**53 rounded once, as torch's cast of its Scalar
        lo, hi = _in_float32(lo), _in_float32(hi)
    if scalars and x.dtype.kind == "f" and (x.size >= _CLAMP_RUST_MIN or _rust_bound(lo) and _rust_bound(hi)):
        r = _core._clamp_scalars(x, None if lo is None else float(lo), None if hi is None else float(hi))
        if r is not None:
            return out(cast(r, dt), self)
    # torch keeps an element equal to a Scalar bound (-0.0 under a bound of 0.0) where numpy's
    # maximum/minimum take the bound; a nan bound propagates through them as in torch.
    keep_lo = scalars and x.dtype.kind == "f" and lo is not None and lo == lo
    keep_hi = scalars and x.dtype.kind == "f" and hi is not None and hi == hi
    try:
        if keep_lo:
            x = np.where(x < lo, lo, x)
        elif lo is not None:
            x = np.maximum(x, lo)
        if keep_hi:
            x = np.where(x > hi, hi, x)
        elif hi is not None:
            # The second pass writes into the first one's fresh result when its shape holds
            # (one pass over the memory fewer: 16M float32 elements 35 -> 15 ms).
            # (``getattr(hi, "ndim", 0)`` is ``np.ndim(hi)`` for a number or an array, 1 us cheaper.)
            own = lo is not None and getattr(hi, "ndim", 0) == 0 and isinstance(x, np.ndarray) and x.ndim > 0
            x = np.minimum(x, hi, out=x) if own else np.minimum(x, hi)
    except ValueError:
        raise broadcast_error(name, self, *(v for v in (min, max) if isinstance(v, Tensor))) from None
    return out(cast(np.asarray(x), dt), self)


def _clamp_by_like_tensors(self, min, max):
    """``clamp`` of integral or float32/float64 data by tensor bounds (or None) of its dtype, shape and
    device: ``np.maximum`` then ``np.minimum``, as ``_clamp``'s general route computes them (no
    conversion, no broadcast), without its checks; None for any other call."""
    x = self._data
    if x.dtype.kind not in "iuf" or x.dtype.kind == "f" and x.itemsize == 2:
        return None
    for b in (min, max):
        if b is not None and not (isinstance(b, Tensor) and b._data.dtype is x.dtype and b._data.shape == x.shape
                                  and b._dev is self._dev):
            return None
    if min is not None:
        x = np.maximum(x, min._data)
    if max is not None:
        x = np.minimum(x, max._data)
    return out(x, self)


def clamp(self, min=None, max=None):
    return _clamp(self, min, max, "aten::clamp")


# From this many elements a float clamp by any Scalar bounds runs in Rust (numpy's two passes each
# allocate a result; below it, a bound ``_rust_bound`` refuses takes numpy's route, its values as ever).
_CLAMP_RUST_MIN = 1 << 15


def clamp_min(self, min):
    return _clamp(self, min, None, "aten::clamp_min")


def clamp_max(self, max):
    return _clamp(self, None, max, "aten::clamp_max")


OPS = OpTable()


@OPS.op("clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", kind="pointwise",
        inplace="clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)",
        out="clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)")
def clamp_min_tensor(self, min):
    return _clamp(self, min, None, "aten::clamp_min")


@OPS.op("clamp_max.Tensor(Tensor self, Tensor max) -> Tensor", kind="pointwise",
        inplace="clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)",
        out="clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)")
def clamp_max_tensor(self, max):
    return _clamp(self, None, max, "aten::clamp_max")


@OPS.op("clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)", kind="inplace")
def clamp__tensor(self, min=None, max=None):
    return inplace_result(self, _clamp(self, min, max, "aten::clamp_")._data, "aten::clamp_")


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    check_same_device("aten::isclose", self, other)
    if self._data.dtype != other._data.dtype:
        raise RuntimeError(f"{D.legacy_name(self.dtype)} did not match {D.legacy_name(other.dtype)}")
    for name, v in (("rtol", rtol), ("atol", atol)):
        if v < 0:
            raise RuntimeError(f"{name} must be greater than or equal to zero, but got {v:g}")
    return out(np.isclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan), self)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(isclose(self, other, rtol, atol, equal_nan)._data))


def lerp_arrays(x, e, w, dt):
    """torch's lerp in the computation dtype of ``dt`` (float32 for half data), rounded once:
    ``x + w * (e - x)`` where ``|w| < 0.5``, else ``e - (e - x) * (1 - w)`` (exact at both ends)."""
    cdt = compute_np(dt.np)
    x, e = x.astype(cdt, copy=False), e.astype(cdt, copy=False)
    # A Python weight in the computation type too (torch's ``weight.to<opmath_t>()``): ``1 - w`` in it.
    w = w.astype(cdt, copy=False) if isinstance(w, np.ndarray) else cdt.type(w)
    with np.errstate(all="ignore"):
        diff, rest = e - x, 1 - w
        if cdt != dt.np:
            # Half data: torch's kernel fuses each multiply-add (std::fma, one rounding), which the
            # half result can show; in float64, where the float32 product is exact, rounded once.
            # (float32 data keeps numpy's two roundings: a last-bit difference at most.)
            x, e, diff, w, rest = (np.asarray(v, dtype=np.float64) for v in (x, e, diff, w, rest))
        if w.ndim == 0:  # one weight: one branch
            r = x + w * diff if abs(w) < 0.5 else e - diff * rest
        else:
            r = np.where(np.abs(w) < 0.5, x + w * diff, e - diff * rest)
    return np.asarray(r).astype(cdt, copy=False).astype(dt.np, copy=False)


def _lerp_by_number(x, e, w):
    """``lerp_arrays``'s branch for one weight ``w`` (of the data's type) when no conversion is needed."""
    diff = e - x
    return x + w * diff if abs(w) < 0.5 else e - diff * (1 - w)


def lerp_checks(self, others, kernel):
    """torch's lerp checks: floating or complex data, one dtype for every tensor."""
    if self.dtype._cat < 2:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{D.legacy_name(self.dtype)}'")
    for name, other in others:
        if other.dtype is not self.dtype:
            raise RuntimeError(f"expected dtype {D.c_type_name(self.dtype)} for `{name}` but got dtype "
                               f"{D.c_type_name(other.dtype)}")


def lerp(self, end, weight):
    x, e = self._data, end._data
    if x.dtype is e.dtype and x.dtype.kind == "f" and x.itemsize > 2 and x.shape == e.shape \
            and self._dev is end._dev and type(weight) in _NUMBERS:
        # float32/float64 operands of one shape, a number weight (the common call): ``lerp_arrays``
        # without its conversions and broadcasts.
        return out(quietly(_lerp_by_number, x, e, x.dtype.type(weight)), self)
    check_same_device("aten::lerp", self, end)
    lerp_checks(self, (("end", end),), "lerp_kernel_scalar")
    try:
        shape = np.broadcast_shapes(self._data.shape, end._data.shape)
    except ValueError:
        raise broadcast_error("aten::lerp", self, end) from None
    x, e = np.broadcast_to(self._data, shape), np.broadcast_to(end._data, shape)
    return out(lerp_arrays(x, e, weight, self.dtype), self)


# In-place variants: the functional kernel, then torch's cast rule and a version bump.
def _inplace(fn, name):
    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, name)
    kernel.__name__ = name.split("::")[1]
    return kernel


def add_(self, other, *, alpha=1):
    """``add_``'s own fast path: same dtype, same device, no broadcasting of ``self``: write in place."""
    x = self._data
    if alpha == 1 and isinstance(other, Tensor) and x.dtype is other._data.dtype \
            and self._dev is other._dev and x.flags.writeable and self._dev.type != "meta":
        y = other._data
        if y.shape == x.shape or np.broadcast_shapes(x.shape, y.shape) == x.shape:
            np.add(x, y, out=x)
            self._bump_version()
            return self
    return inplace_result(self, add(self, other, alpha=alpha)._data, "aten::add_")


def copy_(self, src, non_blocking=False):
    x, src_data = self._data, src._data
    # (One shape needs no ``np.broadcast_shapes``, 2 us of the 2.7 this took.)
    if src_data.shape != x.shape and np.broadcast_shapes(x.shape, src_data.shape) != x.shape:
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(x.shape, src_data.shape))} (aten::copy_)")
    if not x.flags.writeable:
        raise read_only_error("aten::copy_", x)
    if type(src_data) is not _ndarray and hasattr(src_data, "get") and not hasattr(x, "get"):
        src_data = src_data.get()  # device data (cupy) into host memory
    x[...] = src_data
    self._bump_version()
    return self


def fill_(self, value):
    if isinstance(value, Tensor):
        if value._data.ndim:
            raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                               f"{value._data.ndim} dimensions. (aten::fill_)")
        value = value._data[()]
    elif not (type(value) is int and 0 <= value <= 127  # fits every dtype
              or type(value) is float and self._data.dtype.kind == "f" and -65504.0 <= value <= 65504.0):
        value = checked(value, D.FROM_NP[self._data.dtype])
    x = self._data
    if not x.flags.writeable:
        # Every element gets one value, so an expanded view may be filled (torch allows it).
        x = writable_alias(x)
        if x is None:
            raise read_only_error("aten::fill_", self._data)
    x[...] = value
    self._bump_version()
    return self


def zero_(self):
    return fill_(self, 0)


def _alpha_positional(fn):
    """The ``.Scalar`` overloads of add/sub/rsub take ``alpha`` positionally (their schemas say so)."""
    def kernel(self, other, alpha=1):
        return fn(self, other, alpha=alpha)
    kernel.__name__ = fn.__name__ + "_scalar"
    return kernel


KERNELS = {
    "add.Tensor": add, "add.Scalar": _alpha_positional(add), "sub.Tensor": sub,
    "sub.Scalar": _alpha_positional(sub), "rsub.Tensor": rsub, "rsub.Scalar": _alpha_positional(rsub), "mul.Tensor": mul, "mul.Scalar": mul,
    "div.Tensor": div, "div.Scalar": div, "div.Tensor_mode": div_mode, "div.Scalar_mode": div_mode,
    "floor_divide": floor_divide, "floor_divide.Scalar": floor_divide,
    "remainder.Tensor": remainder, "remainder.Scalar": remainder, "remainder.Scalar_Tensor": remainder_st,
    "pow.Tensor_Tensor": pow_tt, "pow.Tensor_Scalar": pow_ts, "pow.Scalar": pow_st,
    "maximum": maximum, "minimum": minimum, "max.other": maximum, "min.other": minimum,
    "where.self": where, "where.ScalarOther": where, "where.ScalarSelf": where,
    "clamp": clamp, "clamp.Tensor": clamp, "clamp_min": clamp_min, "clamp_max": clamp_max,
    "isclose": isclose, "allclose": allclose, "lerp.Scalar": lerp,
    "logical_and": _logical(np.logical_and, "aten::logical_and"),
    "logical_or": _logical(np.logical_or, "aten::logical_or"),
    "logical_xor": _logical(np.logical_xor, "aten::logical_xor"),
    "bitwise_not": bitwise_not, "copy_": copy_, "fill_.Scalar": fill_, "fill_.Tensor": fill_, "zero_": zero_,
}
for _op, _fn in (("eq", np.equal), ("ne", np.not_equal)):
    KERNELS[f"{_op}.Tensor"] = KERNELS[f"{_op}.Scalar"] = _cmp(_fn, f"aten::{_op}")
for _op, _fn in (("lt", np.less), ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal)):
    KERNELS[f"{_op}.Tensor"] = KERNELS[f"{_op}.Scalar"] = _cmp(_fn, f"aten::{_op}", ordered=True)
for _op, _fn in (("bitwise_and", np.bitwise_and), ("bitwise_or", np.bitwise_or), ("bitwise_xor", np.bitwise_xor)):
    KERNELS[f"{_op}.Tensor"] = KERNELS[f"{_op}.Scalar"] = _bitwise(_fn, f"aten::{_op}")

KERNELS["add_.Tensor"] = add_
KERNELS["add_.Scalar"] = _alpha_positional(add_)
KERNELS["sub_.Scalar"] = _alpha_positional(_inplace(sub, "aten::sub_.Scalar"))
for _name, _base in (("sub_.Tensor", sub), ("mul_.Tensor", mul), ("mul_.Scalar", mul),
                     ("div_.Tensor", div), ("div_.Scalar", div), ("div_.Tensor_mode", div_mode),
                     ("div_.Scalar_mode", div_mode), ("remainder_.Scalar", remainder),
                     ("floor_divide_.Tensor", floor_divide), ("floor_divide_.Scalar", floor_divide),
                     ("pow_.Scalar", pow_ts), ("pow_.Tensor", pow_tt), ("clamp_", clamp),
                     ("remainder_.Tensor", remainder), ("bitwise_and_.Tensor", KERNELS["bitwise_and.Tensor"]),
                     ("bitwise_or_.Tensor", KERNELS["bitwise_or.Tensor"]),
                     ("bitwise_xor_.Tensor", KERNELS["bitwise_xor.Tensor"])):
    KERNELS[_name] = _inplace(_base, "aten::" + _name)

POINTWISE = set(KERNELS)
DATA_DEPENDENT = {"allclose"}
