"""``topk``, ``sort`` (not stable), ``argsort``, ``kthvalue``, ``mode`` and ``unique`` (each nan its own
value, in the order of torch's sort) are torch's CPU kernels
element for element, equal values included: torch runs the C++ library's partial sort, selection or
sort, or a quickselect of its own, on each row, none of them stable, so which of several equal
values it picks and their order are those algorithms' (Note [topk order] in src/kernels/topk.rs,
Note [Unstable orders] in src/kernels/std_order.rs). The cases with ties are torch 2.15's answers
(``make orders-expect``); rows without ties have one answer, checked against numpy's sort at sizes
on both sides of the pool threshold."""

import os

import ml_dtypes
import numpy as np
import opyard
import pytest

_DATA = np.load(os.path.join(os.path.dirname(__file__), "..", "data", "torch_orders.npz"))
_META = _DATA["meta"]
_DTYPES = ["float32", "float64", "float16", "bfloat16", "int64", "int32", "int16", "int8", "uint8"]


def _np_dtype(name):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


@pytest.mark.parametrize("case", range(len(_META)))
def test_topk_is_torchs_index_for_index(case):
    dtype, dim, k, largest, srt = (int(v) for v in _META[case])
    name = _DTYPES[dtype]
    x = _DATA[f"x{case}"].astype(np.float64).astype(_np_dtype(name))
    values, indices = opyard.topk(opyard.from_numpy(x), k, dim, bool(largest), bool(srt))
    np.testing.assert_array_equal(indices.numpy(), _DATA[f"n{case}"])
    np.testing.assert_array_equal(values.numpy().astype(np.float64), _DATA[f"v{case}"])
    assert values.dtype == getattr(opyard, name) and indices.dtype == opyard.int64


def _case(case):
    dtype, dim, k, largest, srt = (int(v) for v in _META[case])
    name = _DTYPES[dtype]
    return opyard.from_numpy(_DATA[f"x{case}"].astype(np.float64).astype(_np_dtype(name))), dim, k


_SORTED = [c for c in range(len(_META)) if f"s{c}" in _DATA]


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("case", _SORTED)
def test_sort_and_argsort_are_torchs_index_for_index(case, descending):
    t, dim, _ = _case(case)
    want = _DATA[f"{'d' if descending else 's'}{case}"].astype(np.int64)
    values, indices = opyard.sort(t, dim, descending=descending)
    np.testing.assert_array_equal(indices.numpy(), want)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(t.numpy(), want, dim))
    np.testing.assert_array_equal(opyard.argsort(t, dim, descending=descending).numpy(), want)
    np.testing.assert_array_equal(t.sort(dim=dim, descending=descending, stable=False).indices.numpy(), want)
    np.testing.assert_array_equal(t.argsort(dim=dim, descending=descending, stable=False).numpy(), want)


@pytest.mark.parametrize("case", range(len(_META)))
def test_kthvalue_and_mode_are_torchs_index_for_index(case):
    t, dim, k = _case(case)
    kth = opyard.kthvalue(t, max(k, 1), dim)
    np.testing.assert_array_equal(kth.indices.numpy(), _DATA[f"k{case}"])
    mode = opyard.mode(t, dim)
    np.testing.assert_array_equal(mode.indices.numpy(), _DATA[f"m{case}"])
    for r in (kth, mode):
        got = np.take_along_axis(t.numpy(), np.expand_dims(r.indices.numpy(), dim), dim).squeeze(dim)
        np.testing.assert_array_equal(r.values.numpy(), got)
        assert r.values.dtype == t.dtype


@pytest.mark.parametrize("case", [c for c in range(len(_META)) if f"u{c}" in _DATA])
def test_unique_orders_nans_as_torchs_sort(case):
    t, _, _ = _case(case)
    values, inverse = opyard.unique(t, return_inverse=True)
    np.testing.assert_array_equal(inverse.numpy(), _DATA[f"u{case}"])
    np.testing.assert_array_equal(values.numpy()[inverse.numpy()], t.numpy())


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.int16, np.int8, np.uint8, np.uint16, np.uint32])
def test_sort_of_long_1d_integers_ascending_is_stable_as_torchs_radix_sort(dtype):
    rng = np.random.default_rng(0)
    info = np.iinfo(dtype)
    for x in (rng.integers(0, 50, 1 << 15).astype(dtype),  # few values: ties everywhere
              rng.integers(info.min, info.max, 1 << 16, endpoint=True, dtype=dtype)):  # the whole range
        values, indices = opyard.sort(opyard.from_numpy(x))
        np.testing.assert_array_equal(indices.numpy(), np.argsort(x, kind="stable"))
        np.testing.assert_array_equal(values.numpy(), np.sort(x))
        np.testing.assert_array_equal(opyard.argsort(opyard.from_numpy(x)).numpy(), np.argsort(x, kind="stable"))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_stable_keeps_position_order(descending):
    x = np.round(np.random.default_rng(1).normal(size=(3, 500)))
    got = opyard.sort(opyard.from_numpy(x), dim=-1, descending=descending, stable=True).indices.numpy()
    want = np.argsort(-x if descending else x, -1, kind="stable")
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("call, exc, message", [
    (lambda t: opyard.kthvalue(t.to(opyard.bool), 1), NotImplementedError, "\"kthvalue_cpu\" not implemented for 'Bool'"),
    (lambda t: opyard.kthvalue(t.to(opyard.uint32), 1), NotImplementedError, "\"kthvalue_cpu\" not implemented for 'UInt32'"),
    (lambda t: opyard.mode(t.to(opyard.uint16)), NotImplementedError, "\"mode_cpu\" not implemented for 'UInt16'"),
    (lambda t: opyard.sort(t.to(opyard.float8_e4m3fn)), NotImplementedError,
     "\"sorting_kernel_method_name\" not implemented for 'Float8_e4m3fn'"),
])
def test_order_ops_refuse_the_dtypes_torch_refuses(call, exc, message):
    with pytest.raises(exc, match="^" + message + "$"):
        call(opyard.ones(3))


@pytest.mark.parametrize("dtype", [opyard.bool, opyard.uint16, opyard.uint32, opyard.uint64])
def test_sort_takes_bool_and_wide_unsigned_data(dtype):
    t = opyard.tensor([3, 1, 2, 1]).to(dtype)
    values, indices = opyard.sort(t, stable=True)
    assert values.dtype == dtype and values.tolist() == sorted(t.tolist())
    assert opyard.mode(opyard.tensor([True, False, True])).values.item() is True


def _distinct(rng, shape, dtype):
    """Values without ties (a permutation), so the top k has one answer."""
    x = rng.permutation(int(np.prod(shape))).reshape(shape) - 7
    return x.astype(dtype)


_SHAPES = [((1, 300), 1, 7), ((3, 600), -1, 300), ((600, 2), 0, 40), ((1 << 16,), 0, 100),
           ((2, 1 << 15), 1, 500), ((1 << 15, 3), 0, 9), ((40000,), 0, 1), ((20000,), 0, 312),
           ((64, 2048), 1, 16), ((5, 7), 1, 7)]
# float16 holds every integer up to 2048: the shapes with at most that many elements.
_DISTINCT = [(shape, dim, k, dtype) for shape, dim, k in _SHAPES
             for dtype in (np.float32, np.float64, np.int64, np.int32, np.float16)
             if dtype != np.float16 or np.prod(shape) <= 2048]


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("shape, dim, k, dtype", _DISTINCT)
def test_topk_of_distinct_values_is_the_sorted_rows_head(shape, dim, k, dtype, largest):
    x = _distinct(np.random.default_rng(k), shape, dtype)
    values, indices = opyard.topk(opyard.from_numpy(x), k, dim, largest)
    d = dim % x.ndim
    order = np.argsort(-x.astype(np.float64) if largest else x, axis=d, kind="stable")
    want = np.take(order, np.arange(k), axis=d)
    np.testing.assert_array_equal(indices.numpy(), want)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, d))


def test_topk_unsorted_keeps_the_same_elements_and_a_non_contiguous_input():
    rng = np.random.default_rng(1)
    x = _distinct(rng, (1 << 12, 2), np.float32)
    x[[5, 77, 900], 1] = np.nan
    t = opyard.from_numpy(x).t()  # rows along the non-contiguous dim
    values, indices = opyard.topk(t, 3, 1)
    # nan is the largest value; the order of the three is torch 2.15's answer for this input.
    assert indices[1].tolist() == [900, 77, 5] and np.isnan(values[1].numpy()).all()
    v_all, i_all = opyard.topk(t, 1000, 1, sorted=False)
    v_sorted, i_sorted = opyard.topk(t, 1000, 1)
    np.testing.assert_array_equal(np.sort(i_all.numpy(), 1), np.sort(i_sorted.numpy(), 1))


@pytest.mark.parametrize("dtype, exc, message", [
    (opyard.bool, NotImplementedError, "topk does not support bool dtypes on CPU"),
    (opyard.uint16, NotImplementedError, "\"topk_cpu\" not implemented for 'UInt16'"),
    (opyard.uint64, NotImplementedError, "\"topk_cpu\" not implemented for 'UInt64'"),
    (opyard.float8_e4m3fn, NotImplementedError, "\"topk_cpu\" not implemented for 'Float8_e4m3fn'"),
    (opyard.complex64, TypeError, " topk does not support complex dtypes on CPU"),
])
def test_topk_refuses_the_dtypes_torch_refuses(dtype, exc, message):
    with pytest.raises(exc, match="^" + message.replace("(", r"\(") + "$"):
        opyard.topk(opyard.ones(3).to(dtype), 1)


@pytest.mark.parametrize("k", [-1, 4])
def test_topk_k_out_of_range(k):
    with pytest.raises(RuntimeError, match=rf"selected index k out of range \(aten::topk: k={k}, dimension 0 has size 3\)"):
        opyard.topk(opyard.ones(3), k)


@pytest.mark.parametrize("k", [0, 1])
def test_topk_of_a_zero_dim_tensor_is_its_element(k):
    values, indices = opyard.topk(opyard.tensor(2.5), k)
    assert values.item() == 2.5 and indices.item() == 0 and values.dim() == 0 and indices.dim() == 0


@pytest.mark.parametrize("shape, dim", [((0,), 0), ((3, 0), 1), ((0, 4), 0), ((0, 4), 1), ((2, 0, 3), 1)])
@pytest.mark.parametrize("dtype", [opyard.float32, opyard.float64, opyard.int64, opyard.int32, opyard.float16])
def test_orders_of_empty_tensors(shape, dim, dtype):
    t = opyard.zeros(shape, dtype=dtype)
    for descending in (False, True):
        values, indices = opyard.sort(t, dim, descending)
        assert values.shape == t.shape and indices.shape == t.shape and values.dtype == dtype
    values, indices = opyard.topk(t, 0, dim)
    assert values.shape == tuple(0 if i == dim else s for i, s in enumerate(shape))
    if shape[dim]:
        assert opyard.kthvalue(t, 1, dim).values.numel() == 0 and opyard.mode(t, dim).values.numel() == 0
    else:
        with pytest.raises(IndexError, match=f"mode\\(\\): Expected reduction dim {dim} to have non-zero size."):
            opyard.mode(t, dim)


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


_ORDER_CALLS = {
    "sort": lambda t: opyard.sort(t, 1),
    "sort descending": lambda t: opyard.sort(t, 1, True),
    "topk": lambda t: opyard.topk(t, 700, 1),
    "topk k=5": lambda t: opyard.topk(t, 5, 1, largest=False),
    "kthvalue": lambda t: opyard.kthvalue(t, 1000, 1),
    "mode": lambda t: opyard.mode(t, 1),
}


@pytest.mark.parametrize("name", list(_ORDER_CALLS))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int32])
def test_orders_on_the_pool_are_each_rows_own(name, dtype, threads):
    """40 rows of 4096 (above the pool's threshold): on 1 and 2 threads the same as each row alone."""
    x = np.round(np.random.default_rng(3).normal(size=(40, 4096)) * 4).astype(dtype)
    if dtype in (np.float32, np.float64):
        x[:, ::97] = np.nan
    call = _ORDER_CALLS[name]
    got = []
    for n in (1, 2):
        opyard.set_num_threads(n)
        values, indices = call(opyard.from_numpy(x))
        got.append((values.numpy().tobytes(), indices.numpy().tobytes()))
    assert got[0] == got[1]
    rows = [call(opyard.from_numpy(x[r:r + 1].copy())) for r in range(0, 40, 13)]
    for r, (v, i) in zip(range(0, 40, 13), rows):
        np.testing.assert_array_equal(i.numpy()[0], indices.numpy()[r])
        np.testing.assert_array_equal(v.numpy()[0], values.numpy()[r])
