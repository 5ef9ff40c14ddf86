"""Convolutions (``convolution``, ``convolution_backward`` and the ``conv*d`` /
``conv_transpose*d`` compositions), ``im2col``/``col2im`` (``F.unfold``/``F.fold``) and the
channel rearrangements ``pixel_shuffle``, ``pixel_unshuffle``, ``channel_shuffle``.

As in torch, ``conv1d``/``conv2d``/``conv3d``, their ``padding=`` string overloads and the
transposed convolutions are CompositeImplicitAutograd: they add a batch dimension to an
unbatched input and call ``convolution``, the one op with kernels (CPU and Meta) and a
derivative (``ConvolutionBackward0``, computed by ``convolution_backward``).

The kernels are numpy (Note [Sliding windows], ``windows.py``): a convolution copies the
input's windows once into columns and multiplies them with the weight in one matrix product
per group (batches in chunks, so the column buffer stays bounded); a transposed convolution
multiplies first and folds the columns back. Half and bfloat16 compute in float32 and round
once; integer convolutions wrap as torch's do.
"""

import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from . import windows as W
from ._declare import OpTable
from .common import A, out

__all__ = ["OPS"]

_SCHEMAS = (
    "convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups) -> Tensor",
    "convolution_backward(Tensor grad_output, Tensor input, Tensor weight, SymInt[]? bias_sizes, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool[3] output_mask) -> (Tensor, Tensor, Tensor)",
    "_convolution(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, SymInt[] output_padding, SymInt groups, bool benchmark, bool deterministic, bool cudnn_enabled, bool allow_tf32) -> Tensor",
    "_convolution.deprecated(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, SymInt[] padding, SymInt[] dilation, bool transposed, int[] output_padding, SymInt groups, bool benchmark, bool deterministic, bool cudnn_enabled) -> Tensor",
    "_convolution_mode(Tensor input, Tensor weight, Tensor? bias, SymInt[] stride, str padding, SymInt[] dilation, SymInt groups) -> Tensor",
    "conv1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, SymInt[1] dilation=1, SymInt groups=1) -> Tensor",
    "conv2d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, SymInt[2] dilation=1, SymInt groups=1) -> Tensor",
    "conv3d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, SymInt[3] dilation=1, SymInt groups=1) -> Tensor",
    'conv1d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, str padding="valid", SymInt[1] dilation=1, SymInt groups=1) -> Tensor',
    'conv2d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, str padding="valid", SymInt[2] dilation=1, SymInt groups=1) -> Tensor',
    'conv3d.padding(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, str padding="valid", SymInt[3] dilation=1, SymInt groups=1) -> Tensor',
    "conv_transpose1d(Tensor input, Tensor weight, Tensor? bias=None, SymInt[1] stride=1, SymInt[1] padding=0, SymInt[1] output_padding=0, SymInt groups=1, SymInt[1] dilation=1) -> Tensor",
    "conv_transpose2d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[2] stride=1, SymInt[2] padding=0, SymInt[2] output_padding=0, SymInt groups=1, SymInt[2] dilation=1) -> Tensor",
    "conv_transpose3d.input(Tensor input, Tensor weight, Tensor? bias=None, SymInt[3] stride=1, SymInt[3] padding=0, SymInt[3] output_padding=0, SymInt groups=1, SymInt[3] dilation=1) -> Tensor",
    "im2col(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
    "col2im(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride) -> Tensor",
    "pixel_shuffle(Tensor self, int upscale_factor) -> Tensor",
    "pixel_unshuffle(Tensor self, int downscale_factor) -> Tensor",
    "channel_shuffle(Tensor self, SymInt groups) -> Tensor",
    "native_channel_shuffle(Tensor self, SymInt groups) -> Tensor",
)


# ---------------------------------------------------------------------------------------------
# Argument checks (torch's ConvParams and check_shape_forward, in its order and words)


class _Conv:
    """A convolution's parameters, checked against its input and weight as torch checks them."""

    __slots__ = ("dim", "stride", "padding", "dilation", "transposed", "output_padding", "groups", "out_spatial")

    def __init__(self, input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
        k = weight.dim()
        dim = k - 2
        if dim <= 0:
            raise RuntimeError("weight should have at least three dimensions")
        if groups <= 0:
            raise RuntimeError("non-positive groups is not supported")
        if bias is not None and bias.dtype is not input.dtype:
            raise RuntimeError(f"Input type ({W.cpp_name(input.dtype)}) and bias type ({W.cpp_name(bias.dtype)}) "
                               "should be the same")
        self.dim = dim
        self.stride = _expand("stride", stride, dim)
        self.padding = _expand("padding", padding, dim)
        self.dilation = _expand("dilation", dilation, dim)
        self.transposed = bool(transposed)
        self.output_padding = _expand("output_padding", output_padding, dim)
        self.groups = int(groups)
        self._check_shapes(input, list(weight.shape), bias)
        self.out_spatial = self._out_spatial(list(input.shape[2:]), list(weight.shape[2:]))

    def _check_shapes(self, input, ws, bias):
        if any(p < 0 for p in self.padding):
            raise RuntimeError("negative padding is not supported")
        if any(p < 0 for p in self.output_padding):
            raise RuntimeError("negative output_padding is not supported")
        if any(s <= 0 for s in self.stride):
            raise RuntimeError("non-positive stride is not supported")
        if any(d < 0 for d in self.dilation):
            raise RuntimeError("dilation should be greater than zero")
        k, g = input.dim(), self.groups
        if len(ws) != k:
            raise RuntimeError(f"Expected {len(ws)}-dimensional input for {len(ws)}-dimensional weight {ws}, but got "
                               f"{k}-dimensional input of size {list(input.shape)} instead")
        if ws[0] < g:
            raise RuntimeError(f"Given groups={g}, expected weight to be at least {g} at dimension 0, but got weight "
                               f"of size {ws} instead")
        if ws[0] % g:
            raise RuntimeError(f"Given groups={g}, expected weight to be divisible by {g} at dimension 0, but got "
                               f"weight of size [{ws}] instead")
        shape = list(input.shape)
        if not self.transposed:
            self._check_forward(shape, ws, bias)
        else:
            if shape[1] != ws[0]:
                raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected input{shape} to have {ws[0]} "
                                   f"channels, but got {shape[1]} channels instead")
            if bias is not None and (bias.dim() != 1 or bias.shape[0] != ws[1] * g):
                raise RuntimeError(f"Given transposed=1, weight of size {ws}, expected bias to be 1-dimensional with "
                                   f"{ws[1] * g} elements, but got bias of size {list(bias.shape)} instead")
        if any(d == 0 for d in self.dilation):
            raise RuntimeError(f"dilation should be greater than zero, but got {self.dilation}")

    def _check_forward(self, shape, ws, bias):
        g = self.groups
        if shape[1] != ws[1] * g:
            raise RuntimeError(f"Given groups={g}, weight of size {ws}, expected input{shape} to have {ws[1] * g} "
                               f"channels, but got {shape[1]} channels instead")
        if bias is not None and (bias.dim() != 1 or bias.shape[0] != ws[0]):
            raise RuntimeError(f"Given weight of size {ws}, expected bias to be 1-dimensional with {ws[0]} elements, "
                               f"but got bias of size {list(bias.shape)} instead")
        padded = [n + 2 * p for n, p in zip(shape[2:], self.padding)]
        kernel = [d * (k - 1) + 1 for d, k in zip(self.dilation, ws[2:])]
        if any(p < k for p, k in zip(padded, kernel)):
            raise RuntimeError(f"Calculated padded input size per channel: ({' x '.join(map(str, padded))}). Kernel "
                               f"size: ({' x '.join(map(str, kernel))}). Kernel size can't be greater than actual "
                               "input size")

    def _out_spatial(self, spatial, kernel):
        if not self.transposed:
            return [(n + 2 * p - d * (k - 1) - 1) // s + 1
                    for n, p, d, k, s in zip(spatial, self.padding, self.dilation, kernel, self.stride)]
        for op, s, d in zip(self.output_padding, self.stride, self.dilation):
            if op >= s and op >= d:
                raise RuntimeError(_output_padding_message(self.output_padding, self.stride, self.dilation))
        size = [(n - 1) * s - 2 * p + d * (k - 1) + op + 1 for n, s, p, d, k, op in
                zip(spatial, self.stride, self.padding, self.dilation, kernel, self.output_padding)]
        if any(o < 1 for o in size):
            raise RuntimeError(f"Given input size per channel: ({' x '.join(map(str, spatial))}). Calculated output "
                               f"size per channel: ({' x '.join(map(str, size))}). Output size is too small")
        return size

    def arrays(self):
        return self.stride, self.padding, self.dilation


def _expand(name, values, dim):
    values = [int(v) for v in values] if not isinstance(values, int) else [int(values)]
    if len(values) == 1:
        return values * dim
    if len(values) != dim:
        raise RuntimeError(f"expected {name} to be a single integer value or a list of {dim} values to match the "
                           f"convolution dimensions, but got {name}={values}")
    return values


def _output_padding_message(output_padding, stride, dilation):
    names = ("depth", "height", "width")[3 - len(stride):]
    parts = [f"{what}_{n}: {v}" for what, vals in (("output_padding", output_padding), ("stride", stride),
                                                   ("dilation", dilation)) for n, v in zip(names, vals)]
    return "output padding must be smaller than either stride or dilation, but got " + " ".join(parts)


def _check_dtypes(input, weight):
    if input.dtype is weight.dtype:
        if input.dtype is D.bool:
            raise RuntimeError("\"slow_conv2d_cpu\" not implemented for 'Bool'")
        return
    if input.dtype.is_complex != weight.dtype.is_complex:
        raise RuntimeError(f"Input type ({_type_string(input)}) and weight type ({_type_string(weight)}) should be "
                           "the same")
    raise RuntimeError(f"expected scalar type {W.legacy(input.dtype)} but found {W.legacy(weight.dtype)}")


def _type_string(t):
    return f"CPU{W.legacy(t.dtype)}Type" if t.dtype.is_complex else f"torch.{W.legacy(t.dtype)}Tensor"


# ---------------------------------------------------------------------------------------------
# numpy kernels (``x``: (N, C, *spatial) arrays in the compute dtype)


def conv_array(x, w, stride, padding, dilation, groups):
    """A convolution (no bias): columns of the input's windows times the weight, one matrix
    product per group over a whole chunk of the batch (Note [Sliding windows])."""
    n, c = x.shape[:2]
    cout, cg = w.shape[:2]
    kernel = w.shape[2:]
    out_sp = [(size + 2 * p - d * (k - 1) - 1) // s + 1
              for size, p, d, k, s in zip(x.shape[2:], padding, dilation, kernel, stride)]
    g = groups
    og, ck = cout // g, cg * W.prod(kernel)
    m = W.prod(out_sp)
    wm = w.reshape(g, og, ck)
    y = np.empty((n, cout, m), dtype=np.result_type(x.dtype, w.dtype))
    for b in W.chunks(n, c * W.prod(kernel) * m * x.itemsize):
        nb = x[b].shape[0]
        cols = W.batch_columns(x[b], out_sp, kernel, stride, padding, dilation).reshape(g, ck, nb * m)
        y[b] = np.matmul(wm, cols).reshape(cout, nb, m).transpose(1, 0, 2)
    return y.reshape((n, cout) + tuple(out_sp))


def fold_back(src, wt, spatial, kernel, stride, padding, dilation, groups, fold_dtype=None):
    """The transpose of ``conv_array`` w.r.t. its input: ``weight^T @ src`` per group, folded
    into ``spatial``. ``src`` is (N, C_src, *src_spatial); ``wt`` the weight (C_src, Cg, *K).
    ``fold_dtype``: the dtype the columns are rounded to and added in (torch's half kernels
    fold in half)."""
    n, c_src = src.shape[:2]
    src_sp = src.shape[2:]
    g = groups
    cg = wt.shape[1]
    full = [d * (k - 1) - p for d, k, p in zip(dilation, kernel, padding)]
    if fold_dtype is None and all(s == 1 for s in stride) and all(f >= 0 for f in full) and all(
            o + 2 * f - d * (k - 1) == size for o, f, d, k, size in zip(src_sp, full, dilation, kernel, spatial)):
        # stride 1: the transpose is itself a convolution, with the kernel flipped and its channel
        # roles swapped per group (one matrix product, no fold)
        flipped = wt.reshape((g, c_src // g, cg) + tuple(kernel)).swapaxes(1, 2)
        flipped = flipped[(Ellipsis,) + (slice(None, None, -1),) * len(kernel)]
        flipped = np.ascontiguousarray(flipped).reshape((g * cg, c_src // g) + tuple(kernel))
        return conv_array(src, flipped, [1] * len(kernel), full, dilation, groups)
    ck = cg * W.prod(kernel)
    m = W.prod(src_sp)
    wm = wt.reshape(g, c_src // g, ck).transpose(0, 2, 1)
    out = np.empty((n, g * cg) + tuple(spatial), dtype=fold_dtype or np.result_type(src.dtype, wt.dtype))
    for b in W.chunks(n, g * ck * m * src.itemsize):
        nb = src[b].shape[0]
        rows = np.ascontiguousarray(src[b].reshape(nb, g, c_src // g, m).transpose(1, 2, 0, 3))
        cols = np.matmul(wm, rows.reshape(g, c_src // g, nb * m))  # (g, ck, nb*m)
        cols = cols.reshape((g * cg,) + tuple(kernel) + (nb,) + tuple(src_sp))
        cols = np.moveaxis(cols, 1 + len(kernel), 0)  # (nb, C, *K, *src): a view
        if fold_dtype is not None:
            cols = cols.astype(fold_dtype)
        out[b] = W.fold(cols, spatial, kernel, stride, padding, dilation)
    return out


def weight_grad_array(x, gy, kernel, stride, padding, dilation, groups):
    """d(loss)/d(weight) of ``conv_array(x, w)`` given the output gradient ``gy``: (Cout, Cg, *K)."""
    n, c = x.shape[:2]
    g = groups
    cout = gy.shape[1]
    og, cg = cout // g, c // g
    ck = cg * W.prod(kernel)
    out_sp = gy.shape[2:]
    m = W.prod(out_sp)
    acc = np.zeros((g, og, ck), dtype=np.result_type(x.dtype, gy.dtype))
    for b in W.chunks(n, c * W.prod(kernel) * m * x.itemsize):
        nb = x[b].shape[0]
        cols = W.batch_columns(x[b], out_sp, kernel, stride, padding, dilation).reshape(g, ck, nb * m)
        rows = np.ascontiguousarray(gy[b].reshape(nb, g, og, m).transpose(1, 2, 0, 3)).reshape(g, og, nb * m)
        acc += np.matmul(rows, cols.transpose(0, 2, 1))
    return acc.reshape((cout, cg) + tuple(kernel))


def _fold_dtype(t, output_padding=(), stride=()):
    """The dtype torch's CPU transposed convolution adds its columns in: half for half inputs,
    and for bfloat16 ones where oneDNN does not take the call (an output padding past the
    stride) and its slow kernel runs; None (float32, rounded once) otherwise."""
    if t.dtype is D.float16:
        return np.dtype(np.float16)
    if t.dtype is D.bfloat16 and any(op >= s for op, s in zip(output_padding, stride)):
        return t._data.dtype
    return None


def _compute(t, *others):
    """The data of ``t`` in its compute dtype (float32 for half and bfloat16)."""
    a = t._data
    acc = W.accumulate_dtype(a)
    return a if a.dtype == acc else a.astype(acc)


def _finish(arr, ref, dtype, fmt):
    arr = arr if arr.dtype == dtype.np else arr.astype(dtype.np)
    return out(W.as_format(arr, fmt), ref)


# ---------------------------------------------------------------------------------------------
# Operators


def convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    p = _Conv(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    _check_dtypes(input, weight)
    fmt = W.format_of(input, weight)
    x, w = _compute(input), _compute(weight)
    kernel = w.shape[2:]
    if not p.transposed:
        y = conv_array(x, w, p.stride, p.padding, p.dilation, p.groups)
    else:
        y = fold_back(x, w, p.out_spatial, kernel, p.stride, p.padding, p.dilation, p.groups,
                      _fold_dtype(input, p.output_padding, p.stride))
    if bias is not None:
        y += _compute(bias).reshape((1, -1) + (1,) * p.dim)
    return _finish(y, input, input.dtype, fmt)


def meta_convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups):
    p = _Conv(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    _check_dtypes(input, weight)
    cout = weight.shape[1] * p.groups if p.transposed else weight.shape[0]
    shape = [input.shape[0], cout] + p.out_spatial
    return _make_meta(shape, input.dtype, W.format_strides(shape, W.format_of(input, weight)))


def _convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, benchmark,
                 deterministic, cudnn_enabled, allow_tf32=True):
    return convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)


def meta__convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups, benchmark,
                      deterministic, cudnn_enabled, allow_tf32=True):
    return meta_convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)


def convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed, output_padding,
                         groups, output_mask):
    """(grad_input, grad_weight, grad_bias) of ``convolution``; None where ``output_mask`` says
    the gradient is not needed (torch's undefined tensors)."""
    dim = weight.dim() - 2
    stride, padding = _expand("stride", stride, dim), _expand("padding", padding, dim)
    dilation = _expand("dilation", dilation, dim)
    gy, x, w = _compute(grad_output), _compute(input), _compute(weight)
    kernel = w.shape[2:]
    fmt = W.format_of(input, weight)
    gi = gw = gb = None
    if output_mask[0]:
        if not transposed:
            gi = fold_back(gy, w, x.shape[2:], kernel, stride, padding, dilation, groups, _fold_dtype(input))
        else:  # an output_padding past the stride adds rows no input position reaches
            gi = conv_array(gy, w, stride, padding, dilation, groups)
            gi = gi[(Ellipsis,) + tuple(slice(0, s) for s in x.shape[2:])]
        gi = _finish(gi, input, input.dtype, fmt)
    if output_mask[1]:
        if not transposed:
            gw = weight_grad_array(x, gy, kernel, stride, padding, dilation, groups)
        else:
            gw = weight_grad_array(gy, x, kernel, stride, padding, dilation, groups)
        gw = _finish(gw, weight, weight.dtype, W.format_of(weight))
    if output_mask[2]:
        gb = out(gy.sum(axis=(0,) + tuple(range(2, gy.ndim))).astype(grad_output.dtype.np), grad_output)
    return gi, gw, gb


def meta_convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation, transposed,
                              output_padding, groups, output_mask):
    fmt = W.format_of(input, weight)
    gi = _make_meta(input.shape, input.dtype, W.format_strides(input.shape, fmt)) if output_mask[0] else None
    gw = _make_meta(weight.shape, weight.dtype, W.format_strides(weight.shape, W.format_of(weight))) \
        if output_mask[1] else None
    gb = _make_meta([grad_output.shape[1]], grad_output.dtype) if output_mask[2] else None
    return gi, gw, gb


# ---------------------------------------------------------------------------------------------
# Compositions (CompositeImplicitAutograd in torch)


def _batchify(input, dim, name):
    """An unbatched input gains a batch dimension (torch's ``batchify``); returns (input, batched)."""
    if input.dim() == dim + 2:
        return input, True
    if input.dim() == dim + 1:
        return A.unsqueeze(input, 0), False
    raise RuntimeError(f"Expected {dim + 1}D (unbatched) or {dim + 2}D (batched) input to {name}, but got input of "
                       f"size: {list(input.shape)}")


def _conv(name, dim):
    def kernel(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
        x, batched = _batchify(input, dim, name)
        stride, padding, dilation = _listed(stride, dim), _listed(padding, dim), _listed(dilation, dim)
        if isinstance(padding, str):
            y = A._convolution_mode(x, weight, bias, stride, padding, dilation, groups)
        else:
            y = A.convolution(x, weight, bias, stride, padding, dilation, False, [0] * dim, groups)
        return y if batched else A.squeeze__dim(y, 0)
    kernel.__name__ = name
    return kernel


def _conv_padding(name, dim):
    def kernel(input, weight, bias=None, stride=1, padding="valid", dilation=1, groups=1):
        x, batched = _batchify(input, dim, name)
        y = A._convolution_mode(x, weight, bias, _listed(stride, dim), padding, _listed(dilation, dim), groups)
        return y if batched else A.squeeze__dim(y, 0)
    kernel.__name__ = name + "_padding"
    return kernel


def _conv_transpose(name, dim):
    def kernel(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
        x, batched = _batchify(input, dim, name)
        y = A.convolution(x, weight, bias, _listed(stride, dim), _listed(padding, dim), _listed(dilation, dim), True,
                          _listed(output_padding, dim), groups)
        return y if batched else A.squeeze__dim(y, 0)
    kernel.__name__ = name
    return kernel


def _listed(v, dim):
    return [v] * dim if isinstance(v, int) else v if isinstance(v, str) else list(v)


def _convolution_mode(input, weight, bias, stride, padding, dilation, groups):
    if padding == "valid":
        dim = max(weight.dim() - 2, 1)
        return A.convolution(input, weight, bias, stride, [0] * dim, dilation, False, [0] * dim, groups)
    if padding != "same":
        raise RuntimeError(f"Invalid padding string: '{padding}'")
    return _padding_same(input, weight, bias, list(stride), list(dilation), groups)


def _padding_same(input, weight, bias, stride, dilation, groups):
    """torch's ``conv_padding_same``: the padding that keeps each size; an odd total pads the
    input once on the right and leaves the rest symmetric."""
    k = weight.dim()
    if k <= 2:
        raise RuntimeError("weight should have at least three dimensions")
    if groups <= 0:
        raise RuntimeError("non-positive groups is not supported")
    dim = k - 2
    if k != input.dim():
        raise RuntimeError(f"Expected {k}-dimensional input for {k}-dimensional weight{list(weight.shape)}, but got "
                           f"{input.dim()}-dimensional input of size {list(input.shape)} instead")
    for name, v in (("stride", stride), ("dilation", dilation)):
        if len(v) not in (dim, 1):
            raise RuntimeError(f"{name} cannot broadcast to {dim} dimensions")
    if any(s != 1 for s in stride):
        raise RuntimeError("padding='same' is not supported for strided convolutions")
    dil = dilation * dim if len(dilation) == 1 else dilation
    left, right = [], []
    for d, size in zip(dil, weight.shape[2:]):
        total = d * (size - 1)
        left.append(total // 2)
        right.append(total - total // 2)
    if left != right:
        _warn_same_padding()
        pad_nd = [0] * (2 * dim)
        for i in range(dim):
            delta = right[i] - left[i]
            j = 2 * (dim - 1 - i)
            if delta > 0:
                pad_nd[j + 1] = delta
            else:
                pad_nd[j] = delta
                left[i] = right[i]
        input = A.constant_pad_nd(input, pad_nd, 0)
    return A.convolution(input, weight, bias, stride, left, dilation, False, [0] * dim, groups)


_WARNED = set()


def _warn_same_padding():
    """torch's one-time warning for an asymmetric 'same' padding."""
    if "same" not in _WARNED:
        _WARNED.add("same")
        warnings.warn("Using padding='same' with even kernel lengths and odd dilation may require a zero-padded copy "
                      "of the input be created", UserWarning, stacklevel=4)


def _convolution_deprecated(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups,
                            benchmark, deterministic, cudnn_enabled):
    return A._convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups,
                          benchmark, deterministic, cudnn_enabled, True)


# ---------------------------------------------------------------------------------------------
# im2col / col2im (F.unfold / F.fold)


def _check_blocks(kernel, dilation, padding, stride):
    if any(k <= 0 for k in kernel):
        raise RuntimeError(f"kernel size should be greater than zero, but got kernel_height: {kernel[0]} "
                           f"kernel_width: {kernel[1]}")
    if any(s <= 0 for s in stride):
        raise RuntimeError(f"stride should be greater than zero, but got stride_height: {stride[0]} "
                           f"stride_width: {stride[1]}")
    if any(d <= 0 for d in dilation):
        raise RuntimeError(f"dilation should be greater than zero, but got dilation_height: {dilation[0]} "
                           f"dilation_width: {dilation[1]}")
    if any(p < 0 for p in padding):
        raise RuntimeError(f"padding should be non-negative, but got pad_height: {padding[0]} "
                           f"pad_width: {padding[1]}")


def _unfold_dtype(op, t):
    if t.dtype.is_floating_point or t.dtype.is_complex or t.dtype is D.bool:
        return
    raise NotImplementedError(f"\"{op}_out_cpu\" not implemented for '{W.legacy(t.dtype)}'")


def _im2col_plan(self, kernel_size, dilation, padding, stride):
    kernel, dilation = W.int_list("im2col", "kernel_size", kernel_size, 2), W.int_list("im2col", "dilation", dilation, 2)
    padding, stride = W.int_list("im2col", "padding", padding, 2), W.int_list("im2col", "stride", stride, 2)
    _check_blocks(kernel, dilation, padding, stride)
    shape = list(self.shape)
    if len(shape) not in (3, 4) or any(n == 0 for n in shape[-3:]):
        raise RuntimeError("Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {shape}")
    spatial = shape[-2:]
    blocks = [(n + 2 * p - (d * (k - 1) + 1)) // s + 1 for n, p, d, k, s in zip(spatial, padding, dilation, kernel, stride)]
    if any(b < 1 for b in blocks):
        raise RuntimeError(f"Given input with spatial size ({spatial[0]}, {spatial[1]}), kernel_size=({kernel[0]}, "
                           f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
                           f"{padding[1]}), calculated shape of the array of sliding blocks as ({blocks[0]}, "
                           f"{blocks[1]}), but its components must be at least one.")
    out_shape = shape[:-3] + [shape[-3] * kernel[0] * kernel[1], blocks[0] * blocks[1]]
    return kernel, dilation, padding, stride, blocks, out_shape


def im2col(self, kernel_size, dilation, padding, stride):
    kernel, dilation, padding, stride, blocks, out_shape = _im2col_plan(self, kernel_size, dilation, padding, stride)
    _unfold_dtype("im2col", self)
    x = self._data if self.dim() == 4 else self._data[None]
    cols = W.unfold_columns(x, blocks, kernel, stride, padding, dilation)
    return out(cols.reshape(out_shape), self)


def meta_im2col(self, kernel_size, dilation, padding, stride):
    out_shape = _im2col_plan(self, kernel_size, dilation, padding, stride)[-1]
    _unfold_dtype("im2col", self)
    return _make_meta(out_shape, self.dtype)


def _col2im_plan(self, output_size, kernel_size, dilation, padding, stride):
    output_size = W.int_list("col2im", "output_size", output_size, 2)
    kernel, dilation = W.int_list("col2im", "kernel_size", kernel_size, 2), W.int_list("col2im", "dilation", dilation, 2)
    padding, stride = W.int_list("col2im", "padding", padding, 2), W.int_list("col2im", "stride", stride, 2)
    _check_blocks(kernel, dilation, padding, stride)
    shape = list(self.shape)
    if len(shape) not in (2, 3) or any(n == 0 for n in shape[-2:]):
        raise RuntimeError("Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero "
                           f"dimensions for input, but got: {shape}")
    kk = kernel[0] * kernel[1]
    if shape[-2] % kk:
        raise RuntimeError(f"Expected size of input's dimension 1 to be divisible by the product of kernel_size, but "
                           f"got input.size(1)={shape[-2]} and kernel_size=({kernel[0]}, {kernel[1]}).")
    blocks = [(n + 2 * p - (d * (k - 1) + 1)) // s + 1
              for n, p, d, k, s in zip(output_size, padding, dilation, kernel, stride)]
    if blocks[0] * blocks[1] != shape[-1] or any(b < 1 for b in blocks):
        raise RuntimeError(f"Given output_size=({output_size[0]}, {output_size[1]}), kernel_size=({kernel[0]}, "
                           f"{kernel[1]}), dilation=({dilation[0]}, {dilation[1]}), padding=({padding[0]}, "
                           f"{padding[1]}), stride=({stride[0]}, {stride[1]}), expected size of input's dimension 2 "
                           f"to match the calculated number of sliding blocks {blocks[0]} * {blocks[1]} = "
                           f"{blocks[0] * blocks[1]}, but got input.size(2)={shape[-1]}.")
    out_shape = shape[:-2] + [shape[-2] // kk] + output_size
    return kernel, dilation, padding, stride, blocks, output_size, out_shape


def col2im(self, output_size, kernel_size, dilation, padding, stride):
    kernel, dilation, padding, stride, blocks, size, out_shape = _col2im_plan(
        self, output_size, kernel_size, dilation, padding, stride)
    _unfold_dtype("col2im", self)
    x = self._data if self.dim() == 3 else self._data[None]
    acc = W.accumulate_dtype(x)
    cols = x.astype(acc, copy=False).reshape((x.shape[0], x.shape[1] // W.prod(kernel)) + tuple(kernel) + tuple(blocks))
    if x.dtype == np.bool_:
        cols = cols.astype(np.int64)
    r = W.fold(cols, size, kernel, stride, padding, dilation)
    return out(np.ascontiguousarray(r.astype(x.dtype)).reshape(out_shape), self)


def meta_col2im(self, output_size, kernel_size, dilation, padding, stride):
    out_shape = _col2im_plan(self, output_size, kernel_size, dilation, padding, stride)[-1]
    _unfold_dtype("col2im", self)
    return _make_meta(out_shape, self.dtype)


# ---------------------------------------------------------------------------------------------
# pixel_shuffle / pixel_unshuffle / channel_shuffle


def _shuffle_plan(self, factor, unshuffle):
    name, what = ("pixel_unshuffle", "downscale_factor") if unshuffle else ("pixel_shuffle", "upscale_factor")
    if self.dim() < 3:
        raise RuntimeError(f"{name} expects input to have at least 3 dimensions, but got input with {self.dim()} "
                           "dimension(s)")
    if factor <= 0:
        raise RuntimeError(f"{name} expects a positive {what}, but got {factor}")
    *lead, c, h, w = self.shape
    if not unshuffle:
        if c % (factor * factor):
            raise RuntimeError(f"pixel_shuffle expects its input's 'channel' dimension to be divisible by the square "
                               f"of upscale_factor, but input.size(-3)={c} is not divisible by {factor * factor}")
        return lead + [c // (factor * factor), h * factor, w * factor]
    for n, side, d in ((h, "height", -2), (w, "width", -1)):
        if n % factor:
            raise RuntimeError(f"pixel_unshuffle expects {side} to be divisible by downscale_factor, but "
                               f"input.size({d})={n} is not divisible by {factor}")
    return lead + [c * factor * factor, h // factor, w // factor]


def pixel_shuffle(self, upscale_factor):
    shape = _shuffle_plan(self, upscale_factor, False)
    r = upscale_factor
    x = self._data
    *lead, c, h, w = x.shape
    n = len(lead)
    y = x.reshape(tuple(lead) + (c // (r * r), r, r, h, w))
    y = y.transpose(tuple(range(n)) + (n, n + 3, n + 1, n + 4, n + 2))
    return out(np.array(y, order="C").reshape(shape), self)  # always a new tensor, as torch's


def pixel_unshuffle(self, downscale_factor):
    shape = _shuffle_plan(self, downscale_factor, True)
    r = downscale_factor
    x = self._data
    *lead, c, h, w = x.shape
    n = len(lead)
    y = x.reshape(tuple(lead) + (c, h // r, r, w // r, r))
    y = y.transpose(tuple(range(n)) + (n, n + 2, n + 4, n + 1, n + 3))
    return out(np.array(y, order="C").reshape(shape), self)  # always a new tensor, as torch's


def meta_pixel_shuffle(self, upscale_factor):
    return _make_meta(_shuffle_plan(self, upscale_factor, False), self.dtype)


def meta_pixel_unshuffle(self, downscale_factor):
    return _make_meta(_shuffle_plan(self, downscale_factor, True), self.dtype)


def _channel_shuffle_check(self, groups):
    if self.dim() <= 2:
        raise RuntimeError(f"channel_shuffle expects input with > 2 dims, but got input with sizes {list(self.shape)}")
    if groups <= 0:
        raise RuntimeError(f"Number of groups to divide channels in must be positive. Value of groups:{groups}")
    c = self.shape[1]
    if c % groups:
        raise RuntimeError(f"Number of channels must be divisible by groups. Got {c} channels and {groups} groups.")


def channel_shuffle(self, groups):
    _channel_shuffle_check(self, groups)
    x = self._data
    n, c = x.shape[:2]
    rest = x.shape[2:]
    y = np.array(x.reshape((n, groups, c // groups) + rest).swapaxes(1, 2), order="C").reshape(x.shape)
    return out(W.as_format(y, W.suggest_format(self)), self)


def meta_channel_shuffle(self, groups):
    _channel_shuffle_check(self, groups)
    return _make_meta(self.shape, self.dtype, W.format_strides(list(self.shape), W.suggest_format(self)))


def native_channel_shuffle(self, groups):
    _channel_shuffle_check(self, groups)
    n, c = self.shape[0], self.shape[1]
    rest = list(self.shape[2:])
    y = A.reshape(self, [n, groups, c // groups] + rest)
    return A.reshape(A.contiguous(A.transpose__int(y, 1, 2)), list(self.shape))


_KERNELS = {
    "convolution": convolution, "_convolution": _convolution, "convolution_backward": convolution_backward,
    "im2col": im2col, "col2im": col2im, "pixel_shuffle": pixel_shuffle, "pixel_unshuffle": pixel_unshuffle,
    "channel_shuffle": channel_shuffle,
}
_META_KERNELS = {
    "convolution": meta_convolution, "_convolution": meta__convolution,
    "convolution_backward": meta_convolution_backward, "im2col": meta_im2col, "col2im": meta_col2im,
    "pixel_shuffle": meta_pixel_shuffle, "pixel_unshuffle": meta_pixel_unshuffle,
    "channel_shuffle": meta_channel_shuffle,
}
_COMPOSITE = {
    "conv1d": _conv("conv1d", 1), "conv2d": _conv("conv2d", 2), "conv3d": _conv("conv3d", 3),
    "conv1d.padding": _conv_padding("conv1d", 1), "conv2d.padding": _conv_padding("conv2d", 2),
    "conv3d.padding": _conv_padding("conv3d", 3),
    "conv_transpose1d": _conv_transpose("conv_transpose1d", 1),
    "conv_transpose2d.input": _conv_transpose("conv_transpose2d", 2),
    "conv_transpose3d.input": _conv_transpose("conv_transpose3d", 3),
    "_convolution_mode": _convolution_mode, "_convolution.deprecated": _convolution_deprecated,
    "native_channel_shuffle": native_channel_shuffle,
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
