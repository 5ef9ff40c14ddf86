"""Derivatives of ``repeat_interleave`` with ``self`` (torch composes it of views and a copy, or of
``index_select``; opyard runs it as one kernel): each input element's gradient is the sum of the
gradients of its copies."""

from ._helpers import A
from .registry import Formula as F

__all__ = ["FORMULAS"]


def _layout(a):
    """``(shape of self as repeated, the repeated dim)``: a ``dim=None`` call repeats the flattened input."""
    shape = list(a.self.shape)
    if a.dim is None:
        return [max(1, _numel(shape))] if shape else [1], 0
    return shape, a.dim % max(len(shape), 1)


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _by_count(grads, a, n):
    shape, d = _layout(a)
    r = int(a.repeats)
    split = shape[:d] + [shape[d], r] + shape[d + 1:]
    g = A.sum.dim_IntList(A.reshape.default(grads[0], split), [d + 1])
    return (A.reshape.default(g, list(a.self.shape)),)


def _by_tensor(grads, a, n):
    shape, d = _layout(a)
    repeats = a.repeats
    if repeats.dim() == 0 or repeats.numel() == 1:  # one count for every element
        repeats = A.expand.default(A.reshape.default(repeats, [1]), [shape[d]])
    index = A.repeat_interleave.Tensor(repeats)
    g = A.index_add.default(A.zeros.default(shape, dtype=grads[0].dtype, device=grads[0].device), d, index, grads[0])
    return (A.reshape.default(g, list(a.self.shape)),)


FORMULAS = {
    "aten::repeat_interleave.self_int": F("RepeatInterleaveBackward0", ("self",), _by_count, save=("self",)),
    "aten::repeat_interleave.self_Tensor": F("RepeatInterleaveBackward1", ("self",), _by_tensor,
                                             save=("self", "repeats")),
}
