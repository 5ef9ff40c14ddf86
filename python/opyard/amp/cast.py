"""torch's ``at::autocast`` helpers: ``cached_cast``, ``promote_type`` and the plain ``_cast``.

A tensor is *eligible* for a device type when it is floating point, not
float64, and lives on that device type. ``device_type=None`` means each
tensor's own device (so the helpers work on CPU tensors without naming
``"cpu"``; torch's C++ default is CUDA).
"""

import collections.abc
import weakref

from .. import _dtype
from .._tensor import Tensor
from .autocast_mode import INDEX, KEYS, STATE, kernel_device_of

__all__ = ["cached_cast", "cast_value", "promote_type"]

_f32 = _dtype.float32
_f64 = _dtype.float64


def _eligible(t, device_type):
    dt = t.dtype
    if not dt.is_floating_point or dt is _f64:
        return False
    kind = t.device.type
    return kind == device_type if device_type is not None else kind in KEYS


def _check(dtype, device_type, api):
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"{api}: argument 'dtype' must be opyard.dtype, not {type(dtype).__name__}")
    return None if device_type is None else kernel_device_of(device_type, api)


def cached_cast(dtype, value, device_type=None):
    """``value`` cast to ``dtype`` if it is an eligible tensor (lists and tuples are walked).

    Ineligible tensors (float64, integer, another device) and non-tensors come
    back unchanged. Inside an ``autocast`` region with the cache enabled, the
    cast of a float32 leaf tensor that requires grad (a weight) to the region's
    dtype is made once and reused until the outermost region exits::

        >>> w = opyard.randn(2, requires_grad=True)
        >>> with opyard.autocast("cpu"):
        ...     cached_cast(opyard.bfloat16, w) is cached_cast(opyard.bfloat16, w)
        True
    """
    return _cached_cast(dtype, value, _check(dtype, device_type, "cached_cast()"))


def _cached_cast(dtype, value, device_type):
    """``cached_cast`` with its arguments checked (what the policy kernels call)."""
    if isinstance(value, Tensor):
        if value.dtype is dtype or not _eligible(value, device_type):
            return value
        if (STATE.nesting and STATE.cache_enabled and value.dtype is _f32 and value.requires_grad
                and value.is_leaf and value._base is None
                and dtype is STATE.dtype[INDEX[device_type or value.device.type]]):
            return _cache_lookup(dtype, value)
        return value.to(dtype)
    if isinstance(value, list):
        return [_cached_cast(dtype, v, device_type) for v in value]
    if isinstance(value, tuple):
        return type(value)([_cached_cast(dtype, v, device_type) for v in value])
    return value


def _cache_lookup(dtype, value):
    # Keyed by id() with a weak reference to check that the id still names the same tensor
    # (torch keys by TensorImpl* for the same reason). The dtype is part of the key so a
    # nested region with another dtype never receives a cast made for the outer one.
    key = (id(value), dtype)
    hit = STATE.cache.get(key)
    if hit is not None and hit[0]() is value:
        return hit[1]
    out = value.to(dtype)
    STATE.cache[key] = (weakref.ref(value), out)
    return out


def promote_type(dtype, *tensors, device_type=None):
    """The widest floating dtype among ``dtype`` and the eligible ``tensors`` (torch's ``prioritize``).

    float32 wins over the lower-precision dtype; float64 tensors and
    ineligible values are ignored. Mixing two different lower-precision
    dtypes (float16 with bfloat16) is an error, as in torch::

        >>> promote_type(opyard.float16, opyard.ones(1), opyard.ones(1, dtype=opyard.float16))
        opyard.float32
    """
    return _promote_type(dtype, tensors, _check(dtype, device_type, "promote_type()"))


def _promote_type(current, values, device_type):
    if current is _f64:
        raise RuntimeError("promote_type(): promote type is double (opyard.float64); autocast never runs an op "
                           "in double: start from the lower-precision dtype, e.g. opyard.float16")
    for value in values:
        if isinstance(value, (list, tuple)):
            current = _promote_type(current, value, device_type)
        elif isinstance(value, Tensor) and _eligible(value, device_type):
            current = _prioritize(current, value, device_type)
    return current


def _prioritize(current, t, device_type):
    nxt = t.dtype
    if current is _f32 or nxt is _f32:
        return _f32
    device = device_type or t.device.type
    lower = STATE.dtype[INDEX[device]]
    if current is lower and nxt is lower:
        return lower
    raise RuntimeError(
        f"promote_type(): unexpected floating dtype {nxt} (a {device} tensor) against {current}, while the "
        f"{device} autocast dtype is {lower}: cast the inputs to that dtype or to opyard.float32")


def cast_value(value, device_type, dtype):
    """torch's ``amp._cast``: eligible tensors in ``value`` (containers walked) cast to ``dtype``, uncached."""
    if isinstance(value, Tensor):
        return value.to(dtype) if _eligible(value, device_type) else value
    if isinstance(value, (str, bytes)) or type(value).__module__ == "numpy":
        return value
    if isinstance(value, collections.abc.Mapping):
        return {cast_value(k, device_type, dtype): cast_value(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(cast_value(v, device_type, dtype) for v in value)
    if isinstance(value, collections.abc.Iterable):
        return (cast_value(v, device_type, dtype) for v in value)
    return value

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
