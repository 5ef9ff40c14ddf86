"""opcheck: each test catches its mistake; results and OpCheckError."""

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.library import OpCheckError, custom_op, opcheck

ALL = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")


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


def test_a_correct_op_passes_everything():
    op = _good()
    assert opcheck(op, (opyard.randn(3),)) == {t: "SUCCESS" for t in ALL}
    assert opcheck("t_oc::good_sin", (opyard.randn(2, 2),), test_utils="test_faketensor") == {
        "test_faketensor": "SUCCESS"}


def test_undeclared_mutation():
    @custom_op("t_oc::sneaky", mutates_args=())
    def sneaky(x: Tensor) -> Tensor:
        x.numpy()[0] = 5.0
        return x.clone()
    with pytest.raises(OpCheckError, match=r"test_schema failed with .*t_oc::sneaky mutated an input \(argument x\)"):
        opcheck(sneaky, (opyard.randn(3),), test_utils=("test_schema",))


def test_declared_mutation_passes():
    @custom_op("t_oc::honest_", mutates_args=("x",))
    def honest_(x: Tensor) -> None:
        x.numpy()[...] += 1
    assert opcheck(honest_, (opyard.randn(3),), test_utils=("test_schema",)) == {"test_schema": "SUCCESS"}


def test_undeclared_aliasing_through_the_ops_namespace():
    @custom_op("t_oc::alias", mutates_args=())
    def alias(x: Tensor) -> Tensor:
        return opyard.from_numpy(x.numpy()[1:])  # shares memory without a view record
    results = opcheck(opyard.ops.t_oc.alias.default, (opyard.randn(3),), test_utils=("test_schema",),
                      raise_exception=False)
    assert isinstance(results["test_schema"], OpCheckError)
    assert "aliases an input" in str(results["test_schema"])


def test_outputs_aliasing_each_other():
    lib = opyard.library.Library("t_oclib", "FRAGMENT")
    lib.define("pair(Tensor x) -> (Tensor, Tensor)")
    lib.impl("pair", lambda x: (lambda y: (y, y[:1]))(x.clone()), "CPU")
    try:
        with pytest.raises(OpCheckError, match="returned outputs that alias each other"):
            opcheck("t_oclib::pair", (opyard.randn(3),), test_utils=("test_schema",))
    finally:
        lib._destroy()


def test_missing_autograd_formula():
    @custom_op("t_oc::nograd", mutates_args=())
    def nograd(x: Tensor) -> Tensor:
        return x * 2
    with pytest.raises(OpCheckError, match="test_autograd_registration failed with .*t_oc::nograd has no autograd formula"):
        opcheck(nograd, (opyard.randn(3),), test_utils=("test_autograd_registration",))


def test_fake_impl_disagreeing_with_the_kernel():
    @custom_op("t_oc::wrongfake", mutates_args=())
    def wrongfake(x: Tensor) -> Tensor:
        return x.sum(0)

    @wrongfake.register_fake
    def _(x):
        return x.new_empty(x.shape)
    res = opcheck(wrongfake, (opyard.randn(2, 3),), test_utils=("test_faketensor",), raise_exception=False)
    assert "disagrees with its kernel on output 0: shape (2, 3) (fake) vs (3,) (real)" in str(res["test_faketensor"])

    @custom_op("t_oc::wrongstride", mutates_args=())
    def wrongstride(x: Tensor) -> Tensor:
        return x.clone()

    @wrongstride.register_fake
    def _(x):
        return x.new_empty(x.shape[1], x.shape[0]).t()
    with pytest.raises(OpCheckError, match="stride"):
        opcheck(wrongstride, (opyard.randn(2, 3),), test_utils=("test_faketensor",))


def test_aot_dispatch_dynamic_compares_outputs_and_grads():
    @custom_op("t_oc::badgrad", mutates_args=())
    def badgrad(x: Tensor) -> Tensor:
        return x * 3

    @badgrad.register_fake
    def _(x):
        return opyard.empty_like(x)
    badgrad.register_autograd(lambda ctx, g: g * 3)
    assert opcheck(badgrad, (opyard.randn(3),), test_utils=("test_aot_dispatch_dynamic",)) == {
        "test_aot_dispatch_dynamic": "SUCCESS"}


def test_unknown_test_name():
    with pytest.raises(ValueError, match="unknown test 'test_everything'"):
        opcheck(_good(), (opyard.randn(3),), test_utils=("test_everything",))
