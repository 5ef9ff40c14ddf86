"""Batching rules of the convolution, pooling and resampling ops.

These ops already take a batch of images, so a vmapped call is one call with the vmap
dimension folded into the op's own batch dimension: ``(B, N, C, *spatial)`` runs as
``(B*N, C, *spatial)`` and the results are unfolded; an unbatched example ``(C, *spatial)``
is already a batch as ``(B, C, *spatial)``. A convolution whose weight is batched runs as
one grouped convolution: example ``b``'s weight becomes groups ``b*g ... b*g+g-1`` of a
weight stacked along its first dimension (functorch's rule). The CompositeImplicitAutograd
ops (``conv2d``, ``max_pool2d``, ``upsample_bilinear2d.vec``, ...) decompose into these.
"""

import functools

from ..._aten import conv_ops, pool_ops, sample_ops
from .common import BatchedTensor, aten, batch_size_at, level_of, materialize, wrap
from .fallback import loop_fallback

__all__ = ["RULES", "convolution_rule", "decompose_rule", "planes_rule"]

_reshape = aten("reshape")
_permute = aten("permute")
_transpose = aten("transpose.int")


def _physical(x, level):
    """``x`` with the batch of ``level`` as dimension 0 (an unbatched tensor expanded)."""
    if x.__class__ is BatchedTensor and x._level == level:
        return x._value
    return materialize(x, level)


def _fold(t):
    """(B, N, ...) -> (B*N, ...)."""
    shape = list(t.shape)
    return _reshape(t, [shape[0] * shape[1]] + shape[2:])


def _unfold(t, b):
    shape = list(t.shape)
    return _reshape(t, [b, shape[0] // b if b else 0] + shape[1:])


def planes_rule(op, n, tensors=(0,), unbatched=True):
    """An op over ``(N, C, *spatial)`` inputs (``n`` spatial dims; ``unbatched``: ``(C, *spatial)``
    too) whose tensor arguments at ``tensors`` share that batch dimension."""
    def rule(*args, **kwargs):
        level = level_of(args)
        rank = args[tensors[0]]._data.ndim
        if rank != n + 2 and not (unbatched and rank == n + 1):
            return loop_fallback(op, *args, **kwargs)  # the op's own error, per example
        b = batch_size_at(level)
        call = list(args)
        for i in tensors:
            call[i] = _physical(args[i], level)
            if rank == n + 2:
                call[i] = _fold(call[i])
        result = op(*call, **kwargs)
        if isinstance(result, tuple):
            return tuple(wrap(_unfold(r, b) if rank == n + 2 else r, level) for r in result)
        return wrap(_unfold(result, b) if rank == n + 2 else result, level)
    return rule


def convolution_rule(op):
    """``convolution`` with a batched input folds it into the batch; a batched weight or bias
    becomes one grouped convolution over every example's weights."""
    def rule(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
        level = level_of((input, weight, bias))
        b = batch_size_at(level)
        per_weight = any(t.__class__ is BatchedTensor and t._level == level for t in (weight, bias) if t is not None)
        if not per_weight:
            x = _fold(_physical(input, level))
            y = op(x, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
            return wrap(_unfold(y, b), level)
        x = _physical(input, level)  # (B, N, C, *s) -> (N, B*C, *s)
        shape = list(x.shape)
        x = _reshape(_transpose(x, 0, 1), [shape[1], b * shape[2]] + shape[3:])
        w = _fold(_physical(weight, level))  # (B*C_w0, ...): example-major groups
        bb = None if bias is None else _fold(_physical(bias, level))
        y = op(x, w, bb, stride, padding, dilation, transposed, output_padding, groups * b)
        ys = list(y.shape)
        y = _reshape(y, [ys[0], b, ys[1] // b] + ys[2:])
        return wrap(_transpose(y, 0, 1), level)
    return rule


def decompose_rule(fn):
    """A CompositeImplicitAutograd op under vmap: its composition, whose ops have rules."""
    def factory(op):
        return fn
    return factory


def _rules():
    table = {"convolution": convolution_rule}
    planes = {  # op -> (spatial dims, tensor arguments, takes an unbatched input)
        "max_pool2d_with_indices": (2, (0,), True), "max_pool3d_with_indices": (3, (0,), True),
        "avg_pool2d": (2, (0,), True), "avg_pool3d": (3, (0,), True),
        "_adaptive_avg_pool2d": (2, (0,), True), "_adaptive_avg_pool3d": (3, (0,), True),
        "adaptive_max_pool2d": (2, (0,), True), "adaptive_max_pool3d": (3, (0,), True),
        "max_unpool2d": (2, (0, 1), True), "max_unpool3d": (3, (0, 1), True),
        "im2col": (2, (0,), True), "col2im": (1, (0,), True), "pixel_shuffle": (2, (0,), True),
        "pixel_unshuffle": (2, (0,), True), "channel_shuffle": (2, (0,), False),
        "grid_sampler_2d": (2, (0, 1), False), "grid_sampler_3d": (3, (0, 1), False),
    }
    for name, (_, n, _) in sample_ops._UPSAMPLE.items():
        planes[name] = (n, (0,), False)
    for name, (n, tensors, unbatched) in planes.items():
        table[name] = functools.partial(planes_rule, n=n, tensors=tensors, unbatched=unbatched)
    for module in (conv_ops, pool_ops, sample_ops):
        for name, fn in module.OPS.COMPOSITE.items():
            table[name] = decompose_rule(fn)
    return table


# overload name -> factory(op): the rules of this module (Note [Batching rule modules])
RULES = _rules()


from ..._exports import public_dir

__dir__ = public_dir(globals())
