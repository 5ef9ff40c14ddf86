"""The examples of the torch.library custom-ops page, with torch replaced by opyard.

Each block is copied as literally as possible; the asserts after a block check
what the page says (or implies) about the result.
"""

import numpy as np
import pytest

import opyard


def test_custom_op_examples():
    import opyard
    from opyard import Tensor
    from opyard.library import custom_op
    import numpy as np

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

    # Example of a factory function
    @custom_op("mylib::bar", mutates_args={}, device_types="cpu")
    def bar(device: opyard.device) -> Tensor:
        return opyard.ones(3)
    bar("cpu")

    # What the page implies: schemas, the in-place version bump, device dispatch.
    assert str(numpy_sin._schema) == "mylib::numpy_sin(Tensor x) -> Tensor"
    assert str(numpy_sin_inplace._schema) == "mylib::numpy_sin_inplace(Tensor(a0!) x) -> ()"
    assert x._version == 1
    assert str(bar._schema) == "mylib::bar(Device device) -> Tensor"
    assert bar("cpu").tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(RuntimeError, match="bar does not have a kernel registered for meta"):
        bar("meta")
    with pytest.raises(RuntimeError, match=r"There was no fake impl registered for <CustomOpDef\(mylib::numpy_sin_cpu\)>"):
        numpy_sin_cpu(opyard.randn(3, device="meta"))


def test_register_kernel_example():
    import opyard
    from opyard import Tensor
    from opyard.library import custom_op
    import numpy as np

    # Create a custom op that works on cpu
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
    table = opyard.dispatcher.dump_table("mylib::numpy_sin")
    assert "CPU: test_register_kernel_example.<locals>.numpy_sin [kernel]" in table
    assert "CUDA: test_register_kernel_example.<locals>._ [kernel]" in table
    if opyard.cuda.is_available():
        x_cuda = x_cpu.cuda()
        assert opyard.allclose(numpy_sin(x_cuda), x_cuda.sin())


def test_register_kernel_example_second_half_on_privateuseone():
    """The cuda half of the example, on the PrivateUse1 backend (cupy/CUDA is not needed)."""
    from opyard import Tensor
    from opyard.library import custom_op

    @custom_op("mylib::numpy_sin", mutates_args=(), device_types="cpu")
    def numpy_sin(x: Tensor) -> Tensor:
        return opyard.from_numpy(np.sin(x.numpy()))

    @opyard.library.register_kernel("mylib::numpy_sin", "privateuseone")
    def _(x):
        x_np = x.cpu().numpy()
        y_np = np.sin(x_np)
        return opyard.from_numpy(y_np).to(device=x.device)

    x_cpu = opyard.randn(3)
    x_dev = x_cpu.to("privateuseone")
    y = numpy_sin(x_dev)
    assert y.device.type == "privateuseone"
    assert opyard.allclose(y.cpu(), x_cpu.sin())


def test_register_fake_example_1_custom_linear():
    import opyard
    import numpy as np  # noqa: F401  (the example as written)
    from opyard import Tensor

    # Example 1: an operator without data-dependent output shape
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

    assert isinstance(y, opyard.fake.FakeTensor)
    assert y.device == opyard.device("cpu") and y.dtype == opyard.float32 and y.stride() == (3, 1)
    with pytest.raises(NotImplementedError, match="Implementation goes here"):
        custom_linear(opyard.randn(2, 3), opyard.randn(3, 3), opyard.randn(3))


def test_register_fake_example_2_custom_nonzero(capsys):
    import opyard
    import numpy as np
    from opyard import Tensor

    # Example 2: an operator with data-dependent output shape
    @opyard.library.custom_op("mylib::custom_nonzero", mutates_args=())
    def custom_nonzero(x: Tensor) -> Tensor:
        x_np = x.numpy(force=True)
        res = np.stack(np.nonzero(x_np), axis=1)
        return opyard.tensor(res, device=x.device)

    @opyard.library.register_fake("mylib::custom_nonzero")
    def _(x):
        # Number of nonzero-elements is data-dependent.
        # Since we cannot peek at the data in an fake impl,
        # we use the ctx object to construct a new symint that
        # represents the data-dependent size.
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

    printed = capsys.readouterr().out
    assert "def forward(self, arg0_1):" in printed
    assert "custom_nonzero = opyard.ops.mylib.custom_nonzero.default(arg0_1)" in printed
    assert trace(x).tolist() == [[1], [2], [3], [4]]
    x2 = opyard.tensor([5, 0, 7])
    assert trace(x2).tolist() == [[0], [2]]


def test_get_ctx_outside_a_fake_impl_is_none():
    assert opyard.library.get_ctx() is None  # torch's answer outside a fake impl
