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
from ._keys import DispatchKey, DispatchKeySet

__all__ = [
    "DisableTorchFunctionSubclass", "DisableTorchFunction", "_disabled_torch_function_impl",
    "register_plain_tensor_type", "is_plain_type", "protocol_impl", "convert_result",
    "tensor_torch_function", "as_subclass", "MODE", "SUBCLASS_OFF", "ALL_OFF",
    "_disabled_torch_dispatch_impl", "tensor_torch_dispatch", "dispatch_impl", "has_torch_dispatch",
    "normalize_spellings", "PYTHON_BITS", "raw_subclass_tensor", "take_over", "spelling",
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


def spelling(klass, ours, torchs):
    """Which of a protocol's two spellings ``klass`` itself defines (None for neither). Both are
    in its dict when ``normalize_spellings`` gave a class's method its other name; if one of them
    was reassigned since, the reassigned one is the class's method."""
    d = klass.__dict__
    if ours not in d:
        return torchs if torchs in d else None
    if torchs in d and d[ours] is not d[torchs]:
        original = d.get("_opyard_spellings", {}).get(ours)
        if original is not None and d[ours] is original:
            return torchs
    return ours


def protocol_impl(t):
    """The protocol classmethod of type ``t`` (either spelling), or None (disabled or absent)."""
    impl = None
    for klass in getattr(t, "__mro__", ()):
        # The spelling defined nearest in the MRO wins: a subclass's ``__torch_function__``
        # overrides ``Tensor.__opyard_function__`` and the other way round.
        name = spelling(klass, "__opyard_function__", "__torch_function__")
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


#: Python-level Tensor methods and properties routed through the protocol for subclasses
#: (``opyard.overrides`` installs the routing); the operator methods are packets and need none.
ROUTED_METHODS = (
    "__getitem__", "__setitem__", "__repr__", "__len__", "__iter__", "__bool__", "__float__",
    "__int__", "__index__", "__format__", "__rtruediv__", "__rpow__", "__rfloordiv__", "__rmod__",
    "__rmatmul__", "__pos__", "size", "stride", "dim", "numel", "item", "tolist", "to", "cpu",
    "float", "double", "half", "long", "int", "bool", "type_as", "view", "reshape", "expand",
    "permute", "repeat", "flip", "new_zeros", "new_ones", "new_empty", "new_full", "requires_grad_",
    "backward", "retain_grad", "storage_offset", "is_contiguous", "is_floating_point", "element_size",
)


#: Tensor properties (and attributes) read through the protocol on subclass instances
#: (``opyard.overrides`` installs the routing on each subclass).
ROUTED_PROPERTIES = ("grad", "data", "_base", "grad_fn", "requires_grad", "is_leaf", "shape",
                     "dtype", "device", "ndim", "T", "mT", "real", "imag")


def _property_getter(name):
    def __get__(obj):
        # Called directly (torch's ``Tensor.grad.__get__(t)``), it takes part in the protocol as
        # reading the attribute does (``Hooks.function_protocol``: ``opyard.overrides``); through
        # the routed property the protocol is off by now.
        if not is_plain_type(type(obj)) and not _core._function_state() & (SUBCLASS_OFF | ALL_OFF):
            result = _core._hooks().function_protocol(__get__, (obj,), {})
            if result is not NotImplemented:
                return result
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
        # A fresh result becomes a ``cls`` object in place of torch's ``as_subclass`` alias: the
        # same data, version counter and history, without an ``AliasBackward0`` hop per operator.
        if isinstance(ret, cls):
            return ret
        t = base.__new__(cls)
        _core._share_state(t, ret)
        if cls._opyard_python_key:
            t._keyset |= PYTHON_BITS
        return t
    if isinstance(ret, (tuple, list)):
        items = [convert_result(r, cls) for r in ret]
        make = getattr(type(ret), "_make", None)  # collections.namedtuple; return_types take a sequence
        return make(items) if make is not None else type(ret)(items)
    return ret


def _subclass_check(cls):
    if not (isinstance(cls, type) and issubclass(cls, _TENSOR[0])):
        raise TypeError("Creating a Tensor subclass from a class that does not inherit from Tensor is not "
                        "possible. Make sure your class inherits from Tensor.")


def raw_subclass_tensor(data, op_name, cls):
    """``data.<op_name>()`` (``alias`` or ``detach``) as the raw tensor a new ``cls`` object takes
    over (see ``_below`` and ``_raw``)."""
    return _raw(_below(data, op_name), data, cls)


def _raw(view, data, cls):
    """``view`` (an ``alias``/``detach`` of ``data``, run with the protocol off) as the raw tensor a
    new ``cls`` object takes over: a ``__torch_dispatch__`` subclass's handler may have returned an
    instance of its own class, which cannot become a ``cls`` (torch's check)."""
    t = type(view)
    if t is not _TENSOR[0] and not isinstance(view, cls) and has_torch_dispatch(t):
        raise RuntimeError(
            f"Creating a new Tensor subclass {cls.__name__} but the raw Tensor object is already associated "
            f"to a python object of type {t.__name__} which is not a subclass of the requested type")
    return view


def _below(data, op_name):
    """``data.<op_name>()`` (``alias`` or ``detach``) with the function protocol off, and below the
    ``Python`` key unless ``data`` itself carries it (then its class's handler answers, as in
    torch)."""
    prev = _core._function_state()
    _core._set_function_state(prev | SUBCLASS_OFF)
    try:
        op = getattr(_TENSOR[0], op_name)
        if data._keyset & PYTHON_BITS:
            return op(data)
        with _core._KeyGuard(exclude=_PYTHON_SET):
            return op(data)
    finally:
        _core._set_function_state((_core._function_state() & ~SUBCLASS_OFF) | (prev & SUBCLASS_OFF))


def take_over(cls, raw):
    """A new ``cls`` object with ``raw``'s state, carrying the ``Python`` key exactly when ``cls``
    has a ``__torch_dispatch__`` of its own (torch's ``check_has_torch_dispatch``)."""
    t = _core.TensorBase.__new__(cls)
    _core._share_state(t, raw)
    keys = t._keyset
    t._keyset = keys | PYTHON_BITS if has_torch_dispatch(cls) else keys & ~PYTHON_BITS
    return t


def as_subclass(self, cls):
    """``Tensor.as_subclass``: a ``cls`` view of this tensor (torch's ``alias``): it shares the data
    and the version counter, its ``_base`` is this tensor, and autograd sees an ``AliasBackward0``::

        s = x.as_subclass(MyTensor)   # s._base is x; s.sum().backward() reaches x.grad
    """
    _subclass_check(cls)
    if not isinstance(self, _core.TensorBase):
        raise TypeError(f"descriptor 'as_subclass' for 'opyard.Tensor' objects doesn't apply to a "
                        f"'{type(self).__name__}' object")
    raw = raw_subclass_tensor(self, "alias", cls)
    return raw if type(raw) is cls else take_over(cls, raw)


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


# --- the dispatch protocol's defaults -----------------------------------------------------------

_PYTHON_SET = DispatchKeySet([DispatchKey.Python, DispatchKey.PythonTLSSnapshot])
PYTHON_BITS = DispatchKeySet(DispatchKey.Python).raw()


def _disabled_torch_dispatch_impl(func, types, args=(), kwargs=None):
    """torch's ``_disabled_torch_dispatch_impl``: run ``func`` with the ``Python`` key excluded, so
    neither dispatch modes nor ``__torch_dispatch__`` subclasses see it (the kernels below do).

    It is ``Tensor.__torch_dispatch__``'s behaviour (what ``super().__torch_dispatch__(func, types,
    args, kwargs)`` runs in a subclass); a class that sets it as its ``__torch_dispatch__`` takes
    no part in the dispatch protocol."""
    with _core._KeyGuard(exclude=_PYTHON_SET):
        return func(*args, **(kwargs or {}))


def tensor_torch_dispatch(cls, func, types, args=(), kwargs=None):
    """``Tensor.__torch_dispatch__`` (a classmethod over this function): as
    ``_disabled_torch_dispatch_impl``."""
    with _core._KeyGuard(exclude=_PYTHON_SET):
        return func(*args, **(kwargs or {}))


_DISABLED_DISPATCH = (_disabled_torch_dispatch_impl, tensor_torch_dispatch)


_BOUND = type(_disabled_torch_dispatch_impl.__get__(0))  # a bound method


def dispatch_impl(obj):
    """The ``__torch_dispatch__`` (or ``__opyard_dispatch__``) of ``obj`` (a class or an instance,
    the spelling defined nearest in its MRO, bound as Python binds it), or None when it is
    ``Tensor``'s default or ``_disabled_torch_dispatch_impl`` (torch's ``check_has_torch_dispatch``)."""
    t = obj.__class__
    if t.__class__ is not type or not issubclass(t, _TENSOR[0]):
        return _dispatch_impl_walk(obj)
    # A tensor (the Python key's fallback asks this per operator): the common handler, one
    # classmethod under both spellings (``normalize_spellings``), is read through the type
    # (CPython's attribute cache) without walking the MRO.
    ours = t.__opyard_dispatch__
    if ours.__class__ is _BOUND and ours.__self__ is t and t.__torch_dispatch__.__func__ is ours.__func__:
        return None if ours.__func__ in _DISABLED_DISPATCH else ours
    return _dispatch_impl_walk(obj)


def _dispatch_impl_walk(obj):
    for klass in obj.__mro__ if isinstance(obj, type) else type(obj).__mro__:
        d = klass.__dict__
        if "__torch_dispatch__" in d or "__opyard_dispatch__" in d:
            impl = getattr(obj, spelling(klass, "__opyard_dispatch__", "__torch_dispatch__"))
            return None if getattr(impl, "__func__", impl) in _DISABLED_DISPATCH else impl
    return None


def has_torch_dispatch(cls):
    """Whether instances of ``cls`` carry the ``Python`` key: its ``__torch_dispatch__`` is its own."""
    return dispatch_impl(cls) is not None


_SPELLINGS = (("__opyard_function__", "__torch_function__"), ("__opyard_dispatch__", "__torch_dispatch__"))


def normalize_spellings(cls):
    """At class creation (``Tensor.__init_subclass__``): a class that defines one spelling of a
    protocol gets the other as the same object, so that ``super().__opyard_function__`` and
    ``super().__torch_function__`` reach one method; and, as torch does, a class defining its own
    ``__torch_dispatch__`` while inheriting ``Tensor``'s default ``__torch_function__`` has the
    function protocol disabled (its operators go straight to the dispatcher)."""
    d = cls.__dict__
    made = {}
    for ours, torchs in _SPELLINGS:
        if (ours in d) != (torchs in d):
            method = d[ours] if ours in d else d[torchs]
            made[ours] = made[torchs] = method
            setattr(cls, torchs if ours in d else ours, method)
    if made:
        cls._opyard_spellings = made
    own = dispatch_impl(cls) is not None
    if "__torch_dispatch__" in d and "__torch_function__" not in d and own:
        inherited = getattr(cls, "__torch_function__", None)
        if getattr(inherited, "__func__", None) is tensor_torch_function:
            cls.__torch_function__ = cls.__opyard_function__ = _disabled_torch_function_impl
    # Read per converted result (``convert_result``): whether the class's instances carry ``Python``.
    cls._opyard_python_key = own


def name_routed_methods(tensor_type):
    """Give the routed Python-level methods of ``tensor_type`` torch's names (``Tensor.to.__name__`` is
    ``"to"``): ``func.__name__`` is what an override logs and what the listings key on."""
    for name in ROUTED_METHODS:
        impl = tensor_type.__dict__.get(name)
        if isinstance(impl, type(name_routed_methods)) and impl.__name__ != name:
            impl.__name__, impl.__qualname__ = name, f"{tensor_type.__name__}.{name}"
