"""The ``Function`` ctx and the ``register_autograd`` wrappers as Rust code: every ctx method on a
recorded node, the outputs ``apply`` records natively, and the op-mode forward/backward."""

import warnings
from typing import Optional

import pytest

import opyard
from opyard import Tensor, _core
from opyard.autograd import Function
from opyard.library import custom_op


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
    for name in ("save_for_backward", "save_for_forward", "mark_dirty", "mark_non_differentiable",
                 "set_materialize_grads", "saved_tensors", "needs_input_grad"):
        assert getattr(cls, name) is getattr(_core.NodeBase, name), name


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
    with opyard.no_grad():
        F.apply(x, y, 3.0, z)
    assert seen == [(False, False, False, False)]
    seen.clear()
    F.apply(t([1.0]), y, 3.0, t([1.0]))
    assert seen == [(False, False, False, False)]


def test_tuple_outputs_with_none():
    got = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, None, x * 3

        @staticmethod
        def backward(ctx, g0, g1, g2):
            got.append((g0, g1, g2))
            return g0 * 2 + g2 * 3

    x = t([1.0, 2.0], requires_grad=True)
    a, none, b = F.apply(x)
    assert none is None and a.grad_fn is b.grad_fn and b.grad_fn is not None
    a.sum().backward()
    g0, g1, g2 = got[0]
    assert g0.tolist() == [1.0, 1.0] and g1 is None and g2.tolist() == [0.0, 0.0]
    assert x.grad.tolist() == [2.0, 2.0]


def test_non_differentiable_output_gets_zero_gradient():
    got = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            idx = x.argmax()
            ctx.mark_non_differentiable(idx)
            return x * 2, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            got.append(g_idx)
            return g * 2

    x = t([1.0, 3.0], requires_grad=True)
    y, idx = F.apply(x)
    assert not idx.requires_grad and y.requires_grad
    y.sum().backward()
    assert got[0].tolist() == 0 and x.grad.tolist() == [2.0, 2.0]


@pytest.mark.parametrize("flag, materialized", [(False, False), (0, False), (True, True), (1, True)])
def test_set_materialize_grads(flag, materialized):
    got = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(flag)
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g0, g1):
            got.append(g1)
            return g0 * 2

    x = t([1.0], requires_grad=True)
    a, _ = F.apply(x)
    a.sum().backward()
    assert (got[0] is not None) == materialized
    if materialized:
        assert got[0].tolist() == [0.0]


def test_single_output_gradient_materialized_with_its_dtype():
    got = []

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            return x.to(opyard.float32) * 2

        @staticmethod
        def backward(ctx, g):
            got.append(g)
            return None

    x = t([1.0], requires_grad=True)
    y = F.apply(x)
    assert y.grad_fn._out_dtypes == (opyard.float32,) and y.grad_fn._out_shapes == ((1,),)
    # A direct call of the node with no gradient materializes zeros of the output's dtype.
    y.grad_fn(None)
    assert got[0].dtype is opyard.float32 and got[0].tolist() == [0.0]


def test_integer_output_is_not_differentiable():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 2).to(opyard.int64)

        @staticmethod
        def backward(ctx, g):
            return g

    y = F.apply(t([1.0], requires_grad=True))
    assert not y.requires_grad and y.grad_fn is None


def test_tensor_subclass_output_is_recorded_through_its_attributes():
    class MyTensor(Tensor):
        pass

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 2).as_subclass(MyTensor)

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = t([1.0, 2.0], requires_grad=True)
    y = F.apply(x)
    assert type(y) is MyTensor and y.grad_fn._out_shapes == ((2,),)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


# --- apply on each class -----------------------------------------------------------------


def test_apply_is_the_class_own_spec_and_inherits_safely():
    class Base(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Custom(Base):
        @classmethod
        def apply(cls, *args):
            return super().apply(*args) + 1

    class Deeper(Custom):
        pass

    class Plain(Base):
        pass

    assert Base.__dict__["apply"] is Base._apply_spec
    assert Plain.apply is Plain._apply_spec and Plain.apply is not Base.apply
    assert "apply" not in Deeper.__dict__  # a user's apply up the chain is kept
    y = Deeper.apply(t([1.0], requires_grad=True))
    assert y.tolist() == [3.0] and type(y.grad_fn).__name__.startswith("AddBackward")
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "DeeperBackward"


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
    # The Rust walk ran (no Python check needed: no aliasing), and the call site did not repeat it.
    assert calls == [] and type(y.grad_fn).__name__ == "checkedonceBackward"


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


# --- outputs recorded natively (tuples, marked, saved outputs) -----------------------------


def test_tuple_output_with_an_input_returned_as_is_and_a_repeated_output():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            y = x * 2
            return x, y, y

        @staticmethod
        def backward(ctx, gx, gy0, gy1):
            return gx + (gy0 + gy1) * 2

    x = t([1.0], requires_grad=True)
    a, b, c = F.apply(x)
    assert a is not x and a.grad_fn is b.grad_fn and x.grad_fn is None
    assert b is c and b._output_nr == 2
    assert a.grad_fn._out_shapes == ((1,), (1,), (1,))
    assert a.grad_fn._out_dtypes == (opyard.float64,) * 3
    (a + b).sum().backward()
    assert x.grad.tolist() == [3.0]


def test_saved_second_output_modified_in_place_names_its_number():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            a, b = x * 2, x * 3
            ctx.save_for_backward(b, x)
            return a, b

        @staticmethod
        def backward(ctx, ga, gb):
            b, x = ctx.saved_tensors
            return ga * 2

    x = t([1.0], requires_grad=True)
    a, b = F.apply(x)
    saved = a.grad_fn._saved
    assert (saved[0].is_output, saved[0].output_nr, saved[0].node_name) == (True, 1, "FBackward")
    assert saved[1].is_output is False
    with opyard.no_grad():
        b.mul_(2)
    with pytest.raises(RuntimeError, match="which is output 1 of F, is at version 1"):
        a.sum().backward()


def test_non_differentiable_in_a_tuple_and_a_non_tensor_lone_output():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            mask = x > 0
            y = x * 2
            z = x * 3
            ctx.mark_non_differentiable(z)
            return y, mask, z

        @staticmethod
        def backward(ctx, gy, gmask, gz):
            assert gz.tolist() == [0.0, 0.0]
            return gy * 2

    x = t([1.0, -1.0], requires_grad=True)
    y, mask, z = F.apply(x)
    assert y.requires_grad and not mask.requires_grad and not z.requires_grad
    assert y.grad_fn._out_dtypes == (opyard.float64, opyard.bool, opyard.float64)
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]

    class Count(Function):
        @staticmethod
        def forward(ctx, x):
            return 3

        @staticmethod
        def backward(ctx, g):
            return None

    assert Count.apply(x) == 3


def test_complex_output_is_differentiable():
    class F(Function):
        @staticmethod
        def forward(ctx, x):
            return x.to(opyard.complex128) * 2

        @staticmethod
        def backward(ctx, g):
            return g.real * 2

    y = F.apply(t([1.0], requires_grad=True))
    assert y.requires_grad and y.grad_fn._out_dtypes == (opyard.complex128,)


def test_tensor_subclass_in_a_tuple_takes_the_python_rules():
    class MyTensor(Tensor):
        pass

    class F(Function):
        @staticmethod
        def forward(ctx, x):
            return (x * 2).as_subclass(MyTensor), x * 3

        @staticmethod
        def backward(ctx, g0, g1):
            return g0 * 2 + g1 * 3

    x = t([1.0], requires_grad=True)
    a, b = F.apply(x)
    assert type(a) is MyTensor and a.grad_fn is b.grad_fn and b._output_nr == 1
    (a + b).sum().backward()
    assert x.grad.tolist() == [5.0]


def test_saved_tensor_made_in_rust_matches_the_python_class():
    from opyard.autograd.graph import SavedTensor

    class F(Function):
        @staticmethod
        def forward(ctx, x, y):
            out = x * y
            ctx.save_for_backward(x, None, out)
            return out

        @staticmethod
        def backward(ctx, g):
            return g, g

    x, y = t([1.0], requires_grad=True) * 1, t([2.0])
    with opyard.no_grad():
        x.add_(0)  # a version other than 0 is recorded as is
    assert x._version == 1
    out = F.apply(x, y)
    made = out.grad_fn._saved
    expected = (SavedTensor(x, False, "", 0), SavedTensor(None), SavedTensor(out, True, "FBackward", 0))
    for m, e in zip(made, expected):
        assert type(m) is SavedTensor
        for name in SavedTensor.__slots__:
            assert getattr(m, name) == getattr(e, name) if name != "tensor" else m.tensor is e.tensor
