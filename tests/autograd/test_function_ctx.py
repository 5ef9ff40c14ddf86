"""The ``Function`` ctx as Rust code: every ctx method on a recorded node, with torch's messages
(outputs: ``test_function_apply_outputs.py``; the ``register_autograd`` wrappers:
``library/test_register_autograd_wrappers.py``)."""

import pytest

import opyard
from opyard import _core
from opyard.autograd import Function
from opyard.autograd.function import FunctionCtx


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


# --- ctx methods are the node's own (Rust) -----------------------------------------------


def test_ctx_methods_are_rust_methods_of_the_node():
    seen = {}

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            seen["ctx"] = ctx
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    F.apply(t([1.0], requires_grad=True))
    cls = type(seen["ctx"])
    # With OPYARD_FASTPATH=0 the node's class takes FunctionCtx's Python methods (the general path).
    home = _core.NodeBase if _core.FAST_PATHS else FunctionCtx
    for name in ("save_for_backward", "save_for_forward", "mark_dirty", "mark_non_differentiable",
                 "set_materialize_grads", "saved_tensors"):
        assert getattr(cls, name) is getattr(home, name), name
    assert cls.needs_input_grad is _core.NodeBase.needs_input_grad  # a Rust field either way


@pytest.mark.parametrize("bad, pos, tname", [(3, 1, "int"), ("s", 0, "str"), ([1.0], 1, "list")])
def test_save_for_backward_of_a_non_tensor(bad, pos, tname):
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            args = (bad, x) if pos == 0 else (x, bad)
            ctx.save_for_backward(*args)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(TypeError, match=f"save_for_backward can only save variables, but argument "
                                        f"{pos} is of type {tname}"):
        F.apply(t([1.0], requires_grad=True))


def test_save_for_forward_of_a_non_tensor():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x, 2.5)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(TypeError, match="save_for_forward expects all arguments to be tensors or None, "
                                        "but argument 1 is of type float."):
        F.apply(t([1.0], requires_grad=True))


def test_saved_tensors_inside_forward_and_after_recording():
    inside = []

    class F(Function):
        @staticmethod
        def forward(ctx, x, y):
            ctx.save_for_backward(x, None, y)
            inside.append(ctx.saved_tensors)
            return x * y

        @staticmethod
        def backward(ctx, g):
            x, none, y = ctx.saved_tensors
            assert none is None
            return g * y, g * x

    x, y = t([2.0], requires_grad=True), t([3.0], requires_grad=True)
    F.apply(x, y).backward()
    assert inside[0][0] is x and inside[0][1] is None and inside[0][2] is y
    assert x.grad.tolist() == [3.0] and y.grad.tolist() == [2.0]


@pytest.mark.parametrize("save", [True, False])
def test_saved_tensors_after_release(save):
    holder = {}

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            if save:
                ctx.save_for_backward(x)
            holder["ctx"] = ctx
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    F.apply(t([1.0], requires_grad=True)).sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        holder["ctx"].saved_tensors


def test_saved_tensors_kept_with_retain_graph():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    x = t([3.0], requires_grad=True)
    y = F.apply(x)
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [6.0]
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        y.backward()


def test_saved_input_modified_in_place():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * x

    a = t([1.0, 2.0], requires_grad=True)
    x = a * 1
    y = F.apply(x)
    x.add_(1)
    with pytest.raises(RuntimeError, match=r"modified by an inplace operation: .* is at version 1; "
                                           r"expected version 0 instead"):
        y.sum().backward()


def test_saved_output_modified_in_place_names_this_node():
    class Twice(Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            ctx.save_for_backward(out)
            return out

        @staticmethod
        def backward(ctx, g):
            (out,) = ctx.saved_tensors
            return g * 2

    y = Twice.apply(t([1.0], requires_grad=True))
    with opyard.no_grad():
        y.add_(1)
    with pytest.raises(RuntimeError, match="which is output 0 of Twice, is at version 1"):
        y.sum().backward()


def test_mark_dirty_on_a_non_input():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            ctx.mark_dirty(out)
            return out

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.warns(UserWarning, match=r"ctx.mark_dirty\(\) received a tensor that was not an input"):
        F.apply(t([1.0], requires_grad=True))


def test_mark_dirty_not_returned_is_an_error():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(RuntimeError, match="Some elements marked as dirty during the forward method "
                                           "were not returned as output"):
        F.apply(t([1.0], requires_grad=True) * 1)


def test_mark_dirty_in_place_output_gets_the_node():
    class AddOne(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    a = t([1.0], requires_grad=True)
    x = a * 1
    y = AddOne.apply(x)
    assert y is x and type(y.grad_fn).__name__ == "AddOneBackward"
    y.sum().backward()
    assert a.grad.tolist() == [1.0]


def test_needs_input_grad_of_many_inputs():
    seen = []

    class Many(Function):
        @staticmethod
        def forward(ctx, *xs):
            seen.append(ctx.needs_input_grad)
            return xs[0] * 1

        @staticmethod
        def backward(ctx, g):
            return (g,) + (None,) * 69

    xs = [t([1.0], requires_grad=i % 7 == 0) for i in range(70)]
    Many.apply(*xs)
    assert seen[0] == tuple(i % 7 == 0 for i in range(70))


def test_needs_input_grad_values():
    seen = []

    class F(Function):
        @staticmethod
        def forward(ctx, x, y, k, z):
            seen.append(ctx.needs_input_grad)
            return x * k

        @staticmethod
        def backward(ctx, g):
            seen.append(ctx.needs_input_grad)
            return g, None, None, None

    x, y, z = t([1.0], requires_grad=True), t([1.0]), t([2.0], requires_grad=True)
    F.apply(x, y, 3.0, z).sum().backward()
    assert seen == [(True, False, False, True), (True, False, False, True)]
    seen.clear()
    with opyard.no_grad():  # no graph, but the flags are the inputs' requires_grad (as torch's)
        F.apply(x, y, 3.0, z)
        F.apply(x, y, 3.0, z=z)  # keywords: the general path
    assert seen == [(True, False, False, True)] * 2
    seen.clear()
    F.apply(t([1.0]), y, 3.0, t([1.0]))
    assert seen == [(False, False, False, False)]
