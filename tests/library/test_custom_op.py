"""custom_op: definition, dispatch, redefinition, aliasing, and the register_* APIs."""

import warnings

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.library import Library, custom_op


def test_decorator_with_and_without_fn():
    def twice(x: Tensor) -> Tensor:
        return x * 2
    op = custom_op("t_co::twice", twice, mutates_args=())
    assert op(opyard.tensor([1.0])).tolist() == [2.0]
    assert op.__name__ == "twice" and repr(op) == "<CustomOpDef(t_co::twice)>"
    assert op._opoverload.name() == opyard.ops.t_co.twice.default.name() == "t_co::twice"
    assert opyard.ops.t_co.twice(opyard.tensor([2.0])).tolist() == [4.0]


def test_the_function_itself_is_the_kernel():
    def k(x: Tensor) -> Tensor:
        return x.clone()
    custom_op("t_co::direct", k, mutates_args=())
    assert "CompositeExplicitAutograd[alias]: " in opyard.dispatcher.dump("t_co::direct")
    entries = {row[0]: row[1] for row in opyard._core._table_entries("t_co::direct")}
    assert entries["CPU"].endswith("k")
    op2 = custom_op("t_co::direct_cpu", k, mutates_args=(), device_types=["cpu", "meta"])
    entries = {row[0]: row[1] for row in opyard._core._table_entries("t_co::direct_cpu")}
    assert entries["CPU"].endswith("k") and entries["Meta"].endswith("k")
    assert op2(opyard.tensor([1.0])).tolist() == [1.0]


def test_kwarg_defaults_reach_the_kernel():
    @custom_op("t_co::scale", mutates_args=())
    def scale(x: Tensor, k: float = 2.0, *, bias: float = 0.0) -> Tensor:
        return x * k + bias
    assert scale(opyard.ones(1)).tolist() == [2.0]
    assert scale(opyard.ones(1), 3.0, bias=1.0).tolist() == [4.0]
    assert str(scale._schema) == "t_co::scale(Tensor x, float k=2., *, float bias=0.) -> Tensor"


def test_mutates_args_required_and_checked():
    def f(x: Tensor) -> Tensor:
        return x.clone()
    with pytest.raises(TypeError, match="mutates_args"):
        custom_op("t_co::m1", f)
    with pytest.raises(TypeError, match="mutates_args"):
        custom_op("t_co::m1", f, mutates_args=None)
    with pytest.raises(ValueError, match="not found in the custom op's signature"):
        custom_op("t_co::m1", f, mutates_args=("y",))


def test_bad_names_and_device_types():
    def f(x: Tensor) -> Tensor:
        return x.clone()
    # An overload name is allowed (as torch): see test_definition_rules.py.
    for bad in ("noseparator", "ns::", "::op", "ns::op.a.b", "ns::op.", "ns::a::b", "ns.x::op", "ns::1op"):
        with pytest.raises(ValueError, match="expected a name like"):
            custom_op(bad, f, mutates_args=())
    with pytest.raises(ValueError, match=r"unknown device type 'tpu'; the valid device types are \['cpu', 'cuda', 'default', 'meta', 'privateuseone'\]"):
        custom_op("t_co::dev", f, mutates_args=(), device_types="tpu")


def test_factory_without_tensors_needs_a_device_argument():
    def make(n: int) -> Tensor:
        return opyard.ones(n)
    with pytest.raises(ValueError, match="Functions without tensor inputs are required to have a `device: opyard.device` argument"):
        custom_op("t_co::make", make, mutates_args=(), device_types="cpu")
    # Without device_types the kernel is CompositeExplicitAutograd: fine.
    op = custom_op("t_co::make", make, mutates_args=())
    assert op(2).tolist() == [1.0, 1.0]

    @custom_op("t_co::make_on", mutates_args=(), device_types="meta")
    def make_on(n: int, device: opyard.device) -> Tensor:
        return opyard.empty(n, device=device)
    assert make_on(3, "meta").is_meta
    # torch's BackendSelect kernel: a device without a kernel of its own is refused
    with pytest.raises(RuntimeError, match=r"^make_on does not have a kernel registered for cpu\. Please use "
                                           r"register_kernel to do so\.$"):
        make_on(3, "cpu")


def test_schema_override_checked_against_mutates_args():
    def f(x, y):
        y.numpy()[...] = x.numpy()
    op = custom_op("t_co::copy_into", f, mutates_args=("y",), schema="(Tensor x, Tensor(a!) y) -> ()")
    x, y = opyard.ones(2), opyard.zeros(2)
    op(x, y)
    assert y.tolist() == [1.0, 1.0] and y._version == 1
    with pytest.raises(ValueError, match="The schema suggests that the op mutates"):
        custom_op("t_co::copy_into2", f, mutates_args=(), schema="(Tensor x, Tensor(a!) y) -> ()")


def test_kwarg_only_tensors_are_refused():
    def f(x: Tensor, *, y: Tensor) -> Tensor:
        return x + y
    with pytest.raises(NotImplementedError, match="custom_op with kwarg-only Tensor args"):
        custom_op("t_co::kwt", f, mutates_args=())
    assert not hasattr(opyard.ops.t_co, "kwt") or True


def test_redefinition_replaces_the_op():
    @custom_op("t_co::redef", mutates_args=())
    def a(x: Tensor) -> Tensor:
        return x + 1

    @custom_op("t_co::redef", mutates_args=())
    def b(x: Tensor, k: int) -> Tensor:
        return x + k
    assert str(opyard.ops.t_co.redef.default._schema) == "t_co::redef(Tensor x, SymInt k) -> Tensor"
    assert b(opyard.zeros(1), 5).tolist() == [5.0]


def test_mutation_bumps_versions():
    @custom_op("t_co::fill_", mutates_args={"xs"})
    def fill_(xs: list[Tensor], v: float) -> None:
        for x in xs:
            x.numpy()[...] = v
    a, b = opyard.zeros(2), opyard.zeros(2)
    fill_([a, b], 3.0)
    assert a.tolist() == [3.0, 3.0] and a._version == 1 and b._version == 1


@pytest.mark.parametrize("body", [lambda x: x, lambda x: x[1:], lambda x: x.view(-1)])
def test_returning_an_input_or_a_view_of_it_raises(body):
    @custom_op("t_co::alias", mutates_args=())
    def alias(x: Tensor) -> Tensor:
        return body(x)
    with pytest.raises(RuntimeError, match=r"^alias \(with implementation in .*\): The output of this custom operator \(1\) must not "
                       r"also be an input to this custom operator.*Please instead return a clone"):
        alias(opyard.randn(3))


def test_outputs_aliasing_each_other_raise():
    @custom_op("t_co::two", mutates_args=())
    def two(x: Tensor) -> tuple[Tensor, Tensor]:
        y = x.clone()
        return y, y
    with pytest.raises(RuntimeError, match="may not alias any inputs to this custom operator or other returns"):
        two(opyard.randn(2))


def test_register_kernel_overrides_the_default_per_device():
    @custom_op("t_co::which", mutates_args=())
    def which(x: Tensor) -> Tensor:
        return opyard.zeros(1)

    @which.register_kernel("cpu")
    def _(x):
        return opyard.ones(1)
    assert which(opyard.randn(1)).tolist() == [1.0]
    # Meta is not a device of the default kernel: without a fake impl, torch's error.
    with pytest.raises(RuntimeError, match=r"There was no fake impl registered for <CustomOpDef\(t_co::which\)>"):
        which(opyard.randn(1, device="meta"))


def test_register_functions_work_on_library_ops():
    lib = Library("t_colib", "FRAGMENT")
    lib.define("double(Tensor x) -> Tensor")
    try:
        opyard.library.register_kernel("t_colib::double", "cpu", lambda x: x * 2, lib=lib)
        assert opyard.ops.t_colib.double(opyard.tensor([1.0])).tolist() == [2.0]
        opyard.library.register_fake("t_colib::double", lambda x: opyard.empty_like(x), lib=lib)
        assert opyard.ops.t_colib.double(opyard.randn(4, device="meta")).shape == (4,)
        with opyard.fake.FakeTensorMode():
            y = opyard.ops.t_colib.double(opyard.randn(5))
        assert isinstance(y, opyard.fake.FakeTensor) and y.shape == (5,)
        opyard.library.register_autograd("t_colib::double", lambda ctx, g: g * 2, lib=lib)
        x = opyard.randn(3, requires_grad=True)
        opyard.ops.t_colib.double(x).sum().backward()
        assert x.grad.tolist() == [2.0, 2.0, 2.0]
    finally:
        lib._destroy()


def test_register_autograd_setup_context_and_needs_input_grad():
    seen = {}

    @custom_op("t_co::mulk", mutates_args=())
    def mulk(x: Tensor, y: Tensor, k: float = 3.0) -> Tensor:
        return x * y * k

    def setup_context(ctx, inputs, output):
        x, y, k = inputs
        seen["inputs"] = (k,)
        ctx.save_for_backward(x, y)
        ctx.k = k

    def backward(ctx, g):
        x, y = ctx.saved_tensors
        seen["needs"] = ctx.needs_input_grad
        return (g * y * ctx.k if ctx.needs_input_grad[0] else None,
                g * x * ctx.k if ctx.needs_input_grad[1] else None, None)

    mulk.register_autograd(backward, setup_context=setup_context)
    x, y = opyard.randn(3, requires_grad=True), opyard.randn(3)
    out = mulk(x, y)
    assert seen["inputs"] == (3.0,)  # the default was filled back in
    assert type(out.grad_fn).__name__ == "mulkBackward"
    out.sum().backward()
    assert seen["needs"] == (True, False)  # one entry per argument passed: k took its default
    assert opyard.allclose(x.grad, y * 3.0)
    assert opyard.autograd.gradcheck(lambda a, b: mulk(a, b, 2.0),
                                     (opyard.randn(3, dtype=opyard.float64, requires_grad=True),
                                      opyard.randn(3, dtype=opyard.float64, requires_grad=True)))


def test_register_autograd_with_kwarg_only_inputs():
    @custom_op("t_co::numpy_mul", mutates_args=())
    def numpy_mul(x: Tensor, *, val: float) -> Tensor:
        return opyard.from_numpy(x.cpu().numpy() * val)

    def setup_context(ctx, inputs, keyword_only_inputs, output):
        ctx.val = keyword_only_inputs["val"]

    def backward(ctx, grad):
        return grad * ctx.val

    numpy_mul.register_autograd(backward, setup_context=setup_context)
    x = opyard.randn(3, requires_grad=True)
    y = numpy_mul(x, val=3.14)
    (grad_x,) = opyard.autograd.grad(y, x, opyard.ones_like(y))
    assert opyard.allclose(grad_x, opyard.full_like(x, 3.14))


def test_register_autograd_refuses_mutable_ops():
    @custom_op("t_co::inc_", mutates_args=("x",))
    def inc_(x: Tensor) -> None:
        x.numpy()[...] += 1
    with pytest.raises(RuntimeError, match=r"Cannot register autograd formula for non-functional operator .*t_co::inc_"):
        inc_.register_autograd(lambda ctx, g: g)


def test_backward_without_a_formula_names_the_op():
    @custom_op("t_co::noformula", mutates_args=())
    def noformula(x: Tensor) -> Tensor:
        return x * 2
    y = noformula(opyard.randn(2, requires_grad=True))
    assert y.requires_grad
    with pytest.raises(RuntimeError, match=r"Trying to backward through t_co.noformula.default but no autograd "
                                           r"formula was registered. Please use register_autograd to add one."):
        y.sum().backward()


def test_one_autograd_node_per_call():
    @custom_op("t_co::one_node", mutates_args=())
    def one_node(x: Tensor) -> Tensor:
        return (x * 2).sin()
    one_node.register_autograd(lambda ctx, g: g)
    y = one_node(opyard.randn(2, requires_grad=True))
    assert type(y.grad_fn).__name__ == "one_nodeBackward"
    assert [type(f).__name__ for f, _ in y.grad_fn.next_functions] == ["AccumulateGrad"]


def test_register_autocast():
    @custom_op("t_co::ac", mutates_args=())
    def ac(x: Tensor) -> Tensor:
        return x.clone()
    ac.register_autocast("cpu", opyard.float64)
    x = opyard.randn(2)
    assert ac(x).dtype == opyard.float32
    with opyard.amp.autocast("cpu"):
        assert ac(x).dtype == opyard.float64
    with pytest.raises(ValueError, match="^Expected one of .* device type at start of device string: tpu .*unknown device type 'tpu'"):
        opyard.library.register_autocast("t_co::ac", "tpu", opyard.float16)


def test_register_vmap():
    @custom_op("t_co::vsum", mutates_args=())
    def vsum(x: Tensor) -> Tensor:
        return x.sum(0)

    calls = []

    @vsum.register_vmap
    def _(info, in_dims, x):
        calls.append(info.batch_size)
        return x.sum(1), 0
    out = opyard.func.vmap(vsum)(opyard.ones(4, 3))
    assert out.tolist() == [3.0] * 4 and calls == [4]


def test_no_warning_on_first_registration():
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        @custom_op("t_co::quiet", mutates_args=())
        def quiet(x: Tensor) -> Tensor:
            return x.clone()
        quiet.register_fake(lambda x: opyard.empty_like(x))
        quiet.register_autograd(lambda ctx, g: g)


def test_numpy_kernel_roundtrip_dtype():
    @custom_op("t_co::npk", mutates_args=())
    def npk(x: Tensor) -> Tensor:
        return opyard.from_numpy(np.cos(x.numpy()))
    x = opyard.randn(3, dtype=opyard.float64)
    assert npk(x).dtype == opyard.float64
