"""``Tensor._make_wrapper_subclass``: tensors with metadata and no data, for ``__torch_dispatch__``.

Such a tensor carries the ``Python`` key (with its backend key, and its
autograd key when it requires grad), so every operator called on it reaches
the ``Python`` key's fallback (``opyard.utils.python_dispatch``), which calls
its class's ``__torch_dispatch__``. Its ``_data`` is a zero-stride broadcast
like a meta tensor's (see Note [Tensor layout]); its strides and offset are
the ones given.
"""

import numpy as np

from . import _core
from . import _dtype as D
from . import _function_protocol as _fp
from ._core import device
from ._metadata_dispatch import set_policy
from ._tensor import _PYTHON_BITS, _ZERO, CPU, Tensor, _make_tensor, contiguous_strides, device_keys
from ._keys import AUTOGRAD_OF_BACKEND, BACKEND_OF_DEVICE
from .dispatcher import DispatchKey, DispatchKeySet

__all__ = ["make_wrapper", "make_wrapper_subclass", "make_subclass"]



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
    try:
        shape = tuple(map(int, size))
    except TypeError:
        raise TypeError("_make_wrapper_subclass(): argument 'size' (position 2) must be tuple of ints, not "
                        f"{type(size).__name__}") from None
    if any(s < 0 for s in shape):
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: {list(shape)}")
    st = contiguous_strides(shape) if strides is None else tuple(map(int, strides))
    if len(st) != len(shape):
        raise RuntimeError(f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides ({len(st)})")
    value = (np.broadcast_to(_ZERO[npdt], shape), st)
    try:
        if len(_METADATA) >= _METADATA_LIMIT:
            _METADATA.clear()
        _METADATA[key] = value
    except TypeError:
        pass
    return value


def _check_cls(cls, where):
    if not isinstance(cls, type):
        raise TypeError(f"cls must be a type (got {type(cls).__name__})")
    if not issubclass(cls, Tensor):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from Tensor is not "
                        "possible. Make sure your class inherits from Tensor.")


def make_wrapper(cls, size, strides, storage_offset, dtype, dev, requires_grad, extra_keys=None):
    """See ``Tensor._make_wrapper_subclass``: metadata like a meta tensor, keys ``Python`` +
    the backend's (+ its autograd key when it requires grad, + ``extra_keys``)."""
    if not (isinstance(cls, type) and issubclass(cls, Tensor) and cls._opyard_python_key):
        _check_cls(cls, "_make_wrapper_subclass")
        if not _fp.has_torch_dispatch(cls):  # set on the class after it was made
            raise TypeError(f"{cls.__name__} must define __torch_dispatch__")
    dt = D.get_default_dtype() if dtype is None else dtype
    if not isinstance(dt, D.dtype):
        raise TypeError(f"_make_wrapper_subclass(): argument 'dtype' must be opyard.dtype, not {type(dt).__name__}")
    data, st = _metadata(dt.np, size, strides)
    dev = CPU if dev is None else dev if isinstance(dev, device) else device(dev)
    keys = device_keys(dev) | _PYTHON_BITS
    if requires_grad:
        if not (dt.is_floating_point or dt.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        backend = BACKEND_OF_DEVICE.get(dev.type, DispatchKey.PrivateUse1)
        keys |= DispatchKeySet(AUTOGRAD_OF_BACKEND[backend]).raw()
    if extra_keys is not None:
        keys |= DispatchKeySet(extra_keys).raw()
    t = _make_tensor(cls, data, keys) if dev is CPU else _make_tensor(cls, data, keys, dev)
    t._meta_strides = st
    if storage_offset:
        t._meta_offset = int(storage_offset)
    return t


def make_wrapper_subclass(cls, size, strides=None, storage_offset=None, memory_format=None, dtype=None,
                          layout=None, device=None, pin_memory=False, requires_grad=False,
                          dispatch_sizes_strides_policy=None, dispatch_device=False, dispatch_layout=False,
                          _extra_dispatch_keys=None, storage_size=None):
    """``Tensor._make_wrapper_subclass``: a ``cls`` instance with metadata (size, strides, dtype,
    device) and no data, whose operators all reach ``cls.__torch_dispatch__`` through the
    ``Python`` key (below autograd: with ``requires_grad=True`` it gets a graph and gradients).

    torch's arguments, positionally or by keyword; ``dispatch_sizes_strides_policy`` (``"sizes"``
    or ``"strides"``), ``dispatch_device`` and ``dispatch_layout`` send the matching metadata
    queries to the handler (see ``opyard._metadata_dispatch``); ``_extra_dispatch_keys`` adds keys
    to the tensor's set. ``memory_format``, ``layout``, ``pin_memory`` and ``storage_size`` are
    accepted as torch's: a wrapper holds no memory to lay out."""
    t = make_wrapper(cls, size, strides, storage_offset, dtype, device, requires_grad, _extra_dispatch_keys)
    if dispatch_sizes_strides_policy is None and not dispatch_device and not dispatch_layout:
        return t
    return set_policy(t, dispatch_sizes_strides_policy, dispatch_device, dispatch_layout)


def make_subclass(cls, data, require_grad=False, *, dispatch_sizes_strides_policy=None, dispatch_device=False,
                  dispatch_layout=False, device_for_backend_keys=None):
    """``Tensor._make_subclass(cls, data, require_grad=False)``: a ``cls`` tensor over ``data``'s
    memory and version counter that is not a view (no ``_base``) and a new autograd leaf, requiring
    grad when ``require_grad`` is set (torch's direct-subclass constructor)::

        class MyTensor(opyard.Tensor):
            @staticmethod
            def __new__(cls, elem):
                return opyard.Tensor._make_subclass(cls, elem, elem.requires_grad)

    A ``cls`` with its own ``__torch_dispatch__`` gets the ``Python`` key: its operators reach the
    handler below autograd, with real data for ``super().__torch_dispatch__`` to run on. The
    ``dispatch_*`` options route metadata queries through the handler, as for
    ``_make_wrapper_subclass``."""
    _check_cls(cls, "_make_subclass")
    if not isinstance(data, _core.TensorBase):
        raise TypeError(f"_make_subclass(): argument 'data' (position 2) must be Tensor, not {type(data).__name__}")
    if require_grad and not (data.dtype.is_floating_point or data.dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
    t = _fp.take_over(cls, _fp.raw_subclass_tensor(data, "detach", cls))
    t._base = None  # torch's detach shares the version counter but makes no view
    t._view_fn = None
    if require_grad:
        t.requires_grad = True
    return set_policy(t, dispatch_sizes_strides_policy, dispatch_device, dispatch_layout)


# Installed from here (above the tensor module) so that ``_tensor`` does not import this module.
Tensor._make_wrapper_subclass = staticmethod(make_wrapper_subclass)
Tensor._make_subclass = staticmethod(make_subclass)
