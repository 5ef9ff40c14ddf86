"""Autocast state (per thread) and the ``autocast`` context manager / decorator.

The state is torch's, split the way the core splits it: whether autocast is
on for a device type *is* the thread's included key set (``AutocastCPU`` /
``AutocastCUDA``), so the policy kernels are on an operator's call path only
while a region is enabled; the lower-precision dtype per device type, the
nesting depth and the cast-cache switch are thread-local Python values read
by the kernels, not by the dispatcher.
"""

import functools
import threading
import warnings

from .. import _core, _dtype
from .._keys import AUTOCAST_OF_DEVICE
from ..dispatcher import DispatchKeySet

__all__ = [
    "autocast", "autocast_decrement_nesting", "autocast_increment_nesting", "clear_autocast_cache",
    "get_autocast_cpu_dtype", "get_autocast_gpu_dtype", "is_autocast_cpu_enabled", "set_autocast_cpu_dtype",
    "set_autocast_cpu_enabled", "set_autocast_gpu_dtype",
    "get_autocast_dtype", "is_autocast_available", "kernel_device_of", "is_autocast_cache_enabled", "is_autocast_enabled",
    "set_autocast_cache_enabled", "set_autocast_dtype", "set_autocast_enabled",
]

KEYS = dict(AUTOCAST_OF_DEVICE)  # "cpu" -> AutocastCPU, "cuda" -> AutocastCUDA (the core's table)
# Kernels index per-device state by position (a tuple/list index, not a dict lookup, on the call path).
DEVICES = tuple(KEYS)
INDEX = {device: i for i, device in enumerate(DEVICES)}
KEYSETS = {device: DispatchKeySet(key) for device, key in KEYS.items()}
# torch's defaults (at::autocast::autocast_dtype): bfloat16 on CPU, float16 on CUDA.
DEFAULT_DTYPES = {"cpu": _dtype.bfloat16, "cuda": _dtype.float16}
_SUPPORTED = {"cpu": (_dtype.bfloat16, _dtype.float16)}


class _State(threading.local):
    """One thread's autocast values: ``dtype[INDEX[device]]``; ``cache`` maps ``(id(source), dtype)``
    to ``(weakref(source), cast)``."""

    def __init__(self):
        self.dtype = [DEFAULT_DTYPES[device] for device in DEVICES]
        # Device types with torch's autocast state but no kernels here: enabled flag and dtype.
        self.enabled = {}
        self.other_dtype = {}
        self.nesting = 0
        self.cache_enabled = True
        self.cache = {}


STATE = _State()


# torch's device types, in the order its device-string parser lists them.
TORCH_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                      "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
# The device types torch has an autocast state for (``is_autocast_available``) and their default
# lower-precision dtypes (at::autocast's table; ``hip`` has a dtype but no autocast key).
_TORCH_DTYPES = {"cpu": _dtype.bfloat16, "cuda": _dtype.float16, "ipu": _dtype.float16, "xpu": _dtype.float16,
                 "hip": _dtype.float16, "maia": _dtype.bfloat16, "xla": _dtype.bfloat16, "mps": _dtype.float16,
                 "hpu": _dtype.bfloat16, "mtia": _dtype.float16, "privateuseone": _dtype.float16}
_AVAILABLE = ("cpu", "cuda", "ipu", "xpu", "maia", "xla", "mps", "hpu", "mtia", "privateuseone")
_NO_KEY = "unknown device type for autocast in get_autocast_dispatch_key_from_device_type"

_MISSING = object()


def _required(api, **values):
    """torch's argument parser's text for a missing argument."""
    for name, value in values.items():
        if value is _MISSING:
            raise TypeError(f'{api}() missing 1 required positional arguments: "{name}"')


def _parse(device_type):
    """The device type named by ``device_type`` (``"cuda:0"`` is ``cuda``), with torch's message for a
    string that names none."""
    kind = device_type.split(":", 1)[0]
    if kind not in TORCH_DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(TORCH_DEVICE_TYPES)} device type at start of device "
                           f"string: {device_type}")
    return kind


def _str_arg(device_type, api):
    if not isinstance(device_type, str):
        raise TypeError(f"{api}(): argument 'device_type' (position 1) must be str, not {type(device_type).__name__}")
    return _parse(device_type)


def device_type_of(device_type, api):
    """``autocast``'s check of ``device_type``: a ``str`` naming a device type torch has autocast for."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")  # noqa: TRY004 (torch)
    kind = _parse(device_type)
    if kind not in _AVAILABLE:
        raise RuntimeError(f"User specified an unsupported autocast device_type '{kind}'")
    return kind


def kernel_device_of(device_type, api):
    """``device_type_of`` for what needs opyard's autocast kernels: ``cpu`` or ``cuda``."""
    kind = device_type_of(device_type, api)
    if kind not in KEYS:
        raise RuntimeError(f"{api}: autocast device_type '{kind}' has no kernels in opyard (it has no {kind} "
                           f"tensors); opyard's autocast kernels cover {', '.join(KEYS)}")
    return kind


def _check_dtype(dtype, api):
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"{api}: argument 'dtype' must be opyard.dtype, not {type(dtype).__name__}")
    return dtype


def is_autocast_available(device_type):
    """True if torch has autocast for ``device_type`` (opyard's kernels cover ``cpu`` and ``cuda``; the
    others keep torch's state: enabled flag and dtype)."""
    return _parse(device_type) in _AVAILABLE


def is_autocast_enabled(*args, **kwargs):
    """True inside an enabled ``autocast`` region for ``device_type`` on this thread; without an
    argument, CUDA's (torch's legacy form).

    As in torch, an autocast kernel (which excludes its key before running the
    operator below it) sees ``False``.
    """
    device_type = _one_arg("is_autocast_enabled", args, kwargs, "cuda")
    kind = _str_arg(device_type, "is_autocast_enabled")
    if kind not in _AVAILABLE:
        raise RuntimeError(_NO_KEY)
    keys = KEYSETS.get(kind)
    if keys is None:
        return STATE.enabled.get(kind, False)
    return _core._is_included(keys) and not _core._is_excluded(keys)


def _one_arg(api, args, kwargs, default):
    """torch's argument parsing of a ``(str device_type)`` / ``()`` pair of signatures."""
    if kwargs and set(kwargs) != {"device_type"}:
        raise TypeError(f"{api}() got an unexpected keyword argument '{next(k for k in kwargs if k != 'device_type')}'")
    values = list(args) + ([kwargs["device_type"]] if kwargs else [])
    if len(values) > 1:
        got = ", ".join(type(v).__name__ for v in values)
        raise TypeError(f"{api}() received an invalid combination of arguments - got ({got}), but expected one "
                        "of:\n * (str device_type)\n * ()\n")
    return values[0] if values else default


def set_autocast_enabled(device_type=_MISSING, enabled=_MISSING):
    """Turn autocast for ``device_type`` on or off on this thread (what ``autocast`` does on entry)."""
    _required("set_autocast_enabled", device_type=device_type, enabled=enabled)
    kind = _str_arg(device_type, "set_autocast_enabled")
    if not isinstance(enabled, bool):
        raise TypeError(f"set_autocast_enabled(): argument 'enabled' (position 2) must be bool, not "
                        f"{type(enabled).__name__}")
    if kind not in _AVAILABLE:
        raise RuntimeError(_NO_KEY)
    keys = KEYSETS.get(kind)
    if keys is None:
        STATE.enabled[kind] = enabled
    else:
        _set_key_state(keys, enabled, False)


def _key_state(keys):
    included, excluded = _core._local_keysets()
    return not (included & keys).empty(), not (excluded & keys).empty()


def _set_key_state(keys, included_now, excluded_now):
    included, excluded = _core._local_keysets()
    included = included | keys if included_now else included - keys
    excluded = excluded | keys if excluded_now else excluded - keys
    # A _SetKeysGuard entered and never exited assigns the thread's key sets outright.
    _core._SetKeysGuard(included, excluded).__enter__()


def get_autocast_dtype(device_type=_MISSING):
    """The lower-precision dtype autocast uses for ``device_type`` on this thread."""
    _required("get_autocast_dtype", device_type=device_type)
    kind = _str_arg(device_type, "get_autocast_dtype")
    if kind in INDEX:
        return STATE.dtype[INDEX[kind]]
    dtype = STATE.other_dtype.get(kind, _TORCH_DTYPES.get(kind))
    if dtype is None:
        raise RuntimeError("unsupported scalarType")
    return dtype


def set_autocast_dtype(device_type=_MISSING, dtype=_MISSING):
    """Set the lower-precision dtype for ``device_type`` (checked only for being a dtype, as torch)."""
    _required("set_autocast_dtype", device_type=device_type, dtype=dtype)
    kind = _str_arg(device_type, "set_autocast_dtype")
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"set_autocast_dtype(): argument 'dtype' (position 2) must be opyard.dtype, not "
                        f"{type(dtype).__name__}")
    if kind in INDEX:
        STATE.dtype[INDEX[kind]] = dtype
    else:
        STATE.other_dtype[kind] = dtype


# torch's deprecated per-device forms, kept with their warnings.
def _deprecated(old, new):
    warnings.warn(f"opyard.{old} is deprecated. Please use opyard.{new} instead.", DeprecationWarning, stacklevel=3)


def is_autocast_cpu_enabled():
    _deprecated("is_autocast_cpu_enabled()", "is_autocast_enabled('cpu')")
    return is_autocast_enabled("cpu")


def set_autocast_cpu_enabled(enabled):
    _deprecated("set_autocast_cpu_enabled(enabled)", "set_autocast_enabled('cpu', enabled)")
    set_autocast_enabled("cpu", enabled)


def get_autocast_cpu_dtype():
    _deprecated("get_autocast_cpu_dtype()", "get_autocast_dtype('cpu')")
    return get_autocast_dtype("cpu")


def set_autocast_cpu_dtype(dtype):
    _deprecated("set_autocast_cpu_dtype(dtype)", "set_autocast_dtype('cpu', dtype)")
    set_autocast_dtype("cpu", dtype)


def get_autocast_gpu_dtype():
    _deprecated("get_autocast_gpu_dtype()", "get_autocast_dtype('cuda')")
    return get_autocast_dtype("cuda")


def set_autocast_gpu_dtype(dtype):
    _deprecated("set_autocast_gpu_dtype(dtype)", "set_autocast_dtype('cuda', dtype)")
    set_autocast_dtype("cuda", dtype)


def is_autocast_cache_enabled():
    return STATE.cache_enabled


def set_autocast_cache_enabled(enabled):
    STATE.cache_enabled = bool(enabled)


def autocast_increment_nesting():
    STATE.nesting += 1
    return STATE.nesting


def autocast_decrement_nesting():
    STATE.nesting -= 1
    return STATE.nesting


def clear_autocast_cache():
    """Drop this thread's cached casts (done when the outermost ``autocast`` region exits)."""
    STATE.cache.clear()


def _supported(device, dtype):
    """Whether ``autocast(device, dtype)`` can be enabled; warns (as torch) when it cannot."""
    name = device.upper()
    if device == "cuda":
        from .. import cuda  # deferred: probing cupy costs an import

        if not cuda.is_available():
            warnings.warn("CUDA is not available (opyard.cuda.is_available() is False). Disabling autocast.",
                          stacklevel=3)
            return False
        if dtype.is_floating_point:
            return True
        supported = (_dtype.bfloat16, _dtype.float16, _dtype.float32)
    else:
        supported = _SUPPORTED.get(device)
        if supported is None or dtype in supported:  # a device type with torch's state only: no check
            return True
    warnings.warn(f"In {name} autocast, but the target dtype is not supported. Disabling autocast.\n"
                  f"{name} Autocast only supports dtypes of {', '.join(map(str, supported))} currently.",
                  stacklevel=3)
    return False


class autocast:
    """Run a region in mixed precision: ``with opyard.autocast("cpu"): ...`` or ``@opyard.autocast("cpu")``.

    ``dtype`` defaults to ``get_autocast_dtype(device_type)`` (bfloat16 on
    CPU, float16 on CUDA). Regions nest; ``enabled=False`` turns autocast off
    inside an enabled region. Casts of float32 leaf tensors that require grad
    are cached until the outermost region exits (``cache_enabled``)::

        >>> w = opyard.randn(3, 3, requires_grad=True)
        >>> with opyard.autocast("cpu", dtype=opyard.float16):
        ...     opyard.mm(w, w).dtype
        opyard.float16
    """

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")  # noqa: TRY004
        # torch reads the device type's dtype before it checks the type has autocast.
        fast = get_autocast_dtype(device_type) if dtype is None else None
        self.device = device_type_of(device_type, "autocast")
        self.fast_dtype = fast if dtype is None else _check_dtype(dtype, "autocast()")
        self._cache_enabled = STATE.cache_enabled if cache_enabled is None else bool(cache_enabled)
        self._enabled = bool(enabled) and _supported(self.device, self.fast_dtype)
        self._saved = []  # a stack, so one instance may be re-entered (a decorated recursive function)

    def __enter__(self):
        device = self.device
        if device not in KEYS:  # torch's state only (no tensors of that device here)
            self._saved.append((is_autocast_enabled(device), get_autocast_dtype(device), STATE.cache_enabled))
            set_autocast_enabled(device, self._enabled)
            set_autocast_dtype(device, self.fast_dtype)
        else:
            # The key's exact include/exclude bits are restored on exit, so entering a region inside
            # an autocast kernel (where the key is excluded) leaves that kernel's state as it was.
            self._saved.append((_key_state(KEYSETS[device]), STATE.dtype[INDEX[device]], STATE.cache_enabled))
            set_autocast_enabled(device, self._enabled)
            STATE.dtype[INDEX[device]] = self.fast_dtype
        STATE.nesting += 1
        STATE.cache_enabled = self._cache_enabled
        return self

    def __exit__(self, *exc):
        key_state, dtype, cache_enabled = self._saved.pop()
        STATE.nesting -= 1
        if STATE.nesting == 0:
            STATE.cache.clear()  # cached weights never outlive the outermost region
        if self.device not in KEYS:
            set_autocast_enabled(self.device, key_state)
            set_autocast_dtype(self.device, dtype)
        else:
            _set_key_state(KEYSETS[self.device], *key_state)
            STATE.dtype[INDEX[self.device]] = dtype
        STATE.cache_enabled = cache_enabled
        return False

    def __call__(self, func):
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. "
                "Did you mean to use autocast as a context manager? For example:\n"
                "    with opyard.autocast(device_type=...):\n"
                "        output = model(input)")

        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
