"""``linspace`` and ``logspace``: ``steps`` values evenly spaced from ``start`` to ``end`` (for
``logspace`` the exponents of ``base``), computed as torch's CPU kernels compute them.

torch converts ``start`` and ``end`` to the result's element type first (an integral dtype
truncates them) and steps in double precision for integral types (floating: in the element type,
complex: in the complex type; ``logspace`` takes the power in double) before converting to the
element type; the first half of the values count up from ``start`` and the second half down from
``end``, so both ends are exact. The ``Tensor`` overloads take 0-dimensional tensors and read
their values.
"""

import numpy as np

from .. import _dtype as D
from ._declare import OpTable
from .common import A, Tensor, _make_meta, quietly
from .factory import _new, torch_linspace

__all__ = ["OPS"]

OPS = OpTable()

_REAL_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}


def _as(value, dt):
    """A Python number as an element of ``dt`` (torch's ``Scalar::to``: truncation for integers)."""
    if dt._cat == 3:
        return dt.np.type(complex(value))
    if dt._cat == 2:
        v = float(value.real if isinstance(value, complex) else value)
        if dt is D.float64:  # the cast below keeps every double
            return v
        if dt is D.float32:  # numpy's scalar rounds as its cast does, without an array
            return float(np.float32(v))
        return float(np.asarray(v).astype(dt.np))
    return int(value.real if isinstance(value, complex) else value)


def _values(start, end, steps, base, dt):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dt is D.bool or dt.name.startswith("float8"):
        raise NotImplementedError(f"\"logspace_cpu\" not implemented for '{D.legacy_name(dt)}'")
    np_dt = dt.np
    if steps == 0:
        return np.empty(0, dtype=np_dt)
    i = np.arange(steps)
    with np.errstate(all="ignore"):
        if dt._cat == 3:
            if steps == 1:
                return np.full(1, complex(base) ** complex(start), dtype=np_dt)
            T = np_dt.type
            s, e, b = _as(start, dt), _as(end, dt), T(base)
            step = (e - s) / T(steps - 1)
            k = i.astype(np_dt)
            up = b ** (s + step * k)
            down = b ** (e - step * (T(steps) - k - T(1)).astype(np_dt))
            return np.where(i < steps // 2, up, down).astype(np_dt)
        if steps == 1:
            v = float(base) ** float(start.real if isinstance(start, complex) else start)
            return _cast(np.full(1, v), dt)
        s, e = _as(start, dt), _as(end, dt)
        step = float(e - s) / (steps - 1)
        up = float(base) ** (s + step * i)
        down = float(base) ** (e - step * (steps - i - 1))
        return _cast(np.where(i < steps // 2, up, down), dt)


def _linspace_values(start, end, steps, dt):
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if dt is D.bool or dt.name.startswith("float8"):
        raise NotImplementedError(f"\"linspace_cpu\" not implemented for '{D.legacy_name(dt)}'")
    if steps == 0:
        return np.empty(0, dtype=dt.np)
    if steps == 1:  # torch fills with start
        return _fill_value(start, dt)
    if dt is D.float32 or dt is D.float64:  # (torch_linspace rounds the ends to ``dt`` itself)
        return quietly(lambda: torch_linspace(_as(start, D.float64), _as(end, D.float64), steps, dt.np))
    with np.errstate(all="ignore"):
        i = np.arange(steps)
        half = i < steps // 2
        if dt._cat == 1:
            s, e = _as(start, dt), _as(end, dt)
            step = (float(e) - float(s)) / (steps - 1)
            return _cast(np.where(half, s + step * i, e - step * (steps - i - 1)), dt)
        # floating and complex types step in their own precision (half precision: in float32)
        T = np.dtype(np.float32) if dt._cat == 2 and dt.itemsize < 4 else dt.np
        T = T.type
        s, e = T(_as(start, dt)), T(_as(end, dt))
        step = (e - s) / T(steps - 1)
        up = s + step * i.astype(T)
        down = e - step * (T(steps - 1) - i.astype(T))
        return np.where(half, up, down).astype(dt.np)


def _fill_value(v, dt):
    """``[v]`` as ``dt`` (torch's ``fill_(start)``: an integral type truncates a float)."""
    if dt._cat == 3:
        return np.full(1, complex(v), dtype=dt.np)
    if isinstance(v, complex):
        v = v.real
    if dt._cat == 1 and isinstance(v, int):
        return np.full(1, v, dtype=np.int64).astype(dt.np)
    return _cast(np.full(1, float(v)), dt)


def _cast(values, dt):
    """Doubles as elements of ``dt`` (C's conversion: integers truncate toward zero)."""
    if dt._cat == 1:
        info = np.iinfo(dt.np)
        t = np.trunc(values)
        return np.where(np.isfinite(t), np.clip(t, info.min, info.max), 0).astype(dt.np)
    return values.astype(dt.np)


def _scalar(v):
    """``v``'s value: a number, or a 0-dimensional tensor's (torch's ``item()``)."""
    if isinstance(v, Tensor):
        return v.item()
    return v


def _check_tensors(start, end, api="logspace"):
    ds = start.dim() if isinstance(start, Tensor) else 0
    de = end.dim() if isinstance(end, Tensor) else 0
    if ds or de:
        raise RuntimeError(f"{api} only supports 0-dimensional start and end tensors, but got start with {ds} "
                           f"dimension(s) and end with {de} dimension(s).")


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    _check_tensors(start, end)
    dt = dtype if dtype is not None else D.get_default_dtype()
    return _new(_values(_scalar(start), _scalar(end), steps, base, dt), device)


def _meta(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, pin_memory=None):
    _check_tensors(start, end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return _make_meta((int(steps),), dtype if dtype is not None else D.get_default_dtype())


def _out_kernel(overload):
    """``logspace(..., out=)``: the values computed in ``out``'s dtype on ``out``'s device (torch's
    out= form takes both from ``out``), then written into it."""
    functional = "logspace" + overload.replace(".", "__")
    name = f"aten::logspace.{overload[1:] + '_' if overload else ''}out"

    def kernel(start, end, steps, base=10.0, *, out):
        # out_variants reads the generated index, which lists this module's operators: imported here.
        from .out_variants import write_out

        result = getattr(A, functional)(start, end, steps, base, dtype=out.dtype, device=out.device)
        return write_out(name, result, out)
    kernel.__name__ = name.split("::")[1].replace(".", "_")
    return kernel


_OPTIONS = "*, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"
for _overload, _args in (("", "Scalar start, Scalar end"), (".Tensor_Tensor", "Tensor start, Tensor end"),
                         (".Tensor_Scalar", "Tensor start, Scalar end"), (".Scalar_Tensor", "Scalar start, Tensor end")):
    OPS.op(f"logspace{_overload}({_args}, int steps, float base=10.0, {_OPTIONS}) -> Tensor", kind="factory",
           meta=_meta)(logspace)
    OPS.op(f"logspace.{_overload[1:] + '_' if _overload else ''}out({_args}, int steps, float base=10.0, *, "
           "Tensor(a!) out) -> Tensor(a!)", kind="composite")(_out_kernel(_overload))


def _is_complex(v):
    return v.dtype.is_complex if isinstance(v, Tensor) else isinstance(v, complex)


def _linspace_dtype(start, end, dtype):
    """The given dtype, else the default one (its complex form when an end is complex)."""
    if dtype is not None:
        return dtype
    complex_ = _is_complex(start) or _is_complex(end)
    default = D.get_default_dtype()
    return default.to_complex() if complex_ else default


def linspace(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    _check_tensors(start, end, "linspace")
    dt = _linspace_dtype(start, end, dtype)
    return _new(_linspace_values(_scalar(start), _scalar(end), steps, dt), device)


def _linspace_meta(start, end, steps, *, dtype=None, layout=None, device=None, pin_memory=None):
    _check_tensors(start, end, "linspace")
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    return _make_meta((int(steps),), _linspace_dtype(start, end, dtype))


for _overload, _args in (("", "Scalar start, Scalar end"), (".Tensor_Tensor", "Tensor start, Tensor end"),
                         (".Tensor_Scalar", "Tensor start, Scalar end"), (".Scalar_Tensor", "Scalar start, Tensor end")):
    OPS.op(f"linspace{_overload}({_args}, int steps, {_OPTIONS}) -> Tensor", kind="factory",
           meta=_linspace_meta)(linspace)
