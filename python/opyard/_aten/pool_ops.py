"""Pooling: max (with indices), average, adaptive average and max, fractional max, max
unpooling, and the backward kernels torch's derivatives call; the 1-d forms and the public
``max_pool2d``/``max_pool3d``/``adaptive_avg_pool2d``/``3d`` are CompositeImplicitAutograd over
them, as in torch.

The kernels are numpy over window views (Note [Sliding windows], ``windows.py``): a max pool
reduces ``(..., *out, *kernel)`` windows with one ``argmax``; an average pool sums them; the
backward kernels scatter with ``bincount`` (max) or fold (average). Adaptive average pooling
is separable: one averaging matrix per spatial dimension. Indices are flat positions within
each input plane, as torch's. A max picks the first largest element of its window in
row-major order, or its last nan (torch's ``val > max || isnan(val)`` scan).
"""

import numpy as np

from .. import _core
from .. import _dtype as D
from .._tensor import _make_meta
from . import windows as W
from ._declare import OpTable
from .common import A, out

__all__ = ["OPS"]

_SCHEMAS = (
    "max_pool1d_with_indices(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
    "max_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, int[1] dilation=1, bool ceil_mode=False) -> Tensor",
    "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
    "max_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> Tensor",
    "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
    "max_pool3d_with_indices(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, int[3] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)",
    "max_pool2d_with_indices_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, int[2] dilation, bool ceil_mode, Tensor indices) -> Tensor",
    "max_pool3d_with_indices_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, int[3] dilation, bool ceil_mode, Tensor indices) -> Tensor",
    "avg_pool1d(Tensor self, int[1] kernel_size, int[1] stride=[], int[1] padding=0, bool ceil_mode=False, bool count_include_pad=True) -> Tensor",
    "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
    "avg_pool3d(Tensor self, int[3] kernel_size, int[3] stride=[], int[3] padding=0, bool ceil_mode=False, bool count_include_pad=True, int? divisor_override=None) -> Tensor",
    "avg_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
    "avg_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] stride, int[3] padding, bool ceil_mode, bool count_include_pad, int? divisor_override) -> Tensor",
    "adaptive_avg_pool1d(Tensor self, int[1] output_size) -> Tensor",
    "adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
    "adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor",
    "_adaptive_avg_pool2d(Tensor self, SymInt[2] output_size) -> Tensor",
    "_adaptive_avg_pool3d(Tensor self, SymInt[3] output_size) -> Tensor",
    "_adaptive_avg_pool2d_backward(Tensor grad_output, Tensor self) -> Tensor",
    "_adaptive_avg_pool3d_backward(Tensor grad_output, Tensor self) -> Tensor",
    "adaptive_max_pool1d(Tensor self, int[1] output_size) -> (Tensor, Tensor)",
    "adaptive_max_pool2d(Tensor self, int[2] output_size) -> (Tensor, Tensor)",
    "adaptive_max_pool3d(Tensor self, int[3] output_size) -> (Tensor, Tensor)",
    "adaptive_max_pool2d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
    "adaptive_max_pool3d_backward(Tensor grad_output, Tensor self, Tensor indices) -> Tensor",
    "fractional_max_pool2d(Tensor self, int[2] kernel_size, int[2] output_size, Tensor random_samples) -> (Tensor, Tensor)",
    "fractional_max_pool3d(Tensor self, int[3] kernel_size, int[3] output_size, Tensor random_samples) -> (Tensor, Tensor)",
    "fractional_max_pool2d_backward(Tensor grad_output, Tensor self, int[2] kernel_size, int[2] output_size, Tensor indices) -> Tensor",
    "fractional_max_pool3d_backward(Tensor grad_output, Tensor self, int[3] kernel_size, int[3] output_size, Tensor indices) -> Tensor",
    "max_unpool2d(Tensor self, Tensor indices, SymInt[2] output_size) -> Tensor",
    "max_unpool3d(Tensor self, Tensor indices, SymInt[3] output_size, int[3] stride, int[3] padding) -> Tensor",
)

_INT64_MAX = (1 << 63) - 1
_NAMES = {2: ("H", "W"), 3: ("T", "H", "W")}
_FLOATS = frozenset(("float16", "bfloat16", "float32", "float64"))
_MAX_DTYPES = _FLOATS | {"int64", "int32", "int16", "int8", "uint8"}
# dtypes each kernel takes on CPU (torch's dispatch macros), and the kernel name its message gives
_DTYPES = {
    "max_pool2d": _MAX_DTYPES, "max_pool3d": _MAX_DTYPES,
    "avg_pool2d": _FLOATS | {"int64"}, "avg_pool3d_out_frame": frozenset(("float32", "float64", "int64")),
    "adaptive_avg_pool2d": _FLOATS, "adaptive_avg_pool3d_cpu": _FLOATS, "adaptive_max_pool2d": _FLOATS,
    "adaptive_max_pool3d_cpu": _FLOATS, "max_unpool2d": _FLOATS, "max_unpool3d": _FLOATS,
    "fractional_max_pool2d_out_frame": _FLOATS, "fractional_max_pool3d_out_frame": _FLOATS,
    "max_pool1d_impl": frozenset(("float32", "float64", "bfloat16", "float16")),
}


def _check_dtype(kernel, t):
    if t.dtype.name not in _DTYPES[kernel]:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{W.legacy(t.dtype)}'")


def _low(dtype):
    """The value padding takes in a max window: below every element of ``dtype``."""
    return -np.inf if dtype.kind in "fV" else np.iinfo(dtype).min


def _words(n):
    return {1: "one int", 2: "two ints", 3: "three ints"}[n]


# ---------------------------------------------------------------------------------------------
# Shape checks (torch's pool2d_shape_check / pool3d_shape_check and pooling_output_shape)


def _pool_args(op, n, kernel_size, stride, padding, dilation=None):
    """(kernel, stride, padding, dilation) lists of ``n`` ints, with torch's messages for lists
    of another length (an empty stride means the kernel size)."""
    kernel = _sized(f"{op}: kernel_size must either be a single int, or a tuple of {_words(n)}"
                    if op != "avg_pool3d" else "avg_pool3d: kernel_size must be a single int, or a tuple of three ints",
                    kernel_size, n)
    stride = list(stride) if not isinstance(stride, int) else [stride]
    if stride:
        word = "either be omitted" if op != "avg_pool3d" else "be omitted"
        stride = _sized(f"{op}: stride must {word}, a single int, or a tuple of {_words(n)}", stride, n)
    else:
        stride = list(kernel)
    padding = _sized(f"{op}: padding must either be a single int, or a tuple of {_words(n)}"
                     if op != "avg_pool3d" else "avg_pool3d: padding must be a single int, or a tuple of three ints",
                     padding, n)
    if dilation is not None:
        dilation = _sized(f"{op}: dilation must be either a single int, or a tuple of {_words(n)}", dilation, n)
    return kernel, stride, padding, dilation


def _sized(message, value, n):
    value = [value] if isinstance(value, int) else [int(v) for v in value]
    if len(value) == 1:
        return value * n
    if len(value) != n:
        raise RuntimeError(message)
    return value


def _out_size(size, k, s, p, d, ceil_mode):
    """torch's ``pooling_output_shape`` with its checks."""
    if s == 0:
        raise RuntimeError("stride should not be zero")
    if p < 0:
        raise RuntimeError(f"pad must be non-negative, but got pad: {p}")
    if (k - 1) * d + 1 > _INT64_MAX:
        raise RuntimeError(f"effective kernel size overflows, but got kernel_size={k} and dilation={d}")
    if p > _tdiv((k - 1) * d + 1, 2):
        raise RuntimeError(f"pad should be at most half of effective kernel size, but got pad={p}, kernel_size={k} "
                           f"and dilation={d}")
    return W.pool_out_size(size, k, s, p, d, ceil_mode)


def _tdiv(a, b):
    """C++ integer division (truncating toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def _plane_shape_check(op, x, n):
    """3-d/4-d (2-d pooling) or 4-d/5-d (3-d pooling) input, every non-batch dimension non-empty."""
    shape = list(x.shape)
    if len(shape) not in (n + 1, n + 2):
        raise RuntimeError(f"non-empty {n + 1}D or {n + 2}D (batch mode) tensor expected for input")
    return shape


def _pool_shape(op, x, n, kernel, stride, padding, dilation, ceil_mode, check_input_size=False):
    """torch's pool{2,3}d_shape_check after the output size: the output spatial sizes."""
    if op == "avg_pool2d" and x.dim() < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(x.dim(), 1)}, "
                         f"{max(x.dim(), 1) - 1}], but got -3)")
    shape = _plane_shape_check(op, x, n)
    spatial = shape[-n:]
    outs = [_out_size(size, k, s, p, d, ceil_mode)
            for size, k, s, p, d in zip(spatial, kernel, stride, padding, dilation)]
    names = _NAMES[n]
    if any(k <= 0 for k in kernel):
        raise RuntimeError("kernel size should be greater than zero, but got " +
                           " ".join(f"k{a}: {k}" for a, k in zip(names, kernel)))
    if any(s <= 0 for s in stride):
        raise RuntimeError("stride should be greater than zero, but got " +
                           " ".join(f"d{a}: {s}" for a, s in zip(names, stride)))
    if any(d <= 0 for d in dilation):
        raise RuntimeError("dilation should be greater than zero, but got " +
                           " ".join(f"dilation{a}: {d}" for a, d in zip(names, dilation)))
    lead = shape[:-n]
    if n == 2:
        ok = (len(shape) == 3 and shape[0] != 0 or len(shape) == 4 and shape[1] != 0) and all(spatial)
        if not ok:
            raise RuntimeError("Expected 3D or 4D (batch mode) tensor with optional 0 dim batch size for input, but "
                               f"got:{shape}")
    else:
        for i in range(len(shape) - n - 1, len(shape)):
            if shape[i] == 0:
                raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch dimensions, but "
                                   f"input has sizes {shape} with dimension {i} being empty")
        if check_input_size and any(s < k for s, k in zip(spatial, kernel)):
            raise RuntimeError(f"input image (T: {spatial[0]} H: {spatial[1]} W: {spatial[2]}) smaller than kernel "
                               f"size (kT: {kernel[0]} kH: {kernel[1]} kW: {kernel[2]})")
    if any(o < 1 for o in outs):
        planes = lead[-1]
        raise RuntimeError(f"Given input size: ({'x'.join(map(str, [planes] + spatial))}). Calculated output size: "
                           f"({'x'.join(map(str, [planes] + outs))}). Output size is too small")
    return outs


# ---------------------------------------------------------------------------------------------
# Max pooling


def _argmax_last(values):
    """The index of the largest element along the last axis (the first of equal ones), or of
    the last nan where there is one."""
    idx = values.argmax(-1)
    if values.dtype.kind == "f":
        nan = np.isnan(values)
        if nan.any():
            last = values.shape[-1] - 1 - nan[..., ::-1].argmax(-1)
            idx = np.where(nan.any(-1), last, idx)
    return idx


def max_pool_arrays(x, n, out_sp, kernel, stride, padding, dilation):
    """(values, flat indices within the plane) of a max pool over the last ``n`` dims of ``x``.

    The windows are copied once, kernel offset first, so each offset's elements are one
    contiguous row; a pass over the offsets keeps the running max and where it came from
    (torch's scan: a larger value or a nan takes over, so ties keep the first)."""
    acc = W.accumulate_dtype(x)
    xa = x.astype(acc, copy=False)
    xp = _padded(xa, n, out_sp, kernel, stride, padding, dilation, _low(acc))
    win = W.window_view(xp, out_sp, kernel, stride, dilation)
    lead = win.ndim - 2 * n
    order = tuple(range(win.ndim - n, win.ndim)) + tuple(range(win.ndim - n))
    rows = np.ascontiguousarray(win.transpose(order)).reshape((W.prod(kernel),) + win.shape[:lead + n])
    nan = acc.kind == "f" and bool(np.isnan(xa).any())
    best = rows[0].copy()
    kidx = np.zeros(best.shape, dtype=np.uint8 if rows.shape[0] < 256 else np.int64)
    take = np.empty(best.shape, dtype=bool)
    for k in range(1, rows.shape[0]):
        v = rows[k]
        np.greater(v, best, out=take)
        if nan:  # a nan takes over (the running max keeps a nan: maximum propagates it)
            take |= np.isnan(v)
        np.maximum(best, v, out=best)
        np.copyto(kidx, k, where=take, casting="unsafe")
    values = best
    koff = np.unravel_index(kidx.astype(np.int64, copy=False), kernel)
    spatial = x.shape[x.ndim - n:]
    index = np.zeros(kidx.shape, dtype=np.int64)
    valid = np.ones(kidx.shape, dtype=bool)
    firsts = []
    for i in range(n):
        o = np.arange(out_sp[i]).reshape((-1,) + (1,) * (n - 1 - i))
        start = o * stride[i] - padding[i]
        coord = start + koff[i] * dilation[i]
        valid &= (coord >= 0) & (coord < spatial[i])
        # the first kernel offset inside the input: where torch's scan starts
        firsts.append(start + np.maximum(-(start // dilation[i]), 0) * dilation[i])
        index = index * spatial[i] + coord
    if not valid.all():
        first = np.zeros(kidx.shape, dtype=np.int64)
        for i in range(n):
            first = first * spatial[i] + np.broadcast_to(firsts[i], kidx.shape[kidx.ndim - n:])
        index = np.where(valid, index, first)
    return values.astype(x.dtype, copy=False), index


def _padded(x, n, out_sp, kernel, stride, padding, dilation, value):
    """``x`` padded by ``padding`` on the left and as far as the last window reaches on the right."""
    spatial = x.shape[x.ndim - n:]
    after = [(o - 1) * s + d * (k - 1) + 1 - size - p if o > 0 else -size - p
             for o, s, d, k, size, p in zip(out_sp, stride, dilation, kernel, spatial, padding)]
    return W.pad(x, n, padding, [max(a, -size) for a, size in zip(after, spatial)], value)


def _max_pool_with_indices(op, n, self, kernel_size, stride, padding, dilation, ceil_mode, meta):
    kernel, stride, padding, dilation = _pool_args(op, n, kernel_size, stride, padding, dilation)
    if op == "max_pool2d" and W.suggest_format(self) is not None and self.dim() != 4:
        raise RuntimeError("non-empty 4D (batch mode) tensor expected for input with channels_last layout")
    outs = _pool_shape(op + "_with_indices_out_cpu_template" if n == 3 else op, self, n, kernel, stride, padding,
                       dilation, ceil_mode)
    _check_dtype(op, self)
    shape = list(self.shape[:-n]) + outs
    fmt = W.suggest_format(self)
    if meta:
        st = W.format_strides(shape, fmt)
        return _make_meta(shape, self.dtype, st), _make_meta(shape, D.int64, st)
    x = self._data
    if n == 2 and fmt is None and x.dtype.kind == "f" and x.dtype.itemsize >= 4:
        # Rust: contiguous float32/float64 planes, torch's scan (Note [Max pool scan])
        fast = _core._max_pool2d(x, tuple(outs), tuple(kernel), tuple(stride), tuple(padding), tuple(dilation))
        if fast is not None:
            return out(fast[0], self), out(fast[1], self)
    values, index = max_pool_arrays(x, n, outs, kernel, stride, padding, dilation)
    return out(W.as_format(values, fmt), self), out(W.as_format(index, fmt), self)


def max_pool2d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _max_pool_with_indices("max_pool2d", 2, self, kernel_size, stride, padding, dilation, ceil_mode, False)


def max_pool3d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _max_pool_with_indices("max_pool3d", 3, self, kernel_size, stride, padding, dilation, ceil_mode, False)


def meta_max_pool2d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _max_pool_with_indices("max_pool2d", 2, self, kernel_size, stride, padding, dilation, ceil_mode, True)


def meta_max_pool3d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return _max_pool_with_indices("max_pool3d", 3, self, kernel_size, stride, padding, dilation, ceil_mode, True)


def scatter_planes(grad, indices, self_shape, n):
    """``grad`` added at ``indices`` (flat positions within each plane) into zeros of ``self_shape``."""
    plane = W.prod(self_shape[len(self_shape) - n:])
    planes = W.prod(self_shape[:len(self_shape) - n])
    per = W.prod(grad.shape[len(self_shape) - n:])
    g = grad.reshape(planes, per)
    idx = indices.reshape(planes, per).astype(np.int64, copy=False)
    flat = (idx + (np.arange(planes, dtype=np.int64) * plane)[:, None]).ravel()
    acc = np.bincount(flat, weights=g.ravel().astype(np.float64), minlength=planes * plane)
    return acc.reshape(self_shape)


def _indices_backward(grad_output, self, indices, n):
    g = grad_output._data
    if n == 2 and g.dtype == self._data.dtype and g.dtype.kind == "f" and g.itemsize >= 4 and g.ndim in (3, 4) \
            and W.suggest_format(self) is None:
        # Rust: contiguous planes, added in the element type in output order (torch's CPU kernel)
        r = _core._max_pool2d_backward(g, indices._data, tuple(self.shape[-2:]))
        if r is not None and r.shape == tuple(self.shape):
            return out(r, self)
    r = scatter_planes(g, indices._data, tuple(self.shape), n)
    return out(W.as_format(r.astype(self.dtype.np), W.suggest_format(self)), self)


def _like_self(self):
    return _make_meta(self.shape, self.dtype, W.format_strides(list(self.shape), W.suggest_format(self)))


def max_pool2d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    return _indices_backward(grad_output, self, indices, 2)


def max_pool3d_with_indices_backward(grad_output, self, kernel_size, stride, padding, dilation, ceil_mode, indices):
    return _indices_backward(grad_output, self, indices, 3)


def meta_pool_backward(grad_output, self, *args):
    return _like_self(self)


# ---------------------------------------------------------------------------------------------
# Average pooling


def _avg_divisors(spatial, outs, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """The divisor of every output position: torch's pool size (the window clipped to the
    padded input) or the count of input elements it covers."""
    if divisor_override is not None:
        return divisor_override
    div = None
    for i, (size, o, k, s, p) in enumerate(zip(spatial, outs, kernel, stride, padding)):
        start = np.arange(o) * s - p
        end = np.minimum(start + k, size + p)
        pool = end - start
        valid = np.minimum(end, size) - np.maximum(start, 0)
        d = (pool if count_include_pad else valid).reshape((-1,) + (1,) * (len(outs) - 1 - i))
        div = d if div is None else div * d
    return div


def _avg_check(op, n, self, kernel_size, stride, padding, ceil_mode, divisor_override):
    kernel, stride, padding, _ = _pool_args(op, n, kernel_size, stride, padding)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    outs = _pool_shape(op, self, n, kernel, stride, padding, [1] * n, ceil_mode, check_input_size=n == 3)
    return kernel, stride, padding, outs


def _avg_pool(op, n, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override, meta):
    kernel, stride, padding, outs = _avg_check(op, n, self, kernel_size, stride, padding, ceil_mode,
                                               divisor_override)
    _check_dtype("avg_pool2d" if n == 2 else "avg_pool3d_out_frame", self)
    shape = list(self.shape[:-n]) + outs
    fmt = W.suggest_format(self) if n == 2 else None
    if meta:
        return _make_meta(shape, self.dtype, W.format_strides(shape, fmt))
    x = self._data
    acc = W.accumulate_dtype(x)
    xp = _padded(x.astype(acc, copy=False), n, outs, kernel, stride, padding, [1] * n, 0)
    total = None
    for _, view in W.offsets(xp, outs, kernel, stride, [1] * n):
        total = view.copy() if total is None else np.add(total, view, out=total)
    div = _avg_divisors(x.shape[-n:], outs, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    if acc.kind in "iu":
        div = np.asarray(div, dtype=np.int64)
        r = np.abs(total) // np.abs(div) * (np.sign(total) * np.sign(div))
    else:
        r = total / div
    return out(W.as_format(np.asarray(r).astype(x.dtype, copy=False), fmt), self)


def avg_pool2d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool("avg_pool2d", 2, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, False)


def avg_pool3d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _avg_pool("avg_pool3d", 3, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, False)


def meta_avg_pool2d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                    divisor_override=None):
    return _avg_pool("avg_pool2d", 2, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, True)


def meta_avg_pool3d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
                    divisor_override=None):
    return _avg_pool("avg_pool3d", 3, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                     divisor_override, True)


def avg_pool_backward_array(g, spatial, n, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """The gradient of an average pool: each output's gradient over its divisor, folded back."""
    outs = g.shape[g.ndim - n:]
    div = _avg_divisors(spatial, outs, kernel, stride, padding, ceil_mode, count_include_pad, divisor_override)
    share = g / div
    lead = g.shape[:g.ndim - n]
    cols = np.broadcast_to(share.reshape(lead + (1,) * n + tuple(outs)), lead + tuple(kernel) + tuple(outs))
    return W.fold(cols, spatial, kernel, stride, padding, [1] * n)


def _avg_backward(op, n, grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                  divisor_override):
    kernel, stride, padding, outs = _avg_check(op, n, self, kernel_size, stride, padding, ceil_mode, divisor_override)
    g = grad_output._data
    acc = W.accumulate_dtype(g)
    r = avg_pool_backward_array(g.astype(acc, copy=False), self.shape[-n:], n, kernel, stride, padding, ceil_mode,
                                count_include_pad, divisor_override)
    fmt = W.suggest_format(self) if n == 2 else None
    return out(W.as_format(r.astype(self.dtype.np, copy=False), fmt), self)


def avg_pool2d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    return _avg_backward("avg_pool2d", 2, grad_output, self, kernel_size, stride, padding, ceil_mode,
                         count_include_pad, divisor_override)


def avg_pool3d_backward(grad_output, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                        divisor_override):
    return _avg_backward("avg_pool3d", 3, grad_output, self, kernel_size, stride, padding, ceil_mode,
                         count_include_pad, divisor_override)


# ---------------------------------------------------------------------------------------------
# Adaptive pooling


def adaptive_ranges(size, o):
    """torch's adaptive windows: [floor(i*size/o), ceil((i+1)*size/o)) for every output i."""
    i = np.arange(o, dtype=np.int64)
    return (i * size) // o, ((i + 1) * size + o - 1) // o


def _adaptive_matrix(size, o, dtype):
    """The (o, size) matrix averaging each adaptive window."""
    start, end = adaptive_ranges(size, o)
    j = np.arange(size)
    inside = (j[None, :] >= start[:, None]) & (j[None, :] < end[:, None])
    return inside.astype(dtype) / (end - start)[:, None].astype(dtype)


def apply_along(x, mats, n):
    """``x`` with its last ``n`` dims each multiplied by a matrix: dim ``d`` -> ``mats[d] @ .``."""
    for i, m in enumerate(mats):
        axis = x.ndim - n + i
        x = np.moveaxis(np.tensordot(x, m, axes=([axis], [1])), -1, axis)
    return x


def _adaptive_check(op, self, n, output_size, sep=""):
    output_size = [int(v) for v in output_size] if not isinstance(output_size, int) else [output_size] * n
    if len(output_size) != n:
        raise RuntimeError(f"adaptive_avg_pool{n}d: output_size must be {n}")
    shape = list(self.shape)
    if len(shape) not in (n + 1, n + 2):
        raise RuntimeError(f"{op}(): Expected {n + 1}D or {n + 2}D tensor, but got{sep} {shape}")
    for i in range(1, len(shape)):
        if shape[i] == 0:
            raise RuntimeError(f"{op}(): Expected input to have non-zero size for non-batch dimensions, but input has "
                               f"sizes {shape} with dimension {i} being empty")
    if any(o < 0 for o in output_size):
        bad = next(o for o in output_size if o < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {shape[:-n] + output_size}")
    return output_size


def _adaptive_avg(n, self, output_size, meta):
    op = "adaptive_avg_pool2d" if n == 2 else "adaptive_avg_pool3d"
    output_size = _adaptive_check(op, self, n, output_size)
    _check_dtype("adaptive_avg_pool2d" if n == 2 else "adaptive_avg_pool3d_cpu", self)
    shape = list(self.shape[:-n]) + output_size
    fmt = W.suggest_format(self) if n == 2 else None
    if meta:
        return _make_meta(shape, self.dtype, W.format_strides(shape, fmt))
    x = self._data
    if n == 3 and x.dtype.itemsize == 2 and x.size:
        return out(_adaptive_avg_lowp(x, output_size), self)
    acc = W.accumulate_dtype(x)
    mats = [_adaptive_matrix(size, o, acc) for size, o in zip(x.shape[-n:], output_size)]
    r = apply_along(x.astype(acc, copy=False), mats, n)
    return out(W.as_format(r.astype(x.dtype, copy=False), fmt), self)


def _adaptive_avg_lowp(x, output_size):
    """torch's 3-d adaptive average of half and bfloat16: the window summed in the input's own
    type, element by element in (d, h, w) order, then divided."""
    starts, lengths = [], []
    for size, o in zip(x.shape[-3:], output_size):
        s, e = adaptive_ranges(size, o)
        starts.append(s)
        lengths.append(e - s)
    win, _ = adaptive_gather(x, 3, starts, lengths, np.zeros((), x.dtype))
    acc = np.zeros(win.shape[:-3], dtype=x.dtype)
    for k in np.ndindex(*win.shape[-3:]):
        acc = acc + win[(Ellipsis,) + k]
    count = (lengths[0].reshape(-1, 1, 1) * lengths[1].reshape(1, -1, 1) * lengths[2].reshape(1, 1, -1))
    return (acc.astype(np.float32) / count).astype(x.dtype)


def _adaptive_avg_pool2d(self, output_size):
    return _adaptive_avg(2, self, output_size, False)


def _adaptive_avg_pool3d(self, output_size):
    return _adaptive_avg(3, self, output_size, False)


def meta__adaptive_avg_pool2d(self, output_size):
    return _adaptive_avg(2, self, output_size, True)


def meta__adaptive_avg_pool3d(self, output_size):
    return _adaptive_avg(3, self, output_size, True)


def _adaptive_avg_backward(n, grad_output, self):
    g = grad_output._data
    acc = W.accumulate_dtype(g)
    mats = [_adaptive_matrix(size, o, acc).T for size, o in zip(self.shape[-n:], g.shape[-n:])]
    r = apply_along(g.astype(acc, copy=False), mats, n)
    fmt = W.suggest_format(self) if n == 2 else None
    return out(W.as_format(r.astype(self.dtype.np, copy=False), fmt), self)


def _adaptive_avg_pool2d_backward(grad_output, self):
    return _adaptive_avg_backward(2, grad_output, self)


def _adaptive_avg_pool3d_backward(grad_output, self):
    return _adaptive_avg_backward(3, grad_output, self)


def meta_like_self_backward(grad_output, self, *args):
    return _like_self(self)


def adaptive_gather(x, n, starts, lengths, low):
    """``x``'s windows ``[start, start + length)`` per output position and spatial dim, padded
    to the longest with ``low``: shape ``(..., *out, *longest)`` and the per-dim positions."""
    lead = x.ndim - n
    win = x
    positions = []
    for i, (start, length) in enumerate(zip(starts, lengths)):
        longest = int(length.max()) if length.size else 1
        pos = start[:, None] + np.arange(longest)[None, :]
        ok = np.arange(longest)[None, :] < length[:, None]
        size = x.shape[lead + i]
        take = np.minimum(pos, size - 1)
        win = np.take(win, take.ravel(), axis=lead + 2 * i)
        shp = win.shape[:lead + 2 * i] + take.shape + win.shape[lead + 2 * i + 1:]
        win = win.reshape(shp)
        mask_shape = [1] * win.ndim
        mask_shape[lead + 2 * i], mask_shape[lead + 2 * i + 1] = ok.shape
        win = np.where(ok.reshape(mask_shape), win, low)
        positions.append(pos)
    # (..., o1, l1, o2, l2, ...) -> (..., o1, o2, ..., l1, l2, ...)
    order = list(range(lead)) + [lead + 2 * i for i in range(n)] + [lead + 2 * i + 1 for i in range(n)]
    return win.transpose(order), positions


def windows_max(x, n, starts, lengths):
    """(values, flat indices) of the max over per-position windows (adaptive, fractional)."""
    acc = W.accumulate_dtype(x)
    xa = x.astype(acc, copy=False)
    win, positions = adaptive_gather(xa, n, starts, lengths, _low(acc))
    lead = win.shape[:win.ndim - n]
    longest = win.shape[win.ndim - n:]
    flat = win.reshape(lead + (W.prod(longest),))
    kidx = _argmax_last(flat)
    values = np.take_along_axis(flat, kidx[..., None], -1)[..., 0]
    koff = np.unravel_index(kidx, longest)
    spatial = x.shape[x.ndim - n:]
    index = np.zeros(kidx.shape, dtype=np.int64)
    for i in range(n):
        index = index * spatial[i] + starts[i].reshape((-1,) + (1,) * (n - 1 - i)) + koff[i]
    return values.astype(x.dtype, copy=False), index


def _adaptive_max(n, self, output_size, meta):
    op = "adaptive_max_pool2d" if n == 2 else "adaptive_max_pool3d"
    output_size = [int(v) for v in output_size] if not isinstance(output_size, int) else [output_size] * n
    if len(output_size) != n:
        raise RuntimeError(f"{op}(): internal error: output_size.size() must be {n}")
    output_size = _adaptive_check(op, self, n, output_size, sep=":")
    _check_dtype(op if n == 2 else "adaptive_max_pool3d_cpu", self)
    shape = list(self.shape[:-n]) + output_size
    fmt = W.suggest_format(self) if n == 2 else None
    if meta:
        st = W.format_strides(shape, fmt)
        return _make_meta(shape, self.dtype, st), _make_meta(shape, D.int64, st)
    x = self._data
    starts, lengths = [], []
    for size, o in zip(x.shape[-n:], output_size):
        s, e = adaptive_ranges(size, o)
        starts.append(s)
        lengths.append(e - s)
    if 0 in output_size or x.size == 0:
        return (out(np.zeros(shape, x.dtype), self), out(np.zeros(shape, np.int64), self))
    values, index = windows_max(x, n, starts, lengths)
    return out(W.as_format(values, fmt), self), out(W.as_format(index, fmt), self)


def adaptive_max_pool2d(self, output_size):
    return _adaptive_max(2, self, output_size, False)


def adaptive_max_pool3d(self, output_size):
    return _adaptive_max(3, self, output_size, False)


def meta_adaptive_max_pool2d(self, output_size):
    return _adaptive_max(2, self, output_size, True)


def meta_adaptive_max_pool3d(self, output_size):
    return _adaptive_max(3, self, output_size, True)


def adaptive_max_pool2d_backward(grad_output, self, indices):
    return _indices_backward(grad_output, self, indices, 2)


def adaptive_max_pool3d_backward(grad_output, self, indices):
    return _indices_backward(grad_output, self, indices, 3)


# ---------------------------------------------------------------------------------------------
# Fractional max pooling


def fractional_starts(sample, size, o, pool):
    """torch's ``generate_intervals``: window starts from one uniform sample per plane, computed
    in the sample's dtype as torch does. ``sample``: (planes,) -> (planes, o)."""
    planes = sample.shape[0]
    seq = np.empty((planes, o), dtype=np.int64)
    if o > 1:
        alpha = np.asarray(size - pool, sample.dtype) / np.asarray(o - 1, sample.dtype)
        i = np.arange(o - 1, dtype=sample.dtype)
        seq[:, :-1] = (((i[None, :] + sample[:, None]) * alpha).astype(np.int64)
                       - (sample[:, None] * alpha).astype(np.int64))
    if o > 0:
        seq[:, -1] = size - pool
    return seq


def _fractional(n, self, kernel_size, output_size, random_samples, meta):
    op = f"fractional_max_pool{n}d"
    kernel = _sized(f"{op}: kernel_size must either be a single Int or tuple of Ints", kernel_size, n)
    output_size = _sized(f"{op}: output_size must either be a single Int or tuple of Ints", output_size, n)
    shape = list(self.shape)
    where = f"{op}()" if n == 2 else f"{op}_out()"
    if len(shape) not in (n + 1, n + 2):
        raise RuntimeError(f"{where}: Expected {n + 1}D or {n + 2}D tensor, but got: {shape}")
    for i in range(1, len(shape)):
        if shape[i] == 0:
            raise RuntimeError(f"{where}: Expected input to have non-zero size for non-batch dimensions, but got"
                               f"{shape} with dimension {i} being empty.")
    names = ("height", "width") if n == 2 else ("time", "height", "width")
    for o, k, size, name in zip(output_size, kernel, shape[-n:], names):
        if o + k - 1 > size:
            raise RuntimeError(f"{where}: pool {name} {k} too large relative to input {name} {size}")
    if random_samples.dtype is not self.dtype:
        raise RuntimeError("Expect _random_samples to have the same dtype as input")
    rs = list(random_samples.shape)
    batch = shape[0] if len(shape) == n + 2 else 1
    if len(rs) != 3:
        raise RuntimeError(f"Expect _random samples to have 3 dimensions, got {len(rs)}")
    if rs[2] != n:
        raise RuntimeError(f"Expect _random_samples.size(2) equals to {n}; got {rs[2]}.")
    if rs[0] < batch:
        raise RuntimeError("Expect _random_samples.size(0) no less then input batch size.")
    if rs[1] != shape[-n - 1]:
        raise RuntimeError("Expect _random_samples.size(1) equals to input channel size.")
    _check_dtype(f"fractional_max_pool{n}d_out_frame", self)
    out_shape = shape[:-n] + output_size
    if meta:
        return _make_meta(out_shape, self.dtype), _make_meta(out_shape, D.int64)
    x = self._data
    planes = W.prod(shape[:-n])
    samples = random_samples._data[:batch].astype(W.accumulate_dtype(random_samples._data), copy=False)
    samples = samples.reshape(planes, n)
    # 2-d: sample 0 draws the width intervals, sample 1 the height ones; 3-d: time, height, width
    which = (1, 0) if n == 2 else (0, 1, 2)
    starts = [fractional_starts(samples[:, which[i]], size, o, k)
              for i, (size, o, k) in enumerate(zip(shape[-n:], output_size, kernel))]
    lengths = [np.full(o, k, dtype=np.int64) for o, k in zip(output_size, kernel)]
    xp = x.reshape((planes,) + x.shape[-n:])
    values, index = _per_plane_max(xp, n, starts, lengths)
    return out(values.reshape(out_shape), self), out(index.reshape(out_shape), self)


def _per_plane_max(xp, n, starts, lengths):
    """The max over windows whose starts differ per plane (``starts[i]``: (planes, o_i))."""
    planes = xp.shape[0]
    acc = W.accumulate_dtype(xp)
    x = xp.astype(acc, copy=False)
    grids = []
    for i, (start, length) in enumerate(zip(starts, lengths)):
        k = int(length[0]) if length.size else 1
        pos = start[:, :, None] + np.arange(k)[None, None, :]  # (planes, o, k)
        shape = [planes] + [1] * (2 * n)
        shape[1 + i] = pos.shape[1]
        shape[1 + n + i] = k
        grids.append(pos.reshape(shape))
    p = np.arange(planes).reshape((planes,) + (1,) * (2 * n))
    win = x[(p,) + tuple(grids)]  # (planes, *out, *kernel)
    lead = win.shape[:1 + n]
    flat = win.reshape(lead + (W.prod(win.shape[1 + n:]),))
    kidx = _argmax_last(flat)
    values = np.take_along_axis(flat, kidx[..., None], -1)[..., 0]
    kernel = win.shape[1 + n:]
    koff = np.unravel_index(kidx, kernel)
    index = np.zeros(kidx.shape, dtype=np.int64)
    for i in range(n):
        start = starts[i].reshape((planes,) + (1,) * i + (starts[i].shape[1],) + (1,) * (n - 1 - i))
        index = index * xp.shape[1 + i] + start + koff[i]
    return values.astype(xp.dtype, copy=False), index


def fractional_max_pool2d(self, kernel_size, output_size, random_samples):
    return _fractional(2, self, kernel_size, output_size, random_samples, False)


def fractional_max_pool3d(self, kernel_size, output_size, random_samples):
    return _fractional(3, self, kernel_size, output_size, random_samples, False)


def meta_fractional_max_pool2d(self, kernel_size, output_size, random_samples):
    return _fractional(2, self, kernel_size, output_size, random_samples, True)


def meta_fractional_max_pool3d(self, kernel_size, output_size, random_samples):
    return _fractional(3, self, kernel_size, output_size, random_samples, True)


def fractional_max_pool2d_backward(grad_output, self, kernel_size, output_size, indices):
    return _indices_backward(grad_output, self, indices, 2)


def fractional_max_pool3d_backward(grad_output, self, kernel_size, output_size, indices):
    return _indices_backward(grad_output, self, indices, 3)


# ---------------------------------------------------------------------------------------------
# Max unpooling


def _unpool_check(n, self, indices, output_size, stride=None, padding=None):
    op = f"max_unpooling{n}d"
    if indices.dtype is not D.int64:
        raise RuntimeError(f"elements in indices should be type int64 but got: {W.legacy(indices.dtype)}")
    words = "two elements (height, width)" if n == 2 else "three elements (depth, height, width)"
    output_size = [int(v) for v in output_size]
    if n == 2 and len(output_size) != 2:
        raise RuntimeError(f"There should be exactly {words} in output_size, but got {len(output_size)} elements.")
    if self.dim() not in (n + 1, n + 2):
        raise RuntimeError(f"Input to {op} should be a {n + 1}d or {n + 2}d Tensor, but got a tensor with "
                           f"{self.dim()} dimensions.")
    if n == 3:
        for name, v in (("output_size", output_size), ("stride", stride), ("padding", padding)):
            if len(v) != 3:
                raise RuntimeError(f"There should be exactly {words} in {name}, but got{':' if name != 'output_size' else ''} "
                                   f"{len(v)} elements.")
    if list(self.shape) != list(indices.shape):
        raise RuntimeError(f"Expected shape of indices to be same as that of the input tensor ({list(self.shape)}) but "
                           f"got indices tensor with shape: {list(indices.shape)}")
    for i in range(1, self.dim()):
        if self.shape[i] <= 0:
            raise RuntimeError(f"{op}_forward_out_cpu(): Expected input to have non-zero size for non-batch "
                               f"dimensions, but got {list(self.shape)} with dimension {i} being empty.")
    if n == 3 and any(s <= 0 for s in stride):
        raise RuntimeError(f"strides should be greater than zero, but got stride: {list(stride)}")
    _check_dtype(f"max_unpool{n}d", self)
    return output_size


def _max_unpool(n, self, indices, output_size, stride=None, padding=None, meta=False):
    output_size = _unpool_check(n, self, indices, output_size, stride, padding)
    shape = list(self.shape[:-n]) + output_size
    fmt = W.suggest_format(self) if n == 2 else None
    if meta:
        return _make_meta(shape, self.dtype, W.format_strides(shape, fmt))
    plane = W.prod(output_size)
    planes = W.prod(self.shape[:-n])
    idx = indices._data.reshape(planes, W.prod(self.shape[-n:]))
    bad = (idx < 0) | (idx >= plane)
    if bad.any():
        raise RuntimeError(f"Found an invalid max index: {int(idx[bad][0])} (output volumes are of size "
                           f"{'x'.join(map(str, output_size))})")
    r = np.zeros((planes, plane), dtype=self._data.dtype)
    r[np.arange(planes)[:, None], idx] = self._data.reshape(idx.shape)
    return out(W.as_format(r.reshape(shape), fmt), self)


def max_unpool2d(self, indices, output_size):
    return _max_unpool(2, self, indices, output_size)


def max_unpool3d(self, indices, output_size, stride, padding):
    return _max_unpool(3, self, indices, output_size, stride, padding)


def meta_max_unpool2d(self, indices, output_size):
    return _max_unpool(2, self, indices, output_size, meta=True)


def meta_max_unpool3d(self, indices, output_size, stride, padding):
    return _max_unpool(3, self, indices, output_size, stride, padding, meta=True)


# ---------------------------------------------------------------------------------------------
# Compositions (CompositeImplicitAutograd in torch)


def _dims_check(op, self, lo, hi):
    if not lo <= self.dim() <= hi:
        raise RuntimeError(f"Expected {lo} to {hi} dimensions, but got {self.dim()}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for {op})")


def _one_int(op, name, value):
    value = [value] if isinstance(value, int) else list(value)
    if len(value) != 1:
        raise RuntimeError(f"{op}() argument '{name}' should contain one int (got {len(value)})")
    return value


def _check_max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode, with_indices=True):
    """torch's checks of ``max_pool1d``: the 1-d pooling parameters and the output size (the
    padding checked in ``pooling_output_shape``'s words on the path that returns indices)."""
    shape = list(self.shape)
    ok = (len(shape) == 2 and shape[0] != 0 or len(shape) == 3 and shape[1] != 0) and len(shape) >= 2 and shape[-1]
    if not ok:
        raise RuntimeError("max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                           f"input, but got:{shape}")
    for name, v in (("kernel_size", kernel_size), ("padding", padding), ("dilation", dilation)):
        if len(v) != 1:
            raise RuntimeError(f"max_pool1d() {name} must be an int, list of ints or tuple of ints of size 1 but got "
                               f"size {len(v)}")
    if len(stride) > 1:
        raise RuntimeError("max_pool1d() stride must be None, an int, list of ints, or tuple of ints of size 1 but "
                           f"got size {len(stride)}")
    k, s, p, d = kernel_size[0], (stride or kernel_size)[0], padding[0], dilation[0]
    if k <= 0:
        raise RuntimeError(f"max_pool1d() kernel_size must be greater than zero, but got {k}")
    if s <= 0:
        raise RuntimeError(f"max_pool1d() stride must be greater than zero, but got {s}")
    if d <= 0:
        raise RuntimeError(f"max_pool1d() dilation must be greater than zero, but got {d}")
    if not with_indices:
        if p < 0:
            raise RuntimeError(f"max_pool1d() padding must be non-negative, but got {p}")
        if p > k // 2:
            raise RuntimeError(f"max_pool1d() padding should be at most half of kernel size, but got padding={p} "
                               f"and kernel_size={k}")
    o = _out_size(shape[-1], k, s, p, d, ceil_mode)
    if o <= 0:
        raise RuntimeError(f"max_pool1d() Invalid computed output size: {o}")
    return k, s, p, d


def max_pool1d_with_indices(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    kernel_size, stride = _listed(kernel_size), _listed(stride)
    padding, dilation = _listed(padding), _listed(dilation)
    k, s, p, d = _check_max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode)
    x = A.unsqueeze(self, -2)
    values, index = A.max_pool2d_with_indices(x, [1, k], [1, s], [0, p], [1, d], ceil_mode)
    return A.squeeze__dim(values, -2), A.squeeze__dim(index, -2)


def max_pool1d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    kernel_size, stride = _listed(kernel_size), _listed(stride)
    padding, dilation = _listed(padding), _listed(dilation)
    # torch takes the indices path for inputs that require grad, its own kernel otherwise
    _check_max_pool1d(self, kernel_size, stride, padding, dilation, ceil_mode, with_indices=self.requires_grad)
    if not self.requires_grad:
        _check_dtype("max_pool1d_impl", self)
    return A.max_pool1d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def _listed(v):
    return [v] if isinstance(v, int) else list(v)


def max_pool2d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return A.max_pool2d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def max_pool3d(self, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
    return A.max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode)[0]


def avg_pool1d(self, kernel_size, stride=(), padding=0, ceil_mode=False, count_include_pad=True):
    _dims_check("avg_pool1d", self, 2, 3)
    k = _one_int("avg_pool1d", "kernel_size", kernel_size)[0]
    stride = _listed(stride)
    if len(stride) > 1:
        raise RuntimeError(f"avg_pool1d() argument 'stride' should contain one int (got {len(stride)})")
    s = stride[0] if stride else k
    p = _one_int("avg_pool1d", "padding", padding)[0]
    x = A.unsqueeze(self, -2)
    y = A.avg_pool2d(x, [1, k], [1, s], [0, p], ceil_mode, count_include_pad)
    return A.squeeze__dim(y, -2)


def adaptive_avg_pool1d(self, output_size):
    o = _one_int("adaptive_avg_pool1d", "output_size", output_size)[0]
    _dims_check("adaptive_avg_pool1d", self, 2, 3)
    return A.squeeze__dim(A.adaptive_avg_pool2d(A.unsqueeze(self, -2), [1, o]), -2)


def _check_adaptive_size(n, output_size):
    output_size = [int(v) for v in output_size] if not isinstance(output_size, int) else [output_size] * n
    if len(output_size) != n:
        raise RuntimeError(f"adaptive_avg_pool{n}d: output_size must be {n}")
    if any(o < 0 for o in output_size):
        shown = ", ".join(map(str, output_size[:2])) + ("," + str(output_size[2]) if n == 3 else "")
        raise RuntimeError(f"adaptive_avg_pool{n}d: elements of output_size must be greater than or equal to 0 but "
                           f"received {{{shown}}}")
    return output_size


def adaptive_avg_pool2d(self, output_size):
    output_size = _check_adaptive_size(2, output_size)
    if output_size == [1, 1] and W.suggest_format(self) is None:
        return _mean_pool(self, 2)
    return A._adaptive_avg_pool2d(self, output_size)


def adaptive_avg_pool3d(self, output_size):
    output_size = _check_adaptive_size(3, output_size)
    if output_size == [1, 1, 1]:
        return _mean_pool(self, 3)
    return A._adaptive_avg_pool3d(self, output_size)


def _mean_pool(self, n):
    """torch's shortcut for a 1x1 output: the mean over the spatial dims. (A channels_last input
    takes the pooling kernel instead, which lays its result out as torch's mean does.)"""
    return A.mean__dim(self, list(range(-n, 0)), True)


def adaptive_max_pool1d(self, output_size):
    o = _one_int("adaptive_max_pool1d", "output_size", output_size)[0]
    _dims_check("adaptive_max_pool1d", self, 2, 3)
    values, index = A.adaptive_max_pool2d(A.unsqueeze(self, -2), [1, o])
    return A.squeeze__dim(values, -2), A.squeeze__dim(index, -2)


_KERNELS = {
    "max_pool2d_with_indices": max_pool2d_with_indices, "max_pool3d_with_indices": max_pool3d_with_indices,
    "max_pool2d_with_indices_backward": max_pool2d_with_indices_backward,
    "max_pool3d_with_indices_backward": max_pool3d_with_indices_backward,
    "avg_pool2d": avg_pool2d, "avg_pool3d": avg_pool3d, "avg_pool2d_backward": avg_pool2d_backward,
    "avg_pool3d_backward": avg_pool3d_backward,
    "_adaptive_avg_pool2d": _adaptive_avg_pool2d, "_adaptive_avg_pool3d": _adaptive_avg_pool3d,
    "_adaptive_avg_pool2d_backward": _adaptive_avg_pool2d_backward,
    "_adaptive_avg_pool3d_backward": _adaptive_avg_pool3d_backward,
    "adaptive_max_pool2d": adaptive_max_pool2d, "adaptive_max_pool3d": adaptive_max_pool3d,
    "adaptive_max_pool2d_backward": adaptive_max_pool2d_backward,
    "adaptive_max_pool3d_backward": adaptive_max_pool3d_backward,
    "fractional_max_pool2d": fractional_max_pool2d, "fractional_max_pool3d": fractional_max_pool3d,
    "fractional_max_pool2d_backward": fractional_max_pool2d_backward,
    "fractional_max_pool3d_backward": fractional_max_pool3d_backward,
    "max_unpool2d": max_unpool2d, "max_unpool3d": max_unpool3d,
}
_META_KERNELS = {
    "max_pool2d_with_indices": meta_max_pool2d_with_indices, "max_pool3d_with_indices": meta_max_pool3d_with_indices,
    "max_pool2d_with_indices_backward": meta_pool_backward, "max_pool3d_with_indices_backward": meta_pool_backward,
    "avg_pool2d": meta_avg_pool2d, "avg_pool3d": meta_avg_pool3d,
    "avg_pool2d_backward": meta_pool_backward, "avg_pool3d_backward": meta_pool_backward,
    "_adaptive_avg_pool2d": meta__adaptive_avg_pool2d, "_adaptive_avg_pool3d": meta__adaptive_avg_pool3d,
    "_adaptive_avg_pool2d_backward": meta_like_self_backward, "_adaptive_avg_pool3d_backward": meta_like_self_backward,
    "adaptive_max_pool2d": meta_adaptive_max_pool2d, "adaptive_max_pool3d": meta_adaptive_max_pool3d,
    "adaptive_max_pool2d_backward": meta_like_self_backward, "adaptive_max_pool3d_backward": meta_like_self_backward,
    "fractional_max_pool2d": meta_fractional_max_pool2d, "fractional_max_pool3d": meta_fractional_max_pool3d,
    "fractional_max_pool2d_backward": meta_pool_backward, "fractional_max_pool3d_backward": meta_pool_backward,
    "max_unpool2d": meta_max_unpool2d, "max_unpool3d": meta_max_unpool3d,
}
_COMPOSITE = {
    "max_pool1d_with_indices": max_pool1d_with_indices, "max_pool1d": max_pool1d, "max_pool2d": max_pool2d,
    "max_pool3d": max_pool3d, "avg_pool1d": avg_pool1d, "adaptive_avg_pool1d": adaptive_avg_pool1d,
    "adaptive_avg_pool2d": adaptive_avg_pool2d, "adaptive_avg_pool3d": adaptive_avg_pool3d,
    "adaptive_max_pool1d": adaptive_max_pool1d,
}


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
