"""``nn.PairwiseDistance`` and ``nn.CosineSimilarity``: the distance functions as modules (what
``F.triplet_margin_with_distance_loss`` takes as its ``distance_function``, for example)."""

from . import functional as F
from .module import Module

__all__ = ["PairwiseDistance", "CosineSimilarity"]


class PairwiseDistance(Module):
    """``||x1 - x2 + eps||_p`` over the last dimension.

    Example::

        >>> nn.PairwiseDistance(p=1)(opyard.ones(2, 3), opyard.zeros(2, 3))
        tensor([3.0000, 3.0000])
    """

    def __init__(self, p=2.0, eps=1e-6, keepdim=False):
        super().__init__()
        self.norm = p
        self.eps = eps
        self.keepdim = keepdim

    def forward(self, x1, x2):
        return F.pairwise_distance(x1, x2, self.norm, self.eps, self.keepdim)


class CosineSimilarity(Module):
    """The cosine of the angle between ``x1`` and ``x2`` along ``dim``."""

    def __init__(self, dim=1, eps=1e-8):
        super().__init__()
        self.dim = dim
        self.eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, self.dim, self.eps)
