"""opyard.ops objects: packets, overloads, names, schemas, identity."""

import pytest

import opyard
from opyard.library import Library


@pytest.fixture
def lib(ns):
    lib = Library(ns, "DEF")
    lib.define("mul.Tensor(Tensor self, Tensor other) -> Tensor")
    lib.define("mul.Scalar(Tensor self, Scalar other) -> Tensor")
    lib.define("neg(Tensor self) -> Tensor")
    return lib


def test_packet_and_overload_names(ns, lib):
    packet = getattr(opyard.ops, ns).mul
    assert packet.overloads() == ["Tensor", "Scalar"]
    assert packet.__name__ == "mul"
    assert packet._qualified_op_name == f"{ns}::mul"
    assert repr(packet) == f"<OpOverloadPacket(op='{ns}.mul')>"
    t = packet.Tensor
    assert t.name() == f"{ns}::mul.Tensor"
    assert t.__name__ == "mul.Tensor" and t._overloadname == "Tensor"
    assert t.namespace == ns
    assert repr(t) == f"<OpOverload(op='{ns}.mul', overload='Tensor')>"
    assert str(t) == f"{ns}.mul.Tensor"
    neg = getattr(opyard.ops, ns).neg.default
    assert neg.name() == f"{ns}::neg" and neg.__name__ == "neg.default"


def test_schema_attribute(ns, lib):
    schema = getattr(opyard.ops, ns).mul.Scalar._schema
    assert isinstance(schema, opyard.FunctionSchema)
    assert str(schema) == f"{ns}::mul.Scalar(Tensor self, Scalar other) -> Tensor"


def test_identity_and_hashing(ns, lib):
    a = getattr(opyard.ops, ns).mul.Tensor
    b = getattr(opyard.ops, ns).mul.Tensor
    assert a == b and hash(a) == hash(b)
    assert a != getattr(opyard.ops, ns).mul.Scalar
    assert {a: 1}[b] == 1
    assert getattr(opyard.ops, ns).mul is getattr(opyard.ops, ns).mul
    assert a.overloadpacket == getattr(opyard.ops, ns).mul


def test_later_overloads_join_the_packet(ns, lib):
    packet = getattr(opyard.ops, ns).mul
    frag = Library(ns, "FRAGMENT")
    frag.define("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
    assert packet.overloads() == ["Tensor", "Scalar", "out"]
    frag._destroy()
    assert packet.overloads() == ["Tensor", "Scalar"]


def test_unknown_namespace_attribute_is_lazy():
    ns = opyard.ops.some_namespace_never_defined
    with pytest.raises(AttributeError, match="no operator some_namespace_never_defined::x"):
        ns.x
    with pytest.raises(AttributeError):
        opyard.ops.__wrapped__
