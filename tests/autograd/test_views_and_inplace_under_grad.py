"""Views and in-place ops under grad through the Rust Autograd kernel: the node, ``_base``, the
version counter and the view's replay from its base (Note [View replay], src/python/autograd/view_replay.rs),
in-place ops on non-leaves (Note [In-place ops in the Rust kernel], src/python/autograd/kernel/mod.rs), the
error paths, and gradients (gradcheck in float64, double backward, torch's values).
"""

import re

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard.autograd.derivatives import formula
from opyard.autograd.derivatives.registry import make_kernel


# --- with grad: the Rust Autograd kernel of a view op (Note [View replay], src/python/autograd/view_replay.rs) ---


A = opyard.ops.aten

GRAD_VIEWS = [
    ("ViewBackward0", lambda t: t.view(-1)), ("ViewBackward0", lambda t: t.view(4, 3)),
    ("TBackward0", lambda t: t.t()), ("TransposeBackward0", lambda t: t.transpose(0, 1)),
    ("PermuteBackward0", lambda t: t.permute(1, 0)), ("UnsqueezeBackward0", lambda t: t.unsqueeze(0)),
    ("SelectBackward0", lambda t: t[1]), ("SelectBackward0", lambda t: t[:, 2]),
    ("SliceBackward0", lambda t: t[1:]), ("ExpandBackward0", lambda t: t[:1].expand(5, 4)),
    ("SliceBackward0", lambda t: t.narrow(1, 1, 2)),
]


@pytest.mark.parametrize("name, fn", GRAD_VIEWS)
def test_grad_views_record_node_base_and_replay(name, fn):
    x = opyard.randn(3, 4, requires_grad=True)
    y = fn(x)
    assert type(y.grad_fn).__name__ == name and y.requires_grad and not y.is_leaf
    assert y._base is x and y._version == x._version
    # The Rust autograd kernel records a ``_ViewReplay``; the general kernel (OPYARD_FASTPATH=0) a
    # Python replay of the same view.
    assert isinstance(y._view_fn, _core._ViewReplay) if _core.FAST_PATHS else callable(y._view_fn)
    other = opyard.randn(3, 4)
    with opyard.no_grad():
        replayed = y._view_fn(other)
        assert np.array_equal(replayed.numpy(), fn(other).numpy())
    x2 = x.detach().clone().requires_grad_()
    y.sum().backward()
    fn(x2).sum().backward()
    assert np.array_equal(x.grad.numpy(), x2.grad.numpy())


def test_replays_compose_along_a_chain_of_views():
    x = opyard.arange(12.0).requires_grad_()
    y = (x * 1).view(3, 4)[1:].t()[0]
    assert y._base is not None and y._base.grad_fn is not None and y._base._base is None
    base = opyard.arange(100.0, 112.0)
    with opyard.no_grad():
        assert y._view_fn(base).tolist() == [104.0, 108.0]


@pytest.mark.parametrize("op, name, args", [
    (A.view.default, "aten::view", ([-1],)), (A.t.default, "aten::t", ()),
    (A.select.int, "aten::select.int", (0, 1)), (A.slice.Tensor, "aten::slice.Tensor", (1, 1, 3)),
    (A.expand.default, "aten::expand", ([2, 3, 4],)),
])
def test_rust_and_python_autograd_kernels_agree(op, name, args):
    rust = make_kernel(op, formula(name))
    py = make_kernel(op, formula(name), rust=False)
    assert isinstance(rust, _core._PlainAutogradKernel) and not isinstance(py, _core._PlainAutogradKernel)
    x = opyard.randn(3, 4, requires_grad=True)
    a, b = rust(None, x, *args), py(None, x, *args)
    assert type(a.grad_fn).__name__ == type(b.grad_fn).__name__ and a._base is b._base is x
    assert a.stride() == b.stride() and a.storage_offset() == b.storage_offset()
    other = opyard.randn(3, 4)
    with opyard.no_grad():
        assert np.array_equal(a._view_fn(other).numpy(), b._view_fn(other).numpy())


def test_in_place_on_a_view_of_a_leaf_is_refused():
    x = opyard.ones(4, requires_grad=True)
    for v in (x[1:3], x.view(2, 2), x[0], x.t()):
        with pytest.raises(RuntimeError, match=re.escape(
                "a view of a leaf Variable that requires grad is being used in an in-place operation.")):
            v.mul_(2)


def test_in_place_on_a_view_rebases_history():
    x = opyard.arange(4.0).requires_grad_()
    y = x * 1
    v = y[1:3]
    before = y._version
    v.mul_(5)
    assert y._version == v._version == before + 1
    assert type(y.grad_fn).__name__ == "CopySlices" and type(v.grad_fn).__name__ == "AsStridedBackward0"
    (y * opyard.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    assert x.grad.tolist() == [1.0, 10.0, 15.0, 4.0]


def test_in_place_through_a_chain_of_views_and_double_backward():
    x = opyard.arange(1.0, 7.0, dtype=opyard.float64).requires_grad_()
    y = x * 1
    row = y.view(2, 3)[1]
    row.mul_(x[:3])
    out = (y * y).sum()
    (g,) = opyard.autograd.grad(out, x, create_graph=True)
    # y = [x0, x1, x2, x3*x0, x4*x1, x5*x2]: d/dx0 of sum(y^2) = 2 x0 + 2 x3^2 x0
    want = [2 * 1 + 2 * 16 * 1, 2 * 2 + 2 * 25 * 2, 2 * 3 + 2 * 36 * 3, 2 * 4 * 1, 2 * 5 * 4, 2 * 6 * 9]
    assert g.tolist() == want
    # d(sum g)/dx3 = d(2 x3^2 x0)/dx3 + d(2 x3 x0^2)/dx3 = 16 + 2: the saved original of the
    # in-place mul keeps its history, and CopySlices is differentiated (torch's values)
    (gg,) = opyard.autograd.grad(g.sum(), x)
    assert g.requires_grad and gg.tolist() == [50.0, 92.0, 146.0, 18.0, 48.0, 90.0]


def test_views_under_no_grad_record_nothing():
    x = opyard.ones(2, 3, requires_grad=True)
    with opyard.no_grad():
        v = x.view(-1)
    assert v.grad_fn is None and not v.requires_grad and v._base is x and v._view_fn is None


# --- in place under grad: Note [In-place ops in the Rust kernel] (src/python/autograd/kernel/mod.rs) ---


def test_in_place_on_a_non_leaf_in_the_rust_kernel():
    k = make_kernel(A.add_.Tensor, formula("aten::add.Tensor"))
    assert isinstance(k, _core._PlainAutogradKernel)
    x = opyard.arange(3.0).requires_grad_()
    w = opyard.tensor([1.0, 2.0, 3.0], requires_grad=True)
    h = x * 2
    old_fn, v = h.grad_fn, h._version
    assert h.add_(w, alpha=3) is h
    assert h._version == v + 1 and type(h.grad_fn).__name__ == "AddBackward0" and h.grad_fn is not old_fn
    assert h.grad_fn.next_functions[0][0] is old_fn and h._output_nr == 0 and h.tolist() == [3.0, 8.0, 13.0]
    (h * opyard.tensor([1.0, 10.0, 100.0])).sum().backward()
    assert x.grad.tolist() == [2.0, 20.0, 200.0] and w.grad.tolist() == [3.0, 30.0, 300.0]


def test_in_place_into_a_tensor_without_grad_takes_the_operands_history():
    w = opyard.ones(3, requires_grad=True)
    h = opyard.zeros(3)
    h.mul_(2).add_(w)
    assert h.requires_grad and type(h.grad_fn).__name__ == "AddBackward0"
    h.sum().backward()
    assert w.grad.tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("op", [lambda t, w: t.add_(w), lambda t, w: t.sub_(w), lambda t, w: t.mul_(w),
                                lambda t, w: t.copy_(w), lambda t, w: t.zero_()])
def test_in_place_on_a_leaf_that_requires_grad_is_refused(op):
    x, w = opyard.ones(3, requires_grad=True), opyard.ones(3)
    with pytest.raises(RuntimeError, match=re.escape(
            "a leaf Variable that requires grad is being used in an in-place operation.")):
        op(x, w)
    assert x.grad_fn is None and x._version == 0


def test_in_place_keeps_a_retained_grad_on_the_new_version():
    x = opyard.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.add_(1)
    (y * 3).sum().backward()
    assert y.grad.tolist() == [3.0, 3.0, 3.0] and x.grad.tolist() == [6.0, 6.0, 6.0]


def test_in_place_agrees_with_the_python_kernel_and_gradcheck():
    def f(a, b):
        h = a * 1.0
        h.add_(b, alpha=2).sub_(b).mul_(a)
        return h
    a = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    b = opyard.randn(4, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(f, (a, b)) and opyard.autograd.gradgradcheck(f, (a, b))
    rust = make_kernel(A.add_.Tensor, formula("aten::add.Tensor"))
    py = make_kernel(A.add_.Tensor, formula("aten::add.Tensor"), rust=False)
    h1, h2 = a * 1.0, a * 1.0
    r1, r2 = rust(None, h1, b), py(None, h2, b)
    assert r1 is h1 and r2 is h2 and type(h1.grad_fn).__name__ == type(h2.grad_fn).__name__
    assert h1._version == h2._version and h1.tolist() == h2.tolist()


@pytest.mark.parametrize("fn", [lambda t: t[::2], lambda t: t[1::3], lambda t: t[:, -7:8:4], lambda t: t[::5, 1:],
                                lambda t: t[:, ::2][1:, ::2]])
def test_slice_with_a_step_has_a_gradient(fn):
    x = opyard.randn(6, 9, dtype=opyard.float64, requires_grad=True)
    assert opyard.autograd.gradcheck(lambda t: fn(t) * 2.0, (x,))
    assert opyard.autograd.gradgradcheck(lambda t: fn(t) * fn(t), (x,))


def test_slice_with_a_step_gradient_values():
    x = opyard.arange(7.0, dtype=opyard.float64).requires_grad_()
    y = x[::2]
    (g,) = opyard.autograd.grad((y * y * opyard.arange(1.0, 5.0, dtype=opyard.float64)).sum(), x,
                                create_graph=True)
    (gg,) = opyard.autograd.grad(g.sum(), x)
    assert g.tolist() == [0.0, 0.0, 8.0, 0.0, 24.0, 0.0, 48.0]  # torch's values
    assert gg.tolist() == [2.0, 0.0, 4.0, 0.0, 6.0, 0.0, 8.0]
