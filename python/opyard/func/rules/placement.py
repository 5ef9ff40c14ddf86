"""Batching rules of the placement operators (``_aten.placement_ops``) whose generic treatment would
differ from torch: ``_chunk_cat`` takes a list of tensors, which torch's vmap has no rule or
fallback for, so it refuses as torch does. The others (``put``, ``masked_scatter``, the masked
indexing ops, ``nonzero_static``, ``hash_tensor``) run per example."""

__all__ = ["RULES"]


def _refuse_chunk_cat(op):
    def rule(*args, **kwargs):
        raise RuntimeError("Batching rule not implemented for aten::_chunk_cat. We could not generate a fallback.")
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


RULES = {"_chunk_cat": _refuse_chunk_cat}

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
