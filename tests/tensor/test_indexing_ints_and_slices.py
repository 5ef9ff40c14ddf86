"""Indexing with ints and slices straight to select/slice (``_indexing._ints_and_slices``), and
``Tensor.view``/``reshape``/``expand``/``permute`` as ``_core._SizesMethod`` (Note [Sizes methods]).
"""

import re

import numpy as np
import opyard
import pytest
from opyard import _core, _indexing
from view_checks import _addr


# --- indexing: ints and slices straight to select/slice (``_indexing._ints_and_slices``) ---


KEYS = [0, -1, 2, slice(None), slice(1, None), slice(None, -1), slice(None, None, 2), slice(5, 1),
        (0, 1), (slice(None), 0), (1, slice(1, 3), -1), (slice(None, None, 3), slice(None), 2), (), (0,),
        (slice(-100, 100),), (slice(None), slice(None), slice(None))]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_int_and_slice_keys_match_the_general_path_and_numpy(key):
    a = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    x = opyard.from_numpy(a)
    fast_t = _indexing._ints_and_slices(x, key)
    general, advanced = _indexing._basic_and_advanced(x, key)
    if general is x:
        general = opyard.ops.aten.alias(x)
    assert fast_t is not None and not advanced
    for got in (fast_t, x[key]):
        want = a[key]
        assert got._base is x and got.numpy().strides == want.strides == general.numpy().strides
        assert _addr(got.numpy()) == _addr(want) and np.array_equal(got.numpy(), want)


@pytest.mark.parametrize("key, exc, msg", [
    (3, IndexError, "select(): index 3 out of range for tensor of size [3, 4, 5] at dimension 0"),
    ((0, 0, 0, 0), IndexError, "too many indices for tensor of dimension 3"),
    (slice(None, None, 0), RuntimeError, "slice step must be positive"),
    (slice(None, None, -1), RuntimeError, "slice step must be positive"),
    ((0, 9), IndexError, "index 9 out of range"),
])
def test_int_and_slice_key_errors(key, exc, msg):
    x = opyard.from_numpy(np.zeros((3, 4, 5), np.float32))
    with pytest.raises(exc, match=re.escape(msg)):
        x[key]
    with pytest.raises(IndexError, match="too many indices for tensor of dimension 0"):
        opyard.tensor(1.0)[0]


@pytest.mark.parametrize("key", [True, np.int64(1), (0, None), (Ellipsis, 0), [0, 1], (0, [1, 2])], ids=repr)
def test_other_keys_take_the_general_path(key):
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    x = opyard.from_numpy(a)
    assert _indexing._ints_and_slices(x, key) is None
    assert np.array_equal(x[key].numpy(), a[key])


def test_indexing_a_subclass_takes_the_general_path():
    p = opyard.nn.Parameter(opyard.ones(2, 3))
    assert _indexing._ints_and_slices(p, 0) is None
    assert type(p[0]) is opyard.Tensor and p[0].grad_fn is not None


# --- Tensor.view/reshape/expand/permute as ``_core._SizesMethod`` (Note [Sizes methods]) ---


def test_sizes_methods_take_varargs_or_one_sequence():
    x = opyard.arange(6.0)
    if _core.FAST_PATHS:
        assert isinstance(opyard.Tensor.__dict__["view"], _core._SizesMethod)
        assert callable(opyard.Tensor.view.__wrapped__)
    assert opyard.Tensor.view.__name__ == "view"
    for got in (x.view(2, 3), x.view((2, 3)), x.view([2, 3]), x.view(opyard.Size([2, 3])), x.view(-1, 3),
                x.reshape(2, 3), x.reshape((2, -1)), opyard.Tensor.view(x, 2, 3)):
        assert got.shape == (2, 3) and got._base is x
    assert x.view(6).shape == (6,) and opyard.tensor(1.0).view().shape == ()
    m = x.view(2, 3)
    assert m.permute(1, 0).shape == (3, 2) and m.permute((1, 0)).shape == (3, 2) and m.permute([-1, 0]).shape == (3, 2)
    assert m[:1].expand(4, 3).shape == (4, 3) and m[:1].expand((4, -1)).shape == (4, 3)
    assert m[:1].expand(4, 3, implicit=False).shape == (4, 3)  # a keyword: the Python method


def test_sizes_methods_hand_other_calls_to_the_python_method():
    x = opyard.arange(6.0)
    assert x.view(opyard.int32).dtype == opyard.int32 and x.view(dtype=opyard.int32).dtype == opyard.int32
    with pytest.raises(RuntimeError, match=re.escape("shape '[5]' is invalid for input of size 6")):
        x.view(5)
    with pytest.raises(RuntimeError, match=re.escape("view size is not compatible with input tensor's size")):
        x.view(2, 3).t().view(-1)
    with pytest.raises(TypeError):
        x.view(2, 3, bogus=1)
