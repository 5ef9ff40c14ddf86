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
import threading

from .. import (
    _core,
    _wrapper_subclass,  # noqa: F401  (installs Tensor._make_wrapper_subclass)
)
from .. import _function_protocol as _fp
from .._function_protocol import _disabled_torch_dispatch_impl
from .._tensor import _PYTHON_BITS, Tensor
from ..dispatcher import DispatchKey
# The innermost active FakeTensorMode, read from the core where opyard.fake keeps it (importing
# opyard.fake for it would load the fake layer with every import of opyard).
from .._core import _fake_mode as _current_fake_mode
from ._dispatch_checks import check_dispatch_results, check_result

__all__ = [
    "TorchDispatchMode", "_get_current_dispatch_mode", "_get_current_dispatch_mode_stack",
    "_push_mode", "_pop_mode", "_pop_mode_temporarily", "_len_torch_dispatch_stack",
    "_disabled_torch_dispatch_impl", "is_traceable_wrapper_subclass", "check_dispatch_results",
]


class _Stack(threading.local):
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


_dispatch_impl = _fp.dispatch_impl


def is_traceable_wrapper_subclass(t):
    """torch's test: a Tensor subclass instance that can be flattened into the tensors it holds
    (``__tensor_flatten__``/``__tensor_unflatten__``)."""
    return isinstance(t, Tensor) and type(t) is not Tensor and \
        hasattr(t, "__tensor_flatten__") and hasattr(t, "__tensor_unflatten__")


def _subclass_args(args, kwargs):
    """One argument per distinct wrapper-subclass type, subclasses before their bases."""
    found, types = [], []
    values = (*args, *kwargs.values()) if kwargs else args
    for v in values:
        for a in (v if isinstance(v, (list, tuple)) else (v,)):
            if not isinstance(a, Tensor) or not a._keyset & _PYTHON_BITS:
                continue
            t = type(a)
            if t in types:
                continue
            index = len(found)
            for i, seen in enumerate(types):
                if issubclass(t, seen):
                    index = i
                    break
            found.insert(index, a)
            types.insert(index, t)
    return found, tuple(types)


def _call(impl, who, func, types, args, kwargs):
    try:
        return impl(func, types, args, kwargs)
    except RecursionError as e:
        if getattr(e, "_opyard_explained", False):
            raise
        new = RecursionError(
            f"maximum recursion depth exceeded in {who} for {func}: it called func again on its own "
            "wrapper tensors, which reach the Python key (and this method) again forever. Unwrap "
            "the tensors it holds and call func on those, then wrap the results"
        )
        new._opyard_explained = True
        raise new from None


def _python_key_fallback(keyset, op, *args, **kwargs):
    """The ``Python`` key's fallback: the innermost mode, else the wrapper subclasses."""
    if op._decomposes_below_python(keyset):
        # A CompositeImplicitAutograd op: decompose first, so its parts come back here (torch's
        # order, where the decomposition sits in the autograd slot above this key).
        return op.redispatch(keyset.remove(DispatchKey.Python), *args, **kwargs)
    subclass_args, types = _subclass_args(args, kwargs)
    if _stack.modes:
        with _pop_mode_temporarily() as mode:
            who = f"{type(mode).__name__}.__torch_dispatch__"
            result = _call(_dispatch_impl(mode) or mode.__torch_dispatch__, who, op, types, args, kwargs)
        if result is not NotImplemented:
            return check_result(op, result, who, args, kwargs)
    missing = []
    for a in subclass_args:
        impl = _dispatch_impl(a)
        if impl is None:
            missing.append(type(a).__name__)
            continue
        who = f"{type(a).__name__}.__torch_dispatch__"
        result = _call(impl, who, op, types, args, kwargs)
        if result is not NotImplemented:
            return check_result(op, result, who, args, kwargs)
    if not subclass_args and not _stack.modes:
        # The key came from the thread's sets alone (a guard): nothing here takes part.
        return op.redispatch(keyset.remove(DispatchKey.Python), *args, **kwargs)
    if missing and len(missing) == len(subclass_args):
        raise TypeError(
            f"{missing[0]} has no __torch_dispatch__ (or __opyard_dispatch__), so {op} cannot run on "
            "it: a tensor made by Tensor._make_wrapper_subclass holds no data, and its class must "
            "define __torch_dispatch__(cls, func, types, args=(), kwargs=None) as a classmethod"
        )
    names = ", ".join(t.__name__ for t in types) or "no tensor subclass"
    raise TypeError(
        f"Multiple dispatch failed for '{op}'; all __torch_dispatch__ handlers returned "
        f"NotImplemented: [{names}]. Define __torch_dispatch__ for this operator (return "
        "NotImplemented only to let another class handle it)"
    )


# Registered through the core (this layer sits below the user-facing ``library``); the handle
# lives as long as the module.
_SITE = "opyard/utils/python_dispatch.py"
_lib = _core._new_library("_", "IMPL", None, _SITE)
_core._fallback(_lib, "Python", _python_key_fallback, with_keyset=True, fallthrough=False, provenance=_SITE)

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
