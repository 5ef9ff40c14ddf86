"""Installers behind the ``register_*`` APIs: each puts one kernel into a ``Library``.

Shared by ``CustomOpDef``'s methods and the free functions of ``opyard.library``
(which also serve operators made with ``Library.define``).
"""

import warnings

from .. import _core
from .._keys import BACKEND_OF_DEVICE
from .._ops import ALIAS_KEYS
from .._provenance import caller_site
from .fake_impl import (FAKE_IMPLS, drop_fake_impl, fake_impl_source, push_fake_impl, run_fake_impl,
                        run_fake_impl_on_meta)

__all__ = ["DEVICE_KEYS", "DeviceTypeError", "device_keys", "install_kernel", "install_fake", "push_fake",
           "install_autocast", "has_tensor_arg", "device_arg_index", "install_vmap"]

# Device type -> backend dispatch key (torch's ``_dispatch_key_for_device``; the core's table). "default"
# is torch.library's spelling for "every device": the CompositeExplicitAutograd alias key.
DEVICE_KEYS = {**{t: key.name for t, key in BACKEND_OF_DEVICE.items()}, "default": "CompositeExplicitAutograd"}


def _renamed_privateuse1():
    """The name of the PrivateUse1 backend once renamed (``rename_privateuse1_backend``)."""
    try:
        dev = _core.device("privateuseone")
    except (RuntimeError, ValueError):
        return None
    return dev.type if dev.type != "privateuseone" else None


class DeviceTypeError(RuntimeError, ValueError):
    """An unknown device type: torch raises RuntimeError; opyard raised ValueError before."""


def unknown_device_error(d, api, valid):
    return DeviceTypeError(f"Expected one of {', '.join(valid)} device type at start of device string: "
                           f"{str(d)[:100]} ({api}: unknown device type {str(d)[:100]!r}; the valid device "
                           f"types are {valid})")


def device_keys(device_types, api):
    """The dispatch keys for ``device_types`` (None or "default": CompositeExplicitAutograd)."""
    if device_types is None:
        return ["CompositeExplicitAutograd"]
    if isinstance(device_types, str):
        device_types = [device_types]
    keys = []
    renamed = _renamed_privateuse1()
    for d in device_types:
        key = DEVICE_KEYS.get(d)
        if key is None and renamed is not None and d == renamed:
            key = "PrivateUse1"
        if key is None:
            raise unknown_device_error(d, api, sorted(DEVICE_KEYS) + ([renamed] if renamed else []))
        keys.append(key)
    return keys


_TENSOR_TYPES = ("Tensor", "Optional[Tensor]", "List[Tensor]", "List[Optional[Tensor]]")


def has_tensor_arg(schema):
    """Whether any argument is dispatchable (Tensor, Tensor?, Tensor[], Tensor?[])."""
    return any(a.real_type.startswith("Tensor") for a in schema.arguments)


def device_arg_index(schema):
    """The index of the first ``Device`` argument (None if there is none)."""
    for i, a in enumerate(schema.arguments):
        if a.real_type in ("Device", "Device?"):
            return i
    return None


def install_kernel(lib, overload, fn, keys):
    """Register ``fn`` at each of ``keys``; an op that mutates inputs bumps their versions after it.

    The function itself is the kernel (no wrapper on the call path) unless the schema
    writes to inputs: then a wrapper does torch's ADInplaceOrView step, bumping the
    version counter of every mutated tensor.
    """
    kernel = _bump_versions_after(overload._schema, fn)
    for key in keys:
        lib.impl(overload, kernel, key)


def _bump_versions_after(schema, fn):
    written = [(i, a.name) for i, a in enumerate(schema.arguments)
               if a.alias_info is not None and a.alias_info.is_write]
    if not written:
        return fn

    def kernel(*args, **kwargs):
        result = fn(*args, **kwargs)
        for i, name in written:
            value = args[i] if i < len(args) else kwargs.get(name)
            for t in value if isinstance(value, (list, tuple)) else (value,):
                if t is not None and hasattr(t, "_bump_version"):
                    t._bump_version()
        return result
    kernel.__name__ = getattr(fn, "__name__", "kernel")
    kernel.__qualname__ = getattr(fn, "__qualname__", "kernel")
    kernel.__wrapped__ = fn
    return kernel


def _has_kernel(name, key):
    """Whether ``name`` has a kernel registered directly at ``key`` (torch's
    ``_dispatch_has_kernel_for_dispatch_key``)."""
    label = f"{key}[alias]:" if key in ALIAS_KEYS else f"{key}:"
    return any(line.startswith(label) for line in _core._dump(name).splitlines())


def _check_fake_target(name, allow_override):
    if not allow_override:
        source = fake_impl_source(name)
        if source is not None:
            raise RuntimeError(f"register_fake(...): the operator {name} already has a fake impl "
                               f"registered at {source}.")
        if _has_kernel(name, "Meta"):
            raise RuntimeError(
                f"register_fake(...): the operator {name} already has a DispatchKey::Meta implementation "
                "via a pre-existing torch.library or TORCH_LIBRARY registration. Please either remove that "
                "registration or don't call register_fake.")
    if _has_kernel(name, "CompositeImplicitAutograd"):
        if not allow_override:
            raise RuntimeError(
                f"register_fake(...): the operator {name} already has an implementation for this device "
                "type via a pre-existing registration to DispatchKey::CompositeImplicitAutograd."
                "CompositeImplicitAutograd operators do not need a fake impl; instead, the operator will "
                "decompose into its constituents and those can have fake impls defined on them.")
        raise RuntimeError(
            f"We should not register a meta kernel directly to the operator '{name}', because it has a "
            "CompositeImplicitAutograd kernel in core. Instead we should let the operator decompose, and "
            "ensure that we have meta kernels for the base ops that it decomposes into.")


def push_fake(lib, name, fn):
    """``fn`` becomes what FakeTensorMode runs for ``name`` for as long as ``lib`` lives; the
    Meta kernel is left alone."""
    entry = push_fake_impl(name, fn, caller_site())
    lib._registration_handles.append(lambda: drop_fake_impl(name, entry))
    return entry


def install_fake(lib, overload, fn, *, allow_override=True):
    """``fn`` becomes the op's fake impl (what FakeTensorMode runs) and its Meta kernel, both for
    as long as ``lib`` lives.

    Destroying ``lib`` removes both (a later Meta kernel, or an older fake impl, takes over).
    """
    if not callable(fn):
        raise TypeError(f"register_fake({overload.name()}): expected a function, got {fn!r}")
    name = overload.name()
    _check_fake_target(name, allow_override)
    entry = push_fake_impl(name, fn, caller_site())

    def meta_kernel(*args, **kwargs):
        impl = FAKE_IMPLS.get(name, fn)  # the newest fake impl, as torch's holder
        mode = _core._fake_mode()
        if mode is None:
            return run_fake_impl_on_meta(impl, name, args, kwargs)
        return run_fake_impl(impl, name, mode.shape_env, args, kwargs)
    meta_kernel.__name__ = getattr(fn, "__name__", "fake_impl")
    meta_kernel.__qualname__ = f"fake_impl<{getattr(fn, '__qualname__', 'fn')}>"
    mine = lib.__dict__.setdefault("_opyard_fake_names", [])
    try:
        if name in mine:
            # This library replaces its own fake impl (CustomOpDef.register_fake again): no warning.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                lib.impl(overload, meta_kernel, "Meta", allow_override=allow_override)
        else:
            lib.impl(overload, meta_kernel, "Meta", allow_override=allow_override)
    except BaseException:
        drop_fake_impl(name, entry)
        raise
    mine.append(name)
    lib._registration_handles.append(lambda: drop_fake_impl(name, entry))


def forget_fakes(lib):
    """Drop the fake impls ``lib`` registered now (its op is being destroyed)."""
    handles = lib._registration_handles
    while handles:
        handles.pop()()


def _is_custom_op(op):
    """Whether ``op`` is made by ``custom_op`` (torch gives those their own autograd kernel; the
    autograd fallback asks through ``Hooks.is_custom_op``)."""
    from ._opdefs import OPDEFS

    return op.name() in OPDEFS  # "ns::name" or, for an overload, "ns::name.overload"


def install_autocast(lib, overload, device_type, cast_inputs):
    """Inside ``autocast(device_type)``, cast floating tensor inputs to ``cast_inputs`` and run below."""
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if device_type == "default" or device_type not in DEVICE_KEYS:
        raise unknown_device_error(device_type, f"register_autocast({overload.name()})",
                                   sorted(set(DEVICE_KEYS) - {"default"}))
    # ``Hooks.autocast_kernel``: ``opyard.amp`` builds the casting kernel and names its key.
    kernel, key = _core._hooks().autocast_kernel(overload, device_type, cast_inputs, "register_autocast")
    lib.impl(overload, kernel, key, allow_override=True)


def install_vmap(lib, overload, fn):
    """``fn(info, in_dims, *args, **kwargs) -> (outputs, out_dims)`` becomes the op's ``Batched`` kernel:
    it runs whenever the op meets a batched tensor, at any depth of a vmapped function."""
    if not callable(fn):
        raise TypeError(f"register_vmap({overload.name()}): expected a function, got {fn!r}")
    for a in overload._schema.arguments:
        if a.kwarg_only and a.real_type.startswith("Tensor"):
            raise NotImplementedError(
                f"register_vmap({overload.name()}): the operator has kwarg-only Tensor argument "
                f"'{a.name}'; vmap rules support only positional Tensor arguments")
    # ``Hooks.vmap_kernel``: ``opyard.func`` makes the kernel that runs the rule on physical tensors.
    lib.impl(overload, _core._hooks().vmap_kernel(overload, fn), "Batched", allow_override=True)
