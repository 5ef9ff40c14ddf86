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
