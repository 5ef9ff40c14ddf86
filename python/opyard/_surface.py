"""Small functions of torch's top-level namespace that are no operators, or whose Python signature
is not their operator's: predicates (``is_complex``, ``is_conj``, ``is_neg``), ``typename``,
``get_device``, ``can_cast``, ``chain_matmul`` (matrices as arguments), ``range`` (with torch's
deprecation warning) and the constants ``e``, ``pi``, ``inf``, ``nan``, ``newaxis``.
"""

import math as _math
import warnings

import numpy as np

from . import _dtype as D
from ._factories import from_numpy, tensor
from ._ops import ops as _ops
from ._tensor import Tensor
from ._aten.switches import DEFAULT
from ._aten.switches import (are_deterministic_algorithms_enabled, get_default_device,  # noqa: F401
                             get_deterministic_debug_mode, set_default_device,
                             get_float32_matmul_precision, get_num_interop_threads, init_num_threads,
                             is_deterministic_algorithms_warn_only_enabled, is_warn_always_enabled,
                             set_deterministic_debug_mode, set_float32_matmul_precision, set_flush_denormal,
                             set_num_interop_threads, set_warn_always, use_deterministic_algorithms)

# torch's process-wide switches (``_aten/switches.py`` says what each does here)
_SWITCHES = ("use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
             "is_deterministic_algorithms_warn_only_enabled", "get_deterministic_debug_mode",
             "set_deterministic_debug_mode", "set_warn_always", "is_warn_always_enabled",
             "get_float32_matmul_precision", "set_float32_matmul_precision", "get_num_interop_threads",
             "set_num_interop_threads", "init_num_threads", "set_flush_denormal", "get_default_device",
             "set_default_device")

__all__ = ["is_complex", "is_conj", "is_neg", "typename", "get_device", "can_cast", "chain_matmul", "range",
           "asarray", "frombuffer", "e", "pi", "inf", "nan", "newaxis", *_SWITCHES]

_A = _ops.aten

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None


def _tensor_arg(api, obj, name="input"):
    if not isinstance(obj, Tensor):
        raise TypeError(f"{api}(): argument '{name}' (position 1) must be Tensor, not {type(obj).__name__}")
    return obj


def is_complex(input):
    """Whether ``input``'s dtype is complex."""
    return _tensor_arg("is_complex", input).is_complex()


def is_conj(input):
    """Whether ``input``'s conjugate bit is set (opyard conjugates eagerly: never)."""
    return _tensor_arg("is_conj", input).is_conj()


def is_neg(input):
    """Whether ``input``'s negative bit is set (opyard negates eagerly: never)."""
    return _tensor_arg("is_neg", input).is_neg()


def typename(obj):
    """torch's name of ``obj``'s type: a tensor's ``type()`` (``opyard.FloatTensor``), else the
    object's module (unless builtins) and qualified name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", None)
    prefix = module + "." if module not in (None, "builtins", "__builtin__") else ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    return prefix + name


def get_device(input):
    """The device index of ``input``: -1 for CPU (and meta) tensors, as torch."""
    return _tensor_arg("get_device", input).get_device()


def can_cast(from_, to):
    """Whether torch's casting rules allow ``from_`` to ``to`` (no lower category: bool < integer <
    floating < complex)."""
    for name, dt in (("from_", from_), ("to", to)):
        if not isinstance(dt, D.dtype):
            pos = 1 if name == "from_" else 2
            raise TypeError(f"can_cast(): argument '{name}' (position {pos}) must be opyard.dtype, not "
                            f"{type(dt).__name__}")
    return _category(from_) <= _category(to)


def _category(dt):
    if dt.is_complex:
        return 3
    if dt.is_floating_point:
        return 2
    return 0 if dt is D.bool else 1


def chain_matmul(*matrices, out=None):
    """The product of the matrices in the order given (torch's deprecated form of ``linalg.multi_dot``)."""
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if out is not None:
        return _A.chain_matmul.out(list(matrices), out=out)
    return _A.chain_matmul(list(matrices))


def range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """``start, start + step, ...`` up to and including ``end`` (deprecated, as torch: use ``arange``)."""
    warnings.warn("opyard.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use opyard.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    r = _A.range.step(start, end, step, dtype=dtype, device=device if device is not None else DEFAULT.device)
    if out is not None:
        return out.resize_(list(r.shape)).copy_(r)
    return r.requires_grad_() if requires_grad else r


def _numpy_view(arr, api):
    """torch's refusals of numpy arrays it cannot view: negative strides, a foreign byte order."""
    if any(st < 0 for st in arr.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative strides "
                         "are not currently supported. (You can probably work around this by making a copy of your "
                         "array  with array.copy().) ")
    if not arr.dtype.isnative:
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion between "
                         "byte orders is currently not supported.")
    return arr


def _finish(t, dtype, device, copy, requires_grad, source):
    """``t`` (sharing ``source``'s memory) converted to ``dtype``/``device``: a copy where they differ or
    ``copy`` is True, never when ``copy`` is False (torch's ValueError instead)."""
    changes = (dtype is not None and dtype != t.dtype) or (device is not None and _device_of(device) != t.device)
    if changes and copy is False:
        if dtype is not None and dtype != t.dtype:
            raise ValueError(f"can't alias tensor with dtype '{D.legacy_name(t.dtype)}' into dtype "
                             f"'{D.legacy_name(dtype)}'.")
        raise ValueError(f"can't alias tensor from device '{t.device}' to '{device}'.")
    if changes:
        t = t.to(device=device if device is not None else t.device, dtype=dtype if dtype is not None else t.dtype,
                 copy=bool(copy))
    elif copy:
        t = t.clone()
    if requires_grad:
        t.requires_grad_(True)
    elif t.requires_grad and source is t:
        t = t.detach()
    return t


def _device_of(device):
    from ._tensor import device as Device

    return device if isinstance(device, Device) else Device(device)


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=False):
    """``obj`` as a tensor, sharing its memory where it can (torch's ``asarray``): a tensor is returned
    as it is (``copy=True``: a copy), a numpy array or an object with the buffer protocol is viewed,
    other data (numbers, nested sequences) is copied; ``copy=False`` refuses to copy."""
    if isinstance(obj, Tensor):
        return _finish(obj, dtype, device, copy, requires_grad, obj)
    if device is None:  # data (not a tensor) goes to the default device, as with the other constructors
        device = DEFAULT.device
    if isinstance(obj, np.ndarray) or (hasattr(obj, "__array_interface__") and not isinstance(obj, np.generic)):
        arr = _numpy_view(np.asarray(obj), "asarray")
        t = from_numpy(arr if arr.flags.writeable else arr.copy())
        return _finish(t, dtype, device, copy, requires_grad, None)
    if isinstance(obj, (bytes, bytearray, memoryview)) or (not isinstance(obj, np.generic) and _has_buffer(obj)):
        view = memoryview(obj)
        if dtype is not None:
            return _finish(frombuffer(obj, dtype=dtype), None, device, copy, requires_grad, None)
        arr = np.asarray(view)
        if not arr.flags.writeable:
            warnings.warn("The given buffer is not writable: opyard copies it (opyard tensors are writable).",
                          UserWarning, stacklevel=2)
            arr = arr.copy()
        return _finish(from_numpy(arr.reshape(-1) if arr.ndim == 0 else arr), None, device, copy, requires_grad,
                       None)
    if copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    if isinstance(obj, str):
        raise TypeError(f"new(): invalid data type '{type(obj).__name__}'")
    if obj is None or not isinstance(obj, (bool, int, float, complex, list, tuple, np.generic)):
        raise RuntimeError(f"Could not infer dtype of {type(obj).__name__}")
    t = tensor(obj, dtype=dtype, device=device)
    return t.requires_grad_(True) if requires_grad else t


def _has_buffer(obj):
    try:
        memoryview(obj)
    except TypeError:
        return False
    return True


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-D tensor viewing the bytes of ``buffer`` (an object with the buffer protocol) as ``count``
    elements of ``dtype`` from byte ``offset`` (``count=-1``: all that remain); writing the tensor
    writes the buffer."""
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length = view.nbytes
    item = dtype.itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length ({length} "
                         f"bytes) minus 1")
    if count < 0:
        if (length - offset) % item:
            raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a multiple "
                             f"of element size ({item})")
        count = (length - offset) // item
    elif offset + count * item > length:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset ({offset} bytes) must not be "
                         f"greater than actual buffer length ({length} bytes)")
    arr = np.frombuffer(view.cast("B") if view.format != "B" or view.ndim != 1 else view, dtype=dtype.np,
                        count=count, offset=offset)
    if not arr.flags.writeable:
        warnings.warn("The given buffer is not writable: opyard copies it (opyard tensors are writable).",
                      UserWarning, stacklevel=2)
        arr = arr.copy()
    t = from_numpy(arr)
    return t.requires_grad_(True) if requires_grad else t
