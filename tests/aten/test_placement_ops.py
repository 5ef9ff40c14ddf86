"""Placement operators and index factories: ``fill``, ``put``, ``masked_scatter``, the masked
indexing ops, ``index_reduce``, ``nonzero_static``, ``_chunk_cat``, ``hash_tensor``,
``tril_indices``/``triu_indices``, ``empty_permuted``, ``unravel_index`` and ``Tensor.to``'s
positional flags: values against numpy, gradients (gradcheck in float64, torch's node names), vmap,
fake tensors. Their errors are checked against torch's recorded ones in
``test_sampling_placement_answers.py``."""

import warnings

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck

f64 = opyard.float64


def _x(*shape, seed=0):
    return opyard.tensor(np.random.default_rng(seed).standard_normal(shape), dtype=f64)


# --- fill ------------------------------------------------------------------------------------------

def test_fill_keeps_shape_dtype_and_layout():
    x = opyard.arange(6.0).reshape(2, 3).t()
    r = opyard.fill(x, 2.5)
    assert r.tolist() == [[2.5, 2.5]] * 3 and r.stride() == x.stride()
    assert opyard.fill(opyard.zeros(2, dtype=opyard.uint8), -1).tolist() == [255, 255]
    assert opyard.fill(opyard.zeros(2, dtype=opyard.int32), opyard.tensor(2.7)).tolist() == [2, 2]


def test_fill_gradients():
    x = _x(2, 3).requires_grad_()
    v = opyard.tensor(1.5, dtype=f64, requires_grad=True)
    r = opyard.fill(x, v)
    assert r.grad_fn is not None  # its name: test_sampling_placement_answers
    (r * _x(2, 3, seed=1)).sum().backward()
    assert x.grad.tolist() == [[0.0] * 3] * 2
    assert v.grad.item() == pytest.approx(_x(2, 3, seed=1).sum().item())
    assert opyard.fill(x, 2.0).grad_fn is not None  # its name: test_sampling_placement_answers
    assert x.clone().fill_(2.0).grad_fn is not None  # its name: test_sampling_placement_answers
    assert x.clone().fill_(v).grad_fn is not None  # its name: test_sampling_placement_answers


# --- put -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("accumulate", [False, True])
def test_put_writes_at_row_major_flat_indices(accumulate):
    x = opyard.arange(6.0).reshape(2, 3).t()  # not contiguous: the indices still count row by row
    idx = opyard.tensor([1, -1, 1])
    src = opyard.tensor([10.0, 20.0, 30.0])
    expected = x.numpy().copy().reshape(-1)
    if accumulate:
        np.add.at(expected, [1, 5, 1], [10.0, 20.0, 30.0])
    else:
        expected[[1, 5]] = [30.0, 20.0]
    assert opyard.put(x, idx, src, accumulate).numpy().reshape(-1).tolist() == expected.tolist()
    y = x.clone()
    assert y.put_(idx, src, accumulate) is y and y.numpy().reshape(-1).tolist() == expected.tolist()


def test_put_gradients():
    x = _x(2, 3).requires_grad_()
    src = _x(2, seed=2).requires_grad_()
    idx = opyard.tensor([4, 0])
    assert opyard.put(x, idx, src).grad_fn is not None  # its name: test_sampling_placement_answers
    assert gradcheck(lambda a, b: opyard.put(a, idx, b), (x, src))
    assert gradcheck(lambda a, b: opyard.put(a, opyard.tensor([1, 1]), b, True), (x, src))


# --- masked_scatter --------------------------------------------------------------------------------

def test_masked_scatter_takes_the_source_in_order():
    x = opyard.zeros(2, 3)
    mask = opyard.tensor([[True, False, True], [False, True, True]])
    r = opyard.masked_scatter(x, mask, opyard.arange(10.0))
    assert r.tolist() == [[0.0, 0.0, 1.0], [0.0, 2.0, 3.0]]
    r = opyard.masked_scatter(opyard.zeros(3), mask, opyard.arange(10.0))  # self broadcast to the mask
    assert r.shape == (2, 3) and r.tolist() == [[0.0, 0.0, 1.0], [0.0, 2.0, 3.0]]
    y = opyard.ones(2, 3)
    y.masked_scatter_(opyard.tensor([True, False, False]), opyard.tensor([7.0, 8.0, 9.0]))
    assert y.tolist() == [[7.0, 1.0, 1.0], [8.0, 1.0, 1.0]]


def test_masked_scatter_gradients():
    mask = opyard.tensor([[True, False, True], [False, True, True]])
    x = _x(2, 3).requires_grad_()
    src = _x(6, seed=3).requires_grad_()
    assert opyard.masked_scatter(x, mask, src).grad_fn is not None  # its name: test_sampling_placement_answers
    assert gradcheck(lambda a, b: opyard.masked_scatter(a, mask, b), (x, src))


# --- masked indexing -------------------------------------------------------------------------------

def test_unsafe_masked_index_reads_only_masked_in_places():
    x = _x(3, 4)
    rows = opyard.tensor([[0], [2], [7]])  # 7 is out of range: masked out
    cols = opyard.tensor([1, 3, 0, 9])
    mask = (rows < 3) & (cols < 4)
    r = opyard._unsafe_masked_index(x, mask, [rows, cols], -1.0).numpy()
    expected = np.where(mask.numpy(), x.numpy()[np.clip(rows.numpy(), 0, 2), np.clip(cols.numpy(), 0, 3)], -1.0)
    np.testing.assert_array_equal(r, expected)


def test_unsafe_masked_index_gradients():
    x = _x(3, 4).requires_grad_()
    rows, cols = opyard.tensor([[0], [2], [2]]), opyard.tensor([1, 3, 0, 9])
    mask = cols < 4
    r = opyard._unsafe_masked_index(x, mask, [rows, cols], 0.0)
    assert r.grad_fn is not None  # its name: test_sampling_placement_answers
    assert gradcheck(lambda a: opyard._unsafe_masked_index(a, mask, [rows, cols], 0.0), (x,))
    v = _x(3, 4, seed=4).requires_grad_()
    f = lambda a, b: opyard._unsafe_masked_index_put_accumulate(a, mask, [rows, cols], b)  # noqa: E731
    assert f(x, v).grad_fn is not None  # its name: test_sampling_placement_answers
    assert gradcheck(f, (x, v))


# --- index_reduce ----------------------------------------------------------------------------------

def _index_reduce_reference(x, dim, idx, src, reduce, include_self):
    x, src = np.moveaxis(x.copy(), dim, 0), np.moveaxis(src, dim, 0)
    out = x.copy()
    for j in sorted(set(idx)):
        vals = [src[k] for k in range(len(idx)) if idx[k] == j] + ([x[j]] if include_self else [])
        vals = np.stack(vals)
        out[j] = {"prod": vals.prod(0), "mean": vals.mean(0), "amax": vals.max(0), "amin": vals.min(0)}[reduce]
    return np.moveaxis(out, 0, dim)


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_against_numpy(reduce, include_self):
    x, src = _x(4, 3), _x(4, 5, seed=5)
    idx = [2, 0, 2, 2, 1]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = opyard.index_reduce(x, 1, opyard.tensor(idx), src.t().contiguous().t(), reduce, include_self=include_self)
    np.testing.assert_allclose(r.numpy(), _index_reduce_reference(x.numpy(), 1, idx, src.numpy(), reduce,
                                                                  include_self), rtol=1e-12)


def test_index_reduce_integer_mean_rounds_down():
    x = opyard.tensor([[1, 2, 3], [4, 5, 6]])
    r = opyard.index_reduce(x, 0, opyard.tensor([1, 1]), opyard.tensor([[2, 3, 4], [5, 6, 7]]), "mean")
    assert r.tolist() == [[1, 2, 3], [3, 4, 5]]


@pytest.mark.parametrize("include_self", [True, False])
@pytest.mark.parametrize("reduce", ["prod", "mean", "amax", "amin"])
def test_index_reduce_gradients(reduce, include_self):
    x = _x(4, 3).requires_grad_()
    src = _x(5, 3, seed=6).requires_grad_()
    idx = opyard.tensor([2, 0, 2, 3, 1])
    r = opyard.index_reduce(x, 0, idx, src, reduce, include_self=include_self)
    assert r.grad_fn is not None  # its name: test_sampling_placement_answers
    assert gradcheck(lambda a, b: opyard.index_reduce(a, 0, idx, b, reduce, include_self=include_self), (x, src))


def test_index_reduce_prod_gradient_with_a_zero():
    x = opyard.tensor([[2.0, 0.0], [1.0, 3.0]], dtype=f64, requires_grad=True)
    src = opyard.tensor([[0.0, 5.0], [4.0, 2.0]], dtype=f64, requires_grad=True)
    assert gradcheck(lambda a, b: opyard.index_reduce(a, 0, opyard.tensor([0, 1]), b, "prod"), (x, src))


# --- nonzero_static, _chunk_cat, hash_tensor -------------------------------------------------------

def test_nonzero_static_cuts_or_fills():
    x = opyard.tensor([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]])
    assert opyard.nonzero_static(x, size=2).tolist() == [[0, 1], [0, 2]]
    assert opyard.nonzero_static(x, size=5, fill_value=7).tolist() == [[0, 1], [0, 2], [1, 0], [7, 7], [7, 7]]
    assert opyard.nonzero_static(opyard.tensor(3.0), size=2).shape == (2, 0)


def test_chunk_cat_pads_each_tensor_to_whole_chunks():
    a, b = opyard.arange(6.0).reshape(2, 3), opyard.arange(10.0).reshape(2, 5)
    r = opyard._chunk_cat([a, b], 1, 2)
    pa = np.pad(a.numpy(), ((0, 0), (0, 1))).reshape(2, 2, 2)
    pb = np.pad(b.numpy(), ((0, 0), (0, 1))).reshape(2, 2, 3)
    np.testing.assert_array_equal(r.numpy(), np.concatenate([pa, pb], axis=2))
    with pytest.raises(RuntimeError, match="derivative for aten::_chunk_cat is not implemented"):
        opyard._chunk_cat([a.requires_grad_(), b], 1, 2).sum().backward()


def test_hash_tensor_xors_bit_patterns():
    x = opyard.tensor([1.0, 2.0])
    assert opyard.hash_tensor(x).dtype == opyard.uint64
    assert opyard.hash_tensor(x).item() == int(np.bitwise_xor.reduce(np.array([1.0, 2.0]).view(np.uint64)))
    assert opyard.hash_tensor(opyard.tensor([-1], dtype=opyard.int8)).item() == 2 ** 64 - 1
    r = opyard.hash_tensor(opyard.ones(2, 3), dim=1, keepdim=True)
    assert r.shape == (2, 1) and r.tolist() == [[int(np.float64(1.0).view(np.uint64))]] * 2


# --- factories -------------------------------------------------------------------------------------

@pytest.mark.parametrize("row, col, offset", [(3, 3, 0), (4, 6, -2), (5, 3, 1), (0, 4, 0), (3, 5, 9), (3, 5, -9)])
def test_triangle_indices_against_numpy(row, col, offset):
    np.testing.assert_array_equal(opyard.tril_indices(row, col, offset).numpy(), np.tril_indices(row, offset, col))
    np.testing.assert_array_equal(opyard.triu_indices(row, col, offset).numpy(), np.triu_indices(row, offset, col))
    assert opyard.tril_indices(row, col, offset, device="meta").shape == (2, len(np.tril_indices(row, offset, col)[0]))
    assert opyard.triu_indices(row, col, offset, dtype=opyard.int32).dtype == opyard.int32


def test_empty_permuted_strides():
    r = opyard.empty_permuted((2, 3, 4), (2, 0, 1))
    assert r.shape == (2, 3, 4) and r.stride() == (3, 1, 6)
    assert opyard.empty_permuted((2, 3), (1, 0), device="meta").stride() == (1, 2)
    assert opyard.empty_permuted((2, 3), (0, 1), requires_grad=True).requires_grad


def test_unravel_index():
    rows, cols = opyard.unravel_index(opyard.tensor([5, 7, -1]), (2, 4))
    assert rows.tolist() == [1, 1, 1] and cols.tolist() == [1, 3, 3]
    assert [t.tolist() for t in opyard.unravel_index(opyard.tensor(22, dtype=opyard.int8), (3, 4, 2))] == [2, 3, 0]


def test_resize_reads_memory_in_order():
    x = opyard.arange(6.0)
    assert x.clone().resize_(2, 2).tolist() == [[0.0, 1.0], [2.0, 3.0]]
    t = x.clone().reshape(2, 3).t()
    assert t.resize_(3, 2).stride() == (1, 3)  # the same shape: left as it is
    base = x.clone()
    view = base[2:]
    view.resize_(2, 2)
    assert view.tolist() == [[2.0, 3.0], [4.0, 5.0]]
    view[0, 0] = 9.0
    assert base[2].item() == 9.0  # still the same memory
    short = base[:2]
    short.resize_(4)  # past its own elements, inside the buffer it views
    assert short.tolist() == [0.0, 1.0, 9.0, 3.0]
    grown = x.clone().resize_(8)
    assert grown.shape == (8,) and grown[:6].tolist() == x.tolist()
    assert x.clone().resize_(1, 2, 2, 2, memory_format=opyard.channels_last).stride() == (8, 1, 4, 2)
    assert opyard.resize_as_(x.clone(), opyard.ones(3, 2)).tolist() == [[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]]
    m = opyard.empty(3, device="meta").resize_(2, 5)
    assert m.shape == (2, 5) and m.stride() == (5, 1)


def test_resize_under_vmap_resizes_each_example():
    r = opyard.vmap(lambda a: a.resize_(2))(opyard.arange(6.0).reshape(2, 3))
    assert r.tolist() == [[0.0, 1.0], [2.0, 3.0]]  # the physical memory in order, as torch


def test_to_takes_non_blocking_and_copy_positionally():
    x = opyard.ones(2, 3)
    assert x.to(opyard.float32, False, True) is not x
    assert x.to("cpu", opyard.float64, True, True).dtype == opyard.float64
    assert x.to(None, opyard.float16).dtype == opyard.float16
    assert x.to(x, False, False) is x


def test_fake_tensors_reach_the_meta_kernels():
    from opyard.fake import FakeTensorMode
    with FakeTensorMode():
        x = opyard.empty(3, 4)
        assert opyard.put(x.t(), opyard.tensor([1]), opyard.empty(1)).stride() == (1, 4)
        assert opyard.masked_scatter(opyard.empty(4), x > 0, opyard.empty(12)).shape == (3, 4)
        assert x.put_(opyard.tensor([1]), opyard.empty(1)) is x
        assert x.masked_scatter_(opyard.empty(4) > 0, opyard.empty(12)) is x
        assert x.bernoulli_(opyard.empty(4)) is x
        assert opyard.index_reduce(x, 0, opyard.tensor([0, 2]), opyard.empty(2, 4), "amax").shape == (3, 4)
        assert opyard.hash_tensor(x, dim=[1]).dtype == opyard.uint64
        assert opyard.nonzero_static(x, size=5).shape == (5, 2)
        assert opyard._chunk_cat([x, x], 1, 3).shape == (3, 3, 4)
        assert x.resize_(2, 6).shape == (2, 6)


@pytest.mark.parametrize("name", ["put", "masked_scatter", "unsafe_masked_index", "index_reduce_mean",
                                  "index_reduce_amax", "fill_tensor"])
def test_second_derivatives(name):
    from opyard.autograd import gradgradcheck
    mask = opyard.tensor([[True, False, True], [False, True, True]])
    idx = opyard.tensor([2, 0, 2])
    calls = {
        "put": (lambda a, s: opyard.put(a, opyard.tensor([4, 0, 4]), s, True) ** 2, (_x(2, 3), _x(3, seed=1))),
        "masked_scatter": (lambda a, s: opyard.masked_scatter(a, mask, s) ** 2, (_x(2, 3), _x(6, seed=1))),
        "unsafe_masked_index": (lambda a: opyard._unsafe_masked_index(a, mask, [opyard.tensor([[0], [1]]),
                                                                                 opyard.tensor([2, 0, 7])], 0.0) ** 2,
                                (_x(2, 3),)),
        "index_reduce_mean": (lambda a, s: opyard.index_reduce(a, 1, idx, s, "mean") ** 2, (_x(2, 3), _x(2, 3, seed=1))),
        "index_reduce_amax": (lambda a, s: opyard.index_reduce(a, 1, idx, s, "amax") ** 2, (_x(2, 3), _x(2, 3, seed=1))),
        "fill_tensor": (lambda a, v: opyard.fill(a, v) ** 2 * a, (_x(2, 3), _x())),
    }
    fn, inputs = calls[name]
    assert gradgradcheck(fn, tuple(t.requires_grad_() for t in inputs))
