"""torch parity of the corners library code hits: ``needs_input_grad`` without grad mode, in-place
ops that would change the dtype or write overlapping memory, bool subtraction, ops complex numbers
have no meaning for, bitwise ops on floating tensors, Python ints past every dtype, ndarray
operands. Every expected type and message is torch 2.15's for the same call."""

import operator
import re

import numpy as np
import pytest

import opyard
from opyard.autograd import Function
from opyard.autograd.function import once_differentiable


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- 1. ctx.needs_input_grad reports requires_grad, in grad mode or not -------------------------

def _flags_seen(kind, grad_on):
    seen = []

    class Plain(Function):
        @staticmethod
        def forward(ctx, x, k):
            seen.append(ctx.needs_input_grad)
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    class Setup(Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append(ctx.needs_input_grad)

        @staticmethod
        def backward(ctx, g):
            return g, None

    class Once(Plain):
        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            return g, None

    x = t([1.0], requires_grad=True)
    with opyard.set_grad_enabled(grad_on):
        if kind == "keywords":
            Plain.apply(x, k=2.0)
        else:
            {"forward": Plain, "setup_context": Setup, "once_differentiable": Once}[kind].apply(x, 2.0)
    return seen


@pytest.mark.parametrize("grad_on", [True, False], ids=["grad", "no_grad"])
@pytest.mark.parametrize("kind", ["forward", "setup_context", "once_differentiable", "keywords"])
def test_needs_input_grad_is_requires_grad_with_or_without_grad_mode(kind, grad_on):
    assert _flags_seen(kind, grad_on) == [(True, False)]


def test_needs_input_grad_without_grad_records_no_graph():
    class Keep(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    with opyard.no_grad():
        y = Keep.apply(t([1.0], requires_grad=True), 2.0)
    assert y.grad_fn is None and not y.requires_grad


def test_register_autograd_setup_context_and_backward_see_the_flags():
    seen = []

    @opyard.library.custom_op("parity_leftovers::scale", mutates_args=())
    def scale(x: opyard.Tensor, y: opyard.Tensor, k: float) -> opyard.Tensor:
        return x * y * k

    def setup(ctx, inputs, output):
        seen.append(("setup", ctx.needs_input_grad))
        ctx.k = inputs[2]

    def backward(ctx, g):
        seen.append(("backward", ctx.needs_input_grad))
        return g * ctx.k, None, None

    scale.register_autograd(backward, setup_context=setup)
    x, y = t([1.0, 2.0], requires_grad=True), t([1.0, 2.0])
    with opyard.no_grad():  # torch runs no autograd kernel here: setup_context is not called
        scale(x, y, 2.0)
    assert seen == []
    scale(x, y, 2.0).sum().backward()
    # torch's node has a trailing metadata input while setup_context runs; backward sees the arguments
    assert seen == [("setup", (True, False, False, False)), ("backward", (True, False, False))]


# --- 6. in-place ops that would change the dtype, or write overlapping memory -------------------

def _iadd(x, v):
    x += v
    return x


def _idiv(x, v):
    x /= v
    return x


CAST = "result type {} can't be cast to the desired output type {}"
OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
           "location. Please clone() the tensor before performing the operation.")

INPLACE_ERRORS = [
    ("int += 1.5", lambda: _iadd(t([1, 2]), 1.5), RuntimeError, CAST.format("Float", "Long")),
    ("int /= 2", lambda: _idiv(t([1, 2]), 2), RuntimeError, CAST.format("Float", "Long")),
    ("int.div_(2)", lambda: t([1, 2]).div_(2), RuntimeError, CAST.format("Float", "Long")),
    ("int.add_(float tensor)", lambda: t([1, 2]).add_(t([1.0, 2.0])), RuntimeError, CAST.format("Float", "Long")),
    ("int.mul_(float tensor)", lambda: t([1, 2]).mul_(t([1.0, 2.0])), RuntimeError, CAST.format("Float", "Long")),
    ("int.sub_(1.5)", lambda: t([1, 2]).sub_(1.5), RuntimeError, CAST.format("Float", "Long")),
    ("int.sin_()", lambda: t([1, 2]).sin_(), RuntimeError, CAST.format("Float", "Long")),
    ("int.pow_(0.5)", lambda: t([1, 2]).pow_(0.5), RuntimeError, CAST.format("Float", "Long")),
    ("bool += 1", lambda: _iadd(t([True, False]), 1), RuntimeError, CAST.format("Long", "Bool")),
    ("float += complex", lambda: _iadd(t([1.0]), t([1j])), RuntimeError, CAST.format("ComplexFloat", "Float")),
    ("out= int for a float result", lambda: opyard.add(t([1.0]), t([1.0]), out=opyard.empty(1, dtype=opyard.int64)),
     RuntimeError, CAST.format("Float", "Long")),
    ("out= bool for a float result", lambda: opyard.add(t([1.0]), t([1.0]), out=opyard.empty(1, dtype=opyard.bool)),
     RuntimeError, CAST.format("Float", "Bool")),
    ("out= int32 for mul", lambda: opyard.mul(t([1.0]), t([1.0]), out=opyard.empty(1, dtype=opyard.int32)),
     RuntimeError, CAST.format("Float", "Int")),
    ("out= int for div of ints", lambda: opyard.div(t([1]), t([1]), out=opyard.empty(1, dtype=opyard.int64)),
     RuntimeError, CAST.format("Float", "Long")),
    ("expanded add_", lambda: opyard.zeros(1).expand(3).add_(1), RuntimeError, OVERLAP),
    ("expanded +=", lambda: _iadd(opyard.zeros(1).expand(3), 1), RuntimeError, OVERLAP),
    ("expanded mul_", lambda: opyard.zeros(1).expand(3).mul_(2), RuntimeError, OVERLAP),
    ("expanded sin_", lambda: opyard.zeros(1).expand(3).sin_(), RuntimeError, OVERLAP),
    ("expanded 2-d add_", lambda: opyard.zeros(3, 1).expand(3, 2).add_(1), RuntimeError, OVERLAP),
    ("expanded copy_", lambda: opyard.zeros(1).expand(3).copy_(t([1.0, 2.0, 3.0])), RuntimeError, OVERLAP),
]


@pytest.mark.parametrize("call, exc, message", [c[1:] for c in INPLACE_ERRORS], ids=[c[0] for c in INPLACE_ERRORS])
def test_inplace_errors_match_torch(call, exc, message):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        call()


INPLACE_OK = [
    ("bool += True", lambda: _iadd(t([True, False]), True), [True, True]),
    ("int += True", lambda: _iadd(t([1, 2]), True), [2, 3]),
    ("int.neg_()", lambda: t([1, 2]).neg_(), [-1, -2]),
    ("out= float for an int result", lambda: opyard.add(t([1]), t([1]), out=opyard.empty(1)), [2.0]),
    ("out= float for eq", lambda: opyard.eq(t([1.0]), t([1.0]), out=opyard.empty(1)), [1.0]),
    ("expanded fill_", lambda: opyard.zeros(1).expand(3).fill_(2), [2.0, 2.0, 2.0]),
    ("expanded zero_", lambda: opyard.ones(1).expand(3).zero_(), [0.0, 0.0, 0.0]),
]


@pytest.mark.parametrize("call, expected", [c[1:] for c in INPLACE_OK], ids=[c[0] for c in INPLACE_OK])
def test_inplace_results_match_torch(call, expected):
    assert call().tolist() == expected


def test_fill_of_an_expanded_view_writes_through_to_its_base():
    base = opyard.zeros(2, 1)
    view = base.expand(2, 3)
    v0 = base._version
    view.fill_(4)
    assert base.tolist() == [[4.0], [4.0]] and view.tolist() == [[4.0] * 3] * 2
    assert base._version > v0


def test_writes_into_a_read_only_numpy_array_still_refuse():
    # torch calls this undefined behaviour (and writes); opyard keeps the array's promise.
    ro = np.ones(3, np.float32)
    ro.flags.writeable = False
    x = opyard.from_numpy(ro)
    for write in (lambda: x.fill_(2), lambda: x.zero_(), lambda: x.add_(1), lambda: x[::2].mul_(2)):
        with pytest.raises(RuntimeError, match="unsupported operation: the tensor's memory is read-only; "
                                               r"clone\(\) it first"):
            write()
    assert ro.tolist() == [1.0, 1.0, 1.0]


def test_a_read_only_view_of_a_writable_array_is_not_written_through():
    owner = np.ones(3, np.float32)
    view = owner[:]
    view.flags.writeable = False
    x = opyard.from_numpy(view)
    with pytest.raises(RuntimeError, match="the tensor's memory is read-only"):
        x.fill_(2)
    assert owner.tolist() == [1.0, 1.0, 1.0]


# --- 2. subtraction and negation with bools -----------------------------------------------------

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


# --- 3. complex numbers have no order; bitwise ops need integers --------------------------------

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


# --- 4. Python ints past what a Scalar or the element type holds --------------------------------

TOO_BIG = [
    ("float + 10**30", lambda: t([1.0, 2.0]) + 10**30),
    ("float * 2**70", lambda: t([1.0, 2.0]) * 2**70),
    ("float + 10**400", lambda: t([1.0]) + 10**400),
    ("int * 2**64", lambda: t([1, 2]) * 2**64),
    ("int + (-2**63 - 1)", lambda: t([1, 2]) + (-2**63 - 1)),
    ("opyard.full((2,), 10**30)", lambda: opyard.full((2,), 10**30)),
    ("full float64 10**30", lambda: opyard.full((2,), 10**30, dtype=opyard.float64)),
    ("add(1, alpha=10**30)", lambda: t([1.0]).add(1, alpha=10**30)),
    ("float.fill_(10**30)", lambda: t([1.0]).fill_(10**30)),
    ("int.fill_(2**64)", lambda: t([1]).fill_(2**64)),
    ("opyard.add(float, 2**70)", lambda: opyard.add(t([1.0]), 2**70)),
]


@pytest.mark.parametrize("call", [c[1] for c in TOO_BIG], ids=[c[0] for c in TOO_BIG])
def test_ints_no_scalar_holds_raise_overflow_error(call):
    # torch: OverflowError("int too big to convert"); opyard's also names the argument and schema,
    # and stays the ArgumentError (a TypeError and RuntimeError) it was.
    with pytest.raises(OverflowError, match="int too big to convert") as info:
        call()
    assert isinstance(info.value, opyard._core.ArgumentError)


def test_scalar_range_edges_still_fit():
    assert (t([1.0]) + 2**63).tolist() == [2.0**63]
    assert (t([1, 2]) + 2**63).tolist() == [-2**63 + 1, -2**63 + 2]  # wraps, as torch's does
    assert (t([1, 2]) + (-2**63)).tolist() == [-2**63 + 1, -2**63 + 2]
    assert (t([1], dtype=opyard.uint8) + 300).tolist() == [45]
    assert (t([1.0], dtype=opyard.float16) + 10**10).tolist() == [float("inf")]


def _conv(c_type):
    return f"value cannot be converted to type {c_type} without overflow"


FILL_OVERFLOW = [
    ("int8 300", opyard.int8, 300, "int8_t"),
    ("int8 -129", opyard.int8, -129, "int8_t"),
    ("int16 2**20", opyard.int16, 2**20, "int16_t"),
    ("int32 2**40", opyard.int32, 2**40, "int"),
    ("int32 1e20", opyard.int32, 1e20, "int"),
    ("int32 nan", opyard.int32, float("nan"), "int"),
    ("int32 inf", opyard.int32, float("inf"), "int"),
    ("int32 1+2j", opyard.int32, 1 + 2j, "int"),
    ("int64 2**63", opyard.int64, 2**63, "int64_t"),
    ("int64 2**64-1", opyard.int64, 2**64 - 1, "int64_t"),
    ("uint8 256.0", opyard.uint8, 256.0, "uint8_t"),
    ("uint8 -1.0", opyard.uint8, -1.0, "uint8_t"),
    ("uint8 -256", opyard.uint8, -256, "uint8_t"),
    ("float32 1e300", opyard.float32, 1e300, "float"),
    ("float16 70000", opyard.float16, 70000, "c10::Half"),
    ("float16 1e10", opyard.float16, 1e10, "c10::Half"),
    ("float16 65519.0", opyard.float16, 65519.0, "c10::Half"),
    ("float16 -10**6", opyard.float16, -10**6, "c10::Half"),
    ("bfloat16 1e300", opyard.bfloat16, 1e300, "c10::BFloat16"),
    ("float32 -3.5e38", opyard.float32, -3.5e38, "float"),
    ("float32 1+2j", opyard.float32, 1 + 2j, "float"),
    ("complex64 1e300j", opyard.complex64, complex(1, 1e300), "c10::complex<float>"),
]


@pytest.mark.parametrize("dtype, value, c_type", [c[1:] for c in FILL_OVERFLOW], ids=[c[0] for c in FILL_OVERFLOW])
def test_full_and_fill_check_the_element_type_as_torch(dtype, value, c_type):
    with pytest.raises(RuntimeError, match="^" + re.escape(_conv(c_type)) + "$"):
        opyard.full((2,), value, dtype=dtype)
    x = opyard.zeros(2, dtype=dtype)
    with pytest.raises(RuntimeError, match="^" + re.escape(_conv(c_type)) + "$"):
        x.fill_(value)
    assert x.tolist() == [0, 0]


def test_full_with_an_inferred_int64_checks_too():
    with pytest.raises(RuntimeError, match="^" + re.escape(_conv("int64_t")) + "$"):
        opyard.full((2,), 2**63)
    assert opyard.full((2,), 2**63 - 1).tolist() == [2**63 - 1] * 2


FILL_OK = [
    ("uint8 -1 wraps", opyard.uint8, -1, [255, 255]),
    ("uint8 -255 wraps", opyard.uint8, -255, [1, 1]),
    ("int8 -128", opyard.int8, -128, [-128, -128]),
    ("int32 1.5 truncates", opyard.int32, 1.5, [1, 1]),
    ("int32 3+0j", opyard.int32, 3 + 0j, [3, 3]),
    ("float16 inf", opyard.float16, float("inf"), [float("inf")] * 2),
    ("float16 65504", opyard.float16, 65504.0, [65504.0] * 2),
    ("float32 inf", opyard.float32, float("inf"), [float("inf")] * 2),
    ("float32 2**64-1", opyard.float32, 2**64 - 1, [float(np.float32(2**64 - 1))] * 2),
    ("bool 1e300", opyard.bool, 1e300, [True, True]),
    ("int64 True", opyard.int64, True, [1, 1]),
]


@pytest.mark.parametrize("dtype, value, expected", [c[1:] for c in FILL_OK], ids=[c[0] for c in FILL_OK])
def test_full_and_fill_values_that_fit_as_torch(dtype, value, expected):
    assert opyard.full((2,), value, dtype=dtype).tolist() == expected
    assert opyard.zeros(2, dtype=dtype).fill_(value).tolist() == expected


# --- 5. numpy arrays as the other operand of == -------------------------------------------------

ND_COMPARE = [
    ("t == nd", lambda a, n: a == n, [True, False]),
    ("nd == t", lambda a, n: n == a, [True, False]),
    ("t.__eq__(nd)", lambda a, n: a.__eq__(n), [True, False]),
    ("t == int nd", lambda a, n: a == n.astype(np.int64), [True, False]),
    ("int t == float nd", lambda a, n: a.long() == n + 0.5 * (n > 1), [True, False]),
]


@pytest.mark.parametrize("compare, expected", [c[1:] for c in ND_COMPARE], ids=[c[0] for c in ND_COMPARE])
def test_eq_with_an_ndarray_compares_elementwise(compare, expected):
    r = compare(t([1.0, 2.0]), np.array([1.0, 3.0]))
    assert isinstance(r, opyard.Tensor) and r.dtype == opyard.bool and r.tolist() == expected


def test_eq_with_an_ndarray_broadcasts_and_checks_shapes_as_torch():
    assert (t([1.0, 2.0]) == np.array([[1.0], [2.0]])).tolist() == [[True, False], [False, True]]
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(2\) must match the size of tensor b \(3\) "
                                           r"at non-singleton dimension 0"):
        t([1.0, 2.0]) == np.array([1.0, 2.0, 3.0])


def test_ndarrays_of_non_numbers_and_other_operators_keep_torchs_answers():
    x = t([1.0, 2.0])
    # torch's `!=` with an ndarray is Python's identity fallback: True, either side.
    assert (x != np.array([1.0, 3.0])) is True and (np.array([1.0, 3.0]) != x) is True
    assert (x == np.array(["a", "b"])) is False
    assert (x == np.array([1, None], dtype=object)) is False
    assert (x == [1.0, 2.0]) is False and (x == None) is False  # noqa: E711
    with pytest.raises(TypeError, match="'<' not supported between instances of 'Tensor' and 'numpy.ndarray'"):
        x < np.array([1.0, 3.0])
    with pytest.raises(TypeError):  # torch: TypeError from eq()'s argument parser
        x.eq(np.array([1.0, 3.0]))
    with pytest.raises(TypeError):
        opyard.eq(x, np.array([1.0, 3.0]))
