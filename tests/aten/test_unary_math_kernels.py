"""The one-pass Rust kernels of the unary math and the ternary pointwise ops (Note [Unary math in one
pass], src/kernels/unary_math.rs), and the fused rms_norm forward and layer_norm backward: ``exp`` of
float32/bfloat16/float16, float64 ``sin``/``cos``, ``addcmul``/``addcdiv`` of float32/float64.

Each is pinned against float64 numpy references below and above the size where the intra-op pool
switches on (2 * 32768 elements), on 1 and 2 threads (bit-identical), for contiguous, transposed and
strided inputs; rms_norm keeps its composition wherever a gradient, a mode or a non-plain tensor must
see the composed ops."""

import math

import ml_dtypes
import numpy as np
import opyard
import pytest
from opyard import _core
from opyard.autograd import gradcheck

F = opyard.nn.functional
BF16 = np.dtype(ml_dtypes.bfloat16)
SIZES = [5000, 70_001, 300_000]  # on the calling thread, just above the pool threshold, many tasks
FAST = pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 every Rust kernel declines")


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


def _on_threads(fn):
    """``fn()`` on 1 and 2 threads: the results must be bit-identical; returns the first."""
    opyard.set_num_threads(1)
    one = fn()
    opyard.set_num_threads(2)
    two = fn()
    assert one.tobytes() == two.tobytes()
    return one


def _bits(a):
    """The raw bits of ``a`` (any layout), for comparisons that see -0.0 and nan payloads."""
    a = np.ascontiguousarray(a)
    return a.view({2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])


def _ulps32(got, want64):
    """Distance in float32 ulps between ``got`` (float32) and the float64 value ``want64``."""
    want = want64.astype(np.float32)
    return np.abs(got.view(np.int32).astype(np.int64) - want.view(np.int32).astype(np.int64))


# --- exp ----------------------------------------------------------------------------------------


@FAST
@pytest.mark.parametrize("n", SIZES)
def test_exp_float32_within_one_ulp_of_float64(n, threads):
    x = np.random.default_rng(n).uniform(-103.0, 88.7, n).astype(np.float32)
    x[:6] = [0.0, -0.0, 88.72, -87.0, -100.0, 1e-30]
    got = _on_threads(lambda: opyard.exp(opyard.from_numpy(x)).numpy())
    assert got.dtype == np.float32
    assert _ulps32(got, np.exp(x.astype(np.float64))).max() <= 1
    assert got[0] == 1.0 and got[1] == 1.0


@FAST
def test_exp_float32_special_values():
    x = np.full(10_000, 1.0, np.float32)
    x[:6] = [np.inf, -np.inf, np.nan, 89.0, -104.0, -1e30]
    got = opyard.exp(opyard.from_numpy(x)).numpy()
    assert got[0] == np.inf and got[1] == 0.0 and np.isnan(got[2]) and got[3] == np.inf
    assert got[4] == 0.0 and got[5] == 0.0 and (got[6:] == np.float32(math.e)).all()


@FAST
@pytest.mark.parametrize("dt", [BF16, np.dtype(np.float16)])
@pytest.mark.parametrize("n", SIZES)
def test_exp_16_bit_is_float32_rounded_once(dt, n, threads):
    lo, hi = (-80, 80) if dt == BF16 else (-9.5, 11)  # float16: normal results
    x = np.random.default_rng(n).uniform(lo, hi, n).astype(np.float32).astype(dt)
    got = _on_threads(lambda: opyard.exp(opyard.from_numpy(x)).numpy())
    assert got.dtype == dt
    want = np.exp(x.astype(np.float64))
    # one rounding of a float32 value within 1 float32 ulp: at most one 16-bit ulp off
    rtol = 2 ** -7 if dt == BF16 else 2 ** -10
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=rtol, atol=1e-30)
    # and exactly the float32 kernel's value rounded once to nearest even
    w32 = opyard.exp(opyard.from_numpy(x.astype(np.float32))).numpy()
    np.testing.assert_array_equal(got.view(np.uint16), w32.astype(dt).view(np.uint16))


@pytest.mark.parametrize("dt", [np.dtype(np.float32), BF16, np.dtype(np.float16)])
def test_exp_keeps_the_layout_and_values_of_strided_inputs(dt):
    x = np.random.default_rng(3).uniform(-8, 8, (300, 500)).astype(np.float32).astype(dt)
    t = opyard.from_numpy(x)
    want = opyard.exp(t).numpy()
    r = opyard.exp(t.t())
    assert r.stride() == (1, 500)  # a transposed input gives a transposed result, as torch's
    np.testing.assert_array_equal(_bits(r.numpy()), _bits(want.T))
    s = opyard.exp(t[::2, 1::3])
    np.testing.assert_array_equal(_bits(s.numpy()), _bits(want[::2, 1::3]))
    p = opyard.exp(opyard.from_numpy(x.reshape(30, 10, 500)).permute(2, 0, 1))
    np.testing.assert_array_equal(_bits(p.numpy()), _bits(want.reshape(30, 10, 500).transpose(2, 0, 1)))
    y = t.clone()
    y.exp_()
    np.testing.assert_array_equal(_bits(y.numpy()), _bits(want))


def test_exp_16_bit_special_values():
    for dt in (opyard.bfloat16, opyard.float16):
        x = opyard.full((10_000,), 1.0, dtype=dt)
        x[:5] = opyard.tensor([float("inf"), float("-inf"), float("nan"), 0.0, -0.0], dtype=dt)
        e = opyard.exp(x).float().numpy()
        assert e[0] == np.inf and e[1] == 0.0 and np.isnan(e[2]) and e[3] == 1.0 and e[4] == 1.0
        assert e[5] == float(opyard.exp(opyard.tensor(1.0, dtype=dt)))


@FAST
def test_unary_math_declines_what_it_does_not_cover():
    x = np.arange(10, dtype=np.float32)
    assert _core._unary_math(x, "log", 0) is None  # no Rust log
    assert _core._unary_math(x.astype(np.float64), "exp", 0) is None  # numpy's float64 exp
    assert _core._unary_math(x, "sin", 0) is None  # numpy's vectorised float32 sin
    assert _core._unary_math(np.arange(10.0)[::2], "sin", 0) is None  # not contiguous
    assert _core._unary_math(x.view(np.uint16), "sin", 1) is None  # 16-bit: exp and tanh only


# --- sin / cos of float64 ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["sin", "cos"])
@pytest.mark.parametrize("n", SIZES)
def test_sin_cos_float64_within_one_ulp_of_numpy(name, n, threads):
    rng = np.random.default_rng(n)
    x = np.concatenate([rng.uniform(-10, 10, n // 2), rng.uniform(-2e6, 2e6, n - n // 2)])
    k = np.arange(-500, 500)
    x[:1000] = k * (np.pi / 2)  # the multiples of pi/2: the reduction's hardest cancellations
    x[1000:1008] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e300, 5e-324, -1e-300]
    got = _on_threads(lambda: getattr(opyard, name)(opyard.from_numpy(x)).numpy())
    with np.errstate(invalid="ignore"):
        want = getattr(np, name)(x)
    nan = np.isnan(want)
    assert np.isnan(got[nan]).all()
    d = np.abs(got[~nan].view(np.int64) - want[~nan].view(np.int64))
    assert d.max() <= 1  # numpy's values are the C library's, correctly rounded in practice
    assert (np.signbit(got[~nan]) == np.signbit(want[~nan])).all()
    assert got[1000] == want[1000] and np.signbit(got[1001]) == np.signbit(want[1001])


@pytest.mark.parametrize("name", ["sin", "cos"])
def test_sin_cos_float64_strided_and_in_place(name):
    x = np.random.default_rng(9).uniform(-50, 50, (300, 400))
    t = opyard.from_numpy(x)
    want = getattr(opyard, name)(t).numpy()
    np.testing.assert_array_equal(getattr(opyard, name)(t.t()).numpy(), want.T)
    np.testing.assert_array_equal(getattr(opyard, name)(t[:, ::3]).numpy(), want[:, ::3])
    y = t.clone()
    getattr(y, name + "_")()
    np.testing.assert_array_equal(y.numpy(), want)


# --- addcmul / addcdiv ------------------------------------------------------------------------


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", ["addcmul", "addcdiv"])
@pytest.mark.parametrize("value", [1, 0.5, -3, True])
def test_addc_is_numpys_value_element_for_element(dt, n, op, value, threads):
    rng = np.random.default_rng(n)
    s, a, b = (rng.standard_normal(n).astype(dt) for _ in range(3))
    b[:3] = [0.0, -0.0, np.inf]
    got = _on_threads(lambda: getattr(opyard, op)(*(opyard.from_numpy(v) for v in (s, a, b)),
                                                   value=value).numpy())
    assert got.dtype == dt
    cdt = np.float32 if dt == np.float16 else dt
    s32, a32, b32 = (v.astype(cdt) for v in (s, a, b))
    with np.errstate(all="ignore"):
        term = a32 * b32 if op == "addcmul" else a32 / b32
        want = (term * cdt(value) if value != 1 or value is True else term) + s32
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got, want.astype(dt))
    # and close to the float64 value
    with np.errstate(all="ignore"):
        w64 = s.astype(np.float64) + float(value) * (a.astype(np.float64) * b.astype(np.float64) if op == "addcmul"
                                                     else a.astype(np.float64) / b.astype(np.float64))
    fin = np.isfinite(w64) & (np.abs(w64) < np.finfo(dt).max / 2)
    np.testing.assert_allclose(got[fin].astype(np.float64), w64[fin],
                               rtol={np.float32: 1e-5, np.float64: 1e-13, np.float16: 2e-3}[dt], atol=1e-6)


def test_addc_broadcast_strided_and_in_place_keep_the_numpy_path_values():
    rng = np.random.default_rng(2)
    s, a = rng.standard_normal((400, 300)), rng.standard_normal((400, 300))
    b = rng.standard_normal(300)
    ts, ta, tb = (opyard.from_numpy(v.astype(np.float32)) for v in (s, a, b))
    want = opyard.addcmul(ts, ta, tb.expand(400, 300).contiguous(), value=2.0).numpy()
    np.testing.assert_array_equal(opyard.addcmul(ts, ta, tb, value=2.0).numpy(), want)  # broadcast
    np.testing.assert_array_equal(opyard.addcmul(ts.t(), ta.t(), tb.expand(400, 300).t(), value=2.0).numpy(),
                                  want.T)  # transposed
    y = ts.clone()
    y.addcmul_(ta, tb.expand(400, 300).contiguous(), value=2.0)
    np.testing.assert_array_equal(y.numpy(), want)
    # integer data keeps the numpy kernel (wrapping products)
    i = opyard.arange(10_000, dtype=opyard.int64)
    assert opyard.addcmul(i, i, i, value=2).tolist()[-1] == 9999 + 2 * 9999 * 9999


def test_addc_gradients_unchanged():
    a, b, c = (opyard.randn(70_000, dtype=opyard.float64, requires_grad=True) for _ in range(3))
    y = opyard.addcdiv(a, b, c.abs() + 1, value=0.5)
    assert y.grad_fn.name() == "AddcdivBackward0"
    assert gradcheck(lambda a, b, c: opyard.addcmul(a, b, c, value=0.5),
                     tuple(opyard.randn(5, dtype=opyard.float64, requires_grad=True) for _ in range(3)))


# --- rms_norm forward, layer_norm backward ----------------------------------------------------


def _rms64(x, w, eps, n):
    v = x.astype(np.float64)
    axes = tuple(range(v.ndim - n, v.ndim))
    y = v / np.sqrt((v * v).mean(axis=axes, keepdims=True) + eps)
    return y if w is None else y * w.astype(np.float64)


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.float16, BF16])
@pytest.mark.parametrize("shape", [(7, 13), (300, 257), (64, 8, 512)])
@pytest.mark.parametrize("weighted", [True, False])
def test_rms_norm_fused_forward_matches_float64(dt, shape, weighted, threads):
    rng = np.random.default_rng(sum(shape))
    x = (rng.standard_normal(shape) * 3 + 1).astype(dt)
    w = rng.standard_normal(shape[-1]).astype(dt) if weighted else None
    tw = None if w is None else opyard.from_numpy(w)
    got = _on_threads(lambda: F.rms_norm(opyard.from_numpy(x), shape[-1:], tw).numpy())
    assert got.dtype == dt and got.shape == shape
    eps = np.finfo(np.float64 if dt == np.float64 else np.float32).eps
    tol = {np.float32: 2e-6, np.float64: 1e-13}.get(dt, 8e-3)
    np.testing.assert_allclose(got.astype(np.float64), _rms64(x, w, eps, 1), rtol=tol, atol=tol)
    # over the last two dims, an explicit eps, a non-contiguous input
    got2 = F.rms_norm(opyard.from_numpy(x).transpose(0, -1).transpose(0, -1), shape[-2:], None, 1e-3).numpy()
    np.testing.assert_allclose(got2.astype(np.float64), _rms64(x, None, 1e-3, 2), rtol=tol, atol=tol)


def test_rms_norm_keeps_its_composition_where_it_must():
    x = opyard.randn(4, 16, dtype=opyard.float64, requires_grad=True)
    w = opyard.randn(16, dtype=opyard.float64, requires_grad=True)
    y = F.rms_norm(x, (16,), w)
    assert y.grad_fn is not None and y.grad_fn.name() == "MulBackward0"  # torch's graph
    assert gradcheck(lambda x, w: F.rms_norm(x, (16,), w), (x, w))
    with opyard.no_grad():  # no graph to record: the fused kernel, the same values
        np.testing.assert_allclose(F.rms_norm(x, (16,), w).numpy(), y.detach().numpy(), rtol=1e-14)
    from opyard._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        f = F.rms_norm(opyard.empty(4, 16), (16,))
        assert f.shape == (4, 16)
    from opyard.utils._python_dispatch import TorchDispatchMode

    seen = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return func(*args, **(kwargs or {}))

    with Log():
        F.rms_norm(opyard.randn(4, 16), (16,))
    assert any("rsqrt" in s for s in seen)  # a mode sees the composed ops, as torch's
    bx = opyard.randn(3, 4, 16)
    np.testing.assert_allclose(opyard.vmap(lambda r: F.rms_norm(r, (16,)))(bx).numpy(),
                               F.rms_norm(bx, (16,)).numpy(), rtol=1e-6)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5, 7), (300, 257), (2048, 64)])
def test_layer_norm_backward_fused_matches_float64(dt, shape, threads):
    rng = np.random.default_rng(shape[0])
    x = (rng.standard_normal(shape) * 2 + 0.5).astype(dt)
    w, b = rng.standard_normal(shape[-1]).astype(dt), rng.standard_normal(shape[-1]).astype(dt)
    g = rng.standard_normal(shape).astype(dt)

    def grads():
        tx, tw, tb = (opyard.from_numpy(v).requires_grad_() for v in (x, w, b))
        F.layer_norm(tx, shape[-1:], tw, tb).backward(opyard.from_numpy(g))
        return np.concatenate([tx.grad.numpy().ravel(), tw.grad.numpy(), tb.grad.numpy()])

    got = _on_threads(grads)
    x64, g64 = x.astype(np.float64), g.astype(np.float64)
    mean = x64.mean(-1, keepdims=True)
    rstd = 1 / np.sqrt(x64.var(-1, keepdims=True) + 1e-5)
    xhat = (x64 - mean) * rstd
    d = g64 * w
    dx = rstd * (d - d.mean(-1, keepdims=True) - xhat * (d * xhat).mean(-1, keepdims=True))
    want = np.concatenate([dx.ravel(), (g64 * xhat).sum(0), g64.sum(0)])
    tol = dict(rtol=1e-4, atol=1e-4) if dt == np.float32 else dict(rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(got, want, **tol)


def test_layer_norm_saves_its_statistics_not_its_result():
    x = opyard.randn(64, 1024, requires_grad=True)
    w, b = opyard.randn(1024, requires_grad=True), opyard.randn(1024, requires_grad=True)
    y = F.layer_norm(x, (1024,), w, b)
    _, mean, rstd = opyard.native_layer_norm(x.detach(), (1024,), None, None, 1e-5)
    saved = y.grad_fn._saved_result
    assert saved[0] is None  # as torch: result1 and result2 only
    np.testing.assert_array_equal(saved[1].numpy(), mean.numpy())
    np.testing.assert_array_equal(saved[2].numpy(), rstd.numpy())
    g = opyard.randn(64, 1024)
    y.backward(g)
    want = [t.grad.clone() for t in (x, w, b)]
    for t in (x, w, b):
        t.grad = None
    y = F.layer_norm(x, (1024,), w, b)
    y.mul_(2)  # the result changed in place: its backward does not read it
    y.backward(g / 2)
    for t, wt in zip((x, w, b), want):
        np.testing.assert_allclose(t.grad.numpy(), wt.numpy(), rtol=1e-5, atol=1e-6)
