"""``custom_op`` and the ``register_*`` APIs (torch.library's high-level layer).

A custom op is an ordinary ``Library`` operator: the user's function is
registered as the backend kernel itself (no wrapper on the call path), a fake
impl as the Meta kernel, an autograd formula as one Autograd-key kernel.
"""

import weakref

from .. import _core
from .._ops import OpOverload, ops, resolve
from ..dispatcher import AUTOGRAD_KEYS
from ..library import Library
from .fake_impl import FAKE_IMPLS, run_fake_impl
from .infer_schema import infer_schema

__all__ = ["custom_op", "CustomOpDef", "register_kernel", "register_fake", "register_autograd",
           "register_vmap", "register_autocast"]

_DEVICE_KEYS = {"cpu": "CPU", "cuda": "CUDA", "meta": "Meta", "privateuseone": "PrivateUse1"}
_DEFS = {}  # "ns::name" -> CustomOpDef (the current definition)


def device_keys(device_types, what):
    if device_types is None:
        return ["CompositeExplicitAutograd"]
    if isinstance(device_types, str):
        device_types = [device_types]
    keys = []
    for d in device_types:
        key = _DEVICE_KEYS.get(d)
        if key is None:
            from .._core import device

            try:
                if device(d).type not in ("cpu", "cuda", "meta"):
                    key = "PrivateUse1"
            except RuntimeError:
                pass
        if key is None:
            raise ValueError(f"{what}: unknown device type '{d}'; expected one of "
                             f"{sorted(_DEVICE_KEYS)} (or the renamed PrivateUse1 backend)")
        keys.append(key)
    return keys


def _split_name(name):
    ns, sep, op = name.partition("::")
    if not sep or not ns or not op or "." in op:
        raise ValueError(f"custom_op: expected a name like 'mylib::my_op', got {name!r}")
    return ns, op


class CustomOpDef:
    """A custom operator made by ``custom_op``: callable, with ``register_*`` methods."""

    def __init__(self, namespace, name, schema, fn):
        self._namespace, self._name = namespace, name
        self._qualname = f"{namespace}::{name}"
        self._schema_text = schema
        self._init_fn = fn
        self._lib = Library(namespace, "FRAGMENT")
        self._lib.define(name + schema)
        self._opoverload = getattr(getattr(ops, namespace), name).default
        self.__name__ = name
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn
        self._backward = self._setup_context = None

    def __repr__(self):
        return f"<CustomOpDef({self._qualname})>"

    def __call__(self, *args, **kwargs):
        return self._opoverload(*args, **kwargs)

    @property
    def _schema(self):
        return self._opoverload._schema

    def _has_tensor_args(self):
        return any(a.type.startswith(("Tensor", "Optional[Tensor]", "List[Tensor]", "List[Optional[Tensor]]"))
                   for a in self._schema.arguments)

    def register_kernel(self, device_types, fn=None, /):
        """Register ``fn`` as this op's kernel for ``device_types`` (usable as a decorator)."""
        def inner(fn):
            keys = device_keys(device_types, f"register_kernel({self._qualname})")
            if device_types is not None and not self._has_tensor_args() and \
                    not any(a.type.endswith("Device") or a.type == "Optional[Device]" for a in self._schema.arguments):
                raise ValueError(
                    f"register_kernel({self._qualname}): the op has no Tensor inputs, so a device-specific "
                    "kernel needs a 'device: opyard.device' argument to dispatch on")
            kernel = _mutating_kernel(self, fn)
            for key in keys:
                self._lib.impl(self._name, kernel, key)
            return fn
        return inner(fn) if fn is not None else inner

    def register_fake(self, fn=None, /):
        """Register the fake impl (shape/dtype/device of the outputs, no data)."""
        def inner(fn):
            _install_fake(self._lib, self._opoverload, fn)
            return fn
        return inner(fn) if fn is not None else inner

    def register_autograd(self, backward, /, *, setup_context=None):
        """Register ``backward(ctx, *grads)`` (and ``setup_context(ctx, inputs, output)``)."""
        from .autograd import install_autograd

        install_autograd(self._lib, self._opoverload, backward, setup_context)

    def register_vmap(self, fn=None, /):
        """Register a vmap rule ``fn(info, in_dims, *args, **kwargs) -> (output, out_dims)``."""
        def inner(fn):
            from ..func import register_vmap_rule

            register_vmap_rule(self._lib, self._opoverload, fn)
            return fn
        return inner(fn) if fn is not None else inner

    def register_autocast(self, device_type, cast_inputs):
        """Cast floating tensor inputs to ``cast_inputs`` inside autocast on ``device_type``."""
        _install_autocast(self._lib, self._opoverload, device_type, cast_inputs)

    def _destroy(self):
        self._lib._destroy()


def _mutating_kernel(op_def, fn):
    """For ops that mutate inputs, bump the mutated tensors' versions after ``fn`` (torch's
    ADInplaceOrView step); other ops get ``fn`` itself."""
    schema = op_def._schema
    written = [i for i, a in enumerate(schema.arguments) if a.alias_info is not None and a.alias_info.is_write]
    if not written:
        return fn
    names = [schema.arguments[i].name for i in written]

    def kernel(*args, **kwargs):
        result = fn(*args, **kwargs)
        for i, name in zip(written, names):
            t = args[i] if i < len(args) else kwargs.get(name)
            if t is not None and hasattr(t, "_bump_version"):
                t._bump_version()
        return result
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    kernel.__qualname__ = getattr(fn, "__qualname__", "kernel")
    return kernel


def custom_op(name, fn=None, /, *, mutates_args, device_types=None, schema=None):
    """Wrap ``fn`` into an operator ``name`` (``"mylib::op"``): see the custom ops docs."""
    if mutates_args is None:
        raise TypeError("custom_op(): mutates_args is required: pass () if the op mutates nothing")

    def inner(fn):
        ns, opname = _split_name(name)
        if schema is None:
            text = infer_schema(fn, mutates_args=mutates_args)
        else:
            text = schema
            _check_schema_mutation(name, text, mutates_args)
        old = _DEFS.pop(f"{ns}::{opname}", None)
        if old is not None:
            old._destroy()
        result = CustomOpDef(ns, opname, text, fn)
        if device_types is not None and not result._has_tensor_args() and \
                not any(a.type in ("Device", "Optional[Device]") for a in result._schema.arguments):
            result._destroy()
            raise ValueError(
                f"custom_op({name!r}): the op has no Tensor inputs, so device_types={device_types!r} "
                "needs a 'device: opyard.device' parameter to dispatch on")
        result.register_kernel(device_types, fn)
        _DEFS[result._qualname] = result
        return result

    return inner if fn is None else inner(fn)


def _check_schema_mutation(name, text, mutates_args):
    parsed = _core.parse_schema("x::y" + text)
    written = {a.name for a in parsed.arguments if a.alias_info is not None and a.alias_info.is_write}
    declared = set(mutates_args) if mutates_args != "unknown" else written
    if written != declared:
        raise ValueError(f"custom_op({name!r}): schema {text!r} says the op mutates {sorted(written)} but "
                         f"mutates_args={sorted(declared)}; make them agree")


def _def_of(op):
    if isinstance(op, CustomOpDef):
        return op
    if isinstance(op, str):
        return _DEFS.get(op.split(".")[0] if "." not in op.split("::")[-1] else op)
    return None


def _lib_for(op, lib):
    d = _def_of(op)
    if lib is not None:
        return lib
    if d is not None:
        return d._lib
    from ..library import _fragment

    return _fragment(resolve(op).namespace)


def _install_fake(lib, overload, fn):
    name = overload.name()
    FAKE_IMPLS[name] = fn
    weakref.finalize(lib, FAKE_IMPLS.pop, name, None)

    def fake_kernel(*args, **kwargs):
        from ..fake import current_shape_env

        return run_fake_impl(fn, name, current_shape_env(), args, kwargs)
    fake_kernel.__qualname__ = f"fake_impl<{getattr(fn, '__qualname__', 'fn')}>"
    lib.impl(overload, fake_kernel, "Meta", allow_override=True)


def register_kernel(op, device_types, func=None, /, *, lib=None):
    """Register ``func`` for ``op`` on ``device_types`` (custom ops and ``Library`` ops alike)."""
    d = _def_of(op)
    if d is not None and lib is None:
        return d.register_kernel(device_types, func)

    def inner(fn):
        target = _lib_for(op, lib)
        for key in device_keys(device_types, "register_kernel"):
            target.impl(resolve(op), fn, key)
        return fn
    return inner(func) if func is not None else inner


def register_fake(op, func=None, /, *, lib=None, _stacklevel=1):
    """Register a fake impl for ``op`` (its Meta kernel, and what FakeTensorMode runs)."""
    def inner(fn):
        _install_fake(_lib_for(op, lib), resolve(op), fn)
        return fn
    return inner(func) if func is not None else inner


def register_autograd(op, backward, /, *, setup_context=None, lib=None):
    """Register the autograd formula of ``op``: ``backward(ctx, *grads)``, optional ``setup_context``."""
    from .autograd import install_autograd

    install_autograd(_lib_for(op, lib), resolve(op), backward, setup_context)


def register_vmap(op, func=None, /, *, lib=None):
    """Register a vmap rule for ``op`` (see ``opyard.func.vmap``)."""
    def inner(fn):
        from ..func import register_vmap_rule

        register_vmap_rule(_lib_for(op, lib), resolve(op), fn)
        return fn
    return inner(func) if func is not None else inner


def _install_autocast(lib, overload, device_type, cast_inputs):
    from ..amp.autocast_mode import _KEYS, cached_cast
    from ..dispatcher import DispatchKeySet

    key = _KEYS.get(device_type)
    if key is None:
        raise ValueError(f"register_autocast: unknown device_type '{device_type}'; expected 'cpu' or 'cuda'")
    exclude = DispatchKeySet(key)

    def autocast_kernel(*args, **kwargs):
        args = tuple(cached_cast(cast_inputs, a, device_type) for a in args)
        with _core._KeyGuard(exclude=exclude):
            return overload(*args, **kwargs)
    lib.impl(overload, autocast_kernel, key.name, allow_override=True)


def register_autocast(op, device_type, cast_inputs, /, *, lib=None):
    """Cast floating inputs of ``op`` to ``cast_inputs`` inside ``autocast(device_type)``."""
    _install_autocast(_lib_for(op, lib), resolve(op), device_type, cast_inputs)


_ = (OpOverload, AUTOGRAD_KEYS)
