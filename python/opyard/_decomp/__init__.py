"""torch._decomp's names: ``register_decomposition``, ``get_decompositions``, ``decomposition_table``.

Their home is ``opyard.fx.decomposition``; the table is ``opyard._compat.ALIASES``.
"""

from .._compat import names_of

globals().update(names_of(__name__))
__all__ = sorted(names_of(__name__))
