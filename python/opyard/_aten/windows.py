"""Sliding windows over the spatial dimensions of ``(N, C, *spatial)`` arrays: the numpy
machinery the convolution, pooling and unfold kernels share.

Note [Sliding windows]: a window view is ``as_strided`` over a padded copy of the input, with
shape ``(..., *out, *kernel)``: output position ``o`` and kernel offset ``k`` read element
``o * stride + k * dilation`` of the padded dimension. A view allocates nothing; the kernels
reduce it (pooling) or copy it once into columns for one matrix product (convolution), so no
Python loop runs per element. The transpose of a window read, ``fold``, adds columns back
with one vectorised slice-add per kernel offset.
"""

import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import _core
from .. import _dtype as D
from .._memory_format import channels_last, channels_last_3d, is_strides_like_format

__all__ = [
    "accumulate_dtype", "as_format", "batch_columns", "chunks", "cpp_name", "fold", "format_of", "format_strides", "int_list",
    "legacy", "pad", "padded_windows", "pool_out_size", "prod", "suggest_format", "unfold_columns", "window_view",
]

# The largest column buffer (bytes) one matrix product reads: bigger batches go in chunks.
# Large products keep BLAS efficient (its threads synchronise per call), small ones bound the
# memory a convolution holds beside its input and stay under the C allocator's largest mmap
# threshold (32 MB), so each chunk reuses the pages the last one freed instead of faulting in
# fresh ones: a 32x64x56x56 convolution with 64 3x3 filters took 86 ms with 128 MB chunks, 72
# with 32 MB, 61 with 16 MB and 63-64 with 4-8 MB.
CHUNK_BYTES = 1 << 24

# torch's C++ element type names (``Tensor.dtype`` as a TypeMeta prints), for its messages.
CPP_NAMES = {
    "float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
    "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
    "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>",
}


def int_list(op, name, value, n):
    """``value`` (an int or a list) as a list of ``n`` ints: torch's "must either be a single int,
    or a tuple of N ints" check of the pooling ops' ``int[N]`` arguments."""
    if isinstance(value, int):
        return [value] * n
    value = [int(v) for v in value]
    if len(value) == 1:
        return value * n
    if len(value) != n:
        words = {1: "one int", 2: "two ints", 3: "three ints"}[n]
        raise RuntimeError(f"{op}: {name} must either be a single int, or a tuple of {words}")
    return value


def accumulate_dtype(arr):
    """The numpy dtype a kernel computes ``arr`` in: float32 for half and bfloat16 (torch's
    accumulate type; the result is rounded once), the array's own dtype otherwise."""
    if arr.dtype.itemsize == 2 and arr.dtype.kind in "fV":
        return np.dtype(np.float32)
    return arr.dtype


def pool_out_size(size, k, s, p, d, ceil_mode):
    """torch's ``pooling_output_shape``: floor (or ceil) division, and with ``ceil_mode`` the last
    window must start inside the input or its left padding."""
    out = (size + 2 * p - d * (k - 1) - 1 + (s - 1 if ceil_mode else 0)) // s + 1
    if ceil_mode and (out - 1) * s >= size + p:
        out -= 1
    return out


def pad(x, nspatial, before, after, value=0):
    """``x`` with its last ``nspatial`` dimensions padded by ``before``/``after`` (negative
    amounts crop) with ``value``; ``x`` itself when nothing changes."""
    if not any(before) and not any(after):
        return x
    crop = [slice(None)] * (x.ndim - nspatial)
    widths = [(0, 0)] * (x.ndim - nspatial)
    for b, a, n in zip(before, after, x.shape[x.ndim - nspatial:]):
        crop.append(slice(max(-b, 0), n - max(-a, 0)))
        widths.append((max(b, 0), max(a, 0)))
    x = x[tuple(crop)]
    if not any(w for pair in widths for w in pair):
        return x
    out = np.full([n + b + a for n, (b, a) in zip(x.shape, widths)], value, dtype=x.dtype)
    out[tuple(slice(b, b + n) for n, (b, _) in zip(x.shape, widths))] = x
    return out


def window_view(xp, out, kernel, stride, dilation):
    """The windows of ``xp`` (already padded) as a read-only view ``(..., *out, *kernel)``
    (Note [Sliding windows])."""
    n = len(out)
    lead = xp.shape[:xp.ndim - n]
    st = xp.strides
    lead_st, sp_st = st[:xp.ndim - n], st[xp.ndim - n:]
    shape = lead + tuple(out) + tuple(kernel)
    strides = lead_st + tuple(a * s for a, s in zip(sp_st, stride)) + tuple(a * d for a, d in zip(sp_st, dilation))
    return as_strided(xp, shape, strides, writeable=False)


def padded_windows(x, out, kernel, stride, padding, dilation, value=0):
    """Windows of ``x`` padded by ``padding`` on the left and as much as the last window needs
    on the right (``ceil_mode`` windows may pass the padding); ``value`` fills the padding."""
    n = len(out)
    spatial = x.shape[x.ndim - n:]
    after = [(o - 1) * s + d * (k - 1) + 1 - size - p if o > 0 else -size - p
             for o, s, d, k, size, p in zip(out, stride, dilation, kernel, spatial, padding)]
    xp = pad(x, n, padding, [max(a, -size) for a, size in zip(after, spatial)], value)
    return window_view(xp, out, kernel, stride, dilation)


def offsets(xp, out, kernel, stride, dilation):
    """Every kernel offset of a window view: ``(offset, view)`` with ``view`` the ``(..., *out)``
    elements each window reads at that offset. Reductions over windows (max, sum) walk these
    instead of copying the windows."""
    win = window_view(xp, out, kernel, stride, dilation)
    n = len(out)
    for k in np.ndindex(*kernel):
        yield k, win[(Ellipsis,) + k] if n else win


def unfold_columns(x, out, kernel, stride, padding, dilation):
    """``(N, C, *spatial)`` -> a contiguous ``(N, C, *kernel, *out)`` copy of its zero-padded
    windows: the columns of ``im2col``."""
    cols = _columns_2d(x, out, kernel, stride, padding, dilation, False)
    if cols is not None:
        return cols
    w = padded_windows(x, out, kernel, stride, padding, dilation)
    n = len(out)
    lead = x.ndim - n
    order = tuple(range(lead)) + tuple(range(lead + n, lead + 2 * n)) + tuple(range(lead, lead + n))
    return np.ascontiguousarray(w.transpose(order))


def batch_columns(x, out, kernel, stride, padding, dilation):
    """``(N, C, *spatial)`` -> a contiguous ``(C, *kernel, N, *out)`` copy of its zero-padded
    windows: every image's columns side by side, for one matrix product over the batch."""
    cols = _columns_2d(x, out, kernel, stride, padding, dilation, True)
    if cols is not None:
        return cols
    w = padded_windows(x, out, kernel, stride, padding, dilation)
    n = len(out)
    order = (1,) + tuple(range(2 + n, 2 + 2 * n)) + (0,) + tuple(range(2, 2 + n))
    return np.ascontiguousarray(w.transpose(order))


def _columns_2d(x, out, kernel, stride, padding, dilation, kernel_major):
    """The columns of a contiguous float32/float64 ``(N, C, H, W)`` input made in Rust (Note
    [Columns in Rust], ``src/kernels/im2col.rs``), the same elements as the window copy; None for
    anything else."""
    if (x.ndim != 4 or len(out) != 2 or x.dtype not in _COLUMN_DTYPES or not x.flags.c_contiguous
            or min(padding) < 0 or min(stride) < 1 or min(dilation) < 1 or min(out) < 0):
        return None
    return _core._im2col(x, tuple(out), tuple(kernel), tuple(stride), tuple(padding), tuple(dilation),
                         kernel_major)


_COLUMN_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def fold(cols, spatial, kernel, stride, padding, dilation):
    """The transpose of ``unfold_columns``: ``(N, C, *kernel, *out)`` columns added into a zero
    ``(N, C, *spatial)`` array, one vectorised slice-add per kernel offset (Note [Sliding windows])."""
    n = len(spatial)
    lead = cols.shape[:cols.ndim - 2 * n]
    out = cols.shape[cols.ndim - n:]
    full = [max(size + 2 * p, (o - 1) * s + d * (k - 1) + 1)
            for size, p, o, s, d, k in zip(spatial, padding, out, stride, dilation, kernel)]
    acc = np.zeros(lead + tuple(full), dtype=cols.dtype)
    for offset in np.ndindex(*kernel):
        target = tuple(slice(k * d, k * d + (o - 1) * s + 1, s) for k, d, o, s in zip(offset, dilation, out, stride))
        acc[(Ellipsis,) + target] += cols[(Ellipsis,) + offset + (slice(None),) * n]
    return acc[(Ellipsis,) + tuple(slice(p, p + size) for p, size in zip(padding, spatial))]


def suggest_format(t):
    """torch's ``suggest_memory_format``: channels_last(_3d) when the tensor's strides look so."""
    shape, strides = t.shape, t.stride()
    if len(shape) == 4 and is_strides_like_format(shape, strides, channels_last):
        return channels_last
    if len(shape) == 5 and is_strides_like_format(shape, strides, channels_last_3d):
        return channels_last_3d
    return None


def format_of(*tensors):
    """The memory format of a result computed from ``tensors``: channels_last when one of them
    suggests it (torch's rule for convolution and the 2-d pooling and resampling kernels)."""
    for t in tensors:
        if t is not None:
            fmt = suggest_format(t)
            if fmt is not None:
                return fmt
    return None


def as_format(arr, fmt):
    """``arr`` (an ``(N, C, *spatial)`` array) laid out in ``fmt`` (None: C-contiguous)."""
    if fmt is None:
        return np.ascontiguousarray(arr)
    order = (0,) + tuple(range(2, arr.ndim)) + (1,)
    t = arr.transpose(order)
    if t.flags.c_contiguous and t.strides == format_strides_bytes(t.shape, t.itemsize):
        return arr
    # numpy calls a view with size-1 dims contiguous whatever their strides: lay it out anew
    out = np.empty(t.shape, dtype=arr.dtype)
    out[...] = t
    return out.transpose(np.argsort(order))


def format_strides_bytes(shape, itemsize):
    """C-contiguous byte strides of ``shape``, size-1 dimensions included (numpy's own leave
    those free)."""
    strides, acc = [], itemsize
    for n in reversed(shape):
        strides.append(acc)
        acc *= max(n, 1)
    return tuple(reversed(strides))


def format_strides(shape, fmt):
    """Element strides of ``shape`` laid out in ``fmt`` (None: contiguous)."""
    n = len(shape)
    order = list(range(n)) if fmt is None else [0] + list(range(2, n)) + [1]
    strides = [0] * n
    acc = 1
    for d in reversed(order):
        strides[d] = acc
        acc *= max(shape[d], 1)
    return strides


def cpp_name(dtype):
    """torch's C++ element type name of ``dtype`` (``double`` for float64)."""
    return CPP_NAMES.get(dtype.name, dtype.name)


def legacy(dtype):
    return D.legacy_name(dtype)


def chunks(n, row_bytes):
    """Batch slices whose column buffers stay under ``CHUNK_BYTES`` each."""
    step = max(1, CHUNK_BYTES // max(row_bytes, 1))
    return [slice(i, min(i + step, n)) for i in range(0, max(n, 1), step)] if n else [slice(0, 0)]


def prod(values):
    return math.prod(int(v) for v in values)
