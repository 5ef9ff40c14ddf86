"""The Rust kernels behind reductions along dims (``kernels/reduce_dim.rs``), the 16-bit sums
(``kernels/reduce.rs``) and 2-D max pooling (``kernels/pool.rs``).

Results are pinned against numpy (float32/float64 sums and means bit for bit: the Rust kernel adds in
numpy's order), float64 references (16-bit sums in float32, rounded once) and the numpy pooling
kernel (torch's scan rules), at sizes below and above the point where the intra-op pool switches on
(2 * 32768 elements of work), on 1 and 2 threads. Inputs the Rust paths do not take (strided, other
dtypes, dims that are not one run) go to the numpy kernels and give the same answers."""

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import pool_ops

# Above this many elements the reductions along dims run in Rust (reduction._DIM_RUST_MIN).
RUST_MIN = 1 << 15
# (shape, why): from the Rust minimum up to the pool's start; over it, with odd sizes.
SHAPES = [((64, 700), "inline"), ((7, 90, 130), "pool, odd sizes"), ((3, 40000), "long rows"),
          ((5, 20011), "long rows four at a time, one more"), ((37, 1031), "rows of a prime length")]

# These check the Rust kernels themselves (with OPYARD_FASTPATH=0 each declines; numpy's amax may
# keep either of two equal zeros).
RUST_ONLY = pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 every Rust kernel declines")


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


def _data(shape, dt, seed=0, nan=False):
    x = np.random.default_rng(seed).standard_normal(shape).astype(dt)
    if nan:
        x.reshape(-1)[::997] = np.nan
    return x


# The order of additions the Rust sums repeat is numpy 2.4's (older numpy orders some dims' sums
# differently: there the results are compared to rounding).
_NUMPY_ORDER = np.lib.NumpyVersion(np.__version__) >= "2.4.0"


def _each_thread_count(fn):
    results = []
    for n in (1, 2):
        opyard.set_num_threads(n)
        results.append(fn())
    assert results[0].tobytes() == results[1].tobytes()
    return results[0]


def _assert_within_summation_error(got, want, x, d, keepdim, name):
    """Two summation orders of the same values differ by at most a pairwise sum's error bound,
    ``log2(n) * eps * sum(|x|)`` per result (relative to the result itself a sum that cancels may
    differ much more: a float32 row of 20011 normal values summing to -6.7 differs in the fifth
    digit)."""
    n = x.shape[d]
    scale = np.sum(np.abs(x.astype(np.float64)), axis=d, keepdims=keepdim)
    if name == "mean":
        scale = scale / n
    bound = 2 * max(np.log2(n), 1) * np.finfo(x.dtype).eps * scale
    diff = np.abs(got.astype(np.float64) - want.astype(np.float64))
    assert (diff <= bound).all(), (name, d, keepdim, float(np.max(diff / bound)))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [s for s, _ in SHAPES])
def test_sums_and_means_along_a_dim_are_numpys_bit_for_bit(dt, shape, threads):
    x = _data(shape, dt)
    assert x.size >= RUST_MIN
    t = opyard.from_numpy(x)
    for d in range(len(shape)):
        assert not _core.FAST_PATHS or _core._reduce_dim(x, d, d, "sum") is not None
        for keepdim in (False, True):
            for name, ref in (("sum", np.sum), ("mean", np.mean)):
                got = _each_thread_count(lambda: getattr(t, name)(d, keepdim=keepdim).numpy())
                want = ref(x, axis=d, keepdims=keepdim)
                assert got.dtype == dt and got.shape == want.shape
                if _core.FAST_PATHS and _NUMPY_ORDER:  # the Rust kernel adds in numpy's (2.4) order
                    assert got.tobytes() == want.tobytes(), (name, d, keepdim)
                else:  # numpy's reduction, in whatever order its version takes
                    _assert_within_summation_error(got, want, x, d, keepdim, name)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [s for s, _ in SHAPES])
@pytest.mark.parametrize("nan", [False, True])
def test_amax_and_amin_over_any_run_of_dims_match_numpy_and_propagate_nan(dt, shape, nan, threads):
    x = _data(shape, dt, nan=nan)
    t = opyard.from_numpy(x)
    runs = [(d,) for d in range(len(shape))] + [tuple(range(len(shape))), tuple(range(1, len(shape)))]
    for dims in runs:
        for keepdim in (False, True):
            for name, ref in (("amax", np.amax), ("amin", np.amin)):
                got = _each_thread_count(lambda: getattr(t, name)(dims, keepdim=keepdim).numpy())
                want = ref(x, axis=dims, keepdims=keepdim)
                assert got.dtype == dt and got.shape == want.shape
                np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dt", [opyard.bfloat16, opyard.float16])
@pytest.mark.parametrize("shape", [s for s, _ in SHAPES])
@pytest.mark.parametrize("nan", [False, True])
def test_16_bit_amax_and_amin_are_one_of_the_elements_or_nan(dt, shape, nan, threads):
    x = opyard.from_numpy(_data(shape, np.float32, nan=nan) * 50).to(dt)
    wide = x.to(opyard.float32).numpy()
    runs = [(d,) for d in range(len(shape))] + [tuple(range(len(shape))), tuple(range(1, len(shape)))]
    for dims in runs:
        for name, ref in (("amax", np.amax), ("amin", np.amin)):
            got = _each_thread_count(lambda: getattr(x, name)(dims, keepdim=True).to(opyard.float32).numpy())
            assert getattr(x, name)(dims).dtype == dt
            np.testing.assert_array_equal(got, ref(wide, axis=dims, keepdims=True))
    bits = x.view(opyard.int16).numpy().view(np.uint16)
    assert not _core.FAST_PATHS or _core._extreme_dim_16(bits, 0, 0, dt == opyard.bfloat16, "amax") is not None
    assert _core._extreme_dim_16(bits.view(np.int16), 0, 0, dt == opyard.bfloat16, "amax") is None  # not bits
    assert _core._extreme_dim_16(bits.T, 0, 0, dt == opyard.bfloat16, "amax") is None  # strided
    with pytest.raises(ValueError, match="op must be 'amax' or 'amin'"):
        _core._extreme_dim_16(bits, 0, 0, True, "sum")


@RUST_ONLY
def test_amax_keeps_the_first_of_equal_zeros_in_a_short_row_as_torch():
    # torch 2.15: amax([0.0, -0.0]) is 0.0 and amax([-0.0, 0.0]) is -0.0 (numpy keeps the last)
    x = np.zeros((RUST_MIN, 2), np.float32)
    x[:, 1] = -0.0
    got = opyard.from_numpy(x).amax(1).numpy()
    assert not np.signbit(got).any()
    got = opyard.from_numpy(np.ascontiguousarray(x[:, ::-1])).amax(1).numpy()
    assert np.signbit(got).all()


@RUST_ONLY
def test_reductions_the_rust_path_does_not_take_go_to_numpy():
    x = _data((300, 400), np.float32, nan=True)
    # a strided input, dims that are not one run, several dims of a sum, integer data, a small input
    assert _core._reduce_dim(x.T, 0, 0, "sum") is None
    t = opyard.from_numpy(x)
    assert t.t().sum(1).numpy().tobytes() == np.sum(x.T, axis=1).tobytes()
    np.testing.assert_array_equal(t.t().amax(0).numpy(), np.amax(x.T, axis=0))
    y = _data((20, 30, 60), np.float64)
    ty = opyard.from_numpy(y)
    np.testing.assert_array_equal(ty.amax((0, 2)).numpy(), np.amax(y, axis=(0, 2)))
    assert ty.sum((1, 2)).numpy().tobytes() == np.sum(y, axis=(1, 2)).tobytes()
    i = np.arange(RUST_MIN * 2).reshape(2, -1)
    assert _core._reduce_dim(i, 1, 1, "sum") is None
    assert opyard.from_numpy(i).sum(1).tolist() == np.sum(i, axis=1).tolist()
    with pytest.raises(ValueError, match="op must be 'sum', 'amax' or 'amin'"):
        _core._reduce_dim(x, 0, 0, "prod")
    assert _core._reduce_dim(x, 1, 0, "sum") is None  # not a run
    assert _core._reduce_dim(x, 0, 2, "sum") is None  # past the last dim


HALVES = [(opyard.bfloat16, 2.0 ** -8), (opyard.float16, 2.0 ** -11)]


@pytest.mark.parametrize("dt,eps", HALVES)
@pytest.mark.parametrize("shape", [s for s, _ in SHAPES] + [(40000,)])
def test_16_bit_sums_and_means_along_any_dim_are_float32_sums_rounded_once(dt, eps, shape, threads):
    x = opyard.from_numpy(_data(shape, np.float32)).to(dt)
    wide = x.to(opyard.float64).numpy()
    dims = [(d,) for d in range(len(shape))] + [tuple(range(len(shape)))]
    for dims_ in dims:
        for name in ("sum", "mean"):
            got = _each_thread_count(lambda: getattr(x, name)(dims_).to(opyard.float64).numpy())
            exact = getattr(np, name)(wide, axis=dims_)
            assert getattr(x, name)(dims_).dtype == dt
            # float32 accumulation (error far below the result's rounding), then one rounding
            n = wide.size // max(np.size(exact), 1)
            bound = np.abs(exact) * eps * 1.01 + n * 2.0 ** -24 * np.abs(wide).max() * (n if name == "sum" else 1)
            assert (np.abs(got - exact) <= bound).all(), (dims_, name)


@RUST_ONLY
@pytest.mark.parametrize("bf16", [True, False])
def test_16_bit_sums_widen_every_value_exactly(bf16):
    # each bit pattern alone in a run of 64 zeros (the vector loop's groups of 32): the sum is the value
    dt = opyard.bfloat16 if bf16 else opyard.float16
    pats = np.arange(1 << 16, dtype=np.uint16)
    wide = opyard.from_numpy(pats.view(np.int16)).view(dt).to(opyard.float32).numpy()
    run = np.zeros(64, np.uint16)
    for p in range(0, 1 << 16, 7):  # every 7th pattern: all classes (subnormal, normal, inf, nan), both signs
        run[p % 64] = p
        got = _core._blocked_sum_16(run, bf16)
        run[p % 64] = 0
        if np.isnan(wide[p]):
            assert np.isnan(got), hex(p)
        else:
            assert got.tobytes() == (np.float32(0) + wide[p]).tobytes(), hex(p)


@pytest.mark.parametrize("dt", [opyard.bfloat16, opyard.float16])
def test_16_bit_sums_keep_inf_and_nan(dt):
    x = opyard.ones(3, RUST_MIN, dtype=dt)
    x[1, 5] = float("nan")
    x[2, 7] = float("inf")
    for d in (0, 1):
        got = x.sum(d).to(opyard.float64).numpy()
        want = x.to(opyard.float64).numpy().sum(d)
        np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
        np.testing.assert_array_equal(got[~np.isnan(got)], want[~np.isnan(want)])


# (kernel, stride, padding, dilation, ceil_mode) as torch's max_pool2d takes them
GEOMETRIES = [
    ((3, 3), (2, 2), (1, 1), (1, 1), False),
    ((2, 2), (2, 2), (0, 0), (1, 1), True),
    ((3, 2), (1, 2), (1, 0), (2, 1), False),
    ((4, 3), (3, 2), (2, 1), (1, 3), True),
    ((1, 1), (1, 1), (0, 0), (1, 1), False),
]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 3, 11, 13), (5, 17, 9), (8, 16, 40, 36)])
@pytest.mark.parametrize("geometry", GEOMETRIES)
def test_max_pool2d_is_torchs_scan_on_every_thread_count(dt, shape, geometry, threads):
    kernel, stride, padding, dilation, ceil_mode = geometry
    x = _data(shape, dt)
    x = np.round(x * 2) / 2  # ties
    x.reshape(-1)[::23] = np.nan
    x.reshape(-1)[5::31] = -np.inf
    t = opyard.from_numpy(x)
    F = opyard.nn.functional
    call = dict(stride=stride, padding=padding, dilation=dilation, ceil_mode=ceil_mode, return_indices=True)
    v, i = F.max_pool2d(t, kernel, **call)
    outs = list(v.shape[-2:])
    want_v, want_i = pool_ops.max_pool_arrays(x, 2, outs, kernel, stride, padding, dilation)
    assert not _core.FAST_PATHS or _core._max_pool2d(x, tuple(outs), kernel, stride, padding, dilation) is not None
    for n in (1, 2):
        opyard.set_num_threads(n)
        v, i = F.max_pool2d(t, kernel, **call)
        assert v.dtype == t.dtype and i.dtype == opyard.int64
        np.testing.assert_array_equal(v.numpy(), want_v)
        np.testing.assert_array_equal(i.numpy(), want_i)


def test_max_pool2d_windows_in_the_padding_and_nan_as_torch():
    # torch 2.15: the last nan of a window wins; a window of -inf keeps its first position inside the input
    x = np.array([[[[1.0, np.nan, 3.0], [np.nan, 2.0, 0.0], [5.0, 5.0, -1.0]]]], np.float32)
    v, i = opyard.nn.functional.max_pool2d(opyard.from_numpy(x), 2, 1, return_indices=True)
    assert i.tolist() == [[[[3, 1], [3, 7]]]]
    assert np.isnan(v.numpy()[0, 0, :, 0]).all() and v.numpy()[0, 0, 1, 1] == 5.0
    x = np.full((1, 1, 3, 3), -np.inf, np.float64)
    v, i = opyard.nn.functional.max_pool2d(opyard.from_numpy(x), 2, 1, padding=1, return_indices=True)
    assert i.tolist() == [[[[0, 0, 1, 2], [0, 0, 1, 2], [3, 3, 4, 5], [6, 6, 7, 8]]]]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(2, 3, 11, 13), (8, 16, 40, 36)])
def test_max_pool2d_backward_adds_each_gradient_at_its_index(dt, shape, threads):
    x = opyard.from_numpy(_data(shape, dt)).requires_grad_()
    v, i = opyard.nn.functional.max_pool2d(x, 3, 1, padding=1, return_indices=True)  # overlapping windows
    g = _data(tuple(v.shape), dt, seed=4)
    want = pool_ops.scatter_planes(g, i.numpy(), shape, 2)  # float64 sums
    for n in (1, 2):
        opyard.set_num_threads(n)
        x.grad = None
        v.backward(opyard.from_numpy(g), retain_graph=True)
        assert x.grad.dtype == x.dtype
        np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6 if dt == np.float32 else 1e-14, atol=1e-6)


def test_max_pool2d_inputs_the_rust_path_does_not_take_go_to_numpy():
    x = _data((2, 3, 12, 10), np.float32)
    args = ((6, 5), (2, 2), (2, 2), (0, 0), (1, 1))
    assert _core._max_pool2d(x.astype(np.float16), *args) is None
    assert _core._max_pool2d(x.transpose(0, 1, 3, 2), (5, 6), *args[1:]) is None
    assert _core._max_pool2d(x[0, 0], *args) is None  # 2-D
    F = opyard.nn.functional
    for t in (opyard.from_numpy(x).to(opyard.float16), opyard.from_numpy(x).to(memory_format=opyard.channels_last),
              opyard.from_numpy(x).transpose(2, 3)):
        v, i = F.max_pool2d(t, 2, return_indices=True)
        arr = t.to(opyard.float32).contiguous().numpy()
        want_v, want_i = pool_ops.max_pool_arrays(arr, 2, list(v.shape[-2:]), [2, 2], [2, 2], [0, 0], [1, 1])
        np.testing.assert_array_equal(v.to(opyard.float32).numpy(), want_v)
        np.testing.assert_array_equal(i.numpy(), want_i)
    g = np.ones((2, 3, 6, 5), np.float32)
    bad = np.zeros((2, 3, 6, 5), np.int64)
    bad[1, 2, 3, 4] = 120  # outside the 12 x 10 plane
    assert _core._max_pool2d_backward(g, bad, (12, 10)) is None
    assert _core._max_pool2d_backward(g, bad[..., :4].copy(), (12, 10)) is None  # shapes differ


@pytest.mark.parametrize("geometry", GEOMETRIES[:4])
def test_max_pool2d_gradients_pass_gradcheck_in_float64(geometry):
    kernel, stride, padding, dilation, ceil_mode = geometry
    # distinct values, so every window's maximum is unique and the gradient is defined
    x = np.random.default_rng(8).permutation(2 * 3 * 9 * 10).reshape(2, 3, 9, 10).astype(np.float64) / 7
    t = opyard.from_numpy(x).requires_grad_()

    def pool(a):
        return opyard.nn.functional.max_pool2d(a, kernel, stride, padding, dilation, ceil_mode)

    assert opyard.autograd.gradcheck(pool, (t,))
    assert opyard.autograd.gradgradcheck(pool, (t,))


@RUST_ONLY
@pytest.mark.parametrize("shape, first, last", [((3, 0), 0, 0), ((2, 0, 3), 0, 0), ((2, 3, 0), 1, 1),
                                                ((2, 3, 0), 0, 1), ((0, 3), 1, 1), ((0, 2, 3), 1, 2)])
@pytest.mark.parametrize("op", ["sum", "amax", "amin"])
def test_reduce_dim_with_a_zero_size_dim_around_the_reduced_ones(shape, first, last, op):
    """A zero-size dim before or after the reduced ones leaves no result element: an empty result of
    numpy's shape (the row loops are not run on rows of no elements)."""
    x = np.ones(shape, np.float32)
    got = _core._reduce_dim(x, first, last, op)
    want = getattr(np, {"sum": "add", "amax": "maximum", "amin": "minimum"}[op]).reduce(
        x, axis=tuple(range(first, last + 1)))
    assert got is not None and got.shape == want.shape and got.dtype == np.float32 and got.size == 0
