"""The Rust CPU kernels write every byte of their results and nothing else, on every layout
they take (0-d, empty, one element against many, expanded, transposed and reversed operands,
in place into a view of a larger tensor).

A result array comes from numpy's allocator uninitialized, so an element a kernel forgets to
write holds whatever the allocator hands back: a value that passes one run and fails the next.
Here it hands back poison: before each call, blocks of the result's byte size are filled with a
poison pattern and freed, and numpy's allocator (its small-block cache, then ``malloc``'s free
lists, both last-in first-out) gives the next request of that size one of them. An unwritten
element then differs from the Python kernel's, which every result is compared with byte for byte
(the Rust loops are bit-identical to numpy's, Note [Kernel numerics]); the inputs are compared
with copies taken before the call. Each case also checks that the Rust path ran.
"""

import gc
import warnings

import numpy as np
import opyard
import pytest
from opyard._aten import fast
from kernel_probe import run
from kernel_values import DTYPES, same

# Byte patterns: 0x7f.. is a huge finite float (products overflow to inf, sums of those are nan),
# 0xff.. is a nan / -1, 0xa5.. a large negative number of every dtype.
POISONS = (0x7F, 0xFF, 0xA5)
SHAPES = [(), (1,), (7,), (3, 4), (2, 3, 5), (0,), (2, 0, 3), (1, 1)]


def poison(nbytes, byte):
    """Leave freed blocks of ``nbytes`` filled with ``byte`` on top of the allocator's free lists."""
    blocks = [np.full(max(nbytes, 1), byte, np.uint8) for _ in range(4)]
    del blocks


def tensor(a):
    """A tensor owning a C-contiguous copy of ``a`` (0-d stays 0-d)."""
    return opyard.from_numpy(np.array(a, order="C"))


def sample(rng, shape, dt, nonzero=False):
    if np.dtype(dt).kind == "f":
        a = np.asarray(rng.standard_normal(shape) * 3).astype(dt)
    else:
        a = np.asarray(rng.integers(-50, 50, shape)).astype(dt)
    if nonzero:
        a[a == 0] = 1
    return a


def call(name, args, kwargs, byte):
    """The Rust kernel's result on freshly poisoned memory, checked to be the Python kernel's."""
    snapshots = [a.numpy().copy() for a in args if isinstance(a, opyard.Tensor)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # integer wraparound, division by zero
        want = fast.PYTHON_KERNELS[name](*args, **kwargs)
        poison(want.numpy().nbytes, byte)
        got, fast_ran = run(name, *args, **kwargs)
    assert fast_ran, f"{name} took the Python kernel for {[getattr(a, 'shape', a) for a in args]}"
    same(got, want)
    after = [a.numpy() for a in args if isinstance(a, opyard.Tensor)]
    for before, now in zip(snapshots, after):
        assert before.tobytes() == now.tobytes(), f"{name} wrote into an input"
    return got


def binary_cases(rng):
    for dt in DTYPES:
        for shape in SHAPES:
            for name in ("add.Tensor", "sub.Tensor", "mul.Tensor", "div.Tensor"):
                x = sample(rng, shape, dt)
                y = sample(rng, shape, dt, nonzero=True)
                yield name, (tensor(x), tensor(y)), {}
                for single in [(), (1,)][: 1 + (len(shape) >= 1)]:
                    s = sample(rng, single, dt, nonzero=True)
                    yield name, (tensor(x), tensor(s)), {}
                    if name != "div.Tensor":
                        yield name, (tensor(s), tensor(x)), {}
                if name in ("add.Tensor", "sub.Tensor"):
                    yield name, (tensor(x), tensor(y)), {"alpha": 3}
            for name in ("add.Scalar", "sub.Scalar", "mul.Scalar", "div.Scalar"):
                number = 2.5 if np.dtype(dt).kind == "f" or name == "div.Scalar" else -3
                yield name, (tensor(sample(rng, shape, dt)), number), {}


def unary_cases(rng):
    for dt in DTYPES:
        for shape in SHAPES:
            n = int(np.prod(shape, dtype=np.int64))
            x = tensor(sample(rng, shape, dt))
            for name in ("neg", "clone", "ones_like", "zeros_like"):
                yield name, (x,), {}
            yield "sum", (x,), {}
            if n:  # one value expanded (all strides 0): cloned into a dense result
                one = sample(rng, (), dt)
                view = np.broadcast_to(one, shape)
                yield "clone", (opyard.from_numpy(view),), {}


@pytest.mark.parametrize("byte", POISONS)
def test_binary_and_unary_results_are_written_in_full(byte):
    rng = np.random.default_rng(byte)
    for i, (name, args, kwargs) in enumerate([*binary_cases(rng), *unary_cases(rng)]):
        call(name, args, kwargs, byte)
        if i % 50 == 0:
            gc.collect()  # frees cycles, so later calls meet recycled memory too


def operands(rng, shape, dt):
    """Operands of ``shape`` in every layout the in-place kernels read: dense, one element,
    transposed, reversed, expanded."""
    yield "dense", tensor(sample(rng, shape, dt))
    yield "single", tensor(sample(rng, (1,) * min(len(shape), 1), dt))
    if len(shape) == 2:
        yield "transposed", opyard.from_numpy(np.ascontiguousarray(sample(rng, shape[::-1], dt)).T)
    if len(shape) >= 1 and shape[0] > 1:
        yield "reversed", opyard.from_numpy(np.ascontiguousarray(sample(rng, shape, dt))[::-1])
    if shape:
        yield "expanded", opyard.from_numpy(np.broadcast_to(sample(rng, (1,), dt), shape))


@pytest.mark.parametrize("dt", DTYPES)
def test_in_place_updates_write_their_view_and_nothing_else(dt):
    rng = np.random.default_rng(7)
    alphas = [None, 2] if np.dtype(dt).kind == "i" else [None, -0.5]
    for shape in [(), (5,), (3, 4)]:
        for name in ("add_.Tensor", "sub_.Tensor", "mul_.Tensor"):
            for alpha in alphas if name != "mul_.Tensor" else [None]:
                kwargs = {} if alpha is None else {"alpha": alpha}
                for label, other in operands(rng, shape, dt):
                    # ``self`` is one row of a larger tensor: the rows around it must not change.
                    big = sample(rng, (3,) + shape, dt)
                    root = tensor(big)
                    row = root[1]
                    want = fast.PYTHON_KERNELS[name](tensor(big[1].copy()), other, **kwargs).numpy()
                    other_before = other.numpy().copy()
                    v = root._version
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore", RuntimeWarning)
                        got, fast_ran = run(name, row, other, **kwargs)
                    assert fast_ran, (name, label, shape)
                    assert got is row and root._version == v + 1
                    now = root.numpy()
                    assert now[1].tobytes() == want.tobytes(), (name, label, shape, alpha)
                    assert now[0].tobytes() == big[0].tobytes() and now[2].tobytes() == big[2].tobytes()
                    assert other.numpy().tobytes() == other_before.tobytes()


def test_fast_results_through_the_dispatcher_on_recycled_memory():
    """The same through the public call path, interleaved with autograd and the cyclic GC:
    each result equal to numpy's on the same inputs, which stay unchanged."""
    rng = np.random.default_rng(3)
    a_np = rng.standard_normal((4, 3, 5)).astype(np.float32)
    b_np = rng.standard_normal((4, 5)).astype(np.float32)
    a, b = opyard.from_numpy(a_np.copy()), opyard.from_numpy(b_np.copy())
    want_mv = np.einsum("bij,bj->bi", a_np, b_np)
    for i in range(60):
        byte = POISONS[i % len(POISONS)]
        poison(a_np.nbytes, byte)
        np.testing.assert_array_equal((a * 2 + 1).numpy(), a_np * np.float32(2) + np.float32(1))
        poison(b_np.nbytes, byte)
        np.testing.assert_array_equal((b - b[0]).numpy(), b_np - b_np[0])
        poison(4, byte)
        assert a.sum().item() == np.add.reduce(a_np.ravel())
        poison(a_np[0].nbytes, byte)
        np.testing.assert_array_equal(a[1].clone().neg().numpy(), -a_np[1])
        w = opyard.ones(3, 5, requires_grad=True)
        (w * a[0]).sum().backward()
        np.testing.assert_array_equal(w.grad.numpy(), a_np[0])
        poison(b_np.nbytes, byte)
        got = opyard.vmap(opyard.mv)(a, b).numpy()
        np.testing.assert_allclose(got, want_mv, rtol=1e-5, atol=1e-6)
        if i % 20 == 0:
            gc.collect()
    assert a.numpy().tobytes() == a_np.tobytes() and b.numpy().tobytes() == b_np.tobytes()
