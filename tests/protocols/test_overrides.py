"""The __opyard_function__ / __torch_function__ protocol on operators."""

import pytest

import opyard
from opyard.library import Library


class Duck:
    """Not a tensor: only takes part through the protocol."""

    handled = {}

    def __init__(self, value):
        self.value = value

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if func not in cls.handled:
            return NotImplemented
        return cls.handled[func](*args, **kwargs)


class Other:
    @classmethod
    def __opyard_function__(cls, func, types, args=(), kwargs=None):
        return ("other", tuple(t.__name__ for t in types))


class SubDuck(Duck):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return ("sub", tuple(t.__name__ for t in types))


@pytest.fixture
def op(ns):
    lib = Library(ns, "DEF")
    lib.define("double(Tensor x) -> Tensor")
    lib.impl("double", lambda x: x, "CPU")
    yield getattr(opyard.ops, ns).double
    lib._destroy()


def test_handled_function_runs(op):
    Duck.handled[op] = lambda d: d.value * 2
    try:
        assert op(Duck(21)) == 42
    finally:
        Duck.handled.clear()


def test_unhandled_raises_naming_function_and_types(op):
    with pytest.raises(TypeError, match=r"no implementation found for 'opyard.double' on types that implement __opyard_function__: \[Duck\]"):
        op(Duck(1))


def test_subclass_before_superclass_and_left_to_right(ns):
    lib = Library(ns, "DEF")
    lib.define("pair(Tensor a, Tensor b) -> Tensor")
    pair = getattr(opyard.ops, ns).pair
    assert pair(Duck(1), SubDuck(2)) == ("sub", ("SubDuck", "Duck"))
    assert pair(Other(), Duck(1)) == ("other", ("Other", "Duck"))


def test_plain_type_errors_still_raise(op):
    with pytest.raises(TypeError, match="Expected a value of type 'Tensor'"):
        op(3)


def test_overload_packet_passes_itself(op):
    seen = []

    class Spy:
        @classmethod
        def __opyard_function__(cls, func, types, args=(), kwargs=None):
            seen.append(func)
            return "spied"

    assert op(Spy()) == "spied"
    assert seen == [op]
    assert op.default(Spy()) == "spied" and seen[-1] == op.default
