"""Batching rules of the statistics operators (``_aten/statistics.py``).

``nanmedian.dim`` and ``logcumsumexp`` reduce or scan one dimension: one physical call with the dim
shifted past the batch dim. The ``unique`` family returns as many values as the data has distinct
ones, which differs per example: torch refuses it under vmap, and so do these rules. The
``histogramdd`` forms take or return a list of tensors, which torch's per-example fallback cannot
run ("We could not generate a fallback"): refused with torch's message. ``quantile`` runs per example
(torch does not decompose it under vmap), as do the other operators without a rule here
(``fallback.loop_fallback``).
"""

from .dims import DimSpec, dim_rule
from .fallback import loop_fallback

__all__ = ["RULES"]

_DYNAMIC = ("vmap: We do not support batching operators that can output dynamic shape. Attempted to vmap over "
            "{name}. Compute outside vmap (or per example), since each example may give another number of values.")


def dynamic_shape_rule(op):
    message = _DYNAMIC.format(name=op.name())

    def rule(*args, **kwargs):
        raise RuntimeError(message)
    return rule


def no_fallback_rule(op):
    """torch's per-example fallback refuses an operator with a ``Tensor[]`` argument or a result that
    is not tensors; so does opyard's, for the same operators."""
    message = f"Batching rule not implemented for {op.name()}. We could not generate a fallback."

    def rule(*args, **kwargs):
        raise RuntimeError(message)
    return rule


def per_example_rule(op):
    """torch has no decomposition of ``quantile`` under vmap: its per-example fallback runs it (the
    check that every q is in [0, 1] reads one example's q at a time)."""
    def rule(*args, **kwargs):
        return loop_fallback(op, *args, **kwargs)
    return rule


def _dims(spec):
    return lambda op: dim_rule(op, spec)


RULES = {
    "nanmedian.dim": _dims(DimSpec("dim")),
    "logcumsumexp": _dims(DimSpec("dim")),
    "_logcumsumexp": _dims(DimSpec("dim")),
    "_unique2": dynamic_shape_rule, "_unique": dynamic_shape_rule, "unique_dim": dynamic_shape_rule,
    "unique_consecutive": dynamic_shape_rule, "unique_dim_consecutive": dynamic_shape_rule,
    "histogramdd": no_fallback_rule, "histogramdd.int_bins": no_fallback_rule,
    "histogramdd.TensorList_bins": no_fallback_rule, "_histogramdd_bin_edges": no_fallback_rule,
    "_histogramdd_from_bin_tensors": no_fallback_rule,
    "quantile": per_example_rule, "quantile.scalar": per_example_rule, "nanquantile": per_example_rule,
    "nanquantile.scalar": per_example_rule,
}
