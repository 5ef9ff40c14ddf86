"""Pointwise kernels (numpy): arithmetic with torch's promotion, unary math, comparisons."""

import numpy as np

from .. import _dtype as D
from .common import Tensor, cast, data_as, inplace_result, out, tensor_result_dtype

__all__ = ["KERNELS"]


def _binary(fn, a, b, name, alpha=1):
    dt = tensor_result_dtype(a, b)
    x, y = data_as(a, dt), data_as(b, dt)
    if alpha != 1:
        y = np.multiply(y, alpha)
    return out(cast(np.asarray(fn(x, y)), dt), a)


def _alpha_check(a, b, alpha, name):
    if isinstance(alpha, float) and not tensor_result_dtype(a, b).is_floating_point and alpha != int(alpha):
        raise RuntimeError(f"For integral input tensors, argument alpha must not be a floating point number. ({name})")


def add(self, other, *, alpha=1):
    _alpha_check(self, other, alpha, "aten::add")
    return _binary(np.add, self, other, "add", alpha)


def sub(self, other, *, alpha=1):
    if self._data.dtype == np.bool_ and isinstance(other, Tensor) and other._data.dtype == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    return _binary(np.subtract, self, other, "sub", alpha)


def rsub(self, other, *, alpha=1):
    return _binary(lambda x, y: np.subtract(y, x), self, other, "rsub", alpha)


def mul(self, other):
    return _binary(np.multiply, self, other, "mul")


def _div_dtype(a, b):
    dt = tensor_result_dtype(a, b)
    return dt if dt._cat >= 2 else D.get_default_dtype()


def div(self, other):
    dt = _div_dtype(self, other)
    with np.errstate(divide="ignore", invalid="ignore"):
        return out(cast(np.true_divide(data_as(self, dt), data_as(other, dt)), dt), self)


def div_mode(self, other, *, rounding_mode):
    if rounding_mode is None:
        return div(self, other)
    if rounding_mode not in ("trunc", "floor"):
        raise RuntimeError(f"div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '{rounding_mode}'")
    dt = tensor_result_dtype(self, other)
    x, y = data_as(self, dt), data_as(other, dt)
    if dt._cat <= 1:
        if np.any(np.asarray(y) == 0):
            raise RuntimeError("ZeroDivisionError: integer division by zero (aten::div)")
        r = np.floor_divide(x, y) if rounding_mode == "floor" else np.trunc(np.true_divide(x, y)).astype(dt.np)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            q = np.true_divide(x, y)
        r = np.floor(q) if rounding_mode == "floor" else np.trunc(q)
    return out(cast(np.asarray(r), dt), self)


def pow_tt(self, exponent):
    return _binary(np.power, self, exponent, "pow")


def pow_ts(self, exponent):
    dt = tensor_result_dtype(self, exponent)
    if dt._cat <= 1 and isinstance(exponent, int) and exponent < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return out(cast(np.asarray(np.power(data_as(self, dt), exponent)), dt), self)


def pow_st(self, exponent):
    dt = tensor_result_dtype(exponent, self)
    return out(cast(np.asarray(np.power(self, data_as(exponent, dt))), dt), exponent)


def _cmp(fn):
    def kernel(self, other):
        dt = tensor_result_dtype(self, other)
        return out(np.asarray(fn(data_as(self, dt), data_as(other, dt))), self)
    kernel.__name__ = fn.__name__
    return kernel


def maximum(self, other):
    return _binary(np.maximum, self, other, "maximum")


def minimum(self, other):
    return _binary(np.minimum, self, other, "minimum")


def where(condition, self, other):
    if condition._data.dtype != np.bool_:
        raise RuntimeError(f"where expected condition to be a boolean tensor, but got a tensor with dtype {condition.dtype!r}")
    dt = tensor_result_dtype(self, other)
    return out(np.where(condition._data, data_as(self, dt), data_as(other, dt)), self)


def _float_unary(fn, name):
    def kernel(self):
        x = self._data
        if x.dtype.kind in "biu":
            x = x.astype(D.get_default_dtype().np)
        with np.errstate(divide="ignore", invalid="ignore"):
            return out(np.asarray(fn(x)).astype(x.dtype, copy=False), self)
    kernel.__name__ = name
    return kernel


def _same_unary(fn, name):
    def kernel(self):
        return out(np.asarray(fn(self._data)), self)
    kernel.__name__ = name
    return kernel


def neg(self):
    if self._data.dtype == np.bool_:
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")
    return out(np.negative(self._data), self)


def sigmoid(self):
    x = self._data.astype(D.get_default_dtype().np) if self._data.dtype.kind in "biu" else self._data
    with np.errstate(over="ignore"):
        return out((1.0 / (1.0 + np.exp(-x))).astype(x.dtype, copy=False), self)


def relu(self):
    if self._data.dtype == np.bool_:
        raise RuntimeError('"clamp_min_cpu" not implemented for \'Bool\'')
    return out(np.maximum(self._data, 0).astype(self._data.dtype, copy=False), self)


def rsqrt(self):
    x = self._data.astype(D.get_default_dtype().np) if self._data.dtype.kind in "biu" else self._data
    with np.errstate(divide="ignore", invalid="ignore"):
        return out((1.0 / np.sqrt(x)).astype(x.dtype, copy=False), self)


def clamp(self, min=None, max=None):
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    dt = tensor_result_dtype(self, *(v for v in (min, max) if v is not None))
    x = data_as(self, dt)
    if min is not None:
        x = np.maximum(x, min)
    if max is not None:
        x = np.minimum(x, max)
    return out(cast(np.asarray(x), dt), self)


def logical_not(self):
    return out(np.logical_not(self._data), self)


def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    dt = tensor_result_dtype(self, other)
    return out(np.isclose(data_as(self, dt), data_as(other, dt), rtol=rtol, atol=atol, equal_nan=equal_nan), self)


def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    return bool(np.all(isclose(self, other, rtol, atol, equal_nan)._data))


def _inplace(fn, name):
    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, name)
    kernel.__name__ = name
    return kernel


def copy_(self, src, non_blocking=False):
    if self._data.shape != np.broadcast_shapes(self._data.shape, src._data.shape):
        raise RuntimeError(f"The size of tensor a ({self._data.shape}) must match the size of tensor b "
                           f"({src._data.shape}) (copy_)")
    if not self._data.flags.writeable:
        raise RuntimeError("copy_: the destination is a read-only (expanded or meta) view; clone() it first")
    self._data[...] = src._data.astype(self._data.dtype, copy=False)
    self._bump_version()
    return self


def fill_(self, value):
    return inplace_result(self, np.asarray(value), "aten::fill_")


def zero_(self):
    self._data[...] = 0
    self._bump_version()
    return self


KERNELS = {
    "add.Tensor": add, "add.Scalar": add, "sub.Tensor": sub, "sub.Scalar": sub,
    "rsub.Tensor": rsub, "rsub.Scalar": rsub,
    "mul.Tensor": mul, "mul.Scalar": mul, "div.Tensor": div, "div.Scalar": div,
    "div.Tensor_mode": div_mode, "div.Scalar_mode": div_mode,
    "pow.Tensor_Tensor": pow_tt, "pow.Tensor_Scalar": pow_ts, "pow.Scalar": pow_st,
    "maximum": maximum, "minimum": minimum, "where.self": where,
    "eq.Tensor": _cmp(np.equal), "eq.Scalar": _cmp(np.equal), "ne.Tensor": _cmp(np.not_equal),
    "ne.Scalar": _cmp(np.not_equal), "lt.Tensor": _cmp(np.less), "lt.Scalar": _cmp(np.less),
    "le.Tensor": _cmp(np.less_equal), "le.Scalar": _cmp(np.less_equal),
    "gt.Tensor": _cmp(np.greater), "gt.Scalar": _cmp(np.greater),
    "ge.Tensor": _cmp(np.greater_equal), "ge.Scalar": _cmp(np.greater_equal),
    "neg": neg, "abs": _same_unary(np.abs, "abs"), "exp": _float_unary(np.exp, "exp"),
    "log": _float_unary(np.log, "log"), "sin": _float_unary(np.sin, "sin"),
    "cos": _float_unary(np.cos, "cos"), "tanh": _float_unary(np.tanh, "tanh"),
    "sqrt": _float_unary(np.sqrt, "sqrt"), "sigmoid": sigmoid, "relu": relu, "rsqrt": rsqrt,
    "sign": _same_unary(np.sign, "sign"), "reciprocal": _float_unary(np.reciprocal, "reciprocal"),
    "square": _same_unary(np.square, "square"), "floor": _same_unary(np.floor, "floor"),
    "ceil": _same_unary(np.ceil, "ceil"), "round": _same_unary(np.round, "round"),
    "logical_not": logical_not,
    "logical_and": _cmp(np.logical_and), "logical_or": _cmp(np.logical_or), "clamp": clamp, "isclose": isclose, "allclose": allclose,
    "copy_": copy_, "fill_.Scalar": fill_, "zero_": zero_,
}

for _name, _base in (("add_.Tensor", add), ("add_.Scalar", add), ("sub_.Tensor", sub),
                     ("sub_.Scalar", sub), ("mul_.Tensor", mul), ("mul_.Scalar", mul),
                     ("div_.Tensor", div), ("div_.Scalar", div), ("pow_.Scalar", pow_ts),
                     ("clamp_", clamp), ("exp_", KERNELS["exp"]), ("neg_", neg),
                     ("sqrt_", KERNELS["sqrt"]), ("sin_", KERNELS["sin"]), ("cos_", KERNELS["cos"]),
                     ("relu_", relu), ("sigmoid_", sigmoid), ("tanh_", KERNELS["tanh"]),
                     ("abs_", KERNELS["abs"])):
    KERNELS[_name] = _inplace(_base, "aten::" + _name)
