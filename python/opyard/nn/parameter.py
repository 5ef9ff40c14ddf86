"""``nn.Parameter``: a tensor that a Module registers as a parameter when assigned."""

from .. import _factories
from .._function_protocol import _disabled_torch_function_impl, register_plain_tensor_type
from .._tensor import Tensor, _retype
from ..autograd import _tensor_meta as meta

__all__ = ["Parameter"]


class Parameter(Tensor):
    """A Tensor that requires grad by default and is registered by ``Module.__setattr__``.

    Example::

        >>> p = nn.Parameter(opyard.zeros(2))
        >>> p.requires_grad
        True
    """

    # As in torch: a Parameter is a plain tensor to ``__torch_function__``.
    __torch_function__ = _disabled_torch_function_impl

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = _factories.empty(0)
        # A new object with the detached tensor's state (a Parameter has a ``__dict__``, which
        # a plain tensor has not, so the class cannot be swapped in place).
        return _retype(data.detach(), cls)

    def __init__(self, data=None, requires_grad=True):
        # Tensor.__init__ is not re-run: the data was adopted in __new__.
        if requires_grad:
            meta.set_requires_grad_bit(self, True)
        else:
            meta.set_requires_grad_bit(self, False)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()


register_plain_tensor_type(Parameter, kernels=True)  # the Rust CPU kernels take it as a plain tensor
