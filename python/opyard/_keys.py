"""Dispatch keys and the named key sets, below every module that needs them.

``opyard.dispatcher`` is their public home (it re-exports them); they live here
so that the tensor layer can name keys without importing the dispatcher's
introspection, which sits a layer above it.
"""

import enum as _enum

from . import _core

__all__ = ["DispatchKey", "DispatchKeySet", "AUTOGRAD_KEYS", "BACKEND_KEYS", "AUTOCAST_KEYS",
           "after_autograd_keyset", "DEVICE_TABLE", "BACKEND_OF_DEVICE", "AUTOGRAD_OF_BACKEND",
           "AUTOCAST_OF_DEVICE"]


def simple_enum(base, name, members, **extras):
    """A ``base`` (``enum.IntEnum``, ``enum.Enum``) subclass ``name`` with ``members`` (``{name: value}``,
    in order) and the class attributes ``extras`` (``__module__``, ``__repr__``, ...).

    The standard library's own builder of its enums (``re.RegexFlag``, ``http.HTTPStatus``) makes the
    same class without the enum metaclass's per-member pass: 0.3 ms at import instead of 0.8 for the
    dispatch keys. It is private, and Python 3.10 has none; there the functional form builds it."""
    simple = getattr(_enum, "_simple_enum", None)
    if simple is not None:
        return simple(base)(type(name, (), {**members, **extras}))
    made = base(name, list(members.items()))
    for attr, value in extras.items():
        setattr(made, attr, value)
    return made


_KEY_NAMES = _core._key_names()
DispatchKey = simple_enum(
    _enum.IntEnum, "DispatchKey", dict(zip(_KEY_NAMES, range(len(_KEY_NAMES)))),
    # public home (repr, pickling by reference): opyard.dispatcher re-exports it
    __module__="opyard.dispatcher",
    __doc__="Dispatch keys; a higher value has a higher priority (runtime keys first).",
    __repr__=lambda self: f"DispatchKey.{self.name}",
    __str__=lambda self: f"DispatchKey.{self.name}",
)

DispatchKeySet = _core.DispatchKeySet

AUTOGRAD_KEYS = DispatchKeySet(DispatchKey.Autograd)
BACKEND_KEYS = DispatchKeySet(DispatchKey.CompositeExplicitAutograd)
after_autograd_keyset = DispatchKeySet(
    [k for k in DispatchKey if k < DispatchKey.AutogradOther]
)

# The one device table (See Note [One device table] in src/python/dispatch/keys.rs): for every backend key,
# in priority order, ``(device type or None, backend key, Autograd key, Autocast key or None)``, as
# the core decides them. Everything in Python that maps a device to its keys reads these.
DEVICE_TABLE = tuple(
    (device_type, DispatchKey(backend), DispatchKey(autograd), None if autocast is None else DispatchKey(autocast))
    for device_type, backend, autograd, autocast in _core._backend_table())
# "cpu" -> DispatchKey.CPU, ... (a renamed PrivateUse1 backend's devices still say "privateuseone")
BACKEND_OF_DEVICE = {row[0]: row[1] for row in DEVICE_TABLE if row[0] is not None}
# DispatchKey.CPU -> DispatchKey.AutogradCPU, ..., FPGA -> AutogradOther (torch's), in priority order
AUTOGRAD_OF_BACKEND = {row[1]: row[2] for row in DEVICE_TABLE}
# "cpu" -> DispatchKey.AutocastCPU, "cuda" -> DispatchKey.AutocastCUDA: the devices autocast serves
AUTOCAST_OF_DEVICE = {row[0]: row[3] for row in DEVICE_TABLE if row[0] is not None and row[3] is not None}
AUTOCAST_KEYS = DispatchKeySet(list(AUTOCAST_OF_DEVICE.values()))
