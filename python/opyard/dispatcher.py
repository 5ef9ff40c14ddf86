"""``opyard.dispatcher``: keys, key sets, thread-local guards and introspection.

Example::

    >>> from opyard.dispatcher import DispatchKey, DispatchKeySet
    >>> DispatchKeySet(DispatchKey.CPU) | DispatchKey.AutogradCPU
    DispatchKeySet(CPU, AutogradCPU)
    >>> with opyard.dispatcher.below_autograd():
    ...     pass   # calls here skip the autograd keys
"""

import re
import sys
import warnings

from . import _core
from ._keys import (AUTOCAST_KEYS, AUTOGRAD_KEYS, BACKEND_KEYS, DispatchKey, DispatchKeySet,
                    after_autograd_keyset)
from ._ops import resolve

__all__ = [
    "DispatchKey",
    "DispatchKeySet",
    "dump",
    "dump_table",
    "dispatch_table_html",
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


class Explanation:
    """What one call dispatches to, and why (read-only; compares and hashes by its fields).

    A plain class rather than a frozen dataclass: ``dataclasses`` is not otherwise loaded by
    ``import opyard``, and loading it cost more than everything else this module does.
    """

    __slots__ = ("op", "argument_keys", "call_keys", "masked_keys", "key", "kernel", "reason",
                 "provenance")

    def __init__(self, op, argument_keys, call_keys, masked_keys, key, kernel, reason, provenance):
        for name, value in zip(self.__slots__, (op, argument_keys, call_keys, masked_keys, key, kernel,
                                                reason, provenance)):
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"cannot assign to field '{name}' of an Explanation")

    def __delattr__(self, name):
        raise AttributeError(f"cannot delete field '{name}' of an Explanation")

    def _fields(self):
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other):
        return self._fields() == other._fields() if type(other) is Explanation else NotImplemented

    def __hash__(self):
        return hash(self._fields())

    def __repr__(self):
        return "Explanation(" + ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__slots__) + ")"

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


    def _repr_html_(self):
        """In a notebook: the explanation, then the operator's dispatch table with the chosen key marked."""
        from ._html import table as _html_table  # notebooks only: not loaded by ``import opyard``

        kernel = (f"{self.kernel} [{self.reason}]" if self.kernel is not None
                  else "missing: no kernel, fallback or alias covers this key")
        summary = _html_table(
            f"explain: {self.op}", None,
            [("argument keys", self.argument_keys), ("with TLS", self.call_keys),
             ("non-fallthrough", self.masked_keys), ("dispatch key", self.key), ("kernel", kernel),
             ("registered at", self.provenance or "")])
        return summary + _table_html(self.op, self.key, style=False)


_ROW_CLASS = {"kernel": "kernel", "fallthrough": "fallthrough"}


def dispatch_table_html(op, *, chosen=None):
    """The computed dispatch table of ``op`` as an HTML table (notebooks render it): one row per
    runtime key with its kernel, why that kernel fills the slot (a direct kernel, an alias such as
    ``CompositeImplicitAutograd``, a backend fallback, ...) and where it was registered
    (``file.py:line``). ``chosen`` (a key name) marks the row a call dispatched to.

    Example::

        >>> html = opyard.dispatcher.dispatch_table_html("aten::add.Tensor")
        >>> html  # in a notebook: the table
    """
    return _table_html(_op_name(op), chosen)


def _table_html(name, chosen, style=True):
    from ._html import table as _html_table  # notebooks only: not loaded by ``import opyard``

    rows = _core._table_entries(name)
    classes = ["chosen" if key == chosen else
               "fallthrough" if kernel == "fallthrough" else _ROW_CLASS.get(reason, "")
               for key, kernel, reason, _ in rows]
    overload = _core._find_op(name)
    caption = str(overload._schema) if overload is not None else name
    return _html_table(caption, ("dispatch key", "kernel", "why", "registered at"), rows, classes, style=style)


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

    torch's ``torch._python_dispatcher.PythonDispatcher``: one example key per
    use case (CPU: an in-tree backend with its own autograd key; FPGA: a
    backend served by ``AutogradOther``; XLA and Lazy: out-of-tree backends),
    the three alias keys, and torch's texts. Driven by the same Rust table
    computation the dispatcher uses, with the backend fallbacks registered in
    this process::

        >>> d = PythonDispatcher()
        >>> d.register(["CPU", "XLA", "CompositeImplicitAutograd"])
        >>> print(d.dispatchTable())  # doctest: +SKIP
    """

    namespace = "__test__"
    name = "foo"
    runtime_keys = [
        "CPU", "AutogradCPU",
        "FPGA", "AutogradOther",
        "XLA", "AutogradXLA",
        "Lazy", "AutogradLazy",
    ]
    alias_keys = [
        "CompositeExplicitAutograd",
        "Autograd",
        "CompositeImplicitAutograd",
    ]
    supported_keys = runtime_keys + alias_keys

    _SCHEMA = "(Tensor _0) -> Tensor _0 [ boxed unboxed ]"
    # torch's dispatchTable drops the provenance of backend fallbacks; so do we.
    _PROVENANCE = re.compile(r"registered at .*?(\[)")

    def __init__(self):
        caller = sys._getframe(1)
        self._site = f"{caller.f_code.co_filename}:{caller.f_lineno}"
        self._keys = set()

    def keys(self):
        """The dispatch keys kernels can be registered at."""
        return self.supported_keys

    def register(self, dispatchKeys):
        """Pretend kernels ``fn_<key>`` are registered at ``dispatchKeys``."""
        # Overridden is not supported and triggers a warning in torch's C++ dispatcher.
        if len(set(dispatchKeys)) != len(dispatchKeys):
            raise RuntimeError(
                f"Overridden is not allowed but found duplicates in {str(dispatchKeys)[:200]}.")
        # torch forbids this in codegen rather than in the dispatcher.
        keys = set(dispatchKeys)
        if "CompositeImplicitAutograd" in keys and "CompositeExplicitAutograd" in keys:
            raise RuntimeError("Registration to both CompositeImplicitAutograd and "
                               "CompositeExplicitAutograd is not allowed.")
        for key in dispatchKeys:
            if key not in self.supported_keys:
                raise RuntimeError(
                    f"{str(key)[:100]} is not supported, please select a dispatch key in "
                    f"{self.supported_keys}."
                )
            if key in self._keys:
                warnings.warn(
                    "Overriding a previously registered kernel for the same operator and the same "
                    f"dispatch key\n  operator: {self.namespace}::{self.name}(Tensor x) -> Tensor\n"
                    f"  dispatch key: {key}",
                    stacklevel=2,
                )
            self._keys.add(key)

    def _format_line(self, key, kernel):
        return f"{key:<15} {kernel}\n"

    def _format_header(self, header):
        rule = "---------------------------\n"
        return f"\n{header}\n" + self._format_line("key", "kernel") + rule

    def _registered(self):
        """The registered keys in torch's dump order (key priority, aliases last)."""
        return [k.name for k in DispatchKey if k.name in self._keys]

    def _table(self):
        """[(slot, kernel label, reason)] for every slot, ``missing`` included."""
        return _core._what_if(self._registered())

    def rawRegistrations(self):
        """Every registration, in torch's ``_dispatch_dump`` format."""
        qualified = f"{self.namespace}::{self.name}"
        out = (f"name: {qualified}\nschema: {qualified}(Tensor x) -> Tensor\n"
               f"debug: registered at {self._site}\nalias analysis kind: FROM_SCHEMA\n")
        for k in self._registered():
            alias = "[alias]" if k in self.alias_keys else ""
            out += f"{k}{alias}: fn_{k} :: {self._SCHEMA}\n"
        return out

    def rawDispatchTable(self):
        """The computed table in torch's ``_dispatch_dump_table`` format (no missing slots)."""
        return "".join(f"{key}: {label} [{reason}]\n" for key, label, reason in self._table()
                       if reason != "missing")

    def registrations(self):
        """The registered kernels, alias keys included."""
        output = self._format_header("Registered Kernels")
        for line in self.rawRegistrations().split("\n"):
            first = line.split(":")[0]
            if any(first.startswith(k) for k in self.supported_keys):
                kernel = line.split("::")[0].split(" ")[1]
                output += self._format_line(first, kernel)
        return output

    def dispatchTable(self):
        """The computed table for the runtime keys: alias registrations decoded."""
        output = self._format_header("Computed Dispatch Table")
        for line in self.rawDispatchTable().split("\n"):
            k = line.split(":")[0]
            if k in self.runtime_keys:
                entry = self._PROVENANCE.sub("[", line)
                output += self._format_line(k, entry.split(": ")[1])
        return output

from ._exports import public_dir

__dir__ = public_dir(globals())
