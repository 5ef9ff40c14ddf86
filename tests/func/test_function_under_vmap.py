"""An ``autograd.Function`` under ``vmap``: with ``generate_vmap_rule = True`` its forward runs on the
batched tensors (torch's answers are replayed in tests/autograd/test_torch_behaviours.py); a gradient
through it inside or around ``vmap`` is refused with a message naming the Function and the fix, where
torch vmaps its forward, setup_context and backward (a difference listed in README.md)."""

import pytest

import opyard


class Square(opyard.autograd.Function):
    generate_vmap_rule = True

    @staticmethod
    def forward(x, scale=1.0):
        return x * x * scale

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.scale = inputs[1] if len(inputs) > 1 else 1.0

    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2 * x * ctx.scale, None


class SquareWithRule(Square):
    generate_vmap_rule = False

    @staticmethod
    def vmap(info, in_dims, x, scale=1.0):
        return SquareWithRule.apply(x, scale), in_dims[0]


X = [[1.0, 2.0], [3.0, 4.0]]


def test_forward_runs_on_batched_tensors_with_defaults():
    x = opyard.tensor(X)
    assert opyard.vmap(Square.apply)(x).tolist() == [[1.0, 4.0], [9.0, 16.0]]
    assert opyard.vmap(Square.apply, in_dims=(0, None))(x, 2.0).tolist() == [[2.0, 8.0], [18.0, 32.0]]


MESSAGE = r"^vmap over Square\.apply with inputs that require grad .*override the vmap staticmethod"


@pytest.mark.parametrize("call", [
    lambda x: opyard.vmap(opyard.func.grad(lambda t: Square.apply(t).sum()))(x),
    lambda x: opyard.func.grad(lambda t: opyard.vmap(Square.apply)(t).sum())(x),
    lambda x: opyard.vmap(Square.apply)(x.requires_grad_()),
    lambda x: opyard.func.jacrev(opyard.vmap(Square.apply))(x),
], ids=["vmap_of_grad", "grad_of_vmap", "leaf_requiring_grad", "jacrev_of_vmap"])
def test_gradients_through_a_generated_rule_are_refused_not_zero(call):
    with pytest.raises(NotImplementedError, match=MESSAGE):
        call(opyard.tensor(X))


def test_no_grad_or_a_vmap_staticmethod_still_runs():
    x = opyard.tensor(X, requires_grad=True)
    with opyard.no_grad():
        assert opyard.vmap(Square.apply)(x).tolist() == [[1.0, 4.0], [9.0, 16.0]]
    grads = opyard.vmap(opyard.func.grad(lambda t: SquareWithRule.apply(t, 3.0).sum()))(opyard.tensor(X))
    assert grads.tolist() == [[6.0, 12.0], [18.0, 24.0]]
