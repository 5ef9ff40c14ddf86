"""Batching rules of single-tensor ops that take dimensions: reductions, scans, dim views.

The rule shifts every logical dim past the batch dim and runs the op once.
Each op is described at registration by ``DimSpec``: which arguments are dims
(one int or a list), what None / ``[]`` means (every dim), and whether the dim
indexes a *new* position (``unsqueeze``: range ``ndim + 1``). Reductions over
every dim of a logical tensor become reductions over dims ``1..ndim``.
"""

import functools

from .common import BatchedTensor, aten, filled, level_of, materialize, shift_dim, wrap, wrap_all

__all__ = ["ALL_DIMS", "DIM_SPECS", "RULES", "all_dims_rule", "dim_rule"]


class DimSpec:
    """``args``: names of dim arguments; ``extra``: 1 when a dim may equal ``ndim`` (insertion);
    ``all_if_empty``: None / [] means every dim (amax, var, sum.dim_IntList); ``all_if_none``: None
    means every dim and [] none (all.dims)."""

    __slots__ = ("all_if_empty", "all_if_none", "args", "extra", "lead")

    def __init__(self, *args, extra=0, all_if_empty=False, all_if_none=False, lead=False):
        self.args = args
        self.extra = extra
        self.all_if_empty = all_if_empty
        self.all_if_none = all_if_none
        self.lead = lead  # the dims list names every dim (permute): the batch dim leads it


_ALL = DimSpec("dim", all_if_empty=True)
DIM_SPECS = {
    "sum.dim_IntList": _ALL, "mean.dim": _ALL, "amax": _ALL, "amin": _ALL, "var.correction": _ALL,
    "std.correction": _ALL, "prod.dim_int": DimSpec("dim"), "max.dim": DimSpec("dim"),
    "min.dim": DimSpec("dim"), "softmax.int": DimSpec("dim"), "log_softmax.int": DimSpec("dim"),
    "_softmax": DimSpec("dim"), "_log_softmax": DimSpec("dim"), "cumsum": DimSpec("dim"),
    "sort": DimSpec("dim"), "topk": DimSpec("dim"), "any.dim": DimSpec("dim"), "all.dim": DimSpec("dim"),
    "any.dims": DimSpec("dim", all_if_none=True), "all.dims": DimSpec("dim", all_if_none=True),
    "count_nonzero.dim_IntList": _ALL,
    "narrow": DimSpec("dim"), "unbind.int": DimSpec("dim"), "diagonal": DimSpec("dim1", "dim2"),
    "transpose.int": DimSpec("dim0", "dim1"), "unsqueeze": DimSpec("dim", extra=1),
    "squeeze.dim": DimSpec("dim"), "squeeze.dims": DimSpec("dim"), "select.int": DimSpec("dim"),
    "slice.Tensor": DimSpec("dim"), "split.Tensor": DimSpec("dim"), "chunk": DimSpec("dim"),
    "split_with_sizes": DimSpec("dim"), "tensor_split.sections": DimSpec("dim"),
    "movedim.int": DimSpec("source", "destination"),
    "movedim.intlist": DimSpec("source", "destination"), "unflatten.int": DimSpec("dim"),
    "flip": DimSpec("dims"), "permute": DimSpec("dims", lead=True),
}

# Ops without a dim argument that reduce everything: (the op with dims, extra arguments).
ALL_DIMS = {"sum": "sum.dim_IntList", "mean": "mean.dim", "max": "amax", "min": "amin"}


def _shift(value, ndim, api, all_if_empty):
    """``value`` (a dim or dims) as physical dims; ``all_if_empty``: True when None and [] mean every
    dim, "none" when only None does, False when None stays None."""
    if value is None or (all_if_empty is True and value.__class__ in (list, tuple) and len(value) == 0):
        # a 0-dim example is worked on with a size-1 dim (``dim_rule``): that dim is every dim
        return list(range(1, max(ndim, 1) + 1)) if all_if_empty else None
    if value.__class__ in (list, tuple):
        return [shift_dim(d, ndim, api) for d in value]
    return shift_dim(value, ndim, api)


def dim_rule(op, spec):
    positions = []
    params = op._schema.arguments
    for name in spec.args:
        i = next(i for i, a in enumerate(params) if a.name == name)
        positions.append((i, name, params[i].kwarg_only))
    last = max(i for i, _, kw in positions if not kw) if any(not kw for _, _, kw in positions) else 0
    api = op.name()
    extra, lead = spec.extra, spec.lead
    # "none": only None means every dim (an empty list means no dim)
    all_if_empty = "none" if spec.all_if_none else spec.all_if_empty

    def rule(self, *args, **kwargs):
        full = filled((self,) + args, last, op)
        ndim = self._data.ndim
        scalar = ndim == 0
        value = self._value
        for i, name, kw in positions:
            if kw:
                if name in kwargs:
                    kwargs[name] = _shift(kwargs[name], ndim + extra, api, all_if_empty)
            else:
                full[i] = _shift(full[i], ndim + extra, api, all_if_empty)
                if lead:
                    full[i] = [0] + full[i]
        if scalar and not extra and not lead:
            # A 0-dim tensor's dim 0 (or -1) is the tensor itself: give it a size-1 dim to work on.
            value = value.unsqueeze(1)
        full[0] = value
        out = op(*full, **kwargs)
        if scalar and not extra and not lead:
            out = _squeeze_back(out)
        return wrap_all(out, self._level)
    rule.__qualname__ = f"batch_rule<{api}>"
    return rule


def _squeeze_back(out):
    if isinstance(out, (tuple, list)):  # return_types (values, indices) too
        return out.__class__(_squeeze_back(o) for o in out)
    return out.reshape(out.shape[:1]) if out.dim() == 2 else out


def all_dims_rule(op, target):
    """``sum(x)`` and friends: reduce every logical dim through the dim overload."""
    dims_op = aten(target)
    unsqueeze = aten("unsqueeze")
    extremum = op.name() in ("aten::max", "aten::min")

    def rule(self, **kwargs):
        ndim = self._data.ndim
        value = self._value
        if ndim == 0:
            return wrap(value.clone(), self._level) if extremum else \
                wrap(dims_op(unsqueeze(value, 1), [1], **kwargs), self._level)
        return wrap(dims_op(value, list(range(1, ndim + 1)), **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def flat_rule(op, dim_op_name):
    """``prod(x)``, ``any(x)``, ``all(x)``, ``argmax(x)`` (no dim): reduce the flattened example."""
    dims_op = aten(dim_op_name)

    def rule(self, *args, **kwargs):
        value = self._value
        flat = value.reshape((value.shape[0], -1))
        return wrap(dims_op(flat, 1, *args, **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def arg_reduce_rule(op):
    """``argmax`` / ``argmin``: dim None means the flattened example (keepdim then keeps its rank)."""
    def rule(self, dim=None, keepdim=False):
        value = self._value
        ndim = self._data.ndim
        if dim is None:
            out = op(value.reshape((value.shape[0], -1)), 1, keepdim)
            if keepdim:
                out = out.reshape((value.shape[0],) + (1,) * ndim)
            return wrap(out, self._level)
        if ndim == 0:
            shift_dim(dim, 0, op.name())
            return wrap(op(value.unsqueeze(1), 1, False), self._level)
        return wrap(op(value, shift_dim(dim, ndim, op.name()), keepdim), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def softmax_backward_rule(op):
    """``_softmax_backward_data`` / ``_log_softmax_backward_data``: both tensors as physical
    batches at the innermost level (an unbatched one expanded), the dim shifted past the batch."""
    def physical(x, level):
        return x._value if x.__class__ is BatchedTensor and x._level == level else materialize(x, level)

    def rule(grad_output, output, dim, input_dtype):
        level = level_of((grad_output, output))
        ndim = grad_output._data.ndim if grad_output.__class__ is BatchedTensor else grad_output.dim()
        g, y = physical(grad_output, level), physical(output, level)
        if ndim == 0:
            shift_dim(dim, 0, op.name())
            return wrap(op(g.unsqueeze(1), y.unsqueeze(1), 1, input_dtype).reshape(g.shape), level)
        return wrap(op(g, y, shift_dim(dim, ndim, op.name()), input_dtype), level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


# The batching rules of this module, by overload name (``rules/__init__`` installs them).
RULES = {name: functools.partial(dim_rule, spec=spec) for name, spec in DIM_SPECS.items()}
RULES.update({name: functools.partial(all_dims_rule, target=target) for name, target in ALL_DIMS.items()})
RULES.update({
    "prod": lambda op: flat_rule(op, "prod.dim_int"),
    "any": lambda op: flat_rule(op, "any.dim"), "all": lambda op: flat_rule(op, "all.dim"),
    "argmax": arg_reduce_rule, "argmin": arg_reduce_rule,
    "_softmax_backward_data": softmax_backward_rule, "_log_softmax_backward_data": softmax_backward_rule,
})

from ..._exports import public_dir

__dir__ = public_dir(globals())
