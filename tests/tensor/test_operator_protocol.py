"""Tensor's binary operators follow Python's protocol, as torch's do.

A dunder whose other operand has a type no overload takes returns NotImplemented (Note [Operator
protocol], src/python/dispatch/operator_protocol.rs), so Python asks the other operand's reflected method
and then raises its own TypeError; the op called by name keeps its ArgumentError. Also here:
``OpOverload.overloadpacket`` is the namespace's cached packet.
"""

import operator
import sys

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard.library import Library

aten = opyard.ops.aten

# (symbol, operator function, the method Python calls on the right operand, in-place function)
BINARY = [
    ("+", operator.add, "__radd__", operator.iadd),
    ("-", operator.sub, "__rsub__", operator.isub),
    ("*", operator.mul, "__rmul__", operator.imul),
    ("/", operator.truediv, "__rtruediv__", operator.itruediv),
    ("//", operator.floordiv, "__rfloordiv__", operator.ifloordiv),
    ("%", operator.mod, "__rmod__", operator.imod),
    ("**", operator.pow, "__rpow__", operator.ipow),
    ("@", operator.matmul, "__rmatmul__", operator.imatmul),
    ("&", operator.and_, "__rand__", operator.iand),
    ("|", operator.or_, "__ror__", operator.ior),
    ("^", operator.xor, "__rxor__", operator.ixor),
    ("<<", operator.lshift, "__rlshift__", operator.ilshift),
    (">>", operator.rshift, "__rrshift__", operator.irshift),
]
INTEGER_ONLY = {"&", "|", "^", "<<", ">>"}
# comparison -> (its reflection, as Python swaps it)
COMPARISONS = {"<": (operator.lt, "__gt__"), "<=": (operator.le, "__ge__"),
               ">": (operator.gt, "__lt__"), ">=": (operator.ge, "__le__")}


class Reflecting:
    """Answers every reflected operator and comparison with its own name."""


for _sym, _fn, _rname, _ in BINARY:
    setattr(Reflecting, _rname, lambda self, other, _n=_rname: _n)
    setattr(Reflecting, _rname.replace("__r", "__", 1), lambda self, other, _n=_rname: _n.replace("__r", "__", 1))
for _name in ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"):
    setattr(Reflecting, _name, lambda self, other, _n=_name: _n)


class Odd:
    """Defines no operator at all."""


def _tensor(sym):
    return opyard.tensor([1, 2]) if sym in INTEGER_ONLY else opyard.tensor([1.0, 2.0])


def _unsupported(sym, left, right):
    # Python's own message, quoted literally
    symbol = "** or pow()" if sym == "**" else sym
    return rf"^unsupported operand type\(s\) for {_escape(symbol)}: '{left}' and '{right}'$"


def _escape(s):
    return "".join("\\" + c if c in "*+|^()" else c for c in s)


@pytest.mark.parametrize("sym,fn,rname,ifn", BINARY, ids=[b[0] for b in BINARY])
def test_the_other_operands_reflected_method_answers(sym, fn, rname, ifn):
    t = _tensor(sym)
    assert fn(t, Reflecting()) == rname
    assert fn(Reflecting(), t) == rname.replace("__r", "__", 1)  # its own method goes first


@pytest.mark.parametrize("sym,fn,rname,ifn", BINARY, ids=[b[0] for b in BINARY])
@pytest.mark.parametrize("other", [object(), None, "text", Odd()], ids=["object", "None", "str", "Odd"])
def test_an_operand_nothing_handles_raises_pythons_type_error(sym, fn, rname, ifn, other):
    t = _tensor(sym)
    name = type(other).__name__
    if not (sym == "*" and isinstance(other, str)):  # t * "ab": str asks the tensor for an index
        with pytest.raises(TypeError, match=_unsupported(sym, "Tensor", name)):
            fn(t, other)
    # str's own +, * and % (concatenation, repetition, formatting) answer first, as with torch
    if not (isinstance(other, str) and sym in ("+", "*", "%")):
        with pytest.raises(TypeError, match=_unsupported(sym, name, "Tensor")):
            fn(other, t)


@pytest.mark.parametrize("sym,fn,rname,ifn", BINARY, ids=[b[0] for b in BINARY])
def test_the_dunders_themselves_return_not_implemented(sym, fn, rname, ifn):
    t = _tensor(sym)
    forward = rname.replace("__r", "__", 1)
    for name in (forward, rname):
        assert getattr(t, name)(object()) is NotImplemented, name
        assert getattr(t, name)(None) is NotImplemented, name


@pytest.mark.parametrize("sym,fn,rname,ifn", BINARY, ids=[b[0] for b in BINARY])
def test_in_place_forms(sym, fn, rname, ifn):
    t = _tensor(sym)
    assert ifn(t, Reflecting()) == rname  # ``t op= r`` rebinds t to what r answered
    with pytest.raises(TypeError, match=_unsupported(sym + "=", "Tensor", "object")):
        ifn(_tensor(sym), object())


@pytest.mark.parametrize("name", ["__iadd__", "__isub__", "__imul__", "__itruediv__", "__imod__", "__ipow__",
                                  "__iand__", "__ior__", "__ixor__"])
def test_in_place_dunders_leave_the_tensor_alone_on_not_implemented(name):
    t = opyard.tensor([1, 2]) if name in ("__iand__", "__ior__", "__ixor__") else opyard.tensor([1.0, 2.0])
    before = t._version
    assert getattr(t, name)(object()) is NotImplemented
    assert t._version == before and t.tolist() in ([1, 2], [1.0, 2.0])


def test_in_place_operators_still_write_in_place():
    t = opyard.tensor([1.0, 2.0])
    alias = t
    t += 1
    t *= 2
    assert t is alias and alias.tolist() == [4.0, 6.0]


def test_equality_with_an_unrelated_object_is_identity():
    t = opyard.tensor([1.0])
    assert (t == None) is False and (t != None) is True
    assert (t == "x") is False and (t != object()) is True
    assert t in [t] and t not in [None, "x"]
    assert t.__eq__(object()) is NotImplemented and t.__ne__(None) is NotImplemented
    assert Reflecting() == t and (t == Reflecting()) == "__eq__"  # the reflection of == is ==
    assert (t != Reflecting()) == "__ne__"


@pytest.mark.parametrize("sym", COMPARISONS)
def test_ordering_with_an_unrelated_object(sym):
    fn, reflected = COMPARISONS[sym]
    t = opyard.tensor([1.0])
    assert fn(t, Reflecting()) == reflected
    with pytest.raises(TypeError, match=rf"^'{sym}' not supported between instances of 'Tensor' and 'object'$"):
        fn(t, object())
    with pytest.raises(TypeError, match=rf"^'{sym}' not supported between instances of 'NoneType' and 'Tensor'$"):
        fn(None, t)


@pytest.mark.parametrize("call", [
    lambda t: opyard.add(t, object()),
    lambda t: aten.add(t, object()),
    lambda t: t.add(object()),
    lambda t: opyard.Tensor.add(t, object()),
    lambda t: aten.add.Tensor(t, object()),
], ids=["opyard.add", "ops.aten.add", "t.add", "Tensor.add", "add.Tensor"])
def test_calling_the_op_keeps_its_argument_error(call):
    with pytest.raises(_core.ArgumentError, match="Expected a value of type 'Tensor' for argument 'other'"):
        call(opyard.tensor([1.0]))


def test_only_the_other_operands_type_returns_not_implemented():
    t = opyard.tensor([1.0])
    # the tensor operand itself is wrong: the binding error stands
    with pytest.raises(_core.ArgumentError, match="argument 'self'"):
        opyard.Tensor.__add__(1, t)
    # too many arguments, an unknown keyword: not about the other operand's type
    with pytest.raises(_core.ArgumentError, match="expected at most 2 argument"):
        t.__add__(t, t)
    with pytest.raises(_core.ArgumentError, match="unexpected keyword argument 'beta'"):
        t.__add__(t, beta=2)
    # the right type with a value it cannot hold (an int past int64): still the binding error
    with pytest.raises(_core.ArgumentError, match="failed to match any schema"):
        opyard.tensor([1]) + 10**30
    # a keyword beside the other operand, as torch: the operand decides
    assert t.__add__(object(), alpha=2) is NotImplemented
    assert t.__add__(t, alpha=2).tolist() == [3.0]


def test_errors_inside_kernels_are_never_turned_into_not_implemented():
    lib = Library("optest_proto", "DEF")
    lib.define("boom(Tensor self, Tensor other) -> Tensor")

    def boom(a, b):
        raise TypeError("raised by the kernel")

    lib.impl("boom", boom, "CPU")
    form = _core._operator_packet(opyard.ops.optest_proto.boom)
    t = opyard.tensor([1.0])
    with pytest.raises(TypeError, match="raised by the kernel"):
        form(t, t)
    assert form(t, object()) is NotImplemented
    with pytest.raises(_core.ArgumentError):
        opyard.ops.optest_proto.boom(t, object())
    # kernels of the built-in operators: their own errors, whatever the operand
    with pytest.raises(RuntimeError, match="bitwise_and_cpu"):
        opyard.tensor([1.0]) & 1
    lib._destroy()


def test_operator_forms_share_the_packet_and_compare_equal():
    assert opyard.Tensor.__add__ == aten.add and hash(opyard.Tensor.__add__) == hash(aten.add)
    assert opyard.Tensor.__add__ is not aten.add and opyard.Tensor.add is aten.add
    assert opyard.Tensor.__add__.Tensor is aten.add.Tensor.overloadpacket.Tensor
    assert opyard.Tensor.__add__.overloads() == aten.add.overloads()
    with pytest.raises(ValueError, match="argument 0 or 1"):
        _core._operator_packet(aten.add, 2)


def test_reflected_helpers_with_numbers_and_tensors():
    t, i = opyard.tensor([1.0, 2.0]), opyard.tensor([1, 2])
    assert (2 / t).tolist() == [2.0, 1.0] and (2 / i).tolist() == [2.0, 1.0]
    assert (1j / i).dtype == opyard.complex64
    assert (2 ** t).tolist() == [2.0, 4.0] and (5 // t).tolist() == [5.0, 2.0]
    assert (2.5 // i).tolist() == [2.0, 1.0] and (2.5 // i).dtype == opyard.float32
    assert (5 % t).tolist() == [0.0, 1.0] and (1 << i).tolist() == [2, 4] and (8 >> i).tolist() == [4, 2]
    assert (t.__rfloordiv__(t)).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="lshift_cpu"):
        1.5 << i  # float fill: the kernel refuses it, as torch's does
    assert opyard.Tensor.__div__ is opyard.Tensor.__truediv__


@pytest.mark.parametrize("other,expected,dtype", [
    (2, [3.0, 4.0], "float32"), (True, [2.0, 3.0], "float32"), (2.5, [3.5, 4.5], "float32"),
    (1j, [1 + 1j, 2 + 1j], "complex64"), (np.float64(2), [3.0, 4.0], "float32"),
    # numpy scalars bind as the Python numbers they hold, as in torch (Note [Numpy scalars])
    (np.float32(2), [3.0, 4.0], "float32"), (np.int64(2), [3.0, 4.0], "float32"),
    (np.bool_(True), [2.0, 3.0], "float32"), (np.complex64(1j), [1 + 1j, 2 + 1j], "complex64"),
    (np.uint8(2), [3.0, 4.0], "float32"),
])
def test_python_scalars_on_either_side(other, expected, dtype):
    t = opyard.tensor([1.0, 2.0])
    for out in (t + other, other + t, opyard.add(t, other)):
        assert type(out) is opyard.Tensor and out.tolist() == expected and out.dtype == getattr(opyard, dtype)


def test_numpy_scalars_keep_the_tensors_dtype_like_python_numbers():
    half = opyard.tensor([1.0, 2.0], dtype=opyard.float16)
    assert (half * np.float64(2.5)).dtype == opyard.float16  # a wrapped number, as torch
    assert (opyard.tensor([1, 2]) * np.float32(2.5)).tolist() == [2.5, 5.0]
    assert (opyard.tensor([1.0]) > np.float32(0.5)).tolist() == [True]
    assert (np.float32(0.5) < opyard.tensor([1.0])).tolist() == [True]
    t = opyard.tensor([1.0, 2.0])
    assert t.add(t, alpha=np.float32(2)).tolist() == [3.0, 6.0]
    # the reflected helpers that fill a tensor with the number
    i = opyard.tensor([3, 4])
    assert (np.float32(5) // t).tolist() == [5.0, 2.0] and (np.int64(5) % i).tolist() == [2, 1]
    assert (np.int64(1) << i).tolist() == [8, 16] and (np.int64(5) % i).dtype == opyard.int64
    assert np.allclose((np.float64(2) / i).numpy(), [2 / 3, 0.5]) and (np.float64(2) / i).dtype == opyard.float32


_SEEN = []


class TorchFunctionLike:
    """Not a tensor, but takes part in the function protocol."""

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        _SEEN.append(func)
        return "handled"


class Declining:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return NotImplemented

    def __radd__(self, other):
        return "Declining.__radd__"


def test_function_protocol_objects_are_asked_first_with_the_plain_packet():
    t = opyard.tensor([1.0])
    _SEEN.clear()
    assert t + TorchFunctionLike() == "handled" and TorchFunctionLike() * t == "handled"
    assert _SEEN[0] is aten.add and _SEEN[1] is aten.mul
    # every override declines: NotImplemented, then the reflected method (torch's wrapper does it)
    assert t + Declining() == "Declining.__radd__"
    with pytest.raises(TypeError, match=_unsupported("-", "Tensor", "Declining")):
        t - Declining()
    # called by name, the declined protocol is an error as before
    with pytest.raises(TypeError, match="no implementation found"):
        opyard.add(t, Declining())


def test_a_subclass_with_the_protocol():
    seen = []

    class Sub(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append(func)
            return super().__torch_function__(func, types, args, kwargs)

    s = opyard.tensor([1.0, 2.0]).as_subclass(Sub)
    out = s + 1
    assert seen == [aten.add]  # torch passes Tensor.add too
    assert type(out) is Sub and out.tolist() == [2.0, 3.0]
    assert type(1 + s) is Sub and type(opyard.tensor([1.0, 1.0]) + s) is Sub
    seen.clear()
    # as in torch, a binding failure does not reach the subclass's __torch_function__
    with pytest.raises(TypeError, match=_unsupported("+", "Sub", "object")):
        _ = s + object()
    assert s + Reflecting() == "__radd__"
    assert seen == []
    assert (s == None) is False


@pytest.mark.parametrize("sym,fn,rname,ifn", [b for b in BINARY if b[2] in (
    "__rtruediv__", "__rpow__", "__rfloordiv__", "__rmod__", "__rmatmul__", "__rsub__")], ids=lambda v: str(v)[:4])
def test_a_subclasss_python_level_reflected_operators_decline_too(sym, fn, rname, ifn):
    class Sub(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return super().__torch_function__(func, types, args, kwargs)

    s = opyard.tensor([1.0, 2.0]).as_subclass(Sub)
    assert getattr(s, rname)(None) is NotImplemented
    with pytest.raises(TypeError, match=_unsupported(sym, "object", "Sub")):
        fn(object(), s)
    if sym != "@":
        assert type(fn(2, s)) is Sub


def test_numpy_arrays_on_either_side():
    t, a = opyard.tensor([1.0, 2.0]), np.array([1.0, 2.0])
    # the tensor returns NotImplemented; numpy computes and hands the result back as a tensor
    out = t + a
    assert type(out) is opyard.Tensor and out.dtype == opyard.float64 and out.tolist() == [2.0, 4.0]
    assert (t * a).tolist() == [1.0, 4.0] and (a / t).tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="unsupported operand type"):
        _ = a - t  # numpy defers to the tensor's __rsub__, which declines
    with pytest.raises(TypeError, match=r"'<' not supported between instances of 'Tensor' and 'numpy.ndarray'"):
        _ = t < a
    assert (t != a) is True
    sin = np.sin(t)
    assert type(sin) is opyard.Tensor and np.allclose(sin.numpy(), np.sin([1.0, 2.0]))
    eq = np.equal(t, t)
    assert type(eq) is opyard.Tensor and eq.dtype == opyard.uint8 and eq.tolist() == [1, 1]  # as torch


def test_overloadpacket_is_the_namespace_packet():
    add_t = aten.add.Tensor
    assert add_t.overloadpacket is add_t.overloadpacket is aten.add
    found = opyard._ops.resolve("aten::add.Tensor")
    assert found.overloadpacket is aten.add
    assert opyard.Tensor.__add__.Tensor.overloadpacket is aten.add
    lib = Library("optest_packet", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    op = opyard.ops.optest_packet.twice.default
    assert op.overloadpacket is opyard.ops.optest_packet.twice
    lib._destroy()


def test_overloadpacket_of_an_operator_not_looked_up_by_namespace_yet():
    lib = Library("optest_packet_fresh", "DEF")
    lib.define("once(Tensor x) -> Tensor")
    op = _core._find_op("optest_packet_fresh::once")
    packet = op.overloadpacket
    assert packet is op.overloadpacket is opyard.ops.optest_packet_fresh.once
    lib._destroy()


def test_overloadpacket_access_makes_no_object_and_leaks_no_reference():
    op = aten.mul.Tensor
    packet = op.overloadpacket  # the first access finds and remembers the packet
    refs = sys.getrefcount(packet)
    seen = {id(op.overloadpacket) for _ in range(1000)}
    assert seen == {id(packet)} and sys.getrefcount(packet) == refs


def test_numpy_scalars_resolve_overloads_as_uncached_calls_do():
    # A float overload takes np.float32 but not np.complex64; the packet's overload cache must not
    # hand np.float32 the Scalar overload cached for np.complex64 (Note [Numpy scalars]).
    lib = Library("optest_npscalar", "DEF")
    lib.define("pick.float(Tensor x, float v) -> str")
    lib.define("pick.Scalar(Tensor x, Scalar v) -> str")
    lib.impl("pick.float", lambda x, v: f"float {type(v).__name__}", "CPU")
    lib.impl("pick.Scalar", lambda x, v: f"Scalar {type(v).__name__}", "CPU")
    pick, t = opyard.ops.optest_npscalar.pick, opyard.tensor([1.0])
    try:
        assert pick(t, np.complex64(1j)) == "Scalar complex"
        assert pick(t, np.float32(2)) == "float float"
        assert pick(t, np.bool_(True)) == "Scalar float"  # a numpy bool binds as the float 1.0, as torch parses it
        assert pick(t, np.int16(3)) == "float float"
        assert pick(t, 2.5) == "float float"
    finally:
        lib._destroy()
