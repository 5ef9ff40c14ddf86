"""Views share memory with their base, record it, and share its version counter."""

import numpy as np
import pytest

import opyard

VIEWS = [
    ("view", lambda x: x.view(4, 6)), ("reshape", lambda x: x.reshape(-1)), ("t", lambda x: x[0].t()),
    ("transpose", lambda x: x.transpose(0, 2)), ("permute", lambda x: x.permute(2, 0, 1)),
    ("expand", lambda x: x[:, :1].expand(2, 5, 4)), ("unsqueeze", lambda x: x.unsqueeze(1)),
    ("squeeze", lambda x: x[:, :1].squeeze(1)), ("select", lambda x: x.select(1, 2)),
    ("slice", lambda x: x[:, 1:3]), ("basic indexing", lambda x: x[1, ..., ::2]),
    ("diagonal", lambda x: x.diagonal(0, 1, 2)), ("alias", lambda x: opyard.ops.aten.alias(x)),
    ("narrow", lambda x: x.narrow(2, 1, 2)),
    ("split", lambda x: x.split(1)[1]), ("chunk", lambda x: x.chunk(2, 2)[0]),
    ("unbind", lambda x: x.unbind(1)[0]), ("movedim", lambda x: x.movedim(0, -1)),
    ("unflatten", lambda x: x.unflatten(2, [2, 2])), ("flatten", lambda x: x.flatten(1)),
    ("T", lambda x: x.T), ("mT", lambda x: x.mT),
]


@pytest.mark.parametrize("name, make", VIEWS, ids=[v[0] for v in VIEWS])
def test_views_share_memory_record_base_and_version(name, make):
    x = opyard.arange(24, dtype=opyard.float32).reshape(2, 3, 4).clone()
    v = make(x)
    assert np.shares_memory(v.numpy(), x.numpy())
    assert v._base is x
    before = x._version
    x.add_(1)
    assert v._version == x._version == before + 1


# Not views for autograd (torch's detach and variable_data): the memory is shared, ``_base`` is None;
# detach shares the version counter, ``.data`` has its own.
DETACHED = [("detach", lambda x: x.detach(), True), ("data", lambda x: x.data, False),
            ("detach of a view", lambda x: x[1:].detach(), True), ("data of a view", lambda x: x[1:].data, False)]


@pytest.mark.parametrize("name, make, shares_version", DETACHED, ids=[d[0] for d in DETACHED])
def test_detached_aliases_share_memory_but_are_no_views(name, make, shares_version):
    x = opyard.arange(24, dtype=opyard.float32).reshape(2, 3, 4).clone()
    v = make(x)
    assert np.shares_memory(v.numpy(), x.numpy())
    assert v._base is None and not v._is_view()
    x.add_(1)
    assert (v._version == x._version) is shares_version
    v.fill_(-7)
    assert (x.numpy() == -7).sum() == v.numel()


def test_detach_of_a_leaf_that_requires_grad_may_change_in_place():
    leaf = opyard.ones(3, requires_grad=True)
    for d in (leaf.detach(), leaf[1:].detach()):
        d.add_(1)  # torch allows it: the detached tensor is no view of the leaf
        assert not d.requires_grad
    assert leaf._version == 2 and leaf.detach().tolist() == [2.0, 3.0, 3.0]


@pytest.mark.parametrize("name, make", [v for v in VIEWS + [("detach", lambda x: x.detach())]
                                        if v[0] != "expand"],
                         ids=[v[0] for v in VIEWS if v[0] != "expand"] + ["detach"])
def test_writes_through_a_view_reach_the_base(name, make):
    x = opyard.zeros(2, 3, 4)
    v = make(x)
    v.fill_(7)
    assert x._version == 1 and (x.numpy() == 7).sum() == v.numel()


def test_data_shares_memory_but_not_the_version_counter():
    # torch's ``variable_data``: not a view, its own version counter (in-place through it is
    # invisible to autograd's checks on the original)
    x = opyard.arange(6.0)
    d = x.data
    assert np.shares_memory(d.numpy(), x.numpy()) and d._base is None and not d.requires_grad
    d.add_(1)
    assert x._version == 0 and d._version == 1 and x.tolist() == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


def test_views_of_views_record_the_root():
    x = opyard.zeros(4, 4)
    v = x[1:][:, 2]
    assert v._base is x and v.storage_offset() == 6 and v.stride() == (4,)


def test_non_views_copy():
    x = opyard.zeros(2, 3)
    for y in (x.clone(), x.t().contiguous(), x.t().reshape(6), x[opyard.tensor([0, 1])], x.flip(0), x + 0):
        assert y._base is None and not np.shares_memory(y.numpy(), x.numpy())


def test_index_assignment_is_an_in_place_op_on_the_base():
    x = opyard.zeros(3, 4)
    x[1] = 5.0
    x[:, 0] = opyard.tensor([1.0, 2.0, 3.0])
    x[x > 4] = -1.0
    assert x._version == 3
    assert x.tolist() == [[1, 0, 0, 0], [2, -1, -1, -1], [3, 0, 0, 0]]


def test_expanded_views_refuse_writes_that_depend_on_overlap():
    base = opyard.zeros(3, 1)
    x = base.expand(3, 4)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor refers to a single "
                                           "memory location. Please clone\\(\\) the tensor"):
        x.add_(1)
    # One value for every element: torch allows it, and it writes through to the base.
    x.fill_(1)
    assert base.tolist() == [[1.0], [1.0], [1.0]] and x.tolist() == [[1.0] * 4] * 3


def test_contiguity_and_strides():
    x = opyard.zeros(2, 3, 4)
    assert x.stride() == (12, 4, 1) and x.is_contiguous() and x.stride(-1) == 1
    p = x.permute(2, 0, 1)
    assert p.stride() == (1, 12, 4) and not p.is_contiguous()
    assert p.contiguous().is_contiguous() and p.contiguous()._base is None
    assert x.contiguous() is x
    assert x[:, 1].storage_offset() == 4


def test_view_errors():
    with pytest.raises(RuntimeError, match=r"shape '\[5, -1\]' is invalid for input of size 24"):
        opyard.zeros(24).view(5, -1)
    with pytest.raises(RuntimeError, match="only one dimension can be inferred"):
        opyard.zeros(24).view(-1, -1)
    with pytest.raises(RuntimeError, match="The expanded size of the tensor"):
        opyard.zeros(3, 2).expand(3, 4)
    with pytest.raises(IndexError, match=r"Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)"):
        opyard.zeros(2, 3).transpose(0, 2)
    with pytest.raises(RuntimeError, match="permute\\(\\): duplicate dims are not allowed"):
        opyard.zeros(2, 3).permute(0, 0)


def t(*a, **k):
    return opyard.tensor(*a, **k)


# --- narrow is a slice in autograd: its node is a SliceBackward0 -----------------------------

@pytest.mark.parametrize("dim, start, length, grad", [
    (0, 0, 1, [[2.0, 2.0, 2.0], [0.0, 0.0, 0.0]]),
    (1, 1, 2, [[0.0, 2.0, 2.0], [0.0, 2.0, 2.0]]),
    (-1, -2, 1, [[0.0, 2.0, 0.0], [0.0, 2.0, 0.0]]),
])
def test_narrow_records_a_slice_backward(dim, start, length, grad):
    x = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x.narrow(dim, start, length)
    assert type(y.grad_fn).__name__ == "SliceBackward0" and y.grad_fn.name() == "SliceBackward0"
    assert type(y.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    (y * 2).sum().backward()
    assert x.grad.tolist() == grad


# --- Tensor._is_view() --------------------------------------------------------------------

_A = [[1.0, 2.0], [3.0, 4.0]]


@pytest.mark.parametrize("grad", [False, True])
@pytest.mark.parametrize("make, is_view", [
    (lambda a: a, False), (lambda a: a.view(4), True), (lambda a: a[0:1], True), (lambda a: a[0], True),
    (lambda a: a.narrow(0, 0, 1), True), (lambda a: a.t(), True), (lambda a: a.reshape(4), True),
    (lambda a: a.t().reshape(4), False), (lambda a: a.clone(), False), (lambda a: a.contiguous(), False),
    (lambda a: a.t().contiguous(), False), (lambda a: a.view(4)[1:].t(), True),
])
def test_is_view_answers_as_torch(make, is_view, grad):
    a = t(_A, requires_grad=grad)
    out = make(a)
    assert out._is_view() is is_view
    assert (out._base is not None) is is_view
