"""The small-input routes of the reductions, statistics, sorting, norms, losses and matrix products.

The common call of each of these kernels (a plain numpy array of float32/float64 data, or of any real
dtype where that is all it needs, default arguments) takes a short route: numpy's own steps called
directly (``ufunc.reduce`` where ``np.max``/``np.sum``/... wrap it, ``_methods._var``'s steps without
its frames, the division by a count as a float where numpy divides by an intp), the Rust amax/amin
scan where its answer cannot differ from numpy's (not a zero, whose sign depends on the order of the
scan, nor a nan), cummax/cummin at once instead of a Python loop, or the checks done by one quick
test. Every other call keeps the general route.

Each short route is pinned here bit for bit (dtype, shape, every byte, errors) against the general
one, on the same values: a tensor whose data is a trivial numpy subclass takes the general route (the
short ones ask for a plain ``ndarray``, as numpy's own wrappers do before calling the ufunc). The
values hold -0.0, nan and inf; the layouts are 0-d, one element, 64 elements, 16x16, non-contiguous
views and empty tensors. A few answers are also pinned against numpy float64 references and torch's
rules (dtypes, errors)."""

import math
import warnings

import ml_dtypes
import numpy as np
import opyard
import pytest
from kernel_values import as_test_dtype
from opyard._aten import linalg, loss_ops, norm_ops, norms, reduce_ops, reduction, statistics
from opyard._tensor import _make

EDGES = [-0.0, 0.0, math.nan, math.inf, -math.inf, 1.0, -1.0, 0.5, 2.0, -3.0, 1e-40, 3e38, -1e30]
BF16 = np.dtype(ml_dtypes.bfloat16)
DTYPES = [np.float32, np.float64, np.int64, np.bool_, BF16]
FLOATS = [np.float32, np.float64]
# name -> shape, or how the layout is made from a larger array
LAYOUTS = ["0d", "1", "64", "99", "16x16", "5x3", "transposed", "strided", "empty", "empty2d"]
# which values: random normals, with the edge values, all zeros of both signs, one nan among numbers
KINDS = ["normal", "edges", "zeros", "nan"]


class General(np.ndarray):
    """A numpy array the short routes do not take: its tensor runs the general route."""


def _values(layout, dtype, kind, seed=0):
    """A numpy array of ``layout`` holding values of ``kind`` in ``dtype`` (see the constants)."""
    rng = np.random.default_rng(seed)
    n = {"0d": 1, "1": 1, "64": 64, "99": 99, "16x16": 256, "5x3": 15, "transposed": 256, "strided": 128, "empty": 0,
         "empty2d": 0}[layout]
    v = rng.standard_normal(n) * 3
    if kind == "edges":
        v[: min(n, len(EDGES))] = EDGES[:n]
        v = rng.permutation(v)
    elif kind == "zeros":
        v = rng.choice([-0.0, 0.0], n)
    elif kind == "nan" and n:
        v[rng.integers(n)] = math.nan
    v = as_test_dtype(v, dtype)
    if layout == "0d":
        return v.reshape(())
    if layout == "5x3":  # counts that are not powers of two: divisions round
        return v.reshape(5, 3)
    if layout in ("16x16", "transposed"):
        v = v.reshape(16, 16)
        return v.T if layout == "transposed" else v
    if layout == "strided":
        return v[::2]
    if layout == "empty2d":
        return v.reshape(0, 3)
    return v


def _pair(x):
    """Two tensors over the same values: a plain one (the short route) and a general one."""
    plain = opyard.from_numpy(x.copy() if x.flags.c_contiguous else x)
    general = _make(np.asarray(x).view(General))
    return plain, general


def _result(f, *args, **kwargs):
    """Everything a kernel's answer is: each output's dtype, shape and bytes, or the error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            r = f(*args, **kwargs)
    except Exception as e:  # the same error either way
        return type(e).__name__, str(e)
    if isinstance(r, tuple):
        return tuple(_result(lambda o=o: o) for o in r)
    d = np.asarray(r._data)
    return str(d.dtype), d.shape, d.tobytes()


def _same_both_ways(f, x, *args, **kwargs):
    plain, general = _pair(x)
    got = _result(f, plain, *args, **kwargs)
    assert got == _result(f, general, *args, **kwargs)
    return got


K = reduction.KERNELS

FULL = {
    "max": lambda t: K["max"](t), "min": lambda t: K["min"](t),
    "amax": lambda t: K["amax"](t), "amin keepdim": lambda t: K["amin"](t, [], True),
    "argmax": lambda t: K["argmax"](t), "argmin": lambda t: K["argmin"](t),
    "prod": lambda t: K["prod"](t), "mean": lambda t: K["mean"](t),
    "var": lambda t: K["var.correction"](t), "std": lambda t: K["std.correction"](t),
    "var 0": lambda t: K["var.correction"](t, correction=0), "std keepdim": lambda t: K["std.correction"](t, keepdim=True),
    "any": lambda t: K["any"](t), "all": lambda t: K["all"](t),
    "median": lambda t: reduce_ops.median(t), "nansum": lambda t: reduce_ops.nansum(t),
    "norm": lambda t: norms.linalg_vector_norm(t), "norm keepdim": lambda t: norms.linalg_vector_norm(t, 2.0, None, True),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", list(FULL))
def test_reductions_of_every_element(op, dtype, layout, kind):
    _same_both_ways(FULL[op], _values(layout, dtype, kind))


def _dims_of(layout):
    return {"0d": [0, -1, [0]], "1": [0, [-1]], "64": [0, [0]], "99": [0], "5x3": [0, [1], [0, 1]], "strided": [0],
            "empty": [0],
            "16x16": [0, 1, -1, [1], [0, 1]], "transposed": [0, [1], [-2, -1]], "empty2d": [0, 1]}[layout]


ALONG = {
    "sum": lambda t, d, k: K["sum.dim_IntList"](t, d, k), "mean": lambda t, d, k: K["mean.dim"](t, d, k),
    "amax": lambda t, d, k: K["amax"](t, d, k), "amin": lambda t, d, k: K["amin"](t, d, k),
    "var": lambda t, d, k: K["var.correction"](t, d, keepdim=k),
    "std 0": lambda t, d, k: K["std.correction"](t, d, correction=0, keepdim=k),
    "nansum": lambda t, d, k: reduce_ops.nansum(t, d, k),
    "norm": lambda t, d, k: norms.linalg_vector_norm(t, 2, d, k),
    "max.dim": lambda t, d, k: K["max.dim"](t, d if isinstance(d, int) else d[0], k),
    "argmin": lambda t, d, k: K["argmin"](t, d if isinstance(d, int) else d[0], k),
    "median.dim": lambda t, d, k: reduce_ops.median_dim(t, d if isinstance(d, int) else d[0], k),
    "cumsum": lambda t, d, k: K["cumsum"](t, d if isinstance(d, int) else d[0]),
    "cummax": lambda t, d, k: reduce_ops.KERNELS["cummax"](t, d if isinstance(d, int) else d[0]),
    "cummin": lambda t, d, k: reduce_ops.KERNELS["cummin"](t, d if isinstance(d, int) else d[0]),
}


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("op", list(ALONG))
def test_reductions_along_dims(op, dtype, layout, kind, keepdim):
    x = _values(layout, dtype, kind, seed=1)
    for dim in _dims_of(layout):
        _same_both_ways(ALONG[op], x, dim, keepdim)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("layout", ["1", "64", "99", "16x16", "5x3"])
def test_against_numpy_references(layout, dtype):
    """The answers numpy gives (the general route's own calls), bit for bit."""
    x = np.ascontiguousarray(_values(layout, dtype, "edges", seed=2))  # numpy's order is its layout's
    t = opyard.from_numpy(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        pairs = [
            (t.max(), np.max(x)), (t.amin(), np.amin(x)), (t.prod(), np.prod(x)), (t.mean(), np.mean(x)),
            (t.var(), np.var(x, ddof=1)), (t.std(correction=0), np.std(x)), (t.argmax(), np.argmax(x)),
            (t.cumsum(0) if x.ndim == 1 else t.cumsum(1),
             np.cumsum(x, axis=x.ndim - 1, dtype=np.float64).astype(dtype)),
            (opyard.sum(t, [0]), np.sum(x, axis=0)), (opyard.mean(t, [-1], True), np.mean(x, axis=-1, keepdims=True)),
            (opyard.var(t, 0), np.var(x, axis=0, ddof=1)), (opyard.nansum(t), np.nansum(x)),
            (opyard.linalg.vector_norm(t), np.sqrt(np.sum(np.abs(x) ** 2))),
        ]
    for got, want in pairs:
        want = np.asarray(want)
        assert got.numpy().dtype == want.dtype and got.numpy().tobytes() == want.tobytes()


@pytest.mark.parametrize("dtype", FLOATS)
def test_divisions_by_counts_are_numpys(dtype):
    """The means and variances whose division by the count the short routes do their own way, against
    numpy bit for bit over many counts and magnitudes (tiny, huge, float32's subnormals)."""
    rng = np.random.default_rng(15)
    for n in list(range(1, 41)) + [99, 255, 1000]:
        x = (rng.standard_normal(n) * 10.0 ** rng.integers(-40, 30)).astype(dtype)
        t = opyard.from_numpy(x)
        with np.errstate(all="ignore"):
            pairs = [(t.mean(), np.mean(x)), (t.var(), np.var(x, ddof=1) if n > 1 else None),
                     (t.std(correction=0), np.std(x)), (opyard.mean(t, [0]), np.mean(x, axis=0)),
                     (opyard.var(t.reshape(1, n), 1, correction=0), np.var(x.reshape(1, n), axis=1)),
                     (opyard.std(t.reshape(n, 1), 0, keepdim=True), np.std(x.reshape(n, 1), 0, ddof=1, keepdims=True)
                      if n > 1 else None)]
        for got, want in pairs:
            if want is not None:
                assert got.numpy().tobytes() == np.asarray(want).tobytes(), (n, got, want)


def test_float_answers_against_float64():
    """Means, variances and norms of float32 data within float32's rounding of the float64 answers."""
    x = np.random.default_rng(3).standard_normal((16, 16)).astype(np.float32)
    t = opyard.from_numpy(x)
    wide = x.astype(np.float64)
    for got, want in [(t.mean(), wide.mean()), (t.var(), wide.var(ddof=1)), (t.std(1), wide.std(1, ddof=1)),
                      (t.norm(), np.sqrt((wide ** 2).sum())), (opyard.mean(t, [0]), wide.mean(0))]:
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-6, atol=1e-6)


def test_torch_rules_on_the_short_routes():
    f = opyard.tensor([1.0, math.nan, 3.0])
    assert math.isnan(f.max().item()) and math.isnan(f.amin().item())  # nan propagates
    assert f.argmax().item() == 1
    z = opyard.tensor([0.0, -0.0])
    assert math.copysign(1, z.max().item()) == -1  # numpy's (and torch's) answer: the last zero
    assert opyard.tensor([True, False]).sum().dtype == opyard.int64
    assert opyard.tensor([True, False]).max().dtype == opyard.bool
    with pytest.raises(NotImplementedError, match=r"mean\(\): could not infer output dtype.*Got: Long"):
        opyard.arange(4).mean()
    with pytest.raises(RuntimeError, match=r"max\(\): Expected reduction dim to be specified"):
        opyard.tensor([]).max()
    with pytest.raises(IndexError, match="Dimension out of range"):
        opyard.ones(2, 2).sum(3)
    assert opyard.ones(3).var(correction=5).isnan().item()  # too few: the general route's nan
    assert opyard.tensor([3e38, 3e38]).var().item() == math.inf  # the sum overflows: the general route


@pytest.mark.parametrize("layout", ["0d", "1", "64", "16x16", "strided", "empty"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_sort_topk_unique(dtype, layout):
    x = _values(layout, dtype, "edges", seed=4)
    t = opyard.from_numpy(x.copy())
    if x.ndim:
        _same_both_ways(lambda t: K["sort"](t), x)
        if dtype != np.bool_:
            _same_both_ways(lambda t: K["topk"](t, min(3, x.shape[-1])), x)
    got = statistics._unique2(t, True, True, True)
    flat = x.reshape(-1)
    if flat.dtype == BF16:
        flat = flat.astype(np.float32)
    if not np.isnan(flat.astype(np.float64)).any():  # nans: each its own value, in torch's sort's order
        values, inverse, counts = np.unique(flat, return_inverse=True, return_counts=True)
        assert got[0].numpy().astype(values.dtype).tobytes() == values.tobytes()
        assert got[1].numpy().reshape(-1).tolist() == inverse.reshape(-1).tolist()
        assert got[2].numpy().tolist() == counts.tolist()
    else:
        assert got[0].numel() == np.unique(flat[~np.isnan(flat)]).size + np.isnan(flat).sum()


def test_cummax_is_the_loop():
    """cummax/cummin at once against torch's rule written as a loop: an equal element takes over (the
    later index), a nan stays once seen (a later nan takes over)."""
    rng = np.random.default_rng(5)
    for trial in range(200):
        x = rng.choice([-0.0, 0.0, 1.0, -1.0, 2.0, math.nan, math.inf], rng.integers(1, 12)).astype(np.float64)
        for name, better in (("cummax", np.greater_equal), ("cummin", np.less_equal)):
            vals, idx = reduce_ops.KERNELS[name](opyard.from_numpy(x), 0)
            v, i = x[0], 0
            for k in range(len(x)):
                if k and (math.isnan(x[k]) or (not math.isnan(v) and better(x[k], v))):
                    v, i = x[k], k
                assert vals[k].numpy().tobytes() == np.float64(v).tobytes() and idx[k].item() == i


def test_row_means_divide_as_numpy():
    """``rows.mean(axis=1)`` with its count divided as a float (numpy divides by an intp, in double
    precision): the same float32 and float64 quotients, also for huge, tiny and subnormal sums."""
    rng = np.random.default_rng(6)
    for cols in (1, 3, 7, 16, 100, 257):
        for dt in FLOATS:
            rows = (rng.standard_normal((32, cols)) * 10.0 ** rng.integers(-40, 38, (32, 1))).astype(dt)
            with np.errstate(all="ignore"):
                assert norm_ops._row_means(rows).tobytes() == rows.mean(axis=1).tobytes()


@pytest.mark.parametrize("reduction_", [0, 1, 2])
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("layout", ["1", "64", "16x16", "transposed", "0d"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, BF16], ids=str)
def test_mse_loss(dtype, layout, kind, reduction_):
    x, y = _values(layout, dtype, kind, seed=7), _values(layout, dtype, "normal", seed=8)
    a, ga = _pair(x)
    b, gb = _pair(y)
    assert _result(loss_ops.mse_loss, a, b, reduction_) == _result(loss_ops.mse_loss, ga, gb, reduction_)
    if dtype != BF16 and reduction_ == 1 and kind == "normal":
        want = np.mean((x.astype(np.float64) - y) ** 2)
        np.testing.assert_allclose(loss_ops.mse_loss(a, b, 1).item(), want, rtol=1e-5)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", KINDS)
def test_nll_loss(dtype, kind):
    x = _values("16x16", dtype, kind, seed=9)
    cases = [np.arange(16) % 5, np.full(16, 15), np.r_[np.arange(15), -100], np.r_[np.arange(15), 16],
             np.r_[np.arange(15), -1]]
    for target in cases:
        t = opyard.from_numpy(np.asarray(target, np.int64))
        for r in (0, 1, 2):
            for ignore in (-100, 3, 40):
                _same_both_ways(lambda s: loss_ops.nll_loss_forward(s, t, None, r, ignore), x)
    t = opyard.from_numpy(np.arange(16) % 16)
    got = loss_ops.nll_loss_forward(opyard.from_numpy(x), t, None, 1, -100)
    picked = x[np.arange(16), np.arange(16)]
    assert got[0].numpy().tobytes() == np.asarray(np.sum(-picked, dtype=np.float64) / 16, dtype).tobytes()
    assert got[1].item() == 16
    with pytest.raises(IndexError, match="Target 16 is out of bounds"):
        loss_ops.nll_loss_forward(opyard.from_numpy(x), opyard.from_numpy(np.r_[np.arange(15), 16]), None, 1, -100)


@pytest.mark.parametrize("dtype", FLOATS)
def test_cross_entropy_against_float64(dtype):
    x = np.random.default_rng(10).standard_normal((16, 16)).astype(dtype)
    target = np.arange(16) % 7
    got = opyard.nn.functional.cross_entropy(opyard.from_numpy(x), opyard.from_numpy(target)).item()
    wide = x.astype(np.float64)
    logp = wide - np.log(np.exp(wide).sum(1, keepdims=True))
    np.testing.assert_allclose(got, -logp[np.arange(16), target].mean(), rtol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, BF16], ids=str)
@pytest.mark.parametrize("shape, normalized", [((16, 16), [16]), ((4, 3, 5), [3, 5]), ((7,), [7])])
def test_layer_norm_against_float64(dtype, shape, normalized):
    x = np.random.default_rng(11).standard_normal(shape).astype(dtype)
    y, mean, rstd = norm_ops.native_layer_norm(opyard.from_numpy(x), normalized, None, None, 1e-5)
    wide = x.astype(np.float64).reshape(-1, math.prod(normalized))
    mu = wide.mean(1, keepdims=True)
    inv = 1 / np.sqrt(wide.var(1, keepdims=True) + 1e-5)
    assert y.dtype == opyard.from_numpy(x).dtype and tuple(y.shape) == shape
    assert tuple(mean.shape) == shape[:len(shape) - len(normalized)] + (1,) * len(normalized)
    tol = 2e-2 if dtype == BF16 else 1e-5
    np.testing.assert_allclose(y.numpy().astype(np.float64).reshape(wide.shape), (wide - mu) * inv, rtol=tol, atol=tol)
    np.testing.assert_allclose(rstd.numpy().astype(np.float64).reshape(-1), inv.reshape(-1), rtol=tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.bool_, BF16], ids=str)
def test_matrix_products_are_numpys(dtype):
    rng = np.random.default_rng(12)

    def arr(*shape):
        v = rng.standard_normal(shape) * 3
        return (v > 0 if dtype == np.bool_ else v.round() if dtype == np.int64 else v).astype(dtype)

    m, w, v, b = arr(16, 16), arr(16), arr(64), arr(8, 4, 4)
    T = opyard.from_numpy
    cases = [(linalg.mm, m, m), (linalg.mv, m, w), (linalg.dot, v, v), (linalg.bmm, b, b), (linalg.outer, w, w)]
    for f, a, c in cases:
        got = _result(f, T(a), T(c))
        if dtype == np.bool_ and f is not linalg.outer:
            assert got[0] == "NotImplementedError"
            continue
        want = np.outer(a, c) if f is linalg.outer else np.asarray(np.matmul(a, c))
        assert got == (str(np.dtype(dtype)), want.shape, want.astype(dtype).tobytes())
    if dtype != np.bool_:
        got = opyard.matmul(T(b), T(b)).numpy()
        assert got.tobytes() == np.matmul(b, b).astype(dtype).tobytes()
        got = opyard.einsum("ij,j->i", T(m), T(w)).numpy()
        np.testing.assert_allclose(got.astype(np.float64), m.astype(np.float64) @ w.astype(np.float64), rtol=2e-2)
    # the checks the quick test skips still answer a call it does not pass
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
        linalg.mm(T(m), T(m.astype(np.float16 if dtype != np.float16 else np.float32)))
    with pytest.raises(RuntimeError, match="inconsistent tensor size"):
        linalg.dot(T(v), T(w))
    with pytest.raises(NotImplementedError if dtype == np.bool_ else RuntimeError,
                       match="addmv_impl_cpu" if dtype == np.bool_ else "size mismatch"):
        linalg.mv(T(m), T(v))
    with pytest.raises(RuntimeError, match="bmm: expected 3D tensors"):
        linalg.bmm(T(m), T(b))
    assert linalg.outer(T(w), T(w.astype(np.float64))).dtype == opyard.float64  # promotion: the general route


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("kind", KINDS)
def test_dist_and_group_norm(dtype, kind):
    x, y = _values("16x16", dtype, kind, seed=13), _values("16x16", dtype, "normal", seed=14)
    a, ga = _pair(x)
    b, gb = _pair(y)
    for p in (2, 1, math.inf):
        assert _result(statistics.dist, a, b, p) == _result(statistics.dist, ga, gb, p)
    b3 = opyard.from_numpy(x.reshape(2, 8, 16))
    y3, mean, rstd = norm_ops.native_group_norm(b3, None, None, 2, 8, 16, 4, 1e-5)
    wide = x.astype(np.float64).reshape(2 * 4, -1)
    if kind == "normal":
        np.testing.assert_allclose(mean.numpy().reshape(-1), wide.mean(1), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(rstd.numpy().reshape(-1), 1 / np.sqrt(wide.var(1) + 1e-5), rtol=1e-4)
