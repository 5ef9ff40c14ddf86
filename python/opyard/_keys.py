"""Dispatch keys and the named key sets, below every module that needs them.

``opyard.dispatcher`` is their public home (it re-exports them); they live here
so that the tensor layer can name keys without importing the dispatcher's
introspection, which sits a layer above it.
"""

import enum as _enum

from . import _core

__all__ = ["DispatchKey", "DispatchKeySet", "AUTOGRAD_KEYS", "BACKEND_KEYS", "AUTOCAST_KEYS",
           "after_autograd_keyset"]

DispatchKey = _enum.IntEnum("DispatchKey", [(n, i) for i, n in enumerate(_core._key_names())])
# Public home (repr, pickling by reference): opyard.dispatcher re-exports it.
DispatchKey.__module__ = "opyard.dispatcher"
DispatchKey.__doc__ = "Dispatch keys; a higher value has a higher priority (runtime keys first)."
DispatchKey.__repr__ = lambda self: f"DispatchKey.{self.name}"
DispatchKey.__str__ = lambda self: f"DispatchKey.{self.name}"

DispatchKeySet = _core.DispatchKeySet

AUTOGRAD_KEYS = DispatchKeySet(DispatchKey.Autograd)
BACKEND_KEYS = DispatchKeySet(DispatchKey.CompositeExplicitAutograd)
AUTOCAST_KEYS = DispatchKeySet([DispatchKey.AutocastCPU, DispatchKey.AutocastCUDA])
after_autograd_keyset = DispatchKeySet(
    [k for k in DispatchKey if k < DispatchKey.AutogradOther]
)
