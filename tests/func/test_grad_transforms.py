"""``opyard.func`` autodiff transforms, alone and composed with ``vmap``, checked in float64 against
plain autograd (``backward``) and Python loops."""

import numpy as np
import opyard as O
import pytest
from opyard.func import (
    functional_call,
    grad,
    grad_and_value,
    hessian,
    jacfwd,
    jacrev,
    jvp,
    vjp,
    vmap,
)

F64 = O.float64


def close(a, b, tol=1e-10):
    assert tuple(a.shape) == tuple(b.shape)
    np.testing.assert_allclose(np.asarray(a.detach().numpy()), np.asarray(b.detach().numpy()), atol=tol, rtol=tol)


def autograd_grad(f, *args):
    leaves = [a.detach().requires_grad_(True) for a in args]
    f(*leaves).backward()
    return [leaf.grad for leaf in leaves]


O.manual_seed(0)
X = O.randn(5, dtype=F64)
XS, YS = O.randn(8, 3, dtype=F64), O.randn(8, dtype=F64)
W = O.randn(3, dtype=F64)


def cubic(x):
    return (x ** 3 + x.sin() * 2).sum()


def loss(w, xi, yi):
    return ((xi @ w - yi) ** 2).mean()


def test_grad_matches_backward():
    close(grad(cubic)(X), autograd_grad(cubic, X)[0])


def test_grad_argnums_and_pytrees():
    gw, gx = grad(loss, argnums=(0, 1))(W, XS[0], YS[0])
    rw, rx, _ = autograd_grad(loss, W, XS[0], YS[0])
    close(gw, rw)
    close(gx, rx)
    g = grad(lambda p: (p["a"] * p["b"]).sum())({"a": X, "b": X * 2})
    close(g["a"], X * 2)
    close(g["b"], X)


def test_grad_and_value_and_aux():
    g, v = grad_and_value(cubic)(X)
    close(v, cubic(X))
    g2, (_, aux) = grad_and_value(lambda x: (cubic(x), x.sum()), has_aux=True)(X)
    close(g2, g)
    close(aux, X.sum())
    assert not v.requires_grad and not g.requires_grad


def test_grad_does_not_touch_inputs():
    x = X.clone()
    grad(cubic)(x)
    assert not x.requires_grad and x.grad is None


@pytest.mark.parametrize("f,args,match", [
    (lambda x: x * 2, (X,), (r"Expected f\(\*args\) to return a scalar Tensor, got tensor with 1 dims. Maybe "
                             r"you wanted to use the vjp or jacrev APIs instead\?")),
    (lambda x: 3.0, (X,), r"Expected f\(\*args\) to return a Tensor"),
])
def test_grad_errors(f, args, match):
    with pytest.raises(RuntimeError, match=match):
        grad(f)(*args)


@pytest.mark.parametrize("argnums,match", [(2, r"Got argnum=2, but only 1 positional inputs"),
                                           ("a", r"argnums must be int or Tuple\[int, ...\]")])
def test_argnums_errors(argnums, match):
    with pytest.raises(RuntimeError, match=match):
        grad(cubic, argnums=argnums)(X)


def test_vjp():
    out, fn = vjp(lambda x: x.sin() * x, X)
    close(out, X.sin() * X)
    (ct,) = fn(O.ones(5, dtype=F64))
    close(ct, X.cos() * X + X.sin())
    with pytest.raises(RuntimeError, match=r"Mismatch in shape"):
        fn(O.ones(4, dtype=F64))


def test_jvp():
    t = O.randn(5, dtype=F64)
    out, tangent = jvp(lambda x: x.sin() * x, (X,), (t,))
    close(out, X.sin() * X)
    close(tangent, (X.cos() * X + X.sin()) * t)
    with pytest.raises(RuntimeError, match=r"Expected primals to be a tuple"):
        jvp(lambda x: x, X, t)


def test_jacobians():
    def f(x):
        return O.stack([x[0] * x[1], x.sin().sum(), x[2] ** 2])
    x = X[:3]
    want = np.array([[x[1].item(), x[0].item(), 0.0],
                     list(np.cos(x.numpy())),
                     [0.0, 0.0, 2 * x[2].item()]])
    close(jacrev(f)(x), O.from_numpy(want))
    close(jacfwd(f)(x), O.from_numpy(want))


def test_hessian():
    x = X
    want = np.diag(6 * x.numpy() - 2 * np.sin(x.numpy()))
    close(hessian(cubic)(x), O.from_numpy(want), tol=1e-8)


# --- composition with vmap ------------------------------------------------------------------------
def test_per_sample_gradients_match_a_loop():
    got = vmap(grad(loss), in_dims=(None, 0, 0))(W, XS, YS)
    want = O.stack([autograd_grad(loss, W, XS[i], YS[i])[0] for i in range(8)])
    close(got, want)


@pytest.mark.parametrize("product", [
    lambda xi, w: xi @ w,                                  # vector . vector: one bmm, dims dropped by a reshape
    lambda xi, w: O.dot(xi, w),
    lambda xi, w: (w.unsqueeze(0) @ xi.unsqueeze(1)).sum(),  # matrix . matrix
    lambda xi, w: (O.outer(w, w) @ xi).sum(),              # matrix . vector, the matrix batched (expanded w)
    lambda xi, w: (xi @ O.outer(w, xi)).sum(),             # vector . matrix, both batched
])
@pytest.mark.parametrize("reduce", [lambda v: v.mean(), lambda v: (v ** 2).mean(), lambda v: v.pow(3).sum()])
def test_per_sample_gradients_through_products_of_two_batched_operands(product, reduce):
    """``w`` is expanded per example inside ``grad``, so each product has both operands batched."""
    def f(w, xi, yi):
        return reduce(product(xi, w) - yi)
    got = vmap(grad(f), in_dims=(None, 0, 0))(W, XS, YS)
    want = O.stack([autograd_grad(f, W, XS[i], YS[i])[0] for i in range(8)])
    close(got, want)
    got_x = vmap(grad(f, argnums=1), in_dims=(None, 0, 0))(W, XS, YS)
    close(got_x, O.stack([autograd_grad(lambda x: f(W, x, YS[i]), XS[i])[0] for i in range(8)]))


def test_grad_of_vmap():
    got = grad(lambda w: vmap(loss, in_dims=(None, 0, 0))(w, XS, YS).sum())(W)
    want = autograd_grad(lambda w: sum(loss(w, XS[i], YS[i]) for i in range(8)), W)[0]
    close(got, want)


def test_vmap_of_grad_with_batched_input():
    got = vmap(grad(cubic))(XS)
    close(got, O.stack([autograd_grad(cubic, x)[0] for x in XS]))


def test_vmap_of_jacrev_and_jvp():
    got = vmap(jacrev(lambda x: x.sin() * x))(XS)
    want = O.stack([O.diag_embed(x.cos() * x + x.sin()) if hasattr(O, "diag_embed") else
                    O.from_numpy(np.diag((x.cos() * x + x.sin()).numpy())) for x in XS])
    close(got, want)
    t = O.ones(3, dtype=F64)
    _, tangents = vmap(lambda x: jvp(lambda y: y.sin() * y, (x,), (t,)))(XS)
    close(tangents, XS.cos() * XS + XS.sin())


class Net(O.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = O.nn.Linear(4, 8)
        self.fc2 = O.nn.Linear(8, 1)

    def forward(self, x):
        return self.fc2(self.fc1(x).tanh())


def test_per_sample_gradients_of_a_module():
    model = Net()
    params = {k: v.detach().double() for k, v in model.named_parameters()}
    xs, ys = O.randn(16, 4, dtype=F64), O.randn(16, dtype=F64)

    def sample_loss(p, x, y):
        out = functional_call(model, p, (x.unsqueeze(0),))
        return ((out.squeeze() - y) ** 2)

    got = vmap(grad(sample_loss), in_dims=(None, 0, 0))(params, xs, ys)
    for name in params:
        rows = []
        for i in range(16):
            leaves = {k: v.clone().requires_grad_(True) for k, v in params.items()}
            sample_loss(leaves, xs[i], ys[i]).backward()
            rows.append(leaves[name].grad)
        close(got[name], O.stack(rows))
    # the module's own parameters are back in place
    assert all(v.dtype == O.float32 for v in model.parameters())


def test_functional_call_errors_and_restore():
    model = Net()
    before = dict(model.named_parameters())
    with pytest.raises(AttributeError, match=r"has no parameter or buffer 'nope'"):
        functional_call(model, {"fc1.nope": O.zeros(1)}, (O.randn(1, 4),))
    with pytest.raises(AttributeError, match=r"has no submodule 'fc9'"):
        functional_call(model, {"fc9.weight": O.zeros(1)}, (O.randn(1, 4),))
    with pytest.raises(RuntimeError, match=r"Missing key\(s\): 'fc1.bias'"):
        functional_call(model, {"fc1.weight": O.zeros(8, 4)}, (O.randn(1, 4),), strict=True)
    with pytest.raises(ValueError, match=r"appeared in multiple dictionaries"):
        functional_call(model, [{"fc1.bias": O.zeros(8)}, {"fc1.bias": O.zeros(8)}], (O.randn(1, 4),))
    assert dict(model.named_parameters()) == before
    out = functional_call(model, {"fc2.bias": O.tensor([100.0])}, (O.zeros(1, 4),))
    assert out.item() > 90


# --- gradcheck(check_batched_grad=True) ------------------------------------------------------------
def test_gradcheck_batched_grad_passes():
    from opyard.autograd import gradcheck, gradgradcheck

    x = O.randn(4, 3, dtype=F64, requires_grad=True)
    w = O.randn(3, 2, dtype=F64, requires_grad=True)
    assert gradcheck(lambda x, w: (x @ w).sin(), (x, w), check_batched_grad=True)
    assert gradgradcheck(lambda x, w: (x @ w).sin(), (x, w), check_batched_grad=True)


class _DataBackward(O.autograd.Function):
    """A backward that reads its grad's data: correct alone, impossible to batch."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return O.from_numpy(g.numpy() * 2)


class _WrongBatchedBackward(O.autograd.Function):
    """A backward that answers differently for a batched grad (wrong under vmap)."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, g):
        return g if isinstance(g, O.func.BatchedTensor) else g * 2


@pytest.mark.parametrize("fn,match", [
    (_DataBackward, r"While computing batched gradients, got: Cannot access data pointer of Tensor that doesn't have storage"),
    (_WrongBatchedBackward, (r"For output 0 and input 0:\n\n\ngradcheck or gradgradcheck failed while "
                             r"testing batched gradient computation")),
])
def test_gradcheck_batched_grad_failures(fn, match):
    from opyard.autograd import GradcheckError, gradcheck

    x = O.randn(3, dtype=F64, requires_grad=True)
    assert gradcheck(fn.apply, (x,))  # the plain check passes
    with pytest.raises(GradcheckError, match=match):
        gradcheck(fn.apply, (x,), check_batched_grad=True)
    assert gradcheck(fn.apply, (x,), check_batched_grad=True, raise_exception=False) is False


@pytest.mark.parametrize("in_dims,out_dims", [(0, 0), (1, 1), (1, -1)])
def test_backward_through_vmap(in_dims, out_dims):
    x = O.randn(4, 3, dtype=F64)
    arg = (x if in_dims == 0 else x.t().contiguous()).requires_grad_(True)
    O.vmap(lambda r: r.sin() * r, in_dims=in_dims, out_dims=out_dims)(arg).sum().backward()
    want = x.cos() * x + x.sin()
    close(arg.grad, want if in_dims == 0 else want.t())


class _WrongBackward(O.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * x.cos() * 1.01  # 1% off


@pytest.mark.parametrize("fast_mode", [False, True])
def test_gradcheck_fast_mode(fast_mode):
    from opyard.autograd import GradcheckError, gradcheck, gradgradcheck

    x = O.randn(4, 3, dtype=F64, requires_grad=True)
    w = O.randn(3, 2, dtype=F64, requires_grad=True)
    assert gradcheck(lambda x, w: (x @ w).sin(), (x, w), fast_mode=fast_mode)
    assert gradgradcheck(lambda x, w: (x @ w).sin(), (x, w), fast_mode=fast_mode)
    match = r"computed in fast mode" if fast_mode else r"Jacobian mismatch for output 0 with respect to input 0"
    with pytest.raises(GradcheckError, match=match):
        gradcheck(_WrongBackward.apply, (x,), fast_mode=fast_mode)


def test_autograd_grad_inside_vmap_differentiates_per_example():
    x = O.tensor([[0.5, 1.0, 2.0], [1.5, -1.0, 0.25]], dtype=O.float64)
    # autograd.grad on batched tensors: the graph of the physical tensors, one gradient per example
    got = O.vmap(O.func.grad(lambda a: O.autograd.grad((a ** 3).sum(), a, create_graph=True)[0].sum()))(x)
    np.testing.assert_allclose(got.numpy(), 6 * x.numpy())
    w = O.tensor([1.0, 2.0, 3.0], dtype=O.float64, requires_grad=True)
    # As torch: inside vmap a batched output has no history of its own (no reverse level inside the vmap)
    with pytest.raises(RuntimeError, match=r"^element 0 of tensors does not require grad and does not have a "
                                           r"grad_fn$"):
        O.vmap(lambda r: O.autograd.grad((r * w).sum(), w))(x)
    # ...and inside vmap(grad(f)), a tensor shared by the examples is no tensor of the inner graph
    with pytest.raises(RuntimeError, match=r"^The differentiated Tensor at index 0 appears to not have been used"):
        O.vmap(O.func.grad(lambda r: O.autograd.grad((r * w).sum(), w, create_graph=True)[0].sum()))(x)
