"""Normalization operators, structured as in torch: the kernels ``native_batch_norm`` (and its
``_native_batch_norm_legit`` / ``_batch_norm_with_update`` / ``_batch_norm_no_update`` forms),
``native_group_norm`` and ``native_layer_norm`` (numpy, statistics in the compute dtype: float32
for float16/bfloat16 data), and the compositions ``batch_norm``, ``instance_norm``,
``group_norm`` and ``layer_norm`` that call them (CompositeImplicitAutograd). Derivatives:
``autograd/derivatives/norms.py``."""

import math

import numpy as np

from .. import _core
from .. import _dtype as D
from .common import A, out
from .nn_common import check_floating, check_params, opmath_dtype

__all__ = ["COMPOSITE", "KERNELS", "SCHEMAS"]

SCHEMAS = (
    "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "_native_batch_norm_legit(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "_native_batch_norm_legit.no_stats(Tensor input, Tensor? weight, Tensor? bias, bool training, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "_native_batch_norm_legit_no_training(Tensor input, Tensor? weight, Tensor? bias, Tensor running_mean, Tensor running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor)",
    "_batch_norm_with_update(Tensor input, Tensor? weight, Tensor? bias, Tensor(a!) running_mean, Tensor(b!) running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)",
    "_batch_norm_no_update(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, float momentum, float eps) -> (Tensor, Tensor, Tensor, Tensor)",
    "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool training, float momentum, float eps, bool cudnn_enabled) -> Tensor",
    "instance_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? running_mean, Tensor? running_var, bool use_input_stats, float momentum, float eps, bool cudnn_enabled) -> Tensor",
    "native_group_norm(Tensor input, Tensor? weight, Tensor? bias, SymInt N, SymInt C, SymInt HxW, int group, float eps) -> (Tensor, Tensor, Tensor)",
    "group_norm(Tensor input, int num_groups, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enabled=True) -> Tensor",
    "native_layer_norm(Tensor input, SymInt[] normalized_shape, Tensor? weight, Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)",
    "native_layer_norm_backward(Tensor grad_out, Tensor input, SymInt[] normalized_shape, Tensor mean, Tensor rstd, Tensor? weight, Tensor? bias, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
)
# ``layer_norm``'s schema is in schemas.py; its kernel is here.


# --- batch norm ------------------------------------------------------------------------------


def _channel_shape(x):
    """``[1, C, 1, ...]``: per-channel values broadcast against ``x`` (N, C, *)."""
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """torch's CPU batch norm: ``(output, save_mean, save_invstd)``; in training the running
    statistics (when given) move toward the batch's, in place."""
    check_floating("batch_norm", input)
    stats_dt = check_params(input, weight, bias, running_mean, running_var)
    x = input._data
    if not training and (running_mean is None or running_var is None):
        raise ValueError(f"{'running_mean' if running_mean is None else 'running_var'} must be defined in "
                         "evaluation mode")
    if x.ndim < 2:
        if x.size == 0:
            return out(x.copy(), input), _empty(input, stats_dt), _empty(input, stats_dt)
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
    if training and x.size == 0:
        raise RuntimeError(f"input tensor must have at least one element, but got input_sizes = {list(x.shape)}")
    channels = x.shape[1]
    for name, t in (("weight", weight), ("bias", bias), ("running_mean", running_mean),
                    ("running_var", running_var)):
        if t is not None and t.numel() != channels:
            raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    acc = opmath_dtype(x)
    shape = _channel_shape(x)
    axes = (0,) + tuple(range(2, x.ndim))
    with np.errstate(all="ignore"):
        if training:
            save_mean, save_invstd = _batch_stats(x, axes, shape, acc, stats_dt.np, eps, momentum,
                                                  running_mean, running_var)
            mean, invstd = save_mean.astype(acc), save_invstd.astype(acc)
        else:
            mean = running_mean._data.astype(acc)
            invstd = 1.0 / np.sqrt(running_var._data.astype(acc) + eps)
            save_mean = save_invstd = None
        # torch's transform: y = x * alpha + beta with alpha = invstd * w, beta = b - mean * alpha,
        # one fused multiply-add per element (emulated in float64 for float32 compute: exact product,
        # one rounding of the sum).
        alpha = invstd if weight is None else invstd * weight._data.astype(acc)
        beta = -(mean * alpha) if bias is None else bias._data.astype(acc) - mean * alpha
        wide = np.float64 if acc == np.float32 else acc
        y = (x.astype(wide, copy=False) * alpha.astype(wide).reshape(shape) + beta.astype(wide).reshape(shape))
        y = y.astype(acc, copy=False)
    result = out(y.astype(x.dtype, copy=False), input)
    if save_mean is None:
        return result, _empty(input, stats_dt), _empty(input, stats_dt)
    return result, out(save_mean, input), out(save_invstd, input)


def _batch_stats(x, axes, shape, acc, param, eps, momentum, running_mean, running_var):
    """``(mean, invstd)`` of each channel in the statistics dtype ``param``, as torch's CPU kernel
    makes them: sums accumulated in the compute dtype (here in float64, then rounded), the mean
    and the sum of squared deviations stored in ``param``, the variance divided out in ``param``
    arithmetic (float16/bfloat16 round each step) and ``1 / sqrt(var + eps)`` in the compute dtype.
    The running statistics move toward the batch's in place."""
    n = x.size // x.shape[1]
    wide = x.astype(np.float64)
    mean_acc = wide.mean(axis=axes)
    var_sum = np.square(wide - mean_acc.astype(acc).reshape(shape)).sum(axis=axes).astype(acc)
    mean = mean_acc.astype(acc).astype(param)
    # bfloat16 statistics keep the sum in bfloat16 and divide in bfloat16 arithmetic; float16
    # ones are computed in float32 and only stored as float16.
    step = param if param == D.bfloat16.np else acc

    def divided(count):
        return (var_sum.astype(step).astype(acc) / np.asarray(count).astype(step).astype(acc)).astype(step)
    invstd = (1.0 / np.sqrt(divided(n).astype(acc) + eps)).astype(param)
    for t, batch in ((running_mean, mean), (running_var, divided(n - 1))):
        if t is not None:
            r = t._data
            r[...] = (momentum * batch.astype(acc) + (1 - momentum) * r.astype(acc)).astype(r.dtype)
            t._bump_version()
    return mean, invstd


def _empty(like, dtype):
    return out(np.empty(0, dtype.np), like)


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    return _batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)


def native_batch_norm_legit_no_stats(input, weight, bias, training, momentum, eps):
    return _batch_norm(input, weight, bias, None, None, training, momentum, eps)


def native_batch_norm_legit_no_training(input, weight, bias, running_mean, running_var, momentum, eps):
    return _batch_norm(input, weight, bias, running_mean, running_var, False, momentum, eps)


def _reserve(like):
    """The empty ``reserve`` buffer the CPU kernels return (cuDNN's workspace elsewhere)."""
    return out(np.empty(0, np.uint8), like)


def batch_norm_with_update(input, weight, bias, running_mean, running_var, momentum, eps):
    return _batch_norm(input, weight, bias, running_mean, running_var, True, momentum, eps) + (_reserve(input),)


def batch_norm_no_update(input, weight, bias, running_mean, running_var, momentum, eps):
    return _batch_norm(input, weight, bias, running_mean, running_var, False, momentum, eps) + (_reserve(input),)


def batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    """torch's ``batch_norm`` on CPU: the size checks of ``_batch_norm_impl_index``, then
    ``native_batch_norm``."""
    if input.dim() >= 2:
        channels = input.shape[1]
        # torch's order (``_batch_norm_impl_index``): the running statistics, then the affine parameters
        for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                        ("bias", bias)):
            if t is not None and t.numel() != channels:
                raise RuntimeError(f"{name} should contain {channels} elements not {t.numel()}")
    if not training:
        for name, t in (("running_mean", running_mean), ("running_var", running_var)):
            if t is None:
                raise RuntimeError(f"{name} must be defined in evaluation mode")
    return A.native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps)[0]


def instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, cudnn_enabled):
    """Batch norm of the input seen as one batch of ``N * C`` channels (torch's composition); the
    running statistics, when given, are updated with the mean over the batch."""
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    shape = list(input.shape)
    n, c = shape[0], shape[1] if len(shape) > 1 else 1
    repeated = [None if t is None else A.repeat(t, [n]) for t in (weight, bias, running_mean, running_var)]
    folded = A.view(input, [1, n * c] + shape[2:])
    y = A.native_batch_norm(folded, repeated[0], repeated[1], repeated[2], repeated[3], use_input_stats,
                            momentum, eps)[0]
    if use_input_stats:
        for stat, batch in ((running_mean, repeated[2]), (running_var, repeated[3])):
            if stat is not None:
                A.copy_(A.alias(stat), A.mean__dim(A.view(batch, [n, c]), [0]))
    return A.view(y, shape)


# --- group norm ------------------------------------------------------------------------------


def _row_means(rows):
    """``rows.mean(axis=1)`` of a 2-d float32/float64 array with columns, without numpy's frames (3
    us): its sum, then the division by the count, here as a float in the data's type (numpy's intp
    count divides in double precision, rounded to float32 for float32: the same quotient, see
    ``reduction._var_dims``)."""
    if rows.shape[1] >= 1 << 24:  # a float32 count is exact below
        return rows.mean(axis=1)
    s = np.add.reduce(rows, 1)
    return np.true_divide(s, float(rows.shape[1]), out=s)


def _row_moments(rows, eps):
    """``(mean, 1 / sqrt(var + eps))`` of each row of the 2-d ``rows`` (biased variance, two
    passes; NaN for empty rows)."""
    if not rows.shape[1]:
        nan = np.full(rows.shape[0], np.nan, rows.dtype)
        return nan, nan
    mean = _row_means(rows)
    d = rows - mean[:, None]
    np.square(d, out=d)
    return mean, 1.0 / np.sqrt(_row_means(d) + eps)


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    check_floating("GroupNormKernelImpl", input)
    stats_dt = check_params(input, weight, bias)
    x = input._data
    N, C, HxW = int(N), int(C), int(HxW)
    if C <= 0:
        raise RuntimeError(f"Expected number of channels to be greater than 0, got {C}")
    if HxW <= 0:
        raise RuntimeError(f"Expected HxW to be greater than 0, got {HxW}")
    if x.size != N * C * HxW:
        raise RuntimeError(f"Expected X.numel() == N * C * HxW to be true, but got false. (native_group_norm: "
                           f"input of shape {list(x.shape)} has {x.size} elements, N * C * HxW = {N * C * HxW})")
    if group <= 0 or C % group:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(x.shape)} and num_groups={group}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != C):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(t.shape)} and input of shape {list(x.shape)}")
    acc = opmath_dtype(x)
    g = x.astype(acc, copy=False).reshape(N, group, (C // group) * HxW)
    with np.errstate(all="ignore"):
        mean, rstd = _row_moments(g.reshape(N * group, g.shape[2]), eps)
        mean, rstd = mean.reshape(N, group), rstd.reshape(N, group)
        # torch's ApplyScaleBias: y = x * scale + shift, scale = rstd * w, shift = b - scale * mean
        per_c = C // group
        scale = rstd.repeat(per_c, axis=1)  # np.repeat's call, without its frames
        if weight is not None:
            scale = scale * weight._data.astype(acc).reshape(1, C)
        shift = -scale * mean.repeat(per_c, axis=1)
        if bias is not None:
            shift += bias._data.astype(acc).reshape(1, C)
        y = g.reshape(N, C, HxW) * scale[..., None]
        y += shift[..., None]
    y = y.reshape(x.shape).astype(x.dtype, copy=False)
    if x.ndim > 2 and not x.flags.c_contiguous and x.flags.f_contiguous is False:
        y = _like_layout(y, x)
    return out(y, input), out(mean.astype(stats_dt.np), input), out(rstd.astype(stats_dt.np), input)


def _like_layout(y, x):
    """``y`` with ``x``'s dimension order (torch keeps a channels-last input's layout)."""
    order = sorted(range(x.ndim), key=lambda i: -x.strides[i])
    return np.ascontiguousarray(y.transpose(order)).transpose(np.argsort(order))


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    shape = list(input.shape)
    if len(shape) < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {len(shape)}")
    n, c = shape[0], shape[1]
    if num_groups <= 0 or c % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {shape} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t.dim() != 1 or t.numel() != c):
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {list(t.shape)} and input of shape {shape}")
    hxw = 1
    for s in shape[2:]:
        hxw *= s
    return A.native_group_norm(input, weight, bias, n, c, hxw, num_groups, eps)[0]


# --- layer norm ------------------------------------------------------------------------------


def layer_norm_checks(input, normalized_shape, weight, bias):
    """torch's ``_check_layer_norm_inputs``: the number of leading (batch) dimensions."""
    normalized = [int(s) for s in normalized_shape]
    if not normalized:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                           f"one element, but got normalized_shape = {normalized}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and list(t.shape) != normalized:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{list(t.shape)} and normalized_shape = {normalized}")
    shape = list(input.shape)
    if len(shape) < len(normalized) or shape[len(shape) - len(normalized):] != normalized:
        raise RuntimeError(f"Given normalized_shape={normalized}, expected input with shape "
                           f"[*, {', '.join(str(s) for s in normalized)}], but got input of size{shape}")
    return len(shape) - len(normalized)


def _fused_layer_norm(flat, cols, weight, bias, eps, acc):
    """``(y, stats)`` of the Rust kernel over the rows of ``flat`` (float32/float64), or ``None``."""
    w = None if weight is None else np.ascontiguousarray(weight._data, dtype=acc).reshape(-1)
    b = None if bias is None else np.ascontiguousarray(bias._data, dtype=acc).reshape(-1)
    return _core._fused_norm(np.ascontiguousarray(flat), cols, w, b, float(eps), True)


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    axis = layer_norm_checks(input, normalized_shape, weight, bias)
    check_floating("LayerNormKernelImpl", input)
    stats_dt = check_params(input, weight, bias)
    x = input._data
    acc = opmath_dtype(x)
    lead = x.shape[:axis]
    m, cols = math.prod(x.shape[:axis]), math.prod(x.shape[axis:])  # np.prod's frames took 4 us each
    flat = x.astype(acc, copy=False).reshape(m, cols)
    stats_shape = tuple(lead) + (1,) * (x.ndim - axis)
    fused = _fused_layer_norm(flat, cols, weight, bias, eps, acc) if m and cols else None
    if fused is not None:  # one pass per row in Rust (statistics in float64)
        y, stats = fused
        return (out(y.reshape(x.shape).astype(x.dtype, copy=False), input),
                out(stats[:, 0].astype(stats_dt.np).reshape(stats_shape), input),
                out(stats[:, 1].astype(stats_dt.np).reshape(stats_shape), input))
    with np.errstate(all="ignore"):
        mean, rstd = _row_moments(flat, eps)
        # torch's kernel: y = (x * rstd + (-mean * rstd)) * w + b
        y = flat * rstd[:, None]
        y += (-mean * rstd)[:, None]
        if weight is not None:
            y *= weight._data.astype(acc).reshape(1, -1)
        if bias is not None:
            y += bias._data.astype(acc).reshape(1, -1)
    return (out(y.reshape(x.shape).astype(x.dtype, copy=False), input),
            out(mean.astype(stats_dt.np).reshape(stats_shape), input),
            out(rstd.astype(stats_dt.np).reshape(stats_shape), input))


def layer_norm_stats(input, normalized_shape, eps):
    """``native_layer_norm(input, normalized_shape, None, None, eps)``'s ``(mean, rstd)`` alone, bit for
    bit, from the Rust kernel (no normalized result written); ``None`` where it declines (the caller
    then runs ``native_layer_norm``). For a backward whose forward's statistics were not kept."""
    axis = layer_norm_checks(input, normalized_shape, None, None)
    x = input._data
    if x.dtype.kind != "f" and x.dtype.name != "bfloat16":
        return None
    stats_dt = check_params(input, None, None)
    acc = opmath_dtype(x)
    m, cols = math.prod(x.shape[:axis]), math.prod(x.shape[axis:])  # np.prod's frames took 4 us each
    if not (m and cols):
        return None
    stats = _core._fused_norm_stats(np.ascontiguousarray(x.astype(acc, copy=False).reshape(m, cols)), cols,
                                    float(eps), True)
    if stats is None:
        return None
    stats_shape = tuple(x.shape[:axis]) + (1,) * (x.ndim - axis)
    return (out(stats[:, 0].astype(stats_dt.np).reshape(stats_shape), input),
            out(stats[:, 1].astype(stats_dt.np).reshape(stats_shape), input))


def native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask):
    """torch's ``layer_norm_backward_cpu``: ``(grad_input, grad_weight, grad_bias)`` from the statistics
    ``native_layer_norm`` returned (used as given, not recomputed), each ``None`` where ``output_mask``
    is false. With ``xhat = (x - mean) * rstd`` and ``d = grad_out * weight``: ``grad_input = rstd *
    (d - mean(d) - xhat * mean(d * xhat))`` over the normalized dims, ``grad_weight = sum(grad_out *
    xhat)`` and ``grad_bias = sum(grad_out)`` over the leading ones; in the compute dtype (float32 for
    float16/bfloat16), each rounded once to its input's dtype."""
    axis = layer_norm_checks(input, normalized_shape, weight, bias)
    check_floating("LayerNormBackwardKernelImpl", input)
    mask = [bool(m) for m in output_mask]
    if (mask[1] and weight is None) or (mask[2] and bias is None):
        raise RuntimeError("tensor does not have a device")  # torch: an undefined parameter asked for
    if grad_out.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {D.legacy_name(input.dtype)} but found "
                           f"{D.legacy_name(grad_out.dtype)}")
    x = input._data
    if grad_out._data.shape != x.shape:
        raise RuntimeError(f"native_layer_norm_backward: expected grad_out of the input's shape {list(x.shape)}, "
                           f"but got {list(grad_out._data.shape)}")
    acc = opmath_dtype(x)
    m, cols = math.prod(x.shape[:axis]), math.prod(x.shape[axis:])  # np.prod's frames took 4 us each
    g = np.ascontiguousarray(grad_out._data, dtype=acc).reshape(m, cols)
    flat = np.ascontiguousarray(x, dtype=acc).reshape(m, cols)
    stats = np.empty((m, 2), acc)
    for col, t in enumerate((mean, rstd)):  # one value per row, of any shape (torch reads them flat)
        if t.numel() != m:
            raise RuntimeError(f"native_layer_norm_backward: expected {'mean' if col == 0 else 'rstd'} to have "
                               f"{m} elements (one per normalized row), but got {t.numel()}")
        stats[:, col] = t._data.reshape(m)
    w = None if weight is None else np.ascontiguousarray(weight._data, dtype=acc).reshape(-1)
    fused = _core._fused_norm_backward(g, flat, stats, w, cols, True, mask) if m and cols else None
    if fused is not None:  # one pass per row in Rust (sums in float64), the pool above its threshold
        dx, dw, db = fused
    else:
        dx, dw, db = _layer_norm_backward_rows(g, flat, stats, w, mask)
    results = []
    for on, grad, like in zip(mask, (dx, dw, db), (input, weight, bias)):
        results.append(out(grad.reshape(like._data.shape).astype(like._data.dtype, copy=False), input)
                       if on else None)
    return tuple(results)


def _layer_norm_backward_rows(g, x, stats, w, mask):
    """``native_layer_norm_backward`` over the rows of ``g`` and ``x`` (m, cols) in numpy: what the
    Rust kernel declines (no rows or columns, a weight not matching)."""
    m, cols = x.shape
    with np.errstate(all="ignore"):
        xhat = (x - stats[:, :1]) * stats[:, 1:]
        dx = dw = db = None
        if mask[0]:
            d = g if w is None else g * w.reshape(1, -1)
            if cols:
                dx = stats[:, 1:] * (d - d.mean(axis=1, keepdims=True) - xhat * (d * xhat).mean(axis=1, keepdims=True))
            else:
                dx = np.zeros_like(x)
        if mask[1]:
            dw = (g * xhat).sum(axis=0)
        if mask[2]:
            db = g.sum(axis=0)
    return dx, dw, db


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    return A.native_layer_norm(input, normalized_shape, weight, bias, eps)[0]


KERNELS = {
    "native_batch_norm": native_batch_norm,
    "_native_batch_norm_legit": native_batch_norm,
    "_native_batch_norm_legit.no_stats": native_batch_norm_legit_no_stats,
    "_native_batch_norm_legit_no_training": native_batch_norm_legit_no_training,
    "_batch_norm_with_update": batch_norm_with_update,
    "_batch_norm_no_update": batch_norm_no_update,
    "native_group_norm": native_group_norm,
    "native_layer_norm": native_layer_norm,
    "native_layer_norm_backward": native_layer_norm_backward,
}
COMPOSITE = {
    "batch_norm": batch_norm, "instance_norm": instance_norm, "group_norm": group_norm, "layer_norm": layer_norm,
}
