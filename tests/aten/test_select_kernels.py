"""The Rust kernels behind ``topk`` (``kernels/topk.rs``), ``gather``, ``scatter`` and ``scatter_add``
(``kernels/select.rs``).

Results are pinned against numpy references at sizes
below and above the point where the intra-op pool switches on (2 * 32768 elements of work; a single
``topk`` row from 4 * 32768), along every dim, for every dtype the Rust path takes, and do not depend on
the number of threads (``topk``'s order among equal values is torch's: ``test_topk_selection.py``). Inputs it does not take (strided, other dtypes, an index smaller than the data)
go to the numpy kernel and give the same answers; out-of-range indices raise torch's error."""

import numpy as np
import opyard
import pytest
from opyard import _core

DTYPES = [np.float32, np.float64, np.int64, np.int32]
# (shape, why): inline, pool over rows, one long row split across the pool.
SHAPES = [((5, 7), "inline"), ((3, 300, 90), "pool, odd sizes"), ((1 << 18,), "one long row")]


@pytest.fixture
def threads():
    before = opyard.get_num_threads()
    yield
    opyard.set_num_threads(before)


def _data(shape, dt, seed=0, special=False):
    rng = np.random.default_rng(seed)
    if np.dtype(dt).kind == "i":
        return rng.integers(-50 if special else -10**6, 50 if special else 10**6, shape).astype(dt)
    x = rng.standard_normal(shape).astype(dt)
    if special:  # ties, nan (every nan the largest value) and -0.0 (equal to 0.0)
        x = np.round(x * 2) / 2
        x.reshape(-1)[::11] = np.nan
        x.reshape(-1)[::13] = -0.0
    return x


def _topk_reference(x, k, d, largest):
    """The first k of the stable order by value (nan largest, -0.0 == 0.0): torch's values, and its
    indices where no two of the values compared are equal."""
    rows = np.moveaxis(x, d, -1)
    v = np.where(np.isnan(rows), np.inf, rows) if rows.dtype.kind == "f" else rows
    nan = np.isnan(rows) if rows.dtype.kind == "f" else np.zeros(rows.shape, bool)
    key = -v.astype(np.float64) if largest else v
    first = ~nan if largest else nan  # largest: nan first; smallest: nan last
    pos = np.broadcast_to(np.arange(rows.shape[-1]), rows.shape)
    idx = np.empty(rows.shape[:-1] + (k,), np.int64)
    for r in np.ndindex(rows.shape[:-1]):
        idx[r] = np.lexsort((pos[r], key[r], first[r]))[:k]
    idx = np.moveaxis(idx, -1, d)
    return np.take_along_axis(x, idx, d), idx


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [s for s, _ in SHAPES])
@pytest.mark.parametrize("special", [False, True])
def test_topk_is_the_sorted_head_on_every_thread_count(dt, shape, special, threads):
    x = _data(shape, dt, special=special)
    for d in range(len(shape)):
        for k in sorted({min(j, shape[d]) for j in (0, 1, 5, 100)} | {shape[d]}):
            for largest in (True, False):
                ev, ei = _topk_reference(x, k, d, largest)
                got = []
                for n in (1, 2):
                    opyard.set_num_threads(n)
                    v, i = opyard.topk(opyard.from_numpy(x), k, d, largest)
                    assert v.dtype == opyard.from_numpy(x).dtype and i.dtype == opyard.int64
                    np.testing.assert_array_equal(v.numpy(), ev)
                    # Each index points at its value; with ties, which one is torch's choice.
                    np.testing.assert_array_equal(np.take_along_axis(x, i.numpy(), d), ev)
                    if not special and len(np.unique(x)) == x.size:
                        np.testing.assert_array_equal(i.numpy(), ei)
                    got.append((v.numpy().tobytes(), i.numpy().tobytes()))
                assert got[0] == got[1]


def test_topk_of_a_strided_input_and_of_16_bit_data_is_that_of_a_copy():
    x = _data((300, 400), np.float32, special=True)
    v, i = opyard.topk(opyard.from_numpy(x).t(), 7, 1)
    vc, ic = opyard.topk(opyard.from_numpy(np.ascontiguousarray(x.T)), 7, 1)
    np.testing.assert_array_equal(i.numpy(), ic.numpy())
    h = x.astype(np.float16)
    vh, ih = opyard.topk(opyard.from_numpy(h), 7, 1)
    np.testing.assert_array_equal(ih.numpy(), opyard.topk(opyard.from_numpy(h.astype(np.float32)), 7, 1)[1].numpy())
    assert vh.dtype == opyard.float16


def _index(shape, d, m, n, seed=1):
    s = list(shape)
    s[d] = m
    return np.random.default_rng(seed).integers(0, n, s)


def _scatter_add_reference(x, d, idx, src):
    r = x.copy()
    grids = list(np.indices(idx.shape, sparse=True))
    grids[d] = idx
    np.add.at(r, tuple(grids), src)
    return r


def _scatter_reference(x, d, idx, src, reduce=None):
    """torch's CPU scatter: the index's C order, one element at a time (the last write wins)."""
    r = x.copy()
    src = np.broadcast_to(np.asarray(src, dtype=x.dtype), idx.shape)
    with np.errstate(over="ignore"):  # integer products wrap, as in torch
        _scatter_elementwise(r, d, idx, src, reduce)
    return r


def _scatter_elementwise(r, d, idx, src, reduce):
    for pos in np.ndindex(idx.shape):
        at = list(pos)
        at[d] = idx[pos]
        at = tuple(at)
        if reduce == "add":
            r[at] += src[pos]
        elif reduce == "multiply":
            r[at] *= src[pos]
        else:
            r[at] = src[pos]


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(5, 7), (60, 30, 40)])
@pytest.mark.parametrize("reduce", [None, "add", "multiply"])
def test_scatter_and_scatter_value_match_the_elementwise_order_on_every_thread_count(dt, shape, reduce, threads):
    x = _data(shape, dt)
    for d in range(len(shape)):
        for m in (1, shape[d], 2 * shape[d] + 1):  # m > n: repeated targets, the last write wins
            idx = _index(shape, d, m, shape[d])
            src = _data(idx.shape, dt, seed=2)
            value = 3 if dt in (np.int64, np.int32) else -1.5
            want_t = _scatter_reference(x, d, idx, src, reduce)
            want_v = _scatter_reference(x, d, idx, value, reduce)
            assert not _core.FAST_PATHS or _core._select_scatter(x, d, idx, src, False, reduce or "") is not None
            for n in (1, 2):
                opyard.set_num_threads(n)
                t, i = opyard.from_numpy(x), opyard.from_numpy(idx)
                kw = {"reduce": reduce} if reduce else {}
                got = t.scatter(d, i, opyard.from_numpy(src), **kw).numpy()
                assert got.dtype == dt and got.tobytes() == want_t.tobytes()
                got = t.scatter(d, i, value, **kw).numpy()
                assert got.dtype == dt and got.tobytes() == want_v.tobytes()
                assert t.numpy().tobytes() == x.tobytes()  # a new result


@pytest.mark.parametrize("shape", [(4, 5), (600, 300)])
def test_scatter_out_of_range_raises_torchs_error_and_leaves_self(shape, threads):
    opyard.set_num_threads(2)
    x = _data(shape, np.float64)
    idx = _index(shape, 1, shape[1], shape[1])
    idx[-1, -1] = -1
    idx[shape[0] // 2, 2] = shape[1]  # the first in the index's order
    t, i = opyard.from_numpy(x), opyard.from_numpy(idx)
    msg = f"index {shape[1]} is out of bounds for dimension 1 with size {shape[1]}"
    for call in (lambda: t.scatter(1, i, opyard.from_numpy(np.ones(idx.shape))), lambda: t.scatter(1, i, 2.0),
                 lambda: t.scatter(1, i, 2.0, reduce="multiply")):
        with pytest.raises(RuntimeError, match=msg):
            call()
    assert t.numpy().tobytes() == x.tobytes()


def test_scatter_inputs_the_rust_path_does_not_take_go_to_numpy():
    x = _data((40, 30), np.float32)
    idx = _index((40, 30), 1, 30, 30)
    src = _data(idx.shape, np.float32, seed=2)
    # a src larger than the index (only its index-shaped part is read), float16 data, a strided self,
    # an unknown reduction, a value that is not one element
    big = _data((40, 31), np.float32, seed=3)
    assert _core._select_scatter(x, 1, idx, big, False, "") is None
    got = opyard.from_numpy(x).scatter(1, opyard.from_numpy(idx), opyard.from_numpy(big)).numpy()
    assert got.tobytes() == _scatter_reference(x, 1, idx, big[:, :30]).tobytes()
    h = x.astype(np.float16)
    assert _core._select_scatter(h, 1, idx, h, False, "") is None
    got = opyard.from_numpy(h).scatter(1, opyard.from_numpy(idx), opyard.from_numpy(h)).numpy()
    assert got.tobytes() == _scatter_reference(h, 1, idx, h).tobytes()
    assert _core._select_scatter(x.T, 1, np.ascontiguousarray(idx.T), src.T, False, "") is None
    got = opyard.from_numpy(x).t().scatter(1, opyard.from_numpy(idx.T.copy()), opyard.from_numpy(src.T.copy())).numpy()
    assert got.tobytes() == _scatter_reference(x.T, 1, idx.T, src.T).tobytes()
    assert _core._select_scatter(x, 1, idx, src, False, "mean") is None
    assert _core._select_scatter(x, 1, idx, src, True, "") is None


@pytest.mark.parametrize("dt", DTYPES)
@pytest.mark.parametrize("shape", [(5, 7), (3, 300, 90), (1 << 17,)])
def test_gather_and_scatter_add_match_numpy_on_every_thread_count(dt, shape, threads):
    x = _data(shape, dt)
    for d in range(len(shape)):
        for m in (1, shape[d], 2 * shape[d] + 1):
            idx = _index(shape, d, m, shape[d])
            src = _data(idx.shape, dt, seed=2)
            want_g = np.take_along_axis(x, idx, d)
            want_s = _scatter_add_reference(x, d, idx, src)
            for n in (1, 2):
                opyard.set_num_threads(n)
                g = opyard.gather(opyard.from_numpy(x), d, opyard.from_numpy(idx)).numpy()
                assert g.dtype == dt and g.tobytes() == want_g.tobytes()
                s = opyard.from_numpy(x).scatter_add(d, opyard.from_numpy(idx), opyard.from_numpy(src)).numpy()
                assert s.dtype == dt and s.tobytes() == want_s.tobytes()


@pytest.mark.parametrize("shape", [(4, 5), (600, 300)])
@pytest.mark.parametrize("bad", [-1, 5, 300, -(1 << 40)])
def test_out_of_range_indices_raise_torchs_error_naming_the_first(shape, bad, threads):
    opyard.set_num_threads(2)
    x = _data(shape, np.float32)
    idx = _index(shape, 1, shape[1], shape[1])
    idx[-1, -1] = bad  # the last row: after the ones a pool's other block writes
    idx[shape[0] // 2, 2] = shape[1] + 7 if bad >= 0 else bad  # the first in the index's order
    first = int(idx[shape[0] // 2, 2])
    before = x.copy()
    t, i, src = opyard.from_numpy(x), opyard.from_numpy(idx), opyard.from_numpy(np.ones(idx.shape, np.float32))
    msg = f"index {first} is out of bounds for dimension 1 with size {shape[1]}"
    with pytest.raises(RuntimeError, match=msg):
        opyard.gather(t, 1, i)
    with pytest.raises(RuntimeError, match=msg):
        t.scatter_add(1, i, src)
    with pytest.raises(RuntimeError, match=msg):
        t.scatter_add_(1, i, src)
    assert x.tobytes() == before.tobytes()


def test_gather_from_an_empty_dim_raises():
    with pytest.raises(RuntimeError, match="index 0 is out of bounds for dimension 1 with size 0"):
        opyard.gather(opyard.zeros(3, 0), 1, opyard.zeros(3, 2, dtype=opyard.int64))


def test_what_the_rust_path_does_not_take_goes_to_numpy():
    x = _data((40, 30), np.float32)
    idx = _index((40, 30), 1, 30, 30)
    # an index smaller than the data apart from dim, a strided input, an int32 index, float16 data
    small = idx[:20]
    assert _core._select_gather(x, 1, small) is None
    np.testing.assert_array_equal(opyard.gather(opyard.from_numpy(x), 1, opyard.from_numpy(small)).numpy(),
                                  np.take_along_axis(x[:20], small, 1))
    assert _core._select_gather(x.T, 1, np.ascontiguousarray(_index((30, 40), 1, 40, 40))) is None
    xt = opyard.from_numpy(x).t()
    it = np.ascontiguousarray(_index((30, 40), 1, 40, 40))
    np.testing.assert_array_equal(opyard.gather(xt, 1, opyard.from_numpy(it)).numpy(),
                                  np.take_along_axis(x.T, it, 1))
    assert _core._select_gather(x, 1, idx.astype(np.int32)) is None
    np.testing.assert_array_equal(opyard.gather(opyard.from_numpy(x), 1, opyard.from_numpy(idx.astype(np.int32))).numpy(),
                                  np.take_along_axis(x, idx, 1))
    h = x.astype(np.float16)
    assert _core._select_scatter(h, 1, idx, h, False, "add") is None
    np.testing.assert_array_equal(
        opyard.from_numpy(h).scatter_add(1, opyard.from_numpy(idx), opyard.from_numpy(h)).numpy(),
        _scatter_add_reference(h, 1, idx, h))


WHERE_DTYPES = [opyard.bool, opyard.int8, opyard.float16, opyard.bfloat16, opyard.int32, opyard.float32,
                opyard.int64, opyard.float64, opyard.complex64]


@pytest.mark.parametrize("dt", WHERE_DTYPES)
@pytest.mark.parametrize("shape", [(300,), (40000,), (3, 300, 90)])  # below the Rust minimum, inline, pool
def test_where_selects_every_dtype_bit_for_bit_on_every_thread_count(dt, shape, threads):
    rng = np.random.default_rng(5)
    cond = rng.random(shape) > 0.5
    a = opyard.from_numpy(rng.standard_normal(shape) * 100).to(dt)
    b = opyard.from_numpy(rng.standard_normal(shape) * 100).to(dt)
    want = np.where(cond, a.numpy(), b.numpy())
    for n in (1, 2):
        opyard.set_num_threads(n)
        got = opyard.where(opyard.from_numpy(cond), a, b)
        assert got.dtype == dt and got.shape == a.shape
        assert got.numpy().tobytes() == want.tobytes()


def test_where_inputs_the_rust_path_does_not_take_go_to_numpy():
    rng = np.random.default_rng(6)
    cond = rng.random((300, 200)) > 0.5
    a, b = rng.standard_normal((300, 200)), rng.standard_normal((300, 200))
    assert not _core.FAST_PATHS or _core._select_where(cond, a.view(np.uint64), b.view(np.uint64)) is not None
    assert _core._select_where(cond.T, a.T.view(np.uint64), b.T.view(np.uint64)) is None  # strided
    assert _core._select_where(cond, a.view(np.uint64), b[:100].view(np.uint64)) is None  # shapes differ
    assert _core._select_where(cond.astype(np.uint8), a.view(np.uint64), b.view(np.uint64)) is None  # not bool
    assert _core._select_where(cond, a, b) is None  # not bits
    ta, tb, tc = opyard.from_numpy(a), opyard.from_numpy(b), opyard.from_numpy(cond)
    np.testing.assert_array_equal(opyard.where(tc.t(), ta.t(), tb.t()).numpy(), np.where(cond.T, a.T, b.T))
    np.testing.assert_array_equal(opyard.where(tc, ta, tb[0]).numpy(), np.where(cond, a, b[0]))  # broadcast
    np.testing.assert_array_equal(opyard.where(tc, ta, 2.5).numpy(), np.where(cond, a, 2.5))  # a Scalar
    np.testing.assert_array_equal(opyard.where(tc, ta, tb.to(opyard.float32)).numpy(),
                                  np.where(cond, a, b.astype(np.float32)))  # promoted
