"""Tensor types whose __torch_function__ is _disabled_torch_function_impl skip the function layer.

The call path recognises them per type (cached by the type's version, so reassigning the attribute
on the class or a base takes effect at once) and asks Python nothing for them.
"""

import sys

import opyard
import pytest
from opyard.overrides import _disabled_torch_function_impl


def _wrapper_class(name="W", base=opyard.Tensor, disabled=True):
    def __new__(cls, inner):
        out = opyard.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype)
        out.inner = inner
        return out

    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        args = [a.inner if isinstance(a, opyard.Tensor) and hasattr(a, "inner") else a for a in args]
        return cls(func(*args, **(kwargs or {})))

    body = {"__new__": staticmethod(__new__), "__init__": lambda self, inner: None,
            "__torch_dispatch__": classmethod(__torch_dispatch__)}
    if disabled:
        body["__torch_function__"] = _disabled_torch_function_impl
    return type(name, (base,), body)


def _python_calls(fn):
    """Names of the Python functions that run inside ``fn()``."""
    names = []

    def profile(frame, event, arg):
        if event == "call":
            names.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        fn()
    finally:
        sys.setprofile(None)
    return names


def test_disabled_wrapper_asks_python_nothing_per_op():
    W = _wrapper_class()
    a = W(opyard.ones(2))
    a + a  # the first call may ask (and cache) the type's answer
    calls = _python_calls(lambda: a + a)
    assert "__torch_dispatch__" in calls  # the profile does see the dispatch layer
    assert "_dispatch_protocol" not in calls and "protocol_impl" not in calls


def test_enabled_subclass_still_reaches_its_override():
    seen = []

    class S(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(func)
            return super().__torch_function__(func, types, args, kwargs)

    s = opyard.ones(2).as_subclass(S)
    for _ in range(2):
        assert type(s + s) is S
    assert len(seen) == 2


@pytest.mark.parametrize("on_base", [False, True])
def test_reassigning_the_protocol_takes_effect_at_once(on_base):
    Base = _wrapper_class("Base")
    W = _wrapper_class("W", base=Base, disabled=False) if on_base else Base
    target = Base if on_base else W
    a = W(opyard.ones(2))
    seen = []

    def logging_impl(cls, func, types, args=(), kwargs=None):
        seen.append(func)
        with opyard._C.DisableTorchFunctionSubclass():
            return func(*args, **(kwargs or {}))

    a + a
    assert seen == []
    target.__torch_function__ = classmethod(logging_impl)
    a + a
    assert len(seen) == 1
    target.__torch_function__ = _disabled_torch_function_impl
    a + a
    assert len(seen) == 1


def test_disabled_types_mixed_with_an_enabled_one_still_dispatch_to_it():
    W = _wrapper_class()
    seen = []

    class S(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(types)
            return NotImplemented

    w, s = W(opyard.ones(2)), opyard.ones(2).as_subclass(S)
    with pytest.raises(TypeError, match=r"no implementation found for 'opyard.mul' on types that "
                                        r"implement __opyard_function__: \[S\]"):
        opyard.mul(w, s)
    assert seen == [(S,)]


def test_function_modes_still_see_disabled_wrappers():
    W = _wrapper_class()
    seen = []

    class Mode(opyard.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    a = W(opyard.ones(2))
    with Mode():
        a + a
    assert len(seen) == 1
