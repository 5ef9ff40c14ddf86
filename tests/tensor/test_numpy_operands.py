"""torch parity of small corners: the node ``narrow`` records, ``Tensor._is_view()``, fills past
the dtype's range in ``masked_fill``/``index_fill``, and numpy bool scalars as operands. Every
expected name, value, type and message is torch 2.15's for the same call."""

import numpy as np
import pytest

import opyard


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- 1. narrow is a slice in autograd: its node is a SliceBackward0 -----------------------------

@pytest.mark.parametrize("dim, start, length, grad", [
    (0, 0, 1, [[2.0, 2.0, 2.0], [0.0, 0.0, 0.0]]),
    (1, 1, 2, [[0.0, 2.0, 2.0], [0.0, 2.0, 2.0]]),
    (-1, -2, 1, [[0.0, 2.0, 0.0], [0.0, 2.0, 0.0]]),
])
def test_narrow_records_a_slice_backward(dim, start, length, grad):
    x = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x.narrow(dim, start, length)
    assert type(y.grad_fn).__name__ == "SliceBackward0" and y.grad_fn.name() == "SliceBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    (y * 2).sum().backward()
    assert x.grad.tolist() == grad


# --- 2. Tensor._is_view() --------------------------------------------------------------------

_A = [[1.0, 2.0], [3.0, 4.0]]


@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("make, is_view", [
    (lambda a: a, False), (lambda a: a.view(4), True), (lambda a: a[0:1], True), (lambda a: a[0], True),
    (lambda a: a.narrow(0, 0, 1), True), (lambda a: a.t(), True), (lambda a: a.reshape(4), True),
    (lambda a: a.t().reshape(4), False), (lambda a: a.clone(), False), (lambda a: a.contiguous(), False),
    (lambda a: a.t().contiguous(), False), (lambda a: a.view(4)[1:].t(), True),
])
def test_is_view_answers_as_torch(make, is_view, grad):
    a = t(_A, requires_grad=grad)
    out = make(a)
    assert out._is_view() is is_view
    assert (out._base is not None) is is_view


# --- 3. masked_fill / index_fill check the value against the dtype, as full and fill_ do -----------

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


# --- 4. a numpy bool scalar is the float 1.0 or 0.0 where a Scalar goes ----------------------------

_F, _I, _B = [1.0, 2.0], [1, 2], [True, False]

NP_BOOL = [
    ("float - True", lambda: t(_F) - np.True_, [0.0, 1.0], opyard.float32),
    ("float + True", lambda: t(_F) + np.True_, [2.0, 3.0], opyard.float32),
    ("True - float", lambda: np.True_ - t(_F), [0.0, -1.0], opyard.float32),
    ("True + float", lambda: np.True_ + t(_F), [2.0, 3.0], opyard.float32),
    ("int - True", lambda: t(_I) - np.True_, [0.0, 1.0], opyard.float32),
    ("int + True", lambda: t(_I) + np.True_, [2.0, 3.0], opyard.float32),
    ("int * False", lambda: t(_I) * np.False_, [0.0, 0.0], opyard.float32),
    ("bool + True", lambda: t(_B) + np.True_, [2.0, 1.0], opyard.float32),
    ("float.sub(True)", lambda: t(_F).sub(np.True_), [0.0, 1.0], opyard.float32),
    ("float.sub_(True)", lambda: t(_F).sub_(np.True_), [0.0, 1.0], opyard.float32),
    ("full", lambda: opyard.full((2,), np.True_), [1.0, 1.0], opyard.float32),
    ("int.fill_(True)", lambda: t(_I).fill_(np.True_), [1, 1], opyard.int64),
    ("bool.masked_fill", lambda: t(_B).masked_fill(t(_B), np.False_), [False, False], opyard.bool),
    ("int == True", lambda: t(_I) == np.True_, [True, False], opyard.bool),
]


@pytest.mark.parametrize("fn, values, dtype", [c[1:] for c in NP_BOOL], ids=[c[0] for c in NP_BOOL])
def test_numpy_bool_scalars_are_floats_as_torch(fn, values, dtype):
    r = fn()
    assert r.tolist() == values and r.dtype == dtype


@pytest.mark.parametrize("fn, msg", [
    (lambda: t(_B) - np.True_, "with a bool tensor is not supported"),
    (lambda: t(_F) - True, "with a bool tensor is not supported"),
    (lambda: t(_B) - True, "with two bool tensors is not supported"),
])
def test_bool_subtraction_still_refused_as_torch(fn, msg):
    with pytest.raises(NotImplementedError, match=msg):
        fn()
