"""``opyard.func.functionalize``: the traced program has no mutation (but the final ``copy_`` into the
inputs it writes) and, with ``remove="mutations_and_views"``, no view; results and inputs equal eager
ones; composition with the other transforms. torch's values, errors and traced operators for the same
programs are in ``tests/data/func_cases.py`` (``test_torch_cases.py``)."""

import numpy as np
import opyard as O
import pytest
from opyard.fx import make_fx

F = O.func


def _ops(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function" and hasattr(n.target, "_schema")]


def _mutating(op):
    return op._schema.is_mutable


def _aliasing(op):
    returns = op._schema.returns
    return bool(returns) and returns[0].alias_info is not None and not op._schema.is_mutable


def _writes_through_views(a):
    a[1:].mul_(2.0)
    v = a.view(2, 3)
    v[0, 1:].add_(v[1, :2])
    v.t()[2].zero_()
    a.diagonal() if a.dim() == 2 else a.unsqueeze(0).squeeze(0).sub_(0.5)
    return a.sum() + v[1].sum()


def _fresh_buffers(a):
    out = O.zeros(3, 2, dtype=a.dtype)
    out[:, 0] = a[:3]
    out[1:, 1].copy_(a[3:5] * 2)
    out.unbind(0)[0].fill_(7.0)
    torch_out = O.empty(3, dtype=a.dtype)
    O.sin(a[:3], out=torch_out)
    return out, torch_out


def _index_put(a):
    b = a.clone()
    b.index_put_((O.tensor([0, 4]),), a[1:3] ** 2, accumulate=True)
    b.masked_fill_(b > 2.0, 0.0)
    return b


PROGRAMS = [_writes_through_views, _fresh_buffers, _index_put]


def _data():
    return O.tensor(np.linspace(-1.0, 2.5, 6), dtype=O.float64)


@pytest.mark.parametrize("remove", ["mutations", "mutations_and_views"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_results_and_inputs_equal_eager(program, remove):
    x_eager, x_func = _data(), _data()
    want = program(x_eager)
    got = F.functionalize(program, remove=remove)(x_func)
    for g, w in zip(O.utils._pytree.tree_flatten(got)[0], O.utils._pytree.tree_flatten(want)[0]):
        np.testing.assert_allclose(g.numpy(), w.numpy())
    np.testing.assert_allclose(x_func.numpy(), x_eager.numpy())


@pytest.mark.parametrize("remove", ["mutations", "mutations_and_views"])
@pytest.mark.parametrize("program", PROGRAMS, ids=lambda f: f.__name__)
def test_traced_program_has_no_mutation(program, remove):
    gm = make_fx(F.functionalize(program, remove=remove))(_data())
    ops = _ops(gm)
    writes = [op for op in ops if _mutating(op)]
    mutates_input = program is _writes_through_views
    assert writes == ([O.ops.aten.copy_.default] if mutates_input else []), writes
    if mutates_input:
        assert ops[-1] == O.ops.aten.copy_.default  # the input, written once at the end
    views = [op for op in ops if _aliasing(op)]
    if remove == "mutations_and_views":
        assert views == [], views
    else:
        assert views, "the views of the program stay (remove='mutations')"
    # the graph recomputes the eager result on fresh inputs
    x, y = _data(), _data()
    want = program(x)
    got = gm(y)
    np.testing.assert_allclose(O.utils._pytree.tree_flatten(got)[0][0].numpy(),
                               O.utils._pytree.tree_flatten(want)[0][0].numpy())
    np.testing.assert_allclose(y.numpy(), x.numpy())


def test_view_output_aliases_input_until_written():
    x = _data()
    out = F.functionalize(lambda a: a.view(2, 3))(x)
    assert out._base is x
    out = F.functionalize(lambda a: a.add_(1.0))(x)
    assert out is not x and out._base is None


def test_functional_tensor_reads_its_current_value():
    seen = []

    def f(a):
        v = a[1:3]
        a.mul_(10.0)
        seen.append((v.tolist(), float(v.sum()), bool(v[0] > 0), repr(v).startswith("FunctionalTensor")))
        return v

    out = F.functionalize(f)(O.tensor([1.0, 2.0, 3.0]))
    assert seen == [([20.0, 30.0], 50.0, True, True)]
    assert out.tolist() == [20.0, 30.0]


def test_version_counter_and_views_for_autograd():
    x = O.tensor([1.0, 2.0, 3.0, 4.0], dtype=O.float64, requires_grad=True)

    def f(a):
        b = a * 1
        b[1:3].mul_(a[:2])  # a write into a view of an intermediate: CopySlices at autograd's level
        return (b ** 2).sum()

    got = O.autograd.grad(F.functionalize(f)(x), x)[0]
    want = O.autograd.grad(f(x), x)[0]
    np.testing.assert_allclose(got.numpy(), want.numpy())
    assert type(got) is O.Tensor


@pytest.mark.parametrize("chain", [
    lambda f: F.grad(F.functionalize(f)),
    lambda f: F.functionalize(F.grad(f)),
    lambda f: F.jacrev(F.functionalize(f, remove="mutations_and_views")),
    lambda f: (lambda a: F.jvp(F.functionalize(F.grad(f)), (a,), (O.ones_like(a),))[1]),
    lambda f: (lambda a: F.hessian(F.functionalize(f))(a).sum(0)),
    lambda f: (lambda a: F.vmap(F.grad(F.functionalize(f)))(O.stack([a, a * 2]))[1]),
])
def test_compositions_against_eager_derivatives(chain):
    def f(a):
        b = a.exp()
        b.masked_fill_(a > 0.9, 0.0)  # the saved result of exp is written: Note [Saved functional tensors]
        b[:2].mul_(a[1:])
        return (b * a).sum()

    def g(a):  # the same function, out of place
        b = a.exp().masked_fill(a > 0.9, 0.0)
        b = O.cat([b[:2] * a[1:], b[2:]])
        return (b * a).sum()

    a = O.tensor([0.3, 0.7, 1.2], dtype=O.float64)
    np.testing.assert_allclose(chain(f)(a).numpy(), chain(g)(a).numpy(), rtol=1e-12)


def test_captured_parameters_get_plain_gradients():
    x = O.tensor(np.linspace(-1.0, 1.0, 12).reshape(4, 3), dtype=O.float64)
    model = O.nn.Linear(3, 2, dtype=O.float64)

    def loss(a):
        h = model(a)
        h[:, :1].mul_(3.0)
        return h.relu().sum()

    loss(x).backward()
    want = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    F.functionalize(loss)(x).backward()
    for p, w in zip(model.parameters(), want):
        assert type(p.grad) is O.Tensor
        np.testing.assert_allclose(p.grad.numpy(), w.numpy())


def test_errors():
    with pytest.raises(RuntimeError, match=r"received invalid argument for remove=views\. Valid options are:"):
        F.functionalize(lambda a: a, remove="views")
    c = O.zeros(3)
    with pytest.raises(RuntimeError, match=r"^mutating a non-functional tensor with a functional tensor is not "
                                           r"allowed"):
        F.functionalize(lambda a: c.add_(a))(O.ones(3))
    with pytest.raises(RuntimeError, match=r"no inverse of that view is known"):
        F.functionalize(lambda a: a.expand(2, 3).add_(1.0))(O.ones(3))
