"""``nn.functional``'s distances, bilinear form and bag embeddings: torch's argument handling,
then one ``aten`` operator each."""

import warnings

from .._ops import ops
from ..autograd.grad_mode import no_grad

__all__ = ["pairwise_distance", "pdist", "cosine_similarity", "bilinear", "embedding_bag", "renormed"]

_A = ops.aten


def pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    """``norm(x1 - x2 + eps, p)`` over the last dimension."""
    return _A.pairwise_distance.default(x1, x2, p, eps, keepdim)


def pdist(input, p=2.0):
    """The p-norm distance between every two rows of ``input`` (N, M): N * (N - 1) / 2 values."""
    return _A.pdist.default(input, p)


def cosine_similarity(x1, x2, dim=1, eps=1e-8):
    """``<x1, x2> / (max(||x1||, eps) * max(||x2||, eps))`` along ``dim``."""
    return _A.cosine_similarity.default(x1, x2, dim, eps)


def bilinear(input1, input2, weight, bias=None):
    """``input1^T weight[k] input2 + bias[k]`` for each output feature ``k``."""
    return _A.bilinear.default(input1, input2, weight, bias)


def renormed(weight, input, max_norm, norm_type):
    """torch's ``_no_grad_embedding_renorm_``: the rows ``input`` reads scaled down to ``max_norm``, in place."""
    with no_grad():
        _A.embedding_renorm_.default(weight.detach(), input, max_norm, norm_type)


_MODES = {"sum": 0, "mean": 1, "max": 2}


def embedding_bag(input, weight, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode="mean",
                  sparse=False, per_sample_weights=None, include_last_offset=False, padding_idx=None):
    """Sums, means or maxima of bags of embeddings: bags given by ``offsets`` into 1-D ``input``, or
    the rows of a 2-D ``input``."""
    if weight.dtype.name == "int64" and input.is_floating_point():
        warnings.warn("Argument order of nn.functional.embedding_bag was changed. Usage `embedding_bag(weight, input, "
                      "...)` is deprecated, and should now be `embedding_bag(input, weight, ...)`.", stacklevel=2)
        weight, input = input, weight
    if per_sample_weights is not None and input.size() != per_sample_weights.size():
        raise ValueError(f"embedding_bag: If per_sample_weights ({per_sample_weights.shape}) is not None, then it "
                         f"must have the same shape as the input ({input.shape})")
    if weight.dim() != 2:
        raise ValueError(f"weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}")
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(f"if input is 2D, then offsets has to be None, as input is treated is a mini-batch of "
                             f"fixed length sequences. However, found offsets of type {type(offsets)}")
        offsets = _A.arange.start_step(0, input.numel(), input.size(1), dtype=input.dtype, device=input.device)
        include_last_offset = False
        input = _A.reshape.default(input, [-1])
        if per_sample_weights is not None:
            per_sample_weights = _A.reshape.default(per_sample_weights, [-1])
    elif input.dim() == 1:
        if offsets is None:
            raise ValueError("offsets has to be a 1D Tensor but got None")
        if offsets.dim() != 1:
            raise ValueError("offsets has to be a 1D Tensor")
    else:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if mode not in _MODES:
        raise ValueError("mode has to be one of sum, mean or max")
    if mode == "max":
        if scale_grad_by_freq:
            raise ValueError("max mode does not support scaling the gradient by the frequency")
        if sparse:
            raise ValueError("max mode does not support sparse weights")
    if max_norm is not None:
        renormed(weight, input, max_norm, norm_type)
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(f"embedding_bag: per_sample_weights was not None. per_sample_weights is only "
                                  f"supported for mode='sum' (got mode='{mode}'). Please open a feature request on "
                                  "GitHub.")
    return _A.embedding_bag.padding_idx(weight, input, offsets, scale_grad_by_freq, _MODES[mode], sparse,
                                        per_sample_weights, include_last_offset, padding_idx)[0]
