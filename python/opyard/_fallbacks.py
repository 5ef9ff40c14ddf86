"""Process-wide default fallbacks: the keys every operator skips unless a
subsystem (autograd, autocast, tracing, fake tensors, vmap) or a user
registers something there.

Autocast falls through by default (the dispatcher tutorial: "if no autocast
wrapper is provided, we fallthrough directly to the regular operator
implementation"); so do the bookkeeping keys opyard has no behaviour for.
The autograd keys fall through until ``opyard.autograd`` installs its
fallback on top of these (fallbacks are stacks, like kernels).
"""

from ._keys import AUTOCAST_OF_DEVICE
from ._registration import KernelLibrary, fallthrough_kernel

_FALLTHROUGH_KEYS = (
    "BackendSelect",
    "Python",
    "Functionalize",
    "Conjugate",
    "Negative",
    "ZeroTensor",
    "ADInplaceOrView",
    "Autograd",
    "Tracer",
    *(key.name for key in AUTOCAST_OF_DEVICE.values()),  # AutocastCPU, AutocastCUDA: the core's table
    "VmapMode",
    "PythonTLSSnapshot",
    "PythonDispatcher",
)

_defaults = KernelLibrary("_", "IMPL")
for _key in _FALLTHROUGH_KEYS:
    _defaults.fallback(fallthrough_kernel, _key)
