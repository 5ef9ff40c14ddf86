"""Batching rules of the placement operators (``_aten.placement_ops``, ``_aten.resize_ops``) whose
generic treatment would differ from torch: ``_chunk_cat`` takes a list of tensors, which torch's
vmap has no rule or fallback for, so it refuses as torch does; ``resize_`` resizes the physical
tensor with the batch dimension kept in front and the batched tensor's logical shape follows
(``resize_as_`` goes per example, as torch's). The others (``put``, ``masked_scatter``, the masked indexing ops, ``nonzero_static``,
``hash_tensor``) run per example."""

import numpy as np


__all__ = ["RULES"]


def _resize_rule(op):
    """``resize_`` on the physical tensor, the batch dimension kept in front."""
    def rule(self, size, **kwargs):
        value = self._value
        op(value, [value.shape[0]] + [int(s) for s in size], **kwargs)
        d = value._data
        self._data = d[0] if d.shape[0] else np.empty(d.shape[1:], d.dtype)  # the logical view follows
        return self
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def _refuse_chunk_cat(op):
    def rule(*args, **kwargs):
        raise RuntimeError("Batching rule not implemented for aten::_chunk_cat. We could not generate a fallback.")
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


RULES = {
    "_chunk_cat": _refuse_chunk_cat,
    "resize_": _resize_rule,
}

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
