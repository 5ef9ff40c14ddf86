"""A Python number where a few operators take a Tensor: ``opyard.add(2.5, t)``, ``opyard.mul(2, t)``,
``t.copy_(3.0)`` (torch's argument parser allows numbers as tensors for exactly these).

The call path binds arguments against the schemas without conversions of this kind (the common call
pays nothing for them); when no overload binds and no ``__torch_function__`` override takes the call,
the packet asks :func:`retry` (``Hooks.number_operands``, src/python/hooks.rs) before it raises. A
number becomes a 0-dim tensor of the dtype torch's result would have (a number taking
part as torch's "wrapped number": it does not raise the tensors' dtype within its category), so the
operator's own promotion gives torch's dtype and the value is converted once, as torch converts it.
"""

from .. import _factories
from .._ops import ops
from .._tensor import Tensor
from .common import tensor_result_dtype

__all__ = ["retry"]

_A = ops.aten
_NUMBERS = (bool, int, float, complex)
# The packets whose Tensor arguments take numbers (torch's ``should_allow_numbers_as_tensors``).
_ALLOWED = ("add", "sub", "mul", "div", "divide", "multiply", "subtract", "true_divide", "floor_divide", "copy_")


def _packets():
    out = {}
    for name in _ALLOWED:
        packet = getattr(_A, name, None)
        if packet is not None:
            out[packet] = name
    return out


_PACKETS = None


def retry(func, args, kwargs):
    """The result of ``func(*args, **kwargs)`` with its number operands as tensors, or NotImplemented
    when ``func`` is not one of those operators or its Tensor-only operand is not a number (a call no
    overload binds: a number as ``self`` of an arithmetic op, as ``src`` of ``copy_``)."""
    global _PACKETS
    if _PACKETS is None:
        _PACKETS = _packets()
    name = _PACKETS.get(func)
    if name is None or len(args) < 2:
        return NotImplemented
    if name == "copy_":
        if type(args[1]) not in _NUMBERS or not isinstance(args[0], Tensor):
            return NotImplemented
        src = _factories.tensor(args[1], dtype=args[0].dtype, device=args[0].device)
        return func(args[0], src, *args[2:], **kwargs)
    if type(args[0]) not in _NUMBERS:
        return NotImplemented
    other = args[1]
    if isinstance(other, Tensor):
        dtype, device = tensor_result_dtype(other, args[0]), other.device
    elif type(other) in _NUMBERS:  # two numbers: the default dtypes of their kinds
        dtype, device = tensor_result_dtype(_factories.tensor(other), args[0]), None
    else:
        return NotImplemented
    new = [_factories.tensor(a, dtype=dtype, device=device) if type(a) in _NUMBERS else a for a in args[:2]]
    return func(*new, *args[2:], **kwargs)

