"""``sort(stable=True)`` of long slices of 32-bit data through numpy's SIMD sort of packed (value,
position) keys: the indices are the stable sort's (ties in position order, -0.0 equal to 0.0, nans
last ascending and first descending) along every dim, as with the general path. The default sort
(not stable) has the same values, and the same indices where no two values are equal (its order
among equal values is torch's: ``test_orders_against_torch.py``)."""

import numpy as np
import opyard
import pytest


def _stable(x, d, descending):
    if descending:
        idx = np.flip(np.argsort(np.flip(x, d), axis=d, kind="stable"), d) * -1 + (x.shape[d] - 1)
    else:
        idx = np.argsort(x, axis=d, kind="stable")
    return np.take_along_axis(x, idx, d), idx


def _cases():
    rng = np.random.default_rng(0)
    distinct = rng.permutation(20_000).astype(np.float32) / 7
    yield "distinct f32", distinct
    yield "distinct i64", rng.permutation(10_000).astype(np.int64) - 5000
    yield "distinct i32 2-d", rng.permutation(3 * 5000).astype(np.int32).reshape(3, 5000)
    ties = distinct.copy()
    ties[::100] = 1.0
    yield "ties", ties
    signed_zero = distinct.copy()
    signed_zero[[3, 9]] = [0.0, -0.0]
    yield "signed zeros", signed_zero
    infs = distinct.copy()
    infs[[5, 6]] = np.inf
    yield "two infs", infs
    nans = distinct.copy()
    nans[[1, 4000]] = np.nan
    yield "nans", nans
    one_nan = distinct.astype(np.float64)
    one_nan[17] = np.nan
    yield "one nan f64", one_nan
    heavy = rng.integers(-50, 50, 9000).astype(np.float32)
    heavy[::7], heavy[::11], heavy[::13] = -0.0, np.nan, np.inf
    yield "many ties, zeros, nans, infs", heavy
    yield "many ties i32", rng.integers(-50, 50, (2, 9000)).astype(np.int32)
    yield "short", distinct[:100]


@pytest.mark.parametrize("name,x", list(_cases()), ids=[c[0] for c in _cases()])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_gives_the_stable_sorts_indices(name, x, descending):
    for d in range(x.ndim):
        vals, idx = opyard.sort(opyard.from_numpy(x), dim=d, descending=descending, stable=True)
        want_vals, want_idx = _stable(x, d, descending)
        assert idx.dtype == opyard.int64 and vals.dtype == opyard.from_numpy(x).dtype
        np.testing.assert_array_equal(idx.numpy(), want_idx)
        np.testing.assert_array_equal(vals.numpy(), want_vals)
        assert vals.is_contiguous() and idx.is_contiguous()
        vals, idx = opyard.sort(opyard.from_numpy(x), d, descending)
        np.testing.assert_array_equal(vals.numpy(), want_vals)
        distinct = np.unique(x.astype(np.float64)).size == x.size and not np.isnan(x).any()
        if distinct:
            np.testing.assert_array_equal(idx.numpy(), want_idx)


def test_sort_along_a_leading_dim_of_distinct_values():
    x = np.random.default_rng(1).permutation(6000 * 3).astype(np.float64).reshape(6000, 3)
    vals, idx = opyard.sort(opyard.from_numpy(x), 0, True)
    want_vals, want_idx = _stable(x, 0, True)
    np.testing.assert_array_equal(idx.numpy(), want_idx)
    np.testing.assert_array_equal(vals.numpy(), want_vals)
