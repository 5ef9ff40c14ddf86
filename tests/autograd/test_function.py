"""``autograd.Function``: the seed's examples, every ctx method, and the error messages."""

import numpy as np
import pytest

import opyard
from opyard.autograd import Function, gradcheck
from opyard.autograd.function import once_differentiable

from seed_functions import LinearFunction
import opyard.autograd.forward_ad as fwAD


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


def close(a, b):
    return np.allclose(np.asarray(a.detach().numpy()), np.asarray(b), atol=1e-6)


# --- the seed (extending_pytorch.md), with torch replaced by opyard ---------------------

linear = LinearFunction.apply


class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.constant, None


class MulConstantLazy(Function):
    seen = []

    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.set_materialize_grads(False)
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        MulConstantLazy.seen.append(grad_output)
        if grad_output is None:
            return None, None
        return grad_output * ctx.constant, None


def test_seed_linear_gradcheck():
    input = (opyard.randn(20, 20, dtype=opyard.double, requires_grad=True),
             opyard.randn(30, 20, dtype=opyard.double, requires_grad=True))
    test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
    assert test is True


def test_seed_linear_with_bias():
    x = opyard.randn(4, 3, dtype=opyard.double, requires_grad=True)
    w = opyard.randn(2, 3, dtype=opyard.double, requires_grad=True)
    b = opyard.randn(2, dtype=opyard.double, requires_grad=True)
    assert gradcheck(linear, (x, w, b), eps=1e-6, atol=1e-4)
    out = linear(x, w, b)
    assert out.grad_fn.name() == "LinearFunctionBackward"


def test_seed_mul_constant():
    x = t([1.0, 2.0], requires_grad=True)
    MulConstant.apply(x, 3.0).sum().backward()
    assert close(x.grad, [3, 3])


def test_seed_mul_constant_without_materialized_grads():
    MulConstantLazy.seen.clear()
    x = t([1.0, 2.0], requires_grad=True)
    y = MulConstantLazy.apply(x, 5.0)
    (y * 0 + 1).sum().backward()
    assert close(x.grad, [0, 0])
    assert MulConstantLazy.seen[-1] is not None


class TwoOutputs(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, g1, g2):
        TwoOutputs.received = (g1, g2)
        total = None
        for g, k in ((g1, 2), (g2, 3)):
            if g is not None:
                total = g * k if total is None else total + g * k
        return total


def test_set_materialize_grads_false_passes_none():
    x = t([1.0], requires_grad=True)
    a, _ = TwoOutputs.apply(x)
    a.sum().backward()
    assert TwoOutputs.received[1] is None
    assert close(x.grad, [2])


def test_materialized_grads_are_zeros():
    class Two(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            Two.g2 = g2
            return g1 * 2 + g2 * 3

    x = t([1.0, 1.0], requires_grad=True)
    a, _ = Two.apply(x)
    a.sum().backward()
    assert close(Two.g2, [0, 0])


# --- ctx methods --------------------------------------------------------------------


def test_save_for_backward_rejects_non_tensors():
    class Bad(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x, 3)
            return x * 1

    with pytest.raises(TypeError, match="save_for_backward can only save variables, but argument 1 "
                                        "is of type int"):
        Bad.apply(t([1.0], requires_grad=True))


def test_saved_tensor_version_check():
    class Square(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = t([1.0, 2.0], requires_grad=True)
    base = x * 1
    y = Square.apply(base)
    base.add_(1)
    with pytest.raises(RuntimeError, match="one of the variables needed for gradient computation has "
                                           "been modified by an inplace operation"):
        y.sum().backward()


def test_saved_tensors_freed_after_backward():
    class Keep(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, g):
            Keep.ctx = ctx
            return g * 2

    y = Keep.apply(t([1.0], requires_grad=True))
    y.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        Keep.ctx.saved_tensors


def test_mark_dirty():
    class AddOneInplace(Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    x = t([1.0, 2.0], requires_grad=True)
    y = x * 1
    z = AddOneInplace.apply(y)
    assert z is y and z.grad_fn.name() == "AddOneInplaceBackward"
    (z * 2).sum().backward()
    assert close(x.grad, [2, 2])
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an "
                                           "in-place operation."):
        AddOneInplace.apply(t([1.0], requires_grad=True))


def test_mark_non_differentiable():
    class SortLike(Function):
        @staticmethod
        def forward(ctx, x):
            idx = x * 0
            ctx.mark_non_differentiable(idx)
            return x * 1, idx

        @staticmethod
        def backward(ctx, g, g_idx):
            return g

    vals, idx = SortLike.apply(t([3.0, 1.0], requires_grad=True))
    assert vals.requires_grad and not idx.requires_grad


def test_needs_input_grad_and_non_tensor_args():
    class Probe(Function):
        @staticmethod
        def forward(ctx, a, b, k):
            Probe.needs = ctx.needs_input_grad
            return a * b * k

        @staticmethod
        def backward(ctx, g):
            return g, None, None

    Probe.apply(t([1.0], requires_grad=True), t([2.0]), 3)
    assert Probe.needs == (True, False, False)


def test_setup_context_style():
    class Cube(Function):
        @staticmethod
        def forward(x):
            return x ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            (x,) = inputs
            ctx.save_for_backward(x)

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    x = t([2.0], requires_grad=True)
    Cube.apply(x).sum().backward()
    assert close(x.grad, [12])
    assert gradcheck(Cube.apply, (t([0.5, -1.5], requires_grad=True),))


def test_vjp_alias():
    class Neg(Function):
        @staticmethod
        def forward(ctx, x):
            return x * -1

        @staticmethod
        def vjp(ctx, g):
            return g * -1

    x = t([1.0], requires_grad=True)
    Neg.apply(x).sum().backward()
    assert close(x.grad, [-1])


def test_both_backward_and_vjp_is_an_error():
    with pytest.raises(RuntimeError, match="Implementing both 'backward' and 'vjp'"):
        class Both(Function):  # noqa: F841
            @staticmethod
            def forward(ctx, x):
                return x

            @staticmethod
            def backward(ctx, g):
                return g

            @staticmethod
            def vjp(ctx, g):
                return g


def test_extra_trailing_none_gradients_are_accepted():
    class Extra(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2, None, None

    x = t([1.0], requires_grad=True)
    Extra.apply(x).sum().backward()
    assert close(x.grad, [2])


def test_wrong_number_of_gradients():
    class Wrong(Function):
        @staticmethod
        def forward(ctx, x, y):
            return x * y

        @staticmethod
        def backward(ctx, g):
            return g, g, g

    x = t([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"function WrongBackward returned an incorrect number of "
                                           r"gradients \(expected 2, got 3\)"):
        Wrong.apply(x, t([1.0])).sum().backward()


def test_wrong_gradient_shape():
    class BadShape(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return t([1.0, 2.0, 3.0])

    x = t([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Function BadShapeBackward returned an invalid gradient at "
                                           r"index 0 - got \[3\] but expected shape compatible with \[2\]"):
        BadShape.apply(x).sum().backward()


# A gradient entering a built-in op's node (here exp's) is checked against the shape and dtype that op
# recorded, as one entering a leaf is: a mismatch is torch's error, a shape it can be summed to is
# summed, another dtype is cast. Expected values are torch's for the same calls.
@pytest.mark.parametrize("grad, expected", [
    ([1.0, 2.0], [np.exp(1.0), 2.0 * np.exp(2.0)]),
    ([[1.0, 2.0], [3.0, 4.0]], [4.0 * np.exp(1.0), 6.0 * np.exp(2.0)]),
    ([1.0, 2.0, 3.0], r"got \[3\] but expected shape compatible with \[2\]"),
    ([3.0], r"got \[1\] but expected shape compatible with \[2\]"),
    (5.0, r"got \[\] but expected shape compatible with \[2\]"),
])
@pytest.mark.parametrize("dtype", [opyard.float32, opyard.float64])
def test_gradient_into_a_built_in_node_is_checked(grad, expected, dtype):
    class Fn(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return opyard.tensor(grad, dtype=dtype)

    x = opyard.tensor([1.0, 2.0], requires_grad=True)
    if isinstance(expected, str):
        with pytest.raises(RuntimeError, match="Function FnBackward returned an invalid gradient at index 0 - "
                                               + expected):
            Fn.apply(x.exp()).sum().backward()
        return
    Fn.apply(x.exp()).sum().backward()
    assert x.grad.dtype == opyard.float32
    np.testing.assert_allclose(x.grad.numpy(), expected, rtol=1e-6)


def test_gradient_for_non_tensor_input_must_be_none():
    class Const(Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, g):
            return g, g

    with pytest.raises(RuntimeError, match="returned a gradient different than None at position 2"):
        Const.apply(t([1.0], requires_grad=True), 2.0).sum().backward()


def test_input_returned_as_is_keeps_its_own_history():
    class Ident(Function):
        @staticmethod
        def forward(ctx, x):
            return x

        @staticmethod
        def backward(ctx, g):
            return g * 5

    x = t([1.0], requires_grad=True)
    y = Ident.apply(x)
    assert y is not x and x.is_leaf and y.grad_fn.name() == "IdentBackward"
    y.sum().backward()
    assert close(x.grad, [5])


def test_no_graph_without_grad():
    x = t([1.0])
    y = MulConstant.apply(x, 2.0)
    assert not y.requires_grad and y.grad_fn is None
    with opyard.no_grad():
        assert not MulConstant.apply(t([1.0], requires_grad=True), 2.0).requires_grad


def test_forward_runs_without_recording():
    class Probe(Function):
        @staticmethod
        def forward(ctx, x):
            Probe.inner = (x * 2).requires_grad
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    Probe.apply(t([1.0], requires_grad=True))
    assert Probe.inner is False


def test_double_backward_through_function():
    class Cube(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g * 3 * x ** 2

    x = t([2.0], requires_grad=True)
    (g,) = opyard.autograd.grad(Cube.apply(x).sum(), x, create_graph=True)
    (gg,) = opyard.autograd.grad(g.sum(), x)
    assert close(gg, [12])
    assert opyard.autograd.gradgradcheck(Cube.apply, (t([0.5, 1.5], requires_grad=True),))


def test_once_differentiable_blocks_double_backward():
    class Sq(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 2 * x * g

    x = t([3.0], requires_grad=True)
    Sq.apply(x).sum().backward()
    assert close(x.grad, [6])
    # As in torch, the error node is attached when a gradient flowing in requires grad.
    v = t([1.0], requires_grad=True)
    (g,) = opyard.autograd.grad(Sq.apply(x), x, grad_outputs=v, create_graph=True)
    assert g.grad_fn.name() == "DelayedError"
    with pytest.raises(RuntimeError, match="trying to differentiate twice a function that was marked "
                                           "with @once_differentiable"):
        g.sum().backward()


def test_missing_backward_message():
    class NoBackward(Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

    with pytest.raises(NotImplementedError, match="You must implement either the backward or vjp method"):
        NoBackward.apply(t([1.0], requires_grad=True)).sum().backward()


def test_function_instantiation_is_rejected():
    # As torch: instantiating warns, calling the instance raises.
    with pytest.warns(DeprecationWarning, match="should not be instantiated"):
        fn = MulConstant()
    with pytest.raises(RuntimeError, match="Legacy autograd function with non-static forward method"):
        fn(t([1.0]), 2.0)


# --- apply's keywords, non-tensor outputs, dirty and view outputs, gradient dtypes -----------------

def test_function_non_tensor_outputs_get_none_in_backward():
    seen = []

    class Fn(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, 3, "label"

        @staticmethod
        def backward(ctx, g, g_int, g_str):
            seen.append((g_int, g_str))
            return g * 2

    x = opyard.tensor([1.0], requires_grad=True)
    y, n, s = Fn.apply(x)
    assert (n, s) == (3, "label")
    y.sum().backward()
    assert seen == [(None, None)]
    assert x.grad.tolist() == [2.0]


_KW_LOG = []
_KW_SETUP_LOG = []


class _Kw(opyard.autograd.Function):

    @staticmethod
    def forward(ctx, x, y=None, z=None):
        return x * 2 if y is None else x * y

    @staticmethod
    def backward(ctx, g):
        _KW_LOG.append(ctx.needs_input_grad)
        return g * 2, g * 3, None


class _KwSetup(opyard.autograd.Function):

    @staticmethod
    def forward(x, y=None, z=7):
        return x * 2 if y is None else x * y

    @staticmethod
    def setup_context(ctx, inputs, output):
        _KW_SETUP_LOG.append(len(inputs))

    @staticmethod
    def backward(ctx, g):
        _KW_SETUP_LOG.append(ctx.needs_input_grad)
        return g * 2, g * 3, None


@pytest.mark.parametrize("fn, log", [(_Kw, _KW_LOG), (_KwSetup, _KW_SETUP_LOG)])
def test_apply_keywords_bind_to_forward_positions(fn, log):
    log.clear()
    x = opyard.tensor([1.0], requires_grad=True)
    y = opyard.tensor([1.0], requires_grad=True)
    fn.apply(x, y=y).sum().backward()
    assert (x.grad.tolist(), y.grad.tolist()) == ([2.0], [3.0])
    if fn is _Kw:
        assert log == [(True, True)]
    else:  # setup_context sees every input, defaults filled in; needs_input_grad follows it
        assert log == [3, (True, True, False)]


def _kwonly_fn():
    class KwOnly(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x, *, s):
            return x * s

        @staticmethod
        def backward(ctx, g):
            return g, g
    return KwOnly


@pytest.mark.parametrize("call, match", [
    (lambda x: _Kw.apply(x, z=x), r"^forward\(\) missing required argument: 'y' \(position 1\)$"),
    (lambda x: _Kw.apply(x, w=x), r"^forward\(\) got an unexpected keyword argument 'w'$"),
    (lambda x: _Kw.apply(x, x=x), r"^forward\(\) got multiple values for argument 'x'$"),
    (lambda x: _Kw.apply(y=x), r"^forward\(\) missing required argument: 'x' \(position 0\)$"),
    (lambda x: _kwonly_fn().apply(x, s=x), r"^forward\(\) got an unexpected keyword argument 's'$"),
    (lambda x: _KwSetup.apply(x, w=x), r"^got an unexpected keyword argument 'w'$"),
    (lambda x: _KwSetup.apply(x, x=x), r"^multiple values for argument 'x'$"),
    (lambda x: _KwSetup.apply(y=x), r"^missing a required argument: 'x'$"),
])
def test_apply_keyword_mistakes(call, match):
    with pytest.raises(TypeError, match=match):
        call(opyard.tensor([1.0], requires_grad=True))


def test_function_under_forward_ad_no_grad_records_nothing():
    class Double(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

        @staticmethod
        def jvp(ctx, t):
            return t * 2

    x = opyard.tensor([1.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, opyard.tensor([5.0]))
        with opyard.no_grad():
            y = Double.apply(d)
        assert y.grad_fn is None
        assert fwAD.unpack_dual(y).tangent.tolist() == [10.0]


def test_function_dirty_view_input_stays_writable():
    class AddOne(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    base = opyard.ones(4, requires_grad=True) * 1
    view = base[1:]
    out = AddOne.apply(view)
    assert out is view
    out.mul_(2)  # a dirty input, not a view made inside forward: allowed, as torch
    base.sum().backward()


def test_function_view_output_refused_in_place_only_with_grad():
    class View(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.view_as(x)

        @staticmethod
        def backward(ctx, g):
            return g

    x = opyard.ones(3, requires_grad=True) * 1
    y = View.apply(x)
    with pytest.raises(RuntimeError, match=r"^Output 0 of View is a view and is being modified inplace"):
        y.add_(1)
    with opyard.no_grad():
        y.add_(1)
    y.clone().add_(1)


def test_leaf_gradient_is_cast_to_the_leaf_dtype():
    class Up(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.float()

        @staticmethod
        def backward(ctx, g):
            return g  # float32 for a float16 input: the engine casts it, as torch's validate_outputs

    x = opyard.ones(2, dtype=opyard.float16, requires_grad=True)
    Up.apply(x).sum().backward()
    assert x.grad.dtype is opyard.float16
    x.grad = None
    assert x.grad is None
    with pytest.raises(RuntimeError,
                       match=r"^attempting to assign a gradient of size '\[3\]' to a tensor of size '\[2\]'"):
        x.grad = opyard.ones(3, dtype=opyard.float16)
