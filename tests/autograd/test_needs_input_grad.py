"""``ctx.needs_input_grad`` is each input's ``requires_grad``, with grad mode on or off, in every
kind of ``Function`` (forward, setup_context, once_differentiable, keyword arguments) and in
``register_autograd``'s setup_context and backward, as torch 2.15 reports it."""


import pytest

import opyard
from opyard.autograd import Function
from opyard.autograd.function import once_differentiable


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- ctx.needs_input_grad reports requires_grad, in grad mode or not -------------------------

def _flags_seen(kind, grad_on):
    seen = []

    class Plain(Function):
        @staticmethod
        def forward(ctx, x, k):
            seen.append(ctx.needs_input_grad)
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    class Setup(Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.append(ctx.needs_input_grad)

        @staticmethod
        def backward(ctx, g):
            return g, None

    class Once(Plain):
        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            return g, None

    x = t([1.0], requires_grad=True)
    with opyard.set_grad_enabled(grad_on):
        if kind == "keywords":
            Plain.apply(x, k=2.0)
        else:
            {"forward": Plain, "setup_context": Setup, "once_differentiable": Once}[kind].apply(x, 2.0)
    return seen


@pytest.mark.parametrize("grad_on", [True, False], ids=["grad", "no_grad"])
@pytest.mark.parametrize("kind", ["forward", "setup_context", "once_differentiable", "keywords"])
def test_needs_input_grad_is_requires_grad_with_or_without_grad_mode(kind, grad_on):
    assert _flags_seen(kind, grad_on) == [(True, False)]


def test_needs_input_grad_without_grad_records_no_graph():
    class Keep(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, None

    with opyard.no_grad():
        y = Keep.apply(t([1.0], requires_grad=True), 2.0)
    assert y.grad_fn is None and not y.requires_grad


def test_register_autograd_setup_context_and_backward_see_the_flags():
    seen = []

    @opyard.library.custom_op("parity_leftovers::scale", mutates_args=())
    def scale(x: opyard.Tensor, y: opyard.Tensor, k: float) -> opyard.Tensor:
        return x * y * k

    def setup(ctx, inputs, output):
        seen.append(("setup", ctx.needs_input_grad))
        ctx.k = inputs[2]

    def backward(ctx, g):
        seen.append(("backward", ctx.needs_input_grad))
        return g * ctx.k, None, None

    scale.register_autograd(backward, setup_context=setup)
    x, y = t([1.0, 2.0], requires_grad=True), t([1.0, 2.0])
    with opyard.no_grad():  # torch runs no autograd kernel here: setup_context is not called
        scale(x, y, 2.0)
    assert seen == []
    scale(x, y, 2.0).sum().backward()
    # torch's node has a trailing metadata input while setup_context runs; backward sees the arguments
    assert seen == [("setup", (True, False, False, False)), ("backward", (True, False, False))]
