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


# A view made in no_grad mode of a tensor that requires grad (torch's CreationMeta NO_GRAD_MODE): it requires
# grad through its base, is a leaf without history and without an AccumulateGrad of its own, so an op on it records
# a node whose edge for it is empty and its gradient reaches neither it nor the base; modifying it in place with
# grad mode on is refused, under no_grad it is allowed and its history can then no longer be read. Every answer
# below is torch 2.15's.
_NO_GRAD_VIEWS = {
    "view": lambda t: t.view(-1), "slice": lambda t: t[1:], "select": lambda t: t[0], "t": lambda t: t.t(),
    "transpose": lambda t: t.transpose(0, 1), "expand": lambda t: t.unsqueeze(0).expand(2, 2, 3),
    "unsqueeze": lambda t: t.unsqueeze(1), "permute": lambda t: t.permute(1, 0), "narrow": lambda t: t.narrow(1, 0, 2),
    "as_strided": lambda t: t.as_strided((2,), (1,)), "diagonal": lambda t: t.diagonal(), "alias": lambda t: A.alias(t),
    "view_as": lambda t: t.view_as(t), "reshape": lambda t: t.reshape(3, 2), "unflatten": lambda t: t.unflatten(1, (3, 1)),
    "split": lambda t: t.split(1)[0], "unbind": lambda t: t.unbind()[1], "chunk": lambda t: t.chunk(2, 1)[0],
}
_NO_GRAD_INPLACE = (r"A view was created in no_grad mode and is being modified inplace with grad mode enabled\. "
                    r"Given that this use case is ambiguous and error-prone, it is forbidden")
_NO_GRAD_REBASED = r"A view was created in no_grad mode and its base or another view of its base has been modified"


def _no_grad_view(name, leaf=True):
    x = opyard.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
    base = x if leaf else x * 1
    with opyard.no_grad():
        v = _NO_GRAD_VIEWS[name](base)
    return x, base, v


@pytest.mark.parametrize("leaf", [True, False], ids=["leaf base", "non-leaf base"])
@pytest.mark.parametrize("name", list(_NO_GRAD_VIEWS))
def test_a_view_made_in_no_grad_mode_requires_grad_and_passes_no_gradient(name, leaf):
    x, base, v = _no_grad_view(name, leaf)
    assert v.requires_grad and v.is_leaf and v.grad_fn is None and v._base is base
    y = v * 2
    assert y.requires_grad and type(y.grad_fn).__name__ == "MulBackward0"
    assert y.grad_fn.next_functions == ((None, 0), (None, 0))
    w = opyard.ones((), requires_grad=True)
    (y * w).sum().backward()
    assert x.grad is None and v.grad is None and w.grad is not None
    assert not v.detach().requires_grad


@pytest.mark.parametrize("name", list(_NO_GRAD_VIEWS))
def test_a_view_made_in_no_grad_mode_refuses_in_place_with_grad_mode_on(name):
    x, _, v = _no_grad_view(name)
    with pytest.raises(RuntimeError, match=_NO_GRAD_INPLACE):
        v.mul_(2)
    with pytest.raises(RuntimeError, match=_NO_GRAD_INPLACE):
        v.add_(opyard.ones((), requires_grad=True))
    with opyard.no_grad():
        v.zero_()  # allowed: nothing records
    with pytest.raises(RuntimeError, match=_NO_GRAD_REBASED):
        v.grad_fn


def test_a_view_of_a_no_grad_view_records_and_refuses_in_place():
    x, _, v = _no_grad_view("view")
    w = v[1:]
    assert type(w.grad_fn).__name__ == "SliceBackward0" and w.grad_fn.next_functions == ((None, 0),)
    with opyard.no_grad():
        vv = v[1:]
    assert vv.requires_grad and vv.is_leaf and vv.grad_fn is None
    with pytest.raises(RuntimeError, match=_NO_GRAD_INPLACE):
        vv.add_(1)
    with pytest.raises(RuntimeError, match="is a view of a view which was created in no_grad mode and is being "
                                           "modified inplace with grad mode enabled"):
        w.add_(1)


def test_a_view_made_in_no_grad_mode_as_a_root_or_an_input_of_a_gradient():
    x, _, v = _no_grad_view("select")
    with opyard.no_grad():
        s = v[0]
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        s.backward()
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        opyard.autograd.backward([s])
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        opyard.autograd.grad(s, x)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        opyard.autograd.grad(s * 2, s)
    assert opyard.autograd.grad(s * 2, x, allow_unused=True) == (None,)
    v[0].backward()  # recorded in grad mode: a node whose one edge is empty
    assert x.grad is None
    v.retain_grad()  # a leaf: nothing to retain
    (v * 3).sum().backward()
    assert v.grad is None and x.grad is None


def test_views_of_a_tensor_without_grad_or_detached_do_not_require_grad():
    x = opyard.ones(2, 3)
    with opyard.no_grad():
        v = x.view(-1)
    assert not v.requires_grad and v.grad_fn is None and v._base is x and v._view_fn is None
    with opyard.no_grad():
        d = opyard.ones(3, requires_grad=True).detach()[1:]
    assert not d.requires_grad


# A view of a tensor without history follows a history its base (or another view of the base) gains later by an
# in-place op: torch reads each view's grad_fn when the view is used, regenerated as AsStridedBackward0 on the
# base's new history. Every answer below is torch 2.15's.
_LATER_VIEWS = {
    "slice": lambda b: b[1:], "select": lambda b: b[1], "view": lambda b: b.view(2, 2), "t": lambda b: b.view(2, 2).t(),
    "unsqueeze": lambda b: b.unsqueeze(0), "narrow": lambda b: b.narrow(0, 1, 2), "as_strided": lambda b: b.as_strided((2,), (2,)),
    "reshape": lambda b: b.reshape(4), "diagonal": lambda b: b.view(2, 2).diagonal(), "alias": lambda b: A.alias(b),
}


@pytest.mark.parametrize("use", ["read first", "used directly"])
@pytest.mark.parametrize("name", list(_LATER_VIEWS))
def test_a_view_follows_the_history_its_base_gains_later(name, use):
    b = opyard.zeros(4, dtype=opyard.float64)
    v = _LATER_VIEWS[name](b)
    assert not v.requires_grad
    w = opyard.tensor([1.0, 2.0, 3.0, 4.0], dtype=opyard.float64, requires_grad=True)
    b.mul_(1).add_(w)  # the base gains a history
    if use == "read first":
        assert v.requires_grad and not v.is_leaf and type(v.grad_fn).__name__ == "AsStridedBackward0"
    (v * 3).sum().backward()
    expected = opyard.zeros(4, dtype=opyard.float64)
    with opyard.no_grad():
        _LATER_VIEWS[name](expected).add_(3)
    assert w.grad.tolist() == expected.tolist()


def test_a_view_follows_a_history_another_view_of_its_base_gains():
    b = opyard.zeros(4)
    v1, v2 = b[:2], b[1:3]
    w = opyard.ones(2, requires_grad=True)
    v1.add_(w)
    assert v2.requires_grad and type(v2.grad_fn).__name__ == "AsStridedBackward0"
    v2.sum().backward()
    assert w.grad.tolist() == [0.0, 1.0]


def test_a_view_stays_without_grad_while_its_base_has_none():
    b = opyard.zeros(4)
    v = b[1:]
    b.add_(1)
    with opyard.no_grad():
        b.add_(opyard.ones(4, requires_grad=True))
    assert not v.requires_grad and v.grad_fn is None and not (v * 2).requires_grad
    i = opyard.arange(4)
    iv = i[1:]
    i.add_(1)
    assert not iv.requires_grad and iv.tolist() == [2, 3, 4]


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
