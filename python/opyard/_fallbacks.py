"""Process-wide default fallbacks: the keys every operator skips unless a
subsystem (autograd, autocast, tracing, fake tensors, vmap) or a user
registers something there.

Autocast falls through by default (the dispatcher tutorial: "if no autocast
wrapper is provided, we fallthrough directly to the regular operator
implementation"); so do the bookkeeping keys opyard has no behaviour for.
The autograd keys fall through until ``opyard.autograd`` installs its
fallback on top of these (fallbacks are stacks, like kernels). ``Meta`` has
torch's backend fallback: an operator without a Meta kernel refuses meta
tensors with torch's message.
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
    "Batched",  # until opyard.func installs its fallback there (torch holds one from the start)
    "VmapMode",
    "PythonTLSSnapshot",
    "PythonDispatcher",
)

_defaults = KernelLibrary("_", "IMPL")
for _key in _FALLTHROUGH_KEYS:
    _defaults.fallback(fallthrough_kernel, _key)


def _meta_fallback(op, *args, **kwargs):
    """torch's MetaFallbackKernel: meta tensors reached an operator with no Meta kernel."""
    raise meta_fallback_error(op.name())


def meta_fallback_error(name):
    """torch's error for meta tensors reaching ``name`` without a Meta kernel. The features torch's
    words name are torch's own; opyard's fix follows."""
    return NotImplementedError(
        f"{name}: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel "
        "registered. You may have run into this message while using an operator with PT2 compilation APIs "
        "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake "
        "impl. Please see the following for next steps:  "
        "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html\n"
        f"(opyard: register one with opyard.library.register_fake('{name}') or Library.impl('{name}', fn, "
        "'Meta'))")


_defaults.fallback(_meta_fallback, "Meta")
