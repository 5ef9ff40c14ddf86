"""The Autograd fallback for operators without an autograd kernel.

torch's ``autogradNotImplementedFallback``: the op runs below autograd; when
an input requires grad, its floating-point tensor outputs get a
``NotImplemented`` node, so they still require grad (the requires-grad-ness
is not silently lost) and a backward through them raises an error naming
the op. Non-tensor outputs pass through untouched. Ops in
:data:`NON_DIFFERENTIABLE` (factories ``*_like``, ``new_*``, ...) get a
kernel whose outputs never require grad.

A mutable op may not write into a leaf that requires grad (torch's "a leaf
Variable that requires grad is being used in an in-place operation."), except
the custom ops (the custom-op layer names them through ``Hooks.is_custom_op``): torch runs a custom op without an autograd
formula below autograd inside its own autograd kernel, so such an op may write
into a leaf, which stays a leaf, and a backward through it raises torch's
custom-op message.
"""

import sys as _sys

from .. import _core
from ..dispatcher import AUTOGRAD_KEYS, after_autograd_keyset
from . import _tensor_meta as meta
from .grad_mode import grad_off_in_forward_ad as _fw_off
from .graph import Node, gradient_edge, next_sequence_nr, set_history

__all__ = ["NotImplementedNode", "autograd_not_implemented_fallback", "non_differentiable_kernel"]

_KeyGuard = _core._KeyGuard
_AFTER = after_autograd_keyset
_FORWARD_AD = __package__ + ".forward_ad"


class NotImplementedNode(Node):
    """Recorded for ops with no derivative formula; raises when backward reaches it."""

    def __init__(self, op, edges, out_shapes):
        super().__init__(edges, out_shapes)
        self.op = op
        self.op_name = op.name()

    def name(self):
        return "NotImplemented"

    def apply(self, grads):
        if self.op_name.startswith("aten::"):
            raise RuntimeError(f"derivative for {self.op_name.partition('.')[0]} is not implemented")
        if _core._hooks().is_custom_op(self.op):
            raise RuntimeError(f"Trying to backward through {self.op} but no autograd formula was registered. "
                               "Please use register_autograd to add one.")
        raise RuntimeError(
            f"Trying to backward through {self.op_name} but no autograd formula was registered for "
            "it. Use opyard.library.register_autograd to add one (or compute it inside an "
            "opyard.autograd.Function with a backward).")


# torch's node type is named ``NotImplemented`` (``type(y.grad_fn).__name__``); the Python name here
# keeps the builtin ``NotImplemented`` unshadowed.
NotImplementedNode.__name__ = NotImplementedNode.__qualname__ = "NotImplemented"


def _checked_writes(op, mutated):
    """torch's in-place checks on the mutated tensors; returns the leaves the op may write anyway."""
    allowed = []
    for t in mutated:
        try:
            meta.check_inplace(t)
        except RuntimeError:
            if not _core._hooks().is_custom_op(op):
                raise
            allowed.append(t)
    return allowed


def _flat_tensors(args, kwargs):
    for v in list(args) + list(kwargs.values()):
        if isinstance(v, (list, tuple)):
            for t in v:
                if meta.is_tensor(t):
                    yield t
        elif meta.is_tensor(v):
            yield v


def _mutated_args(op, args, kwargs):
    schema = op._schema
    out = []
    for i, a in enumerate(schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            v = kwargs.get(a.name) if a.kwarg_only or i >= len(args) else args[i]
            if meta.is_tensor(v):
                out.append(v)
    return out


_out_tagged = {}


def _is_custom_out_op(op):
    """A custom op tagged ``Tag.out``: torch's autograd kernel for those refuses any grad."""
    hit = _out_tagged.get(op)
    if hit is None:
        hit = _out_tagged[op] = _core._hooks().is_custom_op(op) and any(t.name == "out" for t in op.tags)
    return hit


def autograd_not_implemented_fallback(keyset, op, *args, **kwargs):
    """Boxed fallback at the ``Autograd`` key (``with_keyset=True`` convention)."""
    grad_on = not _core._is_excluded(AUTOGRAD_KEYS) and not _fw_off()
    inputs = [t for t in _flat_tensors(args, kwargs) if grad_on and meta.requires_grad(t)]
    if inputs and _is_custom_out_op(op):
        name = op.name().partition("::")[2].partition(".")[0]
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")
    mutated = _mutated_args(op, args, kwargs) if grad_on else ()
    leaves = _checked_writes(op, mutated) if mutated else ()
    fwad = _sys.modules.get(_FORWARD_AD)  # no dual level exists before forward_ad is loaded
    if fwad is not None and fwad._state.level is not None and any(
            fwad.tangent_at(t, level) is not None for level in fwad.visible_levels()
            for t in _flat_tensors(args, kwargs)):
        raise NotImplementedError(
            f"Trying to use forward AD with {op.name()} that does not support it because it has not "
            "been implemented yet.")
    with _KeyGuard(exclude=AUTOGRAD_KEYS):
        out = op.redispatch(keyset & _AFTER, *args, **kwargs)
    if not inputs:
        return out
    outs = out if isinstance(out, tuple) else (out,)
    diff = [o for o in outs if meta.is_tensor(o) and meta.is_differentiable_dtype(o)]
    for t in mutated:
        if (not any(t is o for o in diff) and not any(t is leaf for leaf in leaves)
                and meta.is_differentiable_dtype(t)):
            diff.append(t)
    if not diff:
        return out
    node = NotImplementedNode(op, tuple(gradient_edge(t) for t in inputs), tuple(meta.shape(o) for o in diff))
    node._sequence_nr = next_sequence_nr()
    for i, o in enumerate(diff):
        set_history(o, node, i)
    return out


def non_differentiable_kernel(keyset, op, *args, **kwargs):
    """Autograd kernel of ops whose outputs are never differentiable (``ones_like``...)."""
    with _KeyGuard(exclude=AUTOGRAD_KEYS):
        return op.redispatch(keyset & _AFTER, *args, **kwargs)


def make_non_differentiable_kernel(op):
    def kernel(keyset, *args, **kwargs):
        return non_differentiable_kernel(keyset, op, *args, **kwargs)
    kernel.__name__ = f"autograd_nondiff_{op.name().replace('::', '_').replace('.', '_')}"
    return kernel
