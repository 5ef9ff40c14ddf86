"""``opyard.utils.python_dispatch``: the ``__opyard_dispatch__`` protocol and dispatch modes.

Below autograd, every operator whose key set contains ``Python`` reaches the
fallback registered here. That happens for

- tensors made by ``Tensor._make_wrapper_subclass`` (they carry the key): the
  fallback calls ``type(t).__opyard_dispatch__(func, types, args, kwargs)``
  (also spelled ``__torch_dispatch__``), subclasses before superclasses,
  otherwise left to right, with ``func`` the ``OpOverload``
  (``opyard.ops.aten.add.Tensor``);
- every operator while a ``TorchDispatchMode`` is active (the thread includes
  the key while the mode stack is non-empty): the innermost mode's
  ``__torch_dispatch__`` runs with that mode popped, so calling ``func``
  inside it reaches the next mode, the subclasses, then the kernels.

Modes see the operators of a backward pass too, and compose with
``FakeTensorMode`` and ``make_fx``: by key priority, ``make_fx`` (``Tracer``)
records an operator first, then dispatch modes and wrapper subclasses
(``Python``) see it, then fake tensors (``Fake``) run it::

    class LoggingMode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            print(func)
            return func(*args, **(kwargs or {}))

    with LoggingMode():
        (x * y).sum().backward()   # aten.mul.Tensor, aten.sum.default, then the backward ops
"""

import contextlib
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)

from .. import (
    _core,
    _wrapper_subclass,  # noqa: F401  (installs Tensor._make_wrapper_subclass)
)
from .. import _function_protocol as _fp
from .._function_protocol import _disabled_torch_dispatch_impl
from .._tensor import _PYTHON_BITS, Tensor
from .._metadata_dispatch import NONE_ANSWERS, display_name
from .._torch_dispatch_rules import RULES as _RULES
from ..dispatcher import DispatchKey, DispatchKeySet
from ._aliasing import QUIET as _QUIET
from ._aliasing import record_views, return_and_correct_aliasing
# The innermost active FakeTensorMode, read from the core where opyard.fake keeps it (importing
# opyard.fake for it would load the fake layer with every import of opyard).
from .._core import _fake_mode as _current_fake_mode
from ._dispatch_checks import check_dispatch_results, check_result, handler_name

__all__ = [
    "TorchDispatchMode", "BaseTorchDispatchMode", "_get_current_dispatch_mode", "_get_current_dispatch_mode_stack",
    "_push_mode", "_pop_mode", "_pop_mode_temporarily", "_len_torch_dispatch_stack",
    "_disabled_torch_dispatch_impl", "is_traceable_wrapper_subclass", "is_traceable_wrapper_subclass_type",
    "check_dispatch_results", "is_in_torch_dispatch_mode", "transform_subclass", "return_and_correct_aliasing",
    "no_dispatch", "all_same_mode", "enable_reentrant_dispatch", "any_torch_dispatch_mode_on_stack",
    "_disable_current_modes", "_has_traceable_wrapper_subclass_protocol",
]


class _Stack(_thread._local):
    def __init__(self):
        self.modes = []


_stack = _Stack()


def _push_mode(mode):
    """Push a dispatch mode; the first one puts the ``Python`` key in the thread's include set."""
    _stack.modes.append(mode)
    if len(_stack.modes) == 1:
        _core._set_python_key_included(True)


def _pop_mode(k=None):
    modes = _stack.modes
    if not modes:
        raise RuntimeError("Trying to pop from an empty dispatch mode stack")
    mode = modes.pop()
    if not modes:
        _core._set_python_key_included(False)
    return mode


def _get_current_dispatch_mode():
    """The innermost active dispatch mode, else the active ``FakeTensorMode`` (None outside both).

    ``FakeTensorMode`` is not on this stack (it works through the ``Fake`` key, below these modes),
    but code written for torch finds it here.
    """
    modes = _stack.modes
    return modes[-1] if modes else _current_fake_mode()


def _get_current_dispatch_mode_stack():
    return list(_stack.modes)


def _len_torch_dispatch_stack():
    return len(_stack.modes)


@contextlib.contextmanager
def _pop_mode_temporarily(k=None):
    """Pop the innermost dispatch mode while the body runs (torch's semantics)."""
    mode = _pop_mode()
    try:
        yield mode
    finally:
        _push_mode(mode)


class TorchDispatchMode:
    """Sees every operator below autograd inside its ``with`` block (see the module docs).

    Define ``__torch_dispatch__(self, func, types, args=(), kwargs=None)`` (or
    ``__opyard_dispatch__``); inside it the mode is popped, so ``func(*args, **kwargs)`` runs
    the operator for real (or the next mode). Modes nest: the innermost sees an operator first.
    """

    def __init__(self, _dispatch_key=None):
        pass

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        raise NotImplementedError(
            f"{type(self).__name__} must define __torch_dispatch__(self, func, types, args=(), kwargs=None)"
        )

    def __enter__(self):
        _push_mode(self)
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        _pop_mode()
        return False

    @classmethod
    def push(cls, *args, **kwargs):
        return cls(*args, **kwargs)

    @classmethod
    def is_infra_mode(cls):
        return False

    @classmethod
    def ignore_compile_internals(cls):
        return cls.is_infra_mode()


class BaseTorchDispatchMode(TorchDispatchMode):
    """A mode that runs every operator as it is (a base to override selectively)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


_dispatch_impl = _fp.dispatch_impl


def is_traceable_wrapper_subclass(t):
    """torch's test: a Tensor subclass instance that can be flattened into the tensors it holds
    (``__tensor_flatten__``/``__tensor_unflatten__``)."""
    return isinstance(t, Tensor) and type(t) is not Tensor and \
        hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


def is_traceable_wrapper_subclass_type(t):
    """``is_traceable_wrapper_subclass`` for a class."""
    return isinstance(t, type) and issubclass(t, Tensor) and t is not Tensor and \
        hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


def transform_subclass(t, callback, outer_size=None, outer_stride=None):
    """A new instance of ``t``'s traceable wrapper class whose inner tensors are
    ``callback(attr, getattr(t, attr))`` (torch's helper): flattened by ``__tensor_flatten__``,
    rebuilt by ``__tensor_unflatten__`` with ``t``'s size and stride (or the ones given)."""
    outer_size = t.size() if outer_size is None else outer_size
    outer_stride = t.stride() if outer_stride is None else outer_stride
    attrs, ctx = t.__tensor_flatten__()
    inner = {attr: callback(attr, getattr(t, attr)) for attr in attrs}
    sub = type(t).__tensor_unflatten__(inner, ctx, outer_size, outer_stride)
    if tuple(sub.shape) != tuple(outer_size):
        raise AssertionError(f"Expected return value from {type(t)}__tensor_unflatten__() to have shape equal to "
                             f"{outer_size}, but got: {sub.shape}")
    if tuple(sub.stride()) != tuple(outer_stride):
        raise AssertionError(f"Expected return value from {type(t)}__tensor_unflatten__() to have stride equal to "
                             f"{outer_stride}, but got: {sub.stride()}")
    return sub


def is_in_torch_dispatch_mode(include_infra_modes=True):
    """Whether a dispatch mode is active on this thread (a ``FakeTensorMode`` counts); with
    ``include_infra_modes=False``, only modes whose ``is_infra_mode()`` is False count."""
    modes = _stack.modes
    if include_infra_modes:
        return bool(modes) or _current_fake_mode() is not None
    return any(not m.is_infra_mode() for m in modes) or _current_fake_mode() is not None


def any_torch_dispatch_mode_on_stack():
    """Whether a dispatch mode of the user's is on this thread's stack (infra modes, and modes that
    ignore compile internals, do not count)."""
    return any(not m.is_infra_mode() and not m.ignore_compile_internals() for m in _stack.modes)


@contextlib.contextmanager
def _disable_current_modes():
    """Pop every dispatch mode of this thread for the block (yielding them, innermost first) and push
    them back after it, as torch's helper does."""
    popped = []
    while _stack.modes:
        popped.append(_pop_mode())
    try:
        yield popped
    finally:
        for mode in reversed(popped):
            _push_mode(mode)


def _has_traceable_wrapper_subclass_protocol(t):
    """Whether ``t`` defines ``__tensor_flatten__`` and ``__tensor_unflatten__``."""
    return hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


def all_same_mode(modes):
    """True when every element of ``modes`` equals the first (torch's ``_mode_utils.all_same_mode``)."""
    return all(mode == modes[0] for mode in modes)


_NO_DISPATCH = DispatchKeySet([DispatchKey.Python, DispatchKey.PythonTLSSnapshot])


def no_dispatch():
    """Context manager: operators in the block skip the ``Python`` key, so neither dispatch modes
    nor ``__torch_dispatch__`` subclasses see them (torch's ``_DisableTorchDispatch``)::

        with no_dispatch():
            return func(*args, **kwargs)   # the kernels, on a _make_subclass tensor's own data
    """
    return _core._KeyGuard(exclude=_NO_DISPATCH)


def _subclass_handlers(args, kwargs):
    """``([(argument, its handler)], types)``: one argument per distinct class carrying the
    ``Python`` key with a ``__torch_dispatch__`` of its own, subclasses before their bases."""
    found, types = [], []
    values = (*args, *kwargs.values()) if kwargs else args
    for v in values:
        for a in (v if isinstance(v, (list, tuple)) else (v,)):
            if not isinstance(a, Tensor) or not a._keyset & _PYTHON_BITS:
                continue
            t = type(a)
            if t in types:
                continue
            impl = _dispatch_impl(a)
            if impl is None:
                continue
            index = len(found)
            for i, seen in enumerate(types):
                if issubclass(t, seen):
                    index = i
                    break
            found.insert(index, (a, impl))
            types.insert(index, t)
    return found, tuple(types)


def _explain_recursion(e, who, func):
    """A handler's ``RecursionError``, with what it most likely means (once, at the innermost
    handler)."""
    if getattr(e, "_opyard_explained", False):
        return e
    new = RecursionError(
        f"maximum recursion depth exceeded in {who} for {func}: it called func again on its own "
        "wrapper tensors, which reach the Python key (and this method) again forever. Unwrap "
        "the tensors it holds and call func on those, then wrap the results"
    )
    new._opyard_explained = True
    return new


def _mode_impl(mode):
    """The mode's handler (either spelling); a classmethod is refused, as torch refuses it."""
    impl = _dispatch_impl(mode) or mode.__torch_dispatch__
    if getattr(impl, "__self__", None) is type(mode):
        raise RuntimeError("Defining your mode's `__torch_dispatch__` as a classmethod is not supported, "
                           "please make it a plain method")
    return impl


# Note [Handlers run below Python]: torch runs a mode's or a subclass's ``__torch_dispatch__``
# with every key above ``Python`` excluded (autograd, autocast, tracing, vmap): the operator has
# been through those already, and calls the handler makes on the tensors it unwraps start below
# them (no second graph, no second trace). ``enable_reentrant_dispatch()`` gives a handler the
# thread's sets as they were when the operator reached this key, so its calls run from the top.
class _Snapshots(_thread._local):
    def __init__(self):
        self.sets = []


_snapshots = _Snapshots()


@contextlib.contextmanager
def enable_reentrant_dispatch():
    """Inside ``__torch_dispatch__``: operators called in the block run from the top of the
    dispatcher (autograd included), with the thread's key sets as they were when the operator
    being handled reached the ``Python`` key. See Note [Handlers run below Python]."""
    sets = _snapshots.sets
    if not sets:
        yield
        return
    included, excluded = sets[-1]
    with _core._SetKeysGuard(DispatchKeySet.from_raw(included), DispatchKeySet.from_raw(excluded)):
        yield


def _not_implemented(op, declined):
    lines = "".join(f"\n  - {what}" for what in declined)
    return TypeError(
        f"Multiple dispatch failed for '{display_name(op)}'; all __torch_dispatch__ handlers returned "
        f"NotImplemented:\n{lines}\n\nFor more information, try re-running with TORCH_LOGS=not_implemented")


_COMPOSITION = []


def _torch_composition(op):
    if not _COMPOSITION:
        from ..fx._composites import composition

        _COMPOSITION.append(composition)
    return _COMPOSITION[0](op)


def _python_key_fallback(keyset, op, *args, **kwargs):
    """The ``Python`` key's fallback: the innermost mode, else the subclasses that define
    ``__torch_dispatch__``, each run below the keys above ``Python`` (Note [Handlers run below
    Python])."""
    if op._decomposes_below_python(keyset):
        # A CompositeImplicitAutograd op: decompose first, so its parts come back here (torch's
        # order, where the decomposition sits in the autograd slot above this key).
        return op.redispatch(keyset.remove(DispatchKey.Python), *args, **kwargs)
    compose = _torch_composition(op)
    if compose is not None:
        # An operator torch composes where opyard has a kernel of its own (``softmax.int`` is
        # ``_softmax``): the handlers see torch's parts, each coming back here.
        return compose(*args, **kwargs)
    handlers, types = _subclass_handlers(args, kwargs)
    if not handlers and not _stack.modes:
        # The key came from the thread's sets, or from a tensor whose class has no handler:
        # nothing here takes part (torch's default, ``Tensor.__torch_dispatch__``).
        return op.redispatch(keyset.remove(DispatchKey.Python), *args, **kwargs)
    declined = []
    saved = _core._exclude_above_python()
    snapshots = _snapshots.sets
    snapshots.append(saved)
    owner = None  # whose handler runs: for the messages, which are written only when needed
    try:
        if _stack.modes:
            owner = mode = _pop_mode()
            try:
                rule = _RULES.get((op, type(mode))) if _RULES else None
                if rule is not None:
                    result = rule(mode, op, types, args, kwargs)
                else:
                    result = _mode_impl(mode)(op, types, args, kwargs)
            finally:
                _push_mode(mode)
            if result is not NotImplemented:
                if result is None and op in NONE_ANSWERS:
                    return NONE_ANSWERS[op](*args, **(kwargs or {}))
                return check_result(op, result, mode, args, kwargs)
            declined.append(f"mode object {mode!r}")
        for a, impl in handlers:
            owner = cls = type(a)
            rule = _RULES.get((op, cls)) if _RULES else None
            if rule is not None:
                result = rule(cls, op, types, args, kwargs)
            else:
                result = impl(op, types, args, kwargs)
            if result is not NotImplemented:
                if result is None and op in NONE_ANSWERS:  # a metadata query: torch's default
                    return NONE_ANSWERS[op](*args, **(kwargs or {}))
                result = check_result(op, result, cls, args, kwargs)
                if op not in _QUIET:
                    record_views(op, args, kwargs, result)
                return result
            declined.append(f"tensor subclass {cls!r}")
    except RecursionError as e:
        explained = e if owner is None else _explain_recursion(e, handler_name(owner), op)
        if explained is e:
            raise
        raise explained from None
    finally:
        snapshots.pop()
        _core._restore_keysets(*saved)
    raise _not_implemented(op, declined)


# Registered through the core (this layer sits below the user-facing ``library``); the handle
# lives as long as the module.
_SITE = "opyard/utils/python_dispatch.py"
_lib = _core._new_library("_", "IMPL", None, _SITE)
_core._fallback(_lib, "Python", _python_key_fallback, with_keyset=True, fallthrough=False, provenance=_SITE)

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
