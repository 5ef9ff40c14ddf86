"""torch._inductor.decomposition's names: ``register_decomposition`` (into ``decompositions``),
``decompositions`` and ``select_decomp_table``, which torchao's modules use at import.

Their home is ``opyard.fx.decomposition`` (``register_inductor_decomposition``,
``inductor_decompositions``); the table is ``opyard._compat.ALIASES``.
"""

from .._compat import names_of

globals().update(names_of(__name__))
__all__ = sorted(names_of(__name__))
