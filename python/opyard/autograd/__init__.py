"""``opyard.autograd``: reverse- and forward-mode automatic differentiation.

The autograd kernels of the built-in ops (registered at the ``Autograd`` key)
record a graph of :class:`~.graph.Node` objects while an input requires
grad; :func:`backward`/:func:`grad` run it. :class:`Function` adds custom
operations; :func:`gradcheck` verifies them.

Example::

    >>> x = opyard.randn(3, requires_grad=True)
    >>> y = (x.sin() * 2).sum()
    >>> opyard.autograd.grad(y, x)
    (tensor([...]),)
"""

import importlib as _importlib
import typing as _typing

from . import forward_ad, function, grad_mode, graph, views  # noqa: F401  (views installs its hook in _tensor_meta)
from .engine import backward, grad
from .fallback import autograd_not_implemented_fallback
from .function import Function, FunctionCtx, InplaceFunction, once_differentiable  # noqa: F401
from .graph import increment_version  # noqa: F401  (torch.autograd.graph's; reached from here too)
from .variable import Variable
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled,  # noqa: F401  (in __all__
                        is_inference_mode_enabled, no_grad, set_grad_enabled)  # via grad_mode's)
# Eager although no operator call needs it: the function ``gradcheck`` must be the package's attribute
# of that name even after ``import opyard.autograd.gradcheck`` (which sets the attribute to the module
# when it is the first import of the module).
from .gradcheck import GradcheckError, gradcheck, gradgradcheck

# What no operator call reaches loads on first attribute access (PEP 562), so ``import opyard`` does
# not pay for it: ``{attribute: (module, name in it or None for the module itself)}``.
_LAZY = {
    "functional": (".functional", None),
}

if _typing.TYPE_CHECKING:
    from . import functional


def __getattr__(name):
    if name in ("_registered_ops", "_ops_without_formula"):  # read by tests and tools, not by import
        from . import derivatives
        value = derivatives.registered_ops() if name == "_registered_ops" else derivatives.ops_without_formula()
        globals()[name] = value
        return value
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = _importlib.import_module(module, __name__)
    if attr is not None:
        value = getattr(value, attr)
    globals()[name] = value  # later lookups are plain module attributes, never this function
    return value


def __dir__():
    return sorted({*globals(), *_LAZY})


__all__ = [
    "Function",
    "FunctionCtx",
    "Variable",
    "function",
    "once_differentiable",
    "backward",
    "grad",
    "gradcheck",
    "gradgradcheck",
    "GradcheckError",
    "forward_ad",
    "functional",
    "graph",
    *grad_mode.__all__,
]


def _install():
    """Bind Tensor's autograd methods, register the derivative kernels and the fallback.

    The libraries are kept alive for the life of the process (module globals).
    """
    from .._registration import KernelLibrary
    from .._tensor import Tensor
    from . import derivatives
    from .tensor_methods import install

    install(Tensor)
    fallback_lib = KernelLibrary("_", "IMPL")
    fallback_lib.fallback(autograd_not_implemented_fallback, "Autograd", with_keyset=True)
    return fallback_lib, derivatives.register()


_fallback_library, _derivative_library = _install()
