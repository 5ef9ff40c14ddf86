"""``opyard.amp``: automatic mixed precision through the Autocast dispatch keys.

Inside ``autocast(device_type, dtype=...)`` the thread's included key set
holds ``AutocastCPU`` or ``AutocastCUDA``. Operators with an autocast kernel
(the built-in matmul family, or anything registered with
``opyard.library.register_autocast`` / ``Library.impl(..., "AutocastCPU")``)
cast their inputs and redispatch below the autocast key; every other
operator falls through, as the dispatcher tutorial describes::

    >>> with opyard.amp.autocast("cpu", dtype=opyard.float16):
    ...     y = opyard.mm(a, b)          # runs in float16
    >>> y.dtype
    opyard.float16
"""

from .autocast_mode import (
    autocast,
    cached_cast,
    get_autocast_dtype,
    is_autocast_enabled,
    promote_type,
)

__all__ = [
    "autocast",
    "cached_cast",
    "get_autocast_dtype",
    "is_autocast_enabled",
    "promote_type",
]
