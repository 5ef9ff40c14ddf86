"""``nn.functional``'s activations beyond relu/gelu/elu: one ``aten`` operator each (the
``inplace=True`` forms call the in-place operator), or torch's Python composition
(``softmin``, ``softsign``, ``tanhshrink``). Example::

    >>> F.hardshrink(opyard.tensor([-1.0, 0.2, 0.7]))
    tensor([-1.0000,  0.0000,  0.7000])
"""

import warnings

from .._ops import ops

__all__ = ["threshold", "threshold_", "glu", "celu", "celu_", "selu", "selu_", "rrelu", "rrelu_", "logsigmoid",
           "hardshrink", "softshrink", "tanhshrink", "softsign", "softmin", "hardsigmoid", "hardswish", "mish",
           "prelu", "elu_", "dropout1d", "dropout2d", "dropout3d", "alpha_dropout", "feature_alpha_dropout"]

_A = ops.aten


def threshold(input, threshold, value, inplace=False):
    """``input`` where it is greater than ``threshold``, else ``value``."""
    if inplace:
        return _A.threshold_.default(input, threshold, value)
    return _A.threshold.default(input, threshold, value)


def threshold_(input, threshold, value):
    return _A.threshold_.default(input, threshold, value)


def glu(input, dim=-1):
    """The gated linear unit: the first half of ``dim`` times the sigmoid of the second."""
    if input.dim() == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    return _A.glu.default(input, dim)


def celu(input, alpha=1.0, inplace=False):
    return _A.celu_.default(input, alpha) if inplace else _A.celu.default(input, alpha)


def celu_(input, alpha=1.0):
    return _A.celu_.default(input, alpha)


def selu(input, inplace=False):
    return _A.selu_.default(input) if inplace else _A.selu.default(input)


def selu_(input):
    return _A.selu_.default(input)


def elu_(input, alpha=1.0):
    return _A.elu_.default(input, alpha)


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky relu with a slope drawn from U(lower, upper) per element in training, their mean otherwise."""
    if inplace:
        return _A.rrelu_.default(input, lower, upper, training)
    return _A.rrelu.default(input, lower, upper, training)


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return _A.rrelu_.default(input, lower, upper, training)


def logsigmoid(input):
    return _A.log_sigmoid.default(input)


def hardshrink(input, lambd=0.5):
    return _A.hardshrink.default(input, lambd)


def softshrink(input, lambd=0.5):
    return _A.softshrink.default(input, lambd)


def tanhshrink(input):
    return _A.sub.Tensor(input, _A.tanh.default(input))


def softsign(input):
    return _A.div.Tensor(input, _A.add.Scalar(_A.abs.default(input), 1))


def softmin(input, dim=None, _stacklevel=3, dtype=None):
    """``softmax(-input)`` along ``dim``."""
    if dim is None:
        warnings.warn("Implicit dimension choice for softmin has been deprecated. Change the call to include dim=X "
                      "as an argument.", UserWarning, stacklevel=_stacklevel)
        dim = 0 if input.dim() in (0, 1, 3) else 1
    return _A.softmax.int(_A.neg.default(input), dim, dtype)


def hardsigmoid(input, inplace=False):
    return _A.hardsigmoid_.default(input) if inplace else _A.hardsigmoid.default(input)


def hardswish(input, inplace=False):
    return _A.hardswish_.default(input) if inplace else _A.hardswish.default(input)


def mish(input, inplace=False):
    return _A.mish_.default(input) if inplace else _A.mish.default(input)


def prelu(input, weight):
    return _A.prelu.default(input, weight)


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def alpha_dropout(input, p=0.5, training=False, inplace=False):
    """Dropout that keeps selu's self-normalizing mean and variance."""
    _check_p(p)
    return _A.alpha_dropout_.default(input, p, training) if inplace else _A.alpha_dropout.default(input, p, training)


def feature_alpha_dropout(input, p=0.5, training=False, inplace=False):
    _check_p(p)
    if inplace:
        return _A.feature_alpha_dropout_.default(input, p, training)
    return _A.feature_alpha_dropout.default(input, p, training)


def _feature_dropout(input, p, training, inplace):
    return _A.feature_dropout_.default(input, p, training) if inplace else \
        _A.feature_dropout.default(input, p, training)


def dropout1d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, L) or (C, L) inputs."""
    _check_p(p)
    dim = input.dim()
    if dim not in (2, 3):
        raise RuntimeError(f"dropout1d: Expected 2D or 3D input, but received a {dim}D input. Note that dropout1d "
                           "exists to provide channel-wise dropout on inputs with 1 spatial dimension, a channel "
                           "dimension, and an optional batch dimension (i.e. 2D or 3D inputs).")
    if dim == 3:
        return _feature_dropout(input, p, training, inplace)
    return _unbatched_feature_dropout(input, p, training, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, H, W) inputs (a 3-D input is taken as (N, C, L), as in torch)."""
    _check_p(p)
    dim = input.dim()
    if dim not in (3, 4):
        warnings.warn(f"dropout2d: Received a {dim}-D input to dropout2d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout2d exists to provide channel-wise dropout on inputs with 2 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 3D or 4D inputs).",
                      stacklevel=2)
    if dim == 3:
        warnings.warn("dropout2d: Received a 3D input to dropout2d and assuming that channel-wise 1D dropout behavior "
                      "is desired - input is interpreted as shape (N, C, L), where C is the channel dim. This "
                      "behavior will change in a future release to interpret the input as one without a batch "
                      "dimension, i.e. shape (C, H, W). To maintain the 1D channel-wise dropout behavior, please "
                      "switch to using dropout1d instead.", stacklevel=2)
    return _feature_dropout(input, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs."""
    _check_p(p)
    dim = input.dim()
    if dim not in (4, 5):
        warnings.warn(f"dropout3d: Received a {dim}-D input to dropout3d, which is deprecated and will result in an "
                      "error in a future release. To retain the behavior and silence this warning, please use dropout "
                      "instead. Note that dropout3d exists to provide channel-wise dropout on inputs with 3 spatial "
                      "dimensions, a channel dimension, and an optional batch dimension (i.e. 4D or 5D inputs).",
                      stacklevel=2)
    if dim == 5:
        return _feature_dropout(input, p, training, inplace)
    return _unbatched_feature_dropout(input, p, training, inplace)


def _unbatched_feature_dropout(input, p, training, inplace):
    """Feature dropout of an input without its batch dimension: one is added for the call (in place,
    the call writes through that view into ``input``, which it returns)."""
    batched = _A.unsqueeze.default(input, 0)
    if inplace:
        _A.feature_dropout_.default(batched, p, training)
        return input
    return _A.squeeze.dim(_A.feature_dropout.default(batched, p, training), 0)
