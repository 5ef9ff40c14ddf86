"""Python numbers past what a Scalar or the element type holds: torch's OverflowError and
RuntimeError for operands, ``full``/``fill_`` values and ``masked_fill``/``index_fill`` values
(complex fills of real tensors included); values in range fill as torch's do."""

import re

import numpy as np
import pytest

import opyard


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- Python ints past what a Scalar or the element type holds --------------------------------

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


# --- masked_fill / index_fill check the value against the dtype, as full and fill_ do -----------

_M = [True, False, True]


def _fills(x, value):
    idx = t([0])
    mask = t(_M)
    return [lambda: x.masked_fill(mask, value), lambda: x.clone().masked_fill_(mask, value),
            lambda: x.index_fill(0, idx, value), lambda: x.clone().index_fill_(0, idx, value)]


@pytest.mark.parametrize("dtype, value, ctype", [
    (opyard.int64, 2**63, "int64_t"), (opyard.int64, float("inf"), "int64_t"), (opyard.int64, 1e30, "int64_t"),
    (opyard.int8, 300, "int8_t"), (opyard.uint8, -300, "uint8_t"),
    (opyard.float32, 1e300, "float"), (opyard.int64, t(1e30), "int64_t"), (opyard.int8, t(300), "int8_t"),
])
def test_fills_past_the_dtype_raise_as_torch(dtype, value, ctype):
    x = t([1, 2, 3], dtype=dtype)
    for fill in _fills(x, value):
        with pytest.raises(RuntimeError, match=rf"^value cannot be converted to type {ctype} without overflow$"):
            fill()
    assert x.tolist() == [1, 2, 3]


@pytest.mark.parametrize("dtype", [opyard.int64, opyard.float32, opyard.bool])
@pytest.mark.parametrize("value", [1 + 2j, 3 + 0j, t(1 + 2j)])
def test_complex_fills_of_a_real_tensor_as_torch(dtype, value):
    x = t([1, 0], dtype=dtype)
    for fill in (lambda: x.index_fill(0, t([0]), value), lambda: x.clone().index_fill_(0, t([0]), value)):
        with pytest.raises(RuntimeError, match=r"^index_fill_\(\): Converting complex Scalar to non-complex type is not"):
            fill()
    mask = t([True, False])
    if dtype is opyard.bool:
        assert x.masked_fill(mask, value).tolist() == [True, False]
    elif value == 3:
        assert x.masked_fill(mask, value).tolist() == [3, 0]
    else:
        with pytest.raises(RuntimeError, match="^value cannot be converted to type (int64_t|float) without overflow$"):
            x.masked_fill(mask, value)


@pytest.mark.parametrize("dtype, value, masked, indexed", [
    (opyard.int64, 2**63 - 1, [2**63 - 1, 2, 2**63 - 1], [2**63 - 1, 2, 3]),
    (opyard.int64, -2**63, [-2**63, 2, -2**63], [-2**63, 2, 3]),
    (opyard.uint8, -1, [255, 2, 255], [255, 2, 3]),
    (opyard.int64, 2.7, [2, 2, 2], [2, 2, 3]),
    (opyard.bool, 5, [True, True, True], [True, True, True]),
    (opyard.float32, float("inf"), [float("inf"), 2.0, float("inf")], [float("inf"), 2.0, 3.0]),
    (opyard.int64, t(2**62), [2**62, 2, 2**62], [2**62, 2, 3]),
])
def test_fills_in_range_as_torch(dtype, value, masked, indexed):
    x = t([1, 2, 3], dtype=dtype)
    results = [f().tolist() for f in _fills(x, value)]
    assert results == [masked, masked, indexed, indexed]
