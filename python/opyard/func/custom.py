"""``register_vmap`` rules as ``Batched`` kernels: a custom op's rule runs wherever the op meets a
batched tensor, at any depth of the mapped function and at every level of nested vmaps.

The kernel unwraps the innermost level among the arguments, calls
``rule(info, in_dims, *args, **kwargs)`` with the physical tensors and their
batch dims (0, or None for unbatched arguments; a list of those for a tensor
list), and wraps each output whose out dim is not None at that level.
"""

from .. import _core
from .._tensor import CPU, Tensor
from .batched import BATCHED_BIT, BatchedTensor, _new, _stack, layer_of, move_dim, wrap
from .rules.common import level_of

__all__ = ["VmapInfo", "make_vmap_kernel"]


class VmapInfo:
    """What a vmap rule knows about the vmap it runs under (torch's ``VmapInfo``)."""

    __slots__ = ("batch_size", "randomness")

    def __init__(self, batch_size, randomness="error"):
        self.batch_size = batch_size
        self.randomness = randomness

    def __repr__(self):
        return f"VmapInfo(batch_size={self.batch_size}, randomness={self.randomness!r})"


def _unwrap(x, level):
    if x.__class__ is BatchedTensor and x._level == level:
        return x._value, 0
    if x.__class__ in (list, tuple) and any(isinstance(e, Tensor) for e in x):
        pairs = [_unwrap(e, level) for e in x]
        return x.__class__(p[0] for p in pairs), [p[1] for p in pairs]
    return x, None


def _wrap_outputs(name, out, dims, level):
    if isinstance(out, (tuple, list)):
        if not isinstance(dims, (tuple, list)):
            dims = (dims,) * len(out)
        if len(dims) != len(out):
            raise ValueError(f"vmap rule of {name}: returned {len(out)} outputs but {len(dims)} out_dims")
        return out.__class__(_wrap_outputs(name, o, d, level) for o, d in zip(out, dims))
    if dims is None or out is None:
        return out
    if not isinstance(out, Tensor):
        raise ValueError(f"vmap rule of {name}: out_dims={dims} for an output of type {type(out).__name__}; "
                         "only Tensor outputs can carry a batch dim (use None for the others)")
    if not isinstance(dims, int):
        raise ValueError(f"vmap rule of {name}: expected out_dims to be an int or None per output, got {dims!r}")
    return wrap(out if dims == 0 else move_dim(out, dims, 0), level)


_ZERO = (0,)


def _checked(name, result, level):
    if result.__class__ is not tuple or len(result) != 2:
        raise ValueError(f"vmap rule of {name}: expected it to return (outputs, out_dims), got "
                         f"{type(result).__name__}")
    return _wrap_outputs(name, result[0], result[1], level)


def _layer_info(level):
    """The ``VmapInfo`` of ``level``: the innermost layer is the last one pushed (levels grow with
    nesting), so the common case is one comparison, not a search."""
    ls = _stack.levels
    layer = ls[-1] if ls and ls[-1].level == level else layer_of(level)
    info = layer.info
    if info is None:
        info = layer.info = VmapInfo(layer.batch_size, layer.randomness)
    return info


def make_vmap_kernel(overload, rule):
    """The ``Batched`` kernel running ``rule``. Which form is decided here, at registration: an op
    whose only argument is one Tensor gets a kernel without ``*args``/``**kwargs`` packing."""
    name = overload.name()

    def general(*args, **kwargs):
        if len(args) == 1 and args[0].__class__ is BatchedTensor:  # op(x), with keyword arguments
            x = args[0]
            return _checked(name, rule(_layer_info(x._level), _ZERO, x._value, **kwargs), x._level)
        level = level_of(args)
        info = _layer_info(level)
        phys, dims = [], []
        for a in args:
            if a.__class__ is BatchedTensor and a._level == level:
                phys.append(a._value)
                dims.append(0)
            elif a.__class__ in (list, tuple):
                p, d = _unwrap(a, level)
                phys.append(p)
                dims.append(d)
            else:
                phys.append(a)
                dims.append(None)
        return _checked(name, rule(info, tuple(dims), *phys, **kwargs), level)

    arguments = overload._schema.arguments
    if len(arguments) != 1 or arguments[0].real_type != "Tensor":
        general.__qualname__ = f"vmap_rule<{name}>"
        return general

    def unary(x, *args, **kwargs):
        # Reaching the Batched kernel with one Tensor argument means ``x`` is batched.
        if args or kwargs or x.__class__ is not BatchedTensor:
            return general(x, *args, **kwargs)
        level = x._level
        ls = _stack.levels
        layer = ls[-1] if ls and ls[-1].level == level else layer_of(level)
        info = layer.info
        if info is None:
            info = layer.info = VmapInfo(layer.batch_size, layer.randomness)
        result = rule(info, _ZERO, x._value)
        if result.__class__ is tuple and len(result) == 2 and result[1].__class__ is int and result[1] == 0:
            out = result[0]
            if isinstance(out, Tensor):
                # ``wrap`` inlined: this is the path of every batched call of the op.
                t = _new(BatchedTensor)
                t._value = out
                t._level = level
                try:
                    t._data = out._data[0]
                except IndexError:  # an empty batch
                    return wrap(out, level)
                t._keyset = out._keyset | BATCHED_BIT
                if out._dev is not CPU:
                    t._dev = out._dev
                return t
        return _checked(name, result, level)
    unary.__qualname__ = f"vmap_rule<{name}>"
    if _core.FAST_PATHS:
        # The same kernel in Rust, ``unary`` serving the calls it does not (Note [register_vmap kernel in Rust]).
        return _core.VmapRuleKernel(rule, name, unary, _RULE_CONTEXT)
    return unary


# What every ``VmapRuleKernel`` call reads besides its arguments.
_RULE_CONTEXT = (VmapInfo, _stack, layer_of, _checked, _ZERO)

