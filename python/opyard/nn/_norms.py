"""``nn.functional``'s normalization functions: torch's argument checks, then one ``aten``
operator (``batch_norm``, ``instance_norm``, ``group_norm``), or, for
``local_response_norm``, the composition torch writes in Python."""

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
    # torch's composition: the squares averaged over a window of ``size`` channels (padded
    # size // 2 before, (size - 1) // 2 after) by avg_pool2d (3-d input) or avg_pool3d.
    div = _A.mul.Tensor(input, input)
    if dim == 3:
        div = _A.unsqueeze.default(div, 1)
        div = _A.constant_pad_nd.default(div, [0, 0, size // 2, (size - 1) // 2], 0)
        div = _A.squeeze.dim(_A.avg_pool2d.default(div, [size, 1], [1]), 1)
    else:
        shape = list(input.shape)
        div = _A.view.default(div, [shape[0], 1, shape[1], shape[2], -1])
        div = _A.constant_pad_nd.default(div, [0, 0, 0, 0, size // 2, (size - 1) // 2], 0)
        div = _A.squeeze.dim(_A.avg_pool3d.default(div, [size, 1, 1], [1]), 1)
        div = _A.view.default(div, shape)
    div = _A.pow.Tensor_Scalar(_A.add.Scalar(_A.mul.Scalar(div, alpha), k), beta)
    return _A.div.Tensor(input, div)
