"""Batching rules of the normalization kernels: one physical call with the vmap batch folded
into the channels (batch norm), the examples (group norm) or the leading dims (layer norm).

Batch norm in training updates its running statistics in place: as torch's rule, a batched
input with running statistics that are not batched is refused (each example would write
its own statistics into the one tensor). Parameters batched in a way the fold cannot take
(a batched weight of group or layer norm) run per example (``loop_fallback``).
"""

from ..._aten import norm_ops
from .common import BatchedTensor, aten, batch_size_at, filled, level_of, wrap
from .fallback import loop_fallback

__all__ = ["RULES", "decompose"]

_reshape = aten("reshape")
_movedim = aten("movedim.int")
_repeat = aten("repeat")
_expand = aten("expand")

_UNBATCHED_STATS = (
    "Batch norm got a batched tensor as input while the running_mean or running_var, which will be updated in "
    "place, were not batched.\nIf you are using a module and do not need eval mode, please set "
    "`track_running_stats` to be False.If you are using a prebuilt module and do not need eval mode, please see "
    "the functorch website for resources on how to patch your module to work with vmap")


def _is_batched(x, level):
    return x.__class__ is BatchedTensor and x._level == level


def _per_channel(t, level, size):
    """A per-channel parameter (C,) for ``size`` examples as (size * C,), or None."""
    if t is None:
        return None
    if _is_batched(t, level):
        return _reshape(t._value, [-1])
    return _repeat(t, [size])


def _batch_norm_rule(op, training_at, stats_at):
    """``native_batch_norm`` and its forms: the examples' channels side by side, one call."""
    def rule(*args, **kwargs):
        args = filled(args, len(op._schema.arguments) - 1, op)
        level = level_of(args)
        x = args[0]
        training = args[training_at] if training_at is not None else stats_at is None
        stats = [args[i] for i in stats_at] if stats_at else []
        if _is_batched(x, level) and training and any(s is not None and not _is_batched(s, level) for s in stats):
            raise RuntimeError(_UNBATCHED_STATS)
        if x._data.ndim < 2 or kwargs or any(s is not None and _is_batched(s, level)
                                             and not s._value.is_contiguous() for s in stats):
            return loop_fallback(op, *args, **kwargs)
        size = batch_size_at(level)
        phys = x._value if _is_batched(x, level) else _expand(x, [size] + list(x.shape))
        shape = list(phys.shape)  # (B, N, C, *)
        folded = _reshape(_movedim(phys, 0, 1), [shape[1], shape[0] * shape[2]] + shape[3:])
        call = list(args)
        call[0] = folded
        for i in (1, 2) + tuple(stats_at or ()):
            call[i] = _per_channel(args[i], level, size)
        outs = op(*call)
        y = _movedim(_reshape(outs[0], [shape[1], shape[0], shape[2]] + shape[3:]), 1, 0)
        # save_mean / save_invstd: (B * C,) in training, empty in eval; each example's share.
        rest = [_reshape(t, [size, t.numel() // size]) for t in outs[1:]]
        return type(outs)([wrap(y, level)] + [wrap(t, level) for t in rest])
    return rule


def _group_norm_rule(op):
    """``native_group_norm(x, w, b, N, C, HxW, group, eps)``: the examples become more rows."""
    def rule(input, weight, bias, N, C, HxW, group, eps):
        level = level_of((input, weight, bias))
        if not _is_batched(input, level) or _is_batched(weight, level) or _is_batched(bias, level):
            return loop_fallback(op, input, weight, bias, N, C, HxW, group, eps)
        phys = input._value
        size = phys.shape[0]
        flat = _reshape(phys, [size * int(N)] + list(phys.shape[2:]))
        y, mean, rstd = op(flat, weight, bias, size * int(N), C, HxW, group, eps)
        return (wrap(_reshape(y, list(phys.shape)), level), wrap(_reshape(mean, [size, int(N), group]), level),
                wrap(_reshape(rstd, [size, int(N), group]), level))
    return rule


def _layer_norm_rule(op):
    """``native_layer_norm``: the batch is one more leading dimension."""
    def rule(input, normalized_shape, weight, bias, eps):
        level = level_of((input, weight, bias))
        if not _is_batched(input, level) or _is_batched(weight, level) or _is_batched(bias, level):
            return loop_fallback(op, input, normalized_shape, weight, bias, eps)
        y, mean, rstd = op(input._value, normalized_shape, weight, bias, eps)
        return (wrap(y, level), wrap(mean, level), wrap(rstd, level))
    return rule


def _refuse_with_update(op):
    """torch has no batching rule for ``_batch_norm_with_update`` and its fallback refuses ops
    that write to their arguments."""
    def rule(*args, **kwargs):
        raise RuntimeError("Batching rule not implemented for aten::_batch_norm_with_update; the fallback path "
                           "doesn't work on out= or view ops.")
    return rule


def decompose(kernel):
    """The Batched kernel of a CompositeImplicitAutograd op: its composition, whose ops then batch
    (torch's ``OP_DECOMPOSE``: vmap sees what the op calls, not the op)."""
    return lambda op: kernel


RULES = {name: decompose(kernel) for name, kernel in norm_ops.COMPOSITE.items()}
RULES.update({
    "native_batch_norm": lambda op: _batch_norm_rule(op, 5, (3, 4)),
    "_native_batch_norm_legit": lambda op: _batch_norm_rule(op, 5, (3, 4)),
    "_native_batch_norm_legit.no_stats": lambda op: _batch_norm_rule(op, 3, None),
    "_native_batch_norm_legit_no_training": lambda op: _batch_norm_rule(op, None, (3, 4)),
    "_batch_norm_with_update": _refuse_with_update,
    "native_group_norm": _group_norm_rule,
    "native_layer_norm": _layer_norm_rule,
})
