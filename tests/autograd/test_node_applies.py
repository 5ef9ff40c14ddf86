"""The Rust backward applies of the hottest built-in formulas (``_core._NodeApply``) against
the Python applies they replace (their ``__wrapped__``) and numpy: gradients, saved tensors
freed or modified in place, double backward (grad mode on: the Python formula), hooks.
With the fast paths off (``OPYARD_FASTPATH=0``) the nodes keep their Python apply, and the
comparisons make the Rust apply for the node's class as the fast paths would.
"""

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard.autograd.graph import SavedTensor
from opyard.utils.python_dispatch import TorchDispatchMode


class Log(TorchDispatchMode):
    """Records the ops a block dispatches, in order."""

    def __init__(self):
        super().__init__()
        self.ops = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.ops.append(str(func))
        return func(*args, **(kwargs or {}))


def _rust_apply(node):
    """The Rust apply of ``node``'s class: the class's own, or one made for it (fast paths off)."""
    from opyard.autograd.derivatives._kernel_parts import rust_apply

    apply = type(node).apply
    if isinstance(apply, _core._NodeApply):
        return apply
    cls = type(node)
    return rust_apply(cls.formula, cls._save_names, apply, SavedTensor)


def _leaf(values, dtype=opyard.float32):
    return opyard.tensor(values, dtype=dtype, requires_grad=True)


def test_inplace_change_of_a_saved_tensor_raises():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    c = b.clone()
    y = (a * c).sum()
    with opyard.no_grad():
        c.add_(1)
    with pytest.raises(RuntimeError, match="one of the variables needed for gradient computation has "
                                           "been modified by an inplace operation"):
        y.backward()


def test_backward_twice_raises_and_retain_graph_allows_it():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    y = (a * b).sum()
    y.backward(retain_graph=True)
    y.backward()
    np.testing.assert_array_equal(a.grad.numpy(), [6.0, 8.0])
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        _ = y.grad_fn.next_functions[0][0]._saved_self


@pytest.mark.parametrize("make, second", [
    (lambda x: (x * x).sum(), 2.0),
    (lambda x: (x * 3.0 * x).sum(), 6.0),
    (lambda x: (-(x * x)).sum(), -2.0),
    (lambda x: ((x * x).clone() + x - x).sum(), 2.0),
    (lambda x: (x * x).mean() * 2.0, 2.0),
])
def test_double_backward_records_through_the_python_formula(make, second):
    x = _leaf([3.0, -1.0], opyard.float64)
    (g,) = opyard.autograd.grad(make(x), x, create_graph=True)
    assert g.grad_fn is not None
    (gg,) = opyard.autograd.grad(g.sum(), x)
    assert gg.tolist() == [second, second]


def test_sum_double_backward_expands_with_a_graph():
    x = _leaf([1.0, 2.0, 3.0])
    w = _leaf([2.0])
    (g,) = opyard.autograd.grad((x.sum() * w).sum(), x, create_graph=True)
    assert g.grad_fn is not None
    g.sum().backward()
    assert w.grad.tolist() == [3.0]


def test_hooks_run_around_the_rust_apply():
    x = _leaf([1.0, 2.0])
    y = x * 2
    seen = []
    y.register_hook(lambda g: seen.append(("tensor", g.tolist())) or g * 10)
    s = y.sum()
    s.grad_fn.register_prehook(lambda gout: seen.append(("pre", gout[0].tolist())))
    s.grad_fn.register_hook(lambda gin, gout: seen.append(("post", gin[0].tolist())))
    s.backward()
    assert seen == [("pre", 1.0), ("post", [1.0, 1.0]), ("tensor", [1.0, 1.0])]
    assert x.grad.tolist() == [20.0, 20.0]


@pytest.mark.parametrize("make, kind", [
    (lambda a, b: a.sum(), "SumAll"), (lambda a, b: a.mean(), "MeanAll"), (lambda a, b: -a, "Neg"), (lambda a, b: a.clone(), "Identity"),
    (lambda a, b: a + 2.0, "Add"), (lambda a, b: opyard.sub(a, 2.0), "Sub"),
    (lambda a, b: opyard.ops.aten.add.Scalar(a, 2.0), "Identity"), (lambda a, b: opyard.ops.aten.sub.Scalar(a, 2.0), "Identity"),
    (lambda a, b: opyard.add(a, b, alpha=2), "Add"), (lambda a, b: opyard.sub(a, b, alpha=2), "Sub"),
    (lambda a, b: a - b, "Sub"), (lambda a, b: a * b, "Mul"), (lambda a, b: a * 1.5, "Mul"),
    (lambda a, b: opyard.ops.aten.mul.Scalar(a, 1.5), "ByOther"), (lambda a, b: a / 4.0, "Div"),
    (lambda a, b: a / b.detach(), "Div"), (lambda a, b: opyard.ops.aten.div.Scalar(a, 4.0), "ByOther"),
    (lambda a, b: a.exp(), "Result(Exp)"),
    (lambda a, b: a.tanh(), "Result(Tanh)"), (lambda a, b: a.sigmoid(), "Result(Sigmoid)"),
    (lambda a, b: (a - 1.5).relu(), "Result(Relu)"),
])
def test_rust_apply_matches_the_python_apply(make, kind):
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, -4.0])
    node = make(a, b).grad_fn
    apply = _rust_apply(node)
    assert repr(apply) == f"<_NodeApply {kind}>"
    g = opyard.tensor(2.0) if kind in ("SumAll", "MeanAll") else opyard.tensor([2.0, 0.5])
    with opyard.no_grad():
        fast, slow = apply(node, [g]), apply.__wrapped__(node, [g])
        none_fast, none_slow = apply(node, [None]), apply.__wrapped__(node, [None])
    assert [None if r is None else r.tolist() for r in fast] == [None if r is None else r.tolist() for r in slow]
    assert tuple(none_fast) == tuple(none_slow)


def test_mul_apply_only_computes_the_needed_gradient():
    a = _leaf([1.0, 2.0])
    node = (a * opyard.tensor([3.0, 4.0])).grad_fn
    with opyard.no_grad():
        ga, gb = node.apply([opyard.tensor([1.0, 1.0])])
    assert ga.tolist() == [3.0, 4.0] and gb is None


def test_rust_apply_under_grad_mode_is_the_python_formula():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    node = (a * b).grad_fn
    g = opyard.tensor([1.0, 1.0], requires_grad=True)
    ga, _ = node.apply([g])  # grad mode on: the Python apply, which records
    assert ga.grad_fn.name() == "MulBackward0"


def test_node_apply_errors():
    with pytest.raises(ValueError, match="no Rust apply for 'bogus'"):
        _core._NodeApply("bogus", lambda n, g: g, [], SavedTensor)
    with pytest.raises(ValueError, match="expected 1 op"):
        _core._NodeApply("sum", lambda n, g: g, [], SavedTensor)
    assert set(_core._NodeApply.kinds()) == {"sum", "mean", "neg", "clone", "identity", "add", "sub", "mul", "div",
                                             "mul_scalar", "div_scalar", "mul_result", "tanh", "sigmoid",
                                             "relu", "mm", "addmm", "bmm", "pow_scalar", "unsqueeze",
                                             "reshape", "mean_dim"}
    # Unusual arguments reach the Python apply, which reports them.
    node = (_leaf([1.0]) * 2).grad_fn
    with opyard.no_grad(), pytest.raises(TypeError):
        type(node).apply(node)


def test_rust_apply_rejects_a_formula_reading_other_saved_names():
    from opyard.autograd.derivatives._kernel_parts import rust_apply
    from opyard.autograd.derivatives.registry import Formula
    f = Formula("WeirdBackward0", ("self",), lambda g, a, n: g, rust_apply="add")
    with pytest.raises(ValueError, match="reads the saved values"):
        rust_apply(f, ("self", "beta"), None, SavedTensor)


def test_exp_apply_checks_its_saved_result():
    x = _leaf([0.0, 1.0], opyard.float64)
    y = x.exp()
    (y / 2.0).sum().backward(retain_graph=True)
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.0, 1.0]) / 2.0)
    with opyard.no_grad():
        y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.sum().backward()
    z = x.exp()
    z.sum().backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        z.sum().backward()


@pytest.mark.parametrize("make", [
    lambda a: a.sum(), lambda a: a.mean(), lambda a: -a, lambda a: opyard.sub(a, a, alpha=2),
    lambda a: a * a, lambda a: a / 3.0, lambda a: a.exp(), lambda a: a.tanh(), lambda a: a.sigmoid(),
    lambda a: a.relu(),
])
def test_rust_apply_calls_the_ops_of_the_python_apply_in_order(make):
    a = _leaf([0.5, -1.0])
    node = make(a).grad_fn
    g = opyard.ones(()) if node.name() in ("SumBackward0", "MeanBackward0") else opyard.ones(2)
    logs = []
    for apply in (_rust_apply(node), _rust_apply(node).__wrapped__):
        with opyard.no_grad(), Log() as log:
            out = apply(node, [g])
        logs.append((log.ops, [None if o is None else o.tolist() for o in out]))
    assert logs[0] == logs[1]


@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
def test_mm_apply_matches_the_python_apply(needs):
    x = opyard.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=needs[0])
    w = opyard.tensor([[0.5, -1.0], [2.0, 0.0], [1.0, 1.5]], requires_grad=needs[1])
    node = x.mm(w).grad_fn
    assert repr(_rust_apply(node)) == "<_NodeApply Mm>"
    g = opyard.tensor([[1.0, -2.0], [0.5, 3.0]])
    logs = []
    for apply in (_rust_apply(node), _rust_apply(node).__wrapped__):
        with opyard.no_grad(), Log() as log:
            out = apply(node, [g])
        logs.append((log.ops, [None if o is None else o.tolist() for o in out]))
    assert logs[0] == logs[1]
    if needs[0]:
        np.testing.assert_allclose(logs[0][1][0], g.numpy() @ w.detach().numpy().T)
    if needs[1]:
        np.testing.assert_allclose(logs[0][1][1], x.detach().numpy().T @ g.numpy())


@pytest.mark.parametrize("needs", [(True, True, True), (False, True, False), (True, False, True)])
@pytest.mark.parametrize("scales", [{}, {"beta": 0.5, "alpha": 2.0}])
def test_addmm_apply_matches_the_python_apply(needs, scales):
    b = opyard.tensor([1.0, -1.0], requires_grad=needs[0])
    x = opyard.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=needs[1])
    w = opyard.tensor([[0.5, -1.0], [2.0, 0.0], [1.0, 1.5]], requires_grad=needs[2])
    node = opyard.addmm(b, x, w, **scales).grad_fn
    assert repr(_rust_apply(node)) == "<_NodeApply Addmm>"
    g = opyard.tensor([[1.0, -2.0], [0.5, 3.0]])
    logs = []
    for apply in (_rust_apply(node), _rust_apply(node).__wrapped__):
        with opyard.no_grad(), Log() as log:
            out = apply(node, [g])
        logs.append((log.ops, [None if o is None else o.tolist() for o in out]))
    assert logs[0] == logs[1]
    alpha = scales.get("alpha", 1.0)
    if needs[1]:
        np.testing.assert_allclose(logs[0][1][1], g.numpy() @ w.detach().numpy().T * alpha)
    opyard.addmm(b, x, w, **scales).sum().backward()
    if needs[0]:
        assert b.grad.tolist() == [2.0 * scales.get("beta", 1.0)] * 2


def _same_as_python(node, g):
    """The Rust apply's ops (in order) and gradients against the Python apply's; returns the gradients."""
    logs = []
    for apply in (_rust_apply(node), _rust_apply(node).__wrapped__):
        with opyard.no_grad(), Log() as log:
            out = apply(node, [g])
        logs.append((log.ops, [None if o is None else (str(o.tolist()), o.dtype, tuple(o.shape)) for o in out]))
        with opyard.no_grad():
            assert tuple(apply(node, [None])) == (None,) * len(node.next_functions)
    assert logs[0] == logs[1]
    return logs[0][1]


@pytest.mark.parametrize("make, kind", [
    (lambda a: a.unsqueeze(1), "Unsqueeze"), (lambda a: a.unsqueeze(-1), "Unsqueeze"),
    (lambda a: a.unsqueeze(0).squeeze(), "ReshapeBack"), (lambda a: a.unsqueeze(2).squeeze(-1), "ReshapeBack"),
    (lambda a: a.unsqueeze(0).unsqueeze(-1).squeeze([0, -1]), "ReshapeBack"),
    (lambda a: a.view(3, 2), "ReshapeBack"), (lambda a: a.reshape(-1), "ReshapeBack"),
    (lambda a: a.t().reshape(6), "ReshapeBack"),
    (lambda a: a.mean([1]), "MeanDim"), (lambda a: a.mean(-1, keepdim=True), "MeanDim"),
    (lambda a: a.mean([0, -1]), "MeanDim"), (lambda a: a.mean([]), "MeanDim"), (lambda a: a.mean(0), "MeanDim"),
    (lambda a: a.mean([1, 0], keepdim=True), "MeanDim"), (lambda a: a[0, 0].mean([0]), "MeanDim"),
    (lambda a: a ** 2, "PowScalar"), (lambda a: a ** 3, "PowScalar"), (lambda a: a ** -1, "PowScalar"),
    (lambda a: a ** 2.5, "PowScalar"), (lambda a: a ** 0, "PowScalar"), (lambda a: a ** 0.0, "PowScalar"),
    (lambda a: a ** 0.5, "PowScalar"), (lambda a: a ** True, "PowScalar"),
])
def test_view_reduction_and_pow_applies_match_the_python_apply(make, kind):
    a = opyard.tensor([[1.0, 2.0, 0.5], [4.0, -3.0, 0.25]], dtype=opyard.float64, requires_grad=True)
    out = make(a)
    node = out.grad_fn
    assert repr(_rust_apply(node)) == f"<_NodeApply {kind}>"
    g = opyard.full(out.shape, 1.5, dtype=opyard.float64)
    _same_as_python(node, g)


@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
def test_bmm_apply_matches_the_python_apply_and_numpy(needs):
    rng = np.random.default_rng(0)
    xs, ws = rng.standard_normal((3, 2, 4)), rng.standard_normal((3, 4, 5))
    x = opyard.tensor(xs, requires_grad=needs[0])
    w = opyard.tensor(ws, requires_grad=needs[1])
    node = opyard.bmm(x, w).grad_fn
    assert repr(_rust_apply(node)) == "<_NodeApply Bmm>"
    g = rng.standard_normal((3, 2, 5))
    _same_as_python(node, opyard.tensor(g))
    with opyard.no_grad():
        gx, gw = _rust_apply(node)(node, [opyard.tensor(g)])
    if needs[0]:
        np.testing.assert_allclose(gx.numpy(), g @ ws.transpose(0, 2, 1))
    if needs[1]:
        np.testing.assert_allclose(gw.numpy(), xs.transpose(0, 2, 1) @ g)


def test_pow_apply_checks_its_saved_self():
    x = _leaf([1.0, 2.0], opyard.float64)
    y = x.clone()
    z = (y ** 3).sum()
    with opyard.no_grad():
        y.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        z.backward()
    (x ** 3).sum().backward()
    assert x.grad.tolist() == [3.0, 12.0]


def test_mean_dim_and_bmm_gradients_by_gradcheck():
    from opyard.autograd import gradcheck
    rng = np.random.default_rng(1)
    a = opyard.tensor(rng.standard_normal((2, 3, 4)), requires_grad=True)
    b = opyard.tensor(rng.standard_normal((2, 4, 2)), requires_grad=True)
    assert gradcheck(lambda a, b: (opyard.bmm(a, b) ** 2).mean([0, 2]).unsqueeze(0).squeeze(0), (a, b))
