"""``opyard.masked``: torch.masked's reductions and normalizations over a boolean ``mask=``.

A masked-out element takes no part in the result: ``opyard.masked.sum(x, 1, mask=m)`` sums the
elements of each row where ``m`` (broadcast to ``x``) is True. Each function is a composite of the
built-in operators, so gradients, vmap and fake tensors work as for them. Example::

    >>> x = opyard.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> opyard.masked.sum(x, 1, mask=opyard.tensor([True, False, True]))
    tensor([ 4., 10.])
"""

from ._ops import (amax, amin, argmax, argmin, cumprod, cumsum, log_softmax, logaddexp, logsumexp, mean, median,
                   norm, normalize, prod, softmax, softmin, std, sum, var)

__all__ = [
    "amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp", "mean",
    "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var",
]

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
