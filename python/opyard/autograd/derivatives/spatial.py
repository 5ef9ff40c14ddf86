"""Derivatives of the convolution, pooling, resampling and channel-rearrangement ops
(derivatives.yaml's rows: ``ConvolutionBackward0``, ``MaxPool2DWithIndicesBackward0``,
``UpsampleBilinear2DBackward0``, ``GridSampler2DBackward0``, ...).

Each forward op's gradient is its own backward kernel (``convolution_backward``,
``avg_pool2d_backward``, ``upsample_*_backward``, ...), and those backward kernels have rows
here too, written with forward ops, so a second derivative (``create_graph=True``) records
a graph: the backward of ``convolution_backward`` is torch's
``_convolution_double_backward`` spelled with ``convolution`` and ``convolution_backward``.
"""

from ._helpers import A, lin
from .registry import Formula as F
from ..._exports import public_dir


def _lazy(name):
    """``aten::name.default``, looked up on first call: the table is built when this module loads,
    which may be before the operator's packet is defined (``make gen`` imports it to index it)."""
    op = None

    def call(*args, **kwargs):
        nonlocal op
        if op is None:
            op = getattr(A, name).default
        return op(*args, **kwargs)
    call.__name__ = name
    return call


# --- convolution ------------------------------------------------------------------------------

def _conv_args(a):
    return a.stride, a.padding, a.dilation, a.transposed, a.output_padding, a.groups


def _convolution(grads, a, n):
    g = grads[0]
    has_bias = a.bias is not None
    bias_sizes = [int(s) for s in a.bias.shape] if has_bias else None
    mask = [bool(n[0]), bool(n[1]), bool(n[2]) and has_bias]
    gi, gw, gb = A.convolution_backward.default(g, a.input, a.weight, bias_sizes, *_conv_args(a), mask)
    return gi, gw, gb


def _bias_view(b, ndim):
    return A.reshape.default(b, [1, -1] + [1] * (ndim - 2))


def _convolution_fw(t, a):
    args = _conv_args(a)
    terms = []
    if t[0] is not None:
        terms.append(A.convolution.default(t[0], a.weight, None, *args))
    if t[1] is not None:
        terms.append(A.convolution.default(a.input, t[1], None, *args))
    if t[2] is not None:
        terms.append(_bias_view(t[2], len(a.input.shape)))
    return lin(*terms)


def _convolution_backward_back(grads, a, n):
    """torch's ``_convolution_double_backward``: the backward is bilinear in (grad_output, input)
    and (grad_output, weight), so each second derivative is a convolution or its backward."""
    ggi, ggw, ggb = grads
    args = _conv_args(a)
    g_out = g_in = g_w = None
    if n[0]:
        terms = []
        if ggi is not None:
            terms.append(A.convolution.default(ggi, a.weight, None, *args))
        if ggw is not None:
            terms.append(A.convolution.default(a.input, ggw, None, *args))
        if ggb is not None:
            terms.append(A.expand.default(_bias_view(ggb, len(a.grad_output.shape)), list(a.grad_output.shape)))
        g_out = lin(*terms)
    if n[1] and ggw is not None:
        g_in = A.convolution_backward.default(a.grad_output, a.input, ggw, None, *args, [True, False, False])[0]
    if n[2] and ggi is not None:
        g_w = A.convolution_backward.default(a.grad_output, ggi, a.weight, None, *args, [False, True, False])[1]
    return g_out, g_in, g_w


def _convolution_backward_fw(t, a):
    """derivatives.yaml's result0/1/2 of ``convolution_backward``: each output is bilinear."""
    args = _conv_args(a)
    tg, tx, tw = t
    mask_in, mask_w = [True, False, False], [False, True, False]
    gi = lin(A.convolution_backward.default(a.grad_output, a.input, tw, None, *args, mask_in)[0] if tw is not None
             else None,
             A.convolution_backward.default(tg, a.input, a.weight, None, *args, mask_in)[0] if tg is not None
             else None)
    gw = lin(A.convolution_backward.default(a.grad_output, tx, a.weight, None, *args, mask_w)[1] if tx is not None
             else None,
             A.convolution_backward.default(tg, a.input, a.weight, None, *args, mask_w)[1] if tg is not None
             else None)
    gb = None
    if tg is not None and a.bias_sizes is not None:
        gb = A.sum.dim_IntList(tg, [0] + list(range(2, len(tg.shape))), False)
    return gi, gw, gb


# --- pooling ----------------------------------------------------------------------------------

def _zeros_as(g, t):
    """Zeros shaped like the input ``t`` (a saved tensor or its shape/dtype), on ``g``'s device."""
    return A.new_zeros.default(g, list(t.shape), dtype=t.dtype)


def _gather_planes(x, indices, n):
    """``x`` read at ``indices`` (flat positions within each plane of the last ``n`` dims):
    torch's ``max_pool_double_backward`` and the max-pool jvp."""
    flat = A.flatten.using_ints(x, -n, -1)
    idx = A.flatten.using_ints(indices, -n, -1)
    return A.view.default(A.gather.default(flat, -1, idx), list(indices.shape))


def _max_pool(n, backward_op):
    def backward(grads, a, needs):
        return (backward_op(grads[0], a.self, a.kernel_size, a.stride, a.padding, a.dilation, a.ceil_mode,
                            a.result[1]),)

    def forward(t, a):
        return (_gather_planes(t[0], a.result[1], n), None)
    return backward, forward


def _indices_double(n, with_self=True):
    """Rows of the max-pool backward kernels: linear in grad_output (a gather), zero in self."""
    def backward(grads, a, needs):
        g = grads[0]
        gg = _gather_planes(g, a.indices, n) if needs[0] else None
        return (gg, _zeros_as(g, a.self) if with_self and needs[1] else None)
    return backward


def _linear_in_grad_output(op, *names):
    """The forward formula of a backward kernel linear in ``grad_output``: itself on the tangent."""
    def forward(t, a):
        if t[0] is None:
            return None
        return op(t[0], *[getattr(a, n) for n in names])
    return forward


def _avg(n, op, backward_op):
    def backward(grads, a, needs):
        return (backward_op(grads[0], a.self, a.kernel_size, a.stride, a.padding, a.ceil_mode, a.count_include_pad,
                            a.divisor_override),)

    def forward(t, a):
        return op(t[0], a.kernel_size, a.stride, a.padding, a.ceil_mode, a.count_include_pad, a.divisor_override)

    def double(grads, a, needs):
        gg = op(grads[0], a.kernel_size, a.stride, a.padding, a.ceil_mode, a.count_include_pad,
                a.divisor_override) if needs[0] else None
        return (gg, _zeros_as(grads[0], a.self) if needs[1] else None)
    return backward, forward, double


def _adaptive_avg(n, op, backward_op):
    def backward(grads, a, needs):
        return (backward_op(grads[0], a.self),)

    def forward(t, a):
        return op(t[0], a.output_size)

    def double(grads, a, needs):
        gg = op(grads[0], list(a.grad_output.shape[-n:])) if needs[0] else None
        return (gg, _zeros_as(grads[0], a.self) if needs[1] else None)
    return backward, forward, double


def _adaptive_max(n, backward_op):
    def backward(grads, a, needs):
        return (backward_op(grads[0], a.self, a.result[1]),)

    def forward(t, a):
        return (_gather_planes(t[0], a.result[1], n), None)
    return backward, forward


def _fractional(n, backward_op):
    def backward(grads, a, needs):
        return (backward_op(grads[0], a.self, a.kernel_size, a.output_size, a.result[1]),)

    def forward(t, a):
        return (_gather_planes(t[0], a.result[1], n), None)
    return backward, forward


def _unpool(n, op):
    def backward(grads, a, needs):
        return (_gather_planes(grads[0], a.indices, n),)

    def forward(t, a):
        extra = (a.stride, a.padding) if n == 3 else ()
        return op(t[0], a.indices, a.output_size, *extra)
    return backward, forward


# --- resampling -------------------------------------------------------------------------------

_SCALES = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}


def _upsample(n, op, backward_op, align):
    names = _SCALES[n]

    def scales(a):
        return [getattr(a, s) for s in names]

    def backward(grads, a, needs):
        extra = (a.align_corners,) if align else ()
        return (backward_op(grads[0], a.output_size, list(a.self.shape), *extra, *scales(a)),)

    def forward(t, a):
        extra = (a.align_corners,) if align else ()
        return op(t[0], a.output_size, *extra, *scales(a))

    def double(grads, a, needs):
        extra = (a.align_corners,) if align else ()
        return (op(grads[0], a.output_size, *extra, *scales(a)),)

    def double_forward(t, a):  # the backward kernel is linear in grad_output
        extra = (a.align_corners,) if align else ()
        return backward_op(t[0], a.output_size, a.input_size, *extra, *scales(a))
    return backward, forward, double, double_forward


def _grid(backward_op):
    def backward(grads, a, needs):
        gi, gg = backward_op(grads[0], a.input, a.grid, a.interpolation_mode, a.padding_mode, a.align_corners,
                             [bool(needs[0]), bool(needs[1])])
        return gi, gg
    return backward


# --- rearrangements ---------------------------------------------------------------------------

def _im2col(grads, a, needs):
    size = [int(s) for s in a.self.shape[-2:]]
    return (A.col2im.default(grads[0], size, a.kernel_size, a.dilation, a.padding, a.stride),)


def _col2im(grads, a, needs):
    return (A.im2col.default(grads[0], a.kernel_size, a.dilation, a.padding, a.stride),)


def _channel_shuffle(grads, a, needs):
    g = grads[0]
    return (A.channel_shuffle.default(g, g.shape[1] // a.groups),)


def _build():
    table = {
        "aten::convolution": F("ConvolutionBackward0", ("input", "weight", "bias"), _convolution,
                               save=("input", "weight"), forward=_convolution_fw),
        "aten::_convolution": F("ConvolutionBackward1", ("input", "weight", "bias"), _convolution,
                                save=("input", "weight"), forward=_convolution_fw),
        "aten::convolution_backward": F("ConvolutionBackwardBackward0", ("grad_output", "input", "weight"),
                                        _convolution_backward_back, save=("grad_output", "input", "weight"),
                                        forward=_convolution_backward_fw),
        "aten::im2col": F("Im2ColBackward0", ("self",), _im2col,
                          forward=lambda t, a: A.im2col.default(t[0], a.kernel_size, a.dilation, a.padding, a.stride)),
        "aten::col2im": F("Col2ImBackward0", ("self",), _col2im,
                          forward=lambda t, a: A.col2im.default(t[0], a.output_size, a.kernel_size, a.dilation,
                                                                a.padding, a.stride)),
        "aten::pixel_shuffle": F("PixelShuffleBackward0", ("self",),
                                 lambda g, a, n: (A.pixel_unshuffle.default(g[0], a.upscale_factor),),
                                 forward=lambda t, a: A.pixel_shuffle.default(t[0], a.upscale_factor)),
        "aten::pixel_unshuffle": F("PixelUnshuffleBackward0", ("self",),
                                   lambda g, a, n: (A.pixel_shuffle.default(g[0], a.downscale_factor),),
                                   forward=lambda t, a: A.pixel_unshuffle.default(t[0], a.downscale_factor)),
        "aten::channel_shuffle": F("ChannelShuffleBackward0", ("self",), _channel_shuffle,
                                   forward=lambda t, a: A.channel_shuffle.default(t[0], a.groups)),
    }
    for n in (2, 3):
        d = f"{n}D"
        back_op = _lazy(f"max_pool{n}d_with_indices_backward")
        backward, forward = _max_pool(n, back_op)
        table[f"aten::max_pool{n}d_with_indices"] = F(f"MaxPool{d}WithIndicesBackward0", ("self",), backward,
                                                      save=("self", "result"), forward=forward)
        table[f"aten::max_pool{n}d_with_indices_backward"] = F(
            f"MaxPool{d}WithIndicesBackwardBackward0", ("grad_output", "self"), _indices_double(n),
            save=("self", "indices"),
            forward=_linear_in_grad_output(back_op, "self", "kernel_size", "stride", "padding", "dilation", "ceil_mode",
                                           "indices"))
        avg, avg_back = _lazy(f"avg_pool{n}d"), _lazy(f"avg_pool{n}d_backward")
        backward, forward, double = _avg(n, avg, avg_back)
        table[f"aten::avg_pool{n}d"] = F(f"AvgPool{d}Backward0", ("self",), backward, save=("self",), forward=forward)
        table[f"aten::avg_pool{n}d_backward"] = F(
            f"AvgPool{d}BackwardBackward0", ("grad_output", "self"), double, save=("self",),
            forward=_linear_in_grad_output(avg_back, "self", "kernel_size", "stride", "padding", "ceil_mode",
                                           "count_include_pad", "divisor_override"))
        aa, aa_back = _lazy(f"_adaptive_avg_pool{n}d"), _lazy(f"_adaptive_avg_pool{n}d_backward")
        backward, forward, double = _adaptive_avg(n, aa, aa_back)
        table[f"aten::_adaptive_avg_pool{n}d"] = F(f"AdaptiveAvgPool{d}Backward0", ("self",), backward,
                                                   save=("self",), forward=forward)
        table[f"aten::_adaptive_avg_pool{n}d_backward"] = F(f"AdaptiveAvgPool{d}BackwardBackward0",
                                                            ("grad_output", "self"), double, save=("self",),
                                                            forward=_linear_in_grad_output(aa_back, "self"))
        am_back = _lazy(f"adaptive_max_pool{n}d_backward")
        backward, forward = _adaptive_max(n, am_back)
        table[f"aten::adaptive_max_pool{n}d"] = F(f"AdaptiveMaxPool{d}Backward0", ("self",), backward,
                                                  save=("self", "result"), forward=forward)
        table[f"aten::adaptive_max_pool{n}d_backward"] = F(
            f"AdaptiveMaxPool{d}BackwardBackward0", ("grad_output", "self"), _indices_double(n), save=("self", "indices"),
            forward=_linear_in_grad_output(am_back, "self", "indices"))
        fr_back = _lazy(f"fractional_max_pool{n}d_backward")
        backward, forward = _fractional(n, fr_back)
        table[f"aten::fractional_max_pool{n}d"] = F(f"FractionalMaxPool{d}Backward0", ("self",), backward,
                                                    save=("self", "result"), forward=forward)
        table[f"aten::fractional_max_pool{n}d_backward"] = F(
            f"FractionalMaxPool{d}BackwardBackward0", ("grad_output", "self"), _indices_double(n),
            save=("self", "indices"),
            forward=_linear_in_grad_output(fr_back, "self", "kernel_size", "output_size", "indices"))
        backward, forward = _unpool(n, _lazy(f"max_unpool{n}d"))
        table[f"aten::max_unpool{n}d"] = F(f"MaxUnpool{d}Backward0", ("self",), backward, save=("indices",),
                                           forward=forward)
        grid_back = _lazy(f"grid_sampler_{n}d_backward")
        table[f"aten::grid_sampler_{n}d"] = F(f"GridSampler{d}Backward0", ("input", "grid"), _grid(grid_back),
                                              save=("input", "grid"))
    for name, node, n, align in (
            ("upsample_nearest1d", "UpsampleNearest1D", 1, False), ("upsample_nearest2d", "UpsampleNearest2D", 2, False),
            ("upsample_nearest3d", "UpsampleNearest3D", 3, False),
            ("_upsample_nearest_exact1d", "UpsampleNearestExact1D", 1, False),
            ("_upsample_nearest_exact2d", "UpsampleNearestExact2D", 2, False),
            ("_upsample_nearest_exact3d", "UpsampleNearestExact3D", 3, False),
            ("upsample_linear1d", "UpsampleLinear1D", 1, True), ("upsample_bilinear2d", "UpsampleBilinear2D", 2, True),
            ("upsample_trilinear3d", "UpsampleTrilinear3D", 3, True), ("upsample_bicubic2d", "UpsampleBicubic2D", 2, True),
            ("_upsample_bilinear2d_aa", "UpsampleBilinear2DAa", 2, True),
            ("_upsample_bicubic2d_aa", "UpsampleBicubic2DAa", 2, True)):
        op, back_op = _lazy(name), _lazy(name + "_backward")
        backward, forward, double, double_forward = _upsample(n, op, back_op, align)
        table["aten::" + name] = F(node + "Backward0", ("self",), backward, forward=forward)
        table["aten::" + name + "_backward"] = F(node + "BackwardBackward0", ("grad_output",), double,
                                                 forward=double_forward)
    return table


FORMULAS = _build()

__dir__ = public_dir(globals())
