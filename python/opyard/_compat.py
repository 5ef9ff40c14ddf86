"""torch's private spellings that extension code uses, mapped onto opyard's public homes.

Extension libraries reach past ``torch.library`` into ``torch._check``,
``torch._C.Tag``, ``torch._custom_ops``, ``torch._subclasses.fake_tensor``...
so that ``torch`` -> ``opyard`` ports their code verbatim, each such module
exists in opyard under the same spelling and holds exactly the names
:data:`ALIASES` lists for it: the table below is the single place that says
which private name is which public object. The private modules only copy
their row into their namespace; the public homes stay the documented API.

A few torch entry points take a different calling convention than their
public home (``_C._dispatch_has_kernel_for_dispatch_key("ns::op", "CPU")``
takes a name where ``OpOverload.has_kernel_for_dispatch_key`` is a method):
the adapters for those are the functions defined here.

This is the facade layer: it may import any layer, and nothing below it
imports it.
"""

import importlib as _importlib

from . import _core, autograd, dispatcher, overrides
from ._library.fake_impl import get_ctx
from ._library.register import DEVICE_KEYS
from ._ops import Tag, registered_keys
from ._tensor import _PYTHON_BITS, Tensor
from .dispatcher import DispatchKey, DispatchKeySet
from .utils import python_dispatch

__all__ = ["ALIASES", "FACADE_NAMES", "names_of"]


# --- adapters: torch's calling conventions over the public homes ------------------------------

def _dispatch_dump(name):
    """``_C._dispatch_dump("ns::op[.overload]")``: the registrations, as ``dispatcher.dump``."""
    return dispatcher.dump(name)


def _dispatch_dump_table(name):
    """``_C._dispatch_dump_table("ns::op[.overload]")``: the computed table, as ``dispatcher.dump_table``."""
    return dispatcher.dump_table(name)


def _overload_named(name):
    if not isinstance(name, str):
        raise TypeError(f"expected an operator name 'ns::op' or 'ns::op.overload', got {name!r:.100}")
    op = _core._find_op(name)
    if op is None:
        raise RuntimeError(f"operator {name} does not exist")
    return op


def _dispatch_has_kernel_for_dispatch_key(name, dispatch_key):
    """Whether ``name`` has a kernel registered directly at ``dispatch_key`` (a key or its name)."""
    return _overload_named(name).has_kernel_for_dispatch_key(dispatch_key)


def _dispatch_has_computed_kernel_for_dispatch_key(name, dispatch_key):
    """Whether the dispatch table of ``name`` has an entry at ``dispatch_key`` (a kernel of any
    kind: direct, composite, a backend fallback or a fallthrough), as torch's table query."""
    key = dispatch_key if isinstance(dispatch_key, str) else DispatchKey(dispatch_key).name
    op = _overload_named(name).name()
    return any(row[0] == key for row in _core._table_entries(op))


def _dispatch_has_kernel_for_any_dispatch_key(name, dispatch_key_set):
    """Whether ``name`` has a kernel at a runtime key of ``dispatch_key_set``."""
    return _overload_named(name).has_kernel_for_any_dispatch_key(dispatch_key_set)


def _alias_key_arg(fn, key):
    if not isinstance(key, DispatchKey):
        raise TypeError(f"{fn}(): argument must be a DispatchKey member (e.g. DispatchKey.CPU), "
                        f"not {type(key).__name__}")
    return key


def _dispatch_is_alias_key(key):
    """Whether ``key`` names a set of runtime keys (Autograd, the Composite* keys, FuncTorchBatchedDecomposition)."""
    key = _alias_key_arg("_dispatch_is_alias_key", key)
    return key.value > DispatchKey.Undefined.value


def _dispatch_is_included_in_alias(key, alias):
    """Whether runtime key ``key`` is one of the keys ``alias`` stands for (a key is included in itself)."""
    key = _alias_key_arg("_dispatch_is_included_in_alias", key)
    alias = _alias_key_arg("_dispatch_is_included_in_alias", alias)
    return key == alias or DispatchKeySet(alias).has(key)


def _dispatch_has_kernel(name):
    """Whether ``name`` has any kernel registered (at any key)."""
    return bool(registered_keys(_overload_named(name).name()))


def _dispatch_keys(tensor):
    """The dispatch keys ``tensor`` carries."""
    raw = getattr(tensor, "_keyset", None)
    if not isinstance(raw, int):
        raise TypeError(f"_dispatch_keys: expected a Tensor, got {type(tensor).__name__}")
    return DispatchKeySet.from_raw(raw)


def _dispatch_key_for_device(device_type):
    """The backend dispatch key name of a device type: ``"cpu"`` -> ``"CPU"``."""
    key = DEVICE_KEYS.get(device_type) if device_type != "default" else None
    if key is None:
        raise RuntimeError(f"Expected one of {', '.join(k for k in DEVICE_KEYS if k != 'default')} device "
                           f"type at start of device string: {str(device_type)[:100]}")
    return key


class _KeySetsGuard:
    """torch's ``_C`` dispatch-key guards: constructed with their arguments (checked as torch's
    binding checks them), active between ``__enter__`` and ``__exit__`` on this thread."""

    __slots__ = ("_guard", "_open")
    _signature = ""

    def __init__(self, *args):
        raise NotImplementedError  # each guard below defines its own

    def _refuse(self, args):
        shown = ", ".join(repr(a) for a in args)
        name = type(self).__name__
        raise TypeError(f"__init__(): incompatible constructor arguments. The following argument types are "
                        f"supported:\n    1. opyard._C.{name}({self._signature})\n\nInvoked with: {shown}")

    def __enter__(self):
        self._guard.__enter__()
        self._open = getattr(self, "_open", 0) + 1
        return self

    def __exit__(self, *exc):
        self._open -= 1
        return self._guard.__exit__(*exc)

    def __del__(self):
        # As torch's RAII guards: one entered and never exited is undone when it is collected.
        while getattr(self, "_open", 0) > 0:
            self.__exit__(None, None, None)


class _ExcludeDispatchKeyGuard(_KeySetsGuard):
    """Context manager: exclude ``keyset`` (a DispatchKeySet) on this thread."""

    __slots__ = ()
    _signature = "arg0: opyard._C.DispatchKeySet"

    def __init__(self, *args):
        if len(args) != 1 or not isinstance(args[0], DispatchKeySet):
            self._refuse(args)
        self._guard = _core._KeyGuard(exclude=args[0])


class _IncludeDispatchKeyGuard(_KeySetsGuard):
    """Context manager: include ``key`` (a DispatchKey) on this thread."""

    __slots__ = ()
    _signature = "arg0: opyard._C.DispatchKey"

    def __init__(self, *args):
        if len(args) != 1 or not isinstance(args[0], DispatchKey):
            self._refuse(args)
        self._guard = _core._KeyGuard(include=DispatchKeySet(args[0]))


class _ForceDispatchKeyGuard(_KeySetsGuard):
    """Context manager: replace this thread's included and excluded sets, restored on exit."""

    __slots__ = ()
    _signature = "arg0: opyard._C.DispatchKeySet, arg1: opyard._C.DispatchKeySet"

    def __init__(self, *args):
        if len(args) != 2 or not all(isinstance(a, DispatchKeySet) for a in args):
            self._refuse(args)
        self._guard = _core._SetKeysGuard(*args)


class _PreserveDispatchKeyGuard(_KeySetsGuard):
    """Context manager: restore this thread's included and excluded sets on exit."""

    __slots__ = ()

    def __init__(self, *args):
        if args:
            self._refuse(args)
        self._guard = None

    def __enter__(self):
        self._guard = _core._SetKeysGuard(*_core._local_keysets())
        return super().__enter__()


def _dispatch_tls_local_include_set():
    return _core._local_keysets()[0]


def _dispatch_tls_local_exclude_set():
    return _core._local_keysets()[1]


def _dispatch_tls_is_dispatch_key_included(key):
    return _core._local_keysets()[0].has(key)


def _dispatch_tls_is_dispatch_key_excluded(key):
    return _core._local_keysets()[1].has(key)


def _get_dispatch_stack_at(i):
    """The dispatch mode at position ``i`` of this thread's stack (0 is the outermost)."""
    return python_dispatch._get_current_dispatch_mode_stack()[i]


def _dispatch_is_tensor_subclass_like(tensor):
    """Whether ``tensor`` is a Tensor subclass instance that takes part in a protocol (torch's
    ``isTensorSubclassLike``: a ``__torch_dispatch__`` subclass, or one that keeps its
    ``__torch_function__``); False for a plain tensor."""
    t = type(tensor)
    return t is not Tensor and (bool(tensor._keyset & _PYTHON_BITS) or overrides.is_tensor_like(tensor))


def _prims_check(b, s, exc_type=RuntimeError):
    """``torch._prims_common.check(b, s, exc_type)``: raise ``exc_type(s())`` unless ``b``."""
    _fake(".checks").check_with(exc_type, b, s)


# --- the table ------------------------------------------------------------------------------------

# The rows naming ``opyard.fake``'s objects are functions (see ``_Rows``): the fake layer loads when
# one of them is first read, not with ``import opyard``.
def _fake(submodule=""):
    return _importlib.import_module("opyard.fake" + submodule)


def _checks():
    checks = _fake(".checks")
    return {
        "_check": checks.check, "_check_with": checks.check_with, "_check_is_size": checks.check_is_size,
        "_check_index": checks.check_index, "_check_value": checks.check_value, "_check_type": checks.check_type,
        "_check_not_implemented": checks.check_not_implemented, "_check_tensor_all": checks.check_tensor_all,
    }


def _symbolic():
    symbolic, sym = _fake(".symbolic"), _fake(".sym")
    return {
        "SymInt": symbolic.SymInt, "SymFloat": sym.SymFloat, "SymBool": symbolic.SymBool,
        "sym_int": sym.sym_int, "sym_float": sym.sym_float, "sym_max": sym.sym_max, "sym_min": sym.sym_min,
        "sym_not": sym.sym_not,
    }


def _legacy():
    # The custom-op names first, through the package (``opyard._library.custom_op`` stays the function;
    # legacy's own import of the submodule would bind the package attribute to the module).
    _importlib.import_module("opyard._library").custom_op  # noqa: B018
    return _importlib.import_module("opyard._library.legacy")


#: The names of the ``opyard`` row: the facade resolves them on first access (PEP 562).
FACADE_NAMES = ("_check", "_check_with", "_check_is_size", "_check_index", "_check_value", "_check_type",
                "_check_not_implemented", "_check_tensor_all", "SymInt", "SymFloat", "SymBool", "sym_int",
                "sym_float", "sym_max", "sym_min", "sym_not", "Tag")


class _Rows(dict):
    """The table, whose row may be a function building it: a row that names a module the facade
    loads on first use (``opyard.fx``) is built when its private module asks for it, so that
    ``import opyard`` does not load that module."""

    def __getitem__(self, module):
        row = super().__getitem__(module)
        if callable(row):
            row = row()
            self[module] = row
        return row


def _fx_row():
    return {"make_fx": _importlib.import_module("opyard.fx").make_fx}


def _decomp_row():
    d = _importlib.import_module("opyard.fx.decomposition")
    return {"register_decomposition": d.register_decomposition, "get_decompositions": d.get_decompositions,
            "decomposition_table": d.decomposition_table, "global_decomposition_table": d.global_decomposition_table}


def _inductor_decomposition_row():
    d = _importlib.import_module("opyard.fx.decomposition")
    return {"register_decomposition": d.register_inductor_decomposition, "decompositions": d.inductor_decompositions,
            "select_decomp_table": d.select_decomp_table}


#: private module -> {name in that module: the public object it is}
ALIASES = _Rows({
    "opyard": lambda: {**_checks(), **_symbolic(), "Tag": Tag},
    "opyard._C": lambda: {
        "Tag": Tag, "DispatchKey": DispatchKey, "DispatchKeySet": DispatchKeySet,
        "parse_schema": _core.parse_schema, "FunctionSchema": _core.FunctionSchema,
        "Argument": _core.Argument, "AliasInfo": _core.AliasInfo,
        "_dispatch_dump": _dispatch_dump, "_dispatch_dump_table": _dispatch_dump_table,
        "_dispatch_has_kernel": _dispatch_has_kernel,
        "_dispatch_is_alias_key": _dispatch_is_alias_key,
        "_dispatch_is_included_in_alias": _dispatch_is_included_in_alias,
        "_dispatch_has_kernel_for_dispatch_key": _dispatch_has_kernel_for_dispatch_key,
        "_dispatch_has_computed_kernel_for_dispatch_key": _dispatch_has_computed_kernel_for_dispatch_key,
        "_dispatch_has_kernel_for_any_dispatch_key": _dispatch_has_kernel_for_any_dispatch_key,
        "_dispatch_keys": _dispatch_keys, "_dispatch_key_for_device": _dispatch_key_for_device,
        "_dispatch_find_dangling_impls": _importlib.import_module("opyard.library").find_dangling_impls,
        "_ExcludeDispatchKeyGuard": _ExcludeDispatchKeyGuard, "ExcludeDispatchKeyGuard": _ExcludeDispatchKeyGuard,
        "_IncludeDispatchKeyGuard": _IncludeDispatchKeyGuard, "_ForceDispatchKeyGuard": _ForceDispatchKeyGuard,
        "_PreserveDispatchKeyGuard": _PreserveDispatchKeyGuard,
        "_AutoDispatchBelowAutograd": dispatcher.below_autograd,
        "_dispatch_tls_local_include_set": _dispatch_tls_local_include_set,
        "_dispatch_tls_local_exclude_set": _dispatch_tls_local_exclude_set,
        "_dispatch_tls_is_dispatch_key_included": _dispatch_tls_is_dispatch_key_included,
        "_dispatch_tls_is_dispatch_key_excluded": _dispatch_tls_is_dispatch_key_excluded,
        "_set_grad_enabled": autograd.set_grad_enabled, "is_grad_enabled": autograd.is_grad_enabled,
        "_disabled_torch_function_impl": overrides._disabled_torch_function_impl,
        "DisableTorchFunctionSubclass": overrides.DisableTorchFunctionSubclass,
        "DisableTorchFunction": overrides.DisableTorchFunction,
        "_EnableTorchFunction": overrides._EnableTorchFunction,
        "_is_torch_function_all_disabled": overrides._is_torch_function_all_disabled,
        "_len_torch_function_stack": overrides._len_torch_function_stack,
        "_get_function_stack_at": overrides._get_function_stack_at,
        "_disabled_torch_dispatch_impl": python_dispatch._disabled_torch_dispatch_impl,
        "_DisableTorchDispatch": python_dispatch.no_dispatch,
        "_len_torch_dispatch_stack": python_dispatch._len_torch_dispatch_stack,
        "_get_dispatch_stack_at": _get_dispatch_stack_at,
        "_dispatch_isTensorSubclassLike": _dispatch_is_tensor_subclass_like,
    },
    "opyard._custom_ops": lambda: {
        "custom_op": _legacy().declare_op, "impl": _legacy().impl, "impl_abstract": _legacy().impl_abstract_quiet,
        "get_ctx": get_ctx, "_destroy": _legacy().destroy,
    },
    "opyard._subclasses": lambda: {"FakeTensor": _fake().FakeTensor, "FakeTensorMode": _fake().FakeTensorMode},
    "opyard._subclasses.fake_tensor": lambda: {
        "FakeTensor": _fake().FakeTensor, "FakeTensorMode": _fake().FakeTensorMode,
        "DynamicOutputShapeException": _fake(".symbolic").DynamicOutputShapeException,
        "DataDependentOutputException": _fake(".tensor").DataDependentOutputException,
        "UnsupportedOperatorException": _fake(".convert").UnsupportedOperatorException,
    },
    "opyard._custom_op": lambda: {},
    "opyard._custom_op.impl": lambda: {
        name: getattr(_importlib.import_module("opyard._library.legacy_custom_op"), name)
        for name in ("custom_op", "CustomOp", "get_op", "global_registry", "_find_custom_op", "warn_deprecated")},
    "opyard._decomp": _decomp_row,
    "opyard._inductor": lambda: {},
    "opyard._inductor.decomposition": _inductor_decomposition_row,
    "opyard.fx.experimental.proxy_tensor": _fx_row,
    "opyard.fx.experimental.symbolic_shapes": lambda: {
        "ShapeEnv": _fake(".symbolic").ShapeEnv,
        "GuardOnDataDependentSymNode": _fake(".symbolic").GuardOnDataDependentSymNode,
        **{name: _symbolic()[name] for name in ("SymInt", "SymFloat", "SymBool")},
    },
    "opyard.utils._python_dispatch": {
        name: getattr(python_dispatch, name) for name in python_dispatch.__all__
    },
    "opyard.utils._mode_utils": {
        "no_dispatch": python_dispatch.no_dispatch, "all_same_mode": python_dispatch.all_same_mode,
    },
    "opyard._python_dispatcher": {"PythonDispatcher": dispatcher.PythonDispatcher},
    "opyard._prims_common": {"check": _prims_check},
})


def names_of(module_name):
    """The ``{name: object}`` row of ``module_name`` (a private module copies it into its namespace)."""
    return dict(ALIASES[module_name])
