"""bfloat16 unary math (exp, log, sin, ..., every function of the float-unary family) computed in
float32 and rounded once to bfloat16 (Note [bfloat16 unary math]), and the Rust rounding
``_core._round_to_bf16`` behind it: against float64 references, below and above the size where the
intra-op pool switches on (2 * 32768 elements), on any thread count, for contiguous, strided and
in-place calls."""

import ml_dtypes
import numpy as np
import opyard
import pytest
from opyard import _core

BF16 = np.dtype(ml_dtypes.bfloat16)

# op name -> (numpy float64 reference, input range)
FUNCS = {
    "exp": (np.exp, (-80, 80)), "expm1": (np.expm1, (-10, 10)), "sin": (np.sin, (-100, 100)),
    "cos": (np.cos, (-100, 100)), "tan": (np.tan, (-1.5, 1.5)), "tanh": (np.tanh, (-10, 10)),
    "log": (np.log, (1e-3, 1e4)), "log2": (np.log2, (1e-3, 1e4)), "log10": (np.log10, (1e-3, 1e4)),
    "log1p": (np.log1p, (-0.9, 1e4)), "sqrt": (np.sqrt, (0, 1e6)),
    "rsqrt": (lambda v: 1 / np.sqrt(v), (1e-3, 1e6)), "reciprocal": (np.reciprocal, (0.1, 1e4)),
    "asin": (np.arcsin, (-1, 1)), "acos": (np.arccos, (-1, 1)), "atan": (np.arctan, (-50, 50)),
    "sinh": (np.sinh, (-10, 10)), "cosh": (np.cosh, (-10, 10)), "asinh": (np.arcsinh, (-50, 50)),
    "acosh": (np.arccosh, (1, 50)), "atanh": (np.arctanh, (-0.99, 0.99)),
}


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


def _bf16(n, lo, hi, seed=0):
    return np.random.default_rng(seed).uniform(lo, hi, n).astype(np.float32).astype(BF16)


@pytest.mark.parametrize("nthreads", [1, 2])
@pytest.mark.parametrize("n", [1000, 200_003])
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_bfloat16_math_is_float32_rounded_once(name, n, nthreads, threads):
    opyard.set_num_threads(nthreads)
    ref64, (lo, hi) = FUNCS[name]
    x = _bf16(n, lo, hi)
    r = getattr(opyard, name)(opyard.from_numpy(x))
    assert r.dtype == opyard.bfloat16 and r.shape == (n,)
    got = r.numpy().astype(np.float64)
    want = ref64(x.astype(np.float64))
    # one rounding of a float32 value within a few float32 ulp: at most one bfloat16 ulp (2^-7) off
    np.testing.assert_allclose(got, want, rtol=2 ** -7, atol=1e-30)
    # and exactly the float32 function rounded to nearest even once
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got, getattr(opyard, name)(opyard.from_numpy(x.astype(np.float32)))
                                      .numpy().astype(BF16).astype(np.float64))


@pytest.mark.parametrize("name", ["exp", "sin", "log", "sqrt", "tanh"])
def test_strided_and_inplace_bfloat16_math_agree_with_contiguous(name):
    _, (lo, hi) = FUNCS[name]
    x = _bf16((300, 500), lo, hi, seed=1).reshape(300, 500)
    t = opyard.from_numpy(x)
    want = getattr(opyard, name)(t.contiguous()).numpy()
    tt = t.t()
    r = getattr(opyard, name)(tt)
    np.testing.assert_array_equal(r.numpy(), want.T)
    assert r.dtype == opyard.bfloat16
    y = t.clone()
    getattr(y, name + "_")()
    np.testing.assert_array_equal(y.numpy(), want)
    assert y.dtype == opyard.bfloat16


def test_bfloat16_special_values_as_torch():
    x = opyard.tensor([0.0, -0.0, float("inf"), float("-inf"), float("nan"), 89.0, -200.0],
                      dtype=opyard.bfloat16)
    e = opyard.exp(x).numpy().astype(np.float64)
    np.testing.assert_array_equal(e[:4], [1.0, 1.0, np.inf, 0.0])
    assert np.isnan(e[4]) and e[5] == np.inf and e[6] == 0.0
    lg = opyard.log(opyard.tensor([0.0, -1.0, 1.0], dtype=opyard.bfloat16)).numpy().astype(np.float64)
    assert lg[0] == -np.inf and np.isnan(lg[1]) and lg[2] == 0.0
    s = opyard.sqrt(opyard.tensor([-0.0, 4.0], dtype=opyard.bfloat16)).numpy().astype(np.float64)
    assert s[1] == 2.0 and s[0] == 0.0 and np.signbit(s[0])
    z = opyard.exp(opyard.tensor(1.0, dtype=opyard.bfloat16))  # 0-d
    assert z.shape == () and z.dtype == opyard.bfloat16 and float(z) == 2.71875


@pytest.mark.parametrize("nthreads", [1, 2])
@pytest.mark.parametrize("n", [5000, 1 << 18])
def test_round_to_bf16_is_nearest_even_on_every_float32(n, nthreads, threads):
    opyard.set_num_threads(nthreads)
    rng = np.random.default_rng(n)
    bits = rng.integers(0, 1 << 32, n, dtype=np.uint64).astype(np.uint32)
    # ties (low half exactly 0x8000, odd and even high halves), the largest finite values, infinities
    bits[:8] = [0x3F808000, 0x3F818000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000, 0xFF800000, 0x00008000, 0x7F7F8000]
    x = bits.view(np.float32)
    got = _core._round_to_bf16(x)
    assert got.dtype == np.uint16 and got.shape == x.shape
    nan = np.isnan(x)
    with np.errstate(invalid="ignore"):  # the nan inputs
        want = x.astype(BF16).view(np.uint16)  # ml_dtypes: round to nearest, ties to even
    np.testing.assert_array_equal(got[~nan], want[~nan])
    assert (got[nan] & 0x7F80 == 0x7F80).all() and (got[nan] & 0x7F).all()  # nan stays nan
    assert got[0] == 0x3F80 and got[1] == 0x3F82 and got[2] == 0x7F80 and got[3] == 0xFF80


def test_round_to_bf16_keeps_shape_and_declines_other_inputs():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    np.testing.assert_array_equal(_core._round_to_bf16(x).view(BF16).astype(np.float32), x)
    assert _core._round_to_bf16(x).shape == (3, 4)
    assert _core._round_to_bf16(x.T) is None  # not C-contiguous
    assert _core._round_to_bf16(x.astype(np.float64)) is None
