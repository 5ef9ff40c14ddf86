"""Calling a packet found on a class, and calling a Rust kernel, mean what they meant as methods.

Packets are method descriptors and have their own call slot (Note [Packet call slots]): these tests
pin that `t.add(b)`, `a + b`, an explicit `__get__` bind, `packet.__call__` and a plain call all
reach the same overload with the same arguments, results and errors.
"""

import pytest

import opyard
from opyard import _core

aten = opyard.ops.aten


def _error(fn, *args, **kwargs):
    with pytest.raises(Exception) as info:
        fn(*args, **kwargs)
    return type(info.value), str(info.value)


def test_method_call_equals_bound_and_plain_call():
    a, b = opyard.tensor([1.0, 2.0]), opyard.tensor([10.0, 20.0])
    expected = [11.0, 22.0]
    assert (a + b).tolist() == expected
    assert a.add(b).tolist() == expected
    assert opyard.Tensor.add(a, b).tolist() == expected
    assert opyard.Tensor.add.__get__(a, opyard.Tensor)(b).tolist() == expected
    assert aten.add.__call__(a, b).tolist() == expected
    assert a.add(b, alpha=2).tolist() == [21.0, 42.0]
    assert (3 + a).tolist() == [4.0, 5.0]  # __radd__ is the same packet, self first


def test_class_attribute_access_still_returns_the_packet():
    assert opyard.Tensor.__dict__["add"] is aten.add
    assert opyard.Tensor.add is aten.add
    bound = opyard.tensor([1.0]).add
    assert bound.__self__.tolist() == [1.0] and bound.__func__ is aten.add


def test_packet_on_a_foreign_class_is_called_with_the_instance_first():
    class Holder:
        add = aten.add

    h = Holder()
    assert _error(h.add, 1.0) == _error(aten.add, h, 1.0)
    assert _error(h.add, 1.0)[0].__name__ == "ArgumentError"


def test_errors_are_the_same_through_every_call_form():
    a = opyard.tensor([1.0])
    plain = _error(aten.add, a, "x")
    assert "failed to match any schema" in plain[1]
    assert _error(a.add, "x") == plain
    assert _error(aten.add.__call__, a, "x") == plain
    # The operator form returns NotImplemented for an operand of the wrong type (Python then raises
    # its own TypeError; see tensor/test_operator_protocol.py); the method keeps the packet's error.
    assert _error(lambda: a + "x") == (TypeError, "unsupported operand type(s) for +: 'Tensor' and 'str'")
    assert _error(aten.add, a, a, bogus=1)[0] is plain[0]


def test_rust_kernel_call_slot_matches_its_dunder_call():
    calls = []

    def fallback(*args, **kwargs):
        calls.append((len(args), sorted(kwargs)))
        return "fallback"

    k = _core.RustKernel("add.Tensor", fallback)
    a = opyard.tensor([1.0, 2.0])
    assert k(a, a).tolist() == [2.0, 4.0]
    assert k.__call__(a, a).tolist() == [2.0, 4.0]
    assert k(a, a, alpha=2).tolist() == [3.0, 6.0]
    assert k(a, "z") == "fallback" and k(a, a, foo=1) == "fallback"
    assert calls == [(2, []), (2, ["foo"])]

    def raising(*args, **kwargs):
        raise ValueError("from the fallback")

    with pytest.raises(ValueError, match="from the fallback"):
        _core.RustKernel("add.Tensor", raising)(a, "z")
