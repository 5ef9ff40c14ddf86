"""In-place ops that would change the dtype or write overlapping memory raise torch's errors;
fills of an expanded view write through to its base; read-only arrays are never written.
Every expected type and message is torch 2.15's for the same call."""

import re

import numpy as np
import pytest

import opyard


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- in-place ops that would change the dtype, or write overlapping memory -------------------

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
