"""torch._custom_op.impl's names: ``custom_op``, ``CustomOp``, ``get_op`` (deprecated in torch too).

Their home is ``opyard._library.legacy_custom_op``; the table is ``opyard._compat.ALIASES``.
"""

from .._compat import names_of

globals().update(names_of(__name__))
__all__ = sorted(names_of(__name__))
