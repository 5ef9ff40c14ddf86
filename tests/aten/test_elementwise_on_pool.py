"""Large ``add``/``sub``/``mul``/``div`` (Tensor and Scalar overloads) and ``add_``/``sub_``/``mul_``:
from eight grains (256k elements) with more than one intra-op thread, the Rust fast path runs its loops
on the pool (Note [Large binary on the pool]); below that, or on one thread, numpy's loop runs. Both
are pinned here bit for bit against numpy's own expression, below and above the pool threshold, for
every dtype the fast path takes, with tensor, single-element and Python-number operands, ``alpha``,
promotion to the default float dtype, strided operands (the general path), and the result on one
thread equal to the result on two."""

import numpy as np
import opyard
import pytest
from kernel_probe import run
from opyard import _core
from opyard._aten import fast

POOL_MIN = 1 << 18
SIZES = [POOL_MIN - 3, POOL_MIN, 600_001]
DTYPES = [np.float32, np.float64, np.int32, np.int64]
OPS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide}


@pytest.fixture(params=[1, 2], ids=["1thread", "2threads"])
def nthreads(request):
    before = opyard.get_num_threads()
    opyard.set_num_threads(request.param)
    yield request.param
    opyard.set_num_threads(before)


def _data(n, dt, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind == "f":
        a = rng.standard_normal(n) * 100
        a[::97] = 0.0
        if n > 10:
            a[:4] = [np.inf, -np.inf, np.nan, -0.0]
        return a.astype(dt)
    a = rng.integers(-1000, 1000, n).astype(dt)
    a[a == 0] = 7  # no integer division by zero (numpy warns, both give inf/nan anyway)
    return a


def _same(got, want):
    assert got.dtype == want.dtype
    assert got.shape == want.shape
    np.testing.assert_array_equal(got.view(f"u{got.dtype.itemsize}"), want.view(f"u{want.dtype.itemsize}"))


def _true_divide(a, b):
    """numpy's true division as the Python kernel (integers: in float32, the default dtype)."""
    if a.dtype.kind == "i":
        return np.true_divide(a.astype(np.float32), np.asarray(b).astype(np.float32))
    return np.true_divide(a, b)


def _want(name, a, b):
    with np.errstate(all="ignore"):
        return _true_divide(a, b) if name == "div" else OPS[name](a, b)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(OPS))
def test_tensor_op_tensor_is_numpys(name, dt, n, nthreads):
    a, b = _data(n, dt), _data(n, dt, seed=1)
    got = getattr(opyard, name)(opyard.from_numpy(a), opyard.from_numpy(b)).numpy()
    _same(got, _want(name, a, b))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", sorted(OPS))
def test_single_element_and_number_operands_are_numpys(name, dt, n, nthreads):
    a = _data(n, dt)
    one = _data(1, dt, seed=5)
    x = opyard.from_numpy(a)
    _same(getattr(opyard, name)(x, opyard.from_numpy(one)).numpy(), _want(name, a, one))
    _same(getattr(opyard, name)(opyard.from_numpy(one.reshape(())), x).numpy(), _want(name, one.reshape(()), a))
    kind = np.dtype(dt).kind
    v = 3 if name != "div" else 7
    with np.errstate(all="ignore"):
        if kind == "f":
            _same(getattr(x, name)(v).numpy(), _want(name, a, dt(v)))
            _same(getattr(x, name)(0.3).numpy(), _want(name, a, dt(0.3)))
        else:
            _same(getattr(x, name)(v).numpy(), _want(name, a, dt(v)))
            # an integer tensor with a Python float: the default float dtype (float32)
            want = OPS[name](a.astype(np.float32), np.float32(0.3))
            _same(getattr(x, name)(0.3).numpy(), want)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["add", "sub"])
def test_alpha_scales_other_in_the_dtype_first(name, dt, n, nthreads):
    a, b = _data(n, dt), _data(n, dt, seed=1)
    alpha = 3 if np.dtype(dt).kind == "i" else 0.1
    got = getattr(opyard, name)(opyard.from_numpy(a), opyard.from_numpy(b), alpha=alpha).numpy()
    with np.errstate(all="ignore"):
        _same(got, OPS[name](a, np.multiply(b, dt(alpha))))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ["add_", "sub_", "mul_"])
def test_inplace_is_numpys(name, dt, n, nthreads):
    a, b = _data(n, dt), _data(n, dt, seed=1)
    x = opyard.from_numpy(a.copy())
    version = x._version
    r = getattr(x, name)(opyard.from_numpy(b))
    assert r is x and x._version == version + 1
    with np.errstate(all="ignore"):
        _same(x.numpy(), OPS[name[:-1]](a, b))
    if name != "mul_":
        alpha = 3 if np.dtype(dt).kind == "i" else 0.1
        x = opyard.from_numpy(a.copy())
        getattr(x, name)(opyard.from_numpy(b), alpha=alpha)
        with np.errstate(all="ignore"):
            _same(x.numpy(), OPS[name[:-1]](a, np.multiply(b, dt(alpha))))
    one = _data(1, dt, seed=5)
    x = opyard.from_numpy(a.copy())
    getattr(x, name)(opyard.from_numpy(one))
    with np.errstate(all="ignore"):
        _same(x.numpy(), OPS[name[:-1]](a, one))


@pytest.mark.parametrize("dt", DTYPES, ids=lambda d: np.dtype(d).name)
def test_strided_operands_take_the_general_path_with_the_same_values(dt, nthreads):
    a, b = _data(512 * 600, dt).reshape(512, 600), _data(512 * 600, dt, seed=1).reshape(512, 600)
    x, y = opyard.from_numpy(a), opyard.from_numpy(b)
    for name in OPS:
        _same(getattr(opyard, name)(x.t(), y.t()).numpy(), _want(name, a.T, b.T))
        _same(getattr(opyard, name)(x[:, ::2], y[:, ::2]).numpy(), _want(name, a[:, ::2], b[:, ::2]))
    z = opyard.from_numpy(a.copy())
    z.add_(y.t().contiguous().t())
    with np.errstate(all="ignore"):
        _same(z.numpy(), a + b)


def test_one_thread_and_two_threads_agree():
    before = opyard.get_num_threads()
    try:
        results = []
        for threads in (1, 2):
            opyard.set_num_threads(threads)
            a, b = _data(1 << 20, np.float32), _data(1 << 20, np.float32, seed=1)
            x, y = opyard.from_numpy(a), opyard.from_numpy(b)
            z = opyard.from_numpy(a.copy())
            z.add_(y, alpha=0.25)
            results.append([(x + y).numpy(), (x * y).numpy(), (x / y).numpy(), x.sub(y, alpha=0.5).numpy(),
                            (x * 0.1).numpy(), z.numpy()])
        for one, two in zip(*results):
            _same(one, two)
    finally:
        opyard.set_num_threads(before)


def test_aliasing_inplace_operand_keeps_the_python_kernel():
    a = _data(1 << 17, np.float64)
    x = opyard.from_numpy(a.copy())
    x.add_(x)
    _same(x.numpy(), a + a)
    x = opyard.from_numpy(a.copy())
    x[1:].add_(x[:-1])
    want = a.copy()
    np.add(want[1:], want[:-1], out=want[1:])
    _same(x.numpy(), want)


@pytest.mark.skipif(not _core.FAST_PATHS, reason="with OPYARD_FASTPATH=0 no Rust kernel is registered")
@pytest.mark.parametrize("n", [POOL_MIN - 8, POOL_MIN])
def test_the_pool_branch_takes_large_inputs_from_its_threshold_on_more_than_one_thread(n, nthreads):
    a = _data(n, np.float32)
    x = opyard.from_numpy(a)
    for name, args in (("add.Tensor", (x, x)), ("mul.Scalar", (x, 2.0)), ("div.Tensor", (x, x))):
        got, fast_ran = run(name, *args)
        assert fast_ran == (n >= POOL_MIN and nthreads > 1), name
        _same(got.numpy(), fast.PYTHON_KERNELS[name](*args).numpy())
    z = opyard.from_numpy(a.copy())
    _, fast_ran = run("add_.Tensor", z, x)
    assert fast_ran == (n >= POOL_MIN and nthreads > 1)
    _same(z.numpy(), a + a)


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="os.fork is POSIX only")
def test_a_forked_child_makes_its_own_team():
    # the child has none of the parent's workers (Note [Workers spin before they sleep], team.rs):
    # its large calls make a team of their own and give numpy's values, also right after the fork
    import os
    import subprocess
    import sys
    import textwrap
    code = textwrap.dedent("""
        import os, numpy as np, opyard
        opyard.set_num_threads(2)
        a = np.arange(1 << 20, dtype=np.float32); b = a[::-1].copy()
        x, y = opyard.from_numpy(a), opyard.from_numpy(b)
        assert np.array_equal((x + y).numpy(), a + b)  # the parent's team exists now
        pid = os.fork()
        if pid == 0:
            ok = all(np.array_equal((x * y).numpy(), a * b) for _ in range(20))
            opyard.set_num_threads(2)
            ok = ok and np.array_equal((x - y).numpy(), a - b)
            os._exit(0 if ok else 3)
        _, status = os.waitpid(pid, 0)
        print(os.waitstatus_to_exitcode(status), np.array_equal((x + y).numpy(), a + b))
    """)
    env = {**os.environ, "PYTHONPATH": os.path.dirname(os.path.dirname(opyard.__file__))}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["0", "True"]
