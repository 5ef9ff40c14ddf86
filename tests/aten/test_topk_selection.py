"""``topk`` is torch's CPU kernel element for element, equal values included: torch runs the C++
library's partial sort (``64 * k <= n``) or selection on each row, which are not stable, so which of
several equal values it keeps and their order are those algorithms' (Note [topk order] in
src/kernels/topk.rs). The cases with ties are torch 2.15's answers (``make topk-expect``); rows
without ties have one answer, checked against numpy's sort at sizes on both sides of the pool
threshold."""

import os

import ml_dtypes
import numpy as np
import opyard
import pytest

_DATA = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "torch_topk.npz"))
_META = _DATA["meta"]
_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8"]


def _np_dtype(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


@pytest.mark.parametrize("case", range(len(_META)))
def test_topk_is_torchs_index_for_index(case):
    dtype, dim, k, largest, srt = (int(v) for v in _META[case])
    name = _DTYPES[dtype]
    x = _DATA[f"x{case}"].astype(np.float64).astype(_np_dtype(name))
    values, indices = opyard.topk(opyard.from_numpy(x), k, dim, bool(largest), bool(srt))
    np.testing.assert_array_equal(indices.numpy(), _DATA[f"n{case}"])
    np.testing.assert_array_equal(values.numpy().astype(np.float64), _DATA[f"v{case}"])
    assert values.dtype == getattr(opyard, name) and indices.dtype == opyard.int64


def _distinct(rng, shape, dtype):
    """Values without ties (a permutation), so the top k has one answer."""
    x = rng.permutation(int(np.prod(shape))).reshape(shape) - 7
    return x.astype(dtype)


_SHAPES = [((1, 300), 1, 7), ((3, 600), -1, 300), ((600, 2), 0, 40), ((1 << 16,), 0, 100),
           ((2, 1 << 15), 1, 500), ((1 << 15, 3), 0, 9), ((40000,), 0, 1), ((20000,), 0, 312),
           ((64, 2048), 1, 16), ((5, 7), 1, 7)]
# float16 holds every integer up to 2048: the shapes with at most that many elements.
_DISTINCT = [(shape, dim, k, dtype) for shape, dim, k in _SHAPES
             for dtype in (np.float32, np.float64, np.int64, np.int32, np.float16)
             if dtype != np.float16 or np.prod(shape) <= 2048]


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("shape, dim, k, dtype", _DISTINCT)
def test_topk_of_distinct_values_is_the_sorted_rows_head(shape, dim, k, dtype, largest):
    x = _distinct(np.random.default_rng(k), shape, dtype)
    values, indices = opyard.topk(opyard.from_numpy(x), k, dim, largest)
    d = dim % x.ndim
    order = np.argsort(-x.astype(np.float64) if largest else x, axis=d, kind="stable")
    want = np.take(order, np.arange(k), axis=d)
    np.testing.assert_array_equal(indices.numpy(), want)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, d))


def test_topk_unsorted_keeps_the_same_elements_and_a_non_contiguous_input():
    rng = np.random.default_rng(1)
    x = _distinct(rng, (1 << 12, 2), np.float32)
    x[[5, 77, 900], 1] = np.nan
    t = opyard.from_numpy(x).t()  # rows along the non-contiguous dim
    values, indices = opyard.topk(t, 3, 1)
    # nan is the largest value; the order of the three is torch 2.15's answer for this input.
    assert indices[1].tolist() == [900, 77, 5] and np.isnan(values[1].numpy()).all()
    v_all, i_all = opyard.topk(t, 1000, 1, sorted=False)
    v_sorted, i_sorted = opyard.topk(t, 1000, 1)
    np.testing.assert_array_equal(np.sort(i_all.numpy(), 1), np.sort(i_sorted.numpy(), 1))


@pytest.mark.parametrize("dtype, exc, message", [
    (opyard.bool, NotImplementedError, "topk does not support bool dtypes on CPU"),
    (opyard.uint16, NotImplementedError, "\"topk_cpu\" not implemented for 'UInt16'"),
    (opyard.uint64, NotImplementedError, "\"topk_cpu\" not implemented for 'UInt64'"),
    (opyard.float8_e4m3fn, NotImplementedError, "\"topk_cpu\" not implemented for 'Float8_e4m3fn'"),
    (opyard.complex64, TypeError, " topk does not support complex dtypes on CPU"),
])
def test_topk_refuses_the_dtypes_torch_refuses(dtype, exc, message):
    with pytest.raises(exc, match="^" + message.replace("(", r"\(") + "$"):
        opyard.topk(opyard.ones(3).to(dtype), 1)


@pytest.mark.parametrize("k", [-1, 4])
def test_topk_k_out_of_range(k):
    with pytest.raises(RuntimeError, match=rf"selected index k out of range \(aten::topk: k={k}, dimension 0 has size 3\)"):
        opyard.topk(opyard.ones(3), k)


@pytest.mark.parametrize("k", [0, 1])
def test_topk_of_a_zero_dim_tensor_is_its_element(k):
    values, indices = opyard.topk(opyard.tensor(2.5), k)
    assert values.item() == 2.5 and indices.item() == 0 and values.dim() == 0 and indices.dim() == 0
