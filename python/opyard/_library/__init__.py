"""The high-level ``opyard.library`` layer: custom ops, fake impls, autograd formulas.

``opcheck`` (``opyard._opcheck``) sits above it and above ``fake`` and ``fx``: it runs ops under
fake tensors and tracing.
"""

import importlib as _importlib

from .fake_impl import get_ctx
from .infer_schema import infer_schema

__all__ = ["CustomOpDef", "custom_op", "register_autocast", "register_autograd", "register_fake",
           "register_kernel", "register_vmap", "get_ctx", "infer_schema"]

# ``custom_op`` and its module load on first use (PEP 562): the facade imports this package for its
# registration helpers (``register``), and ``import opyard`` need not pay for the custom-op layer.
_FROM_CUSTOM_OP = frozenset(__all__[:7])


def __getattr__(name):
    if name not in _FROM_CUSTOM_OP:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module = _importlib.import_module(".custom_op", __name__)
    # All at once: importing the submodule binds ``custom_op`` here to the module, which the function
    # of that name must replace.
    globals().update({n: getattr(module, n) for n in _FROM_CUSTOM_OP})
    return globals()[name]


def __dir__():
    return sorted({*globals(), *__all__})
