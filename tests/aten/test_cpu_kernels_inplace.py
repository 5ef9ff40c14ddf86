"""The Rust CPU kernels of the in-place ops ``add_``/``sub_``/``mul_`` (``_aten/fast.py``): results,
operands read through their strides, the fallbacks for aliasing, broadcasting and read-only
memory, and gradient accumulation.

Each fast path gives the Python kernel's result bit for bit (dtype, shape, every byte); a
``RustKernel`` built around a recording fallback (``kernel_probe``) tells which of the two ran.
"""

import numpy as np
import opyard
import pytest
from opyard._aten import fast
from kernel_probe import run
from kernel_values import DTYPES, INPLACE, same, tensor, values


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", INPLACE)
@pytest.mark.parametrize("alpha", [None, 2, -0.5])
@pytest.mark.parametrize("single", [False, True])
def test_in_place_matches_python_kernel(name, dt, alpha, single):
    x, y = values(dt)
    if single:
        y = y[:1]
    kwargs = {} if alpha is None else {"alpha": alpha}
    mine, theirs = tensor(x.copy()), tensor(x.copy())
    if kwargs and name == "mul_.Tensor":  # no alpha in mul_'s schema: only a direct call passes one
        with pytest.raises(TypeError, match="alpha"):
            run(name, mine, tensor(y), **kwargs)
        assert mine.numpy().tobytes() == x.tobytes()
        return
    if isinstance(alpha, float) and dt in (np.int32, np.int64):
        with pytest.raises(RuntimeError, match="alpha must not be a floating point number"):
            run(name, mine, tensor(y), **kwargs)
        return
    v = mine._version
    got, fast_ran = run(name, mine, tensor(y), **kwargs)
    assert fast_ran and got is mine and mine._version == v + 1
    fast.PYTHON_KERNELS[name](theirs, tensor(y), **kwargs)
    same(mine, theirs)


def test_in_place_falls_back_for_aliasing_broadcast_and_read_only():
    x = tensor(np.arange(4, dtype=np.float32))
    got, fast_ran = run("add_.Tensor", x, x)  # other aliases self: numpy's own loop
    assert not fast_ran and got is x and x.tolist() == [0.0, 2.0, 4.0, 6.0]
    y = opyard.from_numpy(np.arange(4, dtype=np.float32))
    got, fast_ran = run("add_.Tensor", y[1:], y[:3])  # overlapping views
    assert not fast_ran and y.tolist() == [0.0, 1.0, 3.0, 5.0]
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        run("add_.Tensor", tensor(np.ones(1, np.float32)), tensor(np.ones(3, np.float32)))
    with pytest.raises(RuntimeError, match="refers to a single memory location"):
        run("mul_.Tensor", tensor(np.ones(1, np.float32)).expand(3), tensor(np.ones(3, np.float32)))
    z = tensor(np.ones(3, np.float32))
    got, fast_ran = run("add_.Tensor", z, tensor(np.ones(3, np.float64)))  # another dtype
    assert not fast_ran and z.tolist() == [2.0, 2.0, 2.0]


def test_gradient_accumulation_in_place_over_two_backward_calls():
    w = opyard.nn.Parameter(opyard.ones(3))
    for _ in range(2):
        (w * 3.0).sum().backward()
    assert w.grad.tolist() == [6.0, 6.0, 6.0]
    with opyard.no_grad():
        w.add_(w.grad, alpha=-0.5)  # an SGD step
    assert w.tolist() == [-2.0, -2.0, -2.0]


def _strided_operands(dt):
    """(label, x of shape (3, 4), numpy view of shape (3, 4) with non-contiguous strides)."""
    base = np.arange(1, 25).astype(dt) * (3 if dt in (np.int32, np.int64) else 0.37)
    x = np.arange(12).astype(dt).reshape(3, 4) - 5
    return [
        ("expanded scalar", x, np.broadcast_to(base[:1].reshape(()), (3, 4))),
        ("expanded row", x, np.broadcast_to(base[:4], (3, 4))),
        ("expanded column", x, np.broadcast_to(base[:3].reshape(3, 1), (3, 4))),
        ("transposed", x, base[:12].reshape(4, 3).T),
        ("reversed", x, base[:12].reshape(3, 4)[::-1, ::-1]),
        ("every other", x, base.reshape(3, 8)[:, ::2]),
        ("reversed rows", x, base.reshape(2, 3, 4)[1, ::-1, :]),
    ]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", INPLACE)
@pytest.mark.parametrize("alpha", [None, 2])
def test_in_place_reads_a_strided_operand_through_its_strides(name, dt, alpha):
    kwargs = {} if alpha is None or name == "mul_.Tensor" else {"alpha": alpha}
    for label, x, view in _strided_operands(dt):
        assert not view.flags.c_contiguous, label
        mine, theirs = tensor(x.copy()), tensor(x.copy())
        other = opyard.from_numpy(view)
        v = mine._version
        got, fast_ran = run(name, mine, other, **kwargs)
        assert fast_ran and got is mine and mine._version == v + 1, label
        fast.PYTHON_KERNELS[name](theirs, opyard.from_numpy(view), **kwargs)
        same(mine, theirs)
        want = {"add_.Tensor": np.add, "sub_.Tensor": np.subtract, "mul_.Tensor": np.multiply}[name](
            x, view if not kwargs else np.multiply(view, np.asarray(alpha, dt)))
        assert mine.numpy().tobytes() == want.tobytes(), label
        assert other.numpy().tobytes() == np.ascontiguousarray(view).tobytes()  # operand untouched


def test_in_place_strided_operand_falls_back_when_it_overlaps_self_or_differs():
    a = opyard.from_numpy(np.arange(16, dtype=np.float64).reshape(4, 4))
    want = np.arange(16, dtype=np.float64).reshape(4, 4)
    want = want + want.T
    got, fast_ran = run("add_.Tensor", a, a.t())  # other is self transposed: numpy's own loop
    assert not fast_ran and got is a and a.numpy().tobytes() == want.tobytes()
    b = opyard.from_numpy(np.arange(4, dtype=np.float32))
    got, fast_ran = run("add_.Tensor", b, b[:1].expand(4))  # an expanded element of self
    assert not fast_ran and b.tolist() == [0.0, 1.0, 2.0, 3.0]
    buf = np.zeros(8, np.float32)
    c, d = opyard.from_numpy(buf[:4]), opyard.from_numpy(buf[4:][::-1])
    got, fast_ran = run("add_.Tensor", c, d)  # same buffer, no shared byte: fast
    assert fast_ran
    e = tensor(np.ones((2, 3), np.float32))
    got, fast_ran = run("add_.Tensor", e, opyard.from_numpy(np.ones((3, 2), np.float64).T))
    assert not fast_ran and e.dtype == opyard.float32 and e.tolist() == [[2.0] * 3] * 2  # another dtype
    with pytest.raises(RuntimeError, match="doesn't match the broadcast shape"):
        run("add_.Tensor", tensor(np.ones((1, 3), np.float32)),
            opyard.from_numpy(np.broadcast_to(np.ones(3, np.float32), (2, 3))))
    f = tensor(np.ones((2, 3), np.int64))
    with pytest.raises(RuntimeError, match="alpha must not be a floating point number"):
        run("add_.Tensor", f, opyard.from_numpy(np.ones((3, 2), np.int64).T), alpha=0.5)


def test_repeated_backward_accumulates_the_expanded_gradient():
    x = opyard.randn(2, 3, requires_grad=True)
    for k in range(1, 4):
        (x * 2.0).sum().backward()
        assert x.grad.tolist() == [[2.0 * k] * 3] * 2
        assert x.grad.is_contiguous()
    y = opyard.randn(3, requires_grad=True)
    y.sum().backward()
    first = y.grad
    assert first.is_contiguous() and first.numpy().flags.writeable  # a copy, not the expanded view
    y.sum().backward()
    assert y.grad is first and y.grad.tolist() == [2.0, 2.0, 2.0]


NUMBERS = [0, 3, -7, 2**31, 2**62, 0.5, -0.0, 1e300, float("nan"), float("inf")]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("name", INPLACE)
@pytest.mark.parametrize("number", NUMBERS, ids=repr)
def test_in_place_by_a_python_number_matches_python_kernel(name, dt, number):
    """``u.add_(3)``, ``p.mul_(0.5)``: the number taken in the tensor's dtype as numpy's weak scalar,
    in Rust when the dtype takes it as it is; a float on an integer tensor, an int beyond int32 or
    beyond 2**53 on a float tensor runs the Python kernel (which raises, wraps or rounds as torch)."""
    x, _ = values(dt)
    mine, theirs = tensor(x.copy()), tensor(x.copy())
    integral = np.dtype(dt).kind == "i"
    takes = not (integral and isinstance(number, float)) and not (
        dt == np.int32 and isinstance(number, int) and not -2**31 <= number < 2**31) and not (
        not integral and isinstance(number, int) and abs(number) > 2**53)  # not exact in a float
    try:
        fast.PYTHON_KERNELS[name](theirs, number)
    except Exception as e:  # the Python kernel's refusal is the op's: the Rust path must not take it
        with pytest.raises(type(e)):
            run(name, mine, number)
        assert not takes
        return
    v = mine._version
    got, fast_ran = run(name, mine, number)
    assert got is mine and mine._version == v + 1
    assert fast_ran == takes
    same(mine, theirs)


def test_in_place_by_a_number_falls_back_for_alpha_bool_and_large_arrays():
    x = tensor(np.arange(4, dtype=np.float32))
    got, fast_ran = run("add_.Tensor", x, 2, alpha=3)
    assert not fast_ran and x.tolist() == [6.0, 7.0, 8.0, 9.0]
    got, fast_ran = run("add_.Tensor", x, True)
    assert not fast_ran and x.tolist() == [7.0, 8.0, 9.0, 10.0]
    big = tensor(np.zeros(1 << 22, np.float32))
    got, fast_ran = run("mul_.Tensor", big, 2)
    assert not fast_ran and got is big
