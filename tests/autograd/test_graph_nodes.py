"""Graph nodes as Rust objects: their fields, the ctx they double as, GC of cycles, their size."""

import gc
import sys
import tracemalloc
import weakref

import pytest

import opyard
from opyard import _core
from opyard import Tensor
from opyard.autograd import Function
from opyard.autograd.graph import AccumulateGrad, Node
from opyard.library import custom_op


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


# --- node fields ----------------------------------------------------------------------


def test_next_functions_sequence_numbers_and_output_shapes():
    x = t([[1.0, 2.0]], requires_grad=True)
    c = t([[3.0, 4.0]])
    y = x * c
    z = y.exp()
    mul, exp = y.grad_fn, z.grad_fn
    (acc, nr), (none, none_nr) = mul.next_functions
    assert isinstance(acc, AccumulateGrad) and acc.variable is x and nr == 0
    assert (none, none_nr) == (None, 0)
    assert exp.next_functions == ((mul, 0),)
    assert exp._sequence_nr > mul._sequence_nr
    assert mul._out_shapes == ((1, 2),) and exp._out_shapes == ((1, 2),)
    assert acc._sequence_nr == 2**62  # a sink runs as soon as it is ready


def test_released_after_backward_and_kept_with_retain_graph():
    x = t([1.0, 2.0], requires_grad=True)
    y = x.exp()
    loss = y.sum()
    loss.backward(retain_graph=True)
    assert not y.grad_fn._released
    loss.backward()
    assert y.grad_fn._released
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        loss.backward()


def test_a_python_node_subclass_keeps_its_own_attributes():
    class Twice(Node):
        def __init__(self, edges):
            super().__init__(edges, ((2,),))
            self.factor = 2.0

        def apply(self, grads):
            return (grads[0] * self.factor,)

    x = t([1.0, 1.0], requires_grad=True)
    node = Twice(((AccumulateGrad(x), 0),))
    assert node.factor == 2.0 and node.next_functions[0][1] == 0
    opyard._core._run_backward([(node, 0, t([1.0, 3.0]))], None, False, False, True)
    assert x.grad.tolist() == [2.0, 6.0]


@pytest.mark.parametrize("edges, match", [
    (((1, 2, 3),), r"expected \(node, input_nr\) pairs, got \(1, 2, 3\)"),
    ((("node", 0),), "expected a node"),
])
def test_malformed_edges_are_refused(edges, match):
    class N(Node):
        pass

    with pytest.raises(TypeError, match=match):
        node = N(edges, ((1,),))
        opyard._core._run_backward([(node, 0, t([1.0]))], None, False, False, True)


def test_metadata_and_hooks_live_on_the_node():
    x = t([1.0], requires_grad=True)
    y = x * 2
    y.grad_fn.metadata["tag"] = "mine"
    seen = []
    handle = y.grad_fn.register_prehook(lambda g: seen.append("pre"))
    y.grad_fn.register_hook(lambda gi, go: seen.append("post"))
    y.sum().backward()
    assert y.grad_fn.metadata == {"tag": "mine"} and seen == ["pre", "post"]
    handle.remove()


# --- the node doubles as the Function ctx ------------------------------------------------


class Keep(Function):
    seen = {}

    @staticmethod
    def forward(ctx, x, k):
        ctx.k = k
        Keep.seen["needs"] = ctx.needs_input_grad
        Keep.seen["materialize"] = ctx.materialize_grads
        ctx.set_materialize_grads(False)
        ctx.save_for_backward(x)
        return x * k

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.k, None


def test_ctx_fields_and_user_attributes():
    x = t([1.0, 2.0], requires_grad=True)
    y = Keep.apply(x, 3.0)
    ctx = y.grad_fn
    assert Keep.seen == {"needs": (True, False), "materialize": True}
    assert ctx.k == 3.0 and not ctx.materialize_grads
    # The ctx fields are the node's own, not entries of its instance dict.
    assert set(vars(ctx)) == {"k"}
    assert ctx.needs_input_grad == (True, False)
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


def test_ctx_without_user_attributes_has_an_empty_dict():
    class Ident(Function):
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            return g

    y = Ident.apply(t([1.0], requires_grad=True))
    assert vars(y.grad_fn) == {} and y.grad_fn.to_save == () and y.grad_fn._dirty == ()


def test_function_apply_without_grad_records_nothing():
    x = t([1.0, 2.0])
    y = Keep.apply(x, 2.0)
    assert y.grad_fn is None and not y.requires_grad
    with opyard.no_grad():
        z = Keep.apply(t([1.0], requires_grad=True), 2.0)
    # No graph under no_grad, but the flags still say which inputs require grad (as torch's do).
    assert z.grad_fn is None and Keep.seen["needs"] == (True, False)


def test_function_apply_restores_grad_mode_when_forward_raises():
    class Boom(Function):
        @staticmethod
        def forward(ctx, x):
            raise ValueError("boom in forward")

        @staticmethod
        def backward(ctx, g):
            return g

    with pytest.raises(ValueError, match="boom in forward"):
        Boom.apply(t([1.0], requires_grad=True))
    assert opyard.is_grad_enabled()


# --- cycles are collected -----------------------------------------------------------------


def test_a_ctx_holding_its_output_is_collected():
    class Cyclic(Function):
        @staticmethod
        def forward(ctx, x):
            out = x * 2
            ctx.out = out  # ctx -> out -> out.grad_fn (ctx): a cycle through the node
            return out

        @staticmethod
        def backward(ctx, g):
            return g * 2

    y = Cyclic.apply(t([1.0], requires_grad=True))
    ref = weakref.ref(y.grad_fn)
    y.grad_fn.out = y
    del y
    gc.collect()
    assert ref() is None


def test_a_node_saving_its_output_is_collected():
    y = t([1.0], requires_grad=True).exp()  # ExpBackward0 saves its result: a cycle
    ref = weakref.ref(y.grad_fn)
    del y
    gc.collect()
    assert ref() is None


# --- register_autograd's kernel -------------------------------------------------------------


def test_register_autograd_kernel_is_named_and_records_one_node():
    @custom_op("nodetest::twice", mutates_args=())
    def twice(x: Tensor) -> Tensor:
        return x * 2

    twice.register_autograd(lambda ctx, g: g * 2)
    assert "autograd<nodetest::twice>" in opyard.dispatcher.dump("nodetest::twice")
    x = t([1.0, 2.0], requires_grad=True)
    y = twice(x)
    assert y.grad_fn.next_functions[0][0].variable is x
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]


# --- size ---------------------------------------------------------------------------------------


def test_a_unary_node_is_one_small_object():
    y = t([1.0], requires_grad=True).neg()
    assert sys.getsizeof(y.grad_fn) <= 200


def test_memory_per_node_of_a_chain_is_bounded():
    x = opyard.ones(1, requires_grad=True)
    y = x.neg()  # warm the shared metadata
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(2000):
            y = y.neg()
        per_node = (tracemalloc.get_traced_memory()[0] - before) / 2000
    finally:
        tracemalloc.stop()
    assert per_node <= 200


def test_saved_arguments_are_readable_as_torch_names_them():
    x = t([1.0, 2.0], requires_grad=True)
    c = t([3.0, 4.0])
    y = x * c
    # As torch: x is kept only for c's gradient, which nothing needs (Note [Conditional saves]).
    assert y.grad_fn._saved_self is None and y.grad_fn._saved_other is c
    both = x * c.requires_grad_()
    assert both.grad_fn._saved_self is x and both.grad_fn._saved_other is c
    z = x.exp()
    assert z.grad_fn._saved_result is z
    w = x.pow(2)
    assert w.grad_fn._saved_exponent == 2
    with pytest.raises(AttributeError, match="_saved_nothing"):
        getattr(y.grad_fn, "_saved_nothing")  # noqa: B009
    z.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        getattr(z.grad_fn, "_saved_result")  # noqa: B009


def test_apply_through_super_in_an_apply_override_records_the_subclass():
    class Base(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    class Wrapped(Base):
        @classmethod
        def apply(cls, *args, **kwargs):
            return super().apply(*args, **kwargs)

    x = t([1.0, 2.0], requires_grad=True)
    y = Wrapped.apply(x)
    assert type(y.grad_fn).__name__ == "WrappedBackward"
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0]
    if _core.FAST_PATHS:
        assert Base.apply is Base._apply_spec and Base.apply.__qualname__.endswith("Base.apply")
    else:  # the general path: Function's own ``apply`` (See Note [Fast paths and general paths])
        assert Base.apply.__func__ is opyard.autograd.Function.apply.__func__
