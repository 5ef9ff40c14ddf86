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
