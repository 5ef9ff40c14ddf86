"""``opyard.ops``: operators by namespace, as ``torch.ops``.

``opyard.ops.ns.name`` is an :class:`OpOverloadPacket` (callable: it picks the
overload whose argument types match), ``opyard.ops.ns.name.overload`` an
:class:`OpOverload`. Both are Rust objects whose call is the dispatcher's call
path; namespaces cache their packets until the defining library is destroyed.

Example::

    >>> lib = opyard.library.Library("demo", "DEF")
    >>> lib.define("twice(Tensor x) -> Tensor")
    'twice'
    >>> opyard.ops.demo.twice.overloads()
    ['default']
"""

import enum
import re

from . import _core

__all__ = ["OpOverload", "OpOverloadPacket", "Tag", "ops"]

OpOverload = _core.OpOverload
OpOverloadPacket = _core.OpOverloadPacket


class _NamespaceModule(str):
    """An operator's ``__module__``: ``opyard._ops.<namespace>``, as torch's ``torch._ops.aten``
    (logging code prints ``f"{func.__module__}.{func.__name__}"``); read on the class, the class's
    own module. A ``str`` subclass, so that the type's ``__module__`` is still a string."""

    __slots__ = ()

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        name = obj._qualified_op_name if type(obj) is OpOverloadPacket else obj.name()
        return f"{self}.{name.partition('::')[0]}"


OpOverload.__module__ = OpOverloadPacket.__module__ = _NamespaceModule("opyard._ops")

Tag = enum.Enum("Tag", [(n, i) for i, n in enumerate((
    "core", "cudagraph_unsafe", "data_dependent_output", "dynamic_output_shape", "flexible_layout",
    "generated", "inplace", "inplace_view", "maybe_aliasing_or_mutating", "needs_contiguous_strides",
    "needs_exact_strides", "needs_fixed_stride_order", "nondeterministic_bitwise",
    "nondeterministic_seeded", "out", "out_variant", "pointwise", "pt2_compliant_tag", "reduction",
    "view_copy"))])
Tag.__module__ = __name__
Tag.__doc__ = "Operator tags (torch's ``torch.Tag``): ``Library.define(..., tags=...)``, ``OpOverload.tags``."
Tag.__str__ = lambda self: f"Tag.{self.name}"
Tag.__int__ = lambda self: self.value

# "ns::name.overload" (".default" omitted, as `_core._define` names it) -> the Tags it was defined with.
OP_TAGS = {}

# Note [Built-in tags]: the built-in operators' tags are data of the layer that defines them
# (`_aten/tags.py`), which hands over a function naming the operators and a loader; both run the
# first time any `.tags` is read, so neither import nor the call path pays for the table.
_BUILTIN_OPS = {}  # qualified name -> its loader
_PENDING_TAGS = []  # (names(), loader) handed over, not yet in _BUILTIN_OPS
_LOADED = {}  # loader -> ({"name.overload": tags}, tags of an overload not in the table)


def register_builtin_tags(qualified_names, loader):
    """Built-in operators ``qualified_names()`` take their tags from ``loader()``; both are called the
    first time any ``.tags`` is read.

    See Note [Built-in tags]."""
    _PENDING_TAGS.append((qualified_names, loader))


def _builtin_tags(name):
    while _PENDING_TAGS:  # another thread expanding the same pair writes the same entries
        names, loader = _PENDING_TAGS[0]
        _BUILTIN_OPS.update(dict.fromkeys(names(), loader))
        if _PENDING_TAGS and _PENDING_TAGS[0][0] is names:
            _PENDING_TAGS.pop(0)
    loader = _BUILTIN_OPS.get(name)
    if loader is None:
        return ()
    if loader not in _LOADED:
        _LOADED[loader] = loader()
    table, default = _LOADED[loader]
    return table.get(name.partition("::")[2], default)


def _tags(self):
    """The :class:`Tag` members of this overload (torch's ``OpOverload.tags``)."""
    name = self.name()
    own = OP_TAGS.get(name, OP_TAGS.get(name.removesuffix(".default"), ()))
    return [*_builtin_tags(name.removesuffix(".default")), *own]


# Note [Registration queries]: which keys an operator has kernels at is read from the
# registrations `_core._dump` lists (the format torch's `_dispatch_dump` prints), so the
# answer is always the dispatcher's own; these queries run at registration time, never
# on the call path.
_REGISTRATION = re.compile(r"^(\w+)(?:\[alias\])?: registered at ", re.MULTILINE)
# The alias keys (src/dispatch/key.rs): a registration there names a set of runtime keys.
ALIAS_KEYS = frozenset(("Autograd", "CompositeImplicitAutograd", "CompositeExplicitAutograd",
                         "CompositeExplicitAutogradNonFunctional", "FuncTorchBatchedDecomposition"))


def registered_keys(name):
    """The dispatch keys (runtime or alias) with a kernel registered for ``ns::op[.overload]``."""
    if _core._find_op(name) is None:
        raise RuntimeError(f"operator {name} does not exist")
    return {k for k in _REGISTRATION.findall(_core._dump(name)) if k != "debug"}


def _key_name(key):
    name = key if isinstance(key, str) else getattr(key, "name", None)
    if name not in _core._key_names():
        raise RuntimeError(f"could not parse dispatch key: {str(key)[:100]}")
    return name


def _has_kernel_for_dispatch_key(self, key):
    """Whether a kernel is registered directly at ``key`` (an alias key counts only for itself)."""
    return _key_name(key) in registered_keys(self.name())


def _has_kernel_for_any_dispatch_key(self, keyset):
    """Whether a kernel is registered at a runtime key of ``keyset`` (alias keys do not count)."""
    names = {k.name for k in keyset}
    return any(k in names for k in registered_keys(self.name()) if k not in ALIAS_KEYS)


# Registration-time behaviour added to the Rust class; its call path is untouched.
OpOverload.tags = property(_tags)
OpOverload.has_kernel_for_dispatch_key = _has_kernel_for_dispatch_key
OpOverload.has_kernel_for_any_dispatch_key = _has_kernel_for_any_dispatch_key


# Note [Namespace objects]: plain classes, not ModuleType subclasses: CPython
# resolves a cached instance attribute of a plain class with `__getattr__` on
# its generic fast path, while a module subclass with `__getattr__` goes
# through a slow slot wrapper (~100 ns per dot on `ops.ns.name`).


class _OpNamespace:
    """``opyard.ops.<ns>``: packets of one namespace, cached on first access."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"<opyard.ops.{self.name} namespace>"

    def __getattr__(self, op_name):
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        qualified = f"{self.name}::{op_name}"
        packet = _core._packet(qualified)
        # A built-in packet is bound before its overloads are defined (Note [Operators defined
        # on first use], src/python/dispatch/lazy.rs): its first use defines them.
        if not _core._is_pending(qualified) and not packet.overloads():
            raise AttributeError(
                f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}': no operator "
                f"{self.name}::{op_name} is defined (define it with Library('{self.name}', 'DEF')"
                f".define(...) or opyard.library.custom_op)"
            )
        setattr(self, op_name, packet)
        return packet

    def _bind(self, names):
        """The packets of ``names``, operators of the built-in table (defined or pending), each cached
        as an attribute as ``__getattr__`` does, without its search (a failed attribute lookup per
        name): ``import opyard`` binds ~550 of them as functional forms and Tensor methods."""
        cached, prefix = self.__dict__, self.name + "::"
        for op_name in names:
            if op_name not in cached:
                cached[op_name] = _core._packet(prefix + op_name)
        return [cached[op_name] for op_name in names]

    def _forget(self, op_name):
        self.__dict__.pop(op_name, None)

    def __reduce__(self):
        return getattr, (ops, self.name)  # the namespace object of the process that unpickles


class _Ops:
    """``opyard.ops``: namespaces created on first access. See Note [Namespace objects]."""

    __name__ = "opyard.ops"

    def __getattr__(self, ns):
        if ns.startswith("__"):
            raise AttributeError(ns)
        namespace = _OpNamespace(ns)
        setattr(self, ns, namespace)
        return namespace

    def __reduce__(self):
        return "ops"  # the module's singleton

    def _forget(self, qualified_name):
        """Drop the cached packet of ``ns::name[.overload]`` (its definition changed)."""
        ns, _, rest = qualified_name.partition("::")
        namespace = self.__dict__.get(ns)
        if namespace is not None:
            namespace._forget(rest.split(".")[0])


ops = _Ops()


def _canonical_packet(qualified):
    """The packet object ``ops`` holds for ``ns::name`` (cached there now if it was not): what
    ``OpOverload.overloadpacket`` returns. See Note [Canonical packet] (src/python/dispatch/packet.rs)."""
    ns, _, name = qualified.partition("::")
    namespace = ops.__dict__.get(ns)
    if namespace is None:
        namespace = _OpNamespace(ns)
        setattr(ops, ns, namespace)
    packet = namespace.__dict__.get(name)
    if not isinstance(packet, OpOverloadPacket):
        fresh = _core._packet(qualified)
        if packet is not None:
            return fresh  # the name is taken by the namespace's own attribute (``name``)
        packet = fresh
        setattr(namespace, name, packet)
    return packet



def resolve(op):
    """The :class:`OpOverload` named by ``op``: a name, an overload, a packet or a custom op."""
    if isinstance(op, OpOverload):
        return op
    inner = getattr(op, "_opoverload", None)
    if isinstance(inner, OpOverload):
        return inner
    if isinstance(op, OpOverloadPacket):
        names = op.overloads()
        if not names:
            raise RuntimeError(f"operator {op._qualified_op_name} has no overloads defined")
        return getattr(op, "default" if "default" in names else names[0])
    if isinstance(op, str):
        found = _core._find_op(op)
        if found is None:
            raise RuntimeError(
                f"no operator named '{op}' is defined; expected 'ns::name' or 'ns::name.overload'"
            )
        return found
    raise TypeError(f"expected an operator (name, OpOverload, packet or custom op), got {op!r}")


from . import _op_pickle  # noqa: F401  (operators pickle by name: Note [Operator pickling])
