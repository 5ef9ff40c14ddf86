"""Grad mode: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

opyard records the autograd graph in the kernels registered at the
``Autograd`` keys, so "grad mode off" is simply "the autograd keys are
excluded on this thread" (DESIGN: a documented difference from torch's flag
check, saving one hop per call). Every mode here is therefore per thread, and
a context manager restores the thread's exact key sets on exit, even when the
body raised.

Example::

    >>> x = opyard.ones(2, requires_grad=True)
    >>> with opyard.no_grad():
    ...     y = x * 2
    >>> y.requires_grad
    False
"""

import functools
import inspect
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)
import warnings

from .. import _core
from ..dispatcher import AUTOGRAD_KEYS, DispatchKey, DispatchKeySet

__all__ = [
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "is_grad_enabled",
    "is_inference_mode_enabled",
]

_is_excluded = _core._is_excluded
_local_keysets = _core._local_keysets
_SetKeysGuard = _core._SetKeysGuard
_KeyGuard = _core._KeyGuard
# Inference mode also skips the in-place/view bookkeeping key, like torch's.
_INFERENCE_KEYS = AUTOGRAD_KEYS | DispatchKeySet(DispatchKey.ADInplaceOrView)
_inference = _thread._local()
class _ThreadState(_thread._local):
    # ``fw_off`` always exists: reading a missing attribute of a thread-local raises internally,
    # which costs ~10x a plain read on every ``is_grad_enabled()``.
    def __init__(self):
        self.fw_off = False


_threads = _ThreadState()


def _no_grad_guard():
    """This thread's reusable guard excluding the autograd keys.

    A guard keeps a stack of saved sets, so one instance is re-entrant, but it
    must not be shared between threads (their enters/exits would interleave).
    Creating a guard per use costs ~4x more than reusing one.
    """
    try:
        return _threads.guard
    except AttributeError:
        guard = _threads.guard = _KeyGuard(exclude=AUTOGRAD_KEYS)
        return guard


def is_grad_enabled():
    """True unless grad mode is off on this thread (``no_grad``, ``inference_mode``...)."""
    return not _is_excluded(AUTOGRAD_KEYS) and not _threads.fw_off


# Note [Grad mode under forward AD]: grad mode off normally excludes the autograd keys, but
# a forward-AD level needs its kernels reached to push tangents (torch keeps forward AD
# working under no_grad). So while a level includes those keys on this thread, turning
# grad mode off leaves the keys alone and sets ``_threads.fw_off`` instead; the autograd
# kernels then push tangents but record no backward graph (``grad_off_in_forward_ad``).

def grad_off_in_forward_ad():
    """True when grad mode is off inside a forward-AD level (see Note [Grad mode under forward AD])."""
    return _threads.fw_off


def _in_forward_ad():
    return _core._is_included(AUTOGRAD_KEYS)


def enter_forward_ad_level():
    """A level starts on this thread: grad mode off by exclusion becomes ``fw_off``."""
    if _is_excluded(AUTOGRAD_KEYS):
        included, excluded = _local_keysets()
        _set_keys(included, excluded - AUTOGRAD_KEYS)
        _threads.fw_off = True


def exit_forward_ad_level():
    """The level ends: grad mode carries over (``fw_off`` becomes exclusion again)."""
    if _threads.fw_off:
        _threads.fw_off = False
        included, excluded = _local_keysets()
        _set_keys(included, excluded | AUTOGRAD_KEYS)


def is_inference_mode_enabled():
    """True inside ``inference_mode()`` (enabled) on this thread."""
    return getattr(_inference, "depth", 0) > 0


def _set_keys(included, excluded):
    # A `_SetKeysGuard` entered and never exited is the core's way to assign
    # this thread's sets outright (what a bare `set_grad_enabled(False)` does).
    _SetKeysGuard(included, excluded).__enter__()


def _grad_state(enabled):
    """(included, excluded, fw_off) of this thread with grad mode set to ``enabled``."""
    included, excluded = _local_keysets()
    if enabled:
        return included, excluded - AUTOGRAD_KEYS, False
    if _in_forward_ad():  # See Note [Grad mode under forward AD]
        return included, excluded, True
    return included - AUTOGRAD_KEYS, excluded | AUTOGRAD_KEYS, False


def _current_state():
    return (*_local_keysets(), _threads.fw_off)


def _set_state(state):
    included, excluded, fw_off = state
    _set_keys(included, excluded)
    _threads.fw_off = fw_off


class _DecoratorContextManager:
    """A context manager that also decorates functions (``@no_grad()`` and ``@no_grad``)."""

    def __new__(cls, orig_func=None, *args, **kwargs):
        if callable(orig_func) and not isinstance(orig_func, bool):
            # Bare decorator use: `@no_grad` without parentheses.
            return cls()(orig_func)
        return super().__new__(cls)

    def clone(self):
        return type(self)()

    def __call__(self, func):
        if inspect.isclass(func):
            # torch's deprecated behaviour: the class becomes a function constructing it in the
            # mode (its methods do not run in it).
            warnings.warn(
                "Decorating classes is deprecated and will be disabled in future versions. You should "
                "only decorate functions or methods. To preserve the current behavior of class "
                "decoration, you can directly decorate the `__init__` method and nothing else.",
                FutureWarning, stacklevel=2)
            cls = func

            def func(*args, **kwargs):
                return cls(*args, **kwargs)
        if inspect.isgeneratorfunction(func):
            return self._wrap_generator(func)

        @functools.wraps(func)
        def decorate_context(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)

        return decorate_context

    def _wrap_generator(self, func):
        @functools.wraps(func)
        def generator_context(*args, **kwargs):
            gen = func(*args, **kwargs)
            try:
                with self.clone():
                    response = gen.send(None)
                while True:
                    try:
                        request = yield response
                    except GeneratorExit:
                        # The caller closes us: the generator's cleanup runs in the mode too.
                        with self.clone():
                            gen.close()
                        raise
                    except BaseException as exc:
                        # Thrown at us: the generator handles it in the mode (torch's rule). The
                        # one-argument throw: Python 3.12 deprecates (type, value, traceback).
                        with self.clone():
                            response = gen.throw(exc)
                    else:
                        with self.clone():
                            response = gen.send(request)
            except StopIteration as e:
                return e.value

        return generator_context


class no_grad(_DecoratorContextManager):
    """Disable gradient recording on this thread (context manager or decorator).

    Example::

        >>> @opyard.no_grad()
        ... def double(x):
        ...     return x * 2
    """

    def __init__(self, orig_func=None):
        self._guards = []

    def __enter__(self):
        if _in_forward_ad():  # See Note [Grad mode under forward AD]
            self._guards.append(_threads.fw_off)
            _threads.fw_off = True
            return None
        guard = _KeyGuard(exclude=AUTOGRAD_KEYS)
        guard.__enter__()
        self._guards.append(guard)
        return None

    def __exit__(self, *exc):
        guard = self._guards.pop()
        if isinstance(guard, bool):
            _threads.fw_off = guard
        else:
            guard.__exit__(*exc)
        return False


class enable_grad(_DecoratorContextManager):
    """Enable gradient recording on this thread, e.g. inside a ``no_grad`` block."""

    def __init__(self, orig_func=None):
        self._saved = []

    def __enter__(self):
        self._saved.append(_current_state())
        _set_state(_grad_state(True))
        return None

    def __exit__(self, *exc):
        _set_state(self._saved.pop())
        return False


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode to ``mode`` now; as a context manager, restore the previous mode on exit.

    Example::

        >>> with opyard.set_grad_enabled(False):
        ...     assert not opyard.is_grad_enabled()
    """

    def __init__(self, mode):
        if not isinstance(mode, bool):
            raise TypeError(f"set_grad_enabled(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.mode = mode
        self._prev = _current_state()
        _set_state(_grad_state(mode))

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        _set_state(self._prev)
        return False

    def clone(self):
        # Called by the decorator on each call: apply the mode for that call only.
        return _GradModeOnce(self.mode)

    def __call__(self, func):
        # `set_grad_enabled(mode)` already switched the mode at construction;
        # as a decorator it must not leak that into the decorating scope.
        _set_state(self._prev)
        return super().__call__(func)


class _GradModeOnce:
    def __init__(self, mode):
        self.mode = mode

    def __enter__(self):
        self._prev = _current_state()
        _set_state(_grad_state(self.mode))

    def __exit__(self, *exc):
        _set_state(self._prev)
        return False


class inference_mode(_DecoratorContextManager):
    """Like ``no_grad``, and also skips view/in-place bookkeeping (``mode=False``: no effect)."""

    def __init__(self, mode=True):
        if not isinstance(mode, bool):
            raise TypeError(f"inference_mode(): argument 'mode' must be bool, not {type(mode).__name__}")
        self.mode = mode
        self._guards = []

    def clone(self):
        return type(self)(self.mode)

    def __enter__(self):
        if not self.mode:
            self._guards.append(None)
            return None
        guard = _KeyGuard(exclude=_INFERENCE_KEYS)
        guard.__enter__()
        self._guards.append(guard)
        _inference.depth = getattr(_inference, "depth", 0) + 1
        return None

    def __exit__(self, *exc):
        guard = self._guards.pop()
        if guard is not None:
            guard.__exit__(*exc)
            _inference.depth -= 1
        return False

from .._exports import public_dir

__dir__ = public_dir(globals())
