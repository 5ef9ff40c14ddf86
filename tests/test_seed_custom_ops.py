"""The examples of the torch.library custom-ops page, with torch replaced by opyard."""

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.library import custom_op


def test_numpy_sin_examples():
    @custom_op("mylib::numpy_sin", mutates_args=())
    def numpy_sin(x: Tensor) -> Tensor:
        x_np = x.cpu().numpy()
        y_np = np.sin(x_np)
        return opyard.from_numpy(y_np).to(device=x.device)

    x = opyard.randn(3)
    y = numpy_sin(x)
    assert opyard.allclose(y, x.sin())

    # Example of a custom op that only works for one device type.
    @custom_op("mylib::numpy_sin_cpu", mutates_args=(), device_types="cpu")
    def numpy_sin_cpu(x: Tensor) -> Tensor:
        x_np = x.numpy()
        y_np = np.sin(x_np)
        return opyard.from_numpy(y_np)

    x = opyard.randn(3)
    y = numpy_sin_cpu(x)
    assert opyard.allclose(y, x.sin())

    # Example of a custom op that mutates an input
    @custom_op("mylib::numpy_sin_inplace", mutates_args={"x"}, device_types="cpu")
    def numpy_sin_inplace(x: Tensor) -> None:
        x_np = x.numpy()
        np.sin(x_np, out=x_np)

    x = opyard.randn(3)
    expected = x.sin()
    numpy_sin_inplace(x)
    assert opyard.allclose(x, expected)
    assert x._version == 1

    # Example of a factory function
    @custom_op("mylib::bar", mutates_args={}, device_types="cpu")
    def bar(device: opyard.device) -> Tensor:
        return opyard.ones(3)
    bar("cpu")
    assert str(bar._schema) == "mylib::bar(Device device) -> Tensor"


def test_register_kernel_example():
    @custom_op("mylib::numpy_sin", mutates_args=(), device_types="cpu")
    def numpy_sin(x: Tensor) -> Tensor:
        x_np = x.numpy()
        y_np = np.sin(x_np)
        return opyard.from_numpy(y_np)

    # Add implementations for the cuda device
    @opyard.library.register_kernel("mylib::numpy_sin", "cuda")
    def _(x):
        x_np = x.cpu().numpy()
        y_np = np.sin(x_np)
        return opyard.from_numpy(y_np).to(device=x.device)

    x_cpu = opyard.randn(3)
    assert opyard.allclose(numpy_sin(x_cpu), x_cpu.sin())
    if opyard.cuda.is_available():
        x_cuda = x_cpu.cuda()
        assert opyard.allclose(numpy_sin(x_cuda), x_cuda.sin())
    else:
        rows = opyard.dispatcher.dump_table("mylib::numpy_sin")
        assert "CUDA: " in rows and "CPU: " in rows


def test_register_fake_custom_linear():
    @opyard.library.custom_op("mylib::custom_linear", mutates_args=())
    def custom_linear(x: Tensor, weight: Tensor, bias: Tensor) -> Tensor:
        raise NotImplementedError("Implementation goes here")

    @opyard.library.register_fake("mylib::custom_linear")
    def _(x, weight, bias):
        assert x.dim() == 2
        assert weight.dim() == 2
        assert bias.dim() == 1
        assert x.shape[1] == weight.shape[1]
        assert weight.shape[0] == bias.shape[0]
        assert x.device == weight.device
        return (x @ weight.t()) + bias

    with opyard.fake.FakeTensorMode():
        x = opyard.randn(2, 3)
        w = opyard.randn(3, 3)
        b = opyard.randn(3)
        y = opyard.ops.mylib.custom_linear(x, w, b)
    assert y.shape == (2, 3)
    assert isinstance(y, opyard.fake.FakeTensor) and y.device.type == "cpu"


def test_register_fake_custom_nonzero_traced_symbolically(capsys):
    @opyard.library.custom_op("mylib::custom_nonzero", mutates_args=())
    def custom_nonzero(x: Tensor) -> Tensor:
        x_np = x.numpy(force=True)
        res = np.stack(np.nonzero(x_np), axis=1)
        return opyard.tensor(res, device=x.device)

    @opyard.library.register_fake("mylib::custom_nonzero")
    def _(x):
        # Number of nonzero-elements is data-dependent.
        ctx = opyard.library.get_ctx()
        nnz = ctx.new_dynamic_size()
        shape = [nnz, x.dim()]
        result = x.new_empty(shape, dtype=opyard.int64)
        return result

    from opyard.fx import make_fx
    x = opyard.tensor([0, 1, 2, 3, 4, 0])
    trace = make_fx(opyard.ops.mylib.custom_nonzero, tracing_mode="symbolic")(x)
    trace.print_readable()
    assert opyard.allclose(trace(x), opyard.ops.mylib.custom_nonzero(x))
    assert "opyard.ops.mylib.custom_nonzero.default(arg0_1)" in capsys.readouterr().out
    with pytest.raises(RuntimeError, match="get_ctx\\(\\) called outside of a fake impl"):
        opyard.library.get_ctx()
    with opyard.fake.FakeTensorMode():
        with pytest.raises(RuntimeError, match="new_dynamic_size\\(\\) needs a ShapeEnv"):
            opyard.ops.mylib.custom_nonzero(opyard.randn(3))
