"""``opyard.utils._pytree``: the one flatten/unflatten that vmap, the func transforms and make_fx share."""

import collections

import pytest

import opyard
from opyard.utils._pytree import LEAF, TreeSpec, broadcast_prefix, describe, tree_flatten, tree_leaves, tree_unflatten

Point = collections.namedtuple("Point", ["x", "y"])


class MyList(list):
    pass


def _max_result():
    return opyard.tensor([[1.0, 3.0], [4.0, 2.0]]).max(1)


@pytest.mark.parametrize("tree, leaves", [
    (1, [1]),
    ((1, [2, 3]), [1, 2, 3]),
    ({"b": 1, "a": (2, 3)}, [1, 2, 3]),  # dict values in insertion order
    (collections.OrderedDict([("z", 1), ("y", 2)]), [1, 2]),
    (Point(1, [2, 3]), [1, 2, 3]),
    (MyList([1, 2]), [MyList([1, 2])]),  # a subclass of list is a leaf, as in torch
    ((), []),
    (None, [None]),
])
def test_round_trip(tree, leaves):
    flat, spec = tree_flatten(tree)
    assert flat == leaves and tree_leaves(tree) == leaves
    back = tree_unflatten(flat, spec)
    assert back == tree and type(back) is type(tree)


def test_namedtuple_rebuilt_with_make():
    _, spec = tree_flatten(Point(1, 2))
    out = tree_unflatten([10, 20], spec)
    assert out == Point(10, 20) and out.y == 20


def test_structseq_rebuilt_from_one_sequence():
    result = _max_result()
    flat, spec = tree_flatten(result)
    assert len(flat) == 2 and spec.type is type(result)
    out = tree_unflatten([f * 2 for f in flat], spec)
    assert type(out) is type(result)
    assert opyard.allclose(out.values, result.values * 2) and bool((out.indices == result.indices * 2).all())


def test_leaf_spec_and_spec_equality():
    assert tree_flatten(opyard.ones(2))[1] is LEAF
    assert tree_flatten((1, {"a": 2}))[1] == tree_flatten((5, {"a": 6}))[1]
    assert tree_flatten((1, {"a": 2}))[1] != tree_flatten((1, {"b": 2}))[1]
    assert tree_flatten([1, 2])[1] != tree_flatten((1, 2))[1]
    assert tree_flatten(Point(1, 2))[1].num_leaves == 2


@pytest.mark.parametrize("prefix, tree, expected", [
    (0, (1, [2, 3]), [0, 0, 0]),
    ((0, None), (1, [2, 3]), [0, None, None]),
    ((0, {"a": 1}), (5, {"a": (6, 7)}), [0, 1, 1]),
    ((0, 1, 2), (1, 2), None),        # different lengths
    ([0, 1], (1, 2), None),           # list against tuple
    ({"b": 0}, {"a": 1}, None),       # different keys
])
def test_broadcast_prefix(prefix, tree, expected):
    assert broadcast_prefix(prefix, tree_flatten(tree)[1]) == expected


@pytest.mark.parametrize("tree, text", [
    (1, "a value"),
    ([1, 2], "list of 2"),
    ((1,), "tuple of 1"),
    ({"a": 1, "b": 2}, "dict with keys ['a', 'b']"),
    (Point(1, 2), "Point of 2"),
])
def test_describe(tree, text):
    assert describe(tree_flatten(tree)[1]) == text


def test_spec_repr_names_the_structure():
    assert repr(tree_flatten((1, {"a": 2}))[1]) == "TreeSpec(tuple, None, [*,\n  TreeSpec(dict, ['a'], [*])])"
    assert isinstance(tree_flatten([1])[1], TreeSpec)


def test_too_few_leaves_raises():
    _, spec = tree_flatten((1, 2))
    with pytest.raises(StopIteration):
        tree_unflatten([1], spec)


def test_make_fx_and_vmap_share_it():
    gm = opyard.fx.make_fx(lambda p: p.x + p.y[0])(Point(opyard.ones(2), [opyard.ones(2)]))
    assert opyard.allclose(gm(Point(opyard.ones(2), [opyard.ones(2)])), opyard.full((2,), 2.0))
    with pytest.raises(TypeError, match=r"input p must have the structure it was traced with \(Point of 2\), got tuple of 2"):
        gm((opyard.ones(2), [opyard.ones(2)]))
    out = opyard.vmap(lambda p: p.x * p.y)(Point(opyard.ones(3, 2), opyard.ones(3, 2) * 2))
    assert opyard.allclose(out, opyard.full((3, 2), 2.0))
