"""The Rust CPU kernels of add/sub/mul/div/neg/sum/clone/ones_like/zeros_like (``_aten/fast.py``).

Two properties: the fast path gives the Python kernel's result bit for bit (dtype, shape, every
byte), and every call the fast path does not cover reaches the Python kernel unchanged. A
``RustKernel`` built around a recording fallback tells which of the two ran.
"""

import re

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from rust_kernel_probe import Recorder, run

A = opyard.ops.aten
DTYPES = [np.float32, np.float64, np.int32, np.int64]
FLOATS = [np.float32, np.float64]
BINARY = ["add.Tensor", "sub.Tensor", "mul.Tensor", "div.Tensor"]
SCALAR = ["add.Scalar", "sub.Scalar", "mul.Scalar", "div.Scalar"]

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -3.4e38, 1e308, 2.5e-7]
SPECIAL_INTS = {np.int32: [0, 1, -1, 7, -7, 2**31 - 1, -2**31, 46341],
                np.int64: [0, 1, -1, 7, -7, 2**63 - 1, -2**63, 3037000500]}




def values(dt):
    """Every special value of ``dt``, paired with every other one (two flat arrays)."""
    v = np.array(SPECIAL_INTS.get(dt, SPECIAL_FLOATS)).astype(dt)
    return np.repeat(v, len(v)), np.tile(v, len(v))


def same(got, want):
    """Bit-identical tensors: dtype, shape and bytes (nan payloads included)."""
    assert type(got) is opyard.Tensor
    g, w = got.numpy(), want.numpy()
    assert g.dtype == w.dtype and g.shape == w.shape
    assert g.tobytes() == w.tobytes(), (g, w)


def tensor(a):
    return opyard.from_numpy(np.ascontiguousarray(a))


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


@pytest.mark.parametrize("dt", FLOATS)
@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 1000, 4097, 100_000, 1_000_003])
def test_float_sum_is_numpys_pairwise_sum(dt, n):
    x = (np.random.default_rng(n).standard_normal(n) * 10.0 ** np.random.default_rng(n).uniform(-4, 4, n)).astype(dt)
    got, fast_ran = run("sum", tensor(x))
    assert fast_ran == (n <= 1 << 18)  # longer ones go to numpy's own reduction
    assert got.numpy().tobytes() == np.add.reduce(x).tobytes()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_sum_special_values():
    for vals in ([-0.0], [-0.0, -0.0], [np.inf, -np.inf], [np.nan, 1.0], [3.4e38] * 4):
        for dt in FLOATS:
            x = tensor(np.array(vals, dt))
            same(run("sum", x)[0], fast.PYTHON_KERNELS["sum"](x))
    big = tensor(np.array([2**31 - 1] * 3, np.int32))
    assert run("sum", big)[0].numpy().dtype == np.int64 and run("sum", big)[0].item() == 3 * (2**31 - 1)


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


class Sub(opyard.Tensor):
    pass


def _fallbacks():
    f32 = lambda *s: tensor(np.ones(s, np.float32))
    base = np.arange(12, dtype=np.float32)
    ro = np.ones(3, np.float32)
    ro.flags.writeable = False
    big = np.ones(1 << 16, np.float32)
    cpu0 = opyard.ones(2, device="cpu:0")
    swapped = opyard.ones(3)
    swapped._data = np.ones(3, ">f4")  # from_numpy refuses byte-swapped arrays; kernels must too
    return [
        ("broadcast", "add.Tensor", (f32(2, 3), f32(3))),
        ("broadcast of a 1-element tensor with more dims", "add.Tensor", (f32(3), f32(1, 1))),
        ("mixed dtypes", "add.Tensor", (f32(3), tensor(np.ones(3, np.float64)))),
        ("bool", "add.Tensor", (tensor(np.ones(3, bool)), tensor(np.ones(3, bool)))),
        ("float16", "mul.Tensor", (tensor(np.ones(3, np.float16)), tensor(np.ones(3, np.float16)))),
        ("complex", "mul.Tensor", (tensor(np.ones(3, np.complex64)), tensor(np.ones(3, np.complex64)))),
        ("meta", "add.Tensor", (opyard.ones(3, device="meta"), opyard.ones(3, device="meta"))),
        ("subclass", "add.Tensor", (f32(3).as_subclass(Sub), f32(3))),
        ("non-contiguous view", "add.Tensor", (opyard.from_numpy(base)[::2], f32(6))),
        ("negative strides", "mul.Tensor", (opyard.from_numpy(base[::-1]), f32(12))),
        ("transposed", "neg", (opyard.from_numpy(base.reshape(3, 4)).t(),)),
        ("byte-swapped", "sum", (swapped,)),
        ("a cpu:0 tensor keeps its device", "add.Tensor", (cpu0, cpu0)),
        ("a cpu:0 tensor keeps its device (clone)", "clone", (cpu0,)),
        ("large", "add.Tensor", (opyard.from_numpy(big), opyard.from_numpy(big))),
        ("large division", "div.Tensor", (opyard.from_numpy(big[:20000]), opyard.from_numpy(big[:20000]))),
        ("python bool", "add.Scalar", (f32(3), True)),
        ("int beyond int64", "mul.Scalar", (f32(3), 2**70)),
        ("int too large to convert exactly", "add.Scalar", (f32(3), 2**60)),
        ("int tensor, alpha with a python float", "add.Scalar", (tensor(np.ones(3, np.int64)), 0.5, 2)),
        ("extra keyword", "clone", (f32(3),), {"memory_format": opyard.contiguous_format}),
        ("sum with dtype", "sum", (f32(3),), {"dtype": opyard.float64}),
        ("ones_like with dtype", "ones_like", (f32(3),), {"dtype": opyard.int64}),
        ("non-contiguous read-only view", "clone", (opyard.from_numpy(ro)[::2],)),
    ]


@pytest.mark.parametrize("case", _fallbacks(), ids=lambda c: c[0])
def test_uncovered_calls_reach_the_python_kernel(case):
    _, name, args, *kw = case
    kwargs = kw[0] if kw else {}
    got, fast_ran = run(name, *args, **kwargs)
    assert not fast_ran
    want = fast.PYTHON_KERNELS[name](*args, **kwargs)
    assert type(got) is type(want) and got.device == want.device
    np.testing.assert_array_equal(np.asarray(got.numpy()) if got.device.type != "meta" else 0,
                                  np.asarray(want.numpy()) if want.device.type != "meta" else 0)


def test_read_only_input_takes_the_fast_path():
    ro = np.arange(3, dtype=np.float32)
    ro.flags.writeable = False
    x = opyard.from_numpy(ro)
    got, fast_ran = run("add.Tensor", x, x)
    assert fast_ran and got.tolist() == [0.0, 2.0, 4.0] and got.numpy().flags.writeable


def test_errors_are_the_python_kernels():
    x = tensor(np.ones(3, np.float32))
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\)"):
        x + tensor(np.ones(4, np.float32))
    b = tensor(np.ones(2, bool))
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors"):
        b - b
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor"):
        _ = -b


def test_results_are_fresh_plain_tensors():
    x = tensor(np.ones(3, np.float32))
    for name, args in (("add.Tensor", (x, x)), ("clone", (x,)), ("neg", (x,)), ("ones_like", (x,))):
        got, fast_ran = run(name, *args)
        assert fast_ran and type(got) is opyard.Tensor and got.device.type == "cpu"
        assert not got.requires_grad and got.grad_fn is None
        assert not np.shares_memory(got.numpy(), x.numpy())
        got.numpy()[0] = 5  # writable, owns its memory
        assert x.tolist() == [1.0, 1.0, 1.0]


def test_registered_at_cpu_and_named_as_before():
    table = opyard.dispatcher.dump_table("aten::add.Tensor")
    assert "CPU: add [kernel]" in table
    k = opyard.library.get_kernel("aten::mul.Tensor", "CPU")
    cpu = opyard.dispatcher.DispatchKeySet("CPU")
    assert k.call_boxed(cpu, opyard.ones(2), opyard.ones(2)).tolist() == [1.0, 1.0]
    for name in _core.RustKernel.ops():
        assert fast.PYTHON_KERNELS[name] is _core.RustKernel(name, fast.PYTHON_KERNELS[name]).__wrapped__
    with pytest.raises(ValueError, match=r"RustKernel: no Rust kernel for aten::sin; the ones with one are"):
        _core.RustKernel("sin", len)


def test_user_override_still_warns_and_restores():
    lib = opyard.library.Library("aten", "IMPL")
    with pytest.warns(UserWarning, match="Overriding a previously registered kernel"):
        lib.impl("neg", lambda x: "mine", "CPU")
    try:
        assert -opyard.ones(1) == "mine"
    finally:
        lib._destroy()
    assert (-opyard.ones(1)).tolist() == [-1.0]


@pytest.mark.parametrize("fn", [
    lambda x, y: (x + y) * (x - y) / (y + 3.0),
    lambda x, y: (-x).sum() + (x * 2.0).sum() + y.clone().sum(),
    lambda x, y: x.sub(y, alpha=2).add(y, alpha=-0.5),
])
def test_gradcheck_through_the_rust_kernels(fn):
    x = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    y = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(fn, (x, y))


def test_gradient_accumulation_uses_add():
    x = opyard.ones(3, requires_grad=True)
    (x * 2.0).sum().backward()
    (x * 3.0).sum().backward()
    assert x.grad.tolist() == [5.0, 5.0, 5.0]


@pytest.mark.parametrize("dt", DTYPES)
def test_zero_dim_operands(dt):
    s, t = opyard.from_numpy(np.array(3, dt)), opyard.from_numpy(np.array(2, dt))
    one = tensor(np.array([2], dt))
    for name in BINARY:
        for args in ((s, t), (s, one), (one, s)):
            got, fast_ran = run(name, *args)
            assert fast_ran
            same(got, fast.PYTHON_KERNELS[name](*args))


def _same_view(got, want, base):
    g, w = got.numpy(), want.numpy()
    assert type(got) is opyard.Tensor and g.dtype == w.dtype and g.shape == w.shape
    assert g.strides == w.strides and g.flags.writeable == w.flags.writeable is False
    assert np.array_equal(g, w) and (g.size == 0 or np.shares_memory(g, base.numpy()))
    root = base._base if base._base is not None else base
    assert got._base is root and want._base is root
    assert got._keyset == want._keyset and got.device == want.device


@pytest.mark.parametrize("shape, size", [
    ((3,), [2, 3]), ((1, 3), [4, 3]), ((3, 1), [-1, 4]), ((), [2, 2]), ((2, 1, 3), [5, 2, 7, -1]),
    ((3,), (3,)), ((0,), [2, 0]), ((1,), [0]),
])
@pytest.mark.parametrize("dt", DTYPES + [np.bool_, np.complex64])
def test_expand_is_the_python_kernels_view(shape, size, dt):
    x = tensor((np.arange(int(np.prod(shape))) % 3).astype(dt).reshape(shape))
    got, fast_ran = run("expand", x, size)
    assert fast_ran
    _same_view(got, fast.PYTHON_KERNELS["expand"](x, size), x)


def test_expand_of_a_strided_view_shares_the_roots_counter():
    root = opyard.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4))
    col = root.t()[1:2]  # a (1, 3) view with strides (4, 16)
    got, fast_ran = run("expand", col, [5, 3])
    assert fast_ran
    _same_view(got, fast.PYTHON_KERNELS["expand"](col, [5, 3]), col)
    v = got._version
    root.add_(1)
    assert got._version == v + 1 and got.tolist()[4] == [2.0, 6.0, 10.0]


@pytest.mark.parametrize("size, kwargs", [
    ([-1, 3], {}), ([2, -2], {}), ([2, 4], {}), ([], {}), ([2, 3.0], {}), ([2, 3], {"implicit": True}),
])
def test_expand_falls_back_for_other_sizes(size, kwargs):
    x = tensor(np.ones(3, np.float32))
    rec = Recorder("expand")
    k = _core.RustKernel("expand", rec)
    try:
        want = fast.PYTHON_KERNELS["expand"](x, size, **kwargs)
    except Exception as e:  # noqa: BLE001  (the Rust kernel must raise the same error)
        with pytest.raises(type(e), match=re.escape(str(e))):
            k(x, size, **kwargs)
    else:
        _same_view(k(x, size, **kwargs), want, x)
    assert rec.calls == 1


def test_expand_through_the_dispatcher_and_autograd():
    x = opyard.ones(3, requires_grad=True)
    y = x.expand(2, 3)
    assert y.shape == (2, 3) and y._base is x
    (y * 2.0).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]
    with pytest.raises(RuntimeError, match="must match the existing size"):
        opyard.ones(3).expand(2, 4)


def test_parameters_take_the_fast_path_and_give_plain_tensors():
    p = opyard.nn.Parameter(opyard.ones(3), requires_grad=False)
    for name, args in (("add.Tensor", (p, p)), ("mul.Scalar", (p, 2.0)), ("neg", (p,)), ("sum", (p,))):
        got, fast_ran = run(name, *args)
        assert fast_ran and type(got) is opyard.Tensor
        same(got, fast.PYTHON_KERNELS[name](*args))
    got, fast_ran = run("expand", p, [2, 3])
    assert fast_ran
    _same_view(got, fast.PYTHON_KERNELS["expand"](p, [2, 3]), p)
    p = opyard.nn.Parameter(opyard.ones(3))
    (p * 2.0).sum().backward()
    assert p.grad.tolist() == [2.0, 2.0, 2.0]


def test_kernel_plain_type_refuses_other_types():
    class Keeps(opyard.Tensor):
        _keep_subclass = True

    for cls in (int, Keeps):
        with pytest.raises(ValueError, match="is not a Tensor subclass whose ops return plain Tensors"):
            _core._kernel_plain_type(cls)


INPLACE = ["add_.Tensor", "sub_.Tensor", "mul_.Tensor"]


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
    with pytest.raises(RuntimeError, match="read-only"):
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
