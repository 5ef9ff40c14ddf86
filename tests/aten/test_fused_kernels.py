"""The fused Rust kernels behind softmax, log_softmax, layer_norm, gelu, silu, sigmoid and the softmax
gradients, the blocked large ``sum``/``mean`` and ``set_num_threads``/``get_num_threads``.

Results are pinned against float64 numpy references at sizes below and above the point where the
intra-op pool switches on (2 * 32768 elements of work, Note [Intra-op threads]), along every dim,
and do not depend on the number of threads."""

import math

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard.autograd import gradcheck, gradgradcheck

F = opyard.nn.functional

# (shape, why): one small case on the calling thread, ones that split across the pool.
SHAPES = [((3, 5), "inline"), ((4, 300, 70), "pool, odd sizes"), ((512, 256), "pool, rows")]
# torch.testing.assert_close's defaults for float32 (a log-softmax value of size |x| carries eps * |x|).
TOL = {np.float32: dict(rtol=1.3e-6, atol=1e-5), np.float64: dict(rtol=1e-13, atol=1e-13)}


@pytest.fixture
def threads():
    """Restores the thread count a test changes."""
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


def _data(shape, dt, seed=0):
    return (np.random.default_rng(seed).standard_normal(shape) * 3).astype(dt)


def _softmax64(x, d, log):
    w = x.astype(np.float64)
    z = w - w.max(axis=d, keepdims=True)
    lse = np.log(np.exp(z).sum(axis=d, keepdims=True))
    return z - lse if log else np.exp(z - lse)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [s for s, _ in SHAPES])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_along_every_dim_matches_float64(dt, shape, log, threads):
    x = _data(shape, dt)
    fn = opyard.log_softmax if log else opyard.softmax
    for d in range(-len(shape), len(shape)):
        got = {}
        for n in (1, 2):
            opyard.set_num_threads(n)
            got[n] = fn(opyard.from_numpy(x), d).numpy()
        assert got[1].dtype == dt and got[1].tobytes() == got[2].tobytes()
        np.testing.assert_allclose(got[1], _softmax64(x, d, log), **TOL[dt])


def test_softmax_special_rows_as_torch():
    x = np.array([[0.0, -np.inf, 1.0], [np.nan, 0.0, 1.0], [-np.inf] * 3, [np.inf, 0.0, 1.0]], np.float32)
    got = opyard.softmax(opyard.from_numpy(x), 1).numpy()
    np.testing.assert_allclose(got[0], [1 / (1 + math.e), 0.0, math.e / (1 + math.e)], rtol=1e-6)
    assert np.isnan(got[1]).all() and np.isnan(got[2]).all() and np.isnan(got[3]).all()
    big = np.array([[88.0, 89.0, -100.0]], np.float32)  # exp would overflow without the shift
    np.testing.assert_allclose(opyard.softmax(opyard.from_numpy(big), 1).numpy(), _softmax64(big, 1, False),
                               rtol=1e-6, atol=1e-30)


def test_softmax_of_a_transposed_input_matches_the_contiguous_one():
    x = _data((300, 400), np.float32)
    t = opyard.from_numpy(x).t()
    np.testing.assert_allclose(opyard.softmax(t, 0).numpy(), _softmax64(x.T, 0, False), rtol=2e-6, atol=2e-7)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("log", [False, True])
def test_softmax_gradient_matches_float64(dt, log, threads):
    x = _data((256, 300), dt)
    g = _data((256, 300), dt, seed=1)
    for d in (0, 1):
        ref = _softmax64(x, d, log)
        want = (g - np.exp(ref) * g.sum(d, keepdims=True)) if log else ref * (g - (g * ref).sum(d, keepdims=True))
        results = []
        for n in (1, 2):
            opyard.set_num_threads(n)
            xt = opyard.from_numpy(x.copy()).requires_grad_()
            (opyard.log_softmax if log else opyard.softmax)(xt, d).backward(opyard.from_numpy(g))
            results.append(xt.grad.numpy())
        assert results[0].tobytes() == results[1].tobytes()
        # float32: g - e^y * sum(g) cancels, the error is eps * |sum(g)| (here up to ~50)
        scale = max(1.0, float(np.abs(g.sum(d)).max()) / 4)
        np.testing.assert_allclose(results[0], want, rtol=TOL[dt]["rtol"], atol=TOL[dt]["atol"] * scale)


def test_softmax_gradient_of_a_sum_is_zero_and_graph_is_torchs():
    x = opyard.randn(64, 2000, requires_grad=True)  # sum's gradient is a broadcast view
    y = opyard.softmax(x, 1)
    assert type(y.grad_fn).__name__ == "SoftmaxBackward0"
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), 0.0, atol=1e-6)


@pytest.mark.parametrize("log", [False, True])
def test_softmax_gradcheck_and_gradgradcheck(log):
    fn = opyard.log_softmax if log else opyard.softmax
    x = opyard.randn(3, 4, 5, dtype=opyard.float64, requires_grad=True)
    for d in (0, 1, 2):
        assert gradcheck(lambda t: fn(t, d), (x,))
        assert gradgradcheck(lambda t: fn(t, d), (x,))


@pytest.mark.parametrize("log", [False, True])
def test_per_sample_softmax_gradients(log):
    fn = opyard.log_softmax if log else opyard.softmax
    w = opyard.randn(6, 5, dtype=opyard.float64)
    xs = opyard.randn(4, 6, dtype=opyard.float64)

    def loss(x):
        return (fn(x @ w, 0) * opyard.arange(5.0, dtype=opyard.float64)).sum()

    got = opyard.func.vmap(opyard.func.grad(loss))(xs)
    want = opyard.stack([opyard.func.grad(loss)(x) for x in xs])
    np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-12, atol=1e-14)


def _layer_norm64(x, cols, w, b, eps):
    flat = x.astype(np.float64).reshape(-1, cols)
    mean = flat.mean(1, keepdims=True)
    rstd = 1 / np.sqrt(((flat - mean) ** 2).mean(1, keepdims=True) + eps)
    y = (flat - mean) * rstd
    if w is not None:
        y = y * w.reshape(1, -1)
    if b is not None:
        y = y + b.reshape(1, -1)
    return y.reshape(x.shape), mean.reshape(-1), rstd.reshape(-1)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape,normalized", [((3, 5), 1), ((4, 300, 70), 1), ((4, 300, 70), 2), ((512, 256), 1)])
@pytest.mark.parametrize("affine", [False, True])
def test_layer_norm_matches_float64(dt, shape, normalized, affine, threads):
    x = _data(shape, dt) + 2.0
    ns = list(shape[-normalized:])
    cols = int(np.prod(ns))
    w = _data(ns, dt, seed=2) if affine else None
    b = _data(ns, dt, seed=3) if affine else None
    wt = None if w is None else opyard.from_numpy(w)
    bt = None if b is None else opyard.from_numpy(b)
    got = []
    for n in (1, 2):
        opyard.set_num_threads(n)
        got.append([t.numpy() for t in opyard.native_layer_norm(opyard.from_numpy(x), ns, wt, bt, 1e-5)])
    for a, c in zip(*got):
        assert a.tobytes() == c.tobytes()
    y, mean, rstd = got[0]
    ry, rmean, rrstd = _layer_norm64(x, cols, w, b, 1e-5)
    tol = dict(rtol=1e-5, atol=1e-5) if dt == np.float32 else dict(rtol=1e-12, atol=1e-12)
    assert y.dtype == dt and mean.shape == shape[:len(shape) - normalized] + (1,) * normalized
    np.testing.assert_allclose(y, ry, **tol)
    np.testing.assert_allclose(mean.reshape(-1), rmean, **tol)
    np.testing.assert_allclose(rstd.reshape(-1), rrstd, **tol)


@pytest.mark.parametrize("offset, cols", [(1000.0, 1024), (0.0, 100_003), (-3.0e4, 4097)])
def test_layer_norm_statistics_of_float32_stay_accurate(offset, cols, threads):
    # float32 rows summed in float32 runs (at most 64 values per lane, the runs in float64), the
    # variance from the deviations: a mean far from 0 and long rows keep their accuracy.
    x = (_data((3, cols), np.float32) + np.float32(offset)).astype(np.float32)
    for n in (1, 2):
        opyard.set_num_threads(n)
        y, mean, rstd = opyard.native_layer_norm(opyard.from_numpy(x), [cols], None, None, 1e-5)
        ry, rmean, rrstd = _layer_norm64(x, cols, None, None, 1e-5)
        np.testing.assert_allclose(mean.numpy().reshape(-1), rmean, rtol=1e-6)
        np.testing.assert_allclose(rstd.numpy().reshape(-1), rrstd, rtol=2e-5)
        # normalised in float32, as torch does: x - mean is exact only to the spacing of x's floats
        np.testing.assert_allclose(y.numpy(), ry, rtol=1e-4, atol=1e-4 + 2 * float(np.spacing(np.float32(abs(offset)))))


def test_layer_norm_of_reduced_precision_is_computed_in_float32():
    x = _data((64, 1100), np.float32)
    xb = opyard.from_numpy(x).to(opyard.bfloat16)
    y = F.layer_norm(xb, [1100])
    want = _layer_norm64(xb.to(opyard.float32).numpy(), 1100, None, None, 1e-5)[0]
    assert y.dtype == opyard.bfloat16
    # the float32 result rounded once to bfloat16 (8 bits of mantissa)
    np.testing.assert_allclose(y.to(opyard.float32).numpy(), want, rtol=2 ** -8, atol=1e-6)


def test_layer_norm_gradcheck():
    x = opyard.randn(4, 6, dtype=opyard.float64, requires_grad=True)
    w = opyard.randn(6, dtype=opyard.float64, requires_grad=True)
    b = opyard.randn(6, dtype=opyard.float64, requires_grad=True)
    assert gradcheck(lambda x, w, b: F.layer_norm(x, [6], w, b), (x, w, b))


def _layer_norm_backward64(g, x, cols, w, mean, rstd):
    """``(dx, dw, db)`` of layer_norm in float64 from the given statistics (torch's formula)."""
    g2, x2 = g.astype(np.float64).reshape(-1, cols), x.astype(np.float64).reshape(-1, cols)
    mu, rs = mean.astype(np.float64).reshape(-1, 1), rstd.astype(np.float64).reshape(-1, 1)
    xhat = (x2 - mu) * rs
    d = g2 if w is None else g2 * w.astype(np.float64).reshape(1, -1)
    dx = rs * (d - d.mean(axis=1, keepdims=True) - xhat * (d * xhat).mean(axis=1, keepdims=True))
    return dx.reshape(x.shape), (g2 * xhat).sum(axis=0), g2.sum(axis=0)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape, normalized", [((3, 5), 1), ((4, 300, 70), 1), ((512, 256), 1), ((6, 40, 30), 2)])
def test_native_layer_norm_backward_matches_float64(dt, shape, normalized, threads):
    x = _data(shape, dt) + 2.0
    g = _data(shape, dt, seed=4)
    ns = list(shape[-normalized:])
    cols = int(np.prod(ns))
    w, b = _data(ns, dt, seed=2), _data(ns, dt, seed=3)
    xt, gt, wt, bt = (opyard.from_numpy(a) for a in (x, g, w, b))
    _, mean, rstd = opyard.ops.aten.native_layer_norm(xt, ns, wt, bt, 1e-5)
    got = []
    for n in (1, 2):
        opyard.set_num_threads(n)
        got.append([t.numpy() for t in opyard.ops.aten.native_layer_norm_backward(
            gt, xt, ns, mean, rstd, wt, bt, [True, True, True])])
    for a, c in zip(*got):
        assert a.tobytes() == c.tobytes()  # no dependence on the thread count
    want = _layer_norm_backward64(g, x, cols, w, mean.numpy(), rstd.numpy())
    tol = dict(rtol=2e-4, atol=2e-4) if dt == np.float32 else dict(rtol=1e-11, atol=1e-11)
    for a, ref, like in zip(got[0], want, (x, w, b)):
        assert a.dtype == dt and a.shape == like.shape
        np.testing.assert_allclose(a, ref.reshape(like.shape), **tol)


def test_native_layer_norm_backward_uses_the_given_statistics_and_the_mask():
    x = opyard.tensor([[1.0, 2.0, 4.0], [0.0, -1.0, 5.0]], dtype=opyard.float64)
    g = opyard.ones(2, 3, dtype=opyard.float64)
    w = opyard.tensor([2.0, 3.0, 4.0], dtype=opyard.float64)
    mean, rstd = opyard.zeros(2, 1, dtype=opyard.float64), opyard.ones(2, 1, dtype=opyard.float64)
    dx, dw, db = opyard.ops.aten.native_layer_norm_backward(g, x, [3], mean, rstd, w, w, [True, True, True])
    want = _layer_norm_backward64(g.numpy(), x.numpy(), 3, w.numpy(), mean.numpy(), rstd.numpy())
    np.testing.assert_allclose(dx.numpy(), want[0], rtol=1e-13)
    assert dw.tolist() == [1.0, 1.0, 9.0] and db.tolist() == [2.0, 2.0, 2.0]
    assert opyard.ops.aten.native_layer_norm_backward(g, x, [3], mean, rstd, None, None,
                                                      [False, False, False]) == (None, None, None)
    empty = opyard.ops.aten.native_layer_norm_backward(
        opyard.zeros(0, 3, dtype=opyard.float64), opyard.zeros(0, 3, dtype=opyard.float64), [3],
        opyard.zeros(0, 1, dtype=opyard.float64), opyard.zeros(0, 1, dtype=opyard.float64), w, w, [True] * 3)
    assert empty[0].shape == (0, 3) and empty[1].tolist() == [0.0] * 3 and empty[2].tolist() == [0.0] * 3


@pytest.mark.parametrize("call, exc, match", [
    (lambda g, x, m, r, w: (g, x, [3], m, r, None, None, [True, True, False]), RuntimeError,
     "tensor does not have a device"),
    (lambda g, x, m, r, w: (g, x, [4], m, r, w, None, [True, False, False]), RuntimeError,
     r"Expected weight to be of same shape as normalized_shape, but got weight of shape \[3\]"),
    (lambda g, x, m, r, w: (g.to(opyard.float32), x, [3], m, r, w, None, [True, False, False]), RuntimeError,
     "expected scalar type Double but found Float"),
    (lambda g, x, m, r, w: (g.long(), x.long(), [3], m, r, None, None, [True, False, False]), NotImplementedError,
     "\"LayerNormBackwardKernelImpl\" not implemented for 'Long'"),
    (lambda g, x, m, r, w: (g, x, [3], m[:1], r, None, None, [True, False, False]), RuntimeError,
     "expected mean to have 2 elements"),
])
def test_native_layer_norm_backward_errors_as_torch(call, exc, match):
    x = opyard.randn(2, 3, dtype=opyard.float64)
    args = call(opyard.ones(2, 3, dtype=opyard.float64), x, opyard.zeros(2, 1, dtype=opyard.float64),
                opyard.ones(2, 1, dtype=opyard.float64), opyard.ones(3, dtype=opyard.float64))
    with pytest.raises(exc, match=match):
        opyard.ops.aten.native_layer_norm_backward(*args)


def test_layer_norm_backward_runs_the_kernel_and_create_graph_the_composition():
    x = opyard.randn(5, 7, dtype=opyard.float64, requires_grad=True)
    w = opyard.randn(7, dtype=opyard.float64, requires_grad=True)
    b = opyard.randn(7, dtype=opyard.float64, requires_grad=True)
    assert gradcheck(lambda x, w, b: F.layer_norm(x, [7], w, b), (x, w, b))
    assert gradgradcheck(lambda x, w, b: F.layer_norm(x, [7], w, b), (x, w, b))
    seen = []

    class Log(opyard.utils.python_dispatch.TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    y = F.layer_norm(x, [7], w, b)
    with Log():
        y.sum().backward()
    assert "aten.native_layer_norm_backward.default" in seen
    y = F.layer_norm(x, [7], w, b)
    y.add_(1.0)  # the output is not saved: changing it in place leaves the backward valid, as torch
    gx, = opyard.autograd.grad(y.sum(), x, create_graph=True)
    assert gx.requires_grad and gx.grad_fn is not None


def _gelu64(x, tanh):
    w = x.astype(np.float64)
    if tanh:
        return 0.5 * w * (1 + np.tanh(math.sqrt(2 / math.pi) * (w + 0.044715 * w ** 3)))
    return 0.5 * w * (1 + np.vectorize(math.erf)(w / math.sqrt(2)))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [7, 70_001, 300_000])
def test_gelu_and_silu_match_float64(dt, n, threads):
    x = _data(n, dt) * 3
    x[:4] = [0.0, -0.0, 40.0, -40.0]
    for approximate in ("none", "tanh"):
        got = F.gelu(opyard.from_numpy(x), approximate=approximate).numpy()
        assert got.dtype == dt
        np.testing.assert_allclose(got, _gelu64(x, approximate == "tanh"),
                                   rtol=4e-6 if dt == np.float32 else 1e-13, atol=1e-6 if dt == np.float32 else 1e-15)
    got = F.silu(opyard.from_numpy(x)).numpy()
    w = x.astype(np.float64)
    np.testing.assert_allclose(got, w / (1 + np.exp(-w)), rtol=2e-6 if dt == np.float32 else 1e-14, atol=1e-30)
    opyard.set_num_threads(1)
    one = F.gelu(opyard.from_numpy(x)).numpy()
    opyard.set_num_threads(2)
    assert one.tobytes() == F.gelu(opyard.from_numpy(x)).numpy().tobytes()


@pytest.mark.parametrize("threads_", [1, 2])
def test_gelu_is_accurate_relative_to_itself_in_the_negative_tail(threads_, threads):
    # x * Phi(x) against float64 erfc over a dense float32 grid: relative error, no absolute floor,
    # so the tail (down to 1e-30) counts as much as the middle. torch's erf (absolute error 1.5e-7)
    # is off by up to 100% there.
    from scipy.special import erf, erfc

    opyard.set_num_threads(threads_)
    x = np.linspace(-13, 13, 400_001).astype(np.float32)
    w = x.astype(np.float64)
    want = 0.5 * w * erfc(-w / math.sqrt(2))
    got = F.gelu(opyard.from_numpy(x)).numpy().astype(np.float64)
    seen = np.abs(want) > 1e-30
    rel = np.abs(got[seen] / want[seen] - 1)
    assert rel.max() < 2e-5
    assert rel[np.abs(x[seen]) < 5].max() < 2.5e-6
    np.testing.assert_allclose(opyard.erf(opyard.from_numpy(x)).numpy(), erf(w), rtol=0, atol=1e-7)


def test_gelu_and_silu_special_values():
    x = np.array([np.nan, np.inf, -np.inf, 0.0], np.float32)
    for y in (F.gelu(opyard.from_numpy(x)), F.gelu(opyard.from_numpy(x), approximate="tanh")):
        y = y.numpy()
        assert np.isnan(y[0]) and y[1] == np.inf and np.isnan(y[2]) and y[3] == 0  # -inf * 0, as torch
    y = F.silu(opyard.from_numpy(x)).numpy()
    assert np.isnan(y[0]) and y[1] == np.inf and np.isnan(y[2]) and y[3] == 0


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("n", [7, 70_001, 300_000])
def test_sigmoid_matches_float64_on_any_thread_count(dt, n, threads):
    x = _data(n, dt) * 10
    x[:4] = [0.0, -0.0, 200.0, -800.0]
    w = x.astype(np.float64)
    with np.errstate(over="ignore"):
        want = 1 / (1 + np.exp(-w))
    got = opyard.sigmoid(opyard.from_numpy(x)).numpy()
    assert got.dtype == dt
    np.testing.assert_allclose(got, want, rtol=2e-6 if dt == np.float32 else 1e-14, atol=1e-30)
    opyard.set_num_threads(1)
    one = opyard.sigmoid(opyard.from_numpy(x)).numpy()
    opyard.set_num_threads(2)
    assert one.tobytes() == opyard.sigmoid(opyard.from_numpy(x)).numpy().tobytes()


def test_sigmoid_of_strided_half_integral_and_special_inputs():
    x = opyard.from_numpy(_data((300, 400), np.float32))
    np.testing.assert_allclose(opyard.sigmoid(x.t()).numpy(), opyard.sigmoid(x).numpy().T, rtol=0, atol=0)
    assert opyard.sigmoid(x.t()).stride() == x.t().stride()  # the layout is kept, as torch's
    np.testing.assert_allclose(opyard.sigmoid(x[:, ::3]).numpy(), opyard.sigmoid(x).numpy()[:, ::3], rtol=1e-6)
    assert opyard.sigmoid(opyard.tensor(1.0)).shape == () and opyard.sigmoid(opyard.ones(0, 3)).shape == (0, 3)
    h = x.to(opyard.bfloat16)
    wide = h.to(opyard.float32).numpy().astype(np.float64)
    want = (1 / (1 + np.exp(-wide))).astype(np.float32).astype(h.numpy().dtype)
    assert opyard.sigmoid(h).numpy().tobytes() == want.tobytes()  # float32 inside, rounded once
    assert opyard.sigmoid(opyard.tensor([-3, 0, 3])).dtype == opyard.float32
    y = opyard.sigmoid(opyard.tensor([float("nan"), float("inf"), -float("inf"), -1000.0])).numpy()
    assert np.isnan(y[0]) and y[1] == 1 and y[2] == 0 and y[3] == 0
    c = opyard.tensor([1 + 1j, -2j], dtype=opyard.complex64)
    np.testing.assert_allclose(opyard.sigmoid(c).numpy(), 1 / (1 + np.exp(-c.numpy())), rtol=1e-6)


def test_silu_of_bfloat16_is_computed_in_float32_and_rounded_once():
    x = opyard.randn(1000).to(opyard.bfloat16)
    wide = x.to(opyard.float32).numpy().astype(np.float64)
    want = (wide / (1 + np.exp(-wide))).astype(np.float32).astype(x.numpy().dtype)
    assert F.silu(x).numpy().tobytes() == want.tobytes()


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_large_sum_and_mean_are_pairwise_accurate(dt, threads):
    x = (np.random.default_rng(5).random(3_000_001) + 0.5).astype(dt)
    exact = np.add.reduce(x.astype(np.float64))
    for n in (1, 2):
        opyard.set_num_threads(n)
        s, m = opyard.from_numpy(x).sum(), opyard.from_numpy(x).mean()
        assert s.dtype == m.dtype == opyard.from_numpy(x).dtype
        assert abs(s.item() - exact) <= 8 * np.finfo(dt).eps * exact
        assert abs(m.item() - exact / x.size) <= 8 * np.finfo(dt).eps * exact / x.size


@pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 every fused function declines")
def test_fused_functions_decline_what_they_do_not_take():
    a = _data((4, 6), np.float32)
    assert _core._fused_softmax(a.T, 0, False) is None  # not C-contiguous
    assert _core._fused_softmax(a.astype(np.float16), 1, False) is None
    assert _core._fused_gelu(np.arange(4), False) is None
    assert _core._fused_norm(a, 6, np.ones(5, np.float32), None, 1e-5, True) is None  # weight length
    assert _core._fused_norm(a, 6, np.ones(6, np.float64), None, 1e-5, True) is None  # weight dtype
    assert _core._fused_softmax_backward(a, a[:2], 1, False) is None
    with pytest.raises(RuntimeError, match="dim 2 out of range"):
        _core._fused_softmax(a, 2, False)


def test_get_and_set_num_threads_as_torch(threads):
    assert opyard.get_num_threads() >= 1
    opyard.set_num_threads(3)
    assert opyard.get_num_threads() == 3
    opyard.set_num_threads(np.int64(1))
    assert opyard.get_num_threads() == 1
    for bad, exc, msg in [(0, RuntimeError, "expects a positive integer"),
                          (-2, RuntimeError, "expects a positive integer"),
                          (1.5, RuntimeError, "expects an int, but got float"),
                          (True, RuntimeError, "expects an int, but got bool"),
                          ("2", RuntimeError, "expects an int, but got str"),
                          (None, RuntimeError, "expects an int, but got NoneType"),
                          (2**31, ValueError, "Overflow when unpacking long"),
                          (2**70, ValueError, "Overflow when unpacking long long")]:
        with pytest.raises(exc, match=msg):
            opyard.set_num_threads(bad)
    assert opyard.get_num_threads() == 1
    assert "set_num_threads" in opyard.__all__ and "get_num_threads" in opyard.__all__


# 16-bit floats: (dtype, scale of values in [0.5, 1.5), mantissa bits). float16's scale keeps the
# sum of a million values (~1e4) below its largest finite value, 65504.
HALVES = [(opyard.bfloat16, 1.0, 8), (opyard.float16, 0.01, 11)]


@pytest.mark.parametrize("dt, scale, bits", HALVES)
def test_large_16_bit_float_sum_and_mean_accumulate_in_float32(dt, scale, bits, threads):
    base = (np.random.default_rng(6).random(1_000_003) + 0.5).astype(np.float32) * np.float32(scale)
    x = opyard.from_numpy(base).to(dt)
    wide = x.to(opyard.float32).numpy().astype(np.float64)
    results = []
    for n in (1, 2):
        opyard.set_num_threads(n)
        s, m = x.sum(), x.mean()
        assert s.dtype == m.dtype == dt
        # float32 accumulation: only the final rounding to the 16-bit format is visible
        assert abs(s.to(opyard.float64).item() - wide.sum()) <= 2 ** -bits * wide.sum()
        assert abs(m.to(opyard.float64).item() - wide.mean()) <= 2 ** -bits * wide.mean()
        results.append((s.to(opyard.float32).item(), m.to(opyard.float32).item()))
    assert results[0] == results[1]  # the blocks are fixed: no dependence on the thread count
    # a float32 running sum of a million values would drift well past that; a 16-bit one stalls early
    assert s.to(opyard.float64).item() > 1e6 * scale * 0.9


def test_large_float16_sum_overflows_to_inf_and_keeps_nan_as_torch():
    ones = opyard.ones(300_000, dtype=opyard.float16)
    assert ones.sum().item() == math.inf  # 300000 > 65504: the float32 sum rounds to inf
    assert ones.mean().item() == 1.0  # the float32 sum is divided before the rounding
    ones[12345] = math.nan
    assert math.isnan(ones.sum().item()) and math.isnan(ones.mean().item())


def test_a_large_strided_16_bit_sum_takes_the_general_path():
    x = opyard.from_numpy((np.arange(600_000, dtype=np.float32) % 7) * np.float32(0.01)).to(opyard.float16)
    t = x.view(2, 300_000).t()  # not contiguous: numpy's float32 reduction
    want = np.add.reduce(t.numpy().astype(np.float32), axis=None).astype(np.float16)
    assert t.sum().numpy().tobytes() == want.tobytes()


@pytest.mark.parametrize("approximate", ["none", "tanh"])
def test_gelu_gradients_through_gelu_backward(approximate):
    x = opyard.randn(3, 4, dtype=opyard.float64, requires_grad=True)
    y = F.gelu(x, approximate=approximate)
    assert type(y.grad_fn).__name__ == "GeluBackward0"
    assert gradcheck(lambda t: F.gelu(t, approximate=approximate), (x,))
    assert gradgradcheck(lambda t: F.gelu(t, approximate=approximate), (x,))
    g = opyard.randn(3, 4, dtype=opyard.float64, requires_grad=True)
    assert gradcheck(lambda g, t: opyard.ops.aten.gelu_backward(g, t, approximate=approximate), (g, x))
    assert gradgradcheck(lambda g, t: opyard.ops.aten.gelu_backward(g, t, approximate=approximate), (g, x))


def test_silu_gradients_and_silu_backward():
    x = opyard.randn(3, 4, dtype=opyard.float64, requires_grad=True)
    assert type(F.silu(x).grad_fn).__name__ == "SiluBackward0"
    assert gradcheck(F.silu, (x,))
    assert gradgradcheck(F.silu, (x,))  # create_graph composes the gradient, as torch does
    g, xs = _data((5, 7), np.float64), _data((5, 7), np.float64, seed=1)
    got = opyard.ops.aten.silu_backward(opyard.from_numpy(g), opyard.from_numpy(xs)).numpy()
    s = 1 / (1 + np.exp(-xs))
    np.testing.assert_allclose(got, g * s * (1 + xs * (1 - s)), rtol=1e-14)
    with pytest.raises(NotImplementedError, match="\"silu_backward_cpu\" not implemented for 'Long'"):
        opyard.ops.aten.silu_backward(opyard.ones(3, dtype=opyard.int64), opyard.ones(3, dtype=opyard.int64))
    with pytest.raises(NotImplementedError, match="\"GeluBackwardKernelImpl\" not implemented for 'Long'"):
        opyard.ops.aten.gelu_backward(opyard.ones(3, dtype=opyard.int64), opyard.ones(3, dtype=opyard.int64))
    with pytest.raises(RuntimeError, match="approximate argument must be either none or tanh"):
        opyard.ops.aten.gelu_backward(opyard.ones(3), opyard.ones(3), approximate="bad")


# --- 16-bit floats: sums along the last dim and bfloat16 math, in float32 rounded once --------------------


@pytest.mark.parametrize("name", ["bfloat16", "float16"])
@pytest.mark.parametrize("shape", [(64, 512), (3, 70000), (40000, 1), (9, 0, 4000), (2, 3, 8000)])
@pytest.mark.parametrize("keepdim", [False, True])
def test_sum_of_16_bit_rows_matches_float64(name, shape, keepdim, threads):
    dt = getattr(opyard, name)
    x = opyard.from_numpy(np.random.default_rng(3).normal(size=shape).astype(np.float32)).to(dt)
    wide = x.to(opyard.float64).numpy().sum(-1, keepdims=keepdim)
    results = []
    for n in (1, 2):
        opyard.set_num_threads(n)
        got = x.sum(-1, keepdim=keepdim)
        assert got.dtype == dt and tuple(got.shape) == wide.shape
        results.append(got.to(opyard.float64).numpy())
        # float32 accumulation, one rounding to the 16-bit type: within one unit of its last place
        np.testing.assert_allclose(results[-1], wide, rtol=2 ** -7 if name == "bfloat16" else 2 ** -10, atol=1e-2)
    np.testing.assert_array_equal(results[0], results[1])  # the value does not depend on the thread count
    # other dims and layouts: the general reduction, the same values up to its rounding
    t = x.transpose(0, -1) if x.dim() > 1 else x
    np.testing.assert_allclose(t.sum(0).to(opyard.float64).numpy(), t.to(opyard.float64).numpy().sum(0),
                               rtol=2 ** -6, atol=1e-2)


def test_sum_of_16_bit_rows_keeps_inf_and_nan_and_overflows_as_torch():
    x = opyard.ones(4, 40000, dtype=opyard.bfloat16)
    x[1, 7] = float("nan")
    x[2, 9] = float("inf")
    x[3] = 3e38
    got = x.sum(1).tolist()
    # 40000 rounds to bfloat16's 39936 (steps of 256 there)
    assert got[0] == 39936.0 and math.isnan(got[1]) and got[2] == math.inf and got[3] == math.inf
    h = opyard.full((2, 40000), 2.0, dtype=opyard.float16)
    assert h.sum(1).tolist() == [math.inf, math.inf]  # 80000 is past float16's range


@pytest.mark.parametrize("name", ["exp", "expm1", "sin", "cos", "tanh", "log", "log1p", "sqrt", "rsqrt",
                                  "reciprocal"])
@pytest.mark.parametrize("shape", [(100,), (5000,), (3, 1 << 15)])
def test_bfloat16_math_is_float32_math_rounded_once(name, shape, threads):
    x32 = (np.random.default_rng(4).normal(size=shape) * 3).astype(np.float32)
    x32.reshape(-1)[:5] = [np.nan, np.inf, -np.inf, 0.0, -0.0]
    x = opyard.from_numpy(x32).to(opyard.bfloat16)
    exact = getattr(opyard, name)(x.to(opyard.float64)).to(opyard.bfloat16)  # float64, rounded once
    for n in (1, 2):
        opyard.set_num_threads(n)
        got = getattr(opyard, name)(x)
        assert got.dtype == opyard.bfloat16 and got.shape == x.shape
        g, e = got.to(opyard.float32).numpy(), exact.to(opyard.float32).numpy()
        same = (g == e) | (np.isnan(g) & np.isnan(e))
        # float32 math is within a few float32 ulp: after rounding to bfloat16 it differs from the
        # correctly rounded value at most by one bfloat16 step, and only rarely
        assert same.mean() > 0.999
        np.testing.assert_allclose(g[~same], e[~same], rtol=2 ** -7)
    if hasattr(x, name + "_"):  # the in-place form computes the same
        inplace = x.clone()
        getattr(inplace, name + "_")()
        np.testing.assert_array_equal(inplace.to(opyard.float32).numpy(), got.to(opyard.float32).numpy())


@pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 every fused function declines")
def test_round_to_bfloat16_rounds_to_nearest_even_and_keeps_nan():
    v = np.array([1.0, 1.00390625, 1.01171875, 1.0 + 2 ** -8 + 2 ** -20, 3e38, -0.0, np.inf, np.nan],
                 dtype=np.float32)
    bits = _core._round_to_bf16(v)
    want = opyard.from_numpy(v).to(opyard.bfloat16)  # ml_dtypes' conversion
    assert bits.dtype == np.uint16 and bits.shape == v.shape
    np.testing.assert_array_equal(bits, want.numpy().view(np.uint16))
    assert _core._round_to_bf16(v[::2]) is None and _core._round_to_bf16(v.astype(np.float64)) is None


# --- cumsum / cumprod: float32 and complex64 accumulate in double, as torch's CPU scans -------------------


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5000,), (64, 300), (3, 70, 50), (1, 1), (0, 7), (4096, 2)])
def test_scans_accumulate_in_double_along_every_dim(name, dt, shape, threads):
    rng = np.random.default_rng(7)
    x = rng.normal(size=shape).astype(dt)
    if name == "cumprod":
        x = (1 + x * 1e-3).astype(dt)
    for d in range(len(shape)):
        want = getattr(np, name)(x.astype(np.float64), axis=d).astype(dt)
        for n in (1, 2):
            opyard.set_num_threads(n)
            for t in (opyard.from_numpy(x), opyard.from_numpy(np.asfortranarray(x))):  # any layout
                got = getattr(opyard, name)(t, d)
                assert got.dtype == t.dtype and got.is_contiguous()
                np.testing.assert_array_equal(got.numpy(), want)


def test_scans_as_torch_where_a_single_precision_sum_would_lose_the_small_terms():
    small = [1.0] + [1e-8] * 1000
    assert opyard.cumsum(opyard.tensor(small), 0)[-1].item() == 1.0000100135803223
    assert opyard.cumsum(opyard.tensor(small, dtype=opyard.complex64), 0)[-1].real.item() == 1.0000100135803223
    assert opyard.cumprod(opyard.full((1000,), 1.00001), 0)[-1].item() == 1.010063886642456
    ints = opyard.tensor([1, 2, 3], dtype=opyard.int32)
    assert opyard.cumsum(ints, 0).dtype == opyard.int64
    got = opyard.cumsum(ints, 0, dtype=opyard.float32)
    assert got.dtype == opyard.float32 and got.tolist() == [1.0, 3.0, 6.0]
    y = opyard.tensor(small)
    y.cumsum_(0)
    assert y[-1].item() == 1.0000100135803223
    o = opyard.empty(1001)
    opyard.cumsum(opyard.tensor(small), 0, out=o)
    assert o[-1].item() == 1.0000100135803223


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dt", [opyard.float32, opyard.complex64, opyard.float64, opyard.bfloat16, opyard.int32])
def test_a_scan_of_a_0_d_tensor_is_0_d(name, dt):
    got = getattr(opyard, name)(opyard.tensor(3, dtype=dt), 0)
    assert got.shape == () and got.item() == 3
