"""The Rust CPU kernels of ``sum`` and ``clone`` (``_aten/fast.py``): numpy's pairwise float sum,
special values, and ``clone`` of expanded and other strided views.

Each fast path gives the Python kernel's result bit for bit (dtype, shape, every byte); a
``RustKernel`` built around a recording fallback (``kernel_probe``) tells which of the two ran.
"""

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from kernel_probe import run
from kernel_values import DTYPES, FLOATS, SPECIAL_FLOATS, SPECIAL_INTS, same, tensor


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 1000, 4097, 100_000, 1_000_003])
def test_float_sum_is_numpys_pairwise_sum(dt, n):
    x = (np.random.default_rng(n).standard_normal(n) * 10.0 ** np.random.default_rng(n).uniform(-4, 4, n)).astype(dt)
    want = np.add.reduce(x).tobytes()
    got, fast_ran = run("sum", tensor(x))
    registered = opyard.ops.aten.sum.default(tensor(x))
    assert fast_ran
    if n <= 1 << 18:
        assert registered.numpy().tobytes() == want
        # numpy before 2.3 sums past its 8192-element buffer in chunks: there the Rust kernel is not
        # registered (``fast._sums_as_numpy``) and only shorter buffers must agree.
        if n <= 8192 or fast._sums_as_numpy():
            assert got.numpy().tobytes() == want
    else:  # longer ones are summed by blocks on the intra-op pool, by either kernel: another pairing
        exact = np.add.reduce(x.astype(np.float64))
        bound = 8 * np.finfo(dt).eps * np.add.reduce(np.abs(x.astype(np.float64)))
        for r in (got, registered):
            assert r.numpy().dtype == dt and abs(float(r.numpy()) - exact) <= bound
        if _core.FAST_PATHS:  # with OPYARD_FASTPATH=0 the Python kernel sums with numpy
            assert got.numpy().tobytes() == registered.numpy().tobytes()


def test_the_rust_sum_is_registered_exactly_where_it_is_numpys():
    x = np.sin(np.arange(20_000.0)).astype(np.float32)
    same_bits = run("sum", tensor(x))[0].numpy().tobytes() == np.add.reduce(x).tobytes()
    assert fast._sums_as_numpy() == same_bits
    site = repr(opyard.library.get_kernel("aten::sum", "CPU"))
    # The Rust kernel is registered from fast.py; with OPYARD_FASTPATH=0 no Rust kernel is.
    assert ("_aten/fast.py" in site) == (same_bits and _core.FAST_PATHS)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_sum_special_values():
    for vals in ([-0.0], [-0.0, -0.0], [np.inf, -np.inf], [np.nan, 1.0], [3.4e38] * 4):
        for dt in FLOATS:
            x = tensor(np.array(vals, dt))
            same(run("sum", x)[0], fast.PYTHON_KERNELS["sum"](x))
    big = tensor(np.array([2**31 - 1] * 3, np.int32))
    assert run("sum", big)[0].numpy().dtype == np.int64 and run("sum", big)[0].item() == 3 * (2**31 - 1)


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (2, 1, 4)])
def test_clone_of_an_expanded_value_is_the_python_kernels_copy(dt, shape):
    one = np.array(SPECIAL_INTS.get(dt, SPECIAL_FLOATS)[5], dt)
    view = np.broadcast_to(one, shape)
    got, fast_ran = run("clone", opyard.from_numpy(view))
    want = fast.PYTHON_KERNELS["clone"](opyard.from_numpy(view))
    assert fast_ran
    same(got, want)
    assert got.stride() == want.stride() and got.numpy().flags.writeable
    assert not np.shares_memory(got.numpy(), view)


def test_clone_of_other_strided_views_keeps_the_python_kernel():
    for view in (np.broadcast_to(np.arange(3.0), (2, 3)), np.arange(6.0).reshape(2, 3).T):
        got, fast_ran = run("clone", opyard.from_numpy(view))
        want = fast.PYTHON_KERNELS["clone"](opyard.from_numpy(view))
        assert not fast_ran and got.stride() == want.stride()  # order K: not always C order
        same(got, want)
