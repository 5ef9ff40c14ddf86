"""The ``register_autograd`` kernel's forward and backward wrappers as Rust code (op mode of
``_FunctionSpec``): results of the user's backward, defaults filled for ``setup_context``, the
aliasing check run once, and the Python wrappers kept for forward AD and direct node calls."""

import warnings
from typing import Optional

import pytest

import opyard
from opyard import _core
from opyard import Tensor
from opyard.library import custom_op


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


# --- register_autograd: forward and backward wrappers in Rust ---------------------------------


def _op(name, backward, setup_context=None):
    @custom_op(f"rustctx::{name}", mutates_args=())
    def op(x: Tensor) -> Tensor:
        return x * 2

    op.register_autograd(backward, setup_context=setup_context)
    return op


@pytest.mark.parametrize("result, match", [
    (lambda g: (g, g), r"The backward formula for rustctx.cnt2.default returned an incorrect number of "
                       r"gradients \(expected 1, got 2\). Expected one gradient for each forward input"),
    (lambda g: 3, r"function cnt2Backward returned an invalid gradient at position 1: expected "
                  r"Variable or None \(got int\)"),
    (lambda g: [g], r"Expected the return from backward to be of the same structure as the inputs. "
                    r"Got: \(\[\*\]\) \(return from backward\), \(\*\) \(inputs\)"),
    (lambda g: ((g,),), r"Expected the return from backward to be of the same structure"),
])
def test_register_autograd_backward_results(result, match):
    op = _op("cnt2", lambda ctx, g: result(g))
    with pytest.raises(RuntimeError, match=match):
        op(t([1.0], requires_grad=True)).sum().backward()


def test_register_autograd_lone_gradient_and_none():
    op = _op("lone", lambda ctx, g: g * 2)
    x = t([1.0, 2.0], requires_grad=True)
    op(x).sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    op_none = _op("lonenone", lambda ctx, g: None)
    x2 = t([1.0], requires_grad=True)
    op_none(x2).sum().backward()
    assert x2.grad is None


def test_register_autograd_two_inputs_counts():
    @custom_op("rustctx::two", mutates_args=())
    def two(x: Tensor, y: Tensor) -> Tensor:
        return x * y

    two.register_autograd(lambda ctx, g: g)
    x, y = t([1.0], requires_grad=True), t([2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"returned an incorrect number of gradients \(expected 2, got 1\)"):
        two(x, y).sum().backward()


def test_register_autograd_defaults_filled_for_setup_context():
    seen = {}

    @custom_op("rustctx::scaled", mutates_args=())
    def scaled(x: Tensor, s: float = 2.0, b: Optional[Tensor] = None) -> Tensor:
        return x * s

    def setup_context(ctx, inputs, output):
        seen["inputs"] = inputs
        seen["needs"] = ctx.needs_input_grad
        ctx.s = inputs[1]

    def backward(ctx, g):
        seen["bw_needs"] = ctx.needs_input_grad
        return g * ctx.s, None, None  # one per schema input

    scaled.register_autograd(backward, setup_context=setup_context)
    x = t([1.0], requires_grad=True)
    scaled(x).sum().backward()
    assert seen["inputs"][0] is x and seen["inputs"][1:] == (2.0, None)
    assert seen["needs"] == (True,) and seen["bw_needs"] == (True,)
    assert x.grad.tolist() == [2.0]
    scaled(x, 3.0).sum().backward()
    assert seen["inputs"][1:] == (3.0, None) and seen["needs"] == (True, False)
    assert x.grad.tolist() == [5.0]


def test_register_autograd_gradient_for_an_input_not_passed():
    @custom_op("rustctx::notpassed", mutates_args=())
    def notpassed(x: Tensor, b: Optional[Tensor] = None) -> Tensor:
        return x * 2

    notpassed.register_autograd(lambda ctx, g: (g, g))
    with pytest.raises(RuntimeError, match="returned a non-None gradient for an input that was not passed"):
        notpassed(t([1.0], requires_grad=True)).sum().backward()


def test_register_autograd_aliasing_error_through_the_autograd_kernel():
    @custom_op("rustctx::aliased", mutates_args=())
    def aliased(x: Tensor) -> Tensor:
        return x

    aliased.register_autograd(lambda ctx, g: g)
    with pytest.raises(RuntimeError, match="The output of this custom operator \\(1\\) must not also be "
                                           "an input to this custom operator"):
        aliased(t([1.0], requires_grad=True))
    with pytest.raises(RuntimeError, match="must not also be an input"):
        opyard.ops.rustctx.aliased(t([1.0], requires_grad=True))


def test_register_autograd_aliasing_checked_once():
    from opyard._library import aliasing

    @custom_op("rustctx::checkedonce", mutates_args=())
    def checkedonce(x: Tensor) -> Tensor:
        return x.clone()

    checkedonce.register_autograd(lambda ctx, g: g)
    calls = []
    real = aliasing._outputs_alias
    with warnings.catch_warnings():
        aliasing._outputs_alias = lambda *a: calls.append(a) or real(*a)
        try:
            y = checkedonce(t([1.0], requires_grad=True))
        finally:
            aliasing._outputs_alias = real
    # The Rust walk ran (no Python check needed: no aliasing), and the call site did not repeat it;
    # with OPYARD_FASTPATH=0 the Python forward checks, once.
    assert len(calls) == (0 if _core.FAST_PATHS else 1) and type(y.grad_fn).__name__ == "checkedonceBackward"


def test_register_autograd_forward_ad_takes_the_python_wrappers():
    import opyard.autograd.forward_ad as fwAD

    op = _op("fwad", lambda ctx, g: g * 2)
    x = t([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        y = op(x)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


def test_register_autograd_node_called_directly():
    op = _op("direct", lambda ctx, g: g * 5)
    y = op(t([1.0], requires_grad=True))
    (g,) = y.grad_fn(t([1.0]))
    assert g.tolist() == [5.0]
