"""A view sees in-place changes of its base and of the base's other views (torch's view history
regeneration): gradients checked numerically in float64 for every kind of view and change, with the
Rust autograd kernels and the general path alike. torch's own answers for the same cases are replayed
by test_torch_behaviours.py (tests/data/torch_behaviours_views.py)."""

import pytest

import opyard as T
from opyard.autograd import gradcheck, gradgradcheck

VIEWS = {
    "slice": lambda b: b[1:],
    "step_slice": lambda b: b[:, ::2],
    "select": lambda b: b[1],
    "narrow": lambda b: b.narrow(1, 1, 2),
    "view": lambda b: b.view(4, 3),
    "reshape": lambda b: b.reshape(12),
    "unflatten": lambda b: b.unflatten(1, (2, 2)),
    "transpose": lambda b: b.transpose(0, 1),
    "permute": lambda b: b.permute(1, 0),
    "diagonal": lambda b: b.diagonal(),
    "as_strided": lambda b: b.as_strided((2, 2), (4, 1), 1),
    "as_strided_overlapping": lambda b: b.as_strided((3, 3), (1, 1), 2),
    "expand": lambda b: b[0:1].expand(2, 4),
    "unfold": lambda b: b.unfold(1, 2, 1),
    "view_of_view": lambda b: b[1:].t()[1:],
    "tensor_split": lambda b: b.tensor_split(2, dim=1)[1],
}


def _base_mul(b, w):
    b.mul_(w)


def _sibling(b, w):
    b[0:2].mul_(w[0:2])


def _sibling_select(b, w):
    b.select(1, 0).mul_(w[:, 0])


def _copy(b, w):
    b.copy_(w * w)


# (A change under no_grad is invisible to gradcheck's analytic side by design: torch's answers
# for it are replayed from the recorded data.)
CHANGES = {"base_mul": _base_mul, "sibling": _sibling, "sibling_select": _sibling_select, "copy": _copy}


def _fn(view, change):
    def f(x, w):
        b = x * 1
        v = view(b)
        change(b, w)
        return v * v.detach().sign() + b.sum()
    return f


@pytest.mark.parametrize("change", sorted(CHANGES))
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_view_gradient_after_change(view, change):
    x = T.randn(3, 4, dtype=T.float64, requires_grad=True)
    w = T.randn(3, 4, dtype=T.float64, requires_grad=True)
    f = _fn(VIEWS[view], CHANGES[change])
    assert gradcheck(f, (x, w))


@pytest.mark.parametrize("view", ["slice", "transpose", "expand", "view_of_view"])
def test_view_second_derivative_after_change(view):
    x = T.randn(3, 4, dtype=T.float64, requires_grad=True)
    w = T.randn(3, 4, dtype=T.float64, requires_grad=True)

    def f(x, w):
        b = x * x
        v = VIEWS[view](b)
        b.mul_(w)
        return v * v
    assert gradgradcheck(f, (x, w))


@pytest.mark.parametrize("view", sorted(VIEWS))
def test_views_made_under_grad_are_views_for_autograd(view):
    # A view an autograd kernel recorded is current and of the default kind (not "made in no_grad mode").
    b = T.randn(3, 4, requires_grad=True) * 1
    v = VIEWS[view](b)
    assert v._view_meta == v._version << 2


def test_grad_fn_is_read_only():
    v = (T.ones(3, requires_grad=True) * 1)[1:]
    with pytest.raises(AttributeError, match="not writable"):
        v.grad_fn = None


@pytest.mark.parametrize("op", ["split", "chunk", "unbind"])
def test_unsafe_pieces_may_be_modified_in_place(op):
    # torch's unsafe_split/unsafe_chunk outputs are no views for autograd: no multi-output refusal.
    x = T.arange(4.0, requires_grad=True)
    pieces = {"split": lambda b: b.unsafe_split(2), "chunk": lambda b: T.unsafe_chunk(b, 2),
              "unbind": lambda b: b.unsafe_split(1)}[op](x * 1)
    pieces[0].mul_(2)
    with pytest.raises(RuntimeError, match="output of a function that returns multiple views"):
        (x * 1).split(2)[0].mul_(2)
