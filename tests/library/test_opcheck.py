"""opcheck as torch's: the tests, their order, what each accepts, and torch's failure messages."""

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.library import Library, OpCheckError, custom_op, opcheck

DEFAULT = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")
ALL = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_static",
       "test_aot_dispatch_dynamic")


def _good():
    @custom_op("t_oc::good_sin", mutates_args=())
    def good_sin(x: Tensor) -> Tensor:
        return opyard.from_numpy(np.sin(x.numpy()))

    @good_sin.register_fake
    def _(x):
        return opyard.empty_like(x)

    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos()
    good_sin.register_autograd(backward, setup_context=setup_context)
    return good_sin


@pytest.fixture
def lib():
    lib = Library("t_oclib", "FRAGMENT")
    yield lib
    lib._destroy()


def _define(lib, schema, kernel, key="CPU"):
    name = lib.define(schema)
    lib.impl(name, kernel, key)
    return getattr(opyard.ops.t_oclib, name).default


def test_a_correct_op_passes_everything_in_order():
    op = _good()
    x = opyard.randn(3, requires_grad=True)
    result = opcheck(op, (x,))
    assert list(result) == list(DEFAULT) and set(result.values()) == {"SUCCESS"}
    assert list(opcheck(op, (x,), test_utils="ALL")) == list(ALL)
    assert opcheck("t_oc::good_sin", (opyard.randn(2, 2),), test_utils="test_faketensor") == {
        "test_faketensor": "SUCCESS"}
    assert x.grad is None  # the tests work on copies


# --- forward-only ops -----------------------------------------------------------------------------

@custom_op("t_oc::fwd_only", mutates_args=())
def fwd_only(x: Tensor, k: int = 2) -> Tensor:
    return opyard.from_numpy(np.repeat(x.numpy(), k))


@fwd_only.register_fake
def _(x, k=2):
    return x.new_empty(x.shape[0] * k)


def test_a_forward_only_op_with_inputs_that_do_not_require_grad_passes():
    assert opcheck(fwd_only, (opyard.randn(3),)) == {t: "SUCCESS" for t in DEFAULT}
    assert opcheck(fwd_only, (opyard.randn(3), 3), test_utils="ALL") == {t: "SUCCESS" for t in ALL}


def test_a_forward_only_op_fails_only_at_backward_when_inputs_require_grad():
    res = opcheck(fwd_only, (opyard.randn(3, requires_grad=True),), raise_exception=False)
    assert res["test_autograd_registration"] == "SUCCESS"  # custom ops have an autograd kernel
    assert str(res["test_aot_dispatch_dynamic"]) == (
        "Trying to backward through t_oc.fwd_only.default but no autograd formula was registered. Please use "
        "register_autograd to add one.")


# --- test_schema ----------------------------------------------------------------------------------

def test_undeclared_mutation():
    @custom_op("t_oc::sneaky", mutates_args=())
    def sneaky(x: Tensor) -> Tensor:
        x.numpy()[0] = 5.0
        return x.clone()
    x = opyard.zeros(3)
    with pytest.raises(OpCheckError, match=r"^opcheck\(op, \.\.\.\): test_schema failed with Argument x is not "
                                           r"defined as mutable but was mutated \(scroll up for stack trace\)$"):
        opcheck(sneaky, (x,), test_utils=("test_schema",))
    assert x.tolist() == [0.0] * 3  # on a copy


def test_declared_mutation_passes():
    @custom_op("t_oc::honest_", mutates_args=("x",))
    def honest_(x: Tensor) -> None:
        x.numpy()[...] += 1
    assert opcheck(honest_, (opyard.randn(3),), test_utils=("test_schema",)) == {"test_schema": "SUCCESS"}


@pytest.mark.parametrize("schema, kernel, message", [
    ("alias(Tensor x) -> Tensor", lambda x: opyard.from_numpy(x.numpy()[1:]),
     "Argument x is not defined to alias output but was aliasing"),
    ("same(Tensor self) -> Tensor", lambda x: x, "Argument input is not defined to alias output but was aliasing"),
    ("pair(Tensor x) -> (Tensor, Tensor)", lambda x: (lambda y: (y, y[:1]))(x.clone()),
     "Outputs 0 and 1 alias unexpectedly"),
    ("ret(Tensor(a) x) -> Tensor(a)", lambda x: x,
     "Dispatcher operators below autograd are not allowed to directly return inputs.\nHowever, we found that "
     "`outputs[0] is x"),
    ("lst(Tensor[] xs) -> ()", lambda xs: xs[1].numpy().fill(2.0),
     "Argument xs is not defined as mutable but was mutated"),
])
def test_schema_violations(lib, schema, kernel, message):
    op = _define(lib, schema, kernel)
    args = ([opyard.randn(3), opyard.randn(3)],) if "[]" in schema else (opyard.randn(3),)
    res = opcheck(op, args, test_utils=("test_schema",), raise_exception=False)
    assert str(res["test_schema"]) == message


@pytest.mark.parametrize("schema, kernel", [
    ("view(Tensor(a) x) -> Tensor(a)", lambda x: x[1:]),
    ("inc_(Tensor(a!) x) -> Tensor(a!)", lambda x: x.add_(1)),
    ("views(Tensor(a) x) -> (Tensor(a), Tensor(a))", lambda x: (x[:1], x[1:])),
])
def test_declared_aliasing_passes(lib, schema, kernel):
    assert opcheck(_define(lib, schema, kernel), (opyard.randn(3),), test_utils="test_schema") == {
        "test_schema": "SUCCESS"}


# --- test_autograd_registration -------------------------------------------------------------------

class _Twice(opyard.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g * 2


@pytest.mark.parametrize("kernel", [lambda x: _Twice.apply(x), lambda x: x * 2])
def test_autograd_done_by_a_backend_kernel_is_caught(lib, kernel):
    op = _define(lib, "bk(Tensor x) -> Tensor", kernel)
    with pytest.raises(OpCheckError, match=r"test_autograd_registration failed with t_oclib::bk: at least one "
                                           r"output of this operator has requires_grad=True but the operator does "
                                           r"not have an autograd kernel defined at an autograd key"):
        opcheck(op, (opyard.randn(3, requires_grad=True),), test_utils="test_autograd_registration")
    # Without an input that requires grad there is nothing to check.
    assert opcheck(op, (opyard.randn(3),), test_utils="test_autograd_registration") == {
        "test_autograd_registration": "SUCCESS"}


@pytest.mark.parametrize("key", ["Autograd", "AutogradCPU", "CompositeImplicitAutograd"])
def test_autograd_kernels_satisfy_the_check(lib, key):
    op = _define(lib, "ak(Tensor x) -> Tensor", lambda x: _Twice.apply(x), key)
    if key != "CompositeImplicitAutograd":
        lib.impl("ak", lambda x: x * 2, "CPU")
    assert opcheck(op, (opyard.randn(3, requires_grad=True),), test_utils="test_autograd_registration") == {
        "test_autograd_registration": "SUCCESS"}


def test_a_data_only_kernel_without_autograd_kernel_passes(lib):
    op = _define(lib, "np_only(Tensor x) -> Tensor", lambda x: opyard.from_numpy(x.detach().numpy() * 2))
    assert opcheck(op, (opyard.randn(3, requires_grad=True),), test_utils="test_autograd_registration") == {
        "test_autograd_registration": "SUCCESS"}


def test_autograd_registration_check_directly_needs_grad():
    from opyard._opcheck.checks import autograd_registration_check

    with pytest.raises(RuntimeError, match="autograd_registration_check: no inputs have requires_grad=True"):
        autograd_registration_check(fwd_only._opoverload, (opyard.randn(3),), {})


# --- test_faketensor ------------------------------------------------------------------------------

@pytest.mark.parametrize("kernel, fake, message", [
    (lambda x: x.sum(0), lambda x: x.new_empty(x.shape),
     "found mismatched tensor metadata: Shapes opyard.Size([3]) and opyard.Size([2, 3]) are not equal!"),
    (lambda x: x.clone(), lambda x: x.new_empty(x.shape[1], x.shape[0]).t(),
     "found mismatched tensor metadata: Stride mismatch! Strides are (3, 1) and (1, 2) (mismatched at 0)!"),
    (lambda x: x.double(), lambda x: x.new_empty(x.shape),
     "found mismatched tensor metadata: Dtypes opyard.float64 and opyard.float32 are not equal!"),
])
def test_fake_impl_disagreeing_with_the_kernel(lib, kernel, fake, message):
    op = _define(lib, "f(Tensor x) -> Tensor", kernel)
    opyard.library.register_fake("t_oclib::f", fake, lib=lib)
    res = opcheck(op, (opyard.randn(2, 3),), test_utils=("test_faketensor",), raise_exception=False)
    assert str(res["test_faketensor"]) == (
        f"When comparing the output of t_oclib.f.default on FakeTensor and concrete Tensors, {message}")


def test_fake_impl_disagreeing_on_one_of_several_outputs(lib):
    op = _define(lib, "two(Tensor x) -> (Tensor, Tensor)", lambda x: (x.clone(), x.sum(0)))
    opyard.library.register_fake("t_oclib::two", lambda x: (x.new_empty(x.shape), x.new_empty(x.shape)), lib=lib)
    res = opcheck(op, (opyard.randn(2, 3),), test_utils="test_faketensor", raise_exception=False)
    assert "found mismatched tensor metadata for output[1]: Shapes" in str(res["test_faketensor"])


def test_missing_fake_impl():
    @custom_op("t_oc::nofake", mutates_args=())
    def nofake(x: Tensor) -> Tensor:
        return x.clone()
    # torch's words (code matching them keeps working), then what they mean in opyard
    with pytest.raises(OpCheckError, match=r"There was no fake impl registered for <CustomOpDef\(t_oc::nofake\)>. "
                                           r"This is necessary for torch.compile/export/fx tracing to work. Please "
                                           r"use `nofake.register_fake` to add an fake impl. \(In opyard: meta tensors, fake tensors "
                                           r"and opyard.fx.make_fx need it.\)"):
        opcheck(nofake, (opyard.randn(3),), test_utils="test_faketensor")


def test_meta_inputs_skip_every_test():
    assert opcheck(fwd_only, (opyard.randn(3, device="meta"),), test_utils="ALL") == {t: "SUCCESS" for t in ALL}


# --- test_aot_dispatch ----------------------------------------------------------------------------

def test_aot_dispatch_compares_gradients():
    @custom_op("t_oc::badgrad", mutates_args=())
    def badgrad(x: Tensor) -> Tensor:
        return x * 3

    @badgrad.register_fake
    def _(x):
        return opyard.empty_like(x)
    badgrad.register_autograd(lambda ctx, g: g * 3)
    x = opyard.randn(3, requires_grad=True)
    assert opcheck(badgrad, (x,), test_utils=("test_aot_dispatch_static", "test_aot_dispatch_dynamic")) == {
        "test_aot_dispatch_static": "SUCCESS", "test_aot_dispatch_dynamic": "SUCCESS"}


def test_aot_dispatch_catches_a_kernel_that_is_not_traceable():
    calls = []

    @custom_op("t_oc::stateful", mutates_args=())
    def stateful(x: Tensor) -> Tensor:
        calls.append(1)
        return x * len(calls)

    @stateful.register_fake
    def _(x):
        return opyard.empty_like(x)
    res = opcheck(stateful, (opyard.ones(3),), test_utils="test_aot_dispatch_dynamic", raise_exception=False)
    assert str(res["test_aot_dispatch_dynamic"]).startswith(
        "Outputs of the operator are different in eager mode vs traced by opyard.fx.make_fx. This means the "
        "operator will have incorrect output in a traced graph.")


# --- arguments ------------------------------------------------------------------------------------

@pytest.mark.parametrize("kwargs, error, message", [
    (dict(test_utils=("test_everything",)), ValueError,
     r"opcheck\(op, \.\.\., test_utils=\('test_everything',\)\), expected test_utils to be subset of "
     r"\('test_schema', 'test_autograd_registration', 'test_faketensor', 'test_aot_dispatch_static', "
     r"'test_aot_dispatch_dynamic'\) but it was not"),
    (dict(test_utils=7), ValueError, r"test_utils=7\), expected test_utils to be subset of"),
    (dict(rtol=1e-3), ValueError, r"opcheck\(op, \.\.\.\): if you specify one of rtol/atol, you must specify both"),
    (dict(atol=1e-3), ValueError, r"if you specify one of rtol/atol, you must specify both"),
])
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        opcheck(_good(), (opyard.randn(3),), **kwargs)


def test_op_must_be_an_operator(lib):
    with pytest.raises(ValueError, match=r"opcheck\(op, \.\.\.\): op must be instance of opyard.ops.OpOverload, "
                                         r"e.g. opyard.ops.aten.sin.default, got <class 'function'>"):
        opcheck(lambda x: x, (opyard.randn(3),))
    lib.define("ov(Tensor x) -> Tensor")
    lib.define("ov.two(Tensor x, Tensor y) -> Tensor")
    with pytest.raises(RuntimeError, match=r"opcheck can only test operators without overloads. Got the following "
                                           r"overloads for t_oclib::ov: \['', 'two'\]"):
        opcheck(opyard.ops.t_oclib.ov, (opyard.randn(3),))
    lib.define("single(Tensor x) -> Tensor")
    lib.impl("single", lambda x: opyard.from_numpy(x.numpy() + 1), "CPU")
    assert opcheck(opyard.ops.t_oclib.single, (opyard.randn(3),), test_utils="test_schema") == {
        "test_schema": "SUCCESS"}


def test_rtol_and_atol_loosen_the_comparison():
    @custom_op("t_oc::noisy", mutates_args=())
    def noisy(x: Tensor) -> Tensor:
        noisy.calls += 1
        return x + 1e-4 * noisy.calls

    @noisy.register_fake
    def _(x):
        return opyard.empty_like(x)
    noisy.calls = 0
    with pytest.raises(OpCheckError, match="Outputs of the operator are different"):
        opcheck(noisy, (opyard.ones(3),), test_utils="test_aot_dispatch_dynamic")
    assert opcheck(noisy, (opyard.ones(3),), test_utils="test_aot_dispatch_dynamic", rtol=1e-2, atol=1e-2) == {
        "test_aot_dispatch_dynamic": "SUCCESS"}
