"""``tensor[key]`` and ``tensor[key] = value`` as dispatcher operators.

Basic indexing (ints, slices, None, Ellipsis) becomes select/slice/unsqueeze
views; tensors, lists and bool masks become ``aten::index`` (or
``aten::index_put_`` when assigning). Assignment to a basic view copies into
it in place, so the base's version counter moves.
"""

import numpy as np

from . import _core
from . import _function_protocol as _fp
from ._ops import ops
from ._dtype import bool as _BOOL
from ._tensor import Tensor

_A = ops.aten
# The overloads basic indexing calls (the packets' own choice: one overload each), looked up on the
# first indexing rather than at import, which defines no built-in packet (Note [Operators defined on
# first use], src/python/dispatch/lazy.rs); each use then pays one test of a global.
_SELECT = _SLICE = _ALIAS = None


def _bind():
    global _SELECT, _SLICE, _ALIAS
    _SELECT, _SLICE, _ALIAS = _A.select.int, _A.slice.Tensor, _A.alias.default
    return _SELECT


def _normalize(key, ndim):
    key = key if isinstance(key, tuple) else (key,)
    used = ellipses = 0  # dims the key indexes (a bool mask as many as it has, None and ... none)
    for k in key:
        if k is Ellipsis:
            ellipses += 1
        elif k is not None:
            used += k.dim() if isinstance(k, Tensor) and k.dtype.name == "bool" else 1
    if ellipses > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    out = []
    for k in key:
        if k is Ellipsis:
            out.extend([slice(None)] * (ndim - used))
        else:
            out.append(k)
    return out


def _as_index(k, like):
    if isinstance(k, Tensor):
        return k
    from ._factories import tensor

    arr = np.asarray(k)
    return tensor(arr.tolist(), device=like.device) if arr.dtype != np.bool_ else tensor(arr, device=like.device)


def _sequence_as_tuple(key):
    """torch's (and numpy's old) rule: a list shorter than 32 holding a tensor, a sequence, a slice,
    ``...`` or None is a tuple of indices (``x[[[0, 1], [2, 0]]]`` is ``x[[0, 1], [2, 0]]``)."""
    if type(key) is list and len(key) < 32 and any(
            isinstance(k, (Tensor, list, tuple, slice)) or k is None or k is Ellipsis for k in key):
        return tuple(key)
    return key


# torch writes an open slice end as the largest int64 (``x[1:]`` is ``slice(x, 0, 1, 2**63 - 1)``).
_INT64_MAX = 2 ** 63 - 1


def _spans_dim(k, size):
    """Whether slice ``k`` of a key with several entries selects all of a dimension of ``size``, as
    torch tells it (start omitted or 0, end omitted or past the end, step 1): torch makes no
    ``slice`` of it. A key that is one slice always makes one."""
    return (k.start is None or k.start == 0) and (k.stop is None or k.stop >= size) and \
        (k.step is None or k.step == 1)


def _slice_of(t, dim, k):
    return _A.slice(t, dim, 0 if k.start is None else k.start, _INT64_MAX if k.stop is None else k.stop,
                    1 if k.step is None else k.step)


def _basic_and_advanced(self, key):
    single = type(key) is slice
    key = _sequence_as_tuple(key)
    items = _normalize(key, self.dim())
    t, dim, advanced = self, 0, []
    for k in items:
        if k is None:
            t = _A.unsqueeze(t, dim)
            dim += 1
        elif isinstance(k, bool):
            t = _A.unsqueeze(t, dim)
            if not k:
                t = _A.slice(t, dim, 0, 0)
            dim += 1
        elif isinstance(k, (int, np.integer)) and not isinstance(k, bool):
            t = _A.select(t, dim, int(k))
        elif isinstance(k, slice):
            if single or not _spans_dim(k, t.shape[dim]):
                t = _slice_of(t, dim, k)
            dim += 1
        else:
            idx = _as_index(k, self)
            advanced.append((dim, idx))
            dim += idx.dim() if idx.dtype.name == "bool" else 1
    return t, advanced


def _ints_and_slices(self, key):
    """``self[key]`` when ``self`` is a plain ``Tensor`` and ``key`` is ints and slices (one per
    dimension at most): the select/slice views ``_basic_and_advanced`` makes, without its
    normalizing pass. ``None`` for any other key (the general path decides, and raises)."""
    single = type(key) is not tuple
    items = (key,) if single else key
    if type(self) is not Tensor or len(items) > self.ndim:
        return None
    t, dim = self, 0
    if _SELECT is None:
        _bind()
    for k in items:
        tk = type(k)
        if tk is int:
            t = _SELECT(t, dim, k)
        elif tk is slice:
            # torch's values: an omitted start is 0, an omitted end the largest int64; in a key of
            # several entries a slice spanning its dimension makes no call (See _spans_dim).
            if single or not _spans_dim(k, t.shape[dim]):
                t = _SLICE(t, dim, 0 if k.start is None else k.start, _INT64_MAX if k.stop is None else k.stop,
                           1 if k.step is None else k.step)
            dim += 1
        else:
            return None
    return t if t is not self else _ALIAS(self)


# Index elements that never take part in the function protocol (checked before anything else).
_SIMPLE = frozenset((int, slice, type(None), type(Ellipsis), bool, Tensor))


def _takes_part(value):
    """Whether ``value`` (an index or an assigned value; lists and tuples looked into at any depth)
    holds an object whose type has the function protocol: torch runs ``Tensor.__getitem__`` /
    ``Tensor.__setitem__`` through it then."""
    t = type(value)
    if t in _SIMPLE:
        return False
    if t is tuple or t is list:
        return any(_takes_part(v) for v in value)
    return not isinstance(value, type) and not _fp.is_plain_type(t) and _fp.protocol_impl(t) is not None


def getitem(self, key):
    if type(key) is int and type(self) is Tensor and self.ndim:  # x[i], the commonest: one frame
        return (_SELECT or _bind())(self, 0, key)
    if type(key) is Tensor and type(self) is Tensor and (key.dim() if key.dtype is _BOOL else 1) <= self.ndim:
        # x[t], one index tensor (a mask takes as many dims as it has; too many, and the general path
        # raises): the call of the ``aten::index`` packet the general path ends in (a function mode
        # sees the packet), without its passes over the key
        return _A.index(self, [key])
    t = _ints_and_slices(self, key)
    if t is not None:
        return t
    if _takes_part(key):
        out = _core._handle_function_protocol(getitem, (self, key), (self, key))
        if out is not NotImplemented:
            return out
    t, advanced = _basic_and_advanced(self, key)
    if not advanced:
        return t if t is not self else _A.alias(self)
    indices = [None] * (max(d for d, _ in advanced) + 1)
    for d, idx in advanced:
        indices[d] = idx
    return _A.index(t, indices)


def setitem(self, key, value):
    if _takes_part(key) or (type(value) is not Tensor and _takes_part(value)):
        out = _core._handle_function_protocol(setitem, (self, key, value), (self, key, value))
        if out is not NotImplemented:
            return
    t, advanced = _basic_and_advanced(self, key)
    if not advanced and isinstance(value, (bool, int, float, complex)):
        _A.fill_(t if t is not self else self, value)  # a number into a basic view: fill_, as torch
        return
    if not isinstance(value, Tensor):
        from ._factories import tensor

        value = tensor(value, dtype=self.dtype, device=self.device)
    if not advanced:
        target = t if t is not self else self
        _A.copy_(target, _A.expand(value, list(target.shape)) if value.shape != target.shape else value)
        return
    indices = [None] * (max(d for d, _ in advanced) + 1)
    for d, idx in advanced:
        indices[d] = idx
    _A.index_put_(t, indices, value)
