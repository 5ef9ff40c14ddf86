"""``nn.functional``'s normalization functions: torch's argument checks, then one ``aten``
operator (``batch_norm``, ``instance_norm``, ``group_norm``), or, for
``local_response_norm``, the composition torch writes in Python."""

from .. import _dtype as D
from .._ops import ops

__all__ = ["batch_norm", "instance_norm", "group_norm", "local_response_norm"]

_A = ops.aten


def _verify_batch_size(size):
    count = size[0]
    for s in size[2:]:
        count *= s
    if count == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """Normalize each channel (dim 1) by the batch's statistics (``training``) or the running ones,
    which training updates in place. Example::

        >>> F.batch_norm(opyard.tensor([[1.0], [3.0]]), None, None, training=True)
        tensor([[-1.0000],
                [ 1.0000]])
    """
    if training:
        _verify_batch_size(input.size())
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    return _A.batch_norm.default(input, weight, bias, running_mean, running_var, training, momentum, eps, False)


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Normalize each channel of each example over its spatial dimensions."""
    if use_input_stats:
        size = list(input.size())
        count = 1
        for s in size[2:]:
            count *= s
        if count == 1:
            raise ValueError(f"Expected more than 1 spatial element when training, got input size "
                             f"{input.size()}")
    return _A.instance_norm.default(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                                    False)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """Normalize groups of ``C / num_groups`` channels of each example."""
    if input.dim() < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {input.dim()}")
    size = list(input.size())
    if num_groups == 0:
        raise ZeroDivisionError("integer division or modulo by zero")
    _verify_batch_size([size[0] * size[1] // num_groups, num_groups] + size[2:])
    return _A.group_norm.default(input, num_groups, weight, bias, eps, False)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """Normalize each element by the mean square over ``size`` neighbouring channels:
    ``input / (k + alpha * mean(input^2 over the window)) ** beta``."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} "
                         "dimensions)")
    if input.numel() == 0:
        return input
    if dim > 3 and input.dtype in (D.float16, D.bfloat16):
        # torch pools 4-d and larger inputs with avg_pool3d, which has no half-precision CPU kernel
        raise NotImplementedError(f"\"avg_pool3d_out_frame\" not implemented for '{D.legacy_name(input.dtype)}'")
    sq = _A.mul.Tensor(input, input)
    shape = list(input.shape)
    # The window mean along the channels: pad (size // 2 before, (size - 1) // 2 after), then
    # average ``size`` consecutive channels (torch pools a (size, 1) window with stride 1).
    flat = _A.reshape.default(sq, [shape[0], shape[1], -1])
    padded = _A.constant_pad_nd.default(flat, [0, 0, size // 2, (size - 1) // 2], 0)
    windows = _A.unfold.default(padded, 1, size, 1)
    total = _A.sum.dim_IntList(windows, [-1], False)
    if total.dtype.is_floating_point or total.dtype.is_complex:
        div = _A.div.Scalar(total, size)
    else:  # integer pooling divides with truncation
        div = _A.div.Scalar_mode(total, size, rounding_mode="trunc")
    div = _A.reshape.default(div, shape)
    div = _A.pow.Tensor_Scalar(_A.add.Scalar(_A.mul.Scalar(div, alpha), k), beta)
    return _A.div.Tensor(input, div)
