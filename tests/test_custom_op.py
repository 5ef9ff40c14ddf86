"""custom_op, infer_schema, the register_* APIs, fake tensors, make_fx and opcheck."""

import numbers
from typing import List, Optional, Sequence

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.library import (OpCheckError, custom_op, infer_schema, opcheck, register_autograd,
                            register_fake, register_kernel)


@pytest.mark.parametrize("fn, expected", [
    (lambda x: None, None),
])
def _unused(fn, expected):
    pass


def f1(x: Tensor, y: Optional[Tensor], n: int, s: float = 1.5, *, flag: bool = False) -> Tensor: ...
def f2(xs: Sequence[Tensor], ys: List[Optional[Tensor]], dims: List[int]) -> List[Tensor]: ...
def f3(x: Tensor, v: numbers.Number, dt: opyard.dtype, d: opyard.device, mode: str = "a") -> tuple[Tensor, Tensor]: ...
def f4(x: Tensor, out: Tensor) -> None: ...


@pytest.mark.parametrize("fn, mutates, schema", [
    (f1, (), "(Tensor x, Tensor? y, SymInt n, float s=1.5, *, bool flag=False) -> Tensor"),
    (f2, (), "(Tensor[] xs, Tensor?[] ys, SymInt[] dims) -> Tensor[]"),
    (f3, (), "(Tensor x, Scalar v, ScalarType dt, Device d, str mode=\"a\") -> (Tensor, Tensor)"),
    (f4, ("out",), "(Tensor x, Tensor(a0!) out) -> ()"),
    (f4, "unknown", "(Tensor(a0!) x, Tensor(a1!) out) -> ()"),
])
def test_infer_schema(fn, mutates, schema):
    assert infer_schema(fn, mutates_args=mutates) == schema
    opyard.parse_schema("ns::op" + schema)


def g_noann(x): ...
def g_var(*args: Tensor) -> Tensor: ...
def g_bad(x: dict) -> Tensor: ...
def g_noret(x: Tensor): ...


@pytest.mark.parametrize("fn, mutates, match", [
    (g_noann, (), "Parameter x must have a type annotation"),
    (g_var, (), "varargs"),
    (g_bad, (), "Parameter x has unsupported type"),
    (g_noret, (), "No return type annotation"),
    (f1, ("nope",), r"mutates_args contains \['nope'\]"),
    (f1, ("n",), "Parameter n is in mutates_args but is not a Tensor"),
])
def test_infer_schema_errors(fn, mutates, match):
    with pytest.raises(ValueError, match=match):
        infer_schema(fn, mutates_args=mutates)


def test_mutates_args_required_and_device_types_checked():
    with pytest.raises(TypeError, match="mutates_args is required"):
        custom_op("t_co::a", lambda x: x, mutates_args=None)
    with pytest.raises(ValueError, match="unknown device type 'tpu'"):
        @custom_op("t_co::b", mutates_args=(), device_types="tpu")
        def b(x: Tensor) -> Tensor:
            return x.clone()
    with pytest.raises(ValueError, match="needs a 'device: opyard.device' parameter"):
        @custom_op("t_co::c", mutates_args=(), device_types="cpu")
        def c(n: int) -> Tensor:
            return opyard.ones(n)


def test_redefinition_replaces_the_op():
    @custom_op("t_co::twice", mutates_args=())
    def twice(x: Tensor) -> Tensor:
        return x * 2

    @custom_op("t_co::twice", mutates_args=())
    def twice2(x: Tensor) -> Tensor:
        return x * 3

    assert opyard.ops.t_co.twice(opyard.ones(1)).item() == 3


def test_kernel_is_registered_directly():
    def k(x: Tensor) -> Tensor:
        return x.clone()

    op = custom_op("t_co::direct", k, mutates_args=())
    table = opyard.dispatcher.dump_table(op)
    assert "CPU: test_kernel_is_registered_directly.<locals>.k [default backend kernel]" in table


def test_register_autograd_and_gradcheck():
    @custom_op("t_co::mysin", mutates_args=())
    def mysin(x: Tensor) -> Tensor:
        return opyard.from_numpy(np.sin(x.numpy()))

    def setup_context(ctx, inputs, output):
        x, = inputs
        ctx.save_for_backward(x)

    def backward(ctx, grad):
        x, = ctx.saved_tensors
        return grad * x.cos()

    mysin.register_autograd(backward, setup_context=setup_context)
    x = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    y = mysin(x)
    assert type(y.grad_fn).__name__.startswith("mysin")
    y.sum().backward()
    assert np.allclose(x.grad.numpy(), np.cos(x.detach().numpy()))
    assert opyard.autograd.gradcheck(mysin, (x,))


def test_setup_context_gets_defaults_and_needs_input_grad():
    seen = {}

    @custom_op("t_co::scale", mutates_args=())
    def scale(x: Tensor, y: Tensor, *, k: float = 2.0) -> Tensor:
        return x * k + y

    def setup_context(ctx, inputs, output):
        seen["inputs"] = inputs
        ctx.k = inputs[2]

    def backward(ctx, g):
        seen["needs"] = ctx.needs_input_grad
        return g * ctx.k, g, None

    register_autograd("t_co::scale", backward, setup_context=setup_context)
    x = opyard.ones(2, requires_grad=True)
    scale(x, opyard.ones(2)).sum().backward()
    assert seen["inputs"][2] == 2.0 and seen["needs"][:2] == (True, False)
    assert x.grad.tolist() == [2.0, 2.0]


def test_register_autograd_refuses_mutable_ops():
    @custom_op("t_co::inc", mutates_args=("x",))
    def inc(x: Tensor) -> None:
        x.numpy()[...] += 1

    with pytest.raises(RuntimeError, match="mutates some of its inputs"):
        inc.register_autograd(lambda ctx, g: g)


def test_backward_without_formula_names_the_op():
    @custom_op("t_co::noformula", mutates_args=())
    def noformula(x: Tensor) -> Tensor:
        return x.detach().clone()

    y = noformula(opyard.ones(2, requires_grad=True))
    assert y.requires_grad
    with pytest.raises(RuntimeError, match="t_co::noformula"):
        y.sum().backward()


def test_register_kernel_and_fake_on_library_ops():
    lib = opyard.library.Library("t_lo", "DEF")
    lib.define("double(Tensor x) -> Tensor")
    register_kernel("t_lo::double", "cpu", lambda x: x * 2)
    register_fake("t_lo::double", lambda x: opyard.empty_like(x))
    assert opyard.ops.t_lo.double(opyard.ones(2)).tolist() == [2.0, 2.0]
    m = opyard.ops.t_lo.double(opyard.ones(2, device="meta"))
    assert m.device.type == "meta" and m.shape == (2,)


def test_fake_tensor_mode_basics():
    with opyard.fake.FakeTensorMode() as mode:
        x = opyard.randn(4, 5)
        y = (x @ x.t()).sum(0)
    assert isinstance(x, opyard.fake.FakeTensor) and y.shape == (4,)
    with pytest.raises(RuntimeError, match="FakeTensor has no data"):
        y.numpy()
    real = opyard.ones(2, 3)
    f = mode.from_tensor(real)
    assert f.shape == (2, 3) and f.device == real.device


def test_fake_without_impl_is_a_clear_error():
    @custom_op("t_co::nofake", mutates_args=())
    def nofake(x: Tensor) -> Tensor:
        return x.clone()

    with opyard.fake.FakeTensorMode():
        with pytest.raises(NotImplementedError, match="no fake impl registered for t_co::nofake.*register_fake"):
            nofake(opyard.randn(2))


def test_symint_constraints():
    env = opyard.fake.ShapeEnv(allow_dynamic_output_shape_ops=True)
    u = env.create_unbacked_symint(min=2, max=10)
    assert str(u) == "u0" and str(u + 1) == "u0 + 1"
    assert u >= 2 and u > 1 and not (u > 10)
    with pytest.raises(opyard.fake.GuardOnDataDependentSymNode):
        bool(u > 5)
    ctx = opyard._library.fake_impl.FakeImplCtx(env, "x")
    with pytest.raises(ValueError, match="greater than or equal to 0"):
        ctx.new_dynamic_size(min=-1)


def test_make_fx_real_and_rerun():
    def f(x, y):
        return (x * y).sin() + 1

    x, y = opyard.randn(3), opyard.randn(3)
    gm = opyard.fx.make_fx(f)(x, y)
    targets = [n.target.name() for n in gm.graph.nodes if n.op == "call_function"]
    assert targets == ["aten::mul.Tensor", "aten::sin", "aten::add.Scalar"]
    assert opyard.allclose(gm(x, y), f(x, y))
    assert "opyard.ops.aten.sin.default(mul)" in gm.code
    with pytest.raises(ValueError, match="tracing_mode"):
        opyard.fx.make_fx(f, tracing_mode="weird")


def test_opcheck_success_and_failures():
    @custom_op("t_co::good", mutates_args=())
    def good(x: Tensor) -> Tensor:
        return x.clone() * 2

    good.register_fake(lambda x: opyard.empty_like(x))
    good.register_autograd(lambda ctx, g: g * 2)
    assert opcheck(good, (opyard.randn(3),)) == {t: "SUCCESS" for t in
                                                  ("test_schema", "test_autograd_registration",
                                                   "test_faketensor", "test_aot_dispatch_dynamic")}

    @custom_op("t_co::sneaky", mutates_args=())
    def sneaky(x: Tensor) -> Tensor:
        x.numpy()[...] = 0
        return x.clone()

    sneaky.register_fake(lambda x: opyard.empty_like(x))
    with pytest.raises(OpCheckError, match="test_schema.*mutated an input"):
        opcheck(sneaky, (opyard.randn(3),), test_utils="test_schema")

    @custom_op("t_co::nograd", mutates_args=())
    def nograd(x: Tensor) -> Tensor:
        return x.detach().clone()

    result = opcheck(nograd, (opyard.randn(3),), test_utils=("test_autograd_registration", "test_faketensor"),
                     raise_exception=False)
    assert isinstance(result["test_autograd_registration"], OpCheckError)
    assert isinstance(result["test_faketensor"], OpCheckError)

    @custom_op("t_co::badfake", mutates_args=())
    def badfake(x: Tensor) -> Tensor:
        return x.clone()

    badfake.register_fake(lambda x: opyard.empty(5))
    with pytest.raises(OpCheckError, match="test_faketensor.*disagrees"):
        opcheck(badfake, (opyard.randn(3),), test_utils="test_faketensor")


def test_vmap_loop_and_rule():
    x = opyard.randn(4, 3)
    out = opyard.func.vmap(lambda r: r.sum())(x)
    assert np.allclose(out.numpy(), x.numpy().sum(1))

    @custom_op("t_co::vsum", mutates_args=())
    def vsum(x: Tensor) -> Tensor:
        return x.sum()

    calls = []

    @vsum.register_vmap
    def _(info, in_dims, x):
        calls.append(info.batch_size)
        return x.sum(in_dims[0] + 1 if in_dims[0] == 0 else 0), 0

    assert np.allclose(opyard.func.vmap(vsum)(x).numpy(), x.numpy().sum(1)) and calls == [4]
