"""torch._custom_op's spelling: the ``impl`` module of the oldest custom-op API.

The names are opyard's objects (home: ``opyard._library.legacy_custom_op``), listed in
``opyard._compat.ALIASES``.
"""

from .._compat import names_of
from . import impl  # noqa: F401  (torch._custom_op.impl is reachable as an attribute)

globals().update(names_of(__name__))
__all__ = sorted(names_of(__name__))
