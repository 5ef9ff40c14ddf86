"""bfloat16 ``add``/``sub``/``mul``/``div`` of two tensors: each pair computed in float32 and rounded
once to bfloat16 (torch's bfloat16 arithmetic). Large contiguous operands of one shape run one Rust
pass on the intra-op pool (``fused::bf16_binary``), the others ml_dtypes' loop: both are pinned here
against float64 references and each other, below and above the sizes where the Rust pass and the
pool switch on, on 1 and 2 threads, with strided, broadcast, alpha and special-value operands."""

import ml_dtypes
import numpy as np
import opyard
import pytest

BF16 = np.dtype(ml_dtypes.bfloat16)
OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide}


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


def _pair(n, seed=0):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal(n) * 100).astype(np.float32).astype(BF16)
    b = (rng.standard_normal(n) + 0.5).astype(np.float32).astype(BF16)
    return a, b


def _rounded_once(f, a, b):
    """``f`` in float32 rounded to nearest-even bfloat16 (float64 of the float32 operands is exact
    for + - *, and the float32 result of each is the float64 one rounded; / likewise)."""
    with np.errstate(all="ignore"):
        return f(a.astype(np.float32), b.astype(np.float32)).astype(BF16)


@pytest.mark.parametrize("nthreads", [1, 2])
@pytest.mark.parametrize("n", [1000, 1 << 16, 300_001])
@pytest.mark.parametrize("name", sorted(OPS))
def test_bfloat16_arithmetic_is_float32_rounded_once(name, n, nthreads, threads):
    opyard.set_num_threads(nthreads)
    a, b = _pair(n)
    r = getattr(opyard, name)(opyard.from_numpy(a), opyard.from_numpy(b))
    assert r.dtype == opyard.bfloat16 and r.shape == (n,)
    got = r.numpy()
    np.testing.assert_array_equal(got.view(np.uint16), _rounded_once(OPS[name], a, b).view(np.uint16))
    want64 = OPS[name](a.astype(np.float64), b.astype(np.float64))
    np.testing.assert_allclose(got.astype(np.float64), want64, rtol=2 ** -8, atol=1e-30)


def test_operators_and_shapes_take_the_same_values():
    a, b = _pair(1 << 17, seed=3)
    x, y = opyard.from_numpy(a).reshape(256, 512), opyard.from_numpy(b).reshape(256, 512)
    for name, f in OPS.items():
        want = _rounded_once(f, a, b).reshape(256, 512).view(np.uint16)
        op = {"add": x + y, "sub": x - y, "mul": x * y, "div": x / y}[name]
        np.testing.assert_array_equal(op.numpy().view(np.uint16), want)
        # strided operands and a broadcast row take the general path: the same values
        st = getattr(opyard, name)(x.t().contiguous().t(), y.t().contiguous().t())
        np.testing.assert_array_equal(st.numpy().view(np.uint16), want)
    row = opyard.from_numpy(b[:512].copy())
    np.testing.assert_array_equal((x + row).numpy().view(np.uint16),
                                  _rounded_once(np.add, a.reshape(256, 512), b[:512]).view(np.uint16))


def test_alpha_and_inplace_keep_their_paths():
    a, b = _pair(1 << 17, seed=4)
    x, y = opyard.from_numpy(a), opyard.from_numpy(b)
    r = opyard.add(x, y, alpha=2)
    assert r.dtype == opyard.bfloat16
    np.testing.assert_allclose(r.numpy().astype(np.float64), a.astype(np.float64) + 2 * b.astype(np.float64),
                               rtol=2 ** -6, atol=1e-30)
    z = x.clone()
    z += y
    np.testing.assert_array_equal(z.numpy().view(np.uint16), _rounded_once(np.add, a, b).view(np.uint16))


def test_special_values_as_torch():
    n = 1 << 16
    a = np.ones(n, dtype=BF16)
    b = np.ones(n, dtype=BF16)
    big = float(ml_dtypes.finfo(BF16).max)
    a[:8] = [big, -big, 0.0, 1.0, np.inf, np.nan, 1.0, 3.0]
    b[:8] = [big, -big, 0.0, 0.0, np.inf, 1.0, 2.0 ** -133, 3.0]
    A, B = opyard.from_numpy(a), opyard.from_numpy(b)
    s = (A + B).numpy().astype(np.float64)
    assert s[0] == np.inf and s[1] == -np.inf and s[2] == 0.0 and s[4] == np.inf and np.isnan(s[5])
    assert s[6] == 1.0  # the tiny addend rounds away
    d = (A / B).numpy().astype(np.float64)
    assert np.isnan(d[2]) and d[3] == np.inf and np.isnan(d[4]) and d[7] == 1.0
    m = (A - A).numpy().astype(np.float64)
    assert np.isnan(m[4]) and m[3] == 0.0
    # torch's quiet nan bits from the Rust pass
    assert ((A + B).numpy().view(np.uint16)[5] & 0x7FFF) == 0x7FC0
