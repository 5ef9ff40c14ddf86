"""``opyard.nn``: modules with parameters, as ``torch.nn`` (``Module``, ``Parameter``, ``init``).

Example::

    >>> model = nn.Linear(3, 1)
    >>> [name for name, _ in model.named_parameters()]
    ['weight', 'bias']
"""

from . import functional, init
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .distance import CosineSimilarity, PairwiseDistance
from .linear import Identity, Linear
from .module import Module
from .parameter import Parameter

__all__ = ["Module", "Parameter", "init", "functional", "Linear", "Identity", "PairwiseDistance", "CosineSimilarity",
           "BatchNorm1d", "BatchNorm2d", "BatchNorm3d"]
