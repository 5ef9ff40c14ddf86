"""Which functions the ``__opyard_function__`` protocol can override (torch's listing helpers)."""

import inspect
import keyword

from . import _core
from ._function_protocol import PROPERTY_GETTERS, ROUTED_METHODS, ROUTED_PROPERTIES
from ._ops import OpOverload, OpOverloadPacket

__all__ = ["get_overridable_functions", "get_testing_overrides", "get_ignored_functions", "ROUTED_METHODS",
           "ROUTED_PROPERTIES", "PROPERTY_GETTERS"]


def _is_op(obj):
    return isinstance(obj, (OpOverload, OpOverloadPacket)) or isinstance(
        getattr(obj, "_op_packet", None), OpOverloadPacket
    )


def _facade():
    """The ``opyard`` package whose public names are listed (``Hooks.facade``: this module never
    imports it)."""
    hooks = _core._hooks(None)
    if hooks is None:
        raise RuntimeError("opyard.overrides: the opyard package is still being imported; list the "
                           "overridable functions after `import opyard` has finished")
    return hooks.facade


def get_overridable_functions():
    """``{namespace: [functions]}`` for the public functions the protocol can override."""
    opyard = _facade()

    out = {opyard: [], opyard.Tensor: []} if hasattr(opyard, "Tensor") else {opyard: []}
    for name in sorted(getattr(opyard, "__all__", ())):
        obj = getattr(opyard, name, None)
        if _is_op(obj):
            out[opyard].append(obj)
    if hasattr(opyard, "Tensor"):
        for name in sorted(dir(opyard.Tensor)):
            obj = inspect.getattr_static(opyard.Tensor, name, None)
            if _is_op(obj):
                out[opyard.Tensor].append(getattr(opyard.Tensor, name))
        for name in ROUTED_METHODS:
            obj = inspect.getattr_static(opyard.Tensor, name, None)
            if obj is not None and not _is_op(obj):
                out[opyard.Tensor].append(obj)
        out[opyard.Tensor].extend(PROPERTY_GETTERS[n] for n in ROUTED_PROPERTIES if n in PROPERTY_GETTERS)
    return out


def get_ignored_functions():
    """Public ``opyard`` callables the protocol never intercepts (factories, utilities)."""
    opyard = _facade()

    ignored = []
    for name in sorted(getattr(opyard, "__all__", ())):
        obj = getattr(opyard, name, None)
        if callable(obj) and not isinstance(obj, type) and not _is_op(obj):
            ignored.append(obj)
    return tuple(ignored)


def _signature_of(func):
    packet = func if isinstance(func, OpOverloadPacket) else getattr(func, "_op_packet", None)
    if isinstance(func, OpOverload):
        schema = func._schema
    elif packet is None or not packet.overloads():
        try:
            return inspect.signature(func)
        except (TypeError, ValueError):
            return inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL),
                                      inspect.Parameter("kwargs", inspect.Parameter.VAR_KEYWORD)])
    else:
        schema = getattr(packet, packet.overloads()[0])._schema
    params, kind = [], inspect.Parameter.POSITIONAL_OR_KEYWORD
    for arg in schema.arguments:
        if arg.kwarg_only:
            kind = inspect.Parameter.KEYWORD_ONLY
        name = "input" if arg.name == "self" else arg.name
        if keyword.iskeyword(name):
            name += "_"
        default = arg.default_value if arg.has_default_value else inspect.Parameter.empty
        params.append(inspect.Parameter(name, kind, default=default))
    return inspect.Signature(params)


def get_testing_overrides():
    """``{function: dummy}``: dummies with the function's signature that return -1."""
    overrides = {}
    for funcs in get_overridable_functions().values():
        for func in funcs:
            def dummy(*args, **kwargs):
                return -1

            dummy.__signature__ = _signature_of(func)
            dummy.__name__ = getattr(func, "__name__", "dummy")
            overrides[func] = dummy
    return overrides

