"""Batching rules of the special functions and the complex views beside them whose kind gives none
(an op with several outputs, ``frexp``): one call on the physical tensor, each output wrapped."""

from .common import wrap_all

__all__ = ["RULES", "unary_outputs_rule"]


def unary_outputs_rule(op):
    """Ops of one tensor ``self`` returning several tensors: the physical call serves the batch (the
    batch dim is every output's first), each output wrapped at ``self``'s level."""
    def rule(self, *args, **kwargs):
        return wrap_all(op(self._value, *args, **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


RULES = {"frexp.Tensor": unary_outputs_rule}
