"""Forward-mode AD: dual tensors carry a tangent through every operation.

Example::

    >>> import opyard.autograd.forward_ad as fwAD
    >>> x, v = opyard.randn(3), opyard.ones(3)
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, v).sin()
    ...     jvp = fwAD.unpack_dual(y).tangent   # == x.cos() * v

Note [Forward AD dispatch]: while a dual level is active, this thread
*includes* the autograd keys, so every operator call reaches its autograd
kernel (the derivative table's or the autograd fallback), which pushes the
tangents of its inputs through the op's forward formula. Outside a level no
call pays anything for forward AD. Under ``no_grad`` tangents still propagate
(as torch): see Note [Grad mode under forward AD] in ``grad_mode.py``.
"""

import threading
import weakref
from collections import namedtuple

from .. import _core
from ..dispatcher import AUTOGRAD_KEYS
from . import _tensor_meta as meta
from . import grad_mode as _grad_mode

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "UnpackedDualTensor"]


class _State:
    """The (single) active forward-AD level and the tensors that got tangents in it."""

    def __init__(self):
        self.level = None
        self.tensors = []
        self.guard = None
        self.lock = threading.Lock()


_state = _State()

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "What ``unpack_dual`` returns: the primal view and its tangent (or None)."


def enter_dual_level():
    """Start the forward-AD level (only one level at a time); returns its index, 0."""
    with _state.lock:
        if _state.level is not None:
            raise RuntimeError("Nested forward mode AD is not supported at the moment")
        _state.level = 0
        _core._set_forward_ad_active(True)  # Function kernels called from Rust take the general path
        _grad_mode.enter_forward_ad_level()
        _state.guard = _core._KeyGuard(include=AUTOGRAD_KEYS)
        _state.guard.__enter__()
        return 0


def exit_dual_level(*, level=None):
    """End the level: every tangent set inside it is cleared."""
    with _state.lock:
        if _state.level is None and level is None:
            raise RuntimeError("Dual level must be a positive number.")
        if _state.level is None or (level is not None and level != _state.level):
            raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                               "was created. This is not supported.")
        for ref in _state.tensors:
            t = ref()
            if t is not None:
                t._fw_grad = None
        _state.tensors = []
        _state.guard.__exit__(None, None, None)
        _state.guard = None
        _grad_mode.exit_forward_ad_level()
        _state.level = None
        _core._set_forward_ad_active(False)


class dual_level:
    """Context manager for a forward-AD level: ``with dual_level(): ...``."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False


def _check_level(what):
    if _state.level is None:
        raise RuntimeError(f"Trying to {what} for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")


def set_tangent(t, tangent):
    """Attach ``tangent`` to ``t`` for the active level (used by the op formulas)."""
    t._fw_grad = tangent
    _state.tensors.append(weakref.ref(t))


def get_tangent(t):
    """The tangent of ``t`` at the active level, or ``None``."""
    return t._fw_grad if meta.is_tensor(t) else None


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent`` (same shape) at the active level."""
    _check_level("create a dual Tensor")
    if not meta.is_tensor(tensor) or not meta.is_tensor(tangent):
        raise TypeError("make_dual: expected tensor and tangent to be Tensors, got "
                        f"{type(tensor).__name__} and {type(tangent).__name__}")
    if not meta.is_floating(tensor):
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{meta.dtype_name(tensor)}")
    if not meta.is_floating(tangent):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{meta.dtype(tangent)}")
    if meta.shape(tensor) != meta.shape(tangent):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original "
            f"Tensor, this is not supported. Tensor is of size {list(meta.shape(tensor))} while the "
            f"given forward gradient is of size {list(meta.shape(tangent))}.")
    dual = meta.differentiable_alias(tensor)
    set_tangent(dual, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``; ``tangent`` is None when it carries none."""
    if _state.level is None or not meta.is_tensor(tensor):
        return UnpackedDualTensor(tensor, None)
    tangent = get_tangent(tensor)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    primal = meta.differentiable_alias(tensor)
    primal._fw_grad = None
    return UnpackedDualTensor(primal, tangent)


# ``Function.apply`` runs above the ``Batched`` key, so its inputs and outputs may be batched
# tensors, whose tangents live on their physical tensors: ``opyard.func`` (a higher layer) reads and
# attaches them (``Hooks.batched_tangent``, ``Hooks.set_batched_tangent``; ``NotImplemented`` for a
# tensor that is not batched).


def _tangent_of(a):
    if meta.is_tensor(a):
        got = _core._hooks().batched_tangent(a)
        if got is not NotImplemented:
            return got
    return get_tangent(a)


def _attach(o, t):
    if _core._hooks().set_batched_tangent(o, t) is NotImplemented:
        set_tangent(o, t)


def function_jvp(cls, ctx, args, output):
    """Run ``cls.jvp`` for an ``autograd.Function`` call with tangent inputs."""
    tangents = [_tangent_of(a) for a in args]
    if all(t is None for t in tangents):
        return
    if ctx.materialize_grads:
        tangents = [meta.zeros_like(a) if t is None and meta.is_tensor(a) else t
                    for a, t in zip(args, tangents)]
    out_tangents = cls.jvp(ctx, *tangents)
    outs = output if isinstance(output, tuple) else (output,)
    if not isinstance(out_tangents, tuple):
        out_tangents = (out_tangents,)
    if len(out_tangents) != len(outs):
        raise RuntimeError(f"{cls.__name__}.jvp returned an incorrect number of forward gradients "
                           f"(expected {len(outs)}, got {len(out_tangents)})")
    for o, t in zip(outs, out_tangents):
        if t is not None and meta.is_tensor(o):
            if meta.shape(t) != meta.shape(o):
                raise RuntimeError(
                    f"{cls.__name__}.jvp returned a tangent of size {list(meta.shape(t))} for an "
                    f"output of size {list(meta.shape(o))}")
            _attach(o, t)

from .._exports import public_dir

__dir__ = public_dir(globals())
