"""torch._inductor's spellings that registration code imports: the ``decomposition`` module.

Their home is ``opyard.fx.decomposition``; the table is ``opyard._compat.ALIASES``.
"""

from .._compat import names_of
from . import decomposition  # noqa: F401  (torch._inductor.decomposition is reachable as an attribute)

globals().update(names_of(__name__))
__all__ = sorted(names_of(__name__))
