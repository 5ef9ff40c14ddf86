"""``get_kernel``: the kernel the dispatch table holds for one operator and one runtime key.

The use is torch's: fetch the kernel a key runs now, register a new kernel at that key,
and let the new one call the old one for some inputs::

    >>> original = opyard.library.get_kernel("aten::sin", "CPU")
    >>> def my_sin(keyset, x):
    ...     return original.call_boxed(keyset, x) if (x < 0).any() else opyard.zeros_like(x)
    >>> lib = opyard.library.Library("aten", "IMPL")
    >>> lib.impl("sin", my_sin, "CPU", with_keyset=True)

The callable is resolved when ``get_kernel`` runs (from the computed table entry: its
registration's key and provenance, see Note [Kernel records]), so later registrations at
the same key do not change what the returned object calls.
"""

import enum

from .. import _core
from .._ops import ALIAS_KEYS, OpOverload, OpOverloadPacket
from .._registration import FALLBACK_RECORDS, KERNEL_RECORDS

__all__ = ["get_kernel", "SafeKernelFunction"]

# The registration keys a table entry of each kind comes from (besides the slot's own key).
_SOURCE_KEYS = {
    "kernel": (),
    "default backend kernel": ("CompositeExplicitAutogradNonFunctional", "CompositeExplicitAutograd"),
    "math kernel": ("CompositeImplicitAutograd",),
    "autograd kernel": ("Autograd",),
    "batched kernel": ("FuncTorchBatchedDecomposition",),
}


class SafeKernelFunction:
    """One kernel taken from a dispatch table; call it with ``call_boxed(keyset, *args, **kwargs)``.

    ``keyset`` is the ``DispatchKeySet`` a ``with_keyset=True`` kernel receives first; it is
    passed on to kernels registered that way and dropped for the others.
    """

    __slots__ = ("op_handle", "_fn", "_with_keyset", "_debug", "_failure")

    def __init__(self, op_handle, fn, with_keyset, debug, failure=None):
        self.op_handle = op_handle  # the OpOverload the kernel belongs to
        self._fn, self._with_keyset, self._debug, self._failure = fn, with_keyset, debug, failure

    def __repr__(self):
        return f"SafeKernelFunction(debug='{self._debug}')"

    def call_boxed(self, keyset, /, *args, **kwargs):
        """Run the kernel on ``args``/``kwargs`` (checked against the schema first)."""
        if not isinstance(keyset, _core.DispatchKeySet):
            raise TypeError(f"call_boxed(): expected a DispatchKeySet as the first argument (e.g. the "
                            f"keyset a with_keyset=True kernel receives), got {type(keyset).__name__}")
        if self._failure is not None:
            raise RuntimeError(self._failure)
        _check_arguments(self.op_handle._schema, args, kwargs)
        if self._with_keyset:
            return self._fn(keyset, *args, **kwargs)
        return self._fn(*args, **kwargs)


def _check_arguments(schema, args, kwargs):
    """The binder's argument errors (count, unknown keyword, missing value), in torch's words."""
    name = schema.name
    positional = [a for a in schema.arguments if not a.kwarg_only]
    if len(args) > len(positional):
        raise RuntimeError(f"{name}() expected at most {len(positional)} argument(s) but received "
                           f"{len(args)} argument(s). Declaration: {schema}")
    for i, a in enumerate(schema.arguments):
        given = (i < len(args) and not a.kwarg_only) or a.name in kwargs
        if not given and not a.has_default_value:
            raise RuntimeError(f"{name}() is missing value for argument '{a.name}'. Declaration: {schema}")
    names = {a.name for a in schema.arguments}
    for key in kwargs:
        if key not in names:
            raise RuntimeError(f"{name}() got an unexpected keyword argument '{key}'. Declaration: {schema}")


def _op_name(op):
    if isinstance(op, OpOverload):
        return op.name()
    if isinstance(op, str):
        return op.removesuffix(".default")
    qualname = getattr(op, "_qualname", None)  # a CustomOpDef
    if isinstance(qualname, str) and hasattr(op, "_opoverload"):
        return op._opoverload.name()
    what = "aten.sin" if isinstance(op, OpOverloadPacket) else repr(op)[:100]
    raise ValueError(f"get_kernel({what}): got unexpected type for op: {type(op)}; pass an "
                     "OpOverload (e.g. opyard.ops.aten.sin.default), 'ns::name[.overload]' or a CustomOpDef")


def _key_name(dispatch_key):
    if isinstance(dispatch_key, enum.Enum):
        dispatch_key = dispatch_key.name
    if not isinstance(dispatch_key, str):
        raise TypeError(f"get_kernel(): expected dispatch_key as a str (e.g. 'CPU') or a DispatchKey, got "
                        f"{type(dispatch_key).__name__}")
    if dispatch_key not in _core._key_names():
        raise ValueError(f"Invalid dispatch key: {dispatch_key[:100]}")
    if dispatch_key in ALIAS_KEYS:
        raise RuntimeError("Alias keys do not have runtime kernel registrations.")
    return dispatch_key


def get_kernel(op, dispatch_key):
    """The kernel the dispatch table of ``op`` holds for the runtime key ``dispatch_key``.

    ``op`` is ``"ns::name[.overload]"``, an OpOverload or a CustomOpDef; ``dispatch_key`` a key
    name or a ``DispatchKey``. Returns a :class:`SafeKernelFunction`; raises RuntimeError when
    the operator does not exist or has no kernel for that key.
    """
    kernel_records, fallback_records = KERNEL_RECORDS, FALLBACK_RECORDS  # See Note [Kernel records]
    name = _op_name(op)
    key = _key_name(dispatch_key)
    overload = _core._find_op(name)
    if overload is None:
        raise RuntimeError(f"operator {name} does not exist")
    row = next((r for r in _core._table_entries(name) if r[0] == key), None)
    if row is None:
        raise RuntimeError(f"no kernel for {key} for {name}")
    _, kernel_name, reason, provenance = row
    debug = f"registered at {provenance}" if provenance else reason
    if reason == "ambiguous autogradother":
        return SafeKernelFunction(overload, None, False, debug, failure=(
            f"{name} has kernels registered to both CompositeImplicitAutograd and a backend mapped to "
            "AutogradOther. This makes the backend kernel unreachable; the dispatcher will always prefer "
            "the CompositeImplicitAutograd lowering. If you want to override CompositeImplicitAutograd, "
            "please open an issue to request a dedicated Autograd dispatch key for the backend."))
    if kernel_name == "fallthrough":
        return SafeKernelFunction(overload, None, False, debug, failure=(
            f"get_kernel({name}, {key}) is a fallthrough: the dispatcher skips this key instead of "
            "calling a kernel, so there is nothing to call. Call the operator itself (it goes to the "
            "next key), or fetch the kernel of the key below."))
    if reason == "backend fallback":
        candidates = [(r, True) for r in fallback_records.get(key, ())]
    else:
        keys = (key, *_SOURCE_KEYS.get(reason, ()))
        candidates = [(r, False) for r in kernel_records.get(name, ()) if r[0] in keys]
    for (_, fn, with_keyset, site), is_fallback in reversed(candidates):
        if site == provenance:
            if is_fallback:
                return SafeKernelFunction(overload, _boxed_fallback(overload, fn, with_keyset), True, debug)
            return SafeKernelFunction(overload, fn, with_keyset, debug)
    raise RuntimeError(f"get_kernel({name}, {key}): the table entry ({reason} {kernel_name} registered at "
                       f"{provenance}) was not registered through opyard.library.Library, so its "
                       "callable is not known")


def _boxed_fallback(overload, fn, with_keyset):
    """A fallback as a kernel of ``overload``: fallbacks take the operator after the keyset."""
    if with_keyset:
        return lambda keyset, *args, **kwargs: fn(keyset, overload, *args, **kwargs)
    return lambda keyset, *args, **kwargs: fn(overload, *args, **kwargs)
