"""``nn.functional``'s losses: torch's argument handling (``reduction`` strings, the legacy
``size_average``/``reduce`` flags, shape checks), then the ``aten`` loss operator, or torch's
Python composition where torch has no operator (``gaussian_nll_loss``,
``multilabel_soft_margin_loss``, ``triplet_margin_with_distance_loss``, ``linear_cross_entropy``
and the weighted forms of ``l1_loss`` / ``huber_loss``). Example::

    >>> F.cross_entropy(opyard.tensor([[2.0, 0.0]]), opyard.tensor([0]))
    tensor(0.1269)
"""

import math
import warnings

from .._ops import ops
from ..autograd.grad_mode import no_grad

__all__ = ["cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div",
           "l1_loss", "mse_loss", "smooth_l1_loss", "huber_loss", "poisson_nll_loss", "gaussian_nll_loss",
           "hinge_embedding_loss", "margin_ranking_loss", "cosine_embedding_loss", "multi_margin_loss",
           "multilabel_margin_loss", "multilabel_soft_margin_loss", "soft_margin_loss", "triplet_margin_loss",
           "triplet_margin_with_distance_loss", "linear_cross_entropy", "ctc_loss"]

_A = ops.aten
_ENUMS = {"none": 0, "mean": 1, "sum": 2}


def _enum(reduction):
    """torch's ``_Reduction.get_enum``."""
    if reduction == "elementwise_mean":
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use reduction='mean' instead.",
                      stacklevel=3)
        return 1
    try:
        return _ENUMS[reduction]
    except (KeyError, TypeError):
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


def _legacy(size_average, reduce):
    """torch's ``_Reduction.legacy_get_string``: the reduction the deprecated flags mean (with its warning)."""
    size_average = True if size_average is None else size_average
    reduce = True if reduce is None else reduce
    name = "mean" if size_average and reduce else "sum" if reduce else "none"
    warnings.warn(f"size_average and reduce args will be deprecated, please use reduction='{name}' instead.",
                  stacklevel=3)
    return name


def _reduction(reduction, size_average=None, reduce=None):
    """The ``int reduction`` of a call (legacy flags first, as torch)."""
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    return _enum(reduction)


def _warn_size(input, target):
    if target.size() != input.size():
        warnings.warn(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}). "
                      "This will likely lead to incorrect results due to broadcasting. Please ensure they have the "
                      "same size.", stacklevel=3)


def cross_entropy(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean",
                  label_smoothing=0.0):
    """The cross entropy between ``input`` logits and class indices or class probabilities."""
    return _A.cross_entropy_loss.default(input, target, weight, _reduction(reduction, size_average, reduce),
                                         ignore_index, label_smoothing)


def nll_loss(input, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction="mean"):
    """The negative log likelihood of ``target`` classes under ``input`` log-probabilities."""
    return _A.nll_loss_nd.default(input, target, weight, _reduction(reduction, size_average, reduce), ignore_index)


def binary_cross_entropy(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    r = _reduction(reduction, size_average, reduce)
    if target.size() != input.size():
        raise ValueError(f"Using a target size ({target.size()}) that is different to the input size ({input.size()}) "
                         "is deprecated. Please ensure they have the same size.")
    if weight is not None:
        weight = _A.expand.default(weight, _broadcast_shape(tuple(target.shape), tuple(weight.shape)))
    return _A.binary_cross_entropy.default(input, target, weight, r)


def _broadcast_shape(a, b):
    """The broadcast of two shapes, or torch's "The size of tensor a ..." error."""
    out = []
    n = max(len(a), len(b))
    for i in range(1, n + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {n - i}")
        out.append(y if x == 1 else x)
    return list(reversed(out))


def _broadcast_tensors(input, target):
    """``torch.broadcast_tensors(input, target)``: both expanded to their common shape."""
    shape = _broadcast_shape(tuple(input.shape), tuple(target.shape))
    return (input if list(input.shape) == shape else _A.expand.default(input, shape),
            target if list(target.shape) == shape else _A.expand.default(target, shape))


def binary_cross_entropy_with_logits(input, target, weight=None, size_average=None, reduce=None, reduction="mean",
                                     pos_weight=None):
    r = _reduction(reduction, size_average, reduce)
    if target.size() != input.size():
        raise ValueError(f"Target size ({target.size()}) must be the same as input size ({input.size()})")
    return _A.binary_cross_entropy_with_logits.default(input, target, weight, pos_weight, r)


def kl_div(input, target, size_average=None, reduce=None, reduction="mean", log_target=False):
    """The Kullback-Leibler divergence of ``target`` from ``input`` (log-probabilities)."""
    if size_average is not None or reduce is not None:
        r = _enum(_legacy(size_average, reduce))
    else:
        if reduction == "mean":
            warnings.warn("reduction: 'mean' divides the total loss by both the batch size and the support size."
                          "'batchmean' divides only by the batch size, and aligns with the KL div math definition."
                          "'mean' will be changed to behave the same as 'batchmean' in the next major release.",
                          stacklevel=2)
        r = 2 if reduction == "batchmean" else _enum(reduction)
    reduced = _A.kl_div.default(input, target, r, log_target=log_target)
    if reduction == "batchmean" and input.dim() != 0:
        reduced = _A.div.Scalar(reduced, input.size()[0])
    return reduced


def _weighted(loss, weight, reduction, mean_by_weight):
    weighted = _A.mul.Tensor(loss, weight)
    if reduction == "none":
        return weighted
    if reduction == "sum":
        return _A.sum.default(weighted)
    if reduction == "mean":
        if mean_by_weight:
            return _A.div.Tensor(_A.sum.default(weighted), _A.sum.default(weight))
        return _A.mean.default(weighted)
    raise ValueError(f"Invalid reduction mode: {reduction}. Expected one of 'none', 'mean', 'sum'.")


def l1_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        return _weighted(_A.abs.default(_A.sub.Tensor(x, t)), weight, reduction, True)
    return _A.l1_loss.default(x, t, _enum(reduction))


def mse_loss(input, target, size_average=None, reduce=None, reduction="mean", weight=None):
    """The mean (or sum, or each) of the squared differences, optionally weighted."""
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if weight is not None:
        if weight.size() != input.size():
            raise ValueError("Weights and input must have the same size.")
        return _weighted(_A.pow.Tensor_Scalar(_A.sub.Tensor(x, t), 2), weight, reduction, True)
    return _A.mse_loss.default(x, t, _enum(reduction))


def smooth_l1_loss(input, target, size_average=None, reduce=None, reduction="mean", beta=1.0):
    _warn_size(input, target)
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    x, t = _broadcast_tensors(input, target)
    if beta == 0.0:
        return _A.l1_loss.default(x, t, _enum(reduction))
    return _A.smooth_l1_loss.default(x, t, _enum(reduction), beta)


def huber_loss(input, target, reduction="mean", delta=1.0, weight=None):
    _warn_size(input, target)
    x, t = _broadcast_tensors(input, target)
    if weight is None:
        return _A.huber_loss.default(x, t, _enum(reduction), delta)
    if weight.size() != input.size():
        raise ValueError("Weights and input must have the same size.")
    return _weighted(_A.huber_loss.default(x, t, 0, delta), weight, reduction, False)


def poisson_nll_loss(input, target, log_input=True, full=False, size_average=None, eps=1e-8, reduce=None,
                     reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    return _A.poisson_nll_loss.default(input, target, log_input, full, eps, _enum(reduction))


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """The negative log likelihood of ``target`` under N(``input``, ``var``)."""
    if isinstance(var, float):
        if var < 0:
            raise ValueError("var has negative entry/entries")
        var = _A.mul.Scalar(_A.ones_like.default(input), var)
    elif bool(_A.any.default(_A.lt.Scalar(var, 0))):
        raise ValueError("var has negative entry/entries")
    if var.size() != input.size():
        if input.size()[:-1] == var.size():
            var = _A.unsqueeze.default(var, -1)
        elif input.dim() == var.dim() and sum(y for x, y in zip(input.size(), var.size()) if x != y) == 1:
            pass
        else:
            raise ValueError("var is of incorrect size")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    var = _A.clone.default(var)
    var = _clamped(var, eps)
    loss = _A.mul.Scalar(_A.add.Tensor(_A.log.default(var),
                                       _A.div.Tensor(_A.pow.Tensor_Scalar(_A.sub.Tensor(input, target), 2), var)), 0.5)
    if full:
        loss = _A.add.Scalar(loss, 0.5 * math.log(2 * math.pi))
    if reduction == "mean":
        return _A.mean.default(loss)
    if reduction == "sum":
        return _A.sum.default(loss)
    return loss


def _clamped(var, eps):
    """``var.clamp_(min=eps)`` without recording it (torch clamps under no_grad: the gradient
    flows to ``var`` as if unclamped)."""
    with no_grad():
        _A.clamp_.default(var, eps)
    return var


def hinge_embedding_loss(input, target, margin=1.0, size_average=None, reduce=None, reduction="mean"):
    return _A.hinge_embedding_loss.default(input, target, margin, _reduction(reduction, size_average, reduce))


def margin_ranking_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    r = _reduction(reduction, size_average, reduce)
    if input1.dim() != input2.dim() or input1.dim() != target.dim():
        raise RuntimeError(f"margin_ranking_loss : All input tensors should have same dimension but got sizes: "
                           f"input1: {input1.size()}, input2: {input2.size()}, target: {target.size()} ")
    return _A.margin_ranking_loss.default(input1, input2, target, margin, r)


def cosine_embedding_loss(input1, input2, target, margin=0, size_average=None, reduce=None, reduction="mean"):
    return _A.cosine_embedding_loss.default(input1, input2, target, margin,
                                            _reduction(reduction, size_average, reduce))


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None,
                      reduction="mean"):
    r = _reduction(reduction, size_average, reduce)
    if p != 1 and p != 2:
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    return _A.multi_margin_loss.default(input, target, p, margin, weight, r)


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _A.multilabel_margin_loss.default(input, target, _reduction(reduction, size_average, reduce))


def soft_margin_loss(input, target, size_average=None, reduce=None, reduction="mean"):
    return _A.soft_margin_loss.default(input, target, _reduction(reduction, size_average, reduce))


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    if size_average is not None or reduce is not None:
        reduction = _legacy(size_average, reduce)
    pos = _A.mul.Tensor(target, _A.log_sigmoid.default(input))
    neg = _A.mul.Tensor(_A.rsub.Scalar(target, 1), _A.log_sigmoid.default(_A.neg.default(input)))
    loss = _A.neg.default(_A.add.Tensor(pos, neg))
    if weight is not None:
        loss = _A.mul.Tensor(loss, weight)
    class_dim = input.dim() - 1
    loss = _A.div.Scalar(_A.sum.dim_IntList(loss, [class_dim]), input.size(class_dim))
    if reduction == "none":
        return loss
    if reduction == "mean":
        return _A.mean.default(loss)
    if reduction == "sum":
        return _A.sum.default(loss)
    raise ValueError(reduction + " is not valid")


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2, eps=1e-6, swap=False, size_average=None,
                        reduce=None, reduction="mean"):
    r = _reduction(reduction, size_average, reduce)
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    return _A.triplet_margin_loss.default(anchor, positive, negative, margin, p, eps, swap, r)


def triplet_margin_with_distance_loss(anchor, positive, negative, *, distance_function=None, margin=1.0, swap=False,
                                      reduction="mean"):
    """``triplet_margin_loss`` with any ``distance_function(x, y)`` (default: pairwise distance)."""
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    if margin <= 0:
        raise ValueError(f"margin must be greater than 0, got {margin}")
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if not dims[0] == dims[1] == dims[2]:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    distance = distance_function if distance_function is not None else _pairwise_distance
    dist_pos = distance(anchor, positive)
    dist_neg = distance(anchor, negative)
    if swap:
        dist_neg = _A.minimum.default(dist_neg, distance(positive, negative))
    loss = _A.clamp_min.default(_A.sub.Tensor(_A.add.Scalar(dist_pos, margin), dist_neg), 0)
    if reduction == "sum":
        return _A.sum.default(loss)
    if reduction == "mean":
        return _A.mean.default(loss)
    return loss


def _pairwise_distance(x1, x2):
    return _A.pairwise_distance.default(x1, x2)


def linear_cross_entropy(input, linear_weight, target, *, linear_bias=None, weight=None, reduction="mean",
                         ignore_index=None, label_smoothing=0.0, options=None):
    """``cross_entropy(linear(input, linear_weight, linear_bias), target)``. ``options`` (torch's
    chunking of the computation to save memory) gives the same values and is not needed here."""
    if input.dim() < 1 or input.dim() > 2:
        raise RuntimeError(f"expected input with dimensionality 1 or 2, got {input.dim()}")
    if linear_weight.dim() < 2:
        raise RuntimeError(f"expected linear_weight with dimensionality at least 2, got {linear_weight.dim()}")
    batch = tuple(input.shape[:-1])
    in_features = input.shape[-1]
    if in_features != linear_weight.shape[-1]:
        raise RuntimeError(f"expected equal input and linear_weight last dimensions (in_features), got "
                           f"{input.shape[-1]} and {linear_weight.shape[-1]}, respectively")
    num_classes = linear_weight.shape[0]
    out_features = tuple(linear_weight.shape[1:-1])
    if linear_bias is not None and tuple(linear_bias.shape) != (num_classes, *out_features):
        raise RuntimeError(f"expected linear_bias shape {(num_classes, *out_features)}, got "
                           f"{tuple(linear_bias.shape)}")
    if out_features and not batch:
        raise RuntimeError(f"K-dimensional loss defined by linear_weight shape {tuple(linear_weight.shape)} requires "
                           f"batched input, (N, {in_features}), got unbatched input with shape {tuple(input.shape)}")
    logits_shape = (*batch, num_classes, *out_features)
    if tuple(target.shape) == logits_shape and ignore_index is not None:
        raise RuntimeError("ignore_index cannot be specified when target contains probabilities")
    ignore_index = -100 if ignore_index is None else ignore_index
    if out_features:
        rows = math.prod(out_features, start=num_classes)
        linear_weight = _A.reshape.default(linear_weight, [rows, in_features])
        if linear_bias is not None:
            linear_bias = _A.reshape.default(linear_bias, [rows])
    logits = _A.reshape.default(_A.linear.default(input, linear_weight, linear_bias), list(logits_shape))
    return cross_entropy(logits, target, weight=weight, reduction=reduction, ignore_index=ignore_index,
                         label_smoothing=label_smoothing)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction="mean", zero_infinity=False):
    """The connectionist temporal classification loss of ``targets`` under ``log_probs`` (T, N, C)
    (or (T, C) unbatched), each example's input and target lengths given as ints or tensors."""
    r = _enum(reduction)
    if hasattr(input_lengths, "dtype") or hasattr(target_lengths, "dtype"):
        return _A.ctc_loss.Tensor(log_probs, targets, input_lengths, target_lengths, blank, r, zero_infinity)
    return _A.ctc_loss.IntList(log_probs, targets, list(input_lengths), list(target_lengths), blank, r,
                               zero_infinity)
