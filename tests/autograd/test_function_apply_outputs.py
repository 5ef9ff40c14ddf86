"""``Function.apply``'s outputs recorded in Rust: tuples, non-tensor entries, marked and
integer outputs, inputs returned as-is, saved outputs, materialized gradients, tensor
subclasses (Python's rules), ``SavedTensor`` made by its slots, and ``apply`` on each class."""

import pytest

import opyard
from opyard import _core
from opyard import Tensor
from opyard.autograd import Function


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


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

    if _core.FAST_PATHS:
        assert Base.__dict__["apply"] is Base._apply_spec
        assert Plain.apply is Plain._apply_spec and Plain.apply is not Base.apply
    else:  # the general path: every class inherits Function's own ``apply``
        assert "apply" not in Base.__dict__ and "apply" not in Plain.__dict__
    assert "apply" not in Deeper.__dict__  # a user's apply up the chain is kept
    y = Deeper.apply(t([1.0], requires_grad=True))
    assert y.tolist() == [3.0] and type(y.grad_fn).__name__.startswith("AddBackward")
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "DeeperBackward"


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


def _grads_of(call):
    x = t([1.0, 2.0], requires_grad=True)
    out = call(x)
    out.sum().backward()
    return out.tolist(), x.grad.tolist()


def test_every_call_form_of_apply_means_the_same():
    import functools

    class Scale(Function):
        @staticmethod
        def forward(ctx, x, k=3.0):
            ctx.k = k
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None

    want = ([3.0, 6.0], [3.0, 3.0])
    assert _grads_of(lambda x: Scale.apply(x)) == want  # the first call: through `tp_call`
    # From here CPython calls the spec through its vectorcall entry (Note [Vectorcall entries]).
    assert type(Scale.apply).__flags__ & (1 << 11)
    assert _grads_of(lambda x: Scale.apply(x)) == want
    assert _grads_of(lambda x: Scale.apply(*[x])) == want
    assert _grads_of(lambda x: functools.partial(Scale.apply, x)()) == want
    assert _grads_of(lambda x: type(Scale.apply).__call__(Scale.apply, x)) == want
    assert _grads_of(lambda x: Scale.apply(x, 2.0)) == ([2.0, 4.0], [2.0, 2.0])
    with pytest.raises(TypeError):
        Scale.apply()
