"""``opyard.autograd.Variable``: torch's legacy name for a tensor.

``Variable(data, requires_grad=False)`` returns a tensor sharing ``data``'s memory, detached,
with ``requires_grad`` set; every tensor is an instance of ``Variable``.

Example::

    >>> v = Variable(opyard.ones(2), requires_grad=True)
    >>> isinstance(opyard.ones(1), Variable)
    True
"""

import warnings

from .. import _core
from .._factories import empty
from .engine import execution_engine

__all__ = ["Variable"]


class VariableMeta(type):
    """``isinstance(t, Variable)`` holds for every tensor."""

    def __instancecheck__(cls, other):
        return isinstance(other, _core.TensorBase)


class Variable(metaclass=VariableMeta):
    """Legacy constructor: a detached alias of ``data`` (an empty tensor when omitted)."""

    # torch's engine handle, which libraries reach through this class (``queue_callback``).
    _execution_engine = execution_engine

    def __new__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None):
        if data is None:
            data = empty(0)
        elif not isinstance(data, _core.TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if not isinstance(requires_grad, bool):
            raise TypeError(f"Variable(): argument 'requires_grad' must be bool, not "
                            f"{type(requires_grad).__name__}")
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with opyard.no_grad():` "
                          "instead.", UserWarning, stacklevel=2)
        out = data.detach()
        if requires_grad:
            out.requires_grad_(True)
        return out


from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
