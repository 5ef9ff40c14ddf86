"""``resize_`` and ``resize_as_``: a tensor given a new shape over its own memory, as torch's storage
semantics: the elements are read in memory order from the tensor's offset (a shrink keeps the
first ones; a tensor whose shape does not change is left as it is, strides included); memory past
the tensor's own but inside the buffer it views is reused, and a resize past the buffer's end moves
the tensor to a larger buffer whose new elements are uninitialized (other views of the old buffer
then no longer share memory with it)."""

import numpy as np

from .._memory_format import contiguous_format, preserve_format
from .._tensor import _ZERO
from ._declare import OpTable
from .factory import format_strides, laid_out

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op


def _address(arr):
    return arr.__array_interface__["data"][0]


def _buffer(arr):
    """The flat, writable, contiguous buffer ``arr`` views and ``arr``'s element offset in it, or None."""
    root = arr
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not (root.flags.c_contiguous and root.flags.writeable) or root.dtype != arr.dtype:
        return None
    return root.reshape(-1), (_address(arr) - _address(root)) // arr.itemsize


def _check(self, size, memory_format):
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    size = [int(s) for s in size]
    if any(s < 0 for s in size):
        raise RuntimeError("numel: integer multiplication overflow")
    if memory_format is preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    if memory_format is not None and memory_format is not contiguous_format:
        format_strides(tuple(size), memory_format)  # torch's rank check of the format
    return size


@_op("resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> Tensor(a!)",
     kind="meta_aware")
def resize_(self, size, *, memory_format=None):
    size = _check(self, size, memory_format)
    fmt = None if memory_format is contiguous_format else memory_format
    if list(self.shape) == size and fmt is None:
        return self
    arr = self._data
    n = int(np.prod(size))
    if self.is_meta:
        self._data = np.broadcast_to(_ZERO[arr.dtype], tuple(size))
        self._meta_strides = format_strides(tuple(size), fmt)
        self._bump_version()
        return self
    found = _buffer(arr)
    if found is not None and found[1] + n <= found[0].size:
        flat = found[0][found[1]:found[1] + n]
    else:
        # a larger buffer: the tensor's elements in memory order first (torch's grown storage)
        flat = np.empty(n, dtype=arr.dtype)
        if found is not None:
            old = found[0][found[1]:]
        else:
            old = np.ravel(arr, order="K") if arr.flags.c_contiguous or arr.flags.f_contiguous else arr.reshape(-1)
        k = min(n, old.size)
        flat[:k] = old[:k]
    self._data = laid_out(lambda s: flat.reshape(s), tuple(size), fmt)
    self._bump_version()
    return self


@_op("resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? memory_format=None) -> Tensor(a!)",
     kind="meta_aware")
def resize_as_(self, the_template, *, memory_format=None):
    return resize_(self, list(the_template.shape), memory_format=memory_format)
