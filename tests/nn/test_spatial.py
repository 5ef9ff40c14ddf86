"""Convolution, pooling, resampling and channel rearrangement (``opyard.nn.functional`` and the
aten ops under it): numerics against direct numpy references, gradients and second
derivatives (gradcheck/gradgradcheck in float64), vmap (batching rules against per-example
calls), Meta and fake tensors, layouts, dtypes, and error messages. torch's own answers are in
``test_spatial_torch.py`` and the conformance replay."""

import itertools
import warnings

import numpy as np
import pytest

import opyard
import opyard.nn.functional as F
from opyard.autograd import gradcheck, gradgradcheck

A = opyard.ops.aten


def rnd(*shape, grad=False, dtype=opyard.float64, seed=0):
    rng = np.random.default_rng(seed + sum(shape))
    t = opyard.from_numpy(rng.standard_normal(shape)).to(dtype)
    return t.requires_grad_() if grad else t


# --- numerics against direct numpy references ------------------------------------------------

def conv_reference(x, w, b, stride, padding, dilation, groups):
    """A convolution written as the definition: one output element at a time over numpy
    slices (small sizes only)."""
    n, c, *sp = x.shape
    cout, cg, *k = w.shape
    d = len(sp)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    out_sp = [(s + 2 * p - dl * (kk - 1) - 1) // st + 1 for s, p, dl, kk, st in zip(sp, padding, dilation, k, stride)]
    out = np.zeros((n, cout, *out_sp), dtype=np.result_type(x, w))
    og = cout // groups
    for o in itertools.product(*[range(v) for v in out_sp]):
        sl = tuple(slice(oi * st, oi * st + dl * (kk - 1) + 1, dl) for oi, st, dl, kk in zip(o, stride, dilation, k))
        patch = xp[(slice(None), slice(None)) + sl]  # (n, c, *k)
        for g in range(groups):
            pg = patch[:, g * cg:(g + 1) * cg].reshape(n, -1)
            wg = w[g * og:(g + 1) * og].reshape(og, -1)
            out[(slice(None), slice(g * og, (g + 1) * og)) + o] = pg @ wg.T
    if b is not None:
        out += b.reshape((1, -1) + (1,) * d)
    return out


CONV_CASES = [
    ((2, 4, 7, 6), (6, 2, 3, 2), dict(stride=(2, 1), padding=(1, 2), dilation=(1, 2), groups=2)),
    ((1, 3, 9), (4, 3, 3), dict(stride=(3,), padding=(2,), dilation=(2,), groups=1)),
    ((1, 2, 4, 5, 4), (3, 2, 2, 3, 2), dict(stride=(1, 2, 1), padding=(1, 0, 1), dilation=(1, 1, 2), groups=1)),
    ((2, 4, 5, 5), (4, 1, 3, 3), dict(stride=(1, 1), padding=(1, 1), dilation=(1, 1), groups=4)),
]


@pytest.mark.parametrize("xs, ws, kw", CONV_CASES)
def test_convolution_matches_the_definition(xs, ws, kw):
    x, w, b = rnd(*xs), rnd(*ws, seed=1), rnd(ws[0], seed=2)
    got = A.convolution(x, w, b, list(kw["stride"]), list(kw["padding"]), list(kw["dilation"]), False,
                        [0] * len(kw["stride"]), kw["groups"])
    want = conv_reference(x.numpy(), w.numpy(), b.numpy(), kw["stride"], kw["padding"], kw["dilation"], kw["groups"])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("xs, ws, kw", CONV_CASES)
def test_transposed_convolution_is_the_adjoint(xs, ws, kw):
    # <conv(x, w), y> == <x, conv_transpose(y, w)> with the output_padding that restores x's size
    x, w = rnd(*xs), rnd(*ws, seed=1)
    y = A.convolution(x, w, None, list(kw["stride"]), list(kw["padding"]), list(kw["dilation"]), False,
                      [0] * len(kw["stride"]), kw["groups"])
    g = rnd(*y.shape, seed=3)
    full = [(o - 1) * s - 2 * p + d * (k - 1) + 1 for o, s, p, d, k in
            zip(y.shape[2:], kw["stride"], kw["padding"], kw["dilation"], ws[2:])]
    op = [n - f for n, f in zip(xs[2:], full)]
    if any(o >= max(s, d) for o, s, d in zip(op, kw["stride"], kw["dilation"])):
        # no transposed convolution restores x's size: torch refuses that output padding
        with pytest.raises(RuntimeError, match="output padding must be smaller than either stride or dilation"):
            A.convolution(g, w, None, list(kw["stride"]), list(kw["padding"]), list(kw["dilation"]), True, op,
                          kw["groups"])
        return
    xt = A.convolution(g, w, None, list(kw["stride"]), list(kw["padding"]), list(kw["dilation"]), True, op, kw["groups"])
    assert xt.shape == x.shape
    np.testing.assert_allclose(float((y * g).sum()), float((x * xt).sum()), rtol=1e-10)


def test_max_pool_values_and_indices():
    x = opyard.tensor([[[[1.0, 5.0, 2.0, 2.0], [3.0, 0.0, 2.0, 7.0], [float("nan"), 1.0, 4.0, 4.0]]]])
    values, index = F.max_pool2d(x, 2, 1, return_indices=True)
    assert index.tolist() == [[[[1, 1, 7], [8, 10, 7]]]]  # the first max; a nan wins
    assert np.isnan(values[0, 0, 1, 0].item()) and values[0, 0, 0].tolist() == [5.0, 5.0, 7.0]
    # padding positions never win, even against -inf inputs
    neg = opyard.full((1, 1, 3, 3), float("-inf"))
    _, index = F.max_pool2d(neg, 2, 2, 1, return_indices=True)
    assert index.tolist() == [[[[0, 1], [3, 4]]]]


def test_average_pool_divisors():
    x = opyard.ones(1, 1, 4, 5)
    np.testing.assert_allclose(F.avg_pool2d(x, 3, 2, 1).numpy(), [[[[4 / 9, 6 / 9, 4 / 9], [6 / 9, 1.0, 6 / 9]]]],
                               rtol=1e-6)
    assert F.avg_pool2d(x, 3, 2, 1, count_include_pad=False).tolist() == [[[[1.0] * 3] * 2]]
    np.testing.assert_allclose(F.avg_pool2d(x, 2, divisor_override=3).numpy(), [[[[4 / 3, 4 / 3]] * 2]], rtol=1e-6)
    ints = opyard.tensor([[[-1, -2, -4, -7, 3]]])
    assert F.avg_pool1d(ints, 2).tolist() == [[[-1, -5]]]  # integer division truncates, as in C++


def test_adaptive_pools_split_like_torch():
    x = opyard.arange(10.0).reshape(1, 1, 10)
    # windows [floor(i*10/4), ceil((i+1)*10/4)): [0,3) [2,5) [5,8) [7,10)
    assert F.adaptive_avg_pool1d(x, 4).tolist() == [[[1.0, 3.0, 6.0, 8.0]]]
    values, index = F.adaptive_max_pool1d(x, 4, return_indices=True)
    assert values.tolist() == [[[2.0, 4.0, 7.0, 9.0]]] and index.tolist() == [[[2, 4, 7, 9]]]


@pytest.mark.parametrize("mode, align, expected", [
    ("nearest", None, [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]),
    ("nearest-exact", None, [0.0, 0.0, 1.0, 1.0, 2.0, 2.0]),
    ("linear", False, [0.0, 0.25, 0.75, 1.25, 1.75, 2.0]),
    ("linear", True, [0.0, 0.4, 0.8, 1.2, 1.6, 2.0]),
])
def test_interpolate_1d(mode, align, expected):
    x = opyard.tensor([[[0.0, 1.0, 2.0]]])
    got = F.interpolate(x, size=6, mode=mode, align_corners=align)
    assert got[0, 0].tolist() == pytest.approx(expected)


def test_bicubic_and_grid_sample_reproduce_an_image_at_its_pixels():
    x = rnd(1, 2, 5, 6)
    same = F.interpolate(x, size=(5, 6), mode="bicubic", align_corners=True)
    np.testing.assert_allclose(same.numpy(), x.numpy(), atol=1e-12)
    ys, xs = np.meshgrid(np.linspace(-1, 1, 5), np.linspace(-1, 1, 6), indexing="ij")
    grid = opyard.from_numpy(np.stack([xs, ys], -1)[None])
    for mode in ("bilinear", "nearest", "bicubic"):
        got = F.grid_sample(x, grid, mode=mode, align_corners=True)
        np.testing.assert_allclose(got.numpy(), x.numpy(), atol=1e-12)


def test_unfold_fold_round_trip_counts_overlaps():
    x = rnd(2, 3, 5, 6)
    cols = F.unfold(x, 2, stride=1)
    assert cols.shape == (2, 12, 20)
    counts = F.fold(F.unfold(opyard.ones(1, 1, 5, 6, dtype=opyard.float64), 2), (5, 6), 2)
    np.testing.assert_allclose(F.fold(cols, (5, 6), 2).numpy(), (x * counts).numpy())


def test_pixel_and_channel_shuffles_invert():
    x = rnd(2, 8, 3, 5)
    assert (F.pixel_unshuffle(F.pixel_shuffle(x, 2), 2) == x).all()
    y = F.channel_shuffle(x, 4)
    assert y[0, 1].tolist() == x[0, 2].tolist() and y[0, 2].tolist() == x[0, 4].tolist()
    assert (F.channel_shuffle(y, 2) == x).all()
    assert F.native_channel_shuffle(x, 4).tolist() == y.tolist()


# --- gradients -------------------------------------------------------------------------------

def _grid(*shape):
    return opyard.from_numpy(np.random.default_rng(4).uniform(-1.1, 1.1, shape)).requires_grad_()


SAMPLES = opyard.rand(2, 3, 2, dtype=opyard.float64)
INDICES = F.max_pool2d(rnd(2, 3, 6, 6), 2, return_indices=True)[1]

GRADS = {
    "conv2d": (lambda a, w, b: F.conv2d(a, w, b, stride=2, padding=1, groups=3), (rnd(2, 3, 6, 7, grad=True),
                                                                                    rnd(6, 1, 3, 3, grad=True),
                                                                                    rnd(6, grad=True))),
    "conv_transpose2d": (lambda a, w, b: F.conv_transpose2d(a, w, b, stride=2, padding=1, output_padding=1),
                         (rnd(2, 3, 4, 5, grad=True), rnd(3, 2, 3, 3, grad=True), rnd(2, grad=True))),
    "conv3d": (lambda a, w: F.conv3d(a, w, padding=1, dilation=(1, 2, 1)), (rnd(1, 2, 4, 5, 4, grad=True),
                                                                          rnd(3, 2, 2, 3, 2, grad=True))),
    "conv1d_same": (lambda a, w: F.conv1d(a, w, padding="same"), (rnd(2, 3, 9, grad=True), rnd(2, 3, 4, grad=True))),
    "max_pool2d": (lambda a: F.max_pool2d(a, 3, 2, 1), (rnd(2, 3, 6, 7, grad=True),)),
    "max_pool3d": (lambda a: F.max_pool3d(a, 2, ceil_mode=True), (rnd(1, 2, 4, 5, 4, grad=True),)),
    "max_pool1d": (lambda a: F.max_pool1d(a, 3, 2), (rnd(2, 3, 9, grad=True),)),
    "avg_pool2d": (lambda a: F.avg_pool2d(a, 3, 2, 1, count_include_pad=False), (rnd(2, 3, 6, 7, grad=True),)),
    "avg_pool3d": (lambda a: F.avg_pool3d(a, 2, 1, 1, divisor_override=3), (rnd(1, 2, 4, 5, 4, grad=True),)),
    "avg_pool1d": (lambda a: F.avg_pool1d(a, 3, 2, 1, ceil_mode=True), (rnd(2, 3, 9, grad=True),)),
    "adaptive_avg_pool2d": (lambda a: F.adaptive_avg_pool2d(a, (4, 3)), (rnd(2, 3, 6, 7, grad=True),)),
    "adaptive_avg_pool3d": (lambda a: F.adaptive_avg_pool3d(a, (3, 2, 3)), (rnd(1, 2, 4, 5, 4, grad=True),)),
    "adaptive_max_pool2d": (lambda a: F.adaptive_max_pool2d(a, (4, 3)), (rnd(2, 3, 6, 7, grad=True),)),
    "adaptive_max_pool3d": (lambda a: F.adaptive_max_pool3d(a, (3, 2, 3)), (rnd(1, 2, 4, 5, 4, grad=True),)),
    "fractional_max_pool2d": (lambda a: F.fractional_max_pool2d(a, 2, output_size=3, _random_samples=SAMPLES),
                              (rnd(2, 3, 6, 7, grad=True),)),
    "max_unpool2d": (lambda a: F.max_unpool2d(a, INDICES, 2), (rnd(2, 3, 3, 3, grad=True),)),
    "nearest": (lambda a: F.interpolate(a, scale_factor=1.7), (rnd(2, 3, 4, 5, grad=True),)),
    "bilinear": (lambda a: F.interpolate(a, size=(5, 9), mode="bilinear"), (rnd(2, 3, 4, 5, grad=True),)),
    "bicubic": (lambda a: F.interpolate(a, size=(5, 9), mode="bicubic", align_corners=True),
                (rnd(2, 3, 4, 5, grad=True),)),
    "bilinear_aa": (lambda a: F.interpolate(a, size=(3, 4), mode="bilinear", antialias=True),
                    (rnd(2, 3, 6, 7, grad=True),)),
    "bicubic_aa": (lambda a: F.interpolate(a, size=(3, 4), mode="bicubic", antialias=True),
                   (rnd(2, 3, 6, 7, grad=True),)),
    "trilinear": (lambda a: F.interpolate(a, scale_factor=1.5, mode="trilinear"), (rnd(1, 2, 4, 5, 4, grad=True),)),
    "area": (lambda a: F.interpolate(a, size=(4, 5), mode="area"), (rnd(2, 3, 6, 7, grad=True),)),
    "unfold": (lambda a: F.unfold(a, (2, 3), padding=1, stride=2), (rnd(2, 3, 6, 7, grad=True),)),
    "fold": (lambda a: F.fold(a, (5, 6), 2), (rnd(2, 12, 20, grad=True),)),
    "pixel_shuffle": (lambda a: F.pixel_shuffle(a, 2), (rnd(2, 8, 3, 2, grad=True),)),
    "pixel_unshuffle": (lambda a: F.pixel_unshuffle(a, 2), (rnd(2, 2, 4, 6, grad=True),)),
    "channel_shuffle": (lambda a: F.channel_shuffle(a, 3), (rnd(2, 6, 2, 2, grad=True),)),
    "lp_pool2d": (lambda a: F.lp_pool2d(a, 2, 2), (opyard.rand(2, 3, 6, 6, dtype=opyard.float64).add(0.5)
                                                  .requires_grad_(),)),
}
# grid_sampler's second derivative (torch's grid_sampler_2d_double_backward) is not implemented
FIRST_ONLY = {
    "grid_sample_bilinear": (lambda a, g: F.grid_sample(a, g, align_corners=False),
                             (rnd(2, 3, 6, 7, grad=True), _grid(2, 3, 4, 2))),
    "grid_sample_bicubic": (lambda a, g: F.grid_sample(a, g, mode="bicubic", padding_mode="reflection",
                                                       align_corners=True), (rnd(2, 3, 6, 7, grad=True),
                                                                             _grid(2, 3, 4, 2))),
    "grid_sample_3d": (lambda a, g: F.grid_sample(a, g, padding_mode="border", align_corners=False),
                       (rnd(1, 2, 4, 5, 4, grad=True), _grid(1, 2, 3, 2, 3))),
}


@pytest.mark.parametrize("name", sorted(GRADS) + sorted(FIRST_ONLY))
def test_gradcheck(name):
    fn, args = GRADS.get(name) or FIRST_ONLY[name]
    assert gradcheck(fn, args, check_batched_grad=False)


@pytest.mark.parametrize("name", sorted(GRADS))
def test_gradgradcheck(name):
    fn, args = GRADS[name]
    assert gradgradcheck(fn, args, check_batched_grad=False)


def test_grad_fn_names_are_torchs():
    x = rnd(1, 2, 5, 5, grad=True)
    w = rnd(3, 2, 3, 3, grad=True)
    assert type(F.conv2d(x, w).grad_fn).__name__ == "ConvolutionBackward0"
    assert type(F.max_pool2d(x, 2).grad_fn).__name__ == "MaxPool2DWithIndicesBackward0"
    assert type(F.avg_pool2d(x, 2).grad_fn).__name__ == "AvgPool2DBackward0"
    assert type(F.interpolate(x, scale_factor=2, mode="bilinear").grad_fn).__name__ == "UpsampleBilinear2DBackward0"
    assert type(F.adaptive_avg_pool2d(x, 1).grad_fn).__name__ == "MeanBackward1"
    assert type(F.conv1d(x[0, :, 0], w[:, :, 0]).grad_fn).__name__ == "SqueezeBackward1"


def test_convolution_forward_mode():
    x, w, b = rnd(2, 3, 5, 5), rnd(4, 3, 3, 3, seed=1), rnd(4, seed=2)
    tx, tw, tb = rnd(2, 3, 5, 5, seed=3), rnd(4, 3, 3, 3, seed=4), rnd(4, seed=5)
    _, jvp = opyard.func.jvp(lambda a, c, d: F.conv2d(a, c, d, padding=1), (x, w, b), (tx, tw, tb))
    want = F.conv2d(tx, w, None, padding=1) + F.conv2d(x, tw, None, padding=1) + tb.reshape(1, -1, 1, 1)
    np.testing.assert_allclose(jvp.numpy(), want.numpy(), rtol=1e-12, atol=1e-12)


# --- vmap ------------------------------------------------------------------------------------

VMAPS = [
    ("conv2d input", lambda a, w: F.conv2d(a, w, padding=1), (0, None), ((3, 2, 4, 5, 5), (6, 4, 3, 3))),
    ("conv2d weight", lambda a, w: F.conv2d(a, w, padding=1, groups=2), (None, 0), ((2, 4, 5, 5), (3, 6, 2, 3, 3))),
    ("conv2d both", lambda a, w: F.conv2d(a, w, stride=2), (0, 0), ((3, 2, 4, 5, 5), (3, 6, 4, 3, 3))),
    ("conv2d unbatched", lambda a, w: F.conv2d(a, w), (0, None), ((3, 4, 5, 5), (6, 4, 3, 3))),
    ("conv_transpose weight", lambda a, w: F.conv_transpose2d(a, w, stride=2, groups=2), (0, 0),
     ((3, 2, 4, 5, 5), (3, 4, 3, 3, 3))),
    ("conv1d dim 1", lambda a, w: F.conv1d(a, w), (1, None), ((2, 3, 4, 9), (5, 4, 3))),
    ("max_pool2d", lambda a: F.max_pool2d(a, 2, return_indices=True), (0,), ((3, 2, 4, 6, 6),)),
    ("avg_pool3d", lambda a: F.avg_pool3d(a, 2), (0,), ((3, 2, 4, 4, 6, 6),)),
    ("adaptive_max_pool1d", lambda a: F.adaptive_max_pool1d(a, 3), (0,), ((3, 4, 7),)),
    ("interpolate", lambda a: F.interpolate(a, scale_factor=1.5, mode="bicubic"), (0,), ((3, 2, 4, 5, 5),)),
    ("grid_sample", lambda a, g: F.grid_sample(a, g, align_corners=True), (0, 0), ((3, 2, 4, 5, 5), (3, 2, 3, 3, 2))),
    ("grid_sample grid only", lambda a, g: F.grid_sample(a, g, align_corners=True), (None, 0),
     ((2, 4, 5, 5), (3, 2, 3, 3, 2))),
    ("unfold", lambda a: F.unfold(a, 2), (0,), ((3, 2, 4, 5, 5),)),
    ("pixel_shuffle", lambda a: F.pixel_shuffle(a, 2), (0,), ((3, 2, 8, 2, 2),)),
]


@pytest.mark.parametrize("name, fn, in_dims, shapes", VMAPS, ids=[v[0] for v in VMAPS])
def test_vmap_matches_per_example_calls_without_the_fallback(name, fn, in_dims, shapes):
    args = [rnd(*s, seed=i) for i, s in enumerate(shapes)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the per-example fallback warns: every op here has a rule
        got = opyard.vmap(fn, in_dims=in_dims)(*args)
    size = next(a.shape[d] for a, d in zip(args, in_dims) if d is not None)
    per = [fn(*[a.select(d, i) if d is not None else a for a, d in zip(args, in_dims)]) for i in range(size)]
    outs = got if isinstance(got, tuple) else (got,)
    pers = [p if isinstance(p, tuple) else (p,) for p in per]
    for k, o in enumerate(outs):
        np.testing.assert_allclose(o.numpy(), opyard.stack([p[k] for p in pers]).numpy(), rtol=1e-12, atol=1e-12)


# --- Meta, fake tensors, layouts, dtypes -----------------------------------------------------

META = [
    (lambda: F.conv2d(opyard.empty(2, 4, 9, 8, device="meta"), opyard.empty(6, 2, 3, 3, device="meta"), groups=2,
                      stride=2), (2, 6, 4, 3)),
    (lambda: F.conv_transpose3d(opyard.empty(1, 4, 3, 4, 3, device="meta"), opyard.empty(4, 2, 2, 2, 3, device="meta"),
                                stride=2), (1, 2, 6, 8, 7)),
    (lambda: F.max_pool2d(opyard.empty(2, 3, 7, 7, device="meta"), 3, 2, 1, ceil_mode=True, return_indices=True)[1],
     (2, 3, 4, 4)),
    (lambda: F.avg_pool3d(opyard.empty(1, 2, 5, 6, 7, device="meta"), 2), (1, 2, 2, 3, 3)),
    (lambda: F.adaptive_max_pool2d(opyard.empty(2, 3, 7, 7, device="meta"), (2, 5)), (2, 3, 2, 5)),
    (lambda: F.interpolate(opyard.empty(2, 3, 4, 5, device="meta"), scale_factor=1.5, mode="bilinear"), (2, 3, 6, 7)),
    (lambda: F.grid_sample(opyard.empty(2, 3, 4, 5, device="meta"), opyard.empty(2, 6, 7, 2, device="meta"),
                           align_corners=True), (2, 3, 6, 7)),
    (lambda: F.unfold(opyard.empty(2, 3, 5, 6, device="meta"), 2), (2, 12, 20)),
    (lambda: F.fold(opyard.empty(2, 12, 20, device="meta"), (5, 6), 2), (2, 3, 5, 6)),
    (lambda: F.pixel_shuffle(opyard.empty(2, 8, 3, 2, device="meta"), 2), (2, 2, 6, 4)),
    (lambda: F.max_unpool2d(opyard.empty(2, 3, 3, 3, device="meta"),
                            opyard.empty(2, 3, 3, 3, dtype=opyard.int64, device="meta"), 2), (2, 3, 6, 6)),
]


@pytest.mark.parametrize("call, shape", META)
def test_meta_kernels_give_shapes(call, shape):
    out = call()
    assert out.device.type == "meta" and tuple(out.shape) == shape


def test_fake_tensors_trace_a_small_network():
    from opyard.fake import FakeTensorMode

    def net(x, w1, w2):
        h = F.max_pool2d(F.relu(F.conv2d(x, w1, padding=1)), 2)
        h = F.interpolate(F.conv_transpose2d(h, w2, stride=2), size=(16, 16), mode="bilinear")
        return F.adaptive_avg_pool2d(h, 1)

    with FakeTensorMode() as mode:
        x = mode.from_tensor(opyard.randn(2, 3, 16, 16))
        out = net(x, mode.from_tensor(opyard.randn(8, 3, 3, 3)), mode.from_tensor(opyard.randn(8, 4, 2, 2)))
        assert tuple(out.shape) == (2, 4, 1, 1)
    real = net(opyard.randn(2, 3, 16, 16), opyard.randn(8, 3, 3, 3), opyard.randn(8, 4, 2, 2))
    assert tuple(real.shape) == (2, 4, 1, 1)


@pytest.mark.parametrize("call", [
    lambda x: F.conv2d(x, opyard.randn(4, 3, 3, 3).contiguous(memory_format=opyard.channels_last)),
    lambda x: F.max_pool2d(x, 2), lambda x: F.avg_pool2d(x, 2), lambda x: F.adaptive_avg_pool2d(x, 3),
    lambda x: F.interpolate(x, scale_factor=2, mode="bilinear"), lambda x: F.channel_shuffle(x, 3),
])
def test_channels_last_in_channels_last_out(call):
    x = opyard.randn(2, 3, 6, 6).contiguous(memory_format=opyard.channels_last)
    out = call(x)
    assert out.is_contiguous(memory_format=opyard.channels_last) and not out.is_contiguous()
    meta = call(x.to("meta").contiguous(memory_format=opyard.channels_last))
    assert meta.stride() == out.stride()


@pytest.mark.parametrize("dtype", [opyard.float16, opyard.bfloat16, opyard.float32])
def test_reduced_precision_keeps_the_dtype(dtype):
    x, w = opyard.randn(1, 2, 6, 6).to(dtype), opyard.randn(3, 2, 3, 3).to(dtype)
    for out in (F.conv2d(x, w), F.max_pool2d(x, 2), F.avg_pool2d(x, 2), F.interpolate(x, scale_factor=2),
                F.adaptive_avg_pool2d(x, 4), F.conv_transpose2d(x, w.transpose(0, 1))):
        assert out.dtype is dtype


def test_integer_and_complex_convolutions():
    x = opyard.tensor([[[1, 2, 3, 4]]], dtype=opyard.uint8)
    w = opyard.tensor([[[200, 100]]], dtype=opyard.uint8)
    assert F.conv1d(x, w).tolist() == [[[(200 + 200) % 256, (400 + 300) % 256, (600 + 400) % 256]]]
    xc = rnd(1, 2, 5).to(opyard.complex128) * (1 + 2j)
    wc = rnd(3, 2, 2, seed=1).to(opyard.complex128) * (2 - 1j)
    want = conv_reference(xc.numpy(), wc.numpy(), None, (1,), (0,), (1,), 1)
    np.testing.assert_allclose(F.conv1d(xc, wc).numpy(), want)


def test_top_level_names_are_the_operator_packets():
    for name in ("conv2d", "conv_transpose2d", "convolution", "max_pool2d", "max_pool1d_with_indices", "avg_pool1d",
                 "adaptive_avg_pool1d", "adaptive_max_pool1d", "pixel_shuffle", "channel_shuffle",
                 "native_channel_shuffle", "grid_sampler", "grid_sampler_2d", "grid_sampler_3d"):
        assert getattr(opyard, name) is getattr(A, name)
    x = opyard.randn(1, 2, 5, 5)
    assert opyard.conv2d(x, opyard.randn(3, 2, 3, 3), padding="same").shape == (1, 3, 5, 5)


# --- errors ----------------------------------------------------------------------------------

ERRORS = [
    (lambda: F.conv2d(opyard.ones(1, 3, 4, 4), opyard.ones(2, 2, 3, 3)), RuntimeError,
     r"Given groups=1, weight of size \[2, 2, 3, 3\], expected input\[1, 3, 4, 4\] to have 2 channels"),
    (lambda: F.conv2d(opyard.ones(1, 2, 4, 4), opyard.ones(2, 2, 3, 3), stride=[1, 1, 1]), RuntimeError,
     r"expected stride to be a single integer value or a list of 2 values"),
    (lambda: F.conv2d(opyard.ones(4, 4), opyard.ones(2, 2, 3, 3)), RuntimeError,
     r"Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got input of size: \[4, 4\]"),
    (lambda: F.conv2d(opyard.ones(1, 2, 4, 4), opyard.ones(2, 2, 3, 3), padding="full"), RuntimeError,
     r"Invalid padding string: 'full'"),
    (lambda: F.conv_transpose2d(opyard.ones(1, 2, 4, 4), opyard.ones(2, 3, 2, 2), output_padding=1), RuntimeError,
     r"output padding must be smaller than either stride or dilation"),
    (lambda: F.max_pool2d(opyard.ones(1, 1, 4, 4), (2, 2, 2)), RuntimeError,
     r"max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: A.max_pool2d_with_indices(opyard.ones(1, 1, 4, 4), [2, 2, 2]), RuntimeError,
     r"max_pool2d: kernel_size must either be a single int, or a tuple of two ints"),
    (lambda: F.max_pool2d(opyard.ones(1, 1, 4, 4), 3, padding=2), RuntimeError,
     r"pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and dilation=1"),
    (lambda: F.max_pool2d(opyard.ones(1, 1, 1, 4), 2), RuntimeError,
     r"Given input size: \(1x1x4\)\. Calculated output size: \(1x0x2\)\. Output size is too small"),
    (lambda: F.max_pool2d(opyard.ones(1, 1, 4, 4, dtype=opyard.bool), 2), NotImplementedError,
     r"\"max_pool2d\" not implemented for 'Bool'"),
    (lambda: F.avg_pool2d(opyard.ones(1, 1, 4, 4), 2, divisor_override=0), RuntimeError, r"divisor must be not zero"),
    (lambda: F.adaptive_avg_pool2d(opyard.ones(1, 1, 4, 4), (2, -1)), RuntimeError,
     r"elements of output_size must be greater than or equal to 0 but received \{2, -1\}"),
    (lambda: F.adaptive_avg_pool2d(opyard.ones(2, 2), (2, 2)), ValueError, r"Input dimension should be at least 3"),
    (lambda: F.max_unpool2d(opyard.ones(1, 1, 2, 2), opyard.tensor([[[[0, 1], [2, 99]]]]), 2), RuntimeError,
     r"Found an invalid max index: 99 \(output volumes are of size 4x4\)"),
    (lambda: F.fractional_max_pool2d(opyard.ones(1, 1, 4, 4), 2), ValueError,
     r"requires specifying either an output_size or an output_ratio"),
    (lambda: F.interpolate(opyard.ones(1, 1, 4, 4), size=3, mode="linear"), NotImplementedError,
     r"Got 4D input, but linear mode needs 3D input"),
    (lambda: F.interpolate(opyard.ones(1, 1, 4, 4), size=0), RuntimeError,
     r"Input and output sizes should be greater than 0, but got input \(H: 4, W: 4\) output \(H: 0, W: 0\)"),
    (lambda: F.grid_sample(opyard.ones(1, 2, 4, 4), opyard.ones(2, 3, 3, 2), align_corners=False), RuntimeError,
     r"expected grid and input to have same batch size"),
    (lambda: A.grid_sampler_3d(opyard.ones(1, 2, 4, 4, 4), opyard.ones(1, 3, 3, 3, 3), 2, 0, False), RuntimeError,
     r"bicubic interpolation only supports 4D input"),
    (lambda: F.unfold(opyard.ones(1, 2, 4, 4), 5), RuntimeError,
     r"calculated shape of the array of sliding blocks as \(0, 0\), but its components must be at least one"),
    (lambda: F.fold(opyard.ones(1, 5, 9), (4, 4), 2), RuntimeError,
     r"Expected size of input's dimension 1 to be divisible by the product of kernel_size"),
    (lambda: F.pixel_shuffle(opyard.ones(1, 3, 2, 2), 2), RuntimeError,
     r"input.size\(-3\)=3 is not divisible by 4"),
    (lambda: F.channel_shuffle(opyard.ones(1, 4, 2, 2), 3), RuntimeError,
     r"Number of channels must be divisible by groups. Got 4 channels and 3 groups."),
]


@pytest.mark.parametrize("call, exc, pattern", ERRORS)
def test_errors(call, exc, pattern):
    with pytest.raises(exc, match=pattern):
        call()


@pytest.mark.parametrize("call, exc, pattern", [e for e in ERRORS if "invalid max index" not in e[2]])
def test_meta_kernels_raise_the_same_errors(call, exc, pattern):
    # (an index out of range is a fact about data: torch's meta kernels do not check it either)
    from opyard.fake import FakeTensorMode
    with FakeTensorMode(allow_non_fake_inputs=True):
        with pytest.raises(exc, match=pattern):
            call()
