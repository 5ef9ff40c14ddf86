"""An extension module, as users write one: custom operators defined at import.

Worker processes import it (by name, with ``tests/`` on their path) to get the
operators that tests ship to them; the task functions they run live here too,
so that a worker can unpickle them.
"""

import numpy as np
import opyard
from opyard.library import Library, custom_op


@custom_op("extension_ops::scaled_sin", mutates_args=())
def scaled_sin(x: opyard.Tensor, scale: float) -> opyard.Tensor:
    """``sin(x) * scale`` in numpy, keeping ``x``'s dtype."""
    return opyard.from_numpy((np.sin(x.numpy()) * scale).astype(x.numpy().dtype))


@scaled_sin.register_fake
def _(x, scale):
    return opyard.empty_like(x)


@custom_op("extension_ops::nonzero", mutates_args=())
def nonzero(x: opyard.Tensor) -> opyard.Tensor:
    """The indices of ``x``'s non-zero elements: an output whose size depends on the data."""
    return opyard.tensor(np.stack(np.nonzero(x.numpy()), axis=1).astype(np.int64))


@nonzero.register_fake
def _(x):
    n = opyard.library.get_ctx().new_dynamic_size()
    return x.new_empty([n, x.dim()], dtype=opyard.int64)


def padded_rows(x):
    """A function whose traced graph recomputes a data-dependent size (``aten::sym_size.int``)."""
    idx = nonzero(x)
    return idx.new_zeros([idx.shape[0] * 2 + 1, 3]), idx + 1


lib = Library("extension_ops", "FRAGMENT")
lib.define("axpy(Tensor x, Tensor y, float a) -> Tensor")
lib.impl("axpy", lambda x, y, a: x * a + y, "CPU")


def call(op, *args, **kwargs):
    """Run ``op`` in the worker (the op and the tensors arrive pickled)."""
    return op(*args, **kwargs)


def roundtrip(obj):
    """Return ``obj`` as the worker unpickled it (pickled again on the way back)."""
    return obj


def describe(t):
    """What the worker sees of a tensor: metadata and values as plain Python."""
    return {"dtype": str(t.dtype), "shape": tuple(t.shape), "stride": t.stride(),
            "contiguous": t.is_contiguous(), "requires_grad": t.requires_grad,
            "device": str(t.device), "type": type(t).__name__,
            "values": None if t.is_meta else t.detach().tolist()}


class Tagged(opyard.Tensor):
    """A user tensor subclass carrying its own attribute."""


class TwoLayer(opyard.nn.Module):
    """A module with a submodule, a buffer and a custom op in its forward."""

    in_features = 3

    def __init__(self):
        super().__init__()
        self.first = opyard.nn.Linear(3, 4)
        self.second = opyard.nn.Linear(4, 2)
        self.register_buffer("offset", opyard.tensor([0.5, -0.5], dtype=opyard.float32))

    def forward(self, x):
        return self.second(scaled_sin(self.first(x), 2.0)) + self.offset


def describe_state(state):
    return {k: describe(v) if isinstance(v, opyard.Tensor) else v for k, v in state.items()}


def summary(obj):
    """A comparable description of any public opyard object (what a process sees of it)."""
    if isinstance(obj, opyard.Tensor):
        # a plain tensor has no __dict__; a subclass's holds its user attributes
        return ("Tensor", describe(obj), {k: v for k, v in getattr(obj, "__dict__", {}).items()
                                          if not k.startswith("_")})
    if isinstance(obj, opyard.nn.Module):
        out = None
        if hasattr(obj, "in_features"):
            with opyard.no_grad():
                out = describe(obj(opyard.ones(1, obj.in_features)))
        return (type(obj).__name__, obj.training, {k: describe(v) for k, v in obj.state_dict().items()},
                [type(p).__name__ for p in obj.parameters()], out)
    if isinstance(obj, opyard.optim.Optimizer):
        return (type(obj).__name__, [{k: [describe(p) for p in v] if k == "params" else v for k, v in g.items()}
                                     for g in obj.param_groups],
                [describe_state(obj.state.get(id(p), {})) for g in obj.param_groups for p in g["params"]])
    if isinstance(obj, opyard.fx.GraphModule):
        return ("GraphModule", obj.code, {k: describe(v) for k, v in obj._constants.items()})
    if isinstance(obj, BaseException):
        return (type(obj).__name__, str(obj))
    if isinstance(obj, opyard.library.CustomOpDef):
        return ("CustomOpDef", obj._qualname, str(obj._schema))
    if isinstance(obj, opyard._ops.OpOverload):
        return ("OpOverload", obj.name(), str(obj._schema))
    if isinstance(obj, opyard._ops.OpOverloadPacket):
        return ("OpOverloadPacket", obj._qualified_op_name, sorted(obj.overloads()))
    if isinstance(obj, opyard.FunctionSchema):
        return ("FunctionSchema", str(obj), obj.is_mutable, obj.name, obj.overload_name)
    if isinstance(obj, opyard.Argument):
        return ("Argument", str(obj), obj.name, obj.type, obj.kwarg_only, repr(obj.default_value), obj.N,
                summary(obj.alias_info) if obj.alias_info is not None else None)
    if isinstance(obj, opyard.AliasInfo):
        return ("AliasInfo", sorted(obj.before_set), sorted(obj.after_set), obj.is_write)
    if isinstance(obj, opyard.dispatcher.DispatchKeySet):
        return ("DispatchKeySet", [k.name for k in obj])
    if isinstance(obj, opyard.device):
        return ("device", obj.type, obj.index)
    if isinstance(obj, list):
        return [summary(x) for x in obj]
    if isinstance(obj, opyard.Size):
        return ("Size", tuple(obj))
    return (type(obj).__name__, repr(obj) if type(obj).__repr__ is not object.__repr__ else "")
