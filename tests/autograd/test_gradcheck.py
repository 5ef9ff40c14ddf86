"""gradcheck over every differentiable built-in op, and gradcheck's own behaviour."""

import pytest

import opyard
from opyard import autograd
from opyard.autograd import GradcheckError, gradcheck, gradgradcheck
from opyard.autograd.derivatives import FORMULAS, inplace_name
from grad_samples import COMPOSITE_SAMPLES, INPLACE_SAMPLES, NOT_IMPLEMENTED, SAMPLES, A, r


# --- math, reductions, indexing and linear algebra with a numpy equivalent (begin) ---
@pytest.mark.parametrize("op", sorted(COMPOSITE_SAMPLES))
def test_gradcheck_composite(op):
    fn, inputs = COMPOSITE_SAMPLES[op]
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, check_forward_ad=True)


def test_prod_gradient_is_exact_at_zeros():
    x = opyard.tensor([2.0, 0.0, 3.0, 0.5], dtype=opyard.float64, requires_grad=True)
    A.prod.default(x).backward()
    assert x.grad.tolist() == [0.0, 3.0, 0.0, 0.0]
    y = opyard.tensor([0.0, 0.0, 3.0], dtype=opyard.float64, requires_grad=True)
    A.prod.default(y).backward()
    assert y.grad.tolist() == [0.0, 0.0, 0.0]


def test_scatter_reduce_amax_gradient_names_what_is_missing():
    a = r(3)
    out = A.scatter_reduce.two(a, 0, opyard.tensor([0, 0, 2]), r(3), "amax")
    with pytest.raises(NotImplementedError, match="scatter_reduce with reduce='amax' is not implemented"):
        out.sum().backward()


@pytest.mark.parametrize("shape", [(4, 3), (3, 4), (2, 3, 3)])
def test_svd_gradient_through_singular_vectors(shape):
    def fn(a):  # columns of U and rows of Vh are defined up to sign: use them sign-invariantly
        u, s, vh = A.linalg_svd.default(a, False)
        return (u * u * s.unsqueeze(-2)).sum() + (vh * vh * s.unsqueeze(-1)).sum() + s.sum()
    assert gradcheck(fn, (r(*shape),))


@pytest.mark.parametrize("shape", [(4, 3), (3, 3), (2, 5, 3)])
def test_qr_gradient_through_both_factors(shape):
    assert gradcheck(lambda a: A.linalg_qr.default(a), (r(*shape),))


def test_svd_singular_values_gradient_with_full_matrices():
    assert gradcheck(lambda a: A.linalg_svd.default(a)[1], (r(4, 3),))


def test_qr_gradient_needs_q():
    a = r(3, 3)
    _, rr = A.linalg_qr.default(a, "r")
    with pytest.raises(RuntimeError, match="The derivative of linalg.qr depends on Q, which is not computed"):
        rr.sum().backward()


def test_heaviside_gradient_is_not_implemented_as_in_torch():
    y = A.heaviside.default(r(3), r(3))
    assert y.requires_grad and y.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match=r"^derivative for aten::heaviside is not implemented$"):
        y.sum().backward()


def test_detach_in_place_drops_history():
    x = r(3)
    y = x * 2
    assert y.detach_() is y and y.requires_grad is False and y.grad_fn is None
# --- math, reductions, indexing and linear algebra with a numpy equivalent (end) ---

REGISTERED = sorted(op for op in SAMPLES if op in autograd._registered_ops)


def test_every_registered_formula_has_a_sample():
    missing = [op for op in autograd._registered_ops
               if op not in SAMPLES and not any(inplace_name(s) == op for s in SAMPLES)
               and op not in INPLACE_SAMPLES and op not in NOT_IMPLEMENTED]
    assert missing == []


@pytest.mark.parametrize("op", sorted(INPLACE_SAMPLES))
def test_gradcheck_inplace(op):
    fn, inputs = INPLACE_SAMPLES[op]
    assert gradcheck(fn, inputs)


@pytest.mark.parametrize("op", REGISTERED)
def test_gradcheck_builtin(op):
    fn, inputs = SAMPLES[op]
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


@pytest.mark.parametrize("op", REGISTERED)
def test_node_name_matches_table(op):
    fn, inputs = SAMPLES[op]
    out = fn(*inputs)
    if out.grad_fn.name() == "AddBackward0" and FORMULAS[op].name != "AddBackward0":
        out = out.grad_fn.next_functions[0][0]  # samples like `op(a) + a`
        assert FORMULAS[op].name in {out.name()} | {n.name() for n, _ in out.next_functions if n}
        return
    fns = {out.grad_fn.name()}
    for nxt, _ in out.grad_fn.next_functions:  # composite samples (max.dim()[0]) stay one level deep
        if nxt is not None:
            fns.add(nxt.name())
    assert FORMULAS[op].name in fns


SECOND_ORDER = ["aten::mul.Tensor", "aten::sin", "aten::mm", "aten::sum.dim_IntList",
                "aten::div.Tensor", "aten::tanh", "aten::cat", "aten::select.int"]


@pytest.mark.parametrize("op", [op for op in SECOND_ORDER if op in REGISTERED])
def test_gradgradcheck_builtin(op):
    fn, inputs = SAMPLES[op]
    assert gradgradcheck(fn, inputs)


class WrongSin(autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos() * 2


def test_gradcheck_failure_message_shows_both_jacobians():
    x = r(2)
    with pytest.raises(GradcheckError, match=r"(?s)Jacobian mismatch for output 0 with respect to input 0,\n"
                                             r"numerical:.*\nanalytical:"):
        gradcheck(WrongSin.apply, (x,))
    assert isinstance(GradcheckError("x"), RuntimeError)


def test_gradcheck_raise_exception_false_returns_false():
    assert gradcheck(WrongSin.apply, (r(2),), raise_exception=False) is False


def test_gradcheck_warns_for_single_precision():
    x = opyard.tensor([0.5, 1.0], dtype=opyard.float32, requires_grad=True)
    with pytest.warns(UserWarning, match="Input #0 requires gradient and is not a double precision"):
        gradcheck(lambda v: v * 2, (x,), eps=1e-3, atol=1e-2, rtol=1e-2)


def test_gradcheck_needs_an_input_requiring_grad():
    with pytest.raises(ValueError, match="gradcheck expects at least one input tensor to require gradient"):
        gradcheck(lambda v: v * 2, (r(2, grad=False),))


def test_gradcheck_checks_forward_ad():
    assert gradcheck(lambda a, b: (a * b).sin().sum(0), (r(2, 3), r(3)), check_forward_ad=True)
