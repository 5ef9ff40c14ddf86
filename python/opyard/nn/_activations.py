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
           "prelu", "elu_"]

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
