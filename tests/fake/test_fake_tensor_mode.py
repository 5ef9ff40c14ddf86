"""FakeTensorMode, FakeTensor, SymInt and ShapeEnv."""

import pytest

import opyard
from opyard import Tensor
from opyard.fake import (DataDependentOutputException, FakeTensor, FakeTensorMode, GuardOnDataDependentSymNode,
                         ShapeEnv, SymInt)
from opyard.library import custom_op


def test_factories_and_ops_make_fake_tensors():
    with FakeTensorMode():
        x = opyard.randn(2, 3)
        y = x @ opyard.randn(3, 4)
        z = (y + 1).sum(0)
    for t in (x, y, z):
        assert isinstance(t, FakeTensor)
    assert y.shape == (2, 4) and z.shape == (4,) and y.dtype == opyard.float32
    assert x.device == opyard.device("cpu")


def test_strides_offsets_and_views():
    with FakeTensorMode() as mode:
        x = opyard.randn(2, 3)
        assert x.stride() == (3, 1) and x.is_contiguous()
        t = x.t()
        assert isinstance(t, FakeTensor) and t.stride() == (1, 3) and not t.is_contiguous()
        assert x[:, 1:].storage_offset() == 1
        real = opyard.randn(3, 2).t()
    fake = mode.from_tensor(real)
    assert fake.stride() == real.stride() == (1, 2)
    assert mode.from_tensor(real) is fake  # memoized


@pytest.mark.parametrize("access, error, match", [
    (lambda x: x.numpy(), RuntimeError, r"^FakeTensor\.numpy\(\): a FakeTensor has no data"),
    (lambda x: x.tolist(), DataDependentOutputException, r"^aten\._local_scalar_dense\.default: .*has no data"),
    (lambda x: x.item(), DataDependentOutputException, r"^aten\._local_scalar_dense\.default: .*has no data"),
    (lambda x: bool(x), DataDependentOutputException, r"^aten\._local_scalar_dense\.default: .*has no data"),
    (lambda x: x.expand(2).item(), RuntimeError, r"^a Tensor with 2 elements cannot be converted to Scalar$"),
    (lambda x: bool(x.expand(2)), RuntimeError, r"^Boolean value of Tensor with more than one value is ambiguous$"),
])
def test_data_access_raises(access, error, match):
    with FakeTensorMode():
        x = opyard.randn(1)
        with pytest.raises(error, match=match):
            access(x)
    assert repr(x) == "FakeTensor(..., size=(1,))"


def test_real_inputs_are_converted_and_devices_preserved():
    real = opyard.randn(3)
    with FakeTensorMode(allow_non_fake_inputs=True):
        y = real * 2
        m = opyard.randn(3, device="meta") + 1
        p = opyard.randn(3).to("privateuseone")
        q = p + p
    assert isinstance(y, FakeTensor) and y.device.type == "cpu"
    assert m.device.type == "meta" and q.device.type == "privateuseone"
    for mode in (FakeTensorMode(), FakeTensorMode(allow_non_fake_inputs=False)):
        with pytest.raises(RuntimeError, match="allow_non_fake_inputs"):
            with mode:
                real * 2


def test_in_place_ops_bump_versions_and_errors_propagate():
    with FakeTensorMode():
        x = opyard.randn(3)
        x.add_(1)
        assert x._version == 1
        with pytest.raises(RuntimeError):
            opyard.randn(2, 3) @ opyard.randn(2, 3)


def test_custom_op_fake_impl_and_missing_fake_impl():
    @custom_op("t_fake::lin", mutates_args=())
    def lin(x: Tensor, w: Tensor) -> Tensor:
        raise AssertionError("the real kernel must not run under FakeTensorMode")

    with FakeTensorMode():
        with pytest.raises(RuntimeError,
                           match=r"^There was no fake impl registered for <CustomOpDef\(t_fake::lin\)>\. .*Please use "
                                 r"`lin\.register_fake` to add an fake impl\. \(In opyard: .*\)$"):
            lin(opyard.randn(2, 3), opyard.randn(4, 3))

    @lin.register_fake
    def _(x, w):
        return x.new_empty(x.shape[0], w.shape[0])
    with FakeTensorMode():
        y = lin(opyard.randn(2, 3), opyard.randn(4, 3))
    assert y.shape == (2, 4)
    # The fake impl is the Meta kernel too.
    assert lin(opyard.randn(2, 3, device="meta"), opyard.randn(4, 3, device="meta")).is_meta


def test_ops_returning_nothing_get_a_trivial_fake():
    @custom_op("t_fake::log_", mutates_args=("x",))
    def log_(x: Tensor) -> None:
        raise AssertionError("not under fake")
    with FakeTensorMode():
        assert log_(opyard.randn(2)) is None


def test_symint_arithmetic_and_guards():
    env = ShapeEnv()
    u0 = env.create_unbacked_symint()
    u1 = env.create_unbacked_symint(min=2, max=8)
    assert (str(u0), str(u1)) == ("u0", "u1")
    assert str(u0 + 1) == "u0 + 1" and str((u0 + 1) * 2) == "(u0 + 1) * 2"
    assert str(u0 * u1 - 3) == "u0 * u1 - 3" and str(u0 // 2) == "u0 // 2" and str(u0 % 3) == "u0 % 3"
    assert u0 >= 0 and u1 > 1 and u1 <= 8 and u1 != 0 and u0 + 1 > 0 and u0 == u0
    assert u0 * 1 is u0 and u0 + 0 is u0
    with pytest.raises(GuardOnDataDependentSymNode, match="Could not guard on data-dependent expression u0 > 2"):
        bool(u0 > 2)
    with pytest.raises(GuardOnDataDependentSymNode, match=r"Could not guard on data-dependent expression Eq\(u0, 3\)"):
        bool(u0 == 3)
    with pytest.raises(GuardOnDataDependentSymNode, match="specialized integer"):
        int(u0)
    assert env.var_to_range == {"u0": (0, None), "u1": (2, 8)}


def _nonzero_like(name):
    @custom_op(name, mutates_args=())
    def op(x: Tensor) -> Tensor:
        return opyard.tensor([[i] for i, v in enumerate(x.tolist()) if v], dtype=opyard.int64)
    return op


def test_new_dynamic_size_and_its_errors():
    op = _nonzero_like("t_fake::nz")
    bounds = {}

    @op.register_fake
    def _(x):
        ctx = opyard.library.get_ctx()
        n = ctx.new_dynamic_size(**bounds)
        return x.new_empty([n, 1], dtype=opyard.int64)

    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)):
        y = op(opyard.randn(5))
        assert isinstance(y.shape[0], SymInt) and str(y.shape[0]) == "u0" and y.shape[1] == 1
        assert y.dim() == 2 and str(y.numel()) == "u0"
        z = y + 1  # symbolic sizes survive ordinary ops
        assert str(z.shape[0]) == "u0" and z.shape[1] == 1
        w = y.new_zeros([y.shape[0] * 2, 3])
        assert str(w.shape[0]) == "u0 * 2"
        bounds.update(min=-1)
        with pytest.raises(ValueError, match="expected min to be greater than or equal to 0"):
            op(opyard.randn(5))
        bounds.update(min=5, max=2)
        with pytest.raises(ValueError, match="Maximum value to constrain_as_size can't be less than the specified min value, received min=5 and max=2"):
            op(opyard.randn(5))
    with FakeTensorMode():
        bounds.clear()
        with pytest.raises(opyard.fake.DynamicOutputShapeException, match=r"new_dynamic_size\(\) needs a ShapeEnv"):
            op(opyard.randn(3))
    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=False)):
        with pytest.raises(RuntimeError, match="allows dynamic output shapes"):
            op(opyard.randn(3))


def test_fake_cache_does_not_mix_layouts():
    with FakeTensorMode():
        a = opyard.randn(2, 3)
        b = opyard.randn(3, 2).t()
        assert (a + 1).stride() == (3, 1)
        assert (b + 1).stride() == (1, 2)
        c = opyard.randn(2, 3, dtype=opyard.float64)
        assert (c + 1).dtype == opyard.float64 and (a + 1).dtype == opyard.float32


def test_autograd_on_fake_tensors():
    with FakeTensorMode():
        x = opyard.randn(3, requires_grad=True)
        y = (x * 2).sum()
        assert y.requires_grad and isinstance(y, FakeTensor)
