"""Batching rules of the Fourier transform kernels and the complex views and conjugations.

A CompositeImplicitAutograd op runs its composition on the batched tensors. A transform over
logical dims is the same transform over those dims of the physical tensor,
shifted past the batch dim; the complex views and conjugations act element by element (a view
adds or removes a trailing dimension), so the physical call is the batched one.
"""

from ..._aten import complex_ops, spectral
from .common import shift_dim, wrap
from .pointwise import unary_rule
from .spatial import decompose_rule

__all__ = ["RULES", "transform_rule"]


def transform_rule(op):
    """``_fft_c2c`` / ``_fft_r2c`` / ``_fft_c2r``: ``self`` batched, ``dim`` shifted."""
    api = op.name()

    def rule(self, dim, *args, **kwargs):
        ndim = self._data.ndim
        return wrap(op(self._value, [shift_dim(d, ndim, api) for d in dim], *args, **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{api}>"
    return rule


# overload name -> factory(op) (Note [Batching rule modules]); the CompositeImplicitAutograd ops
# (``fft_*``, ``conj``, ``real``, ...) run their composition, whose ops have rules.
RULES = {
    **{name: decompose_rule(fn) for module in (spectral, complex_ops) for name, fn in module.OPS.COMPOSITE.items()},
    "_fft_c2c": transform_rule, "_fft_r2c": transform_rule, "_fft_c2r": transform_rule,
    "_conj": unary_rule, "_conj_physical": unary_rule,  # view_as_real/complex: rules/special.py
}
