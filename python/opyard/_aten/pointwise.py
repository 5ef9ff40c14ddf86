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

from .. import _dtype as D
from .common import (CPU, CPU_KEYS, Tensor, _new, as_array, broadcast_error, cast, check_same_device,
                     checked_fill, data_as, device_keys, inplace_result, out, read_only_error, tensor_result_dtype,
                     writable_alias)

_ndarray = np.ndarray

__all__ = ["KERNELS", "binary", "real_only"]

_BOOL = np.dtype(np.bool_)


def _general(fn, a, b, name, dt=None):
    if isinstance(b, Tensor) and a._dev is not b._dev:
        check_same_device(name, a, b)
    dt = dt or tensor_result_dtype(a, b)
    try:
        with np.errstate(all="ignore"):  # torch: inf/nan silently (the general path can afford it)
            r = fn(data_as(a, dt), data_as(b, dt))
    except ValueError:
        raise broadcast_error(name, a, b) from None
    return out(cast(np.asarray(r), dt), a)


def binary(fn, name, same_dtype_ok=True):
    """A Tensor/Scalar binary kernel of ``fn`` with torch's promotion (see the module note)."""
    def kernel(self, other):
        x = self._data
        if isinstance(other, Tensor):
            y = other._data
            if same_dtype_ok and x.dtype is y.dtype and self._dev is other._dev and x.shape == y.shape:
                return out(fn(x, y), self)
        elif x.dtype.kind == "f" and x.itemsize > 2 and type(other) in (int, float):
            r = fn(x, other)
            return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)
        return _general(fn, self, other, name)
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
            factor = checked_fill(factor, dt)
        x, y = data_as(self, dt), data_as(other, dt)
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
                t = _new(Tensor)
                t._data = r
                dev = self._dev
                if dev is CPU:
                    t._keyset = CPU_KEYS
                else:
                    t._dev = dev
                    t._keyset = device_keys(dev)
                return t
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


mul = binary(np.multiply, "aten::mul")


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
    return _general(np.true_divide, self, other, "aten::div", _div_dtype(self, other))


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
    if np.any(np.asarray(y) == 0):
        raise RuntimeError(f"ZeroDivisionError: integer division by zero ({name})")


def _floor_div(x, y):
    return np.floor_divide(x, y) if np.result_type(x, y).kind in "biu" else np.floor(np.true_divide(x, y))


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
    return _general(_floor_div if rounding_mode == "floor" else _trunc_div, self, other, "aten::div", dt)


def floor_divide(self, other):
    dt = tensor_result_dtype(self, other)
    if dt._cat <= 1:
        _int_zero_check(data_as(other, dt), "aten::floor_divide")
    elif dt._cat == 3:
        _not_for_complex("div_floor", dt)
    return _general(_floor_div, self, other, "aten::floor_divide", dt)


def remainder(self, other):
    dt = tensor_result_dtype(self, other)
    if dt._cat <= 1:
        _int_zero_check(data_as(other, dt), "aten::remainder")
    elif dt._cat == 3:
        _not_for_complex("remainder", dt)
    return _general(np.remainder, self, other, "aten::remainder", dt)


def _complex_power(x, y):
    """torch's CPU complex power of two tensors, ``exp(y log(x))`` (its vectorized kernel): a zero base
    gives ``exp(y * (-inf + 0j))``, so ``0 ** 0`` is nan and ``0 ** -1`` is ``inf + nan j`` (numpy's
    ``power`` gives 1 and ``inf + 0j``)."""
    with np.errstate(all="ignore"):
        return np.exp(np.multiply(y, np.log(x)))


def _power(x, y):
    return _complex_power(x, y) if np.result_type(x, y).kind == "c" else np.power(x, y)


def pow_tt(self, exponent):
    dt = tensor_result_dtype(self, exponent)
    if dt._cat <= 1 and np.any(data_as(exponent, dt) < 0):
        raise RuntimeError("Integers to negative integer powers are not allowed. (aten::pow)")
    return _general(_complex_power if dt._cat == 3 else np.power, self, exponent, "aten::pow", dt)


def pow_ts(self, exponent):
    dt = tensor_result_dtype(self, exponent)
    if dt._cat <= 1 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed. (aten::pow)")
    with np.errstate(all="ignore"):
        return out(cast(np.asarray(np.power(data_as(self, dt), exponent)), dt), self)


def pow_st(self, exponent):
    dt = tensor_result_dtype(exponent, self)
    with np.errstate(all="ignore"):
        return out(cast(np.asarray(_power(self, data_as(exponent, dt))), dt), exponent)


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


def maximum(self, other):
    if self._data.dtype.kind == "c" or (isinstance(other, Tensor) and other._data.dtype.kind == "c"):
        raise TypeError("maximum not implemented for complex tensors.")
    return _general(np.maximum, self, other, "aten::maximum")


def minimum(self, other):
    if self._data.dtype.kind == "c" or (isinstance(other, Tensor) and other._data.dtype.kind == "c"):
        raise TypeError("minimum not implemented for complex tensors.")
    return _general(np.minimum, self, other, "aten::minimum")


def where(condition, self, other):
    if condition._data.dtype != _BOOL:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{condition.dtype.name.capitalize()} (aten::where)")
    check_same_device("aten::where", condition, self, other)
    ref = self if isinstance(self, Tensor) else other
    dt = tensor_result_dtype(self, other)
    return out(cast(np.asarray(np.where(condition._data, data_as(self, dt), data_as(other, dt))), dt), ref)


def clamp(self, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None (aten::clamp)")
    check_same_device("aten::clamp", self, min, max)
    dt = tensor_result_dtype(self, *(v for v in (min, max) if v is not None))
    if dt._cat == 3:
        raise NotImplementedError("clamp is not supported for complex types")
    x = data_as(self, dt)
    if min is not None:
        x = np.maximum(x, data_as(min, dt))
    if max is not None:
        x = np.minimum(x, data_as(max, dt))
    return out(cast(np.asarray(x), dt), self)


def clamp_min(self, min):
    return clamp(self, min, None)


def clamp_max(self, max):
    return clamp(self, None, max)


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    check_same_device("aten::isclose", self, other)
    if self._data.dtype != other._data.dtype:
        raise RuntimeError(f"{self.dtype.name.capitalize()} did not match {other.dtype.name.capitalize()} "
                           "(aten::isclose: both tensors need one dtype; convert one with .to())")
    return out(np.isclose(self._data, other._data, rtol=rtol, atol=atol, equal_nan=equal_nan), self)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(isclose(self, other, rtol, atol, equal_nan)._data))


# torch's C++ names of the dtypes its lerp messages print.
_C_DTYPE_NAMES = {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
                  "float16": "c10::Half", "bfloat16": "c10::BFloat16"}


def lerp_checks(self, end, weight, kernel_name):
    """torch's lerp checks: ``end`` (and a tensor ``weight``) of ``self``'s dtype, a floating or
    complex dtype (``kernel_name`` refuses the others), on one device."""
    check_same_device("aten::lerp", self, end, weight)
    for name, other in (("end", end), ("weight", weight)):
        if isinstance(other, Tensor) and other._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {_C_DTYPE_NAMES.get(self.dtype.name, self.dtype.name)} for "
                               f"`{name}` but got dtype {_C_DTYPE_NAMES.get(other.dtype.name, other.dtype.name)}")
    if self.dtype._cat < 2:
        raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{D.legacy_name(self.dtype)}'")


def lerp_values(x, e, w, dtype):
    """torch's lerp of arrays (``w`` an array or a number) in its compute type (float32 for half and
    bfloat16), rounded once to ``dtype``: ``x + w (e - x)`` for ``|w| < 0.5``, else
    ``e - (e - x)(1 - w)`` (exact at both ends)."""
    work = np.float32 if dtype.itemsize == 2 and dtype.kind in "fV" else dtype
    x, e = x.astype(work, copy=False), e.astype(work, copy=False)
    w = np.asarray(w, dtype=work) if not isinstance(w, np.ndarray) else w.astype(work, copy=False)
    diff = e - x
    return np.asarray(np.where(np.abs(w) < 0.5, x + w * diff, e - diff * (1 - w))).astype(dtype, copy=False)


def lerp(self, end, weight):
    lerp_checks(self, end, None, "lerp_kernel_scalar")
    weight = checked_fill(weight, D.FROM_NP[self._data.dtype])
    x, e = self._data, end._data
    try:
        np.broadcast_shapes(x.shape, e.shape)
    except ValueError:
        raise broadcast_error("aten::lerp", self, end) from None
    return out(lerp_values(x, e, weight, x.dtype), self)


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
    x = self._data
    if np.broadcast_shapes(x.shape, src._data.shape) != x.shape:
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(x.shape, src._data.shape))} (aten::copy_)")
    if not x.flags.writeable:
        raise read_only_error("aten::copy_", x)
    src_data = src._data.get() if hasattr(src._data, "get") and not hasattr(x, "get") else src._data
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
        value = checked_fill(value, D.FROM_NP[self._data.dtype])
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
    "remainder.Tensor": remainder, "remainder.Scalar": remainder,
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
                     ("pow_.Scalar", pow_ts), ("pow_.Tensor", pow_tt), ("clamp_", clamp),
                     ("remainder_.Tensor", remainder), ("bitwise_and_.Tensor", KERNELS["bitwise_and.Tensor"]),
                     ("bitwise_or_.Tensor", KERNELS["bitwise_or.Tensor"]),
                     ("bitwise_xor_.Tensor", KERNELS["bitwise_xor.Tensor"])):
    KERNELS[_name] = _inplace(_base, "aten::" + _name)

POINTWISE = set(KERNELS)
DATA_DEPENDENT = {"allclose"}
