"""The Rust CPU kernels of the elementwise ops (``_aten/fast.py``): add/sub/mul/div with a tensor or a
Python number, ``alpha``, broadcasting of one element, zero-dim operands, the unary ops.

Each fast path gives the Python kernel's result bit for bit (dtype, shape, every byte); a
``RustKernel`` built around a recording fallback (``kernel_probe``) tells which of the two ran.
"""

import numpy as np
import opyard
import pytest
from opyard._aten import fast
from kernel_probe import run
from kernel_values import BINARY, DTYPES, SCALAR, same, tensor, values


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_tensor_tensor_matches_python_kernel_on_special_values(name, dt):
    x, y = values(dt)
    got, fast_ran = run(name, tensor(x), tensor(y))
    assert fast_ran
    same(got, fast.PYTHON_KERNELS[name](tensor(x), tensor(y)))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", BINARY)
def test_matches_numpy_with_torch_promotion(name, dt):
    x, y = values(dt)
    got, _ = run(name, tensor(x), tensor(y))
    ufunc = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide}[name.split(".")[0]]
    with np.errstate(all="ignore"):
        if name.startswith("div") and dt in (np.int32, np.int64):
            want = np.true_divide(x.astype(np.float32), y.astype(np.float32))  # int / int: default float
        else:
            want = ufunc(x, y)
    assert got.numpy().dtype == want.dtype
    assert got.numpy().tobytes() == want.tobytes()


@pytest.mark.parametrize("dt", [np.int32, np.int64])
def test_integer_overflow_wraps(dt):
    info = np.iinfo(dt)
    x = tensor(np.array([info.max, info.min, info.max], dt))
    y = tensor(np.array([1, -1, 2], dt))
    assert run("add.Tensor", x, y)[0].tolist() == [info.min, info.max, info.min + 1]
    assert run("mul.Tensor", x, y)[0].tolist() == [info.max, info.min, -2]
    assert run("neg", x)[0].tolist() == [info.min + 1, info.min, info.min + 1]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", SCALAR)
@pytest.mark.parametrize("number", [0, 1, -3, 2**40, 0.5, -0.0, 1e300, float("inf"), float("nan")])
def test_tensor_with_python_number(name, dt, number):
    x, _ = values(dt)
    got, fast_ran = run(name, tensor(x), number)
    same(got, fast.PYTHON_KERNELS[name](tensor(x), number))
    int_tensor = dt in (np.int32, np.int64)
    in_range = not int_tensor or isinstance(number, float) or np.iinfo(dt).min <= number <= np.iinfo(dt).max
    assert fast_ran == in_range


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("alpha", [2, -1, 0.5, 3.0])
@pytest.mark.parametrize("name", ["add.Tensor", "sub.Tensor", "add.Scalar", "sub.Scalar"])
def test_alpha(name, dt, alpha):
    x, y = values(dt)
    other = tensor(y) if name.endswith("Tensor") else 3
    kwargs, args = ({"alpha": alpha}, ()) if name.endswith("Tensor") else ({}, (alpha,))
    ref = fast.PYTHON_KERNELS[name]
    if isinstance(alpha, float) and dt in (np.int32, np.int64):
        with pytest.raises(RuntimeError, match="argument alpha must not be a floating point number"):
            run(name, tensor(x), other, *args, **kwargs)
        return
    got, fast_ran = run(name, tensor(x), other, *args, **kwargs)
    assert fast_ran == name.endswith("Tensor")  # a Python number with alpha: the Python kernel
    same(got, ref(tensor(x), other, *args, **kwargs))


@pytest.mark.parametrize("name", ["add.Scalar", "sub.Scalar"])
def test_python_number_with_alpha_keeps_the_python_kernels_rounding(name):
    # The Python kernel forms other * alpha in float64 and adds in float64: 1/3 * 7 shows it.
    x = tensor(np.array([1.0, 0.7, 123.456, -5.5], np.float32))
    got, fast_ran = run(name, x, 1 / 3, 7)
    assert not fast_ran
    same(got, fast.PYTHON_KERNELS[name](x, 1 / 3, 7))


@pytest.mark.parametrize("dt", DTYPES)
def test_single_element_operand_broadcasts(dt):
    x = tensor(np.arange(6, dtype=dt).reshape(2, 3) + 1)
    for one in (opyard.from_numpy(np.array(2, dt)), tensor(np.array([2], dt)), tensor(np.array([[2]], dt))):
        for name in BINARY:
            for args in ((x, one), (one, x)):
                got, fast_ran = run(name, *args)
                assert fast_ran
                same(got, fast.PYTHON_KERNELS[name](*args))


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(), (1,), (0,), (5,), (2, 3, 4), (40_000,)])
def test_unary_ops(dt, shape):
    x = tensor((np.random.default_rng(1).standard_normal(shape) * 100).astype(dt))
    for name in ("neg", "sum", "clone", "ones_like", "zeros_like"):
        got, fast_ran = run(name, x)
        same(got, fast.PYTHON_KERNELS[name](x))
        assert fast_ran == (name == "sum" or x.numel() <= 1 << 15)


def test_integer_division_follows_the_default_dtype():
    x, y = tensor(np.array([1, 7, 0], np.int64)), tensor(np.array([2, 0, 0], np.int64))
    opyard.set_default_dtype(opyard.float64)
    try:
        got, fast_ran = run("div.Tensor", x, y)
        assert fast_ran and got.dtype is opyard.float64
        same(got, fast.PYTHON_KERNELS["div.Tensor"](x, y))
        got, fast_ran = run("add.Scalar", x, 0.1)
        assert fast_ran and got.dtype is opyard.float64
        same(got, fast.PYTHON_KERNELS["add.Scalar"](x, 0.1))
    finally:
        opyard.set_default_dtype(opyard.float32)
    got = run("div.Tensor", x, y)[0]
    assert got.dtype is opyard.float32 and got.tolist()[:2] == [0.5, float("inf")]


@pytest.mark.parametrize("dt", DTYPES)
def test_zero_dim_operands(dt):
    s, t = opyard.from_numpy(np.array(3, dt)), opyard.from_numpy(np.array(2, dt))
    one = tensor(np.array([2], dt))
    for name in BINARY:
        for args in ((s, t), (s, one), (one, s)):
            got, fast_ran = run(name, *args)
            assert fast_ran
            same(got, fast.PYTHON_KERNELS[name](*args))
