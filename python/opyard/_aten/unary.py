"""Unary pointwise kernels (numpy): math on floats, sign/rounding on any dtype, activations.

torch computes the transcendental functions of integer and bool tensors in the
default floating dtype; rounding of integers is the identity; ``abs``/``neg``
keep the dtype (and refuse bool where torch does).
"""

import numpy as np

from .. import _core
from .. import _dtype as D
from .common import INEXACT, inplace_result, out, quietly
from .precision import upcast

__all__ = ["KERNELS"]


def _floating(x):
    return x if x.dtype in INEXACT else x.astype(D.get_default_dtype().np)


# From this many elements, bfloat16 math runs in float32 (see ``_in_float32``).
_BF16_WIDE_MIN = 1 << 12


def _in_float32(fn, x):
    """``fn`` of bfloat16 data ``x`` computed in float32 and rounded once to bfloat16 (in Rust, on the
    pool): what ml_dtypes' own loop does element by element (the same values), several times faster."""
    r = fn(x.astype(np.float32))
    bits = _core._round_to_bf16(r) if r.flags.c_contiguous else None
    return bits.view(x.dtype) if bits is not None else r.astype(x.dtype)


# The dtypes each function runs in one Rust pass (``_core._unary_math``, see Note [Unary math in one
# pass] in src/kernels/unary_math.rs): ``exp`` of float32 and of 16-bit data with the vectorised exp,
# float64 ``sin``/``cos`` with the C library's functions (numpy's values) across the thread pool.
_RUST_UNARY = {"exp": ("float32", "bfloat16", "float16"), "sin": ("float64",), "cos": ("float64",)}
_HALF_CODES = {"bfloat16": 1, "float16": 2}


def _rust_call(x, name):
    code = _HALF_CODES.get(x.dtype.name, 0)
    if not code:
        return _core._unary_math(x, name, 0)
    bits = _core._unary_math(x.view(np.uint16), name, code)
    return None if bits is None else bits.view(x.dtype)


def _rust_unary(x, name, dtypes):
    """``name`` of ``x`` in one Rust pass, the result in ``x``'s memory order (numpy's ``"K"``, as
    torch's result strides follow the input's), so every layout gets the same values; ``None`` for
    another dtype."""
    if x.dtype.name not in dtypes:
        return None
    if x.flags.c_contiguous:
        return _rust_call(x, name)
    if not x.flags.f_contiguous:  # strided: a dense copy in the same axis order
        x = x.copy(order="K")
    perm = np.argsort([-st for st in x.strides], kind="stable")
    xt = x.transpose(perm)
    r = _rust_call(xt, name) if xt.flags.c_contiguous else None
    return None if r is None else r.transpose(np.argsort(perm))


def float_unary(fn, name):
    """``fn`` on the data, integral inputs first converted to the default float; large contiguous data
    of the dtypes ``_RUST_UNARY`` lists in one Rust pass."""
    dtypes = _RUST_UNARY.get(name, ())

    def kernel(self):
        x = self._data
        if x.dtype not in INEXACT:
            x = x.astype(D.get_default_dtype().np)
        if x.size >= _BF16_WIDE_MIN:
            if dtypes:
                r = _rust_unary(x, name, dtypes)
                if r is not None:
                    return out(r, self)
            if x.dtype.kind == "V":
                return out(_in_float32(fn, x), self)
        return out(fn(x), self)
    kernel.__name__ = name
    return kernel


def quiet_float_unary(fn, name):
    """``float_unary`` for functions with a domain (log, sqrt, ...): inf/nan without numpy warnings,
    as torch (``common.quietly``: numpy's error state for the call; the hottest functions rely on the
    module warning filter instead)."""
    def kernel(self):
        x = self._data
        if x.dtype not in INEXACT:
            x = x.astype(D.get_default_dtype().np)
        if x.dtype.kind == "V" and x.size >= _BF16_WIDE_MIN:
            return out(quietly(_in_float32, fn, x), self)
        return out(quietly(fn, x), self)
    kernel.__name__ = name
    return kernel


def same_unary(fn, name):
    def kernel(self):
        return out(fn(self._data), self)
    kernel.__name__ = name
    return kernel


def _no_bool(name, message):
    def check(self):
        if self._data.dtype.kind == "b":
            raise NotImplementedError(message)
    return check


_neg_bool = _no_bool("neg", "Negation, the `-` operator, on a bool tensor is not supported. If you are "
                     "trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def neg(self):
    _neg_bool(self)
    return out(np.negative(self._data), self)


def abs(self):
    x = self._data
    return out(x.copy() if x.dtype.kind == "b" else np.abs(x), self)


def sign(self):
    x = self._data
    if x.dtype.kind == "c":
        raise RuntimeError("Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                           "torch.sgn instead. (aten::sign)")
    return out(x.copy() if x.dtype.kind == "b" else np.sign(x), self)


def _rounding(fn, name):
    def kernel(self):
        x = self._data
        if x.dtype.kind == "c":
            raise RuntimeError(f"{name} is not supported for complex inputs (aten::{name})")
        return out(x.copy() if x.dtype.kind in "biu" else fn(x), self)
    kernel.__name__ = name
    return kernel


def square(self):
    x = self._data
    return out(np.multiply(x, x, dtype=np.int64) if x.dtype.kind == "b" else np.square(x), self)


def _sigmoid(x):
    return np.reciprocal(np.exp(-x) + 1)


def _rsqrt(x):
    """``1 / sqrt(x)`` rounded once: 16-bit data in float32 (torch's compute type), not twice in its own."""
    if x.itemsize == 2 and x.dtype.kind in "fV":
        return np.reciprocal(np.sqrt(x.astype(np.float32))).astype(x.dtype)
    return np.reciprocal(np.sqrt(x))


def relu(self):
    """torch's ``clamp_min(x, 0)``: a float ``-0.0`` stays ``-0.0`` (numpy's ``maximum`` gives ``0.0``)."""
    x = self._data
    if x.dtype.kind == "f" and x.itemsize > 2:
        # float32/float64: Rust at every size (0.4 us, numpy's ``where`` 2 us), the same values: an
        # element below 0 becomes 0, any other (-0.0, nan) stays; None when not C-contiguous.
        r = _core._clamp_scalars(x, 0.0, None)
        if r is not None:
            return out(r, self)
    if x.dtype.kind == "b":
        raise RuntimeError("\"clamp_min_cpu\" not implemented for 'Bool' (aten::relu)")
    zero = x.dtype.type(0)
    if x.dtype.kind not in "fV":
        return out(np.maximum(x, zero), self)
    if x.itemsize == 2:  # a 16-bit float's comparison with nan warns in numpy
        with np.errstate(invalid="ignore"):
            return out(np.where(x < zero, zero, x), self)
    return out(np.where(x < zero, zero, x), self)


def silu(self):
    x = _floating(self._data)
    w = x.astype(np.float32) if x.dtype.itemsize < 4 and x.dtype.kind != "c" else x  # float16/bfloat16 in float32
    r = _core._fused_silu(w) if w.flags.c_contiguous else None  # one pass in Rust
    if r is None:
        r = w * _sigmoid(w)
    return out(r.astype(x.dtype, copy=False), self)


def sigmoid(self):
    """One pass in Rust for contiguous real data (or its transpose; float16/bfloat16 computed in
    float32 and rounded once, as torch); numpy's three passes for the other layouts and complex data."""
    x = self._data
    if x.dtype not in INEXACT:
        x = x.astype(D.get_default_dtype().np)
    if x.dtype.kind == "c":
        return out(_sigmoid(x), self)
    w = x.astype(np.float32) if x.dtype.itemsize < 4 else x  # order "K": the layout is kept
    r = None
    if w.flags.c_contiguous:
        r = _core._fused_sigmoid(w)
    elif w.flags.f_contiguous:  # a transposed matrix keeps its layout, as torch's result does
        r = _core._fused_sigmoid(w.T)
        r = None if r is None else r.T
    if r is None:
        r = _sigmoid(w)
    return out(r.astype(x.dtype, copy=False), self)


def leaky_relu(self, negative_slope=0.01):
    x = self._data
    if x.dtype not in INEXACT:
        raise RuntimeError(f"\"leaky_relu_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    # torch reads the slope in the compute type: half-precision data is scaled in float32 (by the
    # float32 slope, not one rounded to the half type) and rounded once.
    w = upcast(x)
    return out(np.where(x > 0, x, (w * negative_slope).astype(x.dtype)), self)


def logical_not(self):
    return out(np.logical_not(self._data), self)


KERNELS = {
    "neg": neg, "abs": abs, "sign": sign, "square": square, "relu": relu, "silu": silu, "sigmoid": sigmoid,
    "leaky_relu": leaky_relu, "logical_not": logical_not,
    "floor": _rounding(np.floor, "floor"), "ceil": _rounding(np.ceil, "ceil"),
    "round": _rounding(np.round, "round"), "trunc": _rounding(np.trunc, "trunc"),
    "isnan": same_unary(np.isnan, "isnan"), "isinf": same_unary(np.isinf, "isinf"),
    "isfinite": same_unary(np.isfinite, "isfinite"),
}
for _name, _fn in (("exp", np.exp), ("expm1", np.expm1), ("sin", np.sin), ("cos", np.cos),
                   ("tan", np.tan), ("tanh", np.tanh)):
    KERNELS[_name] = float_unary(_fn, _name)
for _name, _fn in (("log", np.log), ("log2", np.log2), ("log10", np.log10), ("log1p", np.log1p),
                   ("sqrt", np.sqrt), ("rsqrt", _rsqrt), ("reciprocal", np.reciprocal)):
    KERNELS[_name] = quiet_float_unary(_fn, _name)


def _inplace(fn, name):
    def kernel(self):
        return inplace_result(self, fn(self)._data, "aten::" + name)
    kernel.__name__ = name
    return kernel


for _name in ("abs", "neg", "exp", "log", "sin", "cos", "tanh", "sqrt", "sigmoid", "relu", "sign", "expm1"):
    KERNELS[_name + "_"] = _inplace(KERNELS[_name], _name + "_")

POINTWISE = set(KERNELS)
