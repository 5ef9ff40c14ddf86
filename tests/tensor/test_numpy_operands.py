"""numpy values as operands, as torch's argument parser takes them: an ndarray on the other side of
``==`` compares elementwise (broadcast, shapes checked), a numpy bool scalar is the float 1.0 or 0.0
where a Scalar goes. Every expected value, type and message is torch 2.15's."""


import numpy as np
import pytest

import opyard


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- numpy arrays as the other operand of == -------------------------------------------------

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


# --- a numpy bool scalar is the float 1.0 or 0.0 where a Scalar goes ----------------------------

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
