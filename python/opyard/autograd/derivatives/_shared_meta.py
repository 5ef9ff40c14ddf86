"""Shape/dtype stand-ins of the tensors a built-in op's node keeps without their values.

See Note [Shared tensor metadata]; ``derivatives/registry.py`` re-exports both names.
"""

from .. import _tensor_meta as meta

__all__ = ["TensorMeta", "tensor_meta"]


class TensorMeta:
    """Shape/dtype of an input tensor the formula does not need the values of.

    Immutable and shared: :func:`tensor_meta` hands out one object per (shape, dtype)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, t):
        self.shape = meta.shape(t)
        self.dtype = meta.dtype(t)

    def dim(self):
        return len(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    def size(self, d=None):
        return self.shape if d is None else self.shape[d]

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


_META_CACHE: dict = {}
_META_CACHE_SIZE = 4096


def tensor_meta(t):
    """The shared :class:`TensorMeta` of ``t``'s shape and dtype.

    Note [Shared tensor metadata]: a node keeps the shape and dtype of every tensor
    argument it does not save (formulas read ``a.self.shape``); one object per
    (shape, dtype) instead of one per node keeps a unary node small (See Note [Rust
    graph nodes] in ``src/python/node.rs``). The cache is bounded: it is emptied
    when full, which only costs new objects."""
    key = (t.shape, t.dtype)
    try:
        cached = _META_CACHE.get(key)
    except TypeError:  # an unhashable size (a symbolic one): this node's own object
        return TensorMeta(t)
    if cached is not None:
        return cached
    if len(_META_CACHE) >= _META_CACHE_SIZE:
        _META_CACHE.clear()
    m = _META_CACHE[key] = TensorMeta(t)
    return m
