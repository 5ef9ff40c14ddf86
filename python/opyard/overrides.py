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
import threading

from . import _core
from . import _function_protocol as _fp
from ._function_protocol import (
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    _disabled_torch_function_impl,
)
from ._ops import OpOverloadPacket
from ._override_listing import (
    PROPERTY_GETTERS,
    ROUTED_METHODS,
    ROUTED_PROPERTIES,
    get_ignored_functions,
    get_overridable_functions,
    get_testing_overrides,
)
from ._tensor import Tensor

__all__ = [
    "get_overridable_functions", "get_testing_overrides", "get_ignored_functions",
    "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
    "handle_torch_function", "has_opyard_function", "handle_opyard_function", "is_tensor_like",
    "has_opyard_function_unary", "has_opyard_function_variadic",
    "TorchFunctionMode", "DisableTorchFunctionSubclass", "DisableTorchFunction",
    "_disabled_torch_function_impl", "_get_current_function_mode", "_pop_mode_temporarily",
    "_get_current_function_mode_stack", "is_tensor_method_or_property",
]


# --- which arguments take part ---------------------------------------------------------------


def _overloaded_args(values):
    """One argument per distinct type taking part, subclasses before their bases (torch's order)."""
    args, types = [], []
    for v in values:
        for a in (v if isinstance(v, (list, tuple)) else (v,)):
            t = type(a)
            if t in types or isinstance(a, type) or _fp.is_plain_type(t) or _fp.protocol_impl(t) is None:
                continue
            index = len(args)
            for i, seen in enumerate(types):
                if issubclass(t, seen):
                    index = i
                    break
            args.insert(index, a)
            types.insert(index, t)
    return args


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


class _ModeStack(threading.local):
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
    """The mode's protocol method: either spelling, the one defined nearest in its MRO."""
    for klass in type(mode).__mro__:
        for name in ("__opyard_function__", "__torch_function__"):
            if name in klass.__dict__:
                return getattr(mode, name)
    return mode.__torch_function__


def _call_override(impl, who, func, types, args, kwargs):
    try:
        return impl(func, types, args, kwargs)
    except RecursionError as e:
        raise _recursion_hint(e, who, func) from None


def _run(func, args, kwargs, overloaded):
    types = tuple(type(a) for a in overloaded)
    if _core._function_state() & _fp.MODE:
        with _pop_mode_temporarily() as mode:
            result = _call_override(_mode_impl(mode), type(mode).__name__ + ".__torch_function__",
                                    func, types, args, kwargs)
        if result is not NotImplemented:
            return result
    for a in overloaded:
        t = type(a)
        result = _call_override(_fp.protocol_impl(t), t.__name__ + ".__torch_function__", func, types,
                                args, kwargs)
        if result is not NotImplemented:
            return result
    names = ", ".join(t.__name__ for t in types)
    msg = f"no implementation found for '{_public_name(func)}' on types that implement " \
          f"__opyard_function__: [{names}]"
    mode = _get_current_function_mode()
    if mode is not None:
        msg += f" nor in mode {mode!r}"
    raise TypeError(msg)


def _dispatch_protocol(func, args, kwargs):
    """Called by the Rust call path: the override's result, or NotImplemented to run ``func``."""
    state = _core._function_state()
    if state & _fp.ALL_OFF:
        return NotImplemented
    overloaded = [] if state & _fp.SUBCLASS_OFF else _overloaded_args(_relevant(args, kwargs))
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


def is_tensor_method_or_property(func):
    """True for Tensor methods and property getters the protocol routes."""
    return func in PROPERTY_GETTERS.values() or getattr(func, "__qualname__", "").startswith("Tensor.")


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
    _name_routed_methods()  # here: Tensor's methods are all installed once users subclass it
    for name in ROUTED_METHODS:
        if any(name in k.__dict__ for k in (cls, *between)):
            continue
        impl = getattr(Tensor, name, None)
        if callable(impl) and not isinstance(impl, (OpOverloadPacket,)) and not hasattr(impl, "_schema"):
            setattr(cls, name, _routed_method(name, impl))
    for name in ROUTED_PROPERTIES:
        if not any(name in k.__dict__ for k in (cls, *between)):
            setattr(cls, name, _RoutedProperty(name, PROPERTY_GETTERS[name]))


def _name_routed_methods():
    """Give the routed Tensor methods torch's names (``func.__name__`` is what overrides log)."""
    for name in ROUTED_METHODS:
        impl = Tensor.__dict__.get(name)
        if isinstance(impl, type(_name_routed_methods)) and impl.__name__ != name:
            impl.__name__, impl.__qualname__ = name, f"Tensor.{name}"



from ._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
