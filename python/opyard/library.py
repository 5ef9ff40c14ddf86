"""``opyard.library``: define operators and register kernels, as ``torch.library``.

Example::

    >>> lib = opyard.library.Library("mylib", "DEF")
    >>> lib.define("twice(Tensor x) -> Tensor")
    'twice'
    >>> lib.impl("twice", lambda x: x + x, "CPU")
    >>> opyard.ops.mylib.twice(opyard.ones(2))
    tensor([2., 2.])
"""

import contextlib as _contextlib
import gc
import warnings
import weakref

from . import _core
from ._core import FunctionSchema
from ._keys import DispatchKey
from ._ops import OP_TAGS, OpOverload, Tag, resolve  # noqa: F401  (Tag: opyard.library.Tag stays)
from ._registration import _warned_overrides  # noqa: F401  (the once-per-(op, key) record)
from ._registration import KernelLibrary, builtin_fallback_site, fallthrough_kernel
from ._registration import destroy as _destroy  # noqa: F401  (the finalizer, reachable as before)
from ._registration import define_op as _define_op, register_fallback as _register_fallback
from ._registration import register_kernel as _register_kernel
from ._registration import FALLBACK_RECORDS, KERNEL_RECORDS  # noqa: F401  (Note [Kernel records], for every library)

__all__ = [
    "Library",
    "fallthrough_kernel",
    "define",
    "impl",
    "find_dangling_impls",
    "get_kernel",
]

# torch's Python Library.define refuses PURE_FUNCTION, which its C++ API accepts.
_ALIAS_ANALYSIS = ("", "FROM_SCHEMA", "CONSERVATIVE")
# The TorchScript interpreter's namespace: no library may define operators there.
_RESERVED_NAMESPACES = ("prim",)
_op_tags = OP_TAGS
_KINDS = ("DEF", "IMPL", "FRAGMENT")


_CLASS_PREFIX = "__torch__.torch.classes."


@_contextlib.contextmanager
def _scoped_library(*args, **kwargs):
    """A ``Library(*args, **kwargs)`` for the block, destroyed when it ends (its definitions and
    kernels gone), however it ends: torch's test helper of the same name."""
    lib = Library(*args, **kwargs)
    try:
        yield lib
    finally:
        lib._destroy()


def _check_custom_classes(schema):
    """torch's refusal of a custom class type in an operator definition: opyard registers no
    TorchScript classes, so every ``__torch__.torch.classes.ns.Cls`` is unknown."""
    parsed = schema if isinstance(schema, FunctionSchema) else _core.parse_schema(schema, False)
    for a in (*parsed.arguments, *parsed.returns):
        text = str(a.type)
        at = text.find(_CLASS_PREFIX)
        if at >= 0:
            name = text[at + len(_CLASS_PREFIX):].rstrip("]")
            raise RuntimeError(f"Unknown custom class type {name}. Please ensure it is registered. "
                               f"(Library.define of {str(schema)[:100]!r}: opyard has no TorchScript "
                               "classes; pass the object as an opaque argument some other way)")


def _check_key_arg(api, key):
    """A dispatch key is given by name (``"CPU"``) or as a ``DispatchKey`` member; a bare int
    (torch refuses it too) or any other object is refused before it reaches the registry."""
    if isinstance(key, (str, DispatchKey)):
        return
    raise TypeError(f"{api}: argument 'dispatch_key' must be a key name such as 'CPU' or a "
                    f"DispatchKey member, not {type(key).__name__} ({key!r})")


class Library(KernelLibrary):
    """A set of registrations in namespace ``ns`` that can be undone together.

    ``kind`` is ``"DEF"`` (defines the namespace; one per namespace),
    ``"FRAGMENT"`` (adds definitions) or ``"IMPL"`` (kernels only).
    ``dispatch_key`` is the default key of :meth:`impl` and :meth:`fallback`.
    """

    def __init__(self, ns, kind, dispatch_key=""):
        if not isinstance(kind, str) or kind not in _KINDS:
            raise ValueError(f"Unsupported kind: {kind}. Expected one of 'DEF', 'IMPL', 'FRAGMENT'")
        if not isinstance(ns, str):
            raise TypeError(f"Library(): argument 'ns' must be str (a namespace such as 'mylib'), "
                            f"not {type(ns).__name__}")
        _check_key_arg("Library()", dispatch_key)
        if ns == "_" and kind in ("DEF", "FRAGMENT"):
            macro = "TORCH_LIBRARY_FRAGMENT" if kind == "FRAGMENT" else "TORCH_LIBRARY"
            raise RuntimeError(
                f"{macro}: cannot define {macro} with the wildcard namespace _ (every "
                "TORCH_LIBRARY_FRAGMENT defines operators for a distinct namespace!) Did you mean to use "
                "TORCH_LIBRARY_IMPL instead? (Library(\"_\", \"IMPL\") registers fallbacks and kernels "
                "for every namespace)")
        if ns in _RESERVED_NAMESPACES and kind in ("DEF", "FRAGMENT"):
            raise ValueError(f"{ns} is a reserved namespace. Please try creating a library with another name.")
        super().__init__(ns, kind, dispatch_key)

    def __repr__(self):
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def __reduce__(self):
        # Its registrations live in this process's registry (a copy's handle would name another
        # library, or none): refuse, and say what travels instead.
        raise TypeError(
            f"cannot pickle or copy {self!r}: a Library holds this process's registrations; pickle "
            f"its operators (opyard.ops.{self.ns}.<name>), which travel by name, and create the "
            "Library by importing its module in the other process")

    def define(self, schema, alias_analysis="", *, tags=()):
        """Define an operator from its schema; returns its name as written in the schema."""
        if alias_analysis not in _ALIAS_ANALYSIS:
            raise RuntimeError(
                f"Invalid alias_analysis type {alias_analysis} (Library.define of {str(schema)[:100]!r}); "
                f"expected one of {_ALIAS_ANALYSIS}"
            )
        self._check_alive("define")
        if not isinstance(schema, (str, FunctionSchema)):
            raise TypeError(f"Library.define: expected the schema as a str such as "
                            f"'myop(Tensor x) -> Tensor' (or a FunctionSchema), got "
                            f"{type(schema).__name__}")
        tags = check_define_tags(schema, tags)
        if "__torch__" in str(schema):
            _check_custom_classes(schema)
        _define_op(self._handle, schema, self._defined, tags)
        text = schema if isinstance(schema, str) else str(schema)
        return text.split("(")[0].strip()

    def impl(self, op_name, fn, dispatch_key="", *, with_keyset=False, allow_override=True):
        """Register ``fn`` for ``op_name`` (name, ``name.overload`` or OpOverload) at a key.

        The key defaults to the library's, else CompositeImplicitAutograd.
        ``with_keyset=True`` passes the call's key set first. Overriding an
        existing kernel warns once; with ``allow_override=False`` it raises.
        """
        if not callable(fn):
            raise TypeError(f"Input function is required to be a callable but found type {type(fn)} "
                            f"(Library.impl of {str(op_name)[:100]!r})")
        self._check_alive("impl")
        _check_key_arg("Library.impl()", dispatch_key)
        name = op_name.name() if isinstance(op_name, OpOverload) else op_name
        if not isinstance(name, str):
            raise TypeError(f"impl should be passed either a name or an OpOverload object as the first "
                            f"argument, got {type(op_name)} (a str such as 'myop' or 'myop.overload')")
        key = dispatch_key or self.dispatch_key or None
        if key == "default":
            key = "CompositeExplicitAutograd"  # torch.library's device type for "every device"
        _register_kernel(self._handle, self.ns, name, key, fn, self._records, with_keyset=with_keyset,
                         allow_override=allow_override)

    def fallback(self, fn, dispatch_key="", *, with_keyset=False):
        """Register a boxed fallback ``fn(op, *args, **kwargs)`` for every operator at a key.

        Only libraries of the global namespace ``"_"`` may register fallbacks.
        With ``with_keyset=True`` it is called as ``fn(keyset, op, *args, **kwargs)``.
        """
        if not callable(fn):
            raise TypeError(f"Library.fallback: expected a callable, got {fn!r}")
        self._check_alive("fallback")
        _check_key_arg("Library.fallback()", dispatch_key)
        key = dispatch_key or self.dispatch_key or None
        if key is None:
            raise AssertionError("dispatch_key must not be empty for fallback (Library.fallback: name "
                                 "the key, e.g. fallback(fn, \"CPU\"), or give the Library one)")
        name = getattr(key, "name", key)
        where = self._site  # torch names the library's registration block
        if name in _BACKEND_ALIASES:
            # As torch: the fallback goes to the alias's runtime keys one by one; the first key held
            # refuses it, and the keys registered before it keep the fallback until _destroy().
            for runtime in _ALIAS_LEADING_KEYS:
                self._refuse_held_fallback(runtime, where)
                _register_fallback(self._handle, runtime, fn, self._records, with_keyset=with_keyset)
                _USER_FALLBACKS[runtime] = (weakref.ref(self), where)
        self._refuse_held_fallback(name, where)
        _register_fallback(self._handle, key, fn, self._records, with_keyset=with_keyset)
        _USER_FALLBACKS[name] = (weakref.ref(self), where)

    @staticmethod
    def _refuse_held_fallback(name, where):
        """torch's refusal of a second backend fallback at key ``name`` (opyard's own or a living Library's)."""
        builtin = _builtin_fallback_at(name)
        if builtin is not None:
            shown, site = builtin
            raise RuntimeError(f"Tried to register multiple backend fallbacks for the same dispatch key {shown}; "
                               f"previous registration registered at {site}, new registration registered at "
                               f"{where} (Library.fallback: opyard's own fallback serves this key; register "
                               "kernels for your operators there with Library.impl instead)")
        held = _USER_FALLBACKS.get(name)
        if held is not None and _holds_fallback(held[0]()):
            gc.collect()  # a Library no one holds (cyclic garbage) gives its fallback up first
            if _holds_fallback(held[0]()):
                raise RuntimeError(f"Tried to register multiple backend fallbacks for the same dispatch key {name}; "
                                   f"previous registration registered at {held[1]}, new registration registered at "
                                   f"{where} (Library.fallback: _destroy() the Library holding the first one)")

    def _register_fake(self, op_name, fn, _stacklevel=1, *, allow_override=True):
        """Register ``fn`` as the fake impl of ``op_name`` (``name`` or ``name.overload``) in this namespace.

        The method behind ``register_fake(..., lib=lib)``; code written for torch calls it directly.
        """
        self._check_alive("_register_fake")
        name = op_name.name() if isinstance(op_name, OpOverload) else op_name
        install_fake(self, resolve(name if "::" in name else f"{self.ns}::{name}"), fn,
                     allow_override=allow_override)

    def _check_alive(self, what):
        if not self._finalizer.alive:
            raise RuntimeError(f"Library object has been destroyed: Library.{what} on this Library "
                               f"({self.ns}, {self.kind}) after _destroy(); create a new Library")


# key name -> (the Library that registered a fallback there, where): as torch, a key takes one backend
# fallback from Library.fallback until that Library is destroyed. The fallbacks opyard installs itself
# (the defaults, autograd, tracing, fake tensors) are a stack below these, as kernels are.
_USER_FALLBACKS = {}


# The Autograd keys torch's own autograd fallback holds (its backends' out-of-tree keys,
# AutogradPrivateUse1 and AutogradNestedTensor, stay free for their backends). opyard's is registered
# at the alias ``Autograd``; torch names the alias by its first key, AutogradOther.
_AUTOGRAD_FALLBACK_KEYS = frozenset({"AutogradOther", "AutogradCPU", "AutogradCUDA", "AutogradXLA", "AutogradMPS",
                                     "AutogradXPU", "AutogradHPU", "AutogradLazy", "AutogradMAIA",
                                     "AutogradMeta"})

# The runtime keys an alias key stands for that hold one of opyard's own fallbacks, in the order torch
# registers an alias's fallback key by key (backends first, then autograd, then vmap's); the first one
# held refuses the registration, as in torch (src/dispatch/keyset.rs ``alias_expansion``).
_ALIAS_HELD_KEYS = {
    "CompositeImplicitAutograd": ("Meta", "AutogradOther", "Batched"),
    "CompositeExplicitAutograd": ("Meta",),
    "CompositeExplicitAutogradNonFunctional": ("Meta",),
    "FuncTorchBatchedDecomposition": ("Batched",),
}
# The aliases whose runtime keys begin with the backends.
_BACKEND_ALIASES = frozenset(("CompositeImplicitAutograd", "CompositeExplicitAutograd",
                              "CompositeExplicitAutogradNonFunctional"))
# The backend keys before Meta, the first key every one of those aliases holds (torch's backend order,
# which ``_core._key_names()`` keeps).
_ALIAS_LEADING_KEYS = tuple(_core._key_names()[:_core._key_names().index("Meta")])


def _builtin_fallback_at(name):
    """``(key as torch names it, where opyard registered its fallback)`` when opyard's own layers hold
    a fallback at key ``name``, else None. ``Fake`` is free: torch has no fallback there (opyard's fake
    tensors live there; a user's fallback stacks above theirs)."""
    if name == "Fake":
        return None
    for key in _ALIAS_HELD_KEYS.get(name, ()):
        held = _builtin_fallback_at(key)
        if held is not None:
            return held
    if name == "Autograd" or name in _AUTOGRAD_FALLBACK_KEYS:
        site = builtin_fallback_site(name) or builtin_fallback_site("Autograd")
        return None if site is None else ("AutogradOther" if name == "Autograd" else name, site)
    site = builtin_fallback_site(name)
    return None if site is None else (name, site)


def _holds_fallback(lib):
    return lib is not None and lib._finalizer.alive


def find_dangling_impls():
    """Operators that have kernels but no definition (``impl`` before ``define``)."""
    return _core._dangling_impls()


# Libraries opened on behalf of the free-function APIs, kept alive for the process.
_keepalive = []


def _fragment(ns):
    lib = Library(ns, "FRAGMENT")
    _keepalive.append(lib)
    return lib


def _device_key(types):
    """``"cpu"`` → ``"CPU"``, ``"default"`` → ``"CompositeExplicitAutograd"``; key names pass through."""
    types = types if isinstance(types, str) else getattr(types, "name", types)  # a DispatchKey member
    key = _DEVICE_KEYS.get(types)
    if key is not None:
        return key
    if isinstance(types, str) and types in _core._key_names():
        return types
    return device_keys(types, "impl")[0]  # raises torch's "Expected one of ... device string" error


def _parse_qualname(qualname):
    """``(ns, "::", name)`` of ``"ns::name"``; torch's error otherwise."""
    ns, sep, name = qualname.partition("::") if isinstance(qualname, str) else ("", "", "")
    if not sep or not ns or not name:
        raise ValueError(
            f'Expected `qualname` to be of the form "namespace::name", but got {str(qualname)[:200]}. The '
            "qualname passed to the opyard.library APIs must consist of a namespace and a name, e.g. aten::sin")
    return ns, sep, name


def define(qualname_or_lib, schema, alias_analysis="", *, lib=None, tags=()):
    """Define an operator.

    ``define("mylib::foo", "(Tensor x) -> Tensor")`` defines ``mylib::foo``;
    ``@define(lib, "foo(Tensor x) -> Tensor")`` (the 2.1 decorator form)
    defines it in ``lib`` and registers the decorated function as its
    CompositeImplicitAutograd kernel.
    """
    if isinstance(qualname_or_lib, Library):
        target = qualname_or_lib

        def wrap(f):
            name = target.define(schema, alias_analysis, tags=tags)
            target.impl(name, f)
            return f

        return wrap
    ns, sep, name = _parse_qualname(qualname_or_lib)
    target = lib if lib is not None else _fragment(ns)
    target.define(name + schema, alias_analysis, tags=tags)


def impl(qualname_or_lib, types_or_name, func=None, *, lib=None):
    """Register a kernel (usable as a decorator).

    ``@impl(lib, "foo", "CPU")`` (2.1 form: ``impl(lib, name, dispatch_key="")``)
    or ``@impl("mylib::foo", "cpu")`` / ``impl("mylib::foo", ["cpu", "cuda"], fn)``.
    """
    if isinstance(qualname_or_lib, Library):
        target, name = qualname_or_lib, types_or_name
        key = func if isinstance(func, str) else ""

        def wrap(f):
            target.impl(name, f, key)
            return f

        return wrap if not callable(func) else wrap(func)
    ns, sep, name = _parse_qualname(qualname_or_lib)
    keys = [types_or_name] if isinstance(types_or_name, str) else list(types_or_name)

    def register(f):
        target = lib if lib is not None else _fragment(ns)
        for t in keys:
            target.impl(name, f, _device_key(t))
        return f

    return register if func is None else register(func)


def _op_name(op):
    """``ns::name.overload`` of anything :func:`opyard._ops.resolve` accepts."""
    return resolve(op).name()


# --- custom op exports (begin) ---
from ._library import (  # noqa: E402
    CustomOpDef, get_ctx, infer_schema, register_autocast, register_autograd, register_fake, register_kernel,
    register_vmap, register_torch_dispatch, custom_op,
)
from ._library.register import DEVICE_KEYS as _DEVICE_KEYS, device_keys, install_fake  # noqa: E402
from ._library.tagged_schema import check_define_tags  # noqa: E402
from ._library.kernel_lookup import get_kernel  # noqa: E402

__all__ += ["CustomOpDef", "OpCheckError", "custom_op", "generate_opcheck_tests", "get_ctx", "infer_schema",
            "opcheck", "register_autocast", "register_autograd", "register_fake", "register_kernel", "register_vmap",
            "register_torch_dispatch", "impl_abstract"]
# --- custom op exports (end) ---


def impl_abstract(qualname, func=None, *, lib=None, _stacklevel=1):
    """Deprecated name of :func:`register_fake` (warns, then forwards)."""
    warnings.warn(
        "`opyard.library.impl_abstract` was renamed to `opyard.library.register_fake`. Please use that "
        "instead; we will remove `opyard.library.impl_abstract` in a future version.",
        FutureWarning, stacklevel=1 + _stacklevel)
    return register_fake(qualname, func, lib=lib)

# opcheck (fake tensors, tracing, test generation) loads when first named: defining and calling
# operators never needs it.
_OPCHECK_NAMES = ("OpCheckError", "generate_opcheck_tests", "opcheck")


def __getattr__(name):
    if name not in _OPCHECK_NAMES:
        raise AttributeError(f"module 'opyard.library' has no attribute '{name}'")
    from . import _opcheck
    for n in _OPCHECK_NAMES:
        globals()[n] = getattr(_opcheck, n)
    return globals()[name]


from ._exports import public_dir  # noqa: E402

_public_dir = public_dir(globals())


def __dir__():
    return sorted({*_public_dir(), *_OPCHECK_NAMES})
