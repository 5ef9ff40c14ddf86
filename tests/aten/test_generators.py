"""``opyard.Generator`` and ``generator=``: a seed gives one stream, a saved state restores it, a
generator of its own leaves the default generator alone, and every sampler honours it; ``poisson``
and ``binomial`` draw from the right distributions."""

import copy
import pickle

import numpy as np
import pytest

import opyard
from opyard.random import fork_rng

X = opyard.arange(6.0).reshape(2, 3)

# Each sampler and factory that takes ``generator=`` in torch's schema, as a call with a generator.
DRAWS = {
    "rand": lambda g: opyard.rand(2, 3, generator=g),
    "randn": lambda g: opyard.randn(4, generator=g, dtype=opyard.float64),
    "randn_complex": lambda g: opyard.randn(3, generator=g, dtype=opyard.complex64),
    "randint": lambda g: opyard.randint(10, (5,), generator=g),
    "randint_low": lambda g: opyard.randint(-4, 10, (5,), generator=g),
    "randperm": lambda g: opyard.randperm(8, generator=g),
    "rand_like": lambda g: opyard.rand_like(X, generator=g),
    "randn_like": lambda g: opyard.randn_like(X, generator=g),
    "randint_like": lambda g: opyard.randint_like(X, 3, 9, generator=g),
    "normal_float_float": lambda g: opyard.normal(0.0, 1.0, (4,), generator=g),
    "normal_tensor": lambda g: opyard.normal(X, X + 1, generator=g),
    "bernoulli": lambda g: opyard.bernoulli(X / 6, generator=g),
    "bernoulli_p": lambda g: opyard.bernoulli(X, 0.5, generator=g),
    "multinomial": lambda g: opyard.multinomial(X + 1, 3, generator=g),
    "multinomial_replacement": lambda g: opyard.multinomial(X + 1, 5, True, generator=g),
    "uniform_": lambda g: X.clone().uniform_(generator=g),
    "normal_": lambda g: X.clone().normal_(generator=g),
    "exponential_": lambda g: X.clone().exponential_(generator=g),
    "geometric_": lambda g: X.clone().geometric_(0.3, generator=g),
    "cauchy_": lambda g: X.clone().cauchy_(generator=g),
    "log_normal_": lambda g: X.clone().log_normal_(generator=g),
    "random_": lambda g: X.clone().random_(0, 1000, generator=g),
    "bernoulli_": lambda g: X.clone().bernoulli_(0.5, generator=g),
    "poisson": lambda g: opyard.poisson(X * 3, g),
    "binomial": lambda g: opyard.binomial(X * 4, opyard.full((2, 3), 0.5), generator=g),
    "rrelu": lambda g: opyard.ops.aten.rrelu_with_noise(X - 3, opyard.zeros(2, 3), training=True, generator=g),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_a_seed_gives_one_stream_and_the_default_generator_is_untouched(name):
    draw = DRAWS[name]
    before = opyard.get_rng_state()
    a = draw(opyard.Generator().manual_seed(11))
    b = draw(opyard.Generator().manual_seed(11))
    assert opyard.equal(a, b)
    assert opyard.equal(opyard.get_rng_state(), before)  # drawn from the generator given, not the default


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_a_saved_state_restores_the_stream(name):
    g = opyard.Generator().manual_seed(3)
    draw = DRAWS[name]
    draw(g)
    state = g.get_state()
    a = draw(g)
    g.set_state(state)
    assert opyard.equal(draw(g), a)


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_the_default_generator_serves_generator_none(name):
    draw = DRAWS[name]
    opyard.manual_seed(5)
    a = draw(None)
    opyard.manual_seed(5)
    assert opyard.equal(draw(None), a)
    assert opyard.equal(draw(opyard.default_generator.manual_seed(5)), a)


def test_different_seeds_give_different_streams():
    a = opyard.rand(100, generator=opyard.Generator().manual_seed(1))
    b = opyard.rand(100, generator=opyard.Generator().manual_seed(2))
    assert not opyard.equal(a, b)


def test_a_new_generator_starts_from_torchs_default_seed():
    assert opyard.Generator().initial_seed() == 67280421310721
    assert opyard.equal(opyard.rand(4, generator=opyard.Generator()), opyard.rand(4, generator=opyard.Generator()))


def test_seed_is_fresh_entropy_and_initial_seed_reports_it():
    g = opyard.Generator()
    s = g.seed()
    assert g.initial_seed() == s and 0 <= s < 2 ** 64
    assert opyard.seed() == opyard.initial_seed()


def test_fork_rng_restores_the_default_state():
    opyard.manual_seed(9)
    with fork_rng():
        inside = opyard.rand(3)
    assert opyard.equal(opyard.rand(3), inside)
    with fork_rng(enabled=False):
        opyard.rand(3)
    with fork_rng(device_type="meta"):
        pass


def test_fork_rng_refuses_accelerator_devices():
    if opyard.cuda.is_available():
        pytest.skip("an accelerator is present")
    with pytest.raises(RuntimeError, match="CUDA is not available"):
        with fork_rng(devices=[0]):
            pass


def test_pickle_deepcopy_and_clone_state_carry_the_state():
    g = opyard.Generator().manual_seed(4)
    opyard.rand(3, generator=g)
    for other in (pickle.loads(pickle.dumps(g)), copy.deepcopy(g), g.clone_state()):
        assert other.initial_seed() == 4
        assert opyard.equal(opyard.rand(5, generator=other), opyard.rand(5, generator=g.clone_state()))


@pytest.mark.parametrize("state, error, match", [
    (opyard.zeros(56, dtype=opyard.uint8), RuntimeError, "increment must be odd"),
    (opyard.zeros(2, 28, dtype=opyard.uint8), RuntimeError, None),
    (opyard.zeros(56, dtype=opyard.int8), TypeError, "RNG state must be a opyard.ByteTensor"),
    ("state", TypeError, "expected a opyard.ByteTensor, but got str"),
])
def test_set_state_refuses_what_get_state_does_not_make(state, error, match):
    g = opyard.Generator()
    with pytest.raises(error, match=match):
        g.set_state(state)


def test_a_two_dimensional_state_of_the_right_size_is_read_flat():
    g = opyard.Generator().manual_seed(8)
    g2 = opyard.Generator().set_state(g.get_state().reshape(2, 28))
    assert opyard.equal(opyard.rand(3, generator=g2), opyard.rand(3, generator=g))


@pytest.mark.parametrize("device, error, match", [
    ("meta", RuntimeError, "META device type not an accelerator."),
    ("cuda", RuntimeError, "CUDA is not available"),
])
def test_generators_are_cpu_generators(device, error, match):
    if opyard.cuda.is_available() and device == "cuda":
        pytest.skip("an accelerator is present")
    with pytest.raises(error, match=match):
        opyard.Generator(device)


def test_poisson_and_binomial_draw_their_distributions():
    g = opyard.Generator().manual_seed(0)
    rate = opyard.full((20000,), 3.5, dtype=opyard.float64)
    p = opyard.poisson(rate, g).numpy()
    assert abs(p.mean() - 3.5) < 0.1 and abs(p.var() - 3.5) < 0.2 and (p == np.round(p)).all()
    b = opyard.binomial(opyard.full((20000,), 10.0), opyard.full((20000,), 0.3), generator=g).numpy()
    assert abs(b.mean() - 3.0) < 0.1 and abs(b.var() - 2.1) < 0.15 and b.max() <= 10


def test_poisson_and_binomial_on_meta_and_fake_tensors():
    m = opyard.empty(2, 3, device="meta")
    assert opyard.poisson(m).shape == (2, 3) and opyard.poisson(m).device.type == "meta"
    assert opyard.binomial(m, opyard.empty(3, device="meta")).shape == (2, 3)
    with pytest.raises(NotImplementedError, match="\"poisson_cpu\" not implemented for 'Long'"):
        opyard.poisson(opyard.empty(2, dtype=opyard.int64, device="meta"))


def test_poisson_gradient_is_zero_and_binomial_has_none():
    x = opyard.tensor([1.0, 2.0], dtype=opyard.float64, requires_grad=True)
    opyard.poisson(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0]
    c = opyard.tensor([3.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="derivative for aten::binomial is not implemented"):
        opyard.binomial(c, opyard.tensor([0.5])).sum().backward()


def test_vmap_randomness_modes_cover_the_new_samplers():
    rate = opyard.ones(3, 4) * 2
    different = opyard.vmap(lambda r: opyard.poisson(r), randomness="different")(rate)
    assert different.shape == (3, 4)
    with pytest.raises(RuntimeError, match="randomness error mode"):
        opyard.vmap(lambda r: opyard.poisson(r))(rate)
    same = opyard.vmap(lambda r: opyard.rand_like(r, generator=None), randomness="same")(rate)
    assert opyard.equal(same[0], same[1])
