"""Batching rules of shape ops: ``view``/``reshape``/``expand`` take a logical size (the batch size
leads it), ``cat``/``stack`` take lists whose unbatched members are expanded to the batch."""

from .common import BatchedTensor, aten, materialize, pad_to, shift_dim, wrap, wrap_dim

__all__ = [
    "RULES",
    "as_rule",
    "as_strided_rule",
    "clone_rule",
    "contiguous_rule",
    "cat_rule",
    "expand_rule",
    "flatten_rule",
    "repeat_rule",
    "size_rule",
    "squeeze_all_rule",
    "stack_rule",
    "t_rule",
]


def size_rule(op):
    """``view(x, size)`` / ``reshape(x, size)``: the physical size is ``(B, *size)``."""
    def rule(self, size):
        value = self._value
        return wrap(op(value, (value.shape[0],) + tuple(size)), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def expand_rule(op):
    """``expand(x, size)``: pad ``x`` to the rank of ``size`` first (expand adds leading dims)."""
    def rule(self, size, **kwargs):
        value = self._value
        size = tuple(size)
        ndim = self._data.ndim
        if len(size) < ndim:
            raise RuntimeError(f"expand: the number of sizes provided ({len(size)}) must be greater or equal to "
                               f"the number of dimensions in the tensor ({ndim})")
        value = pad_to(value, ndim, len(size))
        return wrap(op(value, (value.shape[0],) + size, **kwargs), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


_transpose = aten("transpose.int")
_squeeze_dims = aten("squeeze.dims")
_alias = aten("alias")


def t_rule(op):
    def rule(self):
        ndim = self._data.ndim
        if ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {ndim}D")
        value = self._value
        return wrap(_transpose(value, 1, 2) if ndim == 2 else _alias(value), self._level)
    return rule


def squeeze_all_rule(op):
    """``squeeze(x)``: the logical size-1 dims, never the batch dim (a batch of one stays a batch)."""
    def rule(self):
        dims = [i + 1 for i, s in enumerate(self._data.shape) if s == 1]
        return wrap(_squeeze_dims(self._value, dims), self._level)
    return rule


def _batched_members(tensors, level):
    return [t._value if t.__class__ is BatchedTensor and t._level == level else materialize(t, level)
            for t in tensors]


def cat_rule(op):
    def rule(tensors, dim=0):
        level = max(t._level for t in tensors if t.__class__ is BatchedTensor)
        # torch's legacy rule: 1-d empty tensors are skipped when picking the rank.
        ref = next((t for t in tensors if not (t.dim() == 1 and t.shape[0] == 0)), tensors[0])
        d = shift_dim(dim, ref.dim(), "cat")
        members = [m for t, m in zip(tensors, _batched_members(tensors, level))
                   if not (t.dim() == 1 and t.shape[0] == 0) or t is ref]
        return wrap(op(members, d), level)
    return rule


def stack_rule(op):
    def rule(tensors, dim=0):
        level = max(t._level for t in tensors if t.__class__ is BatchedTensor)
        d = wrap_dim(dim, tensors[0].dim() + 1, "stack") + 1
        return wrap(op(_batched_members(tensors, level), d), level)
    return rule


def repeat_rule(op):
    def rule(self, repeats):
        repeats = tuple(repeats)
        ndim = self._data.ndim
        if len(repeats) < ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of "
                               "dimensions of tensor")
        value = pad_to(self._value, ndim, len(repeats))
        return wrap(op(value, (1,) + repeats), self._level)
    return rule


def as_rule(op, target):
    """``view_as`` / ``expand_as``: the logical op with ``other``'s logical size."""
    target_op = aten(target)

    def rule(self, other):
        return target_op(self, tuple(other.shape))
    return rule


_reshape = aten("reshape")


def flatten_rule(op):
    def rule(self, start_dim=0, end_dim=-1):
        ndim = self._data.ndim
        value = self._value
        if ndim == 0:
            return wrap(_reshape(value, (value.shape[0], 1)), self._level)
        s, e = shift_dim(start_dim, ndim, "flatten"), shift_dim(end_dim, ndim, "flatten")
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        return wrap(op(value, s, e), self._level)
    return rule


def as_strided_rule(op):
    """``as_strided(x, size, stride, offset)``: each example reads its own memory as if it started where
    the batch does (torch's semantics: example ``i`` gets ``offset + i * batch_stride``), a view of the
    same base."""
    def rule(self, size, stride, storage_offset=None):
        value = self._value
        offset = value.storage_offset() if storage_offset is None else storage_offset
        return wrap(op(value, (value.shape[0],) + tuple(size), (value.stride(0),) + tuple(stride), offset),
                    self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


# torch's C++ names of the memory formats, as its vmap messages print them.
_FORMAT_NAMES = {"contiguous_format": "Contiguous", "preserve_format": "Preserve", "channels_last": "ChannelsLast",
                 "channels_last_3d": "ChannelsLast3d"}


def clone_rule(op):
    """``clone(x, memory_format=...)``: only the layouts that mean the same per example (torch's rule)."""
    def rule(self, memory_format=None):
        if memory_format is not None and memory_format.name not in ("contiguous_format", "preserve_format"):
            raise RuntimeError("NYI: Tensor.clone(memory_format) inside vmap is only supported with memory_format "
                               "torch.preserve_format or torch.contiguous_format (got "
                               f"{_FORMAT_NAMES.get(memory_format.name, memory_format.name)})")
        value = self._value
        return wrap(op(value) if memory_format is None else op(value, memory_format=memory_format), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def contiguous_rule(op):
    """``contiguous(x)``: ``x`` itself when every example is laid out contiguously (as torch returns it),
    else one contiguous copy of the whole batch (batch dim first, so every example is)."""
    def rule(self, memory_format=None):
        if memory_format is None or memory_format.name == "contiguous_format":
            if self.is_contiguous():
                return self
            return wrap(op(self._value), self._level)
        return wrap(op(self._value, memory_format=memory_format), self._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


# The batching rules of this module, by overload name (``rules/__init__`` installs them).
RULES = {
    "view": size_rule, "reshape": size_rule, "expand": expand_rule, "t": t_rule, "squeeze": squeeze_all_rule,
    "cat": cat_rule, "stack": stack_rule, "repeat": repeat_rule, "flatten.using_ints": flatten_rule,
    "view_as": lambda op: as_rule(op, "view"), "expand_as": lambda op: as_rule(op, "expand"),
    "as_strided": as_strided_rule, "clone": clone_rule, "contiguous": contiguous_rule,
}
