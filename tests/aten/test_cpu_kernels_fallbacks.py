"""Which kernel runs: every call the Rust CPU kernels (``_aten/fast.py``) do not cover reaches the
Python kernel unchanged, and the Rust kernels sit in the dispatcher as the Python ones did
(registration, names, overrides, errors, autograd, parameters).

Each fast path gives the Python kernel's result bit for bit (dtype, shape, every byte); a
``RustKernel`` built around a recording fallback (``kernel_probe``) tells which of the two ran.
"""

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from kernel_probe import run
from kernel_values import same, same_view, tensor


class Sub(opyard.Tensor):
    pass


def _fallbacks():
    def f32(*s):
        return tensor(np.ones(s, np.float32))
    base = np.arange(12, dtype=np.float32)
    ro = np.ones(3, np.float32)
    ro.flags.writeable = False
    big = np.ones((1 << 16) - 8, np.float32)  # past the small path, short of the pool's threshold
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
        ("large, short of the pool", "add.Tensor", (opyard.from_numpy(big), opyard.from_numpy(big))),
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
        lib.impl("neg", lambda x: opyard.full((1,), 42.0), "CPU")
    try:
        assert (-opyard.ones(1)).tolist() == [42.0]
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


def test_parameters_take_the_fast_path_and_give_plain_tensors():
    p = opyard.nn.Parameter(opyard.ones(3), requires_grad=False)
    for name, args in (("add.Tensor", (p, p)), ("mul.Scalar", (p, 2.0)), ("neg", (p,)), ("sum", (p,))):
        got, fast_ran = run(name, *args)
        assert fast_ran and type(got) is opyard.Tensor
        same(got, fast.PYTHON_KERNELS[name](*args))
    got, fast_ran = run("expand", p, [2, 3])
    assert fast_ran
    same_view(got, fast.PYTHON_KERNELS["expand"](p, [2, 3]), p)
    p = opyard.nn.Parameter(opyard.ones(3))
    (p * 2.0).sum().backward()
    assert p.grad.tolist() == [2.0, 2.0, 2.0]


def test_kernel_plain_type_refuses_other_types():
    class Keeps(opyard.Tensor):
        _keep_subclass = True

    with pytest.raises(ValueError, match="int is not a Tensor type"):
        _core._register_plain_tensor_type(int, kernels=True)
    with pytest.raises(ValueError, match="Keeps is not a Tensor subclass whose ops return plain Tensors"):
        _core._register_plain_tensor_type(Keeps, kernels=True)
