"""``opyard.dispatcher``: keys, key sets, thread-local guards and introspection.

Example::

    >>> from opyard.dispatcher import DispatchKey, DispatchKeySet
    >>> DispatchKeySet(DispatchKey.CPU) | DispatchKey.AutogradCPU
    DispatchKeySet(CPU, AutogradCPU)
    >>> with opyard.dispatcher.below_autograd():
    ...     pass   # calls here skip the autograd keys
"""

import enum
from dataclasses import dataclass

from . import _core
from ._ops import resolve

__all__ = [
    "DispatchKey",
    "DispatchKeySet",
    "dump",
    "dump_table",
    "explain",
    "include",
    "exclude",
    "below_autograd",
    "local_keysets",
    "PythonDispatcher",
    "AUTOGRAD_KEYS",
    "BACKEND_KEYS",
    "AUTOCAST_KEYS",
    "after_autograd_keyset",
]

DispatchKey = enum.IntEnum("DispatchKey", [(n, i) for i, n in enumerate(_core._key_names())])
DispatchKey.__module__ = __name__
DispatchKey.__doc__ = "Dispatch keys; a higher value has a higher priority (runtime keys first)."
DispatchKey.__repr__ = lambda self: f"DispatchKey.{self.name}"
DispatchKey.__str__ = lambda self: f"DispatchKey.{self.name}"
_core._set_key_enum(DispatchKey)

DispatchKeySet = _core.DispatchKeySet

AUTOGRAD_KEYS = DispatchKeySet(DispatchKey.Autograd)
BACKEND_KEYS = DispatchKeySet(DispatchKey.CompositeExplicitAutograd)
AUTOCAST_KEYS = DispatchKeySet([DispatchKey.AutocastCPU, DispatchKey.AutocastCUDA])
after_autograd_keyset = DispatchKeySet(
    [k for k in DispatchKey if k < DispatchKey.AutogradOther]
)


def _keys(keys):
    return DispatchKeySet(list(keys))


def include(*keys):
    """Context manager adding ``keys`` to this thread's included set."""
    return _core._KeyGuard(include=_keys(keys))


def exclude(*keys):
    """Context manager adding ``keys`` to this thread's excluded set."""
    return _core._KeyGuard(exclude=_keys(keys))


def below_autograd():
    """Context manager excluding the autograd keys: calls go to the kernels below autograd."""
    return _core._KeyGuard(exclude=AUTOGRAD_KEYS)


def local_keysets():
    """This thread's ``(included, excluded)`` key sets."""
    return _core._local_keysets()


def _op_name(op):
    return op if isinstance(op, str) else resolve(op).name()


def dump(op):
    """The definition and every registration of ``op``, in torch's ``_dispatch_dump`` format."""
    return _core._dump(_op_name(op))


def dump_table(op):
    """The computed dispatch table of ``op``: one ``Key: kernel [reason]`` line per slot."""
    rows = _core._table_entries(_op_name(op))
    return "".join(f"{key}: {kernel} [{reason}]\n" for key, kernel, reason, _ in rows)


@dataclass(frozen=True)
class Explanation:
    """What one call dispatches to, and why."""

    op: str
    argument_keys: object
    call_keys: object
    masked_keys: object
    key: str
    kernel: object
    reason: str
    provenance: str

    def __str__(self):
        kernel = (
            f"{self.kernel} registered at {self.provenance} [{self.reason}]"
            if self.kernel is not None
            else "missing: no kernel, fallback or alias covers this key"
        )
        return (
            f"op:            {self.op}\n"
            f"argument keys: {self.argument_keys!r}\n"
            f"with TLS:      {self.call_keys!r}\n"
            f"non-fallthrough: {self.masked_keys!r}\n"
            f"dispatch key:  {self.key}\n"
            f"kernel:        {kernel}\n"
        )


def explain(op, *args, **kwargs):
    """Print and return which kernel ``op(*args, **kwargs)`` would run, and why."""
    overload = resolve(op)
    arg_keys, call_keys, masked, key, entry = _core._explain(overload, *args, **kwargs)
    kernel, reason, provenance = entry if entry is not None else (None, "missing", "")
    result = Explanation(
        overload.name(),
        DispatchKeySet.from_raw(arg_keys),
        DispatchKeySet.from_raw(call_keys),
        DispatchKeySet.from_raw(masked),
        key,
        kernel,
        reason,
        provenance,
    )
    print(result, end="")
    return result


class PythonDispatcher:
    """A what-if calculator: which kernel each key gets for a set of registrations.

    Driven by the same Rust table computation the dispatcher uses::

        >>> d = PythonDispatcher()
        >>> d.register(["CPU", "CompositeImplicitAutograd"])
        >>> print(d.dispatchTable())  # doctest: +SKIP
    """

    supported_keys = [k.name for k in DispatchKey if k.name != "Undefined"]

    def __init__(self):
        self._keys = []

    def register(self, dispatchKeys):
        """Pretend kernels are registered at ``dispatchKeys`` (runtime or alias)."""
        keys = list(dispatchKeys)
        if len(set(keys)) != len(keys):
            raise RuntimeError(f"Overriden is not allowed but found duplicates in {keys}.")
        for k in keys:
            if k not in self.supported_keys:
                raise RuntimeError(f"{k} is not supported, please select a dispatch key in {self.supported_keys}.")
            if k in self._keys:
                raise RuntimeError(f"{k} is already registered; overriding is not allowed")
        self._keys.extend(keys)

    def _format_line(self, key, kernel):
        return f"{key:<15} {kernel}\n"

    def _format_header(self, header):
        return f"\n{header}\n" + self._format_line("key", "kernel") + "-" * 27 + "\n"

    def rawRegistrations(self):
        """[(key, kernel label)] for the registered keys."""
        return [(k, f"fn_{k}") for k in self._keys]

    def rawDispatchTable(self):
        """[(slot, kernel label, reason)] for every slot, ``missing`` included."""
        return _core._what_if(self._keys)

    def registrations(self):
        out = self._format_header("Registered Kernels")
        for k, label in self.rawRegistrations():
            out += self._format_line(k, label)
        return out

    def dispatchTable(self):
        out = self._format_header("Computed Dispatch Table")
        for key, label, reason in self.rawDispatchTable():
            if reason != "missing":
                out += self._format_line(key, f"{label} [{reason}]")
        return out
