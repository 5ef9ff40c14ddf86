"""Pickling and copying tensors: ``pickle``, ``copy.copy`` and ``copy.deepcopy``, as torch does them.

Note [Tensor pickling]: a tensor pickles as its class, its memory and its
metadata (dtype, shape, strides in elements, device, ``requires_grad`` and the
public attributes a subclass set), never through ``tolist()``, so dtype,
layout and values come back exactly. The memory is a numpy array (numpy
pickles it compactly, out of band with protocol 5): the data itself when it is
C-contiguous, otherwise a copy of the span of memory the tensor covers, which
the rebuild views with the original strides, so a transposed or sliced tensor
comes back with the same strides. Only that span travels, not the memory of a
view's base (torch sends the whole storage), so an unpickled view is a tensor
of its own with storage offset 0. As in torch, ``grad`` and the graph are not
pickled (a non-leaf comes back a leaf), meta tensors pickle without data,
fake tensors refuse; ``deepcopy`` copies ``grad``, keeps views of one base
sharing memory (through the memo), and refuses non-leaves with torch's
message; ``copy.copy`` shares memory.

Example::

    >>> t = opyard.arange(6, dtype=opyard.float64).reshape(2, 3).t()
    >>> u = pickle.loads(pickle.dumps(t))
    >>> u.dtype, u.stride(), u.is_contiguous()
    (opyard.float64, (1, 3), False)
"""

import copyreg

import numpy as np
from numpy.lib.stride_tricks import as_strided

from . import _core
from . import _dtype as D
from . import _function_protocol as _fp
from ._keys import DispatchKeySet
from ._tensor import (_AUTOGRAD_KEYS, _AUTOGRAD_SET, _PYTHON_BITS, CPU, META, Tensor, _make_meta, _make_tensor,
                      _retype, device_keys)

__all__ = ["install"]


def _deepcopy(obj, memo):
    """``copy.deepcopy``, imported on the first deep copy: numpy does not load ``copy``, so
    ``import opyard`` does not either."""
    import copy
    return copy.deepcopy(obj, memo)


# torch's first sentence; the advice fits opyard (which has no weight_norm).
_DEEPCOPY_NON_LEAF = (
    "Only Tensors created explicitly by the user (graph leaves) support the deepcopy protocol at the "
    "moment.  If you were attempting to deepcopy a module, one of its tensors is the result of an "
    "operation that requires grad: keep it detached (t.detach()) or recompute it after copying"
)
def _user_state(t):
    """The public attributes a user or subclass put on ``t`` (torch pickles a tensor's ``__dict__``;
    a plain tensor has none: its own state lives in ``TensorBase``)."""
    d = getattr(t, "__dict__", None)
    return {k: v for k, v in d.items() if k[0] != "_"} if d else {}


def _check_not_fake(t, what):
    if getattr(t, "fake_mode", None) is not None:
        raise TypeError(
            f"cannot {what} a FakeTensor (shape {list(t._data.shape)}, {t.dtype}): it holds no data and "
            "belongs to its FakeTensorMode; pickle a real tensor, or a meta tensor "
            "(opyard.empty(shape, dtype=..., device='meta'))")


def _ptr(arr):
    return arr.__array_interface__["data"][0]


class _Window:
    """An ``__array_interface__`` over memory ``owner`` holds (kept alive as the array's base)."""

    def __init__(self, owner, interface):
        self.__array_interface__ = interface
        self.owner = owner


def _window(owner, byte_offset, shape, strides, dtype):
    """``shape``/``strides`` (bytes) of ``dtype`` at ``byte_offset`` from ``owner``'s first element."""
    interface = {"data": (_ptr(owner) + byte_offset, not owner.flags.writeable), "shape": tuple(shape),
                 "strides": tuple(strides), "typestr": np.dtype(dtype).str, "version": 3}
    return np.asarray(_Window(owner, interface))


def _extent(arr):
    """Byte offsets, from the first element, of the lowest and one past the highest byte ``arr`` uses."""
    low = sum(s * (n - 1) for s, n in zip(arr.strides, arr.shape) if s < 0)
    high = sum(s * (n - 1) for s, n in zip(arr.strides, arr.shape) if s > 0)
    return low, high + arr.itemsize


def _span(arr):
    """``(storage, offset, strides)``: a 1-d copy of the memory ``arr`` covers, and where ``arr`` sits
    in it (elements). See Note [Tensor pickling]."""
    item = arr.itemsize
    if any(s % item for s in arr.strides):
        # Strides no element grid describes (a reinterpreted record): a dense copy keeps the values.
        return np.ascontiguousarray(arr), 0, None
    strides = tuple(s // item for s in arr.strides)
    if arr.size == 0:  # nothing to copy; the strides still come back
        return np.empty(1, arr.dtype), 0, strides
    low, high = _extent(arr)
    storage = _window(arr, low, ((high - low) // item,), (item,), arr.dtype).copy()
    return storage, -low // item, strides


def _row_major(arr):
    """The byte strides numpy gives a new C-ordered array of ``arr``'s shape (what it unpickles to)."""
    strides, acc = [], arr.itemsize
    for n in reversed(arr.shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def _host(t):
    data = t._data
    return data.get() if hasattr(data, "get") else data


def _parts(t):
    """``(rebuild, args)`` without ``requires_grad`` and user state, which every rebuild takes last."""
    cls = type(t)
    if t.is_meta:
        return _rebuild_meta, (cls, tuple(t.shape), t.dtype.name, t.stride(), t.storage_offset(),
                               _extra_keys(t))
    arr = _host(t)
    if arr.flags.c_contiguous and arr.strides == _row_major(arr):
        storage, offset, strides = arr, 0, None  # numpy pickles it as it is
    else:
        storage, offset, strides = _span(arr)
    return _rebuild_tensor, (cls, storage, t.dtype.name, tuple(arr.shape), strides, offset,
                             arr.flags.writeable, t._dev, _extra_keys(t))


def _extra_keys(t):
    """Names of the keys ``t`` carries beyond its backend and autograd ones (a subclass may add some)."""
    extra = t._keyset & ~device_keys(t._dev) & ~_AUTOGRAD_KEYS
    return tuple(k.name for k in DispatchKeySet.from_raw(extra)) if extra else ()


def reduce_tensor(t, proto=2):
    """``Tensor.__reduce_ex__``: ``(rebuild, args)`` as described in Note [Tensor pickling]."""
    _check_not_fake(t, "pickle")
    fn, args = _parts(t)
    return fn, (*args, t.requires_grad, _user_state(t))


def _fresh(cls, arr, dev, keys=()):
    dev = META if dev.type == "meta" else CPU if dev == CPU else dev
    return _make_tensor(cls, arr, device_keys(dev) | (DispatchKeySet(list(keys)).raw() if keys else 0), dev)


def _finish(t, requires_grad, state):
    if requires_grad:
        t.requires_grad = True
    if state:
        for name, value in state.items():  # a class without a ``__dict__`` refuses, as Python does
            setattr(t, name, value)
    return t


def _check_span(storage, shape, strides, offset):
    """Every element the pickled geometry addresses lies in ``storage``: ``as_strided`` does not check,
    and a corrupt pickle would otherwise read memory past the buffer."""
    ok = len(shape) == len(strides) and all(n >= 0 for n in shape)
    if ok and all(shape):
        low = offset + sum(s * (n - 1) for s, n in zip(strides, shape) if s < 0)
        high = offset + sum(s * (n - 1) for s, n in zip(strides, shape) if s > 0)
        ok = 0 <= low and high < storage.size
    if not ok:
        raise RuntimeError(f"cannot unpickle a tensor of sizes {list(shape)[:8]}, strides {list(strides)[:8]} "
                           f"and storage offset {offset} from {storage.size} stored elements: the pickle is "
                           "corrupt or was written by an incompatible opyard")


def _rebuild_tensor(cls, storage, dtype_name, shape, strides, offset, writeable, dev, keys,
                    requires_grad, state):
    dt = D._by_name(dtype_name)
    if storage.dtype != dt.np:
        raise TypeError(f"cannot unpickle a {dtype_name} tensor from {storage.dtype} memory: the pickle "
                        "is corrupt or was written by an incompatible opyard")
    if writeable and not storage.flags.writeable:
        storage = storage.copy()  # out-of-band pickle buffers may be read-only bytes
    if strides is None:
        arr = storage.reshape(shape)
    else:
        _check_span(storage, shape, strides, offset)
        item = storage.itemsize
        arr = as_strided(storage[offset:offset + 1], shape, tuple(s * item for s in strides))
    if not writeable:
        arr.flags.writeable = False
    if dev.type == "cuda":
        from .cuda import to_device_array

        arr = to_device_array(arr, dev)
    return _finish(_fresh(cls, arr, dev, keys), requires_grad, state)


def _rebuild_meta(cls, shape, dtype_name, strides, offset, keys, requires_grad, state):
    t = _make_meta(shape, D._by_name(dtype_name), strides, offset)
    if keys:
        t._keyset |= DispatchKeySet(list(keys)).raw()
    if cls is not Tensor:
        t = _retype(t, cls)
    return _finish(t, requires_grad, state)


def copy_tensor(t):
    """``copy.copy(t)``: a new tensor sharing ``t``'s memory (torch's shallow copy)."""
    _check_not_fake(t, "copy")
    out = _fresh(type(t), t._data, t._dev, _extra_keys(t))
    if t.is_meta:
        out._meta_strides, out._meta_offset = t._meta_strides, t._meta_offset
    return _finish(out, t.requires_grad, _user_state(t))


_WRAPPER_CLONE = (
    "The default implementation of __deepcopy__() for wrapper subclasses only works for subclass types that "
    "implement clone() and for which cloning returns another instance of the same subclass. You should either "
    "properly implement clone() for your subclass or override __deepcopy__() if it is intended behavior for "
    "clone() to return an instance of a different type.")
_SUBCLASS_NEW_EMPTY = (
    "The default implementation of __deepcopy__() for non-wrapper subclasses only works for subclass types that "
    "implement new_empty() and for which that function returns another instance of the same subclass. You "
    "should either properly implement new_empty() for your subclass or override __deepcopy__() if it is "
    "intended behavior for new_empty() to return an instance of a different type.")


def deepcopy_tensor(t, memo):
    """``copy.deepcopy(t, memo)``: leaves only; views of one base share the copied base's memory.

    A subclass goes through ``__torch_function__`` first (``func`` is ``Tensor.__deepcopy__``); a
    ``__torch_dispatch__`` wrapper is copied by its own ``clone()``, another subclass by its own
    ``new_empty()`` (each must return the same class, torch's messages otherwise); its slots and
    ``__dict__`` are deep-copied after."""
    cls = type(t)
    if cls is not Tensor and not _fp.is_plain_type(cls) and _fp.protocol_impl(cls) is not None:
        out = _core._handle_function_protocol(deepcopy_tensor, (t,), (t, memo))
        if out is not NotImplemented:
            return out
    if t._grad_fn is not None:
        raise RuntimeError(_DEEPCOPY_NON_LEAF)
    if id(t) in memo:
        return memo[id(t)]
    if cls is not Tensor and not _fp.is_plain_type(cls):
        return _deepcopy_subclass(t, cls, memo)
    _check_not_fake(t, "deepcopy")
    base = t._base
    if base is not None and not t.is_meta and _inside(t._data, base._data):
        new_base = _deepcopy(base, memo)
        arr = _window(new_base._data, _ptr(t._data) - _ptr(base._data), t._data.shape, t._data.strides,
                      t._data.dtype)
        out = _fresh(type(t), arr, t._dev, _extra_keys(t))
        out._base = new_base._base if new_base._base is not None else new_base
        out._vc = out._base._counter()
    else:
        fn, args = _parts(t)
        out = fn(*_deepcopy(args, memo), False, None)
    memo[id(t)] = out
    _finish(out, t.requires_grad, _deepcopy(_user_state(t), memo))
    if t.grad is not None:
        out.grad = _deepcopy(t.grad, memo)
    return out


def _deepcopy_subclass(t, cls, memo):
    with _core._KeyGuard(exclude=_AUTOGRAD_SET):  # torch's no_grad
        if t._keyset & _PYTHON_BITS and _fp.has_torch_dispatch(cls):
            out = t.clone()
            if type(out) is not cls:
                raise RuntimeError(_WRAPPER_CLONE)
        else:
            out = t.new_empty([])
            if type(out) is not cls:
                raise RuntimeError(_SUBCLASS_NEW_EMPTY)
            fn, args = _parts(t)
            _core._share_state(out, fn(*_deepcopy(args, memo), False, None))
    if t.requires_grad:
        out.requires_grad_(True)
    if t.grad is not None:
        out.grad = _deepcopy(t.grad, memo)
    for slot in copyreg._slotnames(cls):
        if hasattr(t, slot):
            setattr(out, slot, _deepcopy(getattr(t, slot), memo))
    d = getattr(t, "__dict__", None)
    if d is not None:
        out.__dict__ = _deepcopy(d, memo)
    memo[id(t)] = out
    return out


def _inside(view, base):
    """Whether every byte ``view`` addresses lies in the memory ``base`` covers (so its copy can too)."""
    if not isinstance(view, np.ndarray) or not isinstance(base, np.ndarray) or view.size == 0:
        return False
    lo, hi = _extent(view)
    blo, bhi = _extent(base)
    shift = _ptr(view) - _ptr(base)
    return base.size > 0 and blo <= lo + shift and hi + shift <= bhi


def install(tensor_cls):
    """Bind pickling and copying onto ``tensor_cls`` (``opyard.Tensor``; subclasses inherit them)."""
    # torch's names: what a ``__torch_function__`` override sees as ``func.__name__``
    deepcopy_tensor.__name__, deepcopy_tensor.__qualname__ = "__deepcopy__", "Tensor.__deepcopy__"
    tensor_cls.__reduce_ex__ = reduce_tensor
    tensor_cls.__copy__ = copy_tensor
    tensor_cls.__deepcopy__ = deepcopy_tensor


install(Tensor)
