"""torch's ``torch.utils._mode_utils`` spelling: ``no_dispatch`` and ``all_same_mode``.

The names are opyard's public objects (home: ``opyard.utils.python_dispatch``), listed in
``opyard._compat.ALIASES``.
"""

from .._compat import names_of

globals().update(names_of(__name__))
__all__ = sorted(names_of(__name__))
