"""Joining, splitting, broadcasting, diagonal, rotation and copy/scatter operators against numpy,
with their gradients (gradcheck, float64), vmap and torch's messages for bad arguments."""

import warnings

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

A = opyard.ops.aten


def r(*shape, dtype=opyard.float64, grad=False):
    rng = np.random.default_rng(sum(shape) + len(shape))
    return opyard.tensor(rng.standard_normal(shape), dtype=dtype, requires_grad=grad)


@pytest.mark.parametrize("fn, ref, args", [
    (lambda *t: opyard.hstack(t), lambda *a: np.hstack(a), ((3,), (2,))),
    (lambda *t: opyard.hstack(t), lambda *a: np.hstack(a), ((2, 3), (2, 1))),
    (lambda *t: opyard.vstack(t), lambda *a: np.vstack(a), ((3,), (2, 3))),
    (lambda *t: opyard.dstack(t), lambda *a: np.dstack(a), ((2, 3), (2, 3, 2))),
    (lambda *t: opyard.column_stack(t), lambda *a: np.column_stack(a), ((3,), (3, 2))),
    (lambda t: opyard.ravel(t.mT), lambda a: np.ravel(a.T), ((2, 3),)),
    (lambda t: opyard.rot90(t), lambda a: np.rot90(a), ((2, 3),)),
    (lambda t: opyard.rot90(t, 3, [1, 2]), lambda a: np.rot90(a, 3, (1, 2)), ((2, 3, 4),)),
    (lambda t: opyard.rot90(t, -2), lambda a: np.rot90(a, -2), ((2, 3),)),
    (lambda t: opyard.fliplr(t), np.fliplr, ((2, 3),)),
    (lambda t: opyard.flipud(t), np.flipud, ((2, 3),)),
    (lambda t: opyard.diag(t, 1), lambda a: np.diag(a, 1), ((3,),)),
    (lambda t: opyard.diag(t, -1), lambda a: np.diag(a, -1), ((3, 4),)),
    (lambda t: opyard.diagflat(t), lambda a: np.diagflat(a), ((2, 2),)),
    (lambda t: opyard.atleast_3d(t), np.atleast_3d, ((3,),)),
    (lambda t: opyard.atleast_2d(t), np.atleast_2d, ((),)),
    (lambda *t: opyard.block_diag(*t), lambda *a: np.block([[a[0], np.zeros((2, 3))],
                                                            [np.zeros((1, 2)), a[1][None]]]), ((2, 2), (3,))),
    (lambda *t: opyard.cartesian_prod(*t), lambda a, b: np.array([[x, y] for x in a for y in b]), ((2,), (3,))),
    (lambda t: t.sum_to_size(1, 3), lambda a: a.sum(0, keepdims=True), ((4, 3),)),
    (lambda t: t.sum_to_size([2, 1]), lambda a: a.sum(1, keepdims=True), ((2, 3),)),
])
def test_values_and_gradients(fn, ref, args):
    ins = [r(*s, grad=True) for s in args]
    got = fn(*ins)
    np.testing.assert_allclose(got.detach().numpy(), ref(*[t.detach().numpy() for t in ins]))
    assert gradcheck(fn, ins)


def test_meshgrid_indexing():
    x, y = opyard.arange(3), opyard.arange(2)
    for indexing in ("ij", "xy"):
        got = opyard.meshgrid(x, y, indexing=indexing)
        want = np.meshgrid(x.numpy(), y.numpy(), indexing=indexing)
        assert all(np.array_equal(g.numpy(), w) for g, w in zip(got, want))
        assert all(g._base is not None for g in got)  # views of the inputs
    with pytest.warns(UserWarning, match="indexing argument"):
        opyard.meshgrid(x, y)


def test_broadcast():
    a, b = r(3, 1), r(1, 4)
    ea, eb = opyard.broadcast_tensors(a, b)
    assert ea.shape == eb.shape == (3, 4) and ea._base is a
    assert opyard.broadcast_shapes((2,), (3, 1), (1, 1, 1)) == opyard.Size([1, 3, 2])
    assert opyard.broadcast_shapes(5, (1,)) == opyard.Size([5])
    assert opyard.broadcast_to(r(1, 5), (1, 1, 5)).stride() == (5, 5, 1)  # torch's strides


@pytest.mark.parametrize("dims", [(1, 5, (1, 1, 5)), (1, 5, (3, 1, 5)), (5, 1, (2, 5, 4))])
def test_expand_strides_agree_with_and_without_fast_path(dims):
    *shape, size = dims
    x = opyard.ones(*shape)
    assert x.expand(*size).stride() == A.expand.default(x, list(size)).stride()
    want = {(1, 1, 5): (5, 5, 1), (3, 1, 5): (0, 5, 1), (2, 5, 4): (0, 1, 0)}[size]
    assert x.expand(*size).stride() == want


def test_combinations():
    x = opyard.tensor([1, 2, 3])
    assert opyard.combinations(x).tolist() == [[1, 2], [1, 3], [2, 3]]
    assert opyard.combinations(x, 3, with_replacement=True).shape == (10, 3)
    assert opyard.combinations(opyard.tensor([1, 2]), r=3).shape == (0, 3)
    assert opyard.combinations(x, 0).shape == (0,)
    w = r(4, grad=True)
    assert gradcheck(lambda t: opyard.combinations(t, 2), [w])


def test_splits():
    x = opyard.arange(24.).reshape(2, 3, 4)
    assert [p.shape for p in opyard.hsplit(x, 3)] == [(2, 1, 4)] * 3
    assert [p.shape for p in opyard.vsplit(x, [1])] == [(1, 3, 4), (1, 3, 4)]
    assert [p.shape for p in opyard.dsplit(x, 2)] == [(2, 3, 2)] * 2
    assert all(np.shares_memory(p.numpy(), x.numpy()) for p in opyard.unsafe_split(x, 1))


@pytest.mark.parametrize("op, args", [
    ("transpose_copy.int", (r(2, 3), 0, 1)),
    ("permute_copy.default", (r(2, 3, 4), [2, 0, 1])),
    ("diagonal_copy.default", (r(3, 3), 1)),
    ("expand_copy.default", (r(3, 1), [3, 4])),
    ("narrow_copy.default", (r(5, 2), 0, 1, 3)),
    ("unfold_copy.default", (r(7,), 0, 2, 2)),
    ("view_copy.default", (r(2, 3), [3, 2])),
    ("t_copy.default", (r(2, 3),)),
])
def test_copies_are_contiguous_copies(op, args):
    packet, overload = op.split(".")
    copy = getattr(getattr(A, packet), overload)(*args)
    view = getattr(getattr(A, packet.removesuffix("_copy")), overload)(*args)
    assert copy.is_contiguous() and copy._base is None
    assert not np.shares_memory(copy.numpy(), args[0].numpy())
    np.testing.assert_array_equal(copy.numpy(), view.numpy())


@pytest.mark.parametrize("op, view, args", [
    (A.slice_scatter.default, lambda t: t[1:3], (0, 1, 3)),
    (A.select_scatter.default, lambda t: t[:, 1], (1, 1)),
    (A.diagonal_scatter.default, lambda t: t.diagonal(1), (1,)),
])
def test_scatters(op, view, args):
    base = r(4, 4, grad=True)
    src = r(*view(base.detach()).shape, grad=True)
    got = op(base, src, *args)
    want = base.detach().numpy().copy()
    view(opyard.from_numpy(want)).copy_(src.detach())
    np.testing.assert_array_equal(got.detach().numpy(), want)
    assert gradcheck(lambda b, s: op(b, s, *args), [base, src])


def test_as_strided_scatter():
    base, src = r(3, 3, grad=True), r(2, grad=True)
    got = A.as_strided_scatter.default(base, src, [2], [4], 0)
    want = base.detach().numpy().copy().reshape(-1)
    want[[0, 4]] = src.detach().numpy()
    np.testing.assert_array_equal(got.detach().numpy().reshape(-1), want)
    assert gradcheck(lambda b, s: A.as_strided_scatter.default(b, s, [2], [4], 0), [base, src])


@pytest.mark.parametrize("shape, size, stride, offset", [
    ((3, 3), [2, 2], [1, 2], 0), ((3, 3), [2, 2], [3, 1], 1), ((3, 3), [2], [3], 1), ((1,), [], [], 0),
    ((16,), [2, 1, 1, 2], [1, 2, 4, 8], 0), ((4, 4), [2, 3], [5, 1], 2),
])
def test_as_strided_scatter_gradients_and_vmap(shape, size, stride, offset):
    # The true derivative for both inputs (torch 2.15's backward for self is the complement of it and
    # fails gradcheck: a deliberate difference, tests/conformance/policy.py).
    base, src = r(*shape, grad=True), r(*size, grad=True) if size else opyard.tensor(0.5, dtype=opyard.float64,
                                                                                     requires_grad=True)
    assert gradcheck(lambda b, s: A.as_strided_scatter.default(b, s, size, stride, offset), [base, src])
    bases, srcs = opyard.stack([base.detach(), -base.detach()]), opyard.stack([src.detach(), src.detach() * 2])
    got = opyard.vmap(lambda b, s: A.as_strided_scatter.default(b, s, size, stride, offset))(bases, srcs)
    for i in range(2):
        want = A.as_strided_scatter.default(bases[i], srcs[i], size, stride, offset)
        np.testing.assert_array_equal(got[i].numpy(), want.numpy())


@pytest.mark.parametrize("call, error, match", [
    (lambda: opyard.hstack([]), RuntimeError, "hstack expects a non-empty TensorList"),
    (lambda: opyard.hsplit(opyard.ones(4, 4), 3), RuntimeError, "not divisible by the split_size 3"),
    (lambda: opyard.vsplit(opyard.ones(4), 2), RuntimeError, "at least 2 dimension"),
    (lambda: opyard.rot90(opyard.ones(2, 2), 1, [0, 0]), RuntimeError, "rotation dims to be different"),
    (lambda: opyard.rot90(opyard.ones(2), 1, [0, 1]), RuntimeError, "total dims >= 2"),
    (lambda: opyard.fliplr(opyard.ones(2)), RuntimeError, r"Input must be >= 2-d\."),
    (lambda: opyard.diag(opyard.ones(2, 2, 2)), RuntimeError, "Supports 1D or 2D tensors. Got 3D"),
    (lambda: opyard.meshgrid(opyard.ones(2, 2), indexing="ij"), RuntimeError, "Expected 0D or 1D tensor"),
    (lambda: opyard.meshgrid(opyard.ones(2), indexing="yx"), RuntimeError, 'must be one of "xy" or "ij"'),
    (lambda: opyard.cartesian_prod(opyard.ones(2, 2)), RuntimeError, r"Expect a 1D vector, but got shape \[2, 2\]"),
    (lambda: opyard.combinations(opyard.ones(2), r=-1), RuntimeError, "Expect a non-negative number"),
    (lambda: opyard.block_diag(opyard.ones(2, 2, 2)), RuntimeError, "Input 0 has 3 dimensions"),
    (lambda: opyard.broadcast_shapes((2,), (3,)), RuntimeError, "Mismatching argument at index 1"),
    (lambda: opyard.ones(3, 2).sum_to_size(3), RuntimeError, "is not expandable to size"),
    (lambda: A.slice_scatter.default(opyard.zeros(3, 3), opyard.ones(2, 3), 0, 0, 1), RuntimeError,
     r"src size = \[2, 3\], slice size = \[1, 3\]"),
    (lambda: opyard.narrow(opyard.ones(10), 0, 5, 10), RuntimeError, r"start \(5\) \+ length \(10\) exceeds"),
    (lambda: opyard.narrow(opyard.tensor(1.), 0, 0, 1), RuntimeError, "cannot be applied to a 0-dim tensor"),
    (lambda: opyard.diagonal(opyard.ones(3, 3), 0, 0, 0), RuntimeError, "diagonal dimensions cannot be identical"),
])
def test_errors(call, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(error, match=match):
            call()


def test_under_vmap_and_fake():
    x = r(2, 3, 3)
    got = opyard.func.vmap(lambda t: opyard.rot90(opyard.diag(opyard.diagonal(t)), 1))(x)
    want = np.stack([np.rot90(np.diag(np.diagonal(t))) for t in x.numpy()])
    np.testing.assert_allclose(got.numpy(), want)
    from opyard.fake import FakeTensorMode
    with FakeTensorMode():
        f = opyard.empty(4, 5)
        assert opyard.hstack([f, f]).shape == (4, 10)
        assert opyard.ops.aten.slice_scatter.default(f, opyard.empty(2, 5), 0, 0, 2).shape == (4, 5)


@pytest.mark.parametrize("fn, args", [
    (lambda b: opyard.diag_embed(b), (r(2, 3),)),
    (lambda a: opyard.rot90(opyard.diag(opyard.diagonal(a)), 1), (r(2, 3, 3),)),
    (lambda a: opyard.block_diag(a, opyard.ones(1, dtype=opyard.float64)), (r(2, 2, 2),)),
    (lambda a, s: A.select_scatter.default(a, s, 0, 1), (r(2, 4, 3), r(2, 3))),
    (lambda s: A.slice_scatter.default(opyard.zeros(4, 3, dtype=opyard.float64), s, 1, 0, 1), (r(2, 4, 1),)),
    (lambda a: A.diagonal_scatter.default(a, opyard.ones(3, dtype=opyard.float64), dim1=-1, dim2=0), (r(2, 3, 3),)),
    (lambda a: opyard.ops.aten.rms_norm.default(a, [3]), (r(2, 4, 3),)),
])
def test_vmap_runs_compositions_and_rules_not_the_loop(fn, args):
    """An operator without a batching rule runs its composition under vmap (the per-example loop
    warns); the scatter operators have rules. Each agrees with the per-example calls."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = opyard.func.vmap(fn)(*args)
    want = np.stack([fn(*[a[i] for a in args]).numpy() for i in range(args[0].shape[0])])
    np.testing.assert_allclose(got.numpy(), want)
