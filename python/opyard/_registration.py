"""Low-level registration: define operators and register kernels and fallbacks.

The layers below ``opyard.library`` (the built-in ops, autograd, custom ops,
fake tensors, tracing, autocast) register through :class:`KernelLibrary`, not
through the user-facing ``library.Library``, which builds on the pieces here
(the finalizer, the override warning, ``fallthrough_kernel``), so undoing a
library and warning about an override have one implementation.

Every registration records the first frame outside the registration API as
its source (``_provenance.caller_site``), e.g. ``_aten/__init__.py:42``.

Example::

    >>> lib = KernelLibrary("_", "IMPL")
    >>> lib.fallback(fallthrough_kernel, "Tracer")
"""

import warnings as _warnings
import weakref as _weakref

from . import _core
from ._ops import OP_TAGS, OpOverload, ops
from ._provenance import caller_site

__all__ = ["FALLBACK_RECORDS", "KERNEL_RECORDS", "KernelLibrary", "define_op", "define_ops", "destroy",
           "fallthrough_kernel", "fragment", "register_fallback", "register_kernel", "register_kernels",
           "warn_override"]

# (operator, key) pairs whose override already warned: the warning is once per pair.
_warned_overrides = set()

# Note [Kernel records]: the callables registered through impl / fallback, by
# "ns::name[.overload]" (or by key, for fallbacks), newest last, each as (key, fn,
# with_keyset, provenance). The core keeps only what the call path needs; get_kernel
# maps a computed table entry back to its callable through these. Registration time only.
# A bulk registration (thousands of built-in kernels, at import) queues its rows instead;
# they are recorded, in order, before the table is next read or written.


class _KernelRecords(dict):
    """``KERNEL_RECORDS``: a dict whose reads (``get``) and writes (``setdefault``) first record
    the rows queued by bulk registrations. See Note [Kernel records]."""

    __slots__ = ("pending",)

    def __init__(self):
        super().__init__()
        self.pending = []  # (ns, rows, default key, site, the library's records list)

    def _flushed(method):
        def read(self, *args):
            if self.pending:
                self.flush()
            return method(self, *args)
        read.__name__ = method.__name__
        return read

    get = _flushed(dict.get)
    setdefault = _flushed(dict.setdefault)
    __getitem__ = _flushed(dict.__getitem__)
    __contains__ = _flushed(dict.__contains__)
    __iter__ = _flushed(dict.__iter__)
    __len__ = _flushed(dict.__len__)
    keys = _flushed(dict.keys)
    values = _flushed(dict.values)
    items = _flushed(dict.items)
    del _flushed

    def flush(self):
        pending, self.pending = self.pending, []
        for ns, rows, default_key, site, records in pending:
            for name, key, fn, with_keyset in rows:
                qualified = name if "::" in name else f"{ns}::{name}"
                key = _key_name(key) or default_key or "CompositeImplicitAutograd"
                _record(self, qualified.removesuffix(".default"), (key, fn, with_keyset, site), records)


KERNEL_RECORDS = _KernelRecords()
FALLBACK_RECORDS = {}


def fallthrough_kernel():
    """Pass to :meth:`Library.impl` to register a fallthrough: the key is skipped."""
    raise NotImplementedError("fallthrough_kernel() should never be called.")


def _record(table, name, record, records):
    table.setdefault(name, []).append(record)
    records.append((table, name, record))


def _drop_records(records):
    KERNEL_RECORDS.flush()  # a library's queued rows join ``records`` first
    for table, name, record in records:
        entries = table.get(name)
        if entries is not None:
            entries[:] = [r for r in entries if r is not record]
            if not entries:
                del table[name]
    records.clear()


def _key_name(key):
    """A key given as a DispatchKey member or a string, as its name."""
    return getattr(key, "name", key)


def destroy(handle, defined, registrations, records):
    """The finalizer of a library; also run by ``Library._destroy()``.

    The cyclic GC may run it at any allocation, on any thread. That is safe
    because the core never runs Python code while its registry lock is held
    (Note [No foreign code under a lock]); were it ever called from under that
    lock, the core defers the destruction instead of waiting for itself.
    """
    # Forget cached packets first: the core forgets a packet left empty only
    # when nothing else holds it.
    for name in defined:
        ops._forget(name)
        OP_TAGS.pop(name, None)
    _core._destroy_library(handle)
    _drop_records(records)
    # Python-side registrations (fake impls) go with the library, newest first.
    while registrations:
        registrations.pop()()


def warn_override(op, key, previous, new, stacklevel=3):
    """Warn (once per operator and key) that a kernel replaced one registered at ``previous``.

    The default ``stacklevel`` points at the caller of the function that called this one.
    """
    if (op, key) in _warned_overrides:
        return
    _warned_overrides.add((op, key))
    _warnings.warn(
        "Overriding a previously registered kernel for the same operator and the same dispatch "
        f"key\n  operator: {op}\n  dispatch key: {key}\n  previous kernel: registered at "
        f"{previous}\n  new kernel: registered at {new}",
        UserWarning,
        stacklevel=stacklevel,
    )


def define_op(handle, schema, defined, tags):
    """Define ``schema`` in the library ``handle``; returns ``ns::name.overload``.

    ``defined`` (the library's list of its operators, which its finalizer forgets) gets the name;
    the operator's tags are recorded for ``OpOverload.tags``.
    """
    qualified = _core._define(handle, schema, caller_site())
    defined.append(qualified)
    OP_TAGS[qualified] = tuple(tags)
    ops._forget(qualified)
    return qualified


def define_ops(handle, schemas, defined, tags=(), forget=True):
    """Define every schema of ``schemas`` in library ``handle``, in order, with one core call.

    All or nothing; every operator is attributed to the one caller site and gets ``tags``.
    See Note [Bulk registration] (src/registry/bulk.rs). Returns the ``ns::name.overload`` names.
    ``forget=False`` keeps the packets ``ops`` cached: for packets bound before their overloads
    (Note [Operators defined on first use], src/python/dispatch/lazy.rs), which stay the registry's.
    """
    names = _core._define_many(handle, schemas, caller_site())
    defined.extend(names)
    if tags:
        OP_TAGS.update(dict.fromkeys(names, tuple(tags)))
    if forget:
        for qualified in names:
            ops._forget(qualified)
    return names


def register_kernels(handle, ns, rows, records, default_key=None):
    """Register ``rows`` of ``(op_name, key, fn, with_keyset)`` in library ``handle`` with one core call.

    Each operator's dispatch table is computed once for the batch and every row is attributed
    to the one caller site (Note [Bulk registration], src/registry/bulk.rs). A key of None is
    ``default_key`` (the library's), else CompositeImplicitAutograd. Overrides warn as ``impl``'s do.
    """
    site = caller_site()
    rows = list(rows)  # queued (Note [Kernel records]): a copy the caller cannot change
    shadowed = _core._impl_many(handle, rows, site, fallthrough_kernel)
    KERNEL_RECORDS.pending.append((ns, rows, default_key, site, records))
    for i, previous in shadowed:
        name, key = rows[i][0], _key_name(rows[i][1]) or default_key or "CompositeImplicitAutograd"
        warn_override(name if "::" in name else f"{ns}::{name}", key, previous, site, stacklevel=4)


def register_kernel(handle, ns, name, key, fn, records, *, with_keyset=False, allow_override=True):
    """Register ``fn`` for ``name`` at ``key`` (None: CompositeImplicitAutograd) in library ``handle``.

    ``records`` is the library's list of its kernel records (Note [Kernel records]). Replacing a
    kernel warns once per operator and key, at the caller of the ``impl`` method that called
    this; with ``allow_override=False`` the core raises instead.
    """
    site = caller_site()
    shadowed = _core._impl(
        handle, name, key, fn,
        with_keyset=with_keyset, fallthrough=fn is fallthrough_kernel,
        allow_override=allow_override, provenance=site,
    )
    qualified = name if "::" in name else f"{ns}::{name}"
    _record(KERNEL_RECORDS, qualified.removesuffix(".default"),
            (_key_name(key) or "CompositeImplicitAutograd", fn, with_keyset, site), records)
    if shadowed is not None:
        warn_override(qualified, key or "CompositeImplicitAutograd", shadowed, site, stacklevel=4)


def register_fallback(handle, key, fn, records, *, with_keyset=False):
    """Register the boxed fallback ``fn`` for every operator at ``key`` in library ``handle``."""
    site = caller_site()
    _core._fallback(handle, key, fn, with_keyset=with_keyset, fallthrough=fn is fallthrough_kernel,
                    provenance=site)
    _record(FALLBACK_RECORDS, _key_name(key), (_key_name(key), fn, with_keyset, site), records)


class KernelLibrary:
    """Registrations in namespace ``ns`` made by opyard's own layers, undone together.

    The same registry entries as ``library.Library`` (``kind`` ``"DEF"``,
    ``"FRAGMENT"`` or ``"IMPL"``), without the argument checks meant for
    users: callers here pass schemas, keys and kernels they own.
    """

    def __init__(self, ns, kind, dispatch_key=""):
        self._site = caller_site()  # where the library was made: torch's messages name it
        self._handle = _core._new_library(ns, kind, dispatch_key or None, self._site)
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key
        self._defined = []
        # Callables that undo registrations kept outside the dispatcher (fake impls).
        self._registration_handles = []
        self._records = []  # (table, name, record) this library added; see Note [Kernel records]
        self._finalizer = _weakref.finalize(self, destroy, self._handle, self._defined,
                                            self._registration_handles, self._records)

    def __repr__(self):
        return f"KernelLibrary(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})"

    def define(self, schema, alias_analysis="", *, tags=()):
        """Define an operator; returns its name as written in the schema."""
        self._check_alive("define")
        define_op(self._handle, schema, self._defined, tags)
        return schema.split("(")[0].strip()

    def define_many(self, schemas, *, tags=(), forget=True):
        """Define every schema of ``schemas`` with one core call; returns their ``ns::name.overload``.

        ``forget``: see :func:`define_ops`."""
        self._check_alive("define_many")
        return define_ops(self._handle, schemas, self._defined, tags, forget)

    def impl_many(self, rows):
        """Register ``rows`` of ``(op_name, dispatch_key, fn, with_keyset)`` with one core call.

        The dispatch key of each row is explicit (or empty for the library's); see
        :func:`register_kernels`.
        """
        self._check_alive("impl_many")
        register_kernels(self._handle, self.ns, rows, self._records, self.dispatch_key or None)

    def impl(self, op_name, fn, dispatch_key="", *, with_keyset=False, allow_override=True):
        """Register ``fn`` for ``op_name`` (name, ``name.overload`` or OpOverload) at a key."""
        self._check_alive("impl")
        name = op_name.name() if isinstance(op_name, OpOverload) else op_name
        key = dispatch_key or self.dispatch_key or None
        if key == "default":
            key = "CompositeExplicitAutograd"
        register_kernel(self._handle, self.ns, name, key, fn, self._records, with_keyset=with_keyset,
                        allow_override=allow_override)

    def fallback(self, fn, dispatch_key="", *, with_keyset=False):
        """Register a boxed fallback ``fn(op, *args, **kwargs)`` for every operator at a key."""
        self._check_alive("fallback")
        key = dispatch_key or self.dispatch_key or None
        register_fallback(self._handle, key, fn, self._records, with_keyset=with_keyset)
        name = _key_name(key)
        living = [(ref, site) for ref, site in BUILTIN_FALLBACK_SITES.get(name, ()) if ref() is not None]
        BUILTIN_FALLBACK_SITES[name] = living + [(_weakref.ref(self), caller_site())]

    def _destroy(self):
        """Remove every registration of this library, restoring what it shadowed."""
        self._finalizer()

    def _check_alive(self, what):
        if not self._finalizer.alive:
            raise RuntimeError(f"KernelLibrary.{what}: this library ({self.ns}, {self.kind}) was destroyed")


# key name -> [(the library, where it registered its fallback there)] for opyard's own layers'
# libraries: as torch's built-in fallbacks, these keys take no backend fallback from
# ``Library.fallback`` while one of them lives (``builtin_fallback_site``).
BUILTIN_FALLBACK_SITES = {}


def builtin_fallback_site(key_name):
    """Where the first living library of opyard's own layers registered a fallback at ``key_name``."""
    for ref, site in BUILTIN_FALLBACK_SITES.get(key_name, ()):
        lib = ref()
        if lib is not None and lib._finalizer.alive:
            return site
    return None


# Libraries opened on behalf of the free-function APIs, kept alive for the process.
_keepalive = []


def fragment(ns):
    """A FRAGMENT library of ``ns`` kept for the life of the process."""
    lib = KernelLibrary(ns, "FRAGMENT")
    _keepalive.append(lib)
    return lib
