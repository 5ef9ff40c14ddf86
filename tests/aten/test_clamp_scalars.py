"""``clamp`` of float tensors by Scalar bounds: torch's values on the Rust path (``_core._clamp_scalars``,
float32/float64 at every size, on 1 and 2 threads) and on numpy's (a nan bound, an integer bound beyond
2**53, other dtypes, or every size with the fast paths off). torch's rule, asked of torch 2.15: an
element below ``min`` becomes ``min``, then one above ``max`` becomes ``max`` (``min > max`` gives
``max`` everywhere), a nan element stays nan, an element equal to a bound is kept (``-0.0`` stays
``-0.0`` under a bound of ``0.0``), and a nan bound makes every element nan."""

import itertools
import math

import numpy as np
import opyard
import pytest

VALUES = [-0.0, 0.0, math.nan, 0.7, 0.69999999, 1.0, -1.0, math.inf, -math.inf, 0.5, 1e-40, -3.0]
BOUNDS = [None, 0.0, -0.0, 0.7, math.nan, -1.0, 2.0, math.inf, 1]


def _torch_rule(x, lo, hi):
    if (lo is not None and lo != lo) or (hi is not None and hi != hi):
        return np.full_like(x, np.nan)
    r = x
    if lo is not None:
        b = x.dtype.type(lo)
        r = np.where(r < b, b, r)
    if hi is not None:
        b = x.dtype.type(hi)
        r = np.where(r > b, b, r)
    return r.astype(x.dtype)


def _bits(a):
    a = np.array(a, copy=True)
    a[np.isnan(a)] = np.nan  # one nan pattern
    return a.tobytes()


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [len(VALUES), 3000 * len(VALUES)], ids=["numpy path", "rust path"])
def test_clamp_by_scalars_is_torchs_rule_on_every_path(dt, n, threads):
    x = np.array((VALUES * n)[:n], dtype=dt)
    t = opyard.from_numpy(x)
    for lo, hi in itertools.product(BOUNDS, BOUNDS):
        if lo is None and hi is None:
            continue
        want = _torch_rule(x, lo, hi)
        for k in (1, 2):
            opyard.set_num_threads(k)
            got = opyard.clamp(t, lo, hi).numpy()
            assert got.dtype == dt
            assert _bits(got) == _bits(want), (lo, hi, k)


@pytest.mark.parametrize("n", [4, 1 << 16])
def test_a_value_equal_to_a_bound_keeps_its_sign_as_in_torch(n):
    x = opyard.full((n,), -0.0)
    assert math.copysign(1.0, opyard.clamp(x, 0.0, 1.0)[0].item()) == -1.0
    assert math.copysign(1.0, opyard.clamp(-x, None, -0.0)[0].item()) == 1.0
    assert math.copysign(1.0, opyard.clamp_min(x, 0.0)[-1].item()) == -1.0


@pytest.mark.parametrize("n", [4, 1 << 16])
def test_min_above_max_gives_max_and_a_nan_bound_gives_nan(n):
    x = opyard.arange(n, dtype=opyard.float32)
    assert (opyard.clamp(x, 5.0, 2.0) == 2.0).all()
    assert opyard.clamp(x, math.nan, 2.0).isnan().all()
    assert opyard.clamp(x, None, math.nan).isnan().all()


def test_clamp_by_tensors_and_of_integers_keeps_numpys_path():
    x = opyard.arange(1 << 16, dtype=opyard.int32)
    assert opyard.clamp(x, 10, 20).dtype == opyard.int32
    assert int(opyard.clamp(x, 10, 20).max()) == 20
    xf = opyard.linspace(-1, 1, 1 << 16)
    lo = opyard.zeros(1 << 16)
    np.testing.assert_array_equal(opyard.clamp(xf, lo).numpy(), np.maximum(xf.numpy(), 0.0))


@pytest.mark.parametrize("dt", [opyard.float32, opyard.float64, opyard.bfloat16, opyard.float16])
@pytest.mark.parametrize("n", [8, 1 << 16])
def test_relu_is_clamp_min_zero_keeping_negative_zero_and_nan(dt, n):
    x = opyard.tensor([-0.0, math.nan, -2.0, 3.0] * (n // 4), dtype=dt)
    r = opyard.relu(x)
    assert r.dtype == dt
    got = r.float().tolist()[:4]
    assert math.copysign(1.0, got[0]) == -1.0 and got[0] == 0.0
    assert math.isnan(got[1]) and got[2:] == [0.0, 3.0]


@pytest.mark.parametrize("dt", [opyard.int32, opyard.int64, opyard.uint8])
def test_relu_of_integers_keeps_the_dtype(dt):
    x = opyard.arange(-3, 4).to(dt)
    assert opyard.relu(x).dtype == dt
    assert opyard.relu(x).tolist() == [max(v, 0) for v in x.tolist()]
