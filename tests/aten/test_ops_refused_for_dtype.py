"""Ops a dtype gives no meaning raise torch's exception types and messages: subtraction and
negation of bools, order and rounding ops on complex numbers, bitwise ops on floating tensors;
the meaningful forms still work. Every expected type and message is torch 2.15's."""

import operator
import re

import pytest

import opyard


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- subtraction and negation with bools -----------------------------------------------------

SUB_ONE = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a "
           "mask, use the `~` or `logical_not()` operator instead.")
SUB_TWO = ("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
           "`logical_xor()` operator instead.")
NEG = ("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, use "
       "the `~` or `logical_not()` operator instead.")


def _b():
    return t([True, False])


BOOL_SUB = [
    ("float - True", lambda: t([1.0, 2.0]) - True, SUB_ONE),
    ("True - float", lambda: True - t([1.0, 2.0]), SUB_ONE),
    ("int - True", lambda: t([1, 2]) - True, SUB_ONE),
    ("float.sub(True)", lambda: t([1.0]).sub(True), SUB_ONE),
    ("opyard.sub(float, True)", lambda: opyard.sub(t([1.0]), True), SUB_ONE),
    ("float.sub_(True)", lambda: t([1.0]).sub_(True), SUB_ONE),
    ("bool - 1", lambda: _b() - 1, SUB_ONE),
    ("1 - bool", lambda: 1 - _b(), SUB_ONE),
    ("bool - float tensor", lambda: _b() - t([1.0, 2.0]), SUB_ONE),
    ("float.sub(bool tensor)", lambda: t([1.0, 2.0]).sub(_b()), SUB_ONE),
    ("bool.sub(1, alpha=2)", lambda: _b().sub(1, alpha=2), SUB_ONE),
    ("bool - bool", lambda: _b() - _b(), SUB_TWO),
    ("bool - True", lambda: _b() - True, SUB_TWO),
    ("bool.sub_(bool)", lambda: _b().sub_(_b()), SUB_TWO),
    ("-bool", lambda: -_b(), NEG),
    ("bool.neg()", lambda: _b().neg(), NEG),
    ("opyard.neg(bool)", lambda: opyard.neg(_b()), NEG),
    ("bool.neg_()", lambda: _b().neg_(), NEG),
]


@pytest.mark.parametrize("call, message", [c[1:] for c in BOOL_SUB], ids=[c[0] for c in BOOL_SUB])
def test_bool_subtraction_and_negation_raise_as_torch(call, message):
    with pytest.raises(NotImplementedError, match="^" + re.escape(message) + "$"):
        call()


def test_bool_addition_and_plain_subtraction_still_work():
    assert (_b() + _b()).tolist() == [True, False]
    assert (t([1.0, 2.0]) - 1).tolist() == [0.0, 1.0] and (t([3, 4]) - t([1, 1])).tolist() == [2, 3]
    assert (t([1.0]) - t([0.5], dtype=opyard.float64)).tolist() == [0.5]


# --- complex numbers have no order; bitwise ops need integers --------------------------------

def _c():
    return t([1 + 1j, 2 + 0j])


def _not_impl(kernel, dtype):
    return NotImplementedError, f"\"{kernel}\" not implemented for '{dtype}'"


COMPLEX_ERRORS = [
    ("c < c", lambda: _c() < _c(), *_not_impl("lt_cpu", "ComplexFloat")),
    ("c > c", lambda: _c() > _c(), *_not_impl("gt_cpu", "ComplexFloat")),
    ("c <= c", lambda: _c() <= _c(), *_not_impl("le_cpu", "ComplexFloat")),
    ("c >= c", lambda: _c() >= _c(), *_not_impl("ge_cpu", "ComplexFloat")),
    ("c < 1", lambda: _c() < 1, *_not_impl("lt_cpu", "ComplexFloat")),
    ("float < c", lambda: t([1.0, 2.0]) < _c(), *_not_impl("lt_cpu", "ComplexFloat")),
    ("complex128 < 1", lambda: _c().to(opyard.complex128) < 1, *_not_impl("lt_cpu", "ComplexDouble")),
    ("c.max()", lambda: _c().max(), *_not_impl("max_all", "ComplexFloat")),
    ("c.min()", lambda: _c().min(), *_not_impl("min_all", "ComplexFloat")),
    ("complex128 max()", lambda: _c().to(opyard.complex128).max(), *_not_impl("max_all", "ComplexDouble")),
    ("c.amax()", lambda: _c().amax(), *_not_impl("max_values_cpu", "ComplexFloat")),
    ("c.amin()", lambda: _c().amin(), *_not_impl("min_values_cpu", "ComplexFloat")),
    ("c.max(0)", lambda: _c().max(0), TypeError, "max(): does not support complex input"),
    ("c.min(0)", lambda: _c().min(0), TypeError, "min(): does not support complex input"),
    ("c.argmax()", lambda: _c().argmax(), TypeError, "argmax(): does not support complex input"),
    ("c.argmin(0)", lambda: _c().argmin(0), TypeError, "argmin(): does not support complex input"),
    ("opyard.max(c, c)", lambda: opyard.max(_c(), _c()), TypeError, "maximum not implemented for complex tensors."),
    ("maximum(float, c)", lambda: opyard.maximum(t([1.0, 2.0]), _c()), TypeError,
     "maximum not implemented for complex tensors."),
    ("minimum(c, c)", lambda: opyard.minimum(_c(), _c()), TypeError, "minimum not implemented for complex tensors."),
    ("logaddexp2(c, c)", lambda: opyard.logaddexp2(_c(), _c()), *_not_impl("logaddexp2_cpu", "ComplexFloat")),
    ("logaddexp2(long, long)", lambda: opyard.logaddexp2(t([1, 2]), t([3, 4])), *_not_impl("logaddexp2_cpu", "Long")),
    ("logaddexp2(bool, bool)", lambda: opyard.logaddexp2(t([True]), t([False])), *_not_impl("logaddexp2_cpu", "Bool")),
    ("c.clamp(0, 1)", lambda: _c().clamp(0, 1), NotImplementedError, "clamp is not supported for complex types"),
    ("clamp(c, min=0)", lambda: opyard.clamp(_c(), min=0), NotImplementedError,
     "clamp is not supported for complex types"),
    ("c.clamp_min(0)", lambda: _c().clamp_min(0), NotImplementedError, "clamp is not supported for complex types"),
    ("c.clamp_(0)", lambda: _c().clamp_(0), NotImplementedError, "clamp is not supported for complex types"),
    ("c.sort()", lambda: _c().sort(), TypeError, " Sort does not support complex dtypes on CPU"),
    ("c.sort(stable=True)", lambda: _c().sort(stable=True), TypeError, " Sort does not support complex dtypes on CPU"),
    ("c.argsort()", lambda: _c().argsort(), TypeError, " Sort does not support complex dtypes on CPU"),
    ("c.topk(1)", lambda: _c().topk(1), TypeError, " topk does not support complex dtypes on CPU"),
    ("c // c", lambda: _c() // _c(), *_not_impl("div_floor_cpu", "ComplexFloat")),
    ("c // 2", lambda: _c() // 2, *_not_impl("div_floor_cpu", "ComplexFloat")),
    ("float // c", lambda: t([1.0, 2.0]) // _c(), *_not_impl("div_floor_cpu", "ComplexFloat")),
    ("c % c", lambda: _c() % _c(), *_not_impl("remainder_cpu", "ComplexFloat")),
    ("c % 2", lambda: _c() % 2, *_not_impl("remainder_cpu", "ComplexFloat")),
    ("div(c, c, floor)", lambda: opyard.div(_c(), _c(), rounding_mode="floor"),
     *_not_impl("div_floor_cpu", "ComplexFloat")),
    ("div(c, c, trunc)", lambda: opyard.div(_c(), _c(), rounding_mode="trunc"),
     *_not_impl("div_trunc_cpu", "ComplexFloat")),
    ("fmod(c, 2)", lambda: opyard.fmod(_c(), 2), *_not_impl("fmod_cpu", "ComplexFloat")),
    ("float.fmod(c)", lambda: t([1.0, 2.0]).fmod(_c()), *_not_impl("fmod_cpu", "ComplexFloat")),
]


@pytest.mark.parametrize("call, exc, message", [c[1:] for c in COMPLEX_ERRORS], ids=[c[0] for c in COMPLEX_ERRORS])
def test_complex_errors_match_torch(call, exc, message):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        call()


def test_complex_equality_and_arithmetic_still_work():
    assert (_c() == _c()).tolist() == [True, True] and (_c() != 1).tolist() == [True, True]
    assert (_c() * 2).tolist() == [2 + 2j, 4 + 0j]


def _f():
    return t([1.0, 2.0])


BITWISE_ERRORS = [(f"{lhs_id} {sym} {rhs_id}", op, lhs, rhs, kernel, dtype)
                  for sym, op, kernel in (("&", operator.and_, "bitwise_and_cpu"), ("|", operator.or_, "bitwise_or_cpu"),
                                          ("^", operator.xor, "bitwise_xor_cpu"), ("<<", operator.lshift, "lshift_cpu"),
                                          (">>", operator.rshift, "rshift_cpu"))
                  for lhs_id, lhs, rhs_id, rhs, dtype in (
                      ("float", _f, "float", _f, "Float"),
                      ("float", _f, "1", lambda: 1, "Float"),
                      ("int", lambda: t([1, 2]), "float", _f, "Float"),
                      ("complex", _c, "complex", _c, "ComplexFloat"),
                      ("half", lambda: _f().half(), "half", lambda: _f().half(), "Half"),
                      ("double", lambda: _f().double(), "int", lambda: t([1, 2]), "Double"))]


@pytest.mark.parametrize("op, lhs, rhs, kernel, dtype", [c[1:] for c in BITWISE_ERRORS],
                         ids=[c[0] for c in BITWISE_ERRORS])
def test_bitwise_ops_on_non_integers_raise_as_torch(op, lhs, rhs, kernel, dtype):
    a, b = lhs(), rhs()
    with pytest.raises(NotImplementedError, match="^" + re.escape(f"\"{kernel}\" not implemented for '{dtype}'") + "$"):
        op(a, b)


BITWISE_METHODS = [
    ("int & 1.5", lambda: t([1]) & 1.5, "bitwise_and_cpu", "Float"),
    ("bool & 1.5", lambda: t([True]) & 1.5, "bitwise_and_cpu", "Float"),
    ("int.bitwise_and(1.5)", lambda: t([1]).bitwise_and(1.5), "bitwise_and_cpu", "Float"),
    ("float.bitwise_not()", lambda: _f().bitwise_not(), "bitwise_not_cpu", "Float"),
    ("complex.bitwise_not()", lambda: _c().bitwise_not(), "bitwise_not_cpu", "ComplexFloat"),
    ("opyard.bitwise_not(double)", lambda: opyard.bitwise_not(_f().double()), "bitwise_not_cpu", "Double"),
]


@pytest.mark.parametrize("call, kernel, dtype", [c[1:] for c in BITWISE_METHODS], ids=[c[0] for c in BITWISE_METHODS])
def test_bitwise_functions_on_non_integers_raise_as_torch(call, kernel, dtype):
    with pytest.raises(NotImplementedError, match="^" + re.escape(f"\"{kernel}\" not implemented for '{dtype}'") + "$"):
        call()


@pytest.mark.parametrize("make, dtype", [(_f, "Float"), (_c, "ComplexFloat"), (lambda: _f().half(), "Half"),
                                         (lambda: _f().double(), "Double")], ids=["float", "complex", "half", "double"])
def test_invert_operator_on_non_integers_is_a_type_error(make, dtype):
    # torch's `~` raises TypeError("~ (operator.invert) is only implemented on integer and Boolean-type
    # tensors") before dispatch; opyard's `~` is the bitwise_not packet, whose error is both types.
    x = make()
    with pytest.raises(TypeError, match="^" + re.escape(f"\"bitwise_not_cpu\" not implemented for '{dtype}'") + "$"):
        ~x


def test_bitwise_ops_on_integers_and_bools_still_work():
    assert (~t([True, False])).tolist() == [False, True] and (~t([0, 5])).tolist() == [-1, -6]
    assert (t([True]) << 1).tolist() == [2] and (t([6]) & 3).tolist() == [2]
