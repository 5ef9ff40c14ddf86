"""``opyard.nn.functional``'s convolution, pooling, resampling and rearrangement functions
(torch's arguments, defaults and Python-level checks), each a call of the ``aten`` operator
torch's function calls. Example::

    >>> import opyard.nn.functional as F
    >>> x = opyard.randn(1, 3, 8, 8)
    >>> F.max_pool2d(F.conv2d(x, opyard.randn(4, 3, 3, 3), padding=1), 2).shape
    opyard.Size([1, 4, 4, 4])
"""

import math
import numbers
import warnings

from .._ops import ops
from .._tensor import Tensor

__all__ = [
    "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d", "unfold", "fold",
    "avg_pool1d", "avg_pool2d", "avg_pool3d", "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices",
    "max_pool2d_with_indices", "max_pool3d_with_indices", "max_unpool1d", "max_unpool2d", "max_unpool3d",
    "lp_pool1d", "lp_pool2d", "lp_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d", "adaptive_max_pool1d_with_indices",
    "adaptive_max_pool2d_with_indices", "adaptive_max_pool3d_with_indices", "fractional_max_pool2d",
    "fractional_max_pool3d", "fractional_max_pool2d_with_indices", "fractional_max_pool3d_with_indices",
    "pixel_shuffle", "pixel_unshuffle", "channel_shuffle", "native_channel_shuffle", "interpolate", "upsample",
    "upsample_nearest", "upsample_bilinear", "grid_sample",
]

_A = ops.aten


def _ntuple(value, n):
    """torch's ``_pair``/``_triple``: an int (or any non-sequence) repeated ``n`` times."""
    if isinstance(value, (list, tuple)):
        return tuple(value)
    return (value,) * n


def _stride(stride):
    return [] if stride is None else stride


# --- convolutions -----------------------------------------------------------------------------

def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(_A.conv1d, input, weight, bias, stride, padding, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(_A.conv2d, input, weight, bias, stride, padding, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    return _conv(_A.conv3d, input, weight, bias, stride, padding, dilation, groups)


def _conv(packet, input, weight, bias, stride, padding, dilation, groups):
    if isinstance(padding, str):
        return packet.padding(input, weight, bias, stride, padding, dilation, groups)
    return packet.default(input, weight, bias, stride, padding, dilation, groups)


def conv_transpose1d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _A.conv_transpose1d.default(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _A.conv_transpose2d.input(input, weight, bias, stride, padding, output_padding, groups, dilation)


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    return _A.conv_transpose3d.input(input, weight, bias, stride, padding, output_padding, groups, dilation)


def unfold(input, kernel_size, dilation=1, padding=0, stride=1):
    """Sliding blocks of a batched (or unbatched) 2-d input as columns (``im2col``)."""
    return _A.im2col.default(input, _ntuple(kernel_size, 2), _ntuple(dilation, 2), _ntuple(padding, 2),
                             _ntuple(stride, 2))


def fold(input, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """Columns summed back into an image (``col2im``), the adjoint of ``unfold``."""
    return _A.col2im.default(input, _ntuple(output_size, 2), _ntuple(kernel_size, 2), _ntuple(dilation, 2),
                             _ntuple(padding, 2), _ntuple(stride, 2))


# --- pooling ----------------------------------------------------------------------------------

def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    return _A.avg_pool1d.default(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _A.avg_pool2d.default(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad,
                                 divisor_override)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    return _A.avg_pool3d.default(input, kernel_size, _stride(stride), padding, ceil_mode, count_include_pad,
                                 divisor_override)


def max_pool1d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _A.max_pool1d_with_indices.default(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _A.max_pool2d_with_indices.default(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool3d_with_indices(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
                            return_indices=False):
    return _A.max_pool3d_with_indices.default(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows; ``return_indices=True`` also returns where each max came from."""
    if return_indices:
        return max_pool1d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _A.max_pool1d.default(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows; ``return_indices=True`` also returns where each max came from."""
    if return_indices:
        return max_pool2d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _A.max_pool2d.default(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """Max over sliding windows; ``return_indices=True`` also returns where each max came from."""
    if return_indices:
        return max_pool3d_with_indices(input, kernel_size, stride, padding, dilation, ceil_mode)
    return _A.max_pool3d.default(input, kernel_size, _stride(stride), padding, dilation, ceil_mode)


def _unpool_output_size(input, kernel_size, stride, padding, output_size):
    """torch's default unpooled size (or the given one, checked against it)."""
    n = len(kernel_size)
    sizes = list(input.shape)
    default = [(sizes[-n + d] - 1) * stride[d] + kernel_size[d] - 2 * padding[d] for d in range(n)]
    if output_size is None:
        result = default
    else:
        given = output_size
        output_size = list(output_size)
        if len(output_size) == n + 2:
            output_size = output_size[2:]
        if len(output_size) != n:
            raise ValueError(f"output_size should be a sequence containing {n} or {n + 2} elements, but it has a "
                             f"length of '{len(output_size)}'")
        for d in range(n):
            lo, hi = default[d] - stride[d], default[d] + stride[d]
            if not lo < output_size[d] < hi:
                raise ValueError(f'invalid output_size "{given}" (dim {d} must be between {lo} and {hi})')
        result = output_size
    for d in range(n):
        if result[d] < 0:
            raise ValueError(f"max_unpooling: output_size must contain non-negative spatial dimensions, but got "
                             f"output_size[{d}]={result[d]}")
    return list(result)


def _unpool_args(n, kernel_size, stride, padding):
    kernel_size = _ntuple(kernel_size, n)
    return kernel_size, (_ntuple(stride, n) if stride is not None else kernel_size), _ntuple(padding, n)


def max_unpool1d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of ``max_pool1d``: each value back at its index, zeros elsewhere."""
    kernel_size, stride, padding = _unpool_args(1, kernel_size, stride, padding)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size) + [1]
    y = _A.max_unpool2d.default(_A.unsqueeze.default(input, -1), _A.unsqueeze.default(indices, -1), size)
    return _A.squeeze.dim(y, -1)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of ``max_pool2d``: each value back at its index, zeros elsewhere."""
    kernel_size, stride, padding = _unpool_args(2, kernel_size, stride, padding)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _A.max_unpool2d.default(input, indices, size)


def max_unpool3d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """The partial inverse of ``max_pool3d``: each value back at its index, zeros elsewhere."""
    kernel_size, stride, padding = _unpool_args(3, kernel_size, stride, padding)
    size = _unpool_output_size(input, kernel_size, stride, padding, output_size)
    return _A.max_unpool3d.default(input, indices, size, list(stride), list(padding))


def _lp_pool(n, pool, max_pool, input, norm_type, kernel_size, stride, ceil_mode):
    if isinstance(norm_type, (int, float)):
        if norm_type == 0:
            raise ValueError(f"norm_type must be a non-zero value, but got {norm_type}")
        if norm_type == math.inf:
            return max_pool(_A.abs.default(input), kernel_size, stride, 0, 1, ceil_mode)
        if norm_type == -math.inf:
            return _A.neg.default(max_pool(_A.neg.default(_A.abs.default(input)), kernel_size, stride, 0, 1,
                                           ceil_mode))
    powered = _A.pow.Tensor_Scalar(input, norm_type)
    out = pool(powered, kernel_size, stride, 0, ceil_mode)
    count = math.prod(_ntuple(kernel_size, n))
    magnitude = _A.mul.Tensor(_A.sign.default(out), _A.relu.default(_A.abs.default(out)))
    return _A.pow.Tensor_Scalar(_A.mul.Scalar(magnitude, count), 1.0 / norm_type)


def lp_pool1d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm over sliding windows (``inf``: the max of absolute values)."""
    return _lp_pool(1, avg_pool1d, max_pool1d, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool2d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm over sliding windows (``inf``: the max of absolute values)."""
    return _lp_pool(2, avg_pool2d, max_pool2d, input, norm_type, kernel_size, stride, ceil_mode)


def lp_pool3d(input, norm_type, kernel_size, stride=None, ceil_mode=False):
    """The ``norm_type``-norm over sliding windows (``inf``: the max of absolute values)."""
    return _lp_pool(3, avg_pool3d, max_pool3d, input, norm_type, kernel_size, stride, ceil_mode)


def _list_with_default(out_size, defaults):
    """torch's ``_list_with_default``: ``None`` entries of an output size take the input's size."""
    if isinstance(out_size, int):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    return [v if v is not None else d for v, d in zip(out_size, defaults[-len(out_size):])]


def adaptive_avg_pool1d(input, output_size):
    return _A.adaptive_avg_pool1d.default(input, output_size)


def adaptive_avg_pool2d(input, output_size):
    return _A.adaptive_avg_pool2d.default(input, _list_with_default(output_size, list(input.shape)))


def adaptive_avg_pool3d(input, output_size):
    return _A.adaptive_avg_pool3d.default(input, _list_with_default(output_size, list(input.shape)))


def adaptive_max_pool1d_with_indices(input, output_size, return_indices=False):
    return _A.adaptive_max_pool1d.default(input, output_size)


def adaptive_max_pool2d_with_indices(input, output_size, return_indices=False):
    return _A.adaptive_max_pool2d.default(input, _list_with_default(output_size, list(input.shape)))


def adaptive_max_pool3d_with_indices(input, output_size, return_indices=False):
    return _A.adaptive_max_pool3d.default(input, _list_with_default(output_size, list(input.shape)))


def adaptive_max_pool1d(input, output_size, return_indices=False):
    r = adaptive_max_pool1d_with_indices(input, output_size)
    return r if return_indices else r[0]


def adaptive_max_pool2d(input, output_size, return_indices=False):
    r = adaptive_max_pool2d_with_indices(input, output_size)
    return r if return_indices else r[0]


def adaptive_max_pool3d(input, output_size, return_indices=False):
    r = adaptive_max_pool3d_with_indices(input, output_size)
    return r if return_indices else r[0]


def _fractional(n, input, kernel_size, output_size, output_ratio, _random_samples):
    name = f"fractional_max_pool{n}d"
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    if output_size is None:
        if not isinstance(output_ratio, (int, float)) and len(output_ratio) > n:
            raise ValueError(f"{name} requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _ntuple(output_ratio, n)
        output_size = [int(input.shape[-n + i] * ratio[i]) for i in range(n)]
    if _random_samples is None:
        batch = 1 if input.dim() == n + 1 else input.shape[0]
        _random_samples = _A.rand.default([batch, input.shape[-n - 1], n], dtype=input.dtype, device=input.device)
    packet = _A.fractional_max_pool2d if n == 2 else _A.fractional_max_pool3d
    return packet.default(input, kernel_size, output_size, _random_samples)


def fractional_max_pool2d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d_with_indices(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                                       _random_samples=None):
    return _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Max pooling over windows at pseudo-random steps that reach ``output_size`` (Graham, 2014)."""
    r = _fractional(2, input, kernel_size, output_size, output_ratio, _random_samples)
    return r if return_indices else r[0]


def fractional_max_pool3d(input, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    """Max pooling over windows at pseudo-random steps that reach ``output_size`` (Graham, 2014)."""
    r = _fractional(3, input, kernel_size, output_size, output_ratio, _random_samples)
    return r if return_indices else r[0]


# --- rearrangements ---------------------------------------------------------------------------

def pixel_shuffle(input, upscale_factor):
    return _A.pixel_shuffle.default(input, upscale_factor)


def pixel_unshuffle(input, downscale_factor):
    return _A.pixel_unshuffle.default(input, downscale_factor)


def channel_shuffle(input, groups):
    return _A.channel_shuffle.default(input, groups)


def native_channel_shuffle(input, groups):
    return _A.native_channel_shuffle.default(input, groups)


# --- resampling -------------------------------------------------------------------------------

def _is_integer(x):
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return True
    return isinstance(x, Tensor) and not x.is_floating_point()


_UPSAMPLE = {  # (mode, input rank) -> aten packet name
    ("nearest", 3): "upsample_nearest1d", ("nearest", 4): "upsample_nearest2d", ("nearest", 5): "upsample_nearest3d",
    ("nearest-exact", 3): "_upsample_nearest_exact1d", ("nearest-exact", 4): "_upsample_nearest_exact2d",
    ("nearest-exact", 5): "_upsample_nearest_exact3d",
    ("linear", 3): "upsample_linear1d", ("bilinear", 4): "upsample_bilinear2d", ("trilinear", 5): "upsample_trilinear3d",
    ("bicubic", 4): "upsample_bicubic2d",
}
_WRONG_RANK = {("bilinear", 3): "Got 3D input, but bilinear mode needs 4D input",
               ("trilinear", 3): "Got 3D input, but trilinear mode needs 5D input",
               ("linear", 4): "Got 4D input, but linear mode needs 3D input",
               ("trilinear", 4): "Got 4D input, but trilinear mode needs 5D input",
               ("linear", 5): "Got 5D input, but linear mode needs 3D input",
               ("bilinear", 5): "Got 5D input, but bilinear mode needs 4D input"}


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resample to ``size`` or by ``scale_factor`` (torch's modes: nearest, nearest-exact, linear,
    bilinear, bicubic, trilinear, area; ``antialias`` for bilinear and bicubic)."""
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: "
                             "linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    output_size, scale_factors = _interpolate_sizes(input, dim, size, scale_factor)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size = [int(input.shape[i + 2] * scale_factors[i]) for i in range(dim)]
        scale_factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    rank = input.dim()
    if mode == "area" and rank in (3, 4, 5):
        pool = (adaptive_avg_pool1d, adaptive_avg_pool2d, adaptive_avg_pool3d)[rank - 3]
        return pool(input, output_size)
    if antialias and mode in ("bilinear", "bicubic"):
        name = "_upsample_bilinear2d_aa" if mode == "bilinear" else "_upsample_bicubic2d_aa"
        return getattr(_A, name).vec(input, output_size, align_corners, scale_factors)
    name = _UPSAMPLE.get((mode, rank))
    if name is not None:
        if mode in ("nearest", "nearest-exact"):
            return getattr(_A, name).vec(input, output_size, scale_factors)
        return getattr(_A, name).vec(input, output_size, align_corners, scale_factors)
    if (mode, rank) in _WRONG_RANK:
        raise NotImplementedError(_WRONG_RANK[(mode, rank)])
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {rank}D) for the modes: "
                              f"nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
                              f"(got {mode})")


def _interpolate_sizes(input, dim, size, scale_factor):
    """Exactly one of (output size, scale factors), each a list of ``dim`` entries."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError(f"Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please "
                                 "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, "
                                 "...,oK) format.")
            if not all(_is_integer(x) for x in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(x) for x in size]}")
            return [int(s) for s in size], None
        return [int(size)] * dim, None
    if scale_factor is not None:
        if isinstance(scale_factor, (list, tuple)):
            if len(scale_factor) != dim:
                raise ValueError(f"Input and scale_factor must have the same number of spatial dimensions, but got "
                                 f"input with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                                 f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                                 "scale_factor in (s1, s2, ...,sK) format.")
            return None, [float(s) for s in scale_factor]
        return None, [float(scale_factor)] * dim
    raise ValueError("either size or scale_factor should be defined")


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)


_GRID_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_GRID_PADDING = {"zeros": 0, "border": 1, "reflection": 2}


def grid_sample(input, grid, mode="bilinear", padding_mode="zeros", align_corners=None):
    """Sample ``input`` at the normalised coordinates of ``grid`` (last dim x, y[, z] in [-1, 1])."""
    if mode not in _GRID_MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in _GRID_PADDING:
        raise ValueError("nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or 'reflection', "
                         f"but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. "
                      "Please specify align_corners=True if the old behavior is desired. See the documentation of "
                      "grid_sample for details.", stacklevel=2)
        align_corners = False
    return _A.grid_sampler.default(input, grid, _GRID_MODES[mode], _GRID_PADDING[padding_mode], align_corners)

from .._exports import public_dir

__dir__ = public_dir(globals())
