"""Autocast kernels: one builder per cast policy, and their registration at the Autocast keys.

A kernel is built per (operator, device type) at registration, with what it
needs bound in its closure (the state index, the ``dtype`` argument's
position), so a call pays the casts and one guard, nothing else. It casts,
then calls the operator with its own Autocast key excluded (torch's
``ExcludeDispatchKeyGuard``) so the call goes on below autocast.
"""

import threading

from .. import _core, _dtype
from .._tensor import Tensor
from .autocast_mode import DEVICES, INDEX, KEYS, KEYSETS, STATE, kernel_device_of
from .cast import _cached_cast, _eligible, _promote_type, cast_value

__all__ = ["BUILDERS", "custom_op_kernel", "install"]

_f32 = _dtype.float32


class _Guards(threading.local):
    # One reusable exclude-guard per device type and thread: a guard is re-entrant (it keeps a
    # stack) but must not be shared between threads; reusing it saves creating one per call.
    def __init__(self):
        self.exclude = tuple(_core._KeyGuard(exclude=KEYSETS[device]) for device in DEVICES)


_GUARDS = _Guards()


def _casting(op, device, fixed_dtype):
    """``lower_precision_fp`` (``fixed_dtype=None``: the region's dtype) and ``fp32``."""
    index = INDEX[device]

    def autocast_kernel(*args, **kwargs):
        dtype = fixed_dtype or STATE.dtype[index]
        args = [_cached_cast(dtype, a, device) for a in args]
        if kwargs:
            kwargs = {k: _cached_cast(dtype, v, device) for k, v in kwargs.items()}
        with _GUARDS.exclude[index]:
            return op(*args, **kwargs)

    return autocast_kernel


def _lower_precision_fp(op, device):
    return _casting(op, device, None)


def _fp32(op, device):
    return _casting(op, device, _f32)


def _promote(op, device):
    index = INDEX[device]

    def autocast_kernel(*args, **kwargs):
        dtype = _promote_type(STATE.dtype[index], args, device)
        if kwargs:
            dtype = _promote_type(dtype, kwargs.values(), device)
            kwargs = {k: _cached_cast(dtype, v, device) for k, v in kwargs.items()}
        args = [_cached_cast(dtype, a, device) for a in args]
        with _GUARDS.exclude[index]:
            return op(*args, **kwargs)

    return autocast_kernel


def _dtype_position(op):
    """Where ``op`` takes ``dtype`` positionally, or ``None`` when it is keyword-only."""
    positional = [a.name for a in op._schema.arguments if not a.kwarg_only]
    return positional.index("dtype") if "dtype" in positional else None


def _fp32_set_opt_dtype(op, device):
    index = INDEX[device]
    position = _dtype_position(op)
    if position is None and "dtype" not in [a.name for a in op._schema.arguments]:
        raise ValueError(f"fp32_set_opt_dtype: {op.name()} takes no 'dtype' argument")

    def autocast_kernel(*args, **kwargs):
        given = kwargs.get("dtype") is not None or (
            position is not None and len(args) > position and args[position] is not None)
        first = args[0] if args else None
        if not given and isinstance(first, Tensor) and _eligible(first, device):
            if position is not None and len(args) > position:
                args = (*args[:position], _f32, *args[position + 1:])
            else:
                kwargs["dtype"] = _f32
        with _GUARDS.exclude[index]:
            return op(*args, **kwargs)

    return autocast_kernel


def _fp32_append_dtype(op, device):
    # torch redispatches ``norm`` to its ``dtype`` overload with float32 for an eligible input;
    # computing on the input cast to float32 gives the same float32 result with the overloads
    # opyard defines.
    index = INDEX[device]

    def autocast_kernel(self, *args, **kwargs):
        if isinstance(self, Tensor) and _eligible(self, device):
            self = self.to(_f32)
        with _GUARDS.exclude[index]:
            return op(self, *args, **kwargs)

    return autocast_kernel


def _banned(op, device):
    name = op.name().split("::")[-1].split(".")[0]

    def autocast_kernel(*args, **kwargs):
        raise RuntimeError(
            f"opyard.nn.functional.{name} and opyard.nn.BCELoss are unsafe to autocast.\n"
            "Many models use a sigmoid layer right before the binary cross entropy layer.\n"
            "In this case, combine the two layers using opyard.nn.functional.binary_cross_entropy_with_logits\n"
            "or opyard.nn.BCEWithLogitsLoss.  binary_cross_entropy_with_logits and BCEWithLogits are\n"
            "safe to autocast.")

    return autocast_kernel


BUILDERS = {
    "lower_precision_fp": _lower_precision_fp,
    "fp32": _fp32,
    "fp32_set_opt_dtype": _fp32_set_opt_dtype,
    "fp32_append_dtype": _fp32_append_dtype,
    "promote": _promote,
    "banned": _banned,
}

_installed = {}


def install(policies, provenance):
    """Register a kernel for every operator of ``policies`` that is defined (once per process).

    Returns the ``{(device, "name.overload"): policy}`` it registered.
    """
    if _installed:
        return _installed
    lib = _core._new_library("aten", "IMPL", None, provenance)
    for device, table in policies.items():
        key = KEYS[device].name
        for policy, names in table.items():
            build = BUILDERS[policy]
            for name in names:
                op = _core._find_op(f"aten::{name}")
                if op is None:
                    continue  # not an opyard operator (yet): the table keeps torch's full list
                kernel = build(op, device)
                kernel.__qualname__ = f"autocast_{policy}<{name}>"
                _core._impl(lib, name, key, kernel, with_keyset=False, fallthrough=False,
                            allow_override=True, provenance=provenance)
                _installed[(device, name)] = policy
    return _installed


def custom_op_kernel(overload, device_type, cast_inputs, api):
    """``register_autocast``'s kernel: eligible floating inputs cast to ``cast_inputs`` (uncached,
    as torch's custom-op rule), then ``overload`` runs with autocast for ``device_type`` excluded."""
    if not isinstance(device_type, str):
        raise ValueError(f"{api}: Expected `device_type` of type `str`, got: `{type(device_type)}`")  # noqa: TRY004 (torch)
    try:
        device = kernel_device_of(device_type, api)
    except RuntimeError:
        raise ValueError(f"Device type '{device_type[:100]}' does not support autocast. ({api}"
                         f"({overload.name()}): autocast device types are {', '.join(DEVICES)})") from None
    if not isinstance(cast_inputs, _dtype.dtype):
        raise TypeError(f"{api}({overload.name()}): cast_inputs must be an opyard.dtype, "
                        f"not {type(cast_inputs).__name__}")
    index = INDEX[device]

    def autocast_kernel(*args, **kwargs):
        args = cast_value(args, device, cast_inputs)
        if kwargs:
            kwargs = cast_value(kwargs, device, cast_inputs)
        with _GUARDS.exclude[index]:
            return overload(*args, **kwargs)

    autocast_kernel.__qualname__ = f"autocast<{overload.name()}>"
    return autocast_kernel, KEYS[device].name


from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
