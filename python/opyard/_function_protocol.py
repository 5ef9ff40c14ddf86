"""The state of the ``__opyard_function__`` protocol and ``Tensor``'s default implementation.

This module sits at the tensor layer (it imports only ``_core``) because
``Tensor.__torch_function__`` needs it; ``opyard.overrides`` builds the public
protocol (handler, modes, listings) on top.

Note [Function protocol state]: the Rust call path reads one byte per thread
(``_core._function_state()``) and consults the protocol only for calls with
an argument of a non-plain tensor type or while a function mode is active.
The bits: ``MODE`` (a ``TorchFunctionMode`` is on the stack), ``SUBCLASS_OFF``
(``DisableTorchFunctionSubclass``), ``ALL_OFF`` (``DisableTorchFunction``).
"""

from . import _core

__all__ = [
    "DisableTorchFunctionSubclass", "DisableTorchFunction", "_disabled_torch_function_impl",
    "register_plain_tensor_type", "is_plain_type", "protocol_impl", "convert_result",
    "tensor_torch_function", "as_subclass", "MODE", "SUBCLASS_OFF", "ALL_OFF",
]

MODE, SUBCLASS_OFF, ALL_OFF = 1, 2, 4

_PLAIN_TYPES = set()
_TENSOR = []  # the first plain type registered: ``Tensor`` itself


def register_plain_tensor_type(cls, *, kernels=False):
    """Instances of exactly ``cls`` never take part in the protocol (``Tensor``, ``Parameter``); with
    ``kernels``, the Rust CPU kernels take them as plain tensors too (``Parameter``)."""
    _core._register_plain_tensor_type(cls, kernels=kernels)
    _PLAIN_TYPES.add(cls)
    if not _TENSOR:
        _TENSOR.append(cls)
    return cls


def is_plain_type(t):
    return t in _PLAIN_TYPES


def _disabled_torch_function_impl(func, types, args=(), kwargs=None):
    """Set as ``__torch_function__`` to opt a Tensor subclass out of the protocol (torch's)."""
    return NotImplemented


def protocol_impl(t):
    """The protocol classmethod of type ``t`` (either spelling), or None (disabled or absent)."""
    impl = None
    for klass in getattr(t, "__mro__", ()):
        # The spelling defined nearest in the MRO wins: a subclass's ``__torch_function__``
        # overrides ``Tensor.__opyard_function__`` and the other way round.
        d = klass.__dict__
        name = "__opyard_function__" if "__opyard_function__" in d else \
            "__torch_function__" if "__torch_function__" in d else None
        if name is not None:
            impl = getattr(t, name)
            break
    if impl is None or impl is _disabled_torch_function_impl or \
            getattr(impl, "__func__", None) is _disabled_torch_function_impl:
        return None
    return impl


# The call path asks ``protocol_impl`` (``Hooks.protocol_of``) once per (type, type version) whether a
# non-plain tensor type's protocol is disabled. See Note [Disabled protocol types] in
# src/python/dispatch/binder/plain.rs.


class _StateGuard:
    """Sets bits of the protocol state while active; restores the previous state on exit."""

    _bits = 0

    def __init__(self):
        self._saved = []

    def __enter__(self):
        prev = _core._function_state()
        self._saved.append(prev)
        _core._set_function_state(prev | self._bits)
        return self

    def __exit__(self, *exc):
        # Restore only this guard's bits: a mode pushed or popped meanwhile keeps its own.
        saved = self._saved.pop()
        now = _core._function_state()
        _core._set_function_state((now & ~self._bits) | (saved & self._bits))
        return False


class DisableTorchFunctionSubclass(_StateGuard):
    """Inside, Tensor subclasses and Tensor-likes are not consulted (function modes still are)."""

    _bits = SUBCLASS_OFF


class DisableTorchFunction(_StateGuard):
    """Inside, the whole protocol is off: subclasses, Tensor-likes and function modes."""

    _bits = ALL_OFF | SUBCLASS_OFF


#: Tensor properties (and attributes) read through the protocol on subclass instances
#: (``opyard.overrides`` installs the routing on each subclass).
ROUTED_PROPERTIES = ("grad", "data", "_base", "grad_fn", "requires_grad", "is_leaf", "shape",
                     "dtype", "device", "ndim", "T", "mT", "real", "imag")


def _property_getter(name):
    def __get__(obj):
        base = None
        for klass in _TENSOR[0].__mro__:
            if name in klass.__dict__:
                base = klass.__dict__[name]
                break
        if hasattr(base, "__get__") and not isinstance(base, (staticmethod, classmethod)):
            return base.__get__(obj, type(obj))
        return obj.__dict__.get(name, base)

    __get__.__qualname__ = f"Tensor.{name}.__get__"
    return __get__


#: property name -> the getter passed as ``func`` (``Tensor.grad.__get__`` in torch).
PROPERTY_GETTERS = {name: _property_getter(name) for name in ROUTED_PROPERTIES}

#: functions whose results ``Tensor.__torch_function__`` does not convert to the subclass
#: (``.grad`` and ``._base`` are the tensors they are, as in torch).
NO_WRAP = frozenset((PROPERTY_GETTERS["grad"], PROPERTY_GETTERS["_base"]))


def convert_result(ret, cls):
    """``ret`` with its Tensors (also inside lists and tuples) turned into ``cls`` instances."""
    base = _core.TensorBase
    if isinstance(ret, base):
        return ret if isinstance(ret, cls) else ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        items = [convert_result(r, cls) for r in ret]
        make = getattr(type(ret), "_make", None)  # collections.namedtuple; return_types take a sequence
        return make(items) if make is not None else type(ret)(items)
    return ret


def as_subclass(self, cls):
    """``Tensor.as_subclass``: the same tensor (data, version counter, autograd history) as a
    ``cls`` instance."""
    if not (isinstance(cls, type) and issubclass(cls, _TENSOR[0])):
        raise TypeError(f"as_subclass(): cls must be a subclass of opyard.Tensor, got {cls!r}")
    self._counter()  # created now, so that both objects share it
    t = _core.TensorBase.__new__(cls)
    _core._share_state(t, self)
    d = getattr(self, "__dict__", None)
    if d:
        t.__dict__.update(d)
    return t


def tensor_torch_function(cls, func, types, args=(), kwargs=None):
    """``Tensor.__torch_function__``: run ``func`` with the protocol off for subclasses and
    convert Tensor results to ``cls``; ``NotImplemented`` unless ``cls`` is a subclass of
    every type taking part (so unrelated subclasses refuse each other)."""
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    # DisableTorchFunctionSubclass, inlined: this runs for every call on a subclass.
    prev = _core._function_state()
    _core._set_function_state(prev | SUBCLASS_OFF)
    try:
        ret = func(*args, **kwargs)
        if func in NO_WRAP:
            return ret
        return convert_result(ret, cls)
    finally:
        _core._set_function_state((_core._function_state() & ~SUBCLASS_OFF) | (prev & SUBCLASS_OFF))
