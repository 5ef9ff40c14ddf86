"""``register_autograd``'s ``ctx.needs_input_grad`` in ``setup_context`` and ``backward`` against torch
2.15's recorded answers (``tests/data/torch_protocol_answers.json``), ``setup_context`` called by
keyword for kwarg-only arguments, and ``get_ctx()`` outside a fake impl."""

import json
import os

import pytest

import opyard
from opyard.library import Library

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
DATA = json.load(open(os.path.join(DATA_DIR, "torch_protocol_answers.json")))
NEEDS = DATA["needs_input_grad"]


def test_get_ctx_outside_a_fake_impl_is_none():
    assert opyard.library.get_ctx() is None


@pytest.mark.parametrize("case", sorted(NEEDS))
def test_needs_input_grad_in_setup_context_and_backward_match_torch(case, ns):
    schema, call = NEEDS[case]["schema"], NEEDS[case]["call"]
    lib = Library(ns, "DEF")
    name = schema.split("(")[0]
    lib.define(schema)
    lib.impl(name, lambda *args, **kwargs: args[0].clone(), "CompositeExplicitAutograd")
    op = getattr(getattr(opyard.ops, ns), name).default
    seen = {}

    def setup_context(ctx, inputs, output, keyword_only_inputs=None):
        seen["setup"] = list(ctx.needs_input_grad)

    def backward(ctx, grad):
        needs = ctx.needs_input_grad
        seen["backward"] = [list(n) if isinstance(n, list) else n for n in needs]
        return tuple([grad if needs[0] is True else None]
                     + [[None] * len(n) if isinstance(n, list) else None for n in needs[1:]])

    opyard.library.register_autograd(op, backward, setup_context=setup_context, lib=lib)
    x, y = opyard.randn(2, requires_grad=True), opyard.randn(2)
    eval(call, {"op": op, "x": x, "y": y}).sum().backward()
    assert seen == {"setup": NEEDS[case]["setup"], "backward": NEEDS[case]["backward"]}
    lib._destroy()


def test_kwarg_only_setup_context_is_called_by_keyword(ns):
    seen = {}
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x, *, float scale=2.0) -> Tensor")
    lib.impl("f", lambda x, *, scale=2.0: x * scale, "CompositeExplicitAutograd")
    op = getattr(opyard.ops, ns).f.default

    def setup_context(ctx, inputs, output, keyword_only_inputs):  # torch's order of the names
        seen["kw"], seen["out"] = keyword_only_inputs, output
        ctx.scale = keyword_only_inputs["scale"]

    opyard.library.register_autograd(op, lambda ctx, g: g * ctx.scale, setup_context=setup_context, lib=lib)
    x = opyard.ones(2, requires_grad=True)
    op(x, scale=3.0).sum().backward()
    assert seen["kw"] == {"scale": 3.0} and isinstance(seen["out"], opyard.Tensor)
    assert x.grad.tolist() == [3.0, 3.0]
    lib._destroy()


def test_needs_input_grad_under_func_grad_is_the_same_as_under_backward(ns):
    # torch 2.15 refuses register_autograd ops under its function transforms; opyard runs them
    # (the general apply path), and the rule must read the same there.
    @opyard.library.custom_op(f"{ns}::scaled", mutates_args=())
    def scaled(x: opyard.Tensor, scale: float) -> opyard.Tensor:
        return x * scale

    seen = []

    def setup_context(ctx, inputs, output):
        seen.append(("setup", tuple(ctx.needs_input_grad)))
        ctx.scale = inputs[1]

    def backward(ctx, grad):
        seen.append(("backward", tuple(ctx.needs_input_grad)))
        return grad * ctx.scale, None

    scaled.register_autograd(backward, setup_context=setup_context)
    x = opyard.ones(2, requires_grad=True)
    scaled(x, 3.0).sum().backward()
    by_backward = list(seen)
    seen.clear()
    assert opyard.func.grad(lambda t: scaled(t, 3.0).sum())(opyard.ones(2)).tolist() == [3.0, 3.0]
    assert seen == by_backward == [("setup", (True, False, False)), ("backward", (True, False))]
