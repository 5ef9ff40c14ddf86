"""``opyard.signal``: torch.signal's window functions (``opyard.signal.windows``)."""

from . import windows

__all__ = ["windows"]
