"""Process-wide switches of torch's top-level namespace: deterministic algorithms (and their debug
mode), ``warn_always``, the float32 matmul precision, the inter-op thread count and denormal
flushing.

What each means here: opyard's kernels are deterministic already (numpy's and its own CPU kernels
give the same bits for the same inputs), so the deterministic mode changes one thing, as torch's on
the CPU: ``empty``-like factories fill their memory (nan for floating and complex types, the largest
value for integers, True for bool) while ``FILL_UNINITIALIZED_MEMORY`` is on. ``warn_always`` makes
the warnings torch gives once per process (``warn_once``) warn every time. numpy computes float32
matmuls at full precision whatever the setting ("highest" is what it does; "high"/"medium" permit
less and are honoured by computing no worse). opyard has no inter-op thread pool: the count is
recorded for ``get_num_interop_threads``. numpy cannot flush denormals, so ``set_flush_denormal``
reports False, as torch does on a CPU without the instructions. ``set_default_device`` sets the device
the public tensor constructors use when given none.
"""

import os
import warnings

__all__ = ["use_deterministic_algorithms", "are_deterministic_algorithms_enabled",
           "is_deterministic_algorithms_warn_only_enabled", "get_deterministic_debug_mode",
           "set_deterministic_debug_mode", "set_warn_always", "is_warn_always_enabled",
           "get_float32_matmul_precision", "set_float32_matmul_precision", "get_num_interop_threads",
           "set_num_interop_threads", "init_num_threads", "set_flush_denormal", "warn_once", "fill_uninitialized",
           "get_default_device", "set_default_device", "DEFAULT"]


class _State:
    deterministic = False
    warn_only = False
    warn_always = False
    precision = "highest"
    interop_threads = None  # os.cpu_count() until set
    interop_set = False


class DEFAULT:
    """The device the tensor constructors use when given none (None: the CPU); read by ``_factories``."""
    device = None


FILL_UNINITIALIZED_MEMORY = True  # torch.utils.deterministic.fill_uninitialized_memory
_warned = set()


def _bool_arg(api, name, value, position=1):
    if not isinstance(value, bool):
        where = f" (position {position})" if position else ""
        raise TypeError(f"{api}(): argument '{name}'{where} must be bool, not {type(value).__name__}")


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Turn the deterministic mode on or off (``warn_only``: torch's warning instead of an error for
    operators without a deterministic implementation; opyard has none such)."""
    _bool_arg("_set_deterministic_algorithms", "mode", mode)
    _bool_arg("_set_deterministic_algorithms", "warn_only", warn_only, None)
    _State.deterministic = mode
    _State.warn_only = warn_only if mode else False


def are_deterministic_algorithms_enabled():
    return _State.deterministic


def is_deterministic_algorithms_warn_only_enabled():
    return _State.warn_only


def get_deterministic_debug_mode():
    """0 (off), 1 (warn) or 2 (error), as torch."""
    if not _State.deterministic:
        return 0
    return 1 if _State.warn_only else 2


def set_deterministic_debug_mode(debug_mode):
    """``"default"``/0, ``"warn"``/1 or ``"error"``/2: the deterministic mode off, warning, or on."""
    if isinstance(debug_mode, str):
        modes = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in modes:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    elif isinstance(debug_mode, int) and not isinstance(debug_mode, bool):
        if debug_mode not in (0, 1, 2):
            raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    else:
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode == 0:
        use_deterministic_algorithms(False)
    else:
        use_deterministic_algorithms(True, warn_only=debug_mode == 1)


def set_warn_always(b):
    """Make the warnings given once per process warn every time (torch's ``set_warn_always``)."""
    if not isinstance(b, bool):
        raise RuntimeError(f"setWarnOnlyOnce expects a bool, but got {type(b).__name__}")
    _State.warn_always = b


def is_warn_always_enabled():
    return _State.warn_always


def warn_once(key, message, stacklevel=3):
    """torch's ``TORCH_WARN_ONCE``: ``message`` the first time ``key`` is seen, or every time under
    ``set_warn_always(True)``."""
    if _State.warn_always or key not in _warned:
        _warned.add(key)
        warnings.warn(message, UserWarning, stacklevel=stacklevel)


def get_float32_matmul_precision():
    return _State.precision


def set_float32_matmul_precision(precision):
    """``"highest"``, ``"high"`` or ``"medium"``; another value warns and changes nothing (torch's rule)."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(f"{precision} is not one of 'highest', 'high', or 'medium'; the current"
                      "setFloat32MatmulPrecision call has no effect.", UserWarning, stacklevel=2)
        return
    _State.precision = precision


def get_num_interop_threads():
    return _State.interop_threads if _State.interop_threads is not None else (os.cpu_count() or 1)


def set_num_interop_threads(num):
    """Record the inter-op thread count (torch allows it once, before any parallel work)."""
    if isinstance(num, bool) or not isinstance(num, int):
        raise RuntimeError(f"set_num_interop_threads expects an int, but got {type(num).__name__}")
    if num <= 0:
        raise RuntimeError("set_num_interop_threads expects a positive integer")
    if _State.interop_set:
        raise RuntimeError("Error: cannot set number of interop threads after parallel work has started or "
                           "set_num_interop_threads called")
    _State.interop_threads = num
    _State.interop_set = True


def init_num_threads():
    """Nothing to initialise: opyard's thread pool starts on first use."""


def set_flush_denormal(mode):
    """False: numpy cannot flush denormals to zero (torch's answer on a CPU that cannot)."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {type(mode).__name__}")
    return False


def fill_uninitialized(arr):
    """``arr`` (fresh uninitialized memory) filled as torch's deterministic mode fills it."""
    if _State.deterministic and FILL_UNINITIALIZED_MEMORY and arr.size:
        import numpy as np

        kind = arr.dtype.kind
        if kind == "b":
            arr.fill(True)
        elif kind in "iu":
            arr.fill(np.iinfo(arr.dtype).max)
        else:
            arr.fill(np.nan)
    return arr


def get_default_device():
    """The device tensors are made on when a constructor is given none (torch's ``get_default_device``)."""
    from .._core import device as Device

    return DEFAULT.device if DEFAULT.device is not None else Device("cpu")


def set_default_device(device):
    """Make the tensor constructors (``zeros``, ``tensor``, ``arange``, ``rand``, ...) create on ``device``
    when they are given none; None (or ``"cpu"``) restores the CPU. Operators on existing tensors keep
    their inputs' device, as torch's."""
    from .._core import device as Device

    if device is None:
        DEFAULT.device = None
        return
    d = device if isinstance(device, Device) else Device(device)
    DEFAULT.device = None if d.type == "cpu" and d.index is None else d
