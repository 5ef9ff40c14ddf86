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
    "get_autocast_dtype", "is_autocast_available", "is_autocast_cache_enabled", "is_autocast_enabled",
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
        self.nesting = 0
        self.cache_enabled = True
        self.cache = {}


STATE = _State()


def device_type_of(device_type, api):
    """``device_type`` checked as torch checks it: a ``str`` naming a device type with autocast."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")  # noqa: TRY004 (torch)
    try:
        kind = _core.device(device_type).type
    except RuntimeError as e:  # the device parser's message (torch's), naming the API that got it
        raise RuntimeError(f"{api}: {e}") from None
    if kind not in KEYS:
        raise RuntimeError(f"{api}: User specified an unsupported autocast device_type '{kind}'; "
                           f"opyard supports autocast on {', '.join(KEYS)}")
    return kind


def _check_dtype(dtype, api):
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"{api}: argument 'dtype' must be opyard.dtype, not {type(dtype).__name__}")
    return dtype


def is_autocast_available(device_type):
    """True if autocast can be enabled for ``device_type`` (``'cpu'`` and ``'cuda'`` here)."""
    try:
        return device_type_of(device_type, "is_autocast_available") in KEYS
    except RuntimeError:
        return False


def is_autocast_enabled(device_type="cuda"):
    """True inside an enabled ``autocast`` region for ``device_type`` on this thread.

    As in torch, an autocast kernel (which excludes its key before running the
    operator below it) sees ``False``.
    """
    keys = KEYSETS[device_type_of(device_type, "is_autocast_enabled")]
    return _core._is_included(keys) and not _core._is_excluded(keys)


def set_autocast_enabled(device_type, enabled):
    """Turn autocast for ``device_type`` on or off on this thread (what ``autocast`` does on entry)."""
    _set_key_state(KEYSETS[device_type_of(device_type, "set_autocast_enabled")], bool(enabled), False)


def _key_state(keys):
    included, excluded = _core._local_keysets()
    return not (included & keys).empty(), not (excluded & keys).empty()


def _set_key_state(keys, included_now, excluded_now):
    included, excluded = _core._local_keysets()
    included = included | keys if included_now else included - keys
    excluded = excluded | keys if excluded_now else excluded - keys
    # A _SetKeysGuard entered and never exited assigns the thread's key sets outright.
    _core._SetKeysGuard(included, excluded).__enter__()


def get_autocast_dtype(device_type):
    """The lower-precision dtype autocast uses for ``device_type`` on this thread."""
    return STATE.dtype[INDEX[device_type_of(device_type, "get_autocast_dtype")]]


def set_autocast_dtype(device_type, dtype):
    """Set the lower-precision dtype for ``device_type`` (checked only for being a dtype, as torch)."""
    index = INDEX[device_type_of(device_type, "set_autocast_dtype")]
    STATE.dtype[index] = _check_dtype(dtype, "set_autocast_dtype()")


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
        supported = _SUPPORTED[device]
        if dtype in supported:
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
        self.device = device_type_of(device_type, "autocast")
        self.fast_dtype = get_autocast_dtype(self.device) if dtype is None else _check_dtype(dtype, "autocast()")
        self._cache_enabled = STATE.cache_enabled if cache_enabled is None else bool(cache_enabled)
        self._enabled = bool(enabled) and _supported(self.device, self.fast_dtype)
        self._saved = []  # a stack, so one instance may be re-entered (a decorated recursive function)

    def __enter__(self):
        device = self.device
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
