"""``opyard.optim``: optimisers over parameter lists (``SGD``)."""

from .optimizer import Optimizer
from .sgd import SGD

__all__ = ["Optimizer", "SGD"]
