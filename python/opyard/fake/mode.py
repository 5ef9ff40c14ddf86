"""``FakeTensor`` and ``FakeTensorMode``: run programs on shapes alone.

Fake tensors carry the ``Fake`` key; inside a ``FakeTensorMode`` the thread
includes it too, so factories make fake tensors. The ``Fake`` fallback runs
an op's fake impl (``register_fake``) or its Meta kernel on stand-ins and
returns fake tensors on the device the inputs pretend to be on.
"""

import threading

import numpy as np

from .. import _core
from .. import _dtype as D
from .._tensor import META, Size, Tensor, _make_meta, device_keys
from ..dispatcher import DispatchKey, DispatchKeySet
from ..library import Library
from .._library.fake_impl import FAKE_IMPLS, run_fake_impl
from .symbolic import ShapeEnv, SymInt

__all__ = ["FakeTensor", "FakeTensorMode", "current_shape_env"]

_FAKE = DispatchKeySet(DispatchKey.Fake)
_FAKE_BIT = _FAKE.raw()
_META_SET = DispatchKeySet(DispatchKey.Meta)


class _State(threading.local):
    mode = None


_state = _State()


def current_shape_env():
    return _state.mode.shape_env if _state.mode is not None else None


class FakeTensor(Tensor):
    """A tensor with shape, dtype and device but no data."""

    _is_fake = True
    _sym_shape = None
    fake_mode = None

    @property
    def shape(self):
        return Size(self._sym_shape) if self._sym_shape is not None else Size(self._data.shape)

    def size(self, dim=None):
        s = self.shape
        return s if dim is None else s[dim]

    @property
    def is_meta(self):
        return False

    def numpy(self, force=False):
        raise _no_data("numpy")

    def item(self):
        raise _no_data("item")

    def tolist(self):
        raise _no_data("tolist")

    def __array__(self, dtype=None, copy=None):
        raise _no_data("__array__")


def _no_data(what):
    return RuntimeError(f"FakeTensor.{what}: a FakeTensor has no data (it only carries shape, dtype and "
                        "device); run the program on real tensors to read values")


_ZERO_BYTES = {}


def _no_memory(shape, np_dtype):
    """A read-only zero-stride array of ``shape``: metadata without memory (7x cheaper than
    ``np.broadcast_to``)."""
    buf = _ZERO_BYTES.get(np_dtype)
    if buf is None:
        buf = _ZERO_BYTES[np_dtype] = bytes(np_dtype.itemsize)
    return np.ndarray(shape, np_dtype, buf, 0, (0,) * len(shape))


def make_fake(shape, dt, device, mode, sym_shape=None):
    hint = tuple(s.hint() if isinstance(s, SymInt) else int(s) for s in shape)
    t = Tensor.__new__(FakeTensor)
    t._data = _no_memory(hint, dt.np)
    t._dev = device
    t._keyset = device_keys(device) | _FAKE_BIT
    t.fake_mode = mode
    if sym_shape is not None or any(isinstance(s, SymInt) for s in shape):
        t._sym_shape = tuple(sym_shape if sym_shape is not None else shape)
    return t


class FakeTensorMode:
    """Context manager: factories make fake tensors and operators run on shapes only."""

    def __init__(self, *, allow_non_fake_inputs=True, shape_env=None):
        self.allow_non_fake_inputs = allow_non_fake_inputs
        self.shape_env = shape_env
        self._saved = []

    def __enter__(self):
        guard = _core._KeyGuard(include=_FAKE)
        guard.__enter__()
        self._saved.append((guard, _state.mode))
        _state.mode = self
        return self

    def __exit__(self, *exc):
        guard, prev = self._saved.pop()
        _state.mode = prev
        guard.__exit__(*exc)
        return False

    def from_tensor(self, t):
        """A fake tensor with ``t``'s shape, dtype and device."""
        if isinstance(t, FakeTensor):
            return t
        dev = t.device if t._dev is not META else META
        return make_fake(tuple(t.shape), t.dtype, dev, self)


def _mode_for(args, kwargs):
    if _state.mode is not None:
        return _state.mode
    for a in _walk(args, kwargs):
        if isinstance(a, FakeTensor) and a.fake_mode is not None:
            return a.fake_mode
    return FakeTensorMode()


def _walk(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, (list, tuple)):
            yield from a
        else:
            yield a


def _map(x, fn):
    if isinstance(x, (list, tuple)):
        return type(x)(_map(e, fn) for e in x)
    return fn(x)


_meta_ok = {}


def _has_meta_kernel(name):
    """A Meta kernel (a fake impl, a real meta kernel or a decomposition) serves this op."""
    hit = _meta_ok.get(name)
    if hit is None:
        rows = {key: reason for key, _, reason, _ in _core._table_entries(name)}
        hit = rows.get("Meta") in ("kernel", "math kernel")
        if hit:
            _meta_ok[name] = hit
    return hit


def fake_fallback(keyset, op, *args, **kwargs):
    mode = _mode_for(args, kwargs)
    name = op.name()
    args = _map(args, lambda a: mode.from_tensor(a) if isinstance(a, Tensor) else a)
    kwargs = {k: _map(v, lambda a: mode.from_tensor(a) if isinstance(a, Tensor) else a) for k, v in kwargs.items()}
    impl = FAKE_IMPLS.get(name)
    if impl is not None:
        prev = _state.mode
        _state.mode = mode
        try:
            out = run_fake_impl(impl, name, mode.shape_env, args, kwargs)
        finally:
            _state.mode = prev
        return _map(out, lambda o: _to_fake(o, _device_of(args, kwargs), mode, None) if isinstance(o, Tensor) else o)
    if not _has_meta_kernel(name):
        if not op._schema.returns:
            return None
        raise NotImplementedError(
            f"no fake impl registered for {name}: FakeTensorMode cannot run it on tensors without data; "
            f"use opyard.library.register_fake('{name}') to say what it returns")
    sym_lists = [a for a in list(args) + list(kwargs.values())
                 if isinstance(a, (list, tuple)) and any(isinstance(s, SymInt) for s in a)]
    if sym_lists:
        args = _map(args, _to_meta)
        kwargs = {k: _map(v, _to_meta) for k, v in kwargs.items()}
    meta_args, meta_kwargs = args, kwargs
    with _core._KeyGuard(exclude=_FAKE):
        out = op.redispatch(_META_SET, *meta_args, **meta_kwargs)
    dev = _device_of(args, kwargs)

    def convert(o):
        if not isinstance(o, Tensor):
            return o
        sym = next((s for s in sym_lists if len(s) == o._data.ndim
                    and all((x.hint() if isinstance(x, SymInt) else x) == d for x, d in zip(s, o._data.shape))), None)
        return _to_fake(o, dev, mode, sym)
    return _map(out, convert)


def _to_meta(a):
    # Fake tensors go to the Meta kernels as they are: those read only shape, dtype
    # and device, and a fake tensor's data is already a zero-stride stand-in.
    if isinstance(a, SymInt):
        return a.hint()
    return a


def _to_fake(o, dev, mode, sym):
    if isinstance(o, FakeTensor):
        return o
    if sym is None and o._data.strides == (0,) * o._data.ndim and type(o) is Tensor:
        # A Meta kernel's result: re-badge it as a fake tensor on the pretended device.
        o.__class__ = FakeTensor
        o._dev = dev
        o._keyset = device_keys(dev) | _FAKE_BIT
        o.fake_mode = mode
        return o
    return make_fake(o._data.shape, D.FROM_NP[o._data.dtype], dev, mode, sym)


def _device_of(args, kwargs):
    for a in _walk(args, kwargs):
        if isinstance(a, FakeTensor):
            return a._dev
    dev = kwargs.get("device")
    if dev is not None:
        return dev if isinstance(dev, _core.device) else _core.device(dev)
    from .._tensor import CPU

    return CPU


_lib = Library("_", "IMPL")
_lib.fallback(fake_fallback, "Fake", with_keyset=True)
_core._register_types(symint=SymInt)
_ = ShapeEnv
