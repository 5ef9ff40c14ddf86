"""Forward-mode ``opyard.func`` transforms (``jvp``, ``jacfwd``, ``hessian``), checked in float64 against
the reverse-mode results (``vjp``, ``jacrev``) and Python loops, alone and composed with ``vmap``."""

import numpy as np
import opyard as O
import pytest
from opyard.autograd import Function
from opyard.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

F64 = O.float64
O.manual_seed(1)
X = O.randn(4, dtype=F64)
Y = O.randn(4, dtype=F64)
XS = O.randn(6, 4, dtype=F64)


def close(a, b, tol=1e-10):
    assert tuple(a.shape) == tuple(b.shape), (a.shape, b.shape)
    np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), atol=tol, rtol=tol)


def diag(v):
    return O.from_numpy(np.diag(v.numpy()))


FUNCS = {
    "pointwise": lambda x: x.sin() * x + x.exp() / 3,
    "reduction": lambda x: (x ** 2).sum() + x.amax(0),
    "matmul": lambda x: O.outer(x, x) @ x,
    "shape ops": lambda x: x.reshape(2, 2).t().flatten()[1:] * x[0],
    "broadcast": lambda x: (x.unsqueeze(1) * x.unsqueeze(0)).mean(1),
}


def reverse_jvp(f, x, t):
    """``J t`` from reverse mode: the Jacobian by ``jacrev``, then a matrix-vector product."""
    jac = jacrev(f)(x)
    out_shape = tuple(f(x).shape)
    return (jac.reshape(-1, x.numel()) @ t.reshape(-1)).reshape(out_shape)


@pytest.mark.parametrize("name", list(FUNCS))
def test_jvp_matches_reverse_mode(name):
    f = FUNCS[name]
    t = O.randn(4, dtype=F64)
    out, tangent = jvp(f, (X,), (t,))
    close(out, f(X))
    close(tangent, reverse_jvp(f, X, t))


@pytest.mark.parametrize("name", list(FUNCS))
def test_jacfwd_matches_jacrev(name):
    close(jacfwd(FUNCS[name])(X), jacrev(FUNCS[name])(X))


def test_jvp_is_forward_mode():
    """A Function with a ``jvp`` and no usable ``backward`` differentiates under ``jvp``/``jacfwd``
    only if they push tangents forward."""
    class Cube(Function):
        generate_vmap_rule = True  # jacfwd vmaps it

        @staticmethod
        def forward(x):
            return x ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_forward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            raise AssertionError("reverse mode used")

        @staticmethod
        def jvp(ctx, t):
            (x,) = ctx.saved_tensors
            return 3 * x ** 2 * t

    t = O.randn(4, dtype=F64)
    _, tangent = jvp(Cube.apply, (X,), (t,))
    close(tangent, 3 * X ** 2 * t)
    close(jacfwd(Cube.apply)(X), diag(3 * X ** 2))


def test_jvp_several_primals_pytrees_and_outputs():
    def f(p, y):
        return {"a": p["w"] * y, "b": (p["w"].sin() * p["v"]).sum()}
    p = {"w": X, "v": Y}
    tp = {"w": O.randn(4, dtype=F64), "v": O.randn(4, dtype=F64)}
    ty = O.randn(4, dtype=F64)
    out, tangent = jvp(f, (p, Y), (tp, ty))
    close(out["a"], X * Y)
    close(tangent["a"], tp["w"] * Y + X * ty)
    close(tangent["b"], (X.cos() * tp["w"] * Y + X.sin() * tp["v"]).sum())


def test_jvp_of_an_output_that_ignores_the_primals_is_zero():
    out, tangent = jvp(lambda x: O.ones(3, dtype=F64), (X,), (Y,))
    close(tangent, O.zeros(3, dtype=F64))


def test_jvp_has_aux():
    out, tangent, aux = jvp(lambda x: (x.sin(), x.sum()), (X,), (Y,), has_aux=True)
    close(tangent, X.cos() * Y)
    close(aux, X.sum())


def test_jacfwd_argnums_and_several_outputs():
    def f(x, y):
        return x * y.sin(), (x @ y).exp()
    (j_xx, j_xy), (j_sx, j_sy) = jacfwd(f, argnums=(0, 1))(X, Y)
    close(j_xx, diag(Y.sin()))
    close(j_xy, diag(X * Y.cos()))
    close(j_sx, (X @ Y).exp() * Y)
    close(j_sy, (X @ Y).exp() * X)
    close(jacfwd(lambda x, y: x * y.sin(), argnums=1)(X, Y), jacrev(lambda x, y: x * y.sin(), argnums=1)(X, Y))


def test_jacfwd_of_a_dict_input():
    got = jacfwd(lambda p: p["w"] * p["b"])({"w": X, "b": Y})
    close(got["w"], diag(Y))
    close(got["b"], diag(X))


def test_hessian_matches_reverse_over_reverse():
    f = FUNCS["reduction"]
    close(hessian(lambda x: (x ** 3 + x.sin() * x[0]).sum())(X),
          jacrev(jacrev(lambda x: (x ** 3 + x.sin() * x[0]).sum()))(X))
    close(hessian(lambda x: f(x) * x[1])(X), jacrev(jacrev(lambda x: f(x) * x[1]))(X))


# --- composition with vmap ------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(FUNCS))
def test_vmap_of_jvp_matches_a_loop(name):
    f = FUNCS[name]
    ts = O.randn(6, 4, dtype=F64)
    outs, tangents = vmap(lambda x, t: jvp(f, (x,), (t,)))(XS, ts)
    for i in range(6):
        out, tangent = jvp(f, (XS[i],), (ts[i],))
        close(outs[i], out)
        close(tangents[i], tangent)


def test_vmap_of_jvp_with_an_unbatched_primal_or_tangent():
    f = FUNCS["pointwise"]
    _, by_tangent = vmap(lambda t: jvp(f, (X,), (t,)))(XS)
    _, by_primal = vmap(lambda x: jvp(f, (x,), (Y,)))(XS)
    for i in range(6):
        close(by_tangent[i], jvp(f, (X,), (XS[i],))[1])
        close(by_primal[i], jvp(f, (XS[i],), (Y,))[1])


def test_vmap_of_jacfwd_matches_a_loop_of_jacrev():
    f = FUNCS["matmul"]
    got = vmap(jacfwd(f))(XS)
    close(got, O.stack([jacrev(f)(x) for x in XS]))


def test_grad_of_jvp_differentiates_the_tangent():
    """Reverse over forward: the tangent (cos(x) * t) depends on the primals through the formula."""
    close(grad(lambda x: jvp(O.sin, (x,), (Y,))[1].sum())(X), -X.sin() * Y)
    x = X.detach().requires_grad_(True)
    with O.no_grad():  # primals that require grad outside any recording: a plain tangent
        out = jvp(O.sin, (x,), (Y,))[1]
    close(out, X.cos() * Y)
    assert not out.requires_grad


def test_forward_matches_vjp_transpose():
    """<J t, u> == <t, J^T u> for random t, u."""
    f = FUNCS["broadcast"]
    t, u = O.randn(4, dtype=F64), O.randn(4, dtype=F64)
    _, jt = jvp(f, (X,), (t,))
    _, fn = vjp(f, X)
    (jtu,) = fn(u)
    assert abs((jt * u).sum().item() - (t * jtu).sum().item()) < 1e-10


# --- errors ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, exc, match", [
    (lambda: jvp(O.sin, [X], (Y,)), RuntimeError, r"Expected primals to be a tuple\. E\.g\. it should be valid"),
    (lambda: jvp(O.sin, (X,), [Y]), RuntimeError, r"Expected primals and tangents to have the same python structure"),
    (lambda: jvp(O.sin, (X,), (Y, Y)), RuntimeError, r"same python structure.*Got primals with structure"),
    (lambda: jvp(O.sin, (X,), (O.ones(3, dtype=F64),)), RuntimeError,
     r"Tensor is of size \[4\] while the given forward gradient is of size \[3\]"),
    (lambda: jvp(O.sin, (3.0,), (1.0,)), RuntimeError, r"Expected primals to only contain Tensors"),
    (lambda: jvp(O.sin, (X,), (1.0,)), RuntimeError, r"Expected tangents to only contain Tensors"),
    (lambda: jvp(O.neg, (O.ones(2, dtype=O.int64),), (O.ones(2, dtype=O.int64),)), ValueError,
     r"Expected primal to be floating point or complex, but got: .*int64"),
    (lambda: jvp(lambda x: 3, (X,), (Y,)), RuntimeError,
     r"expected f\(\*primals\) to return only tensors, got unsupported type <class 'int'>"),
    (lambda: jvp(lambda x: x, (X,), (Y,), has_aux=True), RuntimeError, r"should be a tuple: \(output, aux\)"),
    (lambda: jacfwd(O.sin, argnums=2)(X), RuntimeError, r"Got argnum=2, but only 1 positional inputs"),
])
def test_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_a_failed_jvp_leaves_no_dual_level_behind():
    with pytest.raises(ZeroDivisionError):
        jvp(lambda x: 1 / 0, (X,), (Y,))
    close(jvp(O.sin, (X,), (Y,))[1], X.cos() * Y)


def test_linearize_tangent_map_is_linear_at_the_fixed_primal():
    # jvp_fn is the linear map at the given primal: differentiating through it follows the tangent
    # only (d/da [cos(p) * a] = cos(p)), and under vmap it maps as any function.
    from opyard.func import linearize
    out, jvp_fn = linearize(O.sin, X)
    close(out, X.sin())
    close(grad(lambda t: jvp_fn(t).sum())(Y), X.cos())
    close(vmap(lambda p: linearize(O.sin, p)[1](p))(XS), XS.cos() * XS)
    close(grad(lambda a: linearize(O.sin, a)[1](a).sum())(X), X.cos())


Z = X * (1 + 1j)
C1 = O.ones(4, dtype=O.complex128)


W = Z.numpy()


# torch 2.15's answers (complex gradients are conjugate Wirtinger derivatives): d|a|^2 = 2a, the
# vjp of a * c is conj(c) * v, and a real input keeps the real part.
@pytest.mark.parametrize("call, want", [
    (lambda: grad(lambda a: (a * a).abs().sum())(Z), 2 * W),
    (lambda: vjp(lambda a: a * 2, Z)[1](C1)[0], np.full(4, 2 + 0j)),
    (lambda: vjp(lambda a: a * (1 + 1j), X)[1](C1)[0], np.ones(4)),
    (lambda: vmap(grad(lambda a: (a * a).abs().sum()))(Z[None]), 2 * W[None]),
    (lambda: O.autograd.functional.vjp(lambda a: a * (1 + 1j), X, C1)[1], np.ones(4)),
], ids=["grad input", "vjp input", "vjp output", "vmap of grad", "af.vjp output"])
def test_reverse_mode_through_complex(call, want):
    got = call()
    assert got.dtype == (O.complex128 if np.iscomplexobj(want) else O.float64)
    np.testing.assert_allclose(got.numpy(), want)


@pytest.mark.parametrize("call", [
    lambda: O.autograd.functional.jacobian(lambda a: a * a, Z),
    lambda: O.autograd.functional.hessian(lambda a: (a * a).abs().sum(), Z),
], ids=["af.jacobian", "af.hessian"])
def test_implicit_gradient_of_a_complex_output_is_refused_as_torch(call):
    with pytest.raises(RuntimeError, match=r"^grad can be implicitly created only for real scalar outputs but got "
                                           r"opyard\.complex128$"):
        call()


def test_forward_mode_differentiates_complex():
    out, tangent = jvp(lambda a: a * a, (Z,), (Z,))
    np.testing.assert_allclose(out.numpy(), Z.numpy() ** 2)
    np.testing.assert_allclose(tangent.numpy(), 2 * Z.numpy() ** 2)
    with pytest.raises(RuntimeError, match=r"^grad can be implicitly created only for real scalar outputs but got "
                                           r"opyard\.complex128$"):
        grad(lambda a: (a * 1j).sum())(X)
