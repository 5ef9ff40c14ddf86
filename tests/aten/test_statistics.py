"""The statistics operators (``_aten/statistics.py``): values against numpy's equivalents, gradients
(gradcheck and gradgradcheck in float64), vmap against per-example calls, meta tensors and torch's
refusals. torch's own answers for these operators are checked by ``test_op_rules.py`` (section
``statistics``) and the conformance replay."""

import warnings

import numpy as np
import pytest

import opyard as T
from opyard.autograd import gradcheck, gradgradcheck

RNG = np.random.default_rng(7)


def _t(a, dtype=None, requires_grad=False):
    return T.tensor(np.asarray(a), dtype=dtype, requires_grad=requires_grad)


def _np(t):
    return t.detach().numpy()


# --- values against numpy ---------------------------------------------------------------------


@pytest.mark.parametrize("dtype", [T.int8, T.uint8, T.int64, T.float32, T.float64, T.float16, T.bfloat16])
def test_unique_matches_numpy(dtype):
    a = RNG.integers(0, 6, size=(4, 5))
    x = _t(a).to(dtype)
    values, inverse, counts = T.unique(x, return_inverse=True, return_counts=True)
    ev, ei, ec = np.unique(a, return_inverse=True, return_counts=True)
    assert values.dtype is dtype
    np.testing.assert_array_equal(values.float().numpy(), ev)
    np.testing.assert_array_equal(inverse.numpy(), ei.reshape(a.shape))
    np.testing.assert_array_equal(counts.numpy(), ec)


def test_unique_dim_matches_numpy():
    a = RNG.integers(0, 2, size=(6, 3))
    values, inverse, counts = T.unique(_t(a), dim=0, return_inverse=True, return_counts=True)
    ev, ei, ec = np.unique(a, axis=0, return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.numpy(), ev)
    np.testing.assert_array_equal(inverse.numpy(), ei.reshape(-1))
    np.testing.assert_array_equal(counts.numpy(), ec)
    np.testing.assert_array_equal(T.unique(_t(a.T), dim=1).numpy(), ev.T)


def test_unique_keeps_each_nan():
    values, counts = T.unique(_t([2.0, np.nan, 1.0, np.nan]), return_counts=True)
    assert values.shape == (4,) and np.isnan(values.numpy()[2:]).all()
    np.testing.assert_array_equal(counts.numpy(), [1, 1, 1, 1])


def test_unique_consecutive_runs():
    a = [1, 1, 2, 2, 3, 1, 1, 2]
    values, inverse, counts = T.unique_consecutive(_t(a), return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(values.numpy(), [1, 2, 3, 1, 2])
    np.testing.assert_array_equal(inverse.numpy(), [0, 0, 1, 1, 2, 3, 3, 4])
    np.testing.assert_array_equal(counts.numpy(), [2, 2, 1, 2, 1])
    m = _t([[1, 1], [1, 1], [0, 1], [1, 1]])
    np.testing.assert_array_equal(T.unique_consecutive(m, dim=0).numpy(), [[1, 1], [0, 1], [1, 1]])


@pytest.mark.parametrize("wdtype, rdtype", [(None, T.int64), (T.float32, T.float32), (T.float64, T.float64),
                                            (T.int32, T.float64), (T.float16, T.float64)])
def test_bincount_matches_numpy(wdtype, rdtype):
    a = RNG.integers(0, 9, size=40)
    w = RNG.random(40)
    weights = None if wdtype is None else _t(w).to(wdtype)
    r = T.bincount(_t(a), weights, minlength=12)
    assert r.dtype is rdtype
    expected = np.bincount(a, None if weights is None else weights.double().numpy(), minlength=12)
    np.testing.assert_allclose(r.double().numpy(), expected, rtol=1e-6)


def test_histc_matches_numpy():
    a = RNG.standard_normal(500)
    r = T.histc(_t(a), bins=9, min=-2, max=2)
    np.testing.assert_array_equal(r.numpy(), np.histogram(a, bins=9, range=(-2, 2))[0])
    r = T.histc(_t(a), bins=7)
    np.testing.assert_array_equal(r.numpy(), np.histogram(a, bins=7)[0])


@pytest.mark.parametrize("density", [False, True])
def test_histogram_matches_numpy(density):
    a = RNG.standard_normal(300)
    w = RNG.random(300)
    hist, edges = T.histogram(_t(a), 11, weight=_t(w), density=density)
    eh, ee = np.histogram(a, 11, weights=w, density=density)
    np.testing.assert_allclose(hist.numpy(), eh, rtol=1e-12)
    np.testing.assert_allclose(edges.numpy(), ee, rtol=1e-12)
    bins = np.array([-3.0, -1.0, 0.0, 0.5, 4.0])
    hist, edges = T.histogram(_t(a), _t(bins))
    np.testing.assert_array_equal(hist.numpy(), np.histogram(a, bins)[0])
    np.testing.assert_array_equal(edges.numpy(), bins)


def test_histogramdd_matches_numpy():
    a = RNG.standard_normal((200, 3))
    w = RNG.random(200)
    hist, edges = T.histogramdd(_t(a), [3, 4, 2], weight=_t(w), density=True)
    eh, ee = np.histogramdd(a, [3, 4, 2], weights=w, density=True)
    np.testing.assert_allclose(hist.numpy(), eh, rtol=1e-12)
    for got, want in zip(edges, ee):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    bins = [_t([-1.0, 0.0, 1.0]), _t([-2.0, 2.0]), _t([-3.0, 0.0, 3.0])]
    hist, edges = T.histogramdd(_t(a), bins)
    np.testing.assert_array_equal(hist.numpy(), np.histogramdd(a, [b.numpy() for b in bins])[0])


def test_nanmedian_is_the_lower_median_of_the_values():
    a = RNG.standard_normal((5, 7))
    a[RNG.random((5, 7)) < 0.3] = np.nan
    values, indices = T.nanmedian(_t(a), 1)
    for row, v, i in zip(a, values.numpy(), indices.numpy()):
        finite = np.sort(row[~np.isnan(row)])
        expected = finite[(finite.size - 1) // 2] if finite.size else np.nan
        np.testing.assert_equal(v, expected)
        np.testing.assert_equal(row[i], v)
    flat = np.sort(a[~np.isnan(a)])
    assert T.nanmedian(_t(a)).item() == flat[(flat.size - 1) // 2]


@pytest.mark.parametrize("interpolation", ["linear", "lower", "higher", "midpoint", "nearest"])
def test_quantile_matches_numpy(interpolation):
    a = RNG.standard_normal((6, 9))
    q = np.array([0.0, 0.1, 0.5, 0.77, 1.0])
    r = T.quantile(_t(a), _t(q), dim=1, keepdim=True, interpolation=interpolation)
    np.testing.assert_allclose(r.numpy(), np.quantile(a, q, axis=1, keepdims=True, method=interpolation), rtol=1e-12)
    a[0, 3] = np.nan
    r = T.nanquantile(_t(a), 0.3, dim=1, interpolation=interpolation)
    np.testing.assert_allclose(r.numpy(), np.nanquantile(a, 0.3, axis=1, method=interpolation), rtol=1e-12)
    assert np.isnan(T.quantile(_t(a), 0.3, dim=1).numpy()[0])


def test_cov_and_corrcoef_match_numpy():
    a = RNG.standard_normal((3, 8))
    fw = RNG.integers(1, 4, size=8)
    aw = RNG.random(8)
    np.testing.assert_allclose(T.cov(_t(a)).numpy(), np.cov(a), rtol=1e-12)
    np.testing.assert_allclose(T.cov(_t(a), correction=0, fweights=_t(fw), aweights=_t(aw)).numpy(),
                               np.cov(a, ddof=0, fweights=fw, aweights=aw), rtol=1e-12)
    np.testing.assert_allclose(T.cov(_t(a), correction=2, aweights=_t(aw)).numpy(),
                               np.cov(a, ddof=2, aweights=aw), rtol=1e-12)
    np.testing.assert_allclose(T.corrcoef(_t(a)).numpy(), np.corrcoef(a), rtol=1e-12)
    c = a + 1j * RNG.standard_normal((3, 8))
    np.testing.assert_allclose(T.cov(_t(c)).numpy(), np.cov(c), rtol=1e-12)


def test_integration_matches_numpy():
    y = RNG.standard_normal((4, 6))
    x = np.sort(RNG.random(6))
    np.testing.assert_allclose(T.trapezoid(_t(y), _t(x)).numpy(), np.trapezoid(y, x), rtol=1e-12)
    np.testing.assert_allclose(T.trapz(_t(y), dx=0.3, dim=0).numpy(), np.trapezoid(y, dx=0.3, axis=0), rtol=1e-12)
    running = np.cumsum((y[:, 1:] + y[:, :-1]) * np.diff(x) / 2, axis=1)
    np.testing.assert_allclose(T.cumulative_trapezoid(_t(y), _t(x)).numpy(), running, rtol=1e-12)
    assert T.trapezoid(_t([1, 2, 4])).dtype is T.float32


@pytest.mark.parametrize("edge_order", [1, 2])
def test_gradient_matches_numpy(edge_order):
    a = RNG.standard_normal((5, 6))
    for got, want in zip(T.gradient(_t(a), spacing=[0.5, 2.0], edge_order=edge_order),
                         np.gradient(a, 0.5, 2.0, edge_order=edge_order)):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12)
    xs = np.cumsum(RNG.random(5)) + 0.1
    (got,) = T.gradient(_t(a), spacing=(_t(xs),), dim=0, edge_order=edge_order)
    np.testing.assert_allclose(got.numpy(), np.gradient(a, xs, axis=0, edge_order=edge_order), rtol=1e-10)


def test_logcumsumexp_matches_numpy():
    a = RNG.standard_normal((3, 50)) * 30
    np.testing.assert_allclose(T.logcumsumexp(_t(a), 1).numpy(), np.logaddexp.accumulate(a, axis=1), rtol=1e-12)
    c = a[:, :6] / 10 + 1j * RNG.standard_normal((3, 6))
    np.testing.assert_allclose(np.exp(T.logcumsumexp(_t(c), 1).numpy()), np.cumsum(np.exp(c), axis=1), rtol=1e-10)


def test_renorm_and_dist_match_numpy():
    a = RNG.standard_normal((4, 3, 2)) * 3
    r = T.renorm(_t(a), 1.5, 1, 2.0).numpy()
    norms = (np.abs(a) ** 1.5).sum(axis=(0, 2), keepdims=True) ** (1 / 1.5)
    np.testing.assert_allclose(r, np.where(norms > 2.0, a * 2.0 / (norms + 1e-7), a), rtol=1e-12)
    b = RNG.standard_normal((3, 2))
    for p in (0, 1, 2, 3.5, np.inf):
        want = np.linalg.norm((a - b).reshape(-1), p) if p else np.count_nonzero(a - b)
        np.testing.assert_allclose(T.dist(_t(a), _t(b), p).item(), want, rtol=1e-12)


@pytest.mark.parametrize("reduce, ufunc", [("sum", np.add), ("prod", np.multiply), ("max", np.maximum),
                                           ("amin", np.minimum)])
def test_segment_reduce_matches_numpy(reduce, ufunc):
    a = RNG.standard_normal((10, 3))
    lengths = np.array([3, 2, 5])
    r = T._segment_reduce(_t(a), reduce, lengths=_t(lengths))
    np.testing.assert_allclose(r.numpy(), ufunc.reduceat(a, [0, 3, 5], axis=0), rtol=1e-12)
    r = T.segment_reduce(_t(a), reduce, offsets=_t([0, 3, 5, 10]))
    np.testing.assert_allclose(r.numpy(), ufunc.reduceat(a, [0, 3, 5], axis=0), rtol=1e-12)
    mean = T._segment_reduce(_t(a), "mean", lengths=_t([3, 0, 7])).numpy()
    assert np.isnan(mean[1]).all()


# --- half precision: computed as torch computes it ----------------------------------------------


@pytest.mark.parametrize("start, end, steps", [(-3, 3, 37), (-2.5, 7.1, 101), (0.1, 0.3, 64), (5, -1.25, 1001)])
def test_linspace_is_one_fused_multiply_add_per_value(start, end, steps):
    """torch's CPU linspace (and so the histogram edges): ``start + step * i`` (``end - step * j`` in
    the second half) rounded once, ``step`` in the element type."""
    from fractions import Fraction

    got = T.linspace(start, end, steps, dtype=T.float64).numpy()
    step = (float(end) - float(start)) / (steps - 1)
    want = [float(Fraction(start) + Fraction(step) * i) if i < steps // 2
            else float(Fraction(end) - Fraction(step) * (steps - 1 - i)) for i in range(steps)]
    np.testing.assert_array_equal(got, want)
    got32 = T.linspace(start, end, steps).numpy()
    s32, e32 = np.float32(start), np.float32(end)
    step32 = (e32 - s32) / np.float32(steps - 1)
    want32 = [np.float32(Fraction(float(s32)) + Fraction(float(step32)) * i) if i < steps // 2
              else np.float32(Fraction(float(e32)) - Fraction(float(step32)) * (steps - 1 - i)) for i in range(steps)]
    np.testing.assert_array_equal(got32, np.array(want32, np.float32))



def test_half_precision_logcumsumexp_rounds_once():
    a = np.linspace(-3, 3, 40)
    for dt in (T.float16, T.bfloat16):
        x = _t(a).to(dt)
        expected = np.logaddexp.accumulate(x.float().numpy().astype(np.float32))
        np.testing.assert_array_equal(T.logcumsumexp(x, 0).float().numpy(), _t(expected).to(dt).float().numpy())


# --- gradients --------------------------------------------------------------------------------


def _leaf(*shape, scale=1.0):
    return _t(RNG.standard_normal(shape) * scale, T.float64, requires_grad=True)


_GRAD_CASES = {
    "dist2": (lambda a, b: T.dist(a, b), lambda: (_leaf(3, 4), _leaf(4))),
    "dist1": (lambda a, b: T.dist(a, b, 1), lambda: (_leaf(3, 4), _leaf(4))),
    "dist3": (lambda a, b: T.dist(a, b, 3), lambda: (_leaf(5), _leaf(5))),
    "distinf": (lambda a, b: T.dist(a, b, float("inf")), lambda: (_leaf(5), _leaf(5))),
    "renorm": (lambda a: T.renorm(a, 2, 0, 1.0), lambda: (_leaf(3, 4),)),
    "renorm_p3": (lambda a: T.renorm(a, 3, 1, 0.7), lambda: (_leaf(3, 4, 2),)),
    "logcumsumexp": (lambda a: T.logcumsumexp(a, 1), lambda: (_leaf(3, 5),)),
    "nanmedian": (lambda a: T.nanmedian(a), lambda: (_leaf(7),)),
    "nanmedian_dim": (lambda a: T.nanmedian(a, 1)[0], lambda: (_leaf(3, 5),)),
    "quantile": (lambda a: T.quantile(a, T.tensor([0.25, 0.6], dtype=T.float64), dim=0), lambda: (_leaf(5, 3),)),
    "nanquantile": (lambda a: T.nanquantile(a, 0.4, interpolation="midpoint"), lambda: (_leaf(6),)),
    "msort": (lambda a: T.msort(a), lambda: (_leaf(4, 3),)),
    "cov": (lambda a: T.cov(a, aweights=T.tensor([0.5, 1.0, 2.0, 1.5, 1.0], dtype=T.float64)), lambda: (_leaf(3, 5),)),
    "corrcoef": (lambda a: T.corrcoef(a), lambda: (_leaf(3, 5),)),
    "trapezoid_x": (lambda y, x: T.trapezoid(y, x), lambda: (_leaf(3, 5), _leaf(5))),
    "cumulative_trapezoid": (lambda y: T.cumulative_trapezoid(y, dx=0.3), lambda: (_leaf(3, 5),)),
    "gradient": (lambda a: T.gradient(a, spacing=[0.5, 2.0], edge_order=2), lambda: (_leaf(4, 5),)),
    "gradient_coordinates": (lambda a, c: T.gradient(a, spacing=(c,), dim=1), lambda: (
        _leaf(3, 4), _t([0.0, 1.0, 2.5, 4.0], T.float64, requires_grad=True))),
}


@pytest.mark.parametrize("name", sorted(_GRAD_CASES))
def test_gradcheck(name):
    fn, make = _GRAD_CASES[name]
    inputs = make()
    assert gradcheck(fn, inputs, check_forward_ad=True)
    assert gradgradcheck(fn, inputs)


@pytest.mark.parametrize("reduce", ["sum", "mean", "prod", "max", "min"])
def test_segment_reduce_gradcheck(reduce):
    data = _leaf(7, 2)
    assert gradcheck(lambda d: T._segment_reduce(d, reduce, lengths=T.tensor([2, 0, 4, 1]), initial=1.5), (data,))


def test_segment_reduce_prod_gradient_at_zeros():
    data = _t([2.0, 0.0, 3.0, 0.0, 0.0, 5.0, 4.0], T.float64, requires_grad=True)
    out = T._segment_reduce(data, "prod", lengths=T.tensor([3, 2, 2]))
    (g,) = T.autograd.grad(out.sum(), [data])
    np.testing.assert_array_equal(g.numpy(), [0.0, 6.0, 0.0, 0.0, 0.0, 4.0, 5.0])


@pytest.mark.parametrize("expr, node", [
    (lambda x: T.nanmedian(x), "NanmedianBackward0"), (lambda x: T.nanmedian(x, 0)[0], "NanmedianBackward1"),
    (lambda x: T.logcumsumexp(x, 0), "LogcumsumexpBackward0"), (lambda x: T.renorm(x, 2, 0, 1), "RenormBackward0"),
    (lambda x: T.dist(x, x.detach() * 2), "DistBackward0"),
    (lambda x: T._segment_reduce(x, "sum", lengths=T.tensor([2, 2])), "SegmentReduceBackward0"),
])
def test_node_names(expr, node):
    assert expr(_leaf(4, 2)).grad_fn.name() == node


@pytest.mark.parametrize("expr, node, exc, message", [
    (lambda x: T.unique(x), "Unique2Backward0", NotImplementedError,
     "the derivative for '_unique2' is not implemented"),
    (lambda x: T.unique(x, dim=0), "UniqueDimBackward0", NotImplementedError, "'unique_dim' is not implemented"),
    (lambda x: T.unique_consecutive(x), "UniqueConsecutiveBackward0", NotImplementedError,
     "'unique_consecutive' is not implemented"),
    (lambda x: T.bincount(T.tensor([1, 2]), x[:2, 0]), "NotImplemented", RuntimeError,
     "derivative for aten::bincount is not implemented"),
    (lambda x: T.histogram(x, 3)[0], "NotImplemented", RuntimeError,
     "derivative for aten::histogram is not implemented"),
    (lambda x: T.histogramdd(x, [2, 2])[0], "NotImplemented", RuntimeError,
     "derivative for aten::_histogramdd_from_bin_cts is not implemented"),
])
def test_counts_record_a_refusing_node(expr, node, exc, message):
    out = expr(_leaf(4, 2))
    assert out.requires_grad and out.grad_fn.name().endswith(node)
    with pytest.raises(exc, match=message):
        out.sum().backward()


def test_histc_is_not_differentiable():
    assert not T.histc(_leaf(4, 2), 3).requires_grad
    values, inverse, counts = T.unique(_leaf(4, 2), return_inverse=True, return_counts=True)
    assert values.requires_grad and not inverse.requires_grad and not counts.requires_grad


# --- vmap ----------------------------------------------------------------------------------------


_VMAP_CASES = {
    "nanmedian_dim": lambda x: T.nanmedian(x, 1),
    "nanmedian": lambda x: T.nanmedian(x),
    "logcumsumexp": lambda x: T.logcumsumexp(x, 0),
    "renorm": lambda x: T.renorm(x, 2, 1, 0.5),
    "dist": lambda x: T.dist(x, T.ones(4)),
    "quantile": lambda x: T.quantile(x, T.tensor([0.2, 0.9]), dim=1),
    "histc": lambda x: T.histc(x, 4, min=-1, max=1),
    "cov": lambda x: T.cov(x),
    "trapezoid": lambda x: T.trapezoid(x, dim=0),
    "gradient": lambda x: T.gradient(x)[1],
    "segment_reduce": lambda x: T._segment_reduce(x, "max", lengths=T.tensor([1, 2])),
}


@pytest.mark.parametrize("name", sorted(_VMAP_CASES))
def test_vmap_matches_per_example(name):
    fn = _VMAP_CASES[name]
    x = T.tensor(RNG.standard_normal((3, 3, 4)).astype(np.float32))
    if name == "segment_reduce":
        x = x[:, :3, :]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the per-example fallback's performance warning
        got = T.vmap(fn)(x)
    per = [fn(x[i]) for i in range(3)]
    for b, p in enumerate(per):
        g = got[0][b] if isinstance(got, tuple) else got[b]
        p = p[0] if isinstance(p, tuple) else p
        np.testing.assert_allclose(g.numpy(), p.numpy(), rtol=1e-6)


@pytest.mark.parametrize("fn, op", [
    (lambda x: T.unique(x), "_unique2"), (lambda x: T.unique(x, dim=0), "unique_dim"),
    (lambda x: T.unique_consecutive(x), "unique_consecutive"),
    (lambda x: T.unique_consecutive(x, dim=0), "unique_consecutive"),
])
def test_vmap_refuses_dynamic_shapes(fn, op):
    with pytest.raises(RuntimeError, match=f"dynamic shape. Attempted to vmap over aten::{op}"):
        T.vmap(fn)(T.ones(2, 3))


def test_vmap_refuses_histogramdd_as_torch():
    with pytest.raises(RuntimeError, match="Batching rule not implemented for aten::histogramdd.*could not generate"):
        T.vmap(lambda x: T.histogramdd(x, [2, 2])[0])(T.ones(2, 3, 2))


# --- meta tensors and refusals -----------------------------------------------------------------


def test_meta_shapes():
    m = T.empty(3, 4, device="meta")
    assert T.renorm(m, 2, 0, 1.0).shape == (3, 4)
    assert T.logcumsumexp(m, 1).device.type == "meta"
    values, indices = T.nanmedian(m, 0)
    assert values.shape == (4,) and indices.dtype is T.int64
    assert T.histc(m, 5).shape == (5,)
    assert T.dist(m, m).shape == ()
    assert T._segment_reduce(m, "sum", lengths=T.tensor([1, 2], device="meta")).shape == (2, 4)
    assert T.quantile(m, 0.5, dim=1).shape == (3,)


@pytest.mark.parametrize("fn", [lambda m: T.unique(m), lambda m: T.bincount(m.long().reshape(-1)),
                                lambda m: T.unique_consecutive(m)])
def test_meta_refuses_data_dependent_shapes(fn):
    with pytest.raises(NotImplementedError, match="depends on the input data"):
        fn(T.empty(3, 4, device="meta"))


@pytest.mark.parametrize("fn, exc, match", [
    (lambda: T.dist(T.tensor([1, 2]), T.tensor([1, 2])), NotImplementedError,
     r"norm\(\): input dtype should be either floating point or complex. Got Long instead."),
    (lambda: T.renorm(T.ones(2, 3), 0, 0, 1), RuntimeError, "renorm: non-positive-norm not supported"),
    (lambda: T.renorm(T.ones(3), 2, 0, 1), RuntimeError, "renorm: input needs at least 2 dimensions, got 1"),
    (lambda: T.logcumsumexp(T.tensor([1, 2]), 0), NotImplementedError, '"logcumsumexp_out_cpu" not implemented'),
    (lambda: T.histc(T.tensor([1, 2]), 3), NotImplementedError, '"histogram_cpu" not implemented for \'Long\''),
    (lambda: T.histc(T.tensor([1.0, 2.0]), 0), RuntimeError, "bins must be > 0, but got 0 for dimension 0"),
    (lambda: T.bincount(T.tensor([-1, 2])), RuntimeError, "bincount only supports 1-d non-negative integral inputs"),
    (lambda: T.bincount(T.tensor([1.0])), NotImplementedError, '"bincount_cpu" not implemented for \'Float\''),
    (lambda: T.unique(T.tensor([1j])), NotImplementedError, '"unique" not implemented for \'ComplexFloat\''),
    (lambda: T.quantile(T.tensor([1, 2]), 0.5), RuntimeError, "input tensor must be either float or double"),
    (lambda: T.quantile(T.tensor([1.0, 2.0]), T.tensor([1.5])), RuntimeError,
     r"q values must be in the range \[0, 1\]"),
    (lambda: T.cov(T.ones(2, 2, 2)), RuntimeError, "cov\\(\\): expected input to have two or fewer dimensions"),
    (lambda: T.trapezoid(T.tensor([True])), NotImplementedError, "bool is not supported"),
    (lambda: T.gradient(T.ones(3, 3), edge_order=3), RuntimeError, "only supports edge_order=1 and edge_order=2"),
    (lambda: T.nanmedian(T.tensor([True])), NotImplementedError, '"median_cpu" not implemented for \'Bool\''),
    (lambda: T._segment_reduce(T.ones(3), "foo", lengths=T.tensor([3])), RuntimeError,
     "reduce argument must be either sum, prod, mean, amax or amin, got foo"),
    (lambda: T._segment_reduce(T.ones(3), "sum", lengths=T.tensor([2])), RuntimeError,
     "Expected all rows of lengths along axis to sum"),
    (lambda: T.histogramdd(T.ones(5, 6), [1, 1, 1, 1, 1]), RuntimeError,
     "The size of bins must be equal to the innermost dimension of the input"),
])
def test_refusals(fn, exc, match):
    with pytest.raises(exc, match=match):
        fn()


@pytest.mark.parametrize("fn", [T.cov, T.corrcoef])
def test_cov_on_meta_refuses_as_torch(fn):
    """torch's cov asks ``equal`` whether its normalisation is positive, which a meta tensor cannot answer."""
    with pytest.raises(NotImplementedError, match="^aten::equal: attempted to run this operator with Meta tensors"):
        fn(T.empty(2, 3, device="meta"))
