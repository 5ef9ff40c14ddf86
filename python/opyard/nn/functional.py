"""``opyard.nn.functional``: torch's functional API over the built-in operators.

Fake impls and reference kernels of real extension code call these
(``F.pad``, ``F.linear``, ``F.softmax``, ``F.scaled_dot_product_attention``, ...);
each is one call of an ``aten`` operator, so autograd, meta and fake tensors
work the same way as for the operator itself. Example::

    >>> import opyard.nn.functional as F
    >>> F.gelu(opyard.tensor([0.0, 1.0]), approximate="tanh")
    tensor([0.0000, 0.8412])
"""

import warnings

from .._ops import ops
from . import _distances
from ._activations import (alpha_dropout, celu, celu_, dropout1d, dropout2d, dropout3d, elu_, feature_alpha_dropout,
                           glu, hardshrink, hardsigmoid, hardswish, logsigmoid, mish, prelu, rrelu, rrelu_, selu,
                           selu_, softmin, softshrink, softsign, tanhshrink, threshold, threshold_)
from ._attention import multi_head_attention_forward
from ._distances import bilinear, cosine_similarity, embedding_bag, pairwise_distance, pdist
from ._losses import (binary_cross_entropy, binary_cross_entropy_with_logits, cosine_embedding_loss, cross_entropy,
                      ctc_loss, gaussian_nll_loss, hinge_embedding_loss, huber_loss, kl_div, l1_loss,
                      linear_cross_entropy, margin_ranking_loss, mse_loss, multi_margin_loss, multilabel_margin_loss,
                      multilabel_soft_margin_loss, nll_loss, poisson_nll_loss, smooth_l1_loss, soft_margin_loss,
                      triplet_margin_loss, triplet_margin_with_distance_loss)
from ._norms import batch_norm, group_norm, instance_norm, local_response_norm
from . import _spatial
from ._spatial import *  # noqa: F403  (convolution, pooling, resampling: torch's functions)

__all__ = [
    "linear", "relu", "relu6", "silu", "gelu", "sigmoid", "tanh", "leaky_relu", "hardtanh", "elu",
    "softplus", "softmax", "log_softmax", "layer_norm", "rms_norm", "dropout", "embedding", "one_hot",
    "pad", "scaled_dot_product_attention", "normalize",
    # normalization
    "batch_norm", "instance_norm", "group_norm", "local_response_norm",
    # activations and dropout
    "threshold", "threshold_", "glu", "celu", "celu_", "selu", "selu_", "rrelu", "rrelu_", "logsigmoid",
    "hardshrink", "softshrink", "tanhshrink", "softsign", "softmin", "hardsigmoid", "hardswish", "mish", "prelu",
    "elu_", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout",
    # losses
    "cross_entropy", "nll_loss", "binary_cross_entropy", "binary_cross_entropy_with_logits", "kl_div", "l1_loss",
    "mse_loss", "smooth_l1_loss", "huber_loss", "poisson_nll_loss", "gaussian_nll_loss", "hinge_embedding_loss",
    "margin_ranking_loss", "cosine_embedding_loss", "multi_margin_loss", "multilabel_margin_loss",
    "multilabel_soft_margin_loss", "soft_margin_loss", "triplet_margin_loss", "triplet_margin_with_distance_loss",
    "linear_cross_entropy", "ctc_loss",
    # attention, distances, bag embeddings
    "multi_head_attention_forward", "pairwise_distance", "pdist", "cosine_similarity", "bilinear", "embedding_bag",
    # in-place forms, sampling grids, Gumbel-softmax, the function protocol's helpers
    "relu_", "leaky_relu_", "hardtanh_", "affine_grid", "gumbel_softmax", "has_torch_function",
    "has_torch_function_unary", "has_torch_function_variadic", "handle_torch_function",
] + _spatial.__all__

_A = ops.aten


def linear(input, weight, bias=None):
    return _A.linear.default(input, weight, bias)


def relu(input, inplace=False):
    return _A.relu_.default(input) if inplace else _A.relu.default(input)


def relu_(input):
    """``relu`` in place."""
    return _A.relu_.default(input)


def leaky_relu_(input, negative_slope=0.01):
    """``leaky_relu`` in place."""
    return leaky_relu(input, negative_slope, inplace=True)


def hardtanh_(input, min_val=-1.0, max_val=1.0):
    """``hardtanh`` in place."""
    return hardtanh(input, min_val, max_val, inplace=True)


def affine_grid(theta, size, align_corners=None):
    """The sampling grid (``[N, H, W, 2]`` or ``[N, D, H, W, 3]``) of the affine transforms ``theta``
    (``[N, 2, 3]`` or ``[N, 3, 4]``) for an output of ``size``, in ``grid_sample``'s normalised
    coordinates. ``align_corners`` as ``grid_sample``'s (False when omitted, with torch's warning)."""
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since "
                      "1.3.0. Please specify align_corners=True if the old behavior is desired. See the "
                      "documentation of grid_sample for details.", stacklevel=2)
        align_corners = False
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = list(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. "
                             f"Got {theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the "
                      "documentation of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return _A.affine_grid_generator.default(theta, size, align_corners)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Samples of the Gumbel-softmax distribution over ``dim``: ``softmax((logits + g) / tau)`` with
    ``g ~ Gumbel(0, 1)``; ``hard=True`` returns one-hot samples whose gradient is the soft sample's
    (straight through)."""
    if eps != 1e-10:
        warnings.warn("`eps` parameter is deprecated and has no effect.", stacklevel=2)
    gumbels = _A.neg.default(_A.log.default(_A.exponential_.default(_A.empty_like.default(logits))))
    y_soft = _A.softmax.int(_A.div.Tensor(_A.add.Tensor(logits, gumbels), tau), dim)
    if not hard:
        return y_soft
    index = _A.max.dim(y_soft, dim, True)[1]
    y_hard = _A.scatter_.value(_A.zeros_like.default(logits), dim, index, 1.0)
    return _A.add.Tensor(_A.sub.Tensor(y_hard, _A.detach.default(y_soft)), y_soft)


def has_torch_function(relevant_args):
    """Whether any of ``relevant_args`` takes part in the function protocol (``overrides``' helper)."""
    from ..overrides import has_torch_function as has

    return has(relevant_args)


def has_torch_function_unary(arg):
    return has_torch_function((arg,))


def has_torch_function_variadic(*args):
    return has_torch_function(args)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Run ``public_api`` through the function protocol of ``relevant_args`` (``overrides``' helper)."""
    from ..overrides import handle_torch_function as handle

    return handle(public_api, relevant_args, *args, **kwargs)


def relu6(input, inplace=False):
    return hardtanh(input, 0.0, 6.0, inplace)


def silu(input, inplace=False):
    return _A.silu_.default(input) if inplace else _A.silu.default(input)


def gelu(input, approximate="none"):
    return _A.gelu.default(input, approximate=approximate)


def sigmoid(input):
    return _A.sigmoid.default(input)


def tanh(input):
    return _A.tanh.default(input)


def leaky_relu(input, negative_slope=0.01, inplace=False):
    if inplace:
        return _A.leaky_relu_.default(input, negative_slope)
    return _A.leaky_relu.default(input, negative_slope)


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    if min_val > max_val:  # torch's functional checks the bounds (the operator itself does not)
        raise ValueError("min_val cannot be greater than max_val")
    if inplace:
        return _A.hardtanh_.default(input, min_val, max_val)
    return _A.hardtanh.default(input, min_val, max_val)


def elu(input, alpha=1.0, inplace=False):
    return _A.elu_.default(input, alpha) if inplace else _A.elu.default(input, alpha)


def softplus(input, beta=1.0, threshold=20.0):
    return _A.softplus.default(input, beta, threshold)


def _softmax_dim(name, ndim):
    warnings.warn(f"Implicit dimension choice for {name} has been deprecated. Change the call to include "
                  "dim=X as an argument.", UserWarning, stacklevel=3)
    return 0 if ndim in (0, 1, 3) else 1


def softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return _A.softmax.int(input, dim, dtype)


def log_softmax(input, dim=None, _stacklevel=3, dtype=None):
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return _A.log_softmax.int(input, dim, dtype)


def _shape(normalized_shape):
    return [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    return _A.layer_norm.default(input, _shape(normalized_shape), weight, bias, eps)


def rms_norm(input, normalized_shape, weight=None, eps=None):
    return _A.rms_norm.default(input, _shape(normalized_shape), weight, eps)


def dropout(input, p=0.5, training=True, inplace=False):
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    return _A.dropout_.default(input, p, training) if inplace else _A.dropout.default(input, p, training)


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    if padding_idx is not None:
        n = weight.shape[0]
        if not -n <= padding_idx < n:
            raise AssertionError("Padding_idx must be within num_embeddings")
        padding_idx = padding_idx + n if padding_idx < 0 else padding_idx
    if max_norm is not None:  # the rows the input reads are scaled down to max_norm in place, as in torch
        input = input.contiguous()
        _distances.renormed(weight, input, max_norm, norm_type)
    return _A.embedding.default(weight, input, -1 if padding_idx is None else padding_idx,
                                scale_grad_by_freq, sparse)


def one_hot(tensor, num_classes=-1):
    return _A.one_hot.default(tensor, num_classes)


def pad(input, pad, mode="constant", value=None):
    if mode not in ("constant", "reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    if len(pad) % 2:
        raise RuntimeError("Padding length must be divisible by 2")
    if len(pad) // 2 > input.dim():
        raise RuntimeError(f"Padding length should be less than or equal to two times the input dimension "
                           f"but got padding length {len(pad)} and input of dimension {input.dim()}")
    return _A.pad.default(input, list(pad), mode, value)


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                                 scale=None, enable_gqa=False):
    """softmax(query @ key^T * scale + mask) @ value: torch's reference math (dropout applies whenever
    ``dropout_p > 0``, as in torch; pass 0.0 at evaluation)."""
    return _A.scaled_dot_product_attention.default(query, key, value, attn_mask, dropout_p, is_causal,
                                                   scale=scale, enable_gqa=enable_gqa)


def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    # torch's: ``input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)`` (any p: 0, inf)
    norm = _A.norm.ScalarOpt_dim(input, p, [dim] if isinstance(dim, int) else list(dim), True)
    result = _A.div.Tensor(input, _A.expand_as.default(_A.clamp_min.default(norm, eps), input))
    return result if out is None else out.copy_(result)


from .._exports import public_dir

__dir__ = public_dir(globals())
