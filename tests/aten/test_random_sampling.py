"""The samplers (``bernoulli``, ``cauchy_``, ``exponential_``, ``geometric_``, ``log_normal_``,
``random_``, ``randint_like``, ``multinomial``): their distributions (sample moments and quantiles
with a fixed seed, the support), reproducibility under ``manual_seed``, result dtypes and shapes,
autograd nodes, vmap's randomness modes and Meta kernels. Their errors are checked against torch's
recorded ones in ``test_sampling_placement_answers.py``."""

import math

import numpy as np
import pytest

import opyard

N = 200_000


@pytest.fixture(autouse=True)
def _seeded():
    opyard.manual_seed(1234)


def _draw(method, *args, dtype=opyard.float64, n=N):
    return getattr(opyard.empty(n, dtype=dtype), method)(*args).numpy()


def test_exponential_moments():
    x = _draw("exponential_", 2.5)
    assert (x >= 0).all()
    assert x.mean() == pytest.approx(1 / 2.5, rel=0.01)
    assert x.var() == pytest.approx(1 / 2.5 ** 2, rel=0.03)


def test_cauchy_quantiles():
    x = _draw("cauchy_", 1.5, 0.5)
    # median 1.5, quartiles at median -/+ sigma
    assert np.median(x) == pytest.approx(1.5, abs=0.01)
    assert np.quantile(x, 0.25) == pytest.approx(1.0, abs=0.01)
    assert np.quantile(x, 0.75) == pytest.approx(2.0, abs=0.01)


def test_log_normal_moments():
    x = _draw("log_normal_", 0.5, 0.25)
    assert (x > 0).all()
    assert np.log(x).mean() == pytest.approx(0.5, abs=0.005)
    assert np.log(x).std() == pytest.approx(0.25, rel=0.01)
    assert x.mean() == pytest.approx(math.exp(0.5 + 0.25 ** 2 / 2), rel=0.01)


@pytest.mark.parametrize("dtype", [opyard.float32, opyard.int64, opyard.uint8])
def test_geometric_support_and_mean(dtype):
    x = _draw("geometric_", 0.3, dtype=dtype).astype(np.float64)
    assert x.min() == 1 and (x == np.round(x)).all()
    assert x.mean() == pytest.approx(1 / 0.3, rel=0.02)
    assert (x == 1).mean() == pytest.approx(0.3, abs=0.005)


def test_bernoulli_reads_a_probability_per_element():
    p = opyard.tensor([0.0, 0.25, 0.9, 1.0], dtype=opyard.float64).expand(N // 4, 4).contiguous()
    x = opyard.bernoulli(p).numpy()
    assert set(np.unique(x)) <= {0.0, 1.0}
    np.testing.assert_allclose(x.mean(axis=0), [0.0, 0.25, 0.9, 1.0], atol=0.01)
    assert x[:, 0].max() == 0 and x[:, 3].min() == 1


@pytest.mark.parametrize("dtype", [opyard.float16, opyard.bfloat16, opyard.float32, opyard.int32, opyard.bool])
def test_bernoulli_with_one_probability_keeps_the_dtype(dtype):
    x = opyard.bernoulli(opyard.zeros(N, dtype=dtype), 0.3)
    assert x.dtype == dtype
    assert x.double().mean().item() == pytest.approx(0.3, abs=0.01)
    y = opyard.zeros(N, dtype=dtype).bernoulli_(0.6)
    assert y.dtype == dtype and y.double().mean().item() == pytest.approx(0.6, abs=0.01)


def test_bernoulli_inplace_with_a_broadcast_probability_tensor():
    x = opyard.zeros(N // 2, 2).bernoulli_(opyard.tensor([0.2, 0.7]))
    np.testing.assert_allclose(x.numpy().mean(axis=0), [0.2, 0.7], atol=0.01)


@pytest.mark.parametrize("dtype, low, high", [
    (opyard.int64, -5, 7), (opyard.uint8, 0, 256), (opyard.int8, -128, 128), (opyard.float32, 2, 10),
    (opyard.bool, 0, 2),
])
def test_randint_like_is_uniform_on_the_range(dtype, low, high):
    x = opyard.randint_like(opyard.empty(N, dtype=dtype), low, high)
    assert x.dtype == dtype and x.shape == (N,)
    v = x.numpy().astype(np.int64)
    assert v.min() == low and v.max() == high - 1
    counts = np.bincount(v - low)
    np.testing.assert_allclose(counts / N, 1 / (high - low), rtol=0.2)


def test_randint_like_arguments():
    x = opyard.ones(2, 3, dtype=opyard.float16)
    assert opyard.randint_like(x, 4).dtype == opyard.float16
    assert opyard.randint_like(x, 4, dtype=opyard.int16).dtype == opyard.int16
    assert opyard.randint_like(x, opyard.tensor(3)).numpy().max() < 3
    assert opyard.randint_like(x, 4, requires_grad=True).requires_grad
    cl = opyard.empty(2, 3, 4, 5).contiguous(memory_format=opyard.channels_last)
    assert opyard.randint_like(cl, 3).stride() == cl.stride()


def test_random_inplace_ranges():
    assert _draw("random_", 3, dtype=opyard.int64, n=1000).max() == 2
    v = _draw("random_", -4, 4, dtype=opyard.int64, n=1000)
    assert v.min() == -4 and v.max() == 3
    assert _draw("random_", dtype=opyard.uint8, n=5000).max() == 255
    assert _draw("random_", dtype=opyard.bool, n=1000).sum() > 0


def test_multinomial_with_replacement_frequencies():
    p = opyard.tensor([[1.0, 2.0, 7.0], [0.0, 5.0, 5.0]], dtype=opyard.float64)
    idx = opyard.multinomial(p, N, replacement=True)
    assert idx.dtype == opyard.int64 and idx.shape == (2, N)
    v = idx.numpy()
    np.testing.assert_allclose(np.bincount(v[0], minlength=3) / N, [0.1, 0.2, 0.7], atol=0.01)
    np.testing.assert_allclose(np.bincount(v[1], minlength=3) / N, [0.0, 0.5, 0.5], atol=0.01)


def test_multinomial_without_replacement():
    p = opyard.tensor([0.1, 0.0, 0.6, 0.3])
    for _ in range(20):
        idx = opyard.multinomial(p, 3).tolist()
        assert len(set(idx)) == 3 and 1 not in idx  # the zero-probability category comes last
    first = [opyard.multinomial(p, 1).item() for _ in range(4000)]
    np.testing.assert_allclose(np.bincount(first, minlength=4) / 4000, [0.1, 0.0, 0.6, 0.3], atol=0.03)
    assert sorted(opyard.multinomial(p, 4).tolist()) == [0, 1, 2, 3]


def test_multinomial_shapes_and_out():
    assert opyard.multinomial(opyard.ones(0, 3), 1, True).shape == (0, 1)
    out = opyard.empty(0, dtype=opyard.int64)
    r = opyard.multinomial(opyard.tensor([0.2, 0.8]), 2, True, out=out)
    assert r is out and out.shape == (2,)


def test_normal_with_tensor_mean_and_std():
    mean = opyard.tensor([-2.0, 0.0, 5.0], dtype=opyard.float64).expand(N // 3, 3)
    std = opyard.tensor([0.5, 1.0, 3.0], dtype=opyard.float64)
    x = opyard.normal(mean, std).numpy()
    assert x.shape == (N // 3, 3)
    np.testing.assert_allclose(x.mean(axis=0), [-2.0, 0.0, 5.0], atol=0.05)
    np.testing.assert_allclose(x.std(axis=0), [0.5, 1.0, 3.0], rtol=0.02)
    assert opyard.normal(2.0, opyard.full((N,), 0.5)).numpy().std() == pytest.approx(0.5, rel=0.02)
    assert opyard.normal(opyard.full((N,), 4.0), 2.0).numpy().mean() == pytest.approx(4.0, abs=0.03)
    x = opyard.normal(1.0, 2.0, (N,), dtype=opyard.float64)
    assert x.dtype == opyard.float64 and x.numpy().mean() == pytest.approx(1.0, abs=0.03)
    z = opyard.normal(opyard.zeros(N, dtype=opyard.complex128), 1.0).numpy()
    assert z.real.var() == pytest.approx(0.5, rel=0.02) and z.imag.var() == pytest.approx(0.5, rel=0.02)


def test_normal_result_dtypes_and_shapes():
    assert opyard.normal(opyard.zeros(2, 1), opyard.ones(3)).shape == (2, 3)
    assert opyard.normal(opyard.zeros(2, dtype=opyard.float64), opyard.ones(2)).dtype == opyard.float64
    assert opyard.normal(0.0, opyard.ones(2, dtype=opyard.float16)).dtype == opyard.float16
    assert opyard.normal(opyard.tensor(1.0), opyard.tensor(0.5)).shape == ()
    m = opyard.zeros(3, requires_grad=True)
    s = opyard.ones(3, requires_grad=True)
    for r in (opyard.normal(m, 1.0), opyard.normal(0.0, s), opyard.normal(m, s)):
        assert r.grad_fn is not None  # its name: test_sampling_placement_answers
    opyard.normal(m, s).sum().backward()
    assert m.grad.tolist() == [0.0] * 3 and s.grad.tolist() == [0.0] * 3


def test_manual_seed_reproduces_draws():
    opyard.manual_seed(7)
    a = [opyard.empty(5).cauchy_().tolist(), opyard.multinomial(opyard.ones(6), 3).tolist()]
    opyard.manual_seed(7)
    assert a == [opyard.empty(5).cauchy_().tolist(), opyard.multinomial(opyard.ones(6), 3).tolist()]


@pytest.mark.parametrize("method, args", [
    ("cauchy_", ()), ("exponential_", ()), ("geometric_", (0.5,)), ("log_normal_", ()), ("bernoulli_", (0.5,)),
    ("random_", (0, 5)), ("random_", (5,)), ("random_", ()),
])
def test_inplace_samplers_record_a_zero_gradient(method, args):
    x = opyard.ones(3, dtype=opyard.float64, requires_grad=True)
    y = getattr(x.clone(), method)(*args)
    assert y.grad_fn is not None  # its name: test_sampling_placement_answers
    (y * 3).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_bernoulli_gradients():
    p = opyard.full((3,), 0.5, dtype=opyard.float64, requires_grad=True)
    r = opyard.bernoulli(p)
    assert r.grad_fn is not None  # its name: test_sampling_placement_answers
    r.sum().backward()
    assert p.grad.tolist() == [0.0, 0.0, 0.0]
    y = opyard.zeros(3, dtype=opyard.float64, requires_grad=True).clone().bernoulli_(p)
    assert y.grad_fn is not None  # its name: test_sampling_placement_answers
    r = opyard.bernoulli(p, 0.3)
    assert r.grad_fn is not None  # its name: test_sampling_placement_answers
    with pytest.raises(RuntimeError, match="derivative for aten::bernoulli is not implemented"):
        r.sum().backward()
    assert not opyard.multinomial(p, 2).requires_grad


def test_vmap_randomness_modes():
    x = opyard.zeros(3, 1000, dtype=opyard.float64)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        opyard.vmap(lambda t: t.clone().exponential_())(x)
    diff = opyard.vmap(lambda t: t.clone().exponential_(), randomness="different")(x).numpy()
    assert not np.array_equal(diff[0], diff[1])
    same = opyard.vmap(lambda t: t.clone().exponential_(), randomness="same")(x).numpy()
    assert np.array_equal(same[0], same[1]) and np.array_equal(same[0], same[2])
    same = opyard.vmap(lambda t: opyard.randint_like(t, 9), randomness="same")(x).numpy()
    assert np.array_equal(same[0], same[2])
    p = opyard.stack([opyard.zeros(500), opyard.ones(500)]).double()
    b = opyard.vmap(opyard.bernoulli, randomness="different")(p).numpy()
    assert b[0].max() == 0 and b[1].min() == 1
    m = opyard.vmap(lambda q: opyard.multinomial(q, 2), randomness="different")(
        opyard.tensor([[0.0, 1.0, 1.0], [1.0, 1.0, 0.0]]))
    assert m.shape == (2, 2) and 0 not in m[0].tolist() and 2 not in m[1].tolist()
    m = opyard.vmap(lambda q: opyard.multinomial(q, 3, True), randomness="different")(
        opyard.tensor([[[0.0, 1.0], [1.0, 0.0]]] * 4))
    assert m.shape == (4, 2, 3) and m[:, 0].tolist() == [[1] * 3] * 4 and m[:, 1].tolist() == [[0] * 3] * 4


def test_meta_kernels():
    m = opyard.empty(3, 4, device="meta")
    assert opyard.bernoulli(m).shape == (3, 4)
    assert opyard.multinomial(m, 2).shape == (3, 2) and opyard.multinomial(m, 2).dtype == opyard.int64
    assert opyard.randint_like(m, 5, dtype=opyard.int8).dtype == opyard.int8
    assert m.cauchy_() is m
    with pytest.raises(RuntimeError, match="cannot sample n_sample > prob_dist.size"):
        opyard.multinomial(m, 5)
    with pytest.raises(RuntimeError, match="geometric_ expects p to be in"):
        m.geometric_(2.0)


