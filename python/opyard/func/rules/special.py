"""Batching rules of the special functions and the complex parts whose kind gives none: ``frexp``
(several outputs: one call on the physical tensor, each output wrapped), ``view_as_real`` and
``view_as_complex`` (one call on the physical tensor), and the compositions (``real``, ``imag``,
``conj``, ``isreal``, ``float_power``, the ``special_*`` aliases, ...), which decompose."""

from ..._aten import complex_build, complex_views, numeric_ops, special_ops
from .common import wrap, wrap_all

__all__ = ["RULES", "unary_outputs_rule", "last_dim_view_rule"]


def unary_outputs_rule(op):
    """Ops of one tensor ``self`` returning several tensors: the physical call serves the batch (the
    batch dim is every output's first), each output wrapped at ``self``'s level."""
    def rule(self, *args, **kwargs):
        return wrap_all(op(self._value, *args, **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def last_dim_view_rule(op):
    """``view_as_real`` / ``view_as_complex``: they change only the last dim, which the batch dim
    (the physical first) never is; one call on the physical tensor serves the batch."""
    def rule(self):
        return wrap(op(self._value), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def _decompose(kernel):
    """A CompositeImplicitAutograd op (``real``, ``imag``, ``conj``, ...) under vmap: what it calls
    batches (torch's ``OP_DECOMPOSE``)."""
    return lambda op: kernel


RULES = {name: _decompose(kernel)
         for table in (complex_views.OPS, complex_build.OPS, numeric_ops.OPS, special_ops.OPS)
         for name, kernel in table.COMPOSITE.items()}
RULES.update({"frexp.Tensor": unary_outputs_rule, "view_as_real": last_dim_view_rule,
              "view_as_complex": last_dim_view_rule})
