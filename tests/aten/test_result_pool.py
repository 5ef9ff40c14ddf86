"""Large results of the Rust kernels come from a bounded pool of buffers kept for reuse
(``ffi/buffer_pool.rs``, Note [Reused output buffers]): a result is a view of a pooled array that
owns its memory, and that memory is handed out again only once nothing refers to the result or to
any view of it."""

import gc
import pickle

import numpy as np
import opyard
import pytest
from opyard import _core

pytestmark = pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 no Rust kernel makes results")

N = 1 << 18  # float32 elements: 1 MiB, over the pool's 256 KiB minimum


def _address(a):
    return a.__array_interface__["data"][0]


@pytest.fixture(autouse=True)
def empty_pool():
    gc.collect()
    _core._release_result_pool()
    yield
    gc.collect()
    _core._release_result_pool()


def _inputs(dtype=np.float32, n=N):
    rng = np.random.default_rng(0)
    return (opyard.from_numpy(rng.standard_normal(n).astype(dtype)),
            opyard.from_numpy(rng.standard_normal(n).astype(dtype)))


def test_a_large_result_views_a_pooled_array_that_owns_its_memory():
    a, b = _inputs()
    out = (a + b).numpy()
    owner = out.base
    assert isinstance(owner, np.ndarray) and owner.flags.owndata and owner.base is None
    assert owner.ndim == 1 and owner.size == N and owner.dtype == np.float32
    assert out.flags.c_contiguous and out.flags.writeable and _address(out) == _address(owner)
    np.testing.assert_array_equal(out, a.numpy() + b.numpy())
    assert _core._result_pool_stats() == (1, 4 * N, 1)


def test_a_small_result_is_numpys_own_array():
    a, b = _inputs(n=1000)
    out = (a + b).numpy()
    assert out.base is None and out.flags.owndata
    assert _core._result_pool_stats() == (0, 0, 0)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_the_memory_of_a_dead_result_is_reused_with_the_new_values(dtype):
    a, b = _inputs(dtype)
    first = a + b
    address = _address(first.numpy())
    del first
    second = a * b
    assert _address(second.numpy()) == address
    np.testing.assert_array_equal(second.numpy(), a.numpy() * b.numpy())
    assert _core._result_pool_stats()[0] == 1


@pytest.mark.parametrize("keep", ["tensor view", "numpy view", "numpy array", "memoryview"])
def test_memory_any_view_still_reads_is_not_reused(keep):
    a, b = _inputs()
    first = a + b
    want = (a.numpy() + b.numpy())[::3].copy()
    address = _address(first.numpy())
    held = {"tensor view": lambda t: t[::3],
            "numpy view": lambda t: t.numpy()[::3],
            "numpy array": lambda t: t.numpy(),
            "memoryview": lambda t: memoryview(t.numpy())}[keep](first)
    del first
    gc.collect()
    second = a * b
    assert _address(second.numpy()) != address
    seen = np.asarray(held)[::3] if keep in ("numpy array", "memoryview") else np.asarray(
        held.numpy() if isinstance(held, opyard.Tensor) else held)
    np.testing.assert_array_equal(seen, want)


def test_each_dtype_and_length_has_its_own_buffers():
    a32, b32 = _inputs(np.float32)
    a64, b64 = _inputs(np.float64)
    x = a32 + b32
    y = a64 + b64
    assert _address(x.numpy()) != _address(y.numpy())
    del x, y
    z = a64 - b64
    np.testing.assert_array_equal(z.numpy(), a64.numpy() - b64.numpy())
    assert _core._result_pool_stats()[:2] == (2, 12 * N)


def test_the_pool_is_bounded_and_release_drops_only_free_buffers():
    a, b = _inputs()
    live = [a + b for _ in range(40)]
    owners, nbytes, used = _core._result_pool_stats()
    assert owners == used == 32 and nbytes == 32 * 4 * N
    assert sum(t.numpy().base is None for t in live) == 8  # made while every kept buffer was in use
    del live[:10]
    _core._release_result_pool()
    assert _core._result_pool_stats() == (22, 22 * 4 * N, 22)
    for t in live:
        np.testing.assert_array_equal(t.numpy(), a.numpy() + b.numpy())


def test_results_keep_numpys_semantics():
    a, b = _inputs()
    m = (a + b).reshape(512, 512)
    d = m.diagonal()
    d.fill_(1.0)  # numpy hands out a read-only diagonal; the tensor's is writable
    assert (np.diagonal(m.numpy()) == 1.0).all()
    m.resize_(256, 256)
    assert m.shape == (256, 256)
    back = pickle.loads(pickle.dumps(m))
    np.testing.assert_array_equal(back.numpy(), m.numpy())
