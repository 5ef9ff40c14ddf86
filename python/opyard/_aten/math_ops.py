"""Pointwise math with a direct numpy equivalent: atan2, hypot, logaddexp, copysign, heaviside,
sinc, xlogy, frac, sgn, lerp with a tensor weight, and the in-place forms torch has for these
and for the existing unary ops (``trunc_``, ``floor_``, ``clamp_min_``, ...).

Integral inputs of the transcendental ops compute in the default floating dtype, as torch's
``TensorIterator`` with ``promote_integer_inputs_to_float`` does.
"""

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import (
    INEXACT,
    Tensor,
    cast,
    check_same_device,
    data_as,
    inplace_result,
    out,
    tensor_result_dtype,
)
from .extra_ops import nan_to_num as _nan_to_num
from .misc_ops import KERNELS as _MISC
from .nn_ops import KERNELS as _NN
from .pointwise import KERNELS as _PW
from .pointwise import _general, lerp_arrays, lerp_checks, real_only
from .shape import KERNELS as _SHAPE
from .unary import KERNELS as _UNARY

__all__ = ["KERNELS", "OPS", "POINTWISE", "SCHEMAS"]

SCHEMAS = (
    "atan2(Tensor self, Tensor other) -> Tensor",
    "atan2_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "hypot(Tensor self, Tensor other) -> Tensor",
    "hypot_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "logaddexp(Tensor self, Tensor other) -> Tensor",
    "copysign.Tensor(Tensor self, Tensor other) -> Tensor",
    "copysign.Scalar(Tensor self, Scalar other) -> Tensor",
    "copysign_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "copysign_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
    "heaviside(Tensor self, Tensor values) -> Tensor",
    "heaviside_(Tensor(a!) self, Tensor values) -> Tensor(a!)",
    "sinc(Tensor self) -> Tensor",
    "sinc_(Tensor(a!) self) -> Tensor(a!)",
    "xlogy.Tensor(Tensor self, Tensor other) -> Tensor",
    "xlogy.Scalar_Self(Scalar self, Tensor other) -> Tensor",
    "xlogy.Scalar_Other(Tensor self, Scalar other) -> Tensor",
    "xlogy_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "xlogy_.Scalar_Other(Tensor(a!) self, Scalar other) -> Tensor(a!)",
    "frac(Tensor self) -> Tensor",
    "frac_(Tensor(a!) self) -> Tensor(a!)",
    "sgn(Tensor self) -> Tensor",
    "sgn_(Tensor(a!) self) -> Tensor(a!)",
    "lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor",
    "lerp_.Scalar(Tensor(a!) self, Tensor end, Scalar weight) -> Tensor(a!)",
    "lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)",
    "trunc_(Tensor(a!) self) -> Tensor(a!)",
    "floor_(Tensor(a!) self) -> Tensor(a!)",
    "ceil_(Tensor(a!) self) -> Tensor(a!)",
    "round_(Tensor(a!) self) -> Tensor(a!)",
    "round_.decimals(Tensor(a!) self, *, int decimals) -> Tensor(a!)",
    "reciprocal_(Tensor(a!) self) -> Tensor(a!)",
    "rsqrt_(Tensor(a!) self) -> Tensor(a!)",
    "square_(Tensor(a!) self) -> Tensor(a!)",
    "log2_(Tensor(a!) self) -> Tensor(a!)",
    "log10_(Tensor(a!) self) -> Tensor(a!)",
    "log1p_(Tensor(a!) self) -> Tensor(a!)",
    "tan_(Tensor(a!) self) -> Tensor(a!)",
    "erf_(Tensor(a!) self) -> Tensor(a!)",
    "clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)",
    "exp2_(Tensor(a!) self) -> Tensor(a!)",
    "fmod_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
    "fmod_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
    "tril_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)",
    "triu_(Tensor(a!) self, SymInt diagonal=0) -> Tensor(a!)",
    "clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)",
    "nan_to_num_(Tensor(a!) self, float? nan=None, float? posinf=None, float? neginf=None) -> Tensor(a!)",
)


def _float_dtype(*items):
    dt = tensor_result_dtype(*items)
    return dt if dt._cat >= 2 else D.get_default_dtype()


def _like_first(r, x):
    """torch lays a pointwise result out as its first operand; numpy's order K falls back to
    row-major when the operands' layouts disagree."""
    if r.shape == x.shape and r.strides != x.strides and x.ndim > 1:
        laid = np.empty_like(x, dtype=r.dtype)
        laid[...] = r
        return laid
    return r


def float_binary(fn, name):
    """A binary op computed in floating point (integral/bool inputs promote to the default float)."""
    op_name = "aten::" + name

    def kernel(self, other):
        x = self._data
        if isinstance(other, Tensor):
            y = other._data
            if x.dtype is y.dtype and x.dtype in INEXACT and self._dev is other._dev:
                try:
                    with np.errstate(all="ignore"):
                        r = np.asarray(fn(x, y)).astype(x.dtype, copy=False)
                    return out(_like_first(r, x), self)
                except ValueError:
                    pass  # shapes do not broadcast: the general path raises torch's message
        r = _general(fn, self, other, op_name, _float_dtype(self, other))
        r._data = _like_first(r._data, x)
        return r
    kernel.__name__ = name.replace(".", "_")
    return kernel


def _logaddexp(x, y):
    """``log(exp(x) + exp(y))``; complex values as torch computes them (``_log_add_exp_helper``): a nan
    anywhere gives nan, equal infinite real parts give the lesser (-inf) or ``log(exp + exp)`` (+inf),
    else ``log1p(exp(min - max)) + max`` with min/max by real part."""
    if not (np.iscomplexobj(x) or np.iscomplexobj(y)):
        return np.logaddexp(x, y)
    x, y = np.broadcast_arrays(x, y)
    swap = x.real > y.real
    lo, hi = np.where(swap, y, x), np.where(swap, x, y)
    with np.errstate(all="ignore"):
        r = np.log1p(np.exp(lo - hi)) + hi
        both_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        r = np.where(both_inf & (lo.real < 0), lo, r)
        r = np.where(both_inf & (lo.real > 0), np.log(np.exp(lo) + np.exp(hi)), r)
    nan = np.isnan(x.real) | np.isnan(x.imag) | np.isnan(y.real) | np.isnan(y.imag)
    return np.where(nan, complex(np.nan, np.nan), r)


def _xlogy(x, y):
    with np.errstate(all="ignore"):
        r = x * np.log(y)
    # torch: 0 where x == 0, unless y is nan
    return np.where((x == 0) & ~np.isnan(y), np.zeros((), r.dtype), r)


def xlogy_scalar_self(self, other):
    if not isinstance(other, Tensor):
        raise TypeError(f"xlogy: argument 'other' must be Tensor, not {type(other).__name__}")
    dt = _float_dtype(self, other)
    if dt._cat == 3:
        raise NotImplementedError(f"\"xlogy_cpu\" not implemented for '{D.legacy_name(dt)}'")
    return out(cast(np.asarray(_xlogy(np.asarray(self, dtype=dt.np), data_as(other, dt))), dt), other)


def sinc(self):
    """``sin(pi x) / (pi x)`` and 1 at 0; integral inputs in the default dtype, half and bfloat16 in
    float32 rounded once (torch's compute type), complex inputs too."""
    x = self._data
    if x.dtype not in INEXACT:
        x = x.astype(D.get_default_dtype().np)
    work = np.float32 if x.dtype.itemsize == 2 and x.dtype.kind in "fV" else x.dtype
    with np.errstate(all="ignore"):
        return out(np.asarray(np.sinc(x.astype(work, copy=False))).astype(x.dtype, copy=False), self)


def heaviside(self, values):
    check_same_device("aten::heaviside", self, values)
    if self.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    if self.dtype._cat >= 3:
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    x, v = self._data, values._data
    try:
        r = np.where(x == 0, v, (x > 0).astype(x.dtype))
    except ValueError:
        return _general(lambda a, b: a, self, values, "aten::heaviside")  # raises the broadcast error
    return out(np.asarray(r).astype(x.dtype, copy=False), self)


def _frac(self):
    x = self._data
    if x.dtype not in INEXACT:
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    return out(x - np.trunc(x), self)


def _sgn(self):
    x = self._data
    if x.dtype.kind == "c":
        mag = np.abs(x)
        with np.errstate(all="ignore"):
            return out(np.where(mag == 0, 0, x / np.where(mag == 0, 1, mag)).astype(x.dtype), self)
    return _UNARY["sign"](self)


_c_name = D.c_type_name


def lerp_tensor(self, end, weight):
    check_same_device("aten::lerp", self, end, weight)
    lerp_checks(self, (("end", end), ("weight", weight)), "lerp_kernel_tensor")
    try:
        shape = np.broadcast_shapes(self._data.shape, end._data.shape, weight._data.shape)
    except ValueError:
        return _general(lambda a, b: a, self, end if end._data.shape != self._data.shape else weight, "aten::lerp")
    x, e, w = (np.broadcast_to(t._data, shape) for t in (self, end, weight))
    return out(lerp_arrays(x, e, w, self.dtype), self)


def _inplace(fn, name):
    op_name = "aten::" + name

    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, op_name)
    kernel.__name__ = name.replace(".", "_")
    return kernel


KERNELS = {
    "atan2": float_binary(np.arctan2, "atan2"),
    "hypot": float_binary(np.hypot, "hypot"),
    "logaddexp": float_binary(_logaddexp, "logaddexp"),
    "copysign.Tensor": real_only(float_binary(np.copysign, "copysign.Tensor"), "copysign"),
    "copysign.Scalar": real_only(float_binary(np.copysign, "copysign.Scalar"), "copysign"),
    "heaviside": heaviside,
    "sinc": sinc,
    "xlogy.Tensor": real_only(float_binary(_xlogy, "xlogy.Tensor"), "xlogy"),
    "xlogy.Scalar_Other": real_only(float_binary(_xlogy, "xlogy.Scalar_Other"), "xlogy"),
    "xlogy.Scalar_Self": xlogy_scalar_self,
    "frac": _frac,
    "sgn": _sgn,
    "lerp.Tensor": lerp_tensor,
}
_INPLACE_OF = {
    "atan2_": "atan2", "hypot_": "hypot", "copysign_.Tensor": "copysign.Tensor",
    "copysign_.Scalar": "copysign.Scalar", "heaviside_": "heaviside", "sinc_": "sinc",
    "xlogy_.Tensor": "xlogy.Tensor", "xlogy_.Scalar_Other": "xlogy.Scalar_Other", "frac_": "frac",
    "sgn_": "sgn", "lerp_.Tensor": "lerp.Tensor",
}
_OTHER = {**_PW, **_MISC, **_SHAPE}
for _name, _of in _INPLACE_OF.items():
    KERNELS[_name] = _inplace(KERNELS[_of], _name)
for _name in ("trunc", "floor", "ceil", "round", "reciprocal", "rsqrt", "square", "log2", "log10", "log1p",
              "tan", "erf"):
    KERNELS[_name + "_"] = _inplace(_UNARY.get(_name) or _NN[_name], _name + "_")
KERNELS["lerp_.Scalar"] = _inplace(_PW["lerp.Scalar"], "lerp_.Scalar")
KERNELS["clamp_min_"] = _inplace(_PW["clamp_min"], "clamp_min_")
KERNELS["clamp_max_"] = _inplace(_PW["clamp_max"], "clamp_max_")
KERNELS["nan_to_num_"] = _inplace(_nan_to_num, "nan_to_num_")
for _name, _of in (("exp2_", "exp2"), ("fmod_.Scalar", "fmod.Scalar"), ("fmod_.Tensor", "fmod.Tensor"),
                   ("tril_", "tril"), ("triu_", "triu"), ("round_.decimals", "round.decimals")):
    KERNELS[_name] = _inplace(_OTHER[_of], _name)

POINTWISE = {n for n in KERNELS if not n.split(".")[0].endswith("_")}

# Operators declared one at a time (``_declare.py``); ``make gen`` indexes them.
OPS = OpTable()
_logaddexp2 = float_binary(np.logaddexp2, "logaddexp2")


@OPS.op("logaddexp2(Tensor self, Tensor other) -> Tensor", kind="pointwise",
        out="logaddexp2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
def logaddexp2(self, other):
    """log2(2**self + 2**other) without overflow; floating types only, as torch's CPU kernel."""
    dt = tensor_result_dtype(self, other)
    if dt._cat != 2:
        raise NotImplementedError(f"\"logaddexp2_cpu\" not implemented for '{D.legacy_name(dt)}'")
    return _logaddexp2(self, other)
