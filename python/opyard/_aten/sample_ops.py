"""Resampling: the ``upsample_*`` kernels ``F.interpolate`` calls (nearest, nearest-exact,
linear, bilinear, bicubic, trilinear, and the anti-aliased bilinear/bicubic), their ``.vec``
overloads and backward kernels, and ``grid_sampler_2d``/``3d`` (``F.grid_sample``).

Note [Separable resampling]: every upsampling mode weighs each output position along one
dimension by a few input positions ("taps") of that dimension only, so a kernel builds, per
spatial dimension, a (out, taps) index array and a weight array with torch's source-index
arithmetic (in torch's compute type: float32 for float, half and bfloat16, float64 for
double), gathers the taps and sums them; the dimensions are done one after the other. The
backward kernels multiply by the transposed (in, out) matrix those taps form. uint8 inputs
of the bilinear and bicubic modes use torch's fixed-point path: int16 weights with a shared
precision, rounding after each dimension.
"""

import math

import numpy as np

from .._memory_format import channels_last, channels_last_3d
from .._tensor import _make_meta
from . import windows as W
from ._declare import OpTable
from .common import A, out
from .pool_ops import apply_along

__all__ = ["OPS"]

_SCHEMAS = (
    "upsample_nearest1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor",
    "upsample_nearest1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
    "upsample_nearest2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_nearest2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
    "upsample_nearest3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_nearest3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
    "_upsample_nearest_exact1d(Tensor self, SymInt[1] output_size, float? scales=None) -> Tensor",
    "_upsample_nearest_exact1d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
    "_upsample_nearest_exact2d(Tensor self, SymInt[2] output_size, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_nearest_exact2d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
    "_upsample_nearest_exact3d(Tensor self, SymInt[3] output_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_nearest_exact3d.vec(Tensor input, SymInt[]? output_size, float[]? scale_factors) -> Tensor",
    "upsample_linear1d(Tensor self, SymInt[1] output_size, bool align_corners, float? scales=None) -> Tensor",
    "upsample_linear1d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor",
    "upsample_bilinear2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_bilinear2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor",
    "upsample_trilinear3d(Tensor self, SymInt[3] output_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_trilinear3d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor",
    "upsample_bicubic2d(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_bicubic2d.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor",
    "_upsample_bilinear2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_bilinear2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor",
    "_upsample_bicubic2d_aa(Tensor self, SymInt[2] output_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_bicubic2d_aa.vec(Tensor input, SymInt[]? output_size, bool align_corners, float[]? scale_factors) -> Tensor",
    "upsample_nearest1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, float? scales=None) -> Tensor",
    "upsample_nearest2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_nearest3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_nearest_exact1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, float? scales=None) -> Tensor",
    "_upsample_nearest_exact2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_nearest_exact3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_linear1d_backward(Tensor grad_output, SymInt[1] output_size, SymInt[3] input_size, bool align_corners, float? scales=None) -> Tensor",
    "upsample_bilinear2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_trilinear3d_backward(Tensor grad_output, SymInt[3] output_size, SymInt[5] input_size, bool align_corners, float? scales_d=None, float? scales_h=None, float? scales_w=None) -> Tensor",
    "upsample_bicubic2d_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_bilinear2d_aa_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "_upsample_bicubic2d_aa_backward(Tensor grad_output, SymInt[2] output_size, SymInt[4] input_size, bool align_corners, float? scales_h=None, float? scales_w=None) -> Tensor",
    "grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor",
    "grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor",
    "grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners) -> Tensor",
    "grid_sampler_2d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)",
    "grid_sampler_3d_backward(Tensor grad_output, Tensor input, Tensor grid, int interpolation_mode, int padding_mode, bool align_corners, bool[2] output_mask) -> (Tensor, Tensor)",
)

_FLOATS = frozenset(("float16", "bfloat16", "float32", "float64"))
# mode -> (spatial dims, dtypes torch's CPU kernel takes, the kernel name its error gives)
_MODES = {
    "nearest": (_FLOATS | {"uint8"}, "upsample_nearest"), "nearest_exact": (_FLOATS | {"uint8"}, "_upsample_nearest_exact"),
    "linear": (_FLOATS, "upsample_linear"), "bilinear": (_FLOATS | {"uint8"}, "upsample_bilinear"),
    "trilinear": (_FLOATS, "upsample_trilinear"), "bicubic": (_FLOATS | {"uint8"}, "upsample_bicubic"),
    "bilinear_aa": (frozenset(("float32", "float64", "uint8")), "_upsample_bilinear2d_aa"),
    "bicubic_aa": (frozenset(("float32", "float64", "uint8")), "_upsample_bicubic2d_aa"),
}
_CUBIC_A = -0.75
_CL = {2: channels_last, 3: channels_last_3d}


# ---------------------------------------------------------------------------------------------
# Output sizes and checks


def compute_output_size(input, output_size, scale_factors):
    """torch's ``upsample::compute_output_size`` for the ``.vec`` overloads."""
    dims = input.dim() - 2
    if (output_size is None) == (scale_factors is None):
        raise RuntimeError("Must specify exactly one of output_size and scale_factors")
    if output_size is not None:
        if len(output_size) != dims:
            raise RuntimeError("Expected static_cast<int64_t>(output_size->size()) == spatial_dimensions to be true, "
                               "but got false.")
        return [int(s) for s in output_size]
    if len(scale_factors) != dims:
        raise RuntimeError("Expected static_cast<int64_t>(scale_factors->size()) == spatial_dimensions to be true, but "
                           "got false.")
    sizes = []
    for n, f in zip(input.shape[2:], scale_factors):
        v = float(n) * float(f)
        if not math.isfinite(v) or abs(v) >= 2.0 ** 63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        sizes.append(int(v))
    return sizes


def _check_sizes(n, input_shape, output_size):
    """torch's ``upsample_{1,2,3}d_common_check``."""
    if len(output_size) != n:
        raise RuntimeError(f"It is expected output_size equals to {n}, but got size {len(output_size)}")
    if len(input_shape) != n + 2:
        raise RuntimeError(f"It is expected input_size equals to {n + 2}, but got size {len(input_shape)}")
    names = ("D", "H", "W")[3 - n:]
    spatial = input_shape[2:]
    if any(s <= 0 for s in spatial) or any(o <= 0 for o in output_size):
        ins = ", ".join(f"{a}: {s}" for a, s in zip(names, spatial))
        outs = ", ".join(f"{a}: {o}" for a, o in zip(names, output_size))
        sep = " and output" if n == 1 else " output"
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({ins}){sep} ({outs})")


def _plan(mode, n, self, output_size):
    output_size = [int(s) for s in output_size]
    _check_sizes(n, list(self.shape), output_size)
    if self.numel() == 0 and W.prod(self.shape[1:]) == 0:
        raise RuntimeError(f"Non-empty {n + 2}D data tensor expected but got a tensor with sizes {list(self.shape)}")
    dtypes, kernel = _MODES[mode]
    if self.dtype.name not in dtypes:
        suffix = "" if mode.endswith("aa") else f"{n}d"
        if n >= 2 and not mode.endswith("aa") and self.is_contiguous(memory_format=_CL[n]):
            suffix += "_channels_last"  # torch's kernel for inputs laid out so (one channel is)
        raise NotImplementedError(f"\"{kernel}{suffix}\" not implemented for '{W.legacy(self.dtype)}'")
    shape = list(self.shape[:2]) + output_size
    fmt = W.suggest_format(self) if n == 2 or mode.startswith("nearest") or mode == "trilinear" else None
    return output_size, shape, fmt


# ---------------------------------------------------------------------------------------------
# Taps (Note [Separable resampling])


def _scale(size, o, align_corners, scale, op):
    """torch's ``area_pixel_compute_scale`` in the compute type ``op``."""
    if align_corners:
        return op.type((size - 1) / (o - 1)) if o > 1 else op.type(0)
    return _scales_value(size, o, scale, op)


def _scales_value(size, o, scale, op):
    """torch's ``compute_scales_value``: 1/scale when the caller gave one, else size/out."""
    if scale is not None and scale > 0:
        return op.type(1.0 / scale)
    return op.type(op.type(size) / op.type(o))


def nearest_taps(size, o, scale, exact):
    """Source index of every output position (torch's float32 ``nearest_idx``/``nearest_exact_idx``)."""
    i = np.arange(o)
    f32 = np.dtype(np.float32)
    s = _scales_value(size, o, scale, f32)
    if exact:
        src = np.floor(((i + 0.5) * np.float64(s)).astype(np.float32))
    elif o == size:
        src = i
    elif o == 2 * size:
        src = i >> 1
    else:
        src = np.floor(i.astype(np.float32) * s)
    idx = np.minimum(src.astype(np.int64), size - 1)
    return idx[:, None], np.ones((o, 1), dtype=np.float64)


def linear_taps(size, o, align_corners, scale, op, store=None):
    """Two taps and their weights (torch's ``compute_indices_weights_linear``); ``store`` is the
    dtype torch keeps the weights in (half and bfloat16 inputs round them to their own type)."""
    s = _scale(size, o, align_corners, scale, op)
    i = np.arange(o).astype(op)
    src = s * i if align_corners else np.maximum(s * (i + op.type(0.5)) - op.type(0.5), op.type(0))
    i0 = src.astype(np.int64)
    i1 = i0 + (i0 < size - 1)
    l1 = np.clip(src - i0.astype(op), 0, 1).astype(op)
    if store is not None:
        l1 = l1.astype(store).astype(op)
        return np.stack([i0, i1], 1), np.stack([(op.type(1) - l1).astype(store).astype(op), l1], 1)
    return np.stack([i0, i1], 1), np.stack([op.type(1) - l1, l1], 1)


def _cubic1(x, a):
    return ((a + 2) * x - (a + 3)) * x * x + 1


def _cubic2(x, a):
    return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a


def cubic_taps(size, o, align_corners, scale, op):
    s = _scale(size, o, align_corners, scale, op)
    i = np.arange(o).astype(op)
    src = s * i if align_corners else s * (i + op.type(0.5)) - op.type(0.5)
    i0 = np.floor(src).astype(np.int64)
    t = (src - i0.astype(op)).astype(op)
    a = op.type(_CUBIC_A)
    one = op.type(1)
    w = np.stack([_cubic2(t + one, a), _cubic1(t, a), _cubic1(one - t, a), _cubic2(one - t + one, a)], 1).astype(op)
    idx = np.clip(i0[:, None] - 1 + np.arange(4)[None, :], 0, size - 1)
    return idx, w


def _aa_filter(kind, x, a=-0.5):
    x = np.abs(x)
    if kind == "bilinear":
        return np.where(x < 1.0, 1.0 - x, 0.0)
    return np.where(x < 1.0, ((a + 2) * x - (a + 3)) * x * x + 1,
                    np.where(x < 2.0, (((x - 5) * x + 8) * x - 4) * a, 0.0))


def aa_taps(kind, size, o, align_corners, scale, op, antialias=True, delta=0.0, a=-0.5):
    """torch's ``_compute_weights_aa``: a triangle (bilinear) or Keys cubic (a=-0.5) filter,
    widened by the downscaling factor when ``antialias``, clipped to the input and normalised.
    ``delta`` is torch's align_corners shift of its uint8 path."""
    interp = 2 if kind == "bilinear" else 4
    s = float(_scale(size, o, align_corners, scale, op))
    support = interp * 0.5 * s if (antialias and s >= 1.0) else interp * 0.5
    invscale = 1.0 / s if (antialias and s >= 1.0) else 1.0
    i = np.arange(o, dtype=np.float64)
    center = s * (i + 0.5 - delta)
    xmin = np.maximum((center - support + 0.5 + delta).astype(np.int64), 0)
    xsize = np.minimum((center + support + 0.5 + delta).astype(np.int64), size) - xmin
    taps = max(int(xsize.max()) if o else 1, 1)
    j = np.arange(taps)[None, :]
    w = _aa_filter(kind, (j + xmin[:, None] - center[:, None] + 0.5 - delta) * invscale, a)
    w = np.where(j < xsize[:, None], w, 0.0)
    total = w.sum(1, keepdims=True)
    w = np.where(total != 0, w / np.where(total != 0, total, 1), w)
    idx = np.minimum(xmin[:, None] + j, size - 1)
    return idx, w.astype(op)


def _taps(mode, size, o, align_corners, scale, op, store=None):
    if mode in ("nearest", "nearest_exact"):
        idx, w = nearest_taps(size, o, scale, mode == "nearest_exact")
        return idx, w.astype(op)
    if mode in ("linear", "bilinear", "trilinear"):
        return linear_taps(size, o, align_corners, scale, op, store)
    if mode == "bicubic":
        return cubic_taps(size, o, align_corners, scale, op)
    return aa_taps(mode[:-3], size, o, align_corners, scale, op)


def resample_array(x, n, taps):
    """``x`` resampled along its last ``n`` dims, one dimension after the other."""
    for i, (idx, w) in enumerate(taps):
        axis = x.ndim - n + i
        shape = [1] * x.ndim
        shape[axis] = idx.shape[0]
        acc = None
        for t in range(idx.shape[1]):
            term = np.take(x, idx[:, t], axis=axis)
            if w is not None:
                term = term * w[:, t].reshape(shape)
            acc = term if acc is None else acc + term
        x = acc
    return x


def tap_matrix(idx, w, size):
    """The dense (out, size) matrix of one dimension's taps."""
    m = np.zeros((idx.shape[0], size), dtype=w.dtype)
    rows = np.repeat(np.arange(idx.shape[0]), idx.shape[1])
    np.add.at(m, (rows, idx.ravel()), w.ravel())
    return m


def _scales_list(n, scales):
    scales = list(scales) + [None] * (n - len(scales))
    return scales[:n]


def _op_dtype(arr):
    return np.dtype(np.float64) if arr.dtype == np.float64 else np.dtype(np.float32)


def _upsample(mode, n, self, output_size, align_corners, scales):
    output_size, shape, fmt = _plan(mode, n, self, output_size)
    x = self._data
    scales = _scales_list(n, scales)
    if x.dtype == np.uint8 and mode not in ("nearest", "nearest_exact"):
        r = _uint8_resample(mode, x, n, output_size, align_corners, scales)
        return out(W.as_format(r, fmt), self)
    op = _op_dtype(x)
    store = x.dtype if x.dtype.itemsize == 2 and mode in ("linear", "trilinear") else None
    taps = [_taps(mode, size, o, align_corners, s, op, store)
            for size, o, s in zip(x.shape[2:], output_size, scales)]
    if mode in ("nearest", "nearest_exact"):
        taps = [(idx, None) for idx, _ in taps]
        r = resample_array(x, n, taps)
    else:
        r = resample_array(x.astype(op, copy=False), n, taps).astype(x.dtype, copy=False)
    return out(W.as_format(r, fmt), self)


def _meta_upsample(mode, n, self, output_size):
    _, shape, fmt = _plan(mode, n, self, output_size)
    return _make_meta(shape, self.dtype, W.format_strides(shape, fmt))


def _upsample_backward(mode, n, grad_output, output_size, input_size, align_corners, scales):
    output_size = [int(s) for s in output_size]
    input_size = [int(s) for s in input_size]
    if len(input_size) != n + 2:
        raise RuntimeError(f"It is expected input_size equals to {n + 2}, but got size {len(input_size)}")
    _check_sizes(n, input_size, output_size)
    expected = input_size[:2] + output_size
    if grad_output.dim() != n + 2:
        raise RuntimeError(f"Expected grad_output to be a tensor of dimension {n + 2} but got: dimension "
                           f"{grad_output.dim()}")
    for i, (got, want) in enumerate(zip(grad_output.shape, expected)):
        if got != want:
            raise RuntimeError(f"Expected grad_output to have the same shape as output; output.size({i}) = {want} but "
                               f"got grad_output.size({i}) = {got}")
    g = grad_output._data
    op = _op_dtype(g)
    scales = _scales_list(n, scales)
    mats = [tap_matrix(*_taps(mode, size, o, align_corners, s, op), size).T
            for size, o, s in zip(input_size[2:], output_size, scales)]
    r = apply_along(g.astype(op, copy=False), mats, n)
    fmt = W.suggest_format(grad_output) if n == 2 else None
    return out(W.as_format(r.astype(g.dtype, copy=False), fmt), grad_output)


# ---------------------------------------------------------------------------------------------
# uint8: torch's fixed-point separable path


def _int16_weights(w):
    """float weights (out, taps) -> int16 weights and their precision (torch's choice: the
    largest number of fraction bits for which twice the largest weight fits an int16)."""
    wmax = float(w.max()) if w.size else 0.0
    precision = 0
    while precision < 22:
        if int(0.5 + wmax * (1 << (precision + 1))) >= (1 << 15):
            break
        precision += 1
    v = w * float(1 << precision)
    return np.where(v < 0, v - 0.5, v + 0.5).astype(np.int64).astype(np.int16).astype(np.int64), precision


def _uint8_resample(mode, x, n, output_size, align_corners, scales):
    """torch's uint8 path: per dimension (the last first), int16 weights and a rounding shift.
    Bilinear and the anti-aliased modes weigh with torch's ``_compute_weights_aa`` filter; bicubic
    with the clamped 4-tap cubic of the float path."""
    antialias = mode.endswith("_aa")
    kind = "bicubic" if mode.startswith("bicubic") else "bilinear"
    delta = 0.5 if (align_corners and not antialias) else 0.0
    r = x
    for i in reversed(range(n)):
        size, o = x.shape[2 + i], output_size[i]
        if kind == "bicubic" and not antialias:
            idx, w = cubic_taps(size, o, align_corners, scales[i], np.dtype(np.float64))
        else:
            idx, w = aa_taps(kind, size, o, align_corners, scales[i], np.dtype(np.float64), antialias, delta)
        w16, precision = _int16_weights(w)
        axis = 2 + i
        acc = np.full(r.shape[:axis] + (o,) + r.shape[axis + 1:], (1 << (precision - 1)) if precision else 0,
                      dtype=np.int64)
        shape = [1] * r.ndim
        shape[axis] = o
        for t in range(idx.shape[1]):
            acc += np.take(r, idx[:, t], axis=axis).astype(np.int64) * w16[:, t].reshape(shape)
        r = np.clip(acc >> precision, 0, 255).astype(np.uint8)
    return r


# ---------------------------------------------------------------------------------------------
# Operators


def _make(mode, n, has_align):
    names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}[n]

    if has_align:
        def kernel(self, output_size, align_corners, *scales, **kw):
            return _upsample(mode, n, self, output_size, align_corners, _gather_scales(names, scales, kw))

        def meta(self, output_size, align_corners, *scales, **kw):
            return _meta_upsample(mode, n, self, output_size)

        def backward(grad_output, output_size, input_size, align_corners, *scales, **kw):
            return _upsample_backward(mode, n, grad_output, output_size, input_size, align_corners,
                                      _gather_scales(names, scales, kw))
    else:
        def kernel(self, output_size, *scales, **kw):
            return _upsample(mode, n, self, output_size, False, _gather_scales(names, scales, kw))

        def meta(self, output_size, *scales, **kw):
            return _meta_upsample(mode, n, self, output_size)

        def backward(grad_output, output_size, input_size, *scales, **kw):
            return _upsample_backward(mode, n, grad_output, output_size, input_size, False,
                                      _gather_scales(names, scales, kw))
    return kernel, meta, backward


def _gather_scales(names, scales, kw):
    values = list(scales) + [None] * (len(names) - len(scales))
    for i, name in enumerate(names):
        if name in kw:
            values[i] = kw[name]
    return values


def _meta_backward(grad_output, output_size, input_size, *args, **kwargs):
    return _make_meta([int(s) for s in input_size], grad_output.dtype)


def _vec(name, has_align):
    if has_align:
        def kernel(input, output_size, align_corners, scale_factors):
            osize = compute_output_size(input, output_size, scale_factors)
            scales = list(scale_factors) if scale_factors is not None else [None] * len(osize)
            return getattr(A, name)(input, osize, align_corners, *scales)
    else:
        def kernel(input, output_size, scale_factors):
            osize = compute_output_size(input, output_size, scale_factors)
            scales = list(scale_factors) if scale_factors is not None else [None] * len(osize)
            return getattr(A, name)(input, osize, *scales)
    kernel.__name__ = name + "_vec"
    return kernel


_UPSAMPLE = {  # op name -> (mode, spatial dims, takes align_corners)
    "upsample_nearest1d": ("nearest", 1, False), "upsample_nearest2d": ("nearest", 2, False),
    "upsample_nearest3d": ("nearest", 3, False), "_upsample_nearest_exact1d": ("nearest_exact", 1, False),
    "_upsample_nearest_exact2d": ("nearest_exact", 2, False), "_upsample_nearest_exact3d": ("nearest_exact", 3, False),
    "upsample_linear1d": ("linear", 1, True), "upsample_bilinear2d": ("bilinear", 2, True),
    "upsample_trilinear3d": ("trilinear", 3, True), "upsample_bicubic2d": ("bicubic", 2, True),
    "_upsample_bilinear2d_aa": ("bilinear_aa", 2, True), "_upsample_bicubic2d_aa": ("bicubic_aa", 2, True),
}


# ---------------------------------------------------------------------------------------------
# grid_sampler


def _check_grid(input, grid, interpolation_mode):
    """torch's ``check_grid_sampler_common`` (and the 2-d/3-d rank checks)."""
    if input.dtype is not grid.dtype:
        raise RuntimeError(f"expected scalar type {W.legacy(input.dtype)} but found {W.legacy(grid.dtype)}")
    if input.dim() != grid.dim():
        raise RuntimeError(f"grid_sampler(): expected {input.dim()}D input and grid with same number of dimensions, "
                           f"but got input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with sizes "
                           f"{list(input.shape)} and grid with sizes {list(grid.shape)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but got "
                           f"grid with sizes {list(grid.shape)}")
    for i in range(2, input.dim()):
        if input.shape[i] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {list(input.shape)} with dimension {i} being empty")


def _check_grid_nd(n, input, grid, interpolation_mode, padding_mode):
    if input.dim() != n + 2 or grid.dim() != n + 2:
        raise RuntimeError(f"grid_sampler(): expected {n + 2}D input and grid with same number of dimensions, but got "
                           f"input with sizes {list(input.shape)} and grid with sizes {list(grid.shape)}")
    _check_grid(input, grid, interpolation_mode)
    if interpolation_mode not in ((0, 1, 2) if n == 2 else (0, 1)):
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input" if interpolation_mode == 2
                           else f"grid_sampler(): unknown interpolation mode {interpolation_mode}")
    if padding_mode not in (0, 1, 2):
        raise RuntimeError(f"grid_sampler(): unknown padding mode {padding_mode}")
    if input.dtype.name not in _FLOATS:
        raise NotImplementedError(f"\"grid_sampler_{n}d_cpu_kernel_impl\" not implemented for "
                                  f"'{W.legacy(input.dtype)}'")


def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    if input.dim() == 4:
        _check_grid_nd(2, input, grid, interpolation_mode, padding_mode)
        return A.grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners)
    _check_grid_nd(3, input, grid, interpolation_mode, padding_mode)
    return A.grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners)


def _unnormalize(coord, size, align_corners):
    """Grid coordinate in [-1, 1] -> pixel coordinate, and d(pixel)/d(grid)."""
    if align_corners:
        return (coord + 1) / 2 * (size - 1), (size - 1) / 2
    return ((coord + 1) * size - 1) / 2, size / 2


def _reflect(x, twice_low, twice_high):
    """torch's ``reflect_coordinates`` with the derivative sign."""
    if twice_low == twice_high:
        return np.zeros_like(x), np.zeros_like(x)
    lo = twice_low / 2
    span = (twice_high - twice_low) / 2
    d = x - lo
    sign = np.where(d < 0, -1.0, 1.0)
    d = np.abs(d)
    extra = np.fmod(d, span)
    flips = np.floor(d / span)
    even = np.fmod(flips, 2) == 0
    return np.where(even, extra + lo, span - extra + lo), np.where(even, sign, -sign)


def _compute_coords(x, size, padding_mode, align_corners):
    """Padding applied to a pixel coordinate (border clips, reflection mirrors then clips), with
    the derivative factor."""
    grad = np.ones_like(x)
    if padding_mode == 1:
        clipped = np.clip(x, 0, size - 1)
        return clipped, np.where((x > 0) & (x < size - 1), grad, 0.0)
    if padding_mode == 2:
        if align_corners:
            x, g = _reflect(x, 0, 2 * (size - 1))
        else:
            x, g = _reflect(x, -1, 2 * size - 1)
        clipped = np.clip(x, 0, size - 1)
        return clipped, np.where((x > 0) & (x < size - 1), g, 0.0)
    return x, grad


def _source(coord, size, padding_mode, align_corners):
    x, d1 = _unnormalize(coord, size, align_corners)
    x, d2 = _compute_coords(x, size, padding_mode, align_corners)
    return x, d1 * d2


def _grid_taps(input, grid, mode, padding_mode, align_corners):
    """The taps of every output location: a list of (flat index per spatial dim tuple, weight,
    d weight / d grid coordinate per dim, in-bounds mask)."""
    n = input.ndim - 2
    sizes = input.shape[2:]
    # grid's last dim is (x, y[, z]) = (W, H[, D]): reverse to spatial order
    coords = [grid[..., n - 1 - i] for i in range(n)]
    if mode == 2:
        return _bicubic_taps(coords, sizes, padding_mode, align_corners)
    src = [_source(c, s, padding_mode, align_corners) for c, s in zip(coords, sizes)]
    if mode == 1:
        pos = [np.rint(x).astype(np.int64) for x, _ in src]
        inb = np.ones(pos[0].shape, dtype=bool)
        for p, s in zip(pos, sizes):
            inb &= (p >= 0) & (p < s)
        return [(pos, np.ones(pos[0].shape), [np.zeros(pos[0].shape)] * n, inb)]
    base = [np.floor(x) for x, _ in src]
    frac = [x - b for (x, _), b in zip(src, base)]
    taps = []
    for corner in np.ndindex(*([2] * n)):
        pos = [(b + c).astype(np.int64) for b, c in zip(base, corner)]
        ws = [f if c else 1 - f for f, c in zip(frac, corner)]
        dws = [(1.0 if c else -1.0) * d for c, (_, d) in zip(corner, src)]
        w = np.prod(ws, axis=0)
        dw = []
        for i in range(n):
            others = np.prod([ws[j] for j in range(n) if j != i], axis=0) if n > 1 else 1.0
            dw.append(dws[i] * others)
        inb = np.ones(pos[0].shape, dtype=bool)
        for p, s in zip(pos, sizes):
            inb &= (p >= 0) & (p < s)
        taps.append((pos, w, dw, inb))
    return taps


def _cubic_coeffs(t):
    """torch's ``get_cubic_upsample_coefficients`` (in ``t``'s dtype, operation by operation)."""
    a = _CUBIC_A
    return [_cubic2(t + 1, a), _cubic1(t, a), _cubic1(1 - t, a), _cubic2(2 - t, a)]


def _cubic_coeffs_d(t):
    """d/dt of ``_cubic_coeffs``."""
    a = _CUBIC_A

    def d1(x):  # d/dx of ((a+2)x - (a+3)) x^2 + 1
        return (3 * (a + 2) * x - 2 * (a + 3)) * x

    def d2(x):  # d/dx of ((a x - 5a) x + 8a) x - 4a
        return (3 * a * x - 10 * a) * x + 8 * a
    return [d2(t + 1), d1(t), -d1(1 - t), -d2(2 - t)]


def _bicubic_taps(coords, sizes, padding_mode, align_corners):
    src = [_unnormalize(c, s, align_corners) for c, s in zip(coords, sizes)]
    base = [np.floor(x) for x, _ in src]
    t = [x - b for (x, _), b in zip(src, base)]
    co = [_cubic_coeffs(ti) for ti in t]
    dco = [_cubic_coeffs_d(ti) for ti in t]
    taps = []
    for a in range(4):
        for b in range(4):
            raw = [base[0] - 1 + a, base[1] - 1 + b]
            pos, inb = [], np.ones(raw[0].shape, dtype=bool)
            for r, s in zip(raw, sizes):
                p, _ = _compute_coords(r, s, padding_mode, align_corners)
                p = p.astype(np.int64)
                inb &= (p >= 0) & (p < s)
                pos.append(p)
            w = co[0][a] * co[1][b]
            dw = [dco[0][a] * co[1][b] * src[0][1], co[0][a] * dco[1][b] * src[1][1]]
            taps.append((pos, w, dw, inb))
    return taps


def _bicubic_sample(x, grid, padding_mode, align_corners):
    """torch's 2-d bicubic sampling: four rows interpolated along x, then those along y, each
    sum taken in order (so half and bfloat16 round where torch's do)."""
    N, C, H, Wd = x.shape
    flat = x.reshape(N, C, H * Wd)
    bidx = np.arange(N).reshape(N, 1, 1)
    ix, _ = _unnormalize(grid[..., 0], Wd, align_corners)
    iy, _ = _unnormalize(grid[..., 1], H, align_corners)
    x0, y0 = np.floor(ix), np.floor(iy)
    cx, cy = _cubic_coeffs(ix - x0), _cubic_coeffs(iy - y0)
    result = None
    for i in range(4):
        py, _ = _compute_coords(y0 - 1 + i, H, padding_mode, align_corners)
        py = py.astype(np.int64)
        row = None
        for j in range(4):
            px, _ = _compute_coords(x0 - 1 + j, Wd, padding_mode, align_corners)
            px = px.astype(np.int64)
            inb = (px >= 0) & (px < Wd) & (py >= 0) & (py < H)
            vals = flat[bidx, :, np.clip(py, 0, H - 1) * Wd + np.clip(px, 0, Wd - 1)]  # (N, h, w, C)
            vals = np.where(inb[..., None], vals, np.zeros((), x.dtype))
            term = vals * cx[j][..., None]
            row = term if row is None else row + term
        term = row * cy[i][..., None]
        result = term if result is None else result + term
    return np.moveaxis(result, -1, 1)


def grid_sample_array(x, grid, mode, padding_mode, align_corners):
    """(N, C, *out) samples of ``x`` (N, C, *in) at ``grid`` (N, *out, n)."""
    if mode == 2:
        return _bicubic_sample(x, grid, padding_mode, align_corners)
    n = x.ndim - 2
    N, C = x.shape[:2]
    sizes = x.shape[2:]
    plane = W.prod(sizes)
    flat = x.reshape(N, C, plane)
    out_sp = grid.shape[1:-1]
    acc = np.zeros((N, C) + tuple(out_sp), dtype=x.dtype)
    bidx = np.arange(N).reshape((N,) + (1,) * n)
    for pos, w, _, inb in _grid_taps(x, grid, mode, padding_mode, align_corners):
        lin = np.zeros(pos[0].shape, dtype=np.int64)
        for p, s in zip(pos, sizes):
            lin = lin * s + np.clip(p, 0, s - 1)
        vals = flat[bidx, :, lin]  # (N, *out, C)
        wv = np.where(inb, w, 0.0).astype(x.dtype)
        acc += np.moveaxis(vals * wv[..., None], -1, 1)
    return acc


def grid_sample_backward_arrays(g, x, grid, mode, padding_mode, align_corners, mask):
    n = x.ndim - 2
    N, C = x.shape[:2]
    sizes = x.shape[2:]
    plane = W.prod(sizes)
    flat = x.reshape(N, C, plane)
    gx = np.zeros((N * plane, C), dtype=x.dtype) if mask[0] else None
    ggrid = np.zeros(grid.shape, dtype=x.dtype) if mask[1] else None
    bidx = np.arange(N).reshape((N,) + (1,) * n)
    gl = np.moveaxis(g, 1, -1)  # (N, *out, C)
    for pos, w, dw, inb in _grid_taps(x, grid, mode, padding_mode, align_corners):
        lin = np.zeros(pos[0].shape, dtype=np.int64)
        for p, s in zip(pos, sizes):
            lin = lin * s + np.clip(p, 0, s - 1)
        wv = np.where(inb, w, 0.0)
        if gx is not None:
            target = (lin + (np.arange(N) * plane).reshape((N,) + (1,) * n)).ravel()
            np.add.at(gx, target, (gl * wv[..., None]).reshape(-1, C))
        if ggrid is not None and mode != 1:
            vals = flat[bidx, :, lin]  # (N, *out, C)
            dot = np.where(inb, (vals * gl).sum(-1), 0.0)
            for i in range(n):
                ggrid[..., n - 1 - i] += dot * dw[i]
    if gx is not None:
        gx = np.moveaxis(gx.reshape((N,) + tuple(sizes) + (C,)), -1, 1)
    return gx, ggrid


def _grid_out_shape(input, grid):
    return list(input.shape[:2]) + list(grid.shape[1:-1])


def _grid_nd(n):
    def kernel(input, grid, interpolation_mode, padding_mode, align_corners):
        _check_grid_nd(n, input, grid, interpolation_mode, padding_mode)
        x, gr = input._data, grid._data
        # torch computes half and bfloat16 in their own type, every operation rounded: so do we
        op = x.dtype if x.dtype.itemsize == 2 else _op_dtype(x)
        r = grid_sample_array(x.astype(op, copy=False), gr.astype(op, copy=False), interpolation_mode, padding_mode,
                              align_corners)
        return out(np.ascontiguousarray(r.astype(x.dtype, copy=False)), input)

    def meta(input, grid, interpolation_mode, padding_mode, align_corners):
        _check_grid_nd(n, input, grid, interpolation_mode, padding_mode)
        return _make_meta(_grid_out_shape(input, grid), input.dtype)

    def backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask):
        _check_grid_nd(n, input, grid, interpolation_mode, padding_mode)
        x, gr, g = input._data, grid._data, grad_output._data
        op = _op_dtype(x)
        gx, ggrid = grid_sample_backward_arrays(g.astype(op, copy=False), x.astype(op, copy=False),
                                                gr.astype(op, copy=False), interpolation_mode, padding_mode,
                                                align_corners, output_mask)
        gi = out(np.ascontiguousarray(gx.astype(x.dtype)), input) if gx is not None else None
        gg = out(ggrid.astype(gr.dtype), grid) if ggrid is not None else None
        return gi, gg

    def meta_backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, output_mask):
        return (_make_meta(input.shape, input.dtype) if output_mask[0] else None,
                _make_meta(grid.shape, grid.dtype) if output_mask[1] else None)
    return kernel, meta, backward, meta_backward


_KERNELS, _META_KERNELS, _COMPOSITE = {}, {}, {}
for _name, (_mode, _n, _align) in _UPSAMPLE.items():
    _k, _m, _b = _make(_mode, _n, _align)
    _k.__name__, _m.__name__, _b.__name__ = _name, "meta_" + _name, _name + "_backward"
    _KERNELS[_name], _META_KERNELS[_name] = _k, _m
    _KERNELS[_name + "_backward"], _META_KERNELS[_name + "_backward"] = _b, _meta_backward
    _COMPOSITE[_name + ".vec"] = _vec(_name, _align)
for _n in (2, 3):
    _k, _m, _b, _mb = _grid_nd(_n)
    _KERNELS[f"grid_sampler_{_n}d"], _META_KERNELS[f"grid_sampler_{_n}d"] = _k, _m
    _KERNELS[f"grid_sampler_{_n}d_backward"], _META_KERNELS[f"grid_sampler_{_n}d_backward"] = _b, _mb
_COMPOSITE["grid_sampler"] = grid_sampler
del _name, _mode, _n, _align, _k, _m, _b, _mb


def _declare():
    """The ``OpTable`` of this module: every schema above with its kernel (and hand-written Meta
    kernel) or its CompositeImplicitAutograd kernel."""
    table = OpTable()
    for schema in _SCHEMAS:
        name = schema[:schema.index("(")]
        if name in _COMPOSITE:
            table.op(schema, kind="composite")(_COMPOSITE[name])
        else:
            table.op(schema, meta=_META_KERNELS[name])(_KERNELS[name])
    return table


OPS = _declare()
