"""``opyard.overrides``: the ``__opyard_function__`` protocol (torch's ``__torch_function__``).

A type that defines ``__opyard_function__`` (or ``__torch_function__``, so
code written for torch works unchanged) as a classmethod
``(cls, func, types, args=(), kwargs=None)`` takes over any ``opyard``
operator, Tensor method or operator called with one of its instances::

    class LoggingTensor(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            print(func.__name__)
            return super().__torch_function__(func, types, args, kwargs)

Rules (torch's): the protocol is consulted when an argument (also inside a
list or tuple) has a type other than the plain ``Tensor``/``Parameter`` whose
protocol is not ``_disabled_torch_function_impl``; the active
``TorchFunctionMode`` goes first (popped while it runs), then the types,
subclasses before superclasses and otherwise left to right; the first result
other than ``NotImplemented`` wins; if all return ``NotImplemented``,
``TypeError`` names the function and the types. ``Tensor.__torch_function__``
runs the function with subclass overrides off and converts Tensor results to
the subclass. Calls with plain tensors only pay one type check in Rust (see
Note [Subclass check]).
"""

import contextlib
import functools
import importlib as _importlib
import typing as _typing  # numpy loads it; only ``TYPE_CHECKING`` is read
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)
import warnings

from . import _core
from . import _function_protocol as _fp
from ._function_protocol import (
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    _disabled_torch_function_impl,
)
from . import _override_listing
from ._ops import OpOverload, OpOverloadPacket
from ._override_listing import (
    PROPERTY_GETTERS,
    ROUTED_METHODS,
    ROUTED_PROPERTIES,
    get_ignored_functions,
    get_overridable_functions,
    get_testing_overrides,
)
from ._tensor import Tensor

if _typing.TYPE_CHECKING:
    from .utils.python_dispatch import enable_reentrant_dispatch

__all__ = [
    "get_overridable_functions", "get_testing_overrides", "get_ignored_functions",
    "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
    "handle_torch_function", "has_opyard_function", "handle_opyard_function", "is_tensor_like",
    "has_opyard_function_unary", "has_opyard_function_variadic",
    "TorchFunctionMode", "DisableTorchFunctionSubclass", "DisableTorchFunction",
    "_disabled_torch_function_impl", "_get_current_function_mode", "_pop_mode_temporarily",
    "_get_current_function_mode_stack", "is_tensor_method_or_property", "BaseTorchFunctionMode",
    "enable_reentrant_dispatch", "wrap_torch_function", "_enable_torch_function", "resolve_name",
]


# --- which arguments take part ---------------------------------------------------------------


def _overloaded_args(values, nested=False):
    """One argument per distinct type taking part, subclasses before their bases (torch's order);
    lists and tuples are looked into (all the way down when ``nested``, as torch's indexing)."""
    args, types = [], []
    for v in values:
        for a in (v if isinstance(v, (list, tuple)) else (v,)):
            if nested and isinstance(a, (list, tuple)):
                for b in _overloaded_args(a, nested=True):
                    if type(b) not in types:
                        _insert(args, types, b)
                continue
            t = type(a)
            if t in types or isinstance(a, type) or _fp.is_plain_type(t) or _fp.protocol_impl(t) is None:
                continue
            if not types:  # the first one (``_insert``, inlined: this runs for every call)
                args.append(a)
                types.append(t)
            else:
                _insert(args, types, a)
    return args


def _insert(args, types, a):
    t = type(a)
    index = len(args)
    for i, seen in enumerate(types):
        if issubclass(t, seen):
            index = i
            break
    args.insert(index, a)
    types.insert(index, t)


_BOUND = type(_insert.__get__(0))  # a bound method: how a classmethod handler is read

_PLAIN_METHOD_WARNING = ("Defining your `__torch_function__` as a plain method is deprecated and will be an error "
                         "in future, please define it as a classmethod.")


def _impl_of(arg):
    """``arg``'s protocol method bound as Python binds it to ``arg`` (a classmethod to its class, a
    plain method to the instance itself: torch looks the method up on the argument); torch's
    deprecation warning for the plain method."""
    t = type(arg)
    impl = _fp.protocol_impl(t)
    if getattr(impl, "__self__", None) is t:  # the common classmethod, already bound
        return impl
    for klass in t.__mro__:
        name = _fp.spelling(klass, "__opyard_function__", "__torch_function__")
        if name is not None:
            impl = getattr(arg, name)
            if getattr(impl, "__self__", None) is arg and isinstance(arg, type) is False:
                warnings.warn(_PLAIN_METHOD_WARNING, UserWarning, stacklevel=4)
            return impl
    return _fp.protocol_impl(t)


def _relevant(args, kwargs):
    return (*args, *kwargs.values()) if kwargs else args


def is_tensor_like(inp):
    """True for a Tensor or an object whose type implements the protocol."""
    return type(inp) is Tensor or _fp.protocol_impl(type(inp)) is not None


def has_torch_function(relevant_args):
    """True if the protocol would be consulted for these arguments (modes included)."""
    state = _core._function_state()
    if state & _fp.ALL_OFF:
        return False
    return bool(state & _fp.MODE) or (not state & _fp.SUBCLASS_OFF and bool(_overloaded_args(relevant_args)))


def has_torch_function_unary(arg):
    return has_torch_function((arg,))


def has_torch_function_variadic(*args):
    return has_torch_function(args)


has_opyard_function = has_torch_function


# --- function modes --------------------------------------------------------------------------


class _ModeStack(_thread._local):
    def __init__(self):
        self.modes = []


_modes = _ModeStack()


def _set_mode_bit(on):
    state = _core._function_state()
    _core._set_function_state(state | _fp.MODE if on else state & ~_fp.MODE)


def _push_mode(mode):
    _modes.modes.append(mode)
    _set_mode_bit(True)


def _pop_mode():
    stack = _modes.modes
    if not stack:
        raise RuntimeError("Trying to pop from an empty mode stack")
    mode = stack.pop()
    _set_mode_bit(bool(stack))
    return mode


def _get_current_function_mode():
    stack = _modes.modes
    return stack[-1] if stack else None


def _get_current_function_mode_stack():
    return list(_modes.modes)


@contextlib.contextmanager
def _pop_mode_temporarily():
    """Pop the innermost function mode while the body runs (it sees the outer ones)."""
    mode = _pop_mode()
    try:
        yield mode
    finally:
        _push_mode(mode)


class TorchFunctionMode:
    """Overrides every protocol-aware function within a ``with`` block, tensors or not.

    Subclasses define ``__torch_function__(self, func, types, args=(), kwargs=None)``; inside
    it the mode is popped, so calling ``func`` runs the next mode (or the function itself)::

        class Spy(TorchFunctionMode):
            def __torch_function__(self, func, types, args=(), kwargs=None):
                print(func.__name__)
                return func(*args, **(kwargs or {}))
    """

    def __init__(self):
        pass

    def __torch_function__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()
        return False

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)


class BaseTorchFunctionMode(TorchFunctionMode):
    """A mode that runs every function as it is (a base to override selectively)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def _enable_torch_function():
    """Inside, the protocol is on again (undoing ``DisableTorchFunction`` and
    ``DisableTorchFunctionSubclass`` for the block)."""
    state = _core._function_state()
    _core._set_function_state(state & ~(_fp.SUBCLASS_OFF | _fp.ALL_OFF))
    try:
        yield
    finally:
        now = _core._function_state()
        _core._set_function_state((now & _fp.MODE) | (state & (_fp.SUBCLASS_OFF | _fp.ALL_OFF)))


class _EnableTorchFunction:
    """torch's ``_C._EnableTorchFunction()``: the protocol is on while this object lives; the
    previous state comes back when it is deleted (or at the end of a ``with`` block)."""

    def __init__(self):
        self._saved = _core._function_state()
        _core._set_function_state(self._saved & ~(_fp.SUBCLASS_OFF | _fp.ALL_OFF))

    def _restore(self):
        saved, self._saved = self._saved, None
        if saved is not None:
            now = _core._function_state()
            _core._set_function_state((now & _fp.MODE) | (saved & (_fp.SUBCLASS_OFF | _fp.ALL_OFF)))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._restore()
        return False

    def __del__(self):
        self._restore()


def _is_torch_function_all_disabled():
    """Whether ``DisableTorchFunction`` is in effect on this thread."""
    return bool(_core._function_state() & _fp.ALL_OFF)


def _len_torch_function_stack():
    return len(_modes.modes)


def _get_function_stack_at(i):
    return _modes.modes[i]


def wrap_torch_function(dispatcher):
    """Decorator: make a Python function take part in the protocol; ``dispatcher(*args, **kwargs)``
    returns the arguments to look for overrides in (torch's helper)::

        @wrap_torch_function(lambda a, b=None: (a, b))
        def f(a, b=None): ...
    """
    def inner(func):
        @functools.wraps(func)
        def wrapped(*args, **kwargs):
            relevant = dispatcher(*args, **kwargs)
            if has_torch_function(relevant):
                return handle_torch_function(wrapped, relevant, *args, **kwargs)
            return func(*args, **kwargs)
        return wrapped
    return inner


# --- the handler ---------------------------------------------------------------------------


def _public_name(func):
    name = getattr(func, "__name__", repr(func))
    if isinstance(func, OpOverloadPacket) or hasattr(func, "_schema"):
        return f"opyard.{name.split('.')[0]}"
    qual = getattr(func, "__qualname__", name)
    return f"opyard.{qual}" if qual.startswith("Tensor.") else name


def _recursion_hint(err, who, func):
    """A RecursionError inside an override: say why (``func`` re-entered the protocol)."""
    if getattr(err, "_opyard_explained", False):
        return err
    new = RecursionError(
        f"maximum recursion depth exceeded in {who} for '{_public_name(func)}': the override called "
        "the function again with the protocol still on for its arguments, which re-enters the "
        "override forever. Call super().__torch_function__(func, types, args, kwargs) from a "
        "Tensor subclass, or run func under opyard.overrides.DisableTorchFunctionSubclass() "
        "(unwrap Tensor-likes first)"
    )
    new._opyard_explained = True
    return new


def _mode_impl(mode):
    """The mode's protocol method: either spelling, the one defined nearest in its MRO; a
    classmethod is refused, as torch refuses it."""
    impl = mode.__torch_function__
    for klass in type(mode).__mro__:
        name = _fp.spelling(klass, "__opyard_function__", "__torch_function__")
        if name is not None:
            impl = getattr(mode, name)
            break
    if getattr(impl, "__self__", None) is type(mode):
        raise RuntimeError("Defining your mode's `__torch_function__` as a classmethod is not supported, please "
                           "make it a plain method")
    return impl


def _run(func, args, kwargs, overloaded):
    types = tuple(type(a) for a in overloaded)
    owner = None  # whose override runs, named only in a RecursionError's message
    try:
        if _core._function_state() & _fp.MODE:
            with _pop_mode_temporarily() as mode:
                owner = type(mode)
                result = _mode_impl(mode)(func, types, args, kwargs)
            if result is not NotImplemented:
                return result
        for a in overloaded:
            owner = t = type(a)
            impl = _fp.protocol_impl(t)
            if impl.__class__ is not _BOUND or impl.__self__ is not t:  # not the common classmethod
                impl = _impl_of(a)
            result = impl(func, types, args, kwargs)
            if result is not NotImplemented:
                return result
    except RecursionError as e:
        if owner is None:
            raise
        raise _recursion_hint(e, owner.__name__ + ".__torch_function__", func) from None
    names = ", ".join(t.__name__ for t in types)
    msg = f"no implementation found for '{_public_name(func)}' on types that implement " \
          f"__opyard_function__: [{names}]"
    mode = _get_current_function_mode()
    if mode is not None:
        msg += f" nor in mode {mode!r}"
    raise TypeError(msg)


def _dispatch_protocol(func, args, kwargs, relevant=None):
    """Called by the Rust call path: the override's result, or NotImplemented to run ``func``.
    ``relevant`` (from ``_core._handle_function_protocol``): where to look for overrides instead
    of the arguments, nested lists and tuples included."""
    state = _core._function_state()
    if state & _fp.ALL_OFF:
        return NotImplemented
    if state & _fp.SUBCLASS_OFF:
        overloaded = []
    elif relevant is None:
        overloaded = _overloaded_args(_relevant(args, kwargs))
    else:
        overloaded = _overloaded_args(relevant, nested=True)
    if not overloaded and not state & _fp.MODE:
        return NotImplemented
    return _run(func, tuple(args), dict(kwargs), overloaded)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """torch's: run the protocol for ``public_api(*args, **kwargs)``; ``relevant_args`` are the
    arguments to look for overrides in (the caller checked ``has_torch_function`` first)."""
    overloaded = _overloaded_args(relevant_args)
    if not overloaded and not _core._function_state() & _fp.MODE:
        raise TypeError(f"handle_torch_function: no argument of {_public_name(public_api)} takes part "
                        "in the protocol; check has_torch_function(relevant_args) first")
    return _run(public_api, args, kwargs, overloaded)


handle_opyard_function = handle_torch_function
has_opyard_function_unary = has_torch_function_unary
has_opyard_function_variadic = has_torch_function_variadic


def resolve_name(f):
    """The name that evaluates to ``f`` in a namespace where ``opyard`` is imported (torch's
    ``resolve_name``), e.g. ``"opyard.add"``, ``"opyard.Tensor.add"``,
    ``"opyard.Tensor.grad.__get__"``; None for an object that is not a listed function."""
    for name, getter in PROPERTY_GETTERS.items():
        if f is getter:
            return f"opyard.Tensor.{name}.__get__"
    name = getattr(f, "__name__", None)
    if isinstance(f, OpOverloadPacket) and getattr(_override_listing._facade(), name, None) is f:
        return f"opyard.{name}"
    if isinstance(f, OpOverload):
        return str(f)  # ``aten.mul.Tensor``, as torch names an operator
    for klass in Tensor.__mro__:
        for attr, value in klass.__dict__.items():
            if value is f:
                return f"opyard.Tensor.{attr}"
    if isinstance(f, OpOverloadPacket):
        return str(f)  # ``aten.sin``: a packet that is no function or method of opyard's
    if name is None:
        return None
    module = getattr(f, "__module__", None)
    if isinstance(module, str) and module.startswith("opyard") and not isinstance(f, OpOverloadPacket):
        return f"{module}.{getattr(f, '__qualname__', name)}"
    return f"opyard.{name.split('.')[0]}"


def is_tensor_method_or_property(func):
    """True for Tensor methods and property getters the protocol routes."""
    if func in PROPERTY_GETTERS.values() or getattr(func, "__qualname__", "").startswith("Tensor."):
        return True
    # A method defined elsewhere (the autograd layer's ``requires_grad_``); an operator packet is
    # ``opyard.add`` as well as ``Tensor.add``: the function, as before.
    if isinstance(func, OpOverloadPacket):
        return False
    return any(value is func for klass in Tensor.__mro__ for value in klass.__dict__.values())


# --- Python-level Tensor methods and properties of subclasses --------------------------------


# Python-level reflected operators: as torch's wrapper does, a TypeError on their way through the
# protocol (the overrides declined, or the operand fits no overload) means NotImplemented, so that
# Python goes on with its operator protocol (Note [Operator dunders] in ``_functional.py``).
_REFLECTED_OPERATORS = frozenset(("__rtruediv__", "__rpow__", "__rfloordiv__", "__rmod__", "__rmatmul__"))


def _routed_method(name, impl):
    """``impl`` (a Python-level Tensor method) going through the protocol for subclass instances."""
    operator = name in _REFLECTED_OPERATORS

    def method(self, *args, **kwargs):
        if not _core._function_state() & (_fp.SUBCLASS_OFF | _fp.ALL_OFF):
            full = (self, *args)
            overloaded = _overloaded_args(_relevant(full, kwargs))
            if overloaded:
                if not operator:
                    return _run(impl, full, kwargs, overloaded)
                try:
                    return _run(impl, full, kwargs, overloaded)
                except TypeError:
                    return NotImplemented
        return impl(self, *args, **kwargs)

    method.__name__, method.__qualname__, method.__doc__ = name, f"Tensor.{name}", impl.__doc__
    return method


class _RoutedProperty:
    """A Tensor property (or attribute) read through the protocol on subclass instances;
    ``func`` is its getter (``PROPERTY_GETTERS[name]``, torch's ``Tensor.<name>.__get__``)."""

    def __init__(self, name, getter):
        self.name, self.getter = name, getter

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        if not _core._function_state() & (_fp.SUBCLASS_OFF | _fp.ALL_OFF):
            overloaded = _overloaded_args((obj,))
            if overloaded:  # empty if the class opted out after it was created
                return _run(self.getter, (obj,), {}, overloaded)
        return self.getter(obj)

    def __set__(self, obj, value):
        # the first definition along Tensor's MRO: ``grad`` and the fields live in TensorBase
        base = next((k.__dict__[self.name] for k in Tensor.__mro__ if self.name in k.__dict__), None)
        if hasattr(base, "__set__"):
            base.__set__(obj, value)
        else:
            obj.__dict__[self.name] = value


def _install_routing(cls):
    """Route a new subclass's inherited Python-level methods and properties (the operator
    methods are packets, which the Rust call path checks already)."""
    if _fp.protocol_impl(cls) is None or _fp.is_plain_type(cls):
        return
    between = [k for k in cls.__mro__[1:] if k is not Tensor and issubclass(k, Tensor)]
    if any("_opyard_routed" in k.__dict__ for k in between):
        return  # a base subclass routes already
    cls._opyard_routed = True
    _fp.name_routed_methods(Tensor)  # Tensor's methods are all installed once users subclass it
    for name in ROUTED_METHODS:
        if any(name in k.__dict__ for k in (cls, *between)):
            continue
        impl = getattr(Tensor, name, None)
        if callable(impl) and not isinstance(impl, (OpOverloadPacket,)) and not hasattr(impl, "_schema"):
            setattr(cls, name, _routed_method(name, impl))
    for name in ROUTED_PROPERTIES:
        if not any(name in k.__dict__ for k in (cls, *between)):
            setattr(cls, name, _RoutedProperty(name, PROPERTY_GETTERS[name]))


def __getattr__(name):
    # ``enable_reentrant_dispatch`` is ``utils.python_dispatch``'s (the ``__torch_dispatch__`` helpers),
    # which loads on its first read (PEP 562): no plain operator call needs it.
    if name != "enable_reentrant_dispatch":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = _importlib.import_module(".utils.python_dispatch", __package__).enable_reentrant_dispatch
    globals()[name] = value  # later lookups are plain module attributes, never this function
    return value


from ._exports import public_dir  # noqa: E402

_public_dir = public_dir(globals())


def __dir__():
    return sorted({*_public_dir(), "enable_reentrant_dispatch"})
