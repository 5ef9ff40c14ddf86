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
import sys as _sys
import types as _types
import typing as _typing

# Eager: what an operator call with plain tensors or ``requires_grad`` reaches. The grad modes; the
# graph's node classes, which the core makes (``AccumulateGrad``, ``SavedTensor``); the Tensor methods;
# the derivative table's plan and the autograd fallback (registered below).
from . import grad_mode, graph  # noqa: F401
from .graph import increment_version  # noqa: F401  (torch.autograd.graph's; reached from here too)
from .grad_mode import (enable_grad, inference_mode, is_grad_enabled,  # noqa: F401  (in __all__
                        is_inference_mode_enabled, no_grad, set_grad_enabled)  # via grad_mode's)

# Note [Autograd modules on first use]: the engine, ``Function``, forward AD, the view-history rules,
# ``Variable``, gradcheck and ``functional`` load on first need, not with ``import opyard``: the first
# backward or ``autograd.grad`` (``Tensor.backward``'s general path imports the engine), the first
# formula kernel built (the derivative registry and what it builds nodes from), the first attribute
# access here (PEP 562). The core reaches their functions through hooks resolved on first use (Note
# [Hooks resolved on first use], src/python/hooks.rs). ``{attribute: (module, name in it or None for
# the module itself)}``; a lazily loaded public name is one line here.
_LAZY = {
    "functional": (".functional", None),
    "forward_ad": (".forward_ad", None), "function": (".function", None), "views": (".views", None),
    "engine": (".engine", None), "variable": (".variable", None),
    "backward": (".engine", "backward"), "grad": (".engine", "grad"),
    "autograd_not_implemented_fallback": (".fallback", "autograd_not_implemented_fallback"),
    "Function": (".function", "Function"), "FunctionCtx": (".function", "FunctionCtx"),
    "InplaceFunction": (".function", "InplaceFunction"), "once_differentiable": (".function", "once_differentiable"),
    "Variable": (".variable", "Variable"),
    "GradcheckError": (".gradcheck", "GradcheckError"), "gradcheck": (".gradcheck", "gradcheck"),
    "gradgradcheck": (".gradcheck", "gradgradcheck"),
}

if _typing.TYPE_CHECKING:
    from . import engine, forward_ad, function, functional, variable, views  # noqa: F401
    from .engine import backward, grad
    from .fallback import autograd_not_implemented_fallback  # noqa: F401
    from .function import Function, FunctionCtx, InplaceFunction, once_differentiable  # noqa: F401
    from .gradcheck import GradcheckError, gradcheck, gradgradcheck
    from .variable import Variable


class _Package(_types.ModuleType):
    """This package's module type: ``gradcheck`` stays the function of that name when its module loads.

    Importing a submodule sets the package's attribute of its name to the module once it is loaded; torch
    loads ``autograd.gradcheck`` with the package, so its ``torch.autograd.gradcheck`` is the function
    whatever is imported later. Here the module loads on first need, so the attribute it would set is
    the function in it instead.
    """

    def __setattr__(self, name, value):
        if name == "gradcheck" and isinstance(value, _types.ModuleType):
            value = value.gradcheck
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


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
    from .fallback import autograd_not_implemented_fallback
    from .tensor_methods import install

    install(Tensor)
    fallback_lib = KernelLibrary("_", "IMPL")
    fallback_lib.fallback(autograd_not_implemented_fallback, "Autograd", with_keyset=True)
    return fallback_lib, derivatives.register()


_fallback_library, _derivative_library = _install()
