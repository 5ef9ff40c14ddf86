"""``Tensor._make_wrapper_subclass``: tensors with metadata and no data, for ``__torch_dispatch__``.

Such a tensor carries the ``Python`` key (with its backend key, and its
autograd key when it requires grad), so every operator called on it reaches
the ``Python`` key's fallback (``opyard.utils.python_dispatch``), which calls
its class's ``__torch_dispatch__``. Its ``_data`` is a zero-stride broadcast
like a meta tensor's (see Note [Tensor layout]); its strides and offset are
the ones given.
"""

import numpy as np

from . import _dtype as D
from ._core import device
from ._tensor import _PYTHON_BITS, _ZERO, CPU, Tensor, _new, contiguous_strides, device_keys
from ._keys import AUTOGRAD_OF_BACKEND, BACKEND_OF_DEVICE
from .dispatcher import DispatchKey, DispatchKeySet

__all__ = ["make_wrapper", "make_wrapper_subclass"]



# (numpy dtype, size, strides) -> (zero-stride array, strides): wrappers are made per operator
# result, and ``np.broadcast_to`` plus the checks cost several microseconds; shapes repeat.
_METADATA = {}
_METADATA_LIMIT = 1024


def _metadata(npdt, size, strides):
    key = (npdt, size, strides)
    try:
        return _METADATA[key]
    except (KeyError, TypeError):  # TypeError: a list, unhashable: checked below
        pass
    where = "Tensor._make_wrapper_subclass"
    try:
        shape = tuple(map(int, size))
    except TypeError:
        raise TypeError(f"{where}: size must be a sequence of ints, got {type(size).__name__}") from None
    if any(s < 0 for s in shape):
        raise ValueError(f"{where}: negative size {list(shape)}")
    st = contiguous_strides(shape) if strides is None else tuple(map(int, strides))
    if len(st) != len(shape):
        raise ValueError(f"{where}: {len(st)} strides for {len(shape)} dimensions "
                         f"(size {list(shape)}, strides {list(st)})")
    value = (np.broadcast_to(_ZERO[npdt], shape), st)
    try:
        if len(_METADATA) >= _METADATA_LIMIT:
            _METADATA.clear()
        _METADATA[key] = value
    except TypeError:
        pass
    return value


def make_wrapper(cls, size, strides, storage_offset, dtype, dev, requires_grad):
    """See ``Tensor._make_wrapper_subclass``: metadata like a meta tensor, keys ``Python`` +
    the backend's (+ its autograd key when it requires grad)."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"Tensor._make_wrapper_subclass: cls must be a subclass of opyard.Tensor, got {cls!r}")
    dt = D.get_default_dtype() if dtype is None else dtype
    if not isinstance(dt, D.dtype):
        raise TypeError(f"Tensor._make_wrapper_subclass: dtype must be an opyard.dtype, got {dt!r}")
    data, st = _metadata(dt.np, size, strides)
    dev = CPU if dev is None else dev if isinstance(dev, device) else device(dev)
    t = _new(cls)
    t._data = data
    keys = device_keys(dev) | _PYTHON_BITS
    if requires_grad:
        if not (dt.is_floating_point or dt.is_complex):
            raise RuntimeError("only Tensors of floating point and complex dtype can require gradients")
        backend = BACKEND_OF_DEVICE.get(dev.type, DispatchKey.PrivateUse1)
        keys |= DispatchKeySet(AUTOGRAD_OF_BACKEND[backend]).raw()
    t._keyset = keys
    if dev is not CPU:
        t._dev = dev
    t._meta_strides = st
    if storage_offset:
        t._meta_offset = int(storage_offset)
    return t


def make_wrapper_subclass(cls, size, strides=None, storage_offset=None, memory_format=None, dtype=None,
                          layout=None, device=None, pin_memory=False, requires_grad=False, **_torch_only):
    """``Tensor._make_wrapper_subclass``: a ``cls`` instance with metadata (size, strides, dtype,
    device) and no data, whose operators all reach ``cls.__torch_dispatch__`` through the
    ``Python`` key (below autograd: with ``requires_grad=True`` it gets a graph and gradients)."""
    return make_wrapper(cls, size, strides, storage_offset, dtype, device, requires_grad)


# Installed from here (above the tensor module) so that ``_tensor`` does not import this module.
Tensor._make_wrapper_subclass = staticmethod(make_wrapper_subclass)
