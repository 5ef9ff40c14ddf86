"""Python numbers meeting a tensor's element type: torch's rules, decided in this module only.

A ``Scalar`` argument reaches a kernel as a Python number; how it becomes a value of the
computation's element type depends on what the operator does with it, and torch has three rules
(measured on torch 2.15; every kernel taking a Scalar asks one of the functions below):

``wrapped(value, dt)``
    The number is an operand (arithmetic, comparisons, bitwise ops, ``bucketize``): torch wraps it
    into a 0-d tensor and converts it to the computation dtype as C++ does (``static_cast``): an
    integer outside an integral type wraps around (``uint8 >= -2`` compares with 254, ``int8 +
    1000`` adds -24), a float past a floating type's range becomes infinite. ``operand`` applies
    this to an operand of a binary kernel, a 0-d tensor of another dtype included.
``checked(value, dt)``
    The number is stored or scales (``fill_``, ``full``, ``masked_fill``, ``index_fill``,
    ``scatter(value=)``, ``where``, ``constant_pad_nd``, the exponent of ``pow``, ``alpha``,
    ``value`` of ``addcmul``; ``where``, except for half types: ``selected``): torch's
    ``checked_convert`` refuses a value the type cannot hold
    ("value cannot be converted to type uint8_t without overflow"); unsigned types take negative
    integers down to ``-max`` (wrapped), floating types take inf and nan, bool takes anything.
``clamp_limit(value, dt, which)``
    A bound of ``clamp``/``clamp_min``/``clamp_max`` on an integral type: a bound past the far end
    of the type's range is refused ("Clamp min value 300 is outside the representable range of
    Byte"), one past the near end bounds nothing; a floating type checks as ``checked``.

Python integers outside ``[-2**63, 2**64)`` never get here: the binder refuses them as torch's
argument parser does (an OverflowError).
"""

import math

import numpy as np

from .. import _dtype as D

__all__ = ["wrapped", "operand", "selected", "checked", "checked_of", "clamp_limit", "overflow_error"]

# torch's C++ element type names, as its "value cannot be converted to type int64_t" messages print them.
_C_TYPES = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t",
            "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t", "float32": "float",
            "float64": "double", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
# Per dtype name: (C type, category, lowest, highest) the values a conversion checks against (for
# floating and complex types, the largest finite magnitude of one component), made once.
_RANGE = {}
for _n, _c in _C_TYPES.items():
    if not hasattr(np, _n):
        continue
    if _n[0] in "iu":
        _info = np.iinfo(getattr(np, _n))
        _RANGE[_n] = (_c, 1, int(_info.min), int(_info.max))
    else:
        _top = float(np.finfo(getattr(np, _n)).max)
        _RANGE[_n] = (_c, 3 if _n.startswith("complex") else 2, -_top, _top)
# bfloat16 is ml_dtypes', not numpy's: its largest finite value written out.
_RANGE["float16"] = ("c10::Half", 2, -65504.0, 65504.0)
_RANGE["bfloat16"] = ("c10::BFloat16", 2, -3.3895313892515355e38, 3.3895313892515355e38)
del _n, _c


def overflow_error(c_type):
    """torch's ``checked_convert`` error for the C type ``c_type`` (``uint8_t``, ``c10::Half``)."""
    return RuntimeError(f"value cannot be converted to type {c_type} without overflow")


def wrapped(value, dt):
    """``value`` (a Python number) as an operand of a computation whose operands are of dtype
    ``dt`` (C++'s conversion): an integer outside an integral ``dt`` wraps around, a number meeting
    half-precision data is rounded to that type first (inf past its range: ``remainder(half, 1e6)``
    divides by inf); anything else passes unchanged (numpy rounds a Python float into a float32
    array's type itself). Multiplication and division keep the number in the computation's
    precision instead (``operand(..., keep=True)``)."""
    if type(value) is int and dt._cat == 1:
        spec = _RANGE.get(dt.name)
        if spec is not None and not spec[2] <= value <= spec[3]:
            bits = 8 * dt.itemsize
            value &= (1 << bits) - 1
            if spec[2] and value > spec[3]:
                value -= 1 << bits
    elif dt._cat == 2 and dt.itemsize == 2 and type(value) in (int, float):
        with np.errstate(over="ignore"):
            return dt.np.type(value)
    return value


def operand(x, dt, cdt, keep=False):
    """The operand ``x`` (a tensor or a Python number) of a binary kernel whose result dtype is ``dt``,
    as the value the computation in ``cdt`` (``precision.compute_dtype(dt)``) reads.

    torch's TensorIterator converts every operand to the common dtype ``dt`` first: a Python number
    (``wrapped``) and a 0-d tensor of another dtype meeting half-precision data are rounded to the
    half type (``half + 0.1`` adds ``0.0999755859375``; so do ``sub``, ``rsub`` and their ``alpha``,
    ``pow``'s exponent, ``atan2``, ``fmod``, ...), and the kernel then computes in ``cdt``. ``keep``
    is the exception of torch's ``mul``, ``div`` and the rounding divisions, whose kernels read a
    scalar ``other`` in the computation type directly (``half * 0.1`` multiplies by
    ``float32(0.1)``): pass it for their second operand only."""
    if not hasattr(x, "_data"):  # a Python number
        return wrapped(x, cdt if keep else dt)
    a = x._data
    if not keep and a.dtype != dt.np:
        a = a.astype(dt.np)
    return a if a.dtype == cdt.np else a.astype(cdt.np)


def selected(value, dt):
    """``value`` as ``where`` takes a Scalar for a branch of dtype ``dt``: ``checked``, except that
    half-precision types round it (to inf past their range) as torch's ``where`` does."""
    if dt._cat == 2 and dt.itemsize == 2:
        return wrapped(value, dt)
    return checked(value, dt)


def checked(value, dt):
    """torch's ``checked_convert`` of a Scalar to the element type of ``dt``: the value to store,
    or RuntimeError when ``dt`` cannot hold it. As in torch, bool takes anything, a floating type
    takes inf and nan but no finite value past its largest, an integral type truncates a float,
    and unsigned types take ints down to ``-max`` (wrapped)."""
    spec = _RANGE.get(dt.name)
    tv = type(value)
    if spec is None:
        return value
    name, cat, lo, hi = spec
    if tv is complex:
        if cat == 3:
            if any(math.isfinite(p) and abs(p) > hi for p in (value.real, value.imag)):
                raise overflow_error(name)
            return value
        if value.imag != 0:
            raise overflow_error(name)
        value, tv = value.real, float
    if cat == 1:
        if tv is float:
            if not math.isfinite(value) or not lo <= math.trunc(value) <= hi:
                raise overflow_error(name)
            value = math.trunc(value)
            return value + hi + 1 if value < 0 and not lo else value
        if tv is int and not (lo or -hi) <= value <= hi:
            raise overflow_error(name)
        if tv is int and value < 0 and not lo:
            return value + hi + 1
    elif (tv is int or tv is float and math.isfinite(value)) and abs(value) > hi:
        raise overflow_error(name)
    return value


def checked_of(value, arr):
    """``checked`` to the dtype of the array ``arr``, answering at once for the values every dtype
    holds (small non-negative ints, floats a half holds for a floating array): the common fills."""
    if (type(value) is int and 0 <= value <= 127
            or type(value) is float and arr.dtype.kind == "f" and -65504.0 <= value <= 65504.0):
        return value
    return checked(value, D.FROM_NP[arr.dtype])


def clamp_limit(value, dt, which):
    """A Scalar bound of clamp (``which`` is ``"min"`` or ``"max"``) in the computation dtype
    ``dt``: the bound to apply, ``None`` when it bounds nothing (an integral type's values all lie
    on its side), or torch's RuntimeError when no value of ``dt`` can satisfy it."""
    if dt._cat != 1 or type(value) not in (int, float):
        return checked(value, dt) if dt._cat >= 2 else value
    lo, hi = _RANGE[dt.name][2:]
    if value > hi if which == "min" else value < lo:
        raise RuntimeError(f"Clamp {which} value {value:g} is outside the representable range of "
                           f"{D.legacy_name(dt)}")
    if value < lo if which == "min" else value > hi:
        return None
    return math.trunc(value) if type(value) is float else value
