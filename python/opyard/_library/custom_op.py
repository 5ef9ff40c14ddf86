"""``custom_op`` and the ``register_*`` APIs (torch.library's high-level layer).

A custom op is an ordinary ``Library`` operator. The user's function is
registered as the backend kernel itself (CompositeExplicitAutograd, or the keys
of ``device_types``), so a call without grad goes op -> dispatcher -> function
with no wrapper in between; a fake impl becomes the Meta kernel and the fake
impl FakeTensorMode runs; an autograd formula becomes one Autograd-key kernel.

Example::

    >>> @custom_op("mylib::numpy_sin", mutates_args=())
    ... def numpy_sin(x: Tensor) -> Tensor:
    ...     return opyard.from_numpy(np.sin(x.numpy()))
    >>> numpy_sin(opyard.randn(3))
"""

import contextlib
import warnings

from .. import _core
from .._op_pickle import definition_site, load as load_op, missing_op_error
from .._ops import Tag, ops, resolve
from .._registration import KernelLibrary, fragment
from .._torch_dispatch_rules import register_rule
from ._opdefs import OPDEFS, no_fake_impl_message
from .fake_impl import run_fake_impl, run_fake_impl_on_meta, trivial_fake_impl
from .aliasing import output_check_failed
from .infer_schema import infer_schema
from .register import (DEVICE_KEYS, device_arg_index, device_keys, forget_fakes, has_tensor_arg,
                       install_autocast, install_fake, install_kernel, install_vmap, push_fake)
from .tagged_schema import check_define_tags

__all__ = ["custom_op", "CustomOpDef", "register_kernel", "register_fake", "register_autograd",
           "register_vmap", "register_autocast", "register_torch_dispatch", "OPDEFS"]


def _log():
    """This module's logger; ``logging`` loads on the first warning, not with ``import opyard``."""
    import logging
    return logging.getLogger(__name__)

# Namespaces that look like the framework's own: custom ops may not be defined there.
RESERVED_NS = frozenset({"prim", "prims", "aten", "at", "torch", "pytorch"})


def _tag_tuple(tags):
    if tags is None:
        return ()
    return tuple(tags) if isinstance(tags, (list, tuple, set)) else (tags,)


def _split_name(name):
    ns, sep, op = name.partition("::") if isinstance(name, str) else ("", "", "")
    if not sep or not ns or not op or "::" in op or "." in op:
        raise ValueError(f"custom_op(name={name!r}): expected a name like \"mylib::my_op\" "
                         "(a namespace, '::' and an operator name without an overload)")
    _check_namespace(ns)
    return ns, op


def _check_namespace(ns):
    if ns in RESERVED_NS:
        raise ValueError(f"custom_op(..., ns='{ns}'): '{ns}' is a reserved namespace, "
                         "please choose something else. ")


def _split_custom_name(name):
    """``(ns, "op" or "op.overload")`` of custom_op's ``name``; refuses reserved namespaces."""
    ns, sep, op = name.partition("::") if isinstance(name, str) else ("", "", "")
    base, _, overload = op.partition(".")
    if (not sep or not ns.isidentifier() or not base.isidentifier()
            or (overload and not overload.isidentifier()) or op.endswith(".")):
        raise ValueError(f"custom_op(name={str(name)[:200]!r}): expected a name like \"mylib::my_op\" or "
                         "\"mylib::my_op.overload\" (a namespace, '::', an operator name and "
                         "optionally '.' and an overload name, each an identifier)")
    _check_namespace(ns)
    return ns, op


class CustomOpDef(_core.CustomOpBase):
    """A custom operator made by ``custom_op``: callable, with ``register_*`` methods.

    Do not instantiate it directly; use :func:`opyard.library.custom_op`. Calling it runs
    the operator's call path directly (Note [Custom op call] in ``src/python/dispatch/custom_op.rs``).
    """

    def __init__(self, namespace, name, schema, fn, tags=()):
        self._namespace, self._name = namespace, name  # name may be "op.overload"
        self._qualname = f"{namespace}::{name}"
        self._schema_str = schema
        self._init_fn = fn
        self._lib = KernelLibrary(namespace, "FRAGMENT")
        # torch tags every custom op pt2_compliant_tag, then the caller's tags.
        tag_set = check_define_tags(name + schema, _tag_tuple(tags))  # Library.define's checks
        self._lib.define(name + schema, tags=(Tag.pt2_compliant_tag, *tag_set))
        base, _, overload = name.partition(".")
        self._opoverload = getattr(getattr(getattr(ops, namespace), base), overload or "default")
        parsed = self._opoverload._schema
        self._is_inplace = Tag.inplace in tag_set
        self._is_out = Tag.out in tag_set
        self._out_kwarg_names = () if not self._is_out else tuple(
            a.name for a in parsed.arguments if a.kwarg_only and a.alias_info is not None and a.alias_info.is_write)
        # See Note [Custom op aliasing]: ops returning Tensors are checked, except views (the
        # schema says the output aliases) and in-place/out ops (checked to return their inputs).
        returns = parsed.returns
        is_view = any(r.alias_info is not None and not r.alias_info.is_write for r in returns)
        self._check_alias = (not is_view and not self._is_inplace and not self._is_out
                             and any(r.real_type.startswith("Tensor") for r in returns))
        check = ("alias" if self._check_alias else "inplace" if self._is_inplace
                 else "out" if self._is_out else "none")
        self._set_call_plan(self._opoverload, check, list(self._out_kwarg_names), output_check_failed)
        self._backend_fns = {}
        self._disabled_kernel = set()
        self._disabled_libs = {}  # device type -> the Library that puts the default impl back on top
        self._abstract_fn = self._backward_fn = self._setup_context_fn = self._vmap_fn = None
        self._refusals = None  # See _refuse_other_devices
        self._meta_reads_fake_impl = False  # See _install_default_meta_kernel
        self.__name__ = name
        self.__qualname__ = name
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self._install_default_meta_kernel()

    def __repr__(self):
        return f"<CustomOpDef({self._qualname})>"

    # Note [Custom op aliasing]: torch checks after every kernel call that no output is (or
    # views) an input. Here a call checks after its kernel returns, in `CustomOpBase.__call__`
    # (Rust), which keeps the dispatcher -> kernel path free of wrappers; the autograd kernel
    # of `register_autograd` checks its forward's outputs itself, and opcheck's test_schema
    # checks memory sharing in depth for calls through opyard.ops.

    @property
    def _schema(self):
        return self._opoverload._schema

    def _install_default_meta_kernel(self):
        """torch's Meta kernel of a custom op, registered once with the op: the fake impl given to
        ``register_fake`` (read at each call, so registering one later changes no dispatch entry
        and a Meta kernel the user registers stays on top), else the fake impl torch derives
        (``trivial_fake_impl``), else its "There was no fake impl registered" error; never the op's
        function on meta tensors. An op without tensor arguments is left alone: torch reaches it
        through its default kernel, which follows the ``device`` argument (a meta device runs the
        function); its ``register_fake`` registers a Meta kernel of its own."""
        op = self._opoverload
        if not has_tensor_arg(op._schema):
            return
        name = op.name()
        trivial = trivial_fake_impl(op)

        def fake_impl(*args, **kwargs):
            impl = self._abstract_fn
            if impl is None:
                if trivial is None:
                    raise RuntimeError(no_fake_impl_message(self))
                return trivial(*args, **kwargs)
            mode = _core._fake_mode()
            if mode is None:
                return run_fake_impl_on_meta(impl, name, args, kwargs)
            return run_fake_impl(impl, name, mode.shape_env, args, kwargs)
        self._lib.impl(op, fake_impl, "Meta")
        self._lib.__dict__.setdefault("_opyard_fake_names", []).append(name)
        self._meta_reads_fake_impl = True

    def register_kernel(self, device_types, fn=None, /):
        """Register ``fn`` as this op's kernel for ``device_types`` (usable as a decorator)."""
        keys = device_keys(device_types, f"register_kernel({self._qualname})")
        schema = self._opoverload._schema
        if device_types not in (None, "default") and not has_tensor_arg(schema) \
                and device_arg_index(schema) is None:
            raise ValueError("Functions without tensor inputs are required to have a "
                             "`device: opyard.device` argument")

        def inner(fn):
            if self._refusals is not None:  # not overridden (no warning): remade below
                self._refusals._destroy()
                self._refusals = None
            devices = [device_types] if device_types is None or isinstance(device_types, str) else device_types
            with warnings.catch_warnings():
                if any(d in self._backend_fns or d == "meta" for d in devices):
                    # Replacing this op's own kernel for a device (for meta: its default Meta
                    # kernel, see _install_default_meta_kernel) is silent, as torch's.
                    warnings.simplefilter("ignore", UserWarning)
                install_kernel(self._lib, self._opoverload, fn, keys)
            for d in devices:
                self._backend_fns[d] = fn
                if d in self._disabled_kernel:
                    # Disabled before it was registered: it stays disabled until enabled again.
                    self._set_disabled(d, False)
                    self._set_disabled(d, True)
            if device_types not in (None, "default") and not has_tensor_arg(schema):
                self._refuse_other_devices()
            return fn
        return inner(fn) if fn is not None else inner

    def _refuse_other_devices(self):
        """torch's BackendSelect kernel of an op without tensor arguments once a device has its own
        kernel: a call whose ``device`` has none raises, even where a default kernel exists. Kept
        in a library of its own, remade (not overridden) as devices gain kernels."""
        lib = self._refusals = KernelLibrary(self._namespace, "FRAGMENT")
        for device_type, key in DEVICE_KEYS.items():
            if device_type == "default" or device_type in self._backend_fns:
                continue
            lib.impl(self._opoverload, _no_kernel_for(self._name, device_type), key)

    @contextlib.contextmanager
    def set_kernel_enabled(self, device_type, enabled=True):
        """Disable (or re-enable) the kernel registered for ``device_type`` inside a ``with`` block.

        While disabled, calls on that device run the function ``custom_op`` decorated. A
        no-op (with a logged warning) if the kernel is already in the requested state.

        Example::

            >>> with f.set_kernel_enabled("cpu", enabled=False):
            ...     f(x)  # the default implementation, not the "cpu" kernel
        """
        action = "enable" if enabled else "disable"
        originally_disabled = device_type in self._disabled_kernel
        if device_type not in self._backend_fns:
            _log().warning("Attempted to %s kernel for %s but no kernel was registered for this device type.",
                           action, device_type)
        if not enabled:
            if originally_disabled:
                _log().warning("Attempted to disable kernel for %s but it was already disabled.", device_type)
            else:
                self._set_disabled(device_type, True)
        elif not originally_disabled:
            _log().warning("Attempted to enable kernel for %s but it was already enabled.", device_type)
        else:
            self._set_disabled(device_type, False)
        try:
            yield
        finally:
            self._set_disabled(device_type, originally_disabled)

    def _set_disabled(self, device_type, disabled):
        """Disabling puts the default implementation on top of the device's kernel stack, in a
        library of its own; enabling destroys that library. No wrapper sits on the call path."""
        if disabled:
            self._disabled_kernel.add(device_type)
            if device_type in self._backend_fns and device_type not in self._disabled_libs:
                keys = device_keys(device_type, f"set_kernel_enabled({self._qualname})")
                lib = KernelLibrary(self._namespace, "FRAGMENT")
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", UserWarning)
                    install_kernel(lib, self._opoverload, self._init_fn, keys)
                self._disabled_libs[device_type] = lib
        else:
            self._disabled_kernel.discard(device_type)
            lib = self._disabled_libs.pop(device_type, None)
            if lib is not None:
                lib._destroy()

    def register_fake(self, fn, /):
        """Register the fake impl: the outputs' shape, dtype and device from the inputs', no data.

        An op tagged ``Tag.inplace`` or ``Tag.out`` needs none (its result is its first, or its
        out=, arguments); registering one warns, as torch does, and it is used instead."""
        if self._is_inplace or self._is_out:
            tag = "opyard.Tag.inplace" if self._is_inplace else "opyard.Tag.out"
            warnings.warn(f"The fake registration for {self} is unnecessary. Custom ops tagged with {tag} already "
                          "get an autogenerated fake kernel. The provided fake impl will be used instead.",
                          stacklevel=2)
        if not callable(fn):
            raise TypeError(f"register_fake({self._qualname}): expected a function, got {fn!r:.200}")
        if self._meta_reads_fake_impl:
            push_fake(self._lib, self._opoverload.name(), fn)
        else:
            install_fake(self._lib, self._opoverload, fn)
        self._abstract_fn = fn
        return fn

    def register_autograd(self, backward, /, *, setup_context=None):
        """Register ``backward(ctx, *grads)`` and optionally ``setup_context(ctx, inputs, output)``."""
        from .autograd import install_autograd

        if self._is_out:
            raise RuntimeError(f"Cannot register autograd formula for operator tagged with opyard.Tag.out: "
                               f"{self}. Out variants do not support autograd.")
        install_autograd(self._lib, self._opoverload, backward, setup_context, str(self))
        self._backward_fn, self._setup_context_fn = backward, setup_context
        # The autograd kernel checks the outputs of ops it finds in OPDEFS by packet name
        # (`_alias_checker`); then a call that ran it needs no second check.
        self._set_autograd_checks(OPDEFS.get(self._opoverload.name().split(".")[0]) is self)

    def register_vmap(self, func=None, /):
        """Register a vmap rule ``func(info, in_dims, *args, **kwargs) -> (output, out_dims)``."""
        def inner(fn):
            install_vmap(self._lib, self._opoverload, fn)
            self._vmap_fn = fn
            return fn
        return inner(func) if func is not None else inner

    def register_autocast(self, device_type, cast_inputs):
        """Inside ``autocast(device_type)``, cast floating tensor inputs to ``cast_inputs``."""
        install_autocast(self._lib, self._opoverload, device_type, cast_inputs)

    def register_torch_dispatch(self, torch_dispatch_class, fn=None, /):
        """What runs for this operator instead of ``torch_dispatch_class.__torch_dispatch__``: see
        :func:`opyard.library.register_torch_dispatch`."""
        def inner(fn):
            self._lib._registration_handles.append(register_rule(self._opoverload, torch_dispatch_class, fn))
            return fn
        return inner(fn) if fn is not None else inner

    def __reduce__(self):
        # By qualified name, resolved where it is unpickled (see Note [Operator pickling]).
        return load_op, (_custom_op_named, self._qualname, *definition_site(self._qualname))

    def _destroy(self):
        if self._refusals is not None:
            self._refusals._destroy()
            self._refusals = None
        while self._disabled_libs:
            self._disabled_libs.popitem()[1]._destroy()
        forget_fakes(self._lib)
        self._lib._destroy()
        if OPDEFS.get(self._qualname) is self:
            del OPDEFS[self._qualname]


def _no_kernel_for(name, device_type):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"{name} does not have a kernel registered for {device_type}. Please use register_kernel "
                           "to do so.")
    refuse.__name__ = refuse.__qualname__ = f"no_{device_type}_kernel"
    return refuse


def _custom_op_named(qualname, module, site):
    """The ``CustomOpDef`` defining ``qualname`` in this process (what a pickled custom op loads as)."""
    found = OPDEFS.get(qualname)
    if found is None:
        raise missing_op_error(qualname, module, site)
    return found


def custom_op(name, fn=None, /, *, mutates_args, device_types=None, schema=None, tags=None):
    """Wrap ``fn`` into the operator ``name`` (``"mylib::my_op"``); a decorator with or without ``fn``.

    ``mutates_args`` names the parameters ``fn`` writes to (``()`` if none, ``"unknown"`` for all);
    ``device_types`` limits ``fn`` to those devices; ``schema`` overrides the inferred schema.
    Defining a name again replaces the previous operator.
    """
    if mutates_args is None:
        raise TypeError("custom_op(): mutates_args must be the names of the mutated parameters "
                        "(() if none) or 'unknown', got None")

    def inner(fn):
        ns, opname = _split_custom_name(name)
        schema_str = (infer_schema(fn, mutates_args=mutates_args, tags=tags) if schema is None
                      else schema)
        old = OPDEFS.pop(f"{ns}::{opname}", None)
        if old is not None:
            old._destroy()
        result = CustomOpDef(ns, opname, schema_str, fn, tags)
        try:
            _check_definition(result, name, schema, mutates_args)
            result.register_kernel(device_types, fn)
        except BaseException:
            result._destroy()
            raise
        OPDEFS[result._qualname] = result
        return result

    return inner if fn is None else inner(fn)


def _check_definition(result, name, schema, mutates_args):
    parsed = result._opoverload._schema
    if not result._is_out and any(a.kwarg_only and a.real_type.startswith("Tensor") for a in parsed.arguments):
        raise NotImplementedError(f"custom_op with kwarg-only Tensor args. Please make your tensors not "
                                  f"kwarg-only. Got: {result._name}{result._schema_str}")
    if schema is not None:
        expected = {a.name for a in parsed.arguments if a.alias_info is not None and a.alias_info.is_write}
        # As torch: "unknown" is a set of letters here, so it never matches an explicit schema.
        if expected != set(mutates_args):
            raise ValueError(
                f"Attempted to create a custom op with `mutates_args={mutates_args}` and "
                f"`schema={schema}. The schema suggests that the op mutates {expected}which is different "
                "from what was provided to us in `mutates_args`. Please make these consistent.")


def declare(qualname, schema):
    """Define ``qualname`` from ``schema`` in a FRAGMENT library of its own, with no kernel; returns the library."""
    ns, name = _split_name(qualname)
    lib = KernelLibrary(ns, "FRAGMENT")
    lib.define(name + schema)
    return lib


# --- the free functions: custom ops and Library-defined ops alike --------------------------------

def _def_of(op):
    if isinstance(op, CustomOpDef):
        return op
    if isinstance(op, str):
        return OPDEFS.get(op)
    return OPDEFS.get(getattr(op, "_qualname", None)) if hasattr(op, "_qualname") else None


def _lib_for(op, lib):
    if lib is not None:
        return lib
    d = _def_of(op)
    if d is not None:
        return d._lib
    return fragment(resolve(op).namespace)


def register_kernel(op, device_types, func=None, /, *, lib=None):
    """Register ``func`` as ``op``'s kernel for ``device_types`` (usable as a decorator)."""
    d = _def_of(op)
    if d is not None and lib is None:
        return d.register_kernel(device_types, func)
    keys = device_keys(device_types, "register_kernel")

    def inner(fn):
        install_kernel(_lib_for(op, lib), resolve(op), fn, keys)
        return fn
    return inner(func) if func is not None else inner


def register_fake(op, func=None, /, *, lib=None, _stacklevel=1, allow_override=True):
    """Register a fake impl for ``op``: its Meta kernel and what FakeTensorMode runs.

    It lives as long as ``lib`` (default: a library kept for the process). With
    ``allow_override=False`` an existing fake impl or Meta kernel is an error.
    """
    def inner(fn):
        d = _def_of(op)
        if d is not None and lib is None:
            return d.register_fake(fn)
        if isinstance(op, str) and _core._find_op(op) is None:
            raise RuntimeError(f"operator {op[:200]} does not exist: define it (Library.define or custom_op) "
                               "before registering its fake impl")
        install_fake(_lib_for(op, lib), resolve(op), fn, allow_override=allow_override)
        return fn
    return inner(func) if func is not None else inner


def register_autograd(op, backward, /, *, setup_context=None, lib=None):
    """Register ``op``'s autograd formula: ``backward(ctx, *grads)``, optional ``setup_context``."""
    d = _def_of(op)
    if d is not None and lib is None:
        return d.register_autograd(backward, setup_context=setup_context)
    from .autograd import install_autograd

    overload = resolve(op)
    install_autograd(_lib_for(op, lib), overload, backward, setup_context, str(overload))


def register_vmap(op, func=None, /, *, lib=None):
    """Register a vmap rule for ``op`` (see ``opyard.func.vmap``)."""
    def inner(fn):
        d = _def_of(op)
        if d is not None and lib is None:
            return d.register_vmap(fn)
        install_vmap(_lib_for(op, lib), resolve(op), fn)
        return fn
    return inner(func) if func is not None else inner


def register_autocast(op, device_type, cast_inputs, /, *, lib=None):
    """Inside ``autocast(device_type)``, cast ``op``'s floating tensor inputs to ``cast_inputs``."""
    install_autocast(_lib_for(op, lib), resolve(op), device_type, cast_inputs)


def register_torch_dispatch(op, torch_dispatch_class, func=None, /, *, lib=None):
    """Register what ``op`` runs when it reaches ``torch_dispatch_class`` (a ``TorchDispatchMode``
    class, or a Tensor subclass with ``__torch_dispatch__``) in place of its ``__torch_dispatch__``:
    ``func(mode, func, types, args, kwargs)`` for a mode, ``func(cls, func, types, args, kwargs)``
    for a subclass (torch's ``torch.library.register_torch_dispatch``)::

        @opyard.library.register_torch_dispatch("mylib::foo", MyMode)
        def _(mode, func, types, args, kwargs):
            x, = args
            return x + 1

    The rule is for exactly that class (not its subclasses) and lives as long as ``lib`` (default:
    the custom op's own library, or one kept for the process)."""
    def inner(fn):
        d = _def_of(op)
        if d is not None and lib is None:
            return d.register_torch_dispatch(torch_dispatch_class, fn)
        _lib_for(op, lib)._registration_handles.append(register_rule(resolve(op), torch_dispatch_class, fn))
        return fn
    return inner(func) if func is not None else inner
