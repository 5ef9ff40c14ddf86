"""``opyard.utils``: backend utilities."""

import importlib as _importlib

from .. import _core

__all__ = ["rename_privateuse1_backend"]


def rename_privateuse1_backend(backend_name):
    """Give the PrivateUse1 backend a device name, e.g. ``"foo"`` → ``opyard.device("foo")``."""
    _core._rename_privateuse1_backend(backend_name)


# ``opyard.utils.python_dispatch`` and torch's private spellings (``opyard.utils._python_dispatch``,
# ``opyard.utils._mode_utils``) load on first attribute access (PEP 562).
_LAZY = ("python_dispatch", "_python_dispatch", "_mode_utils", "_pytree", "weak")


def __getattr__(name):
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _importlib.import_module(f"{__name__}.{name}")  # binds the attribute: later reads skip this
