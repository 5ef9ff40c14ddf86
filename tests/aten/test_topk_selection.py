"""``topk`` of long rows selects before it sorts (a partition of each row, and for a few very long rows a
bound from a sample first): the result must be the full sort's, element for element, including which of
several equal values are kept and in which order (torch's: position order among ties), and nan as the
largest value. The reference below orders each row on its own by (value, position)."""

import numpy as np
import opyard
import pytest


def _reference(x, k, d, largest):
    rows = np.moveaxis(x, d, -1)
    n = rows.shape[-1]
    flat = rows.reshape(-1, n)
    out = np.empty((flat.shape[0], k), dtype=np.int64)
    for r, row in enumerate(flat):
        nan = np.isnan(row) if row.dtype.kind == "f" else np.zeros(n, bool)
        _, rank = np.unique(np.where(nan, 0, row), return_inverse=True)
        rank = np.where(nan, rank.max(initial=0) + 1, rank)
        out[r] = np.lexsort((np.arange(n), -rank if largest else rank))[:k]
    return np.moveaxis(out.reshape(rows.shape[:-1] + (k,)), -1, d)


def _data(rng, kind, shape):
    x = rng.normal(size=shape)
    if kind == "ties":
        x = np.round(x * 3)
    elif kind == "sorted":
        x = np.sort(x, axis=None).reshape(shape)
    elif kind == "reversed":
        x = np.sort(x, axis=None)[::-1].reshape(shape).copy()
    elif kind == "constant":
        x = np.full(shape, 2.0)
    return x


_KINDS = [(kind, dtype) for dtype in (np.float32, np.float64, np.float16, np.int64, np.int32, np.uint8)
          for kind in ("random", "ties", "sorted", "reversed", "constant", "nan")
          if kind != "nan" or np.dtype(dtype).kind == "f"]


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("kind, dtype", _KINDS, ids=[f"{k}-{np.dtype(d).name}" for k, d in _KINDS])
@pytest.mark.parametrize("shape, dim, k", [
    ((1, 300), 1, 7), ((3, 600), -1, 300), ((600, 2), 0, 40),          # the selection
    ((1 << 16,), 0, 100), ((2, 1 << 15), 1, 500), ((1 << 15, 3), 0, 9),  # the sampled bound first
    ((40000,), 0, 1), ((20000,), 0, 312),
])
def test_topk_of_long_rows_is_the_full_sorts(shape, dim, k, kind, dtype, largest):
    rng = np.random.default_rng(sum(map(ord, kind)) + k)
    x = _data(rng, kind, shape)
    if np.dtype(dtype).kind in "iu":
        x = np.abs(x * 40) if dtype == np.uint8 else x * 1000
    x = x.astype(dtype)
    if kind == "nan":
        x.flat[rng.integers(0, x.size, max(3, x.size // 500))] = np.nan
    values, indices = opyard.topk(opyard.from_numpy(x), k, dim, largest)
    want = _reference(x, k, dim % x.ndim, largest)
    np.testing.assert_array_equal(indices.numpy(), want)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, dim % x.ndim))
    assert values.dtype == opyard.from_numpy(x).dtype and indices.dtype == opyard.int64


def test_topk_with_as_many_nans_as_k_and_a_non_contiguous_input():
    x = np.random.default_rng(1).normal(size=(1 << 15, 2)).astype(np.float32)
    x[[5, 77, 900], 1] = np.nan
    t = opyard.from_numpy(x).t()  # rows along the non-contiguous dim
    values, indices = opyard.topk(t, 3, 1)
    assert indices[1].tolist() == [5, 77, 900] and np.isnan(values[1].numpy()).all()
    np.testing.assert_array_equal(indices.numpy(), _reference(x.T, 3, 1, True))
