"""``FakeTensor``: a tensor with shape, dtype, strides and device, and no data.

Note [Fake tensor layout]: a fake tensor is laid out like a meta tensor (see
Note [Tensor layout] and Note [Meta strategies]): ``_data`` is a read-only
zero-stride array of the shape (no memory), ``_meta_strides`` and
``_meta_offset`` hold the real strides and offset, so the Meta kernels read a
fake tensor exactly as they read a meta tensor. What differs: ``_dev`` is the
device the tensor pretends to be on, ``_keyset`` has that backend's key plus
``Fake``, and ``_sym_shape`` holds the symbolic sizes when some size is a
``SymInt`` (``_data`` then has the hint sizes: see Note [Unbacked hints]).

Note [Kernels see hints]: while the fake fallback runs a Meta kernel, the
thread's ``hinting`` flag is set and fake tensors report their hint sizes and
strides, so the kernel computes on ints (as it does for meta tensors) and
records no guards; the fallback then reads the symbols back into the outputs.
Everything else (user code, fake impls) sees the symbols.
"""

import threading

import numpy as np

from .. import _core
from .._format import format_tensor
from .._function_protocol import _disabled_torch_function_impl, register_plain_tensor_type
from .._tensor import Size, Tensor, _new, contiguous_strides, device_keys, is_contiguous_strides
from ..dispatcher import DispatchKey, DispatchKeySet
from .memo import TensorMemo
from .symbolic import SymInt

__all__ = ["FakeTensor", "FakeStorage", "DataDependentOutputException", "make_fake", "no_memory", "FAKE_BIT", "hinting",
           "remember_item", "scalar_of"]

FAKE_BIT = DispatchKeySet(DispatchKey.Fake).raw()


class _Hinting(threading.local):
    active = False  # See Note [Kernels see hints]


hinting = _Hinting()


class FakeTensor(Tensor):
    """A tensor that only carries metadata; made by ``FakeTensorMode``.

    Example::

        >>> with FakeTensorMode():
        ...     x = opyard.randn(2, 3)
        >>> x.shape, x.device
        (opyard.Size([2, 3]), device(type='cpu'))
    """

    _keep_subclass = True  # views of a fake tensor are fake tensors (``_tensor._make_view``): see below
    # As in torch, fake tensors take no part in ``__torch_function__`` (they are plain to the
    # call path: see Note [Subclass check]).
    __torch_function__ = _disabled_torch_function_impl
    # Fake state lives in TensorBase (``_sym_shape``; ``_sym_strides``: symbolic strides of a
    # non-contiguous tensor with symbolic sizes, when known; ``fake_mode``, below).
    __slots__ = ()

    def data_ptr(self):
        """0: a fake tensor has no memory of its own (torch's answer)."""
        return 0

    @property
    def shape(self):
        if self._sym_shape is not None and not hinting.active:
            return Size(self._sym_shape)
        return Size(self._data.shape)

    def size(self, dim=None):
        s = self.shape
        return s if dim is None else s[dim]

    def stride(self, dim=None):
        st = self._meta_strides
        if st is None:
            st = contiguous_strides(self._data.shape)
        if self._sym_shape is not None and not hinting.active:
            if is_contiguous_strides(self._data.shape, st) and (
                    self._sym_strides is None or st == contiguous_strides(self._data.shape)):
                st = _symbolic_contiguous_strides(self._sym_shape)
            elif self._sym_strides is not None:
                # (``nonzero``'s (u0, 1) result has strides (1, u0): contiguous in layout, not in value)
                st = self._sym_strides
        return st if dim is None else st[dim]

    def numel(self):
        n = 1
        for s in self.shape:
            n = n * s
        return n

    nelement = numel

    def storage_offset(self):
        return self._meta_offset

    def is_contiguous(self, memory_format=None):
        st = self._meta_strides
        return st is None or is_contiguous_strides(self._data.shape, st)

    @property
    def is_meta(self):
        return self._dev.type == "meta"

    def untyped_storage(self):
        """The fake storage this tensor views: one object per base, shared by all its views."""
        root = self._base if self._base is not None else self
        st = root._fake_storage
        if st is None:
            st = root._fake_storage = FakeStorage(root)
        return st

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self.shape[0]

    def numpy(self, force=False):
        raise _no_data("numpy")

    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return scalar_of(self, "item")

    def tolist(self):
        if self._data.ndim == 0:
            return scalar_of(self, "tolist")
        _scalar_env(self, "tolist")  # refuses before any element is made
        return [self[i].tolist() for i in range(self.shape[0])]

    def __array__(self, dtype=None, copy=None):
        raise _no_data("__array__")

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(scalar_of(self, "__bool__"))

    def __dlpack__(self, stream=None):
        raise _no_data("__dlpack__")

    def __repr__(self):
        # torch's: FakeTensor(..., device='meta', size=(2, 3), dtype=torch.int64, requires_grad=True),
        # the device unless CPU, the dtype unless the default one.
        return format_tensor(self, prefix="FakeTensor(", no_data=True)

    __str__ = __repr__


class FakeStorage:
    """The storage of fake tensors: its size and device, no memory (views of one base share it)."""

    __slots__ = ("_nbytes", "device")

    def __init__(self, root):
        extent = 1 + root.storage_offset() + sum((n - 1) * st for n, st in zip(root._data.shape, root.stride())
                                                 if n > 0)
        self._nbytes = 0 if 0 in root._data.shape else extent * root._data.itemsize
        self.device = root._dev

    def nbytes(self):
        return self._nbytes

    def size(self):
        return self._nbytes

    def __repr__(self):
        return f"FakeStorage(nbytes={self._nbytes}, device='{self.device}')"


def _symbolic_contiguous_strides(shape):
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        if isinstance(s, SymInt) or s != 1:
            acc = acc * s
    return tuple(reversed(strides))


class DataDependentOutputException(RuntimeError):
    """A value of a fake tensor's data was asked for (``item()``, ``bool()``, ``tolist()``), as torch names it."""


_ITEM = TensorMemo()


def _scalar_env(t, what):
    """The ShapeEnv that stands for ``t``'s values, or torch's DataDependentOutputException."""
    mode = t.fake_mode
    env = mode.shape_env if mode is not None else None
    if env is None or not env.allow_scalar_outputs:
        # torch's message is the op that would read the data; ours adds what to do instead.
        raise DataDependentOutputException(
            f"aten._local_scalar_dense.default: {_no_data(what)}, or under "
            "FakeTensorMode(shape_env=ShapeEnv()) for a symbolic value")
    return env


def remember_item(t, value):
    """Make ``value`` what ``t.item()`` gives until ``t`` is modified (torch's ``item_memo``)."""
    _ITEM.put(t, value)


def scalar_of(t, what):
    """The value of the one-element fake tensor ``t`` (``item()``, ``tolist()``, ``bool(t)``): torch's
    ``aten._local_scalar_dense`` under FakeTensorMode. A fresh unbacked ``SymInt``/``SymFloat``/``SymBool``
    under a ShapeEnv that allows scalar outputs (the same one until ``t`` is modified), else
    DataDependentOutputException."""
    hit = _ITEM.get(t)
    if hit is not None:
        return hit
    env = _scalar_env(t, what)
    dtype = t.dtype
    if dtype.is_floating_point:
        value = env.create_unbacked_symfloat()
    elif dtype.is_complex:
        raise NotImplementedError(f"local_scalar_dense/item NYI for {dtype}")
    elif t._data.dtype == np.bool_:
        value = env.create_unbacked_symbool()
    else:
        value = env.create_unbacked_symint()
    return _ITEM.put(t, value)


def _no_data(what):
    return RuntimeError(f"FakeTensor.{what}(): a FakeTensor has no data, only shape, dtype, strides and "
                        "device; run the program on real tensors to read values")


_ZERO_BYTES = {}


def no_memory(shape, np_dtype):
    """A read-only zero-stride array of ``shape``: metadata without memory (cheaper than
    ``np.broadcast_to``). Shared freely: nothing writes to it."""
    buf = _ZERO_BYTES.get(np_dtype)
    if buf is None:
        buf = _ZERO_BYTES[np_dtype] = bytes(np_dtype.itemsize)
    return np.ndarray(shape, np_dtype, buf, 0, (0,) * len(shape))


def make_fake(shape, np_dtype, dev, mode, strides=None, offset=0):
    """A fake tensor of ``shape`` (ints or SymInts) on ``dev``; contiguous unless ``strides``."""
    sym = None
    for s in shape:
        if isinstance(s, SymInt):
            sym = tuple(shape)
            shape = tuple(x.hint() if isinstance(x, SymInt) else x for x in shape)
            break
    t = _new(FakeTensor)
    t._data = no_memory(tuple(shape), np_dtype)
    t._dev = dev
    t._keyset = device_keys(dev) | FAKE_BIT
    t.fake_mode = mode
    if strides is not None:
        t._meta_strides = tuple(int(s.hint() if isinstance(s, SymInt) else s) for s in strides)
    if offset:
        t._meta_offset = offset
    if sym is not None:
        t._sym_shape = sym
    return t


register_plain_tensor_type(FakeTensor)
FakeTensor._keep_subclass = FakeTensor  # a view of a fake Parameter is a plain fake tensor, as in torch
# ``fake_mode``: the ``_fake_mode`` field of TensorBase, under its public name on fake tensors only.
_core._slot_alias(FakeTensor, "fake_mode", "_fake_mode")

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
