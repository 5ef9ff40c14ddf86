"""Writes ``torch_nn_spatial.npz``: what torch 2.15 gives for convolution, pooling, resampling
and channel-rearrangement calls the OpInfo samples do not reach (anti-aliased resampling,
``grid_sampler_2d`` on large grids, ``fold``, ``lp_pool``, channels_last layouts, nan and
-inf windows, second derivatives of convolution, ...) and for a table of bad calls.

Run with the bench venv that has torch (``make nn-spatial-expect``); the tests only read the
npz (``tests/nn/test_spatial_torch.py``).

Each case is an expression over ``T`` (torch or opyard), ``F`` (its ``nn.functional``) and
the inputs ``a``, ``b``, ``c`` (numpy arrays stored beside it, made tensors with the stored
layout). The record keeps the result (every tensor of it: values, dtype, shape, strides)
and, for cases marked ``grad``, the gradients of ``sum(result * weights)`` w.r.t. the inputs
that require grad; ``gradgrad`` cases also keep the gradient of the first gradients' weighted
sum (``create_graph=True``). Error cases keep the exception's class and message.
"""

import json
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_nn_spatial.npz")

# name -> (expression, inputs [(shape, dtype, layout, requires_grad, kind)], mode)
# kind: "randn" (normal), "grid" (uniform in [-1.2, 1.2]), "uint8" (0..255), "nanwin" (normal
# with nan and -inf sprinkled), "index" (a valid max-pool index set: computed by torch).
CASES = {}


def case(name, expr, *inputs, mode="fwd"):
    CASES[name] = (expr, list(inputs), mode)


def inp(shape, dtype="float64", layout="contiguous", grad=False, kind="randn"):
    return (list(shape), dtype, layout, grad, kind)


# --- convolution -----------------------------------------------------------------------------
case("conv2d_cl", "F.conv2d(a, b, c, stride=2, padding=1)", inp([2, 4, 7, 6], layout="channels_last", grad=True),
     inp([6, 4, 3, 3], grad=True), inp([6], grad=True), mode="grad")
case("conv2d_groups_dil", "F.conv2d(a, b, None, 1, (2, 1), (2, 3), 2)", inp([2, 4, 9, 8], grad=True),
     inp([6, 2, 3, 2], grad=True), mode="grad")
case("conv2d_depthwise", "F.conv2d(a, b, groups=4, padding='same')", inp([1, 4, 6, 5], grad=True),
     inp([8, 1, 2, 3], grad=True), mode="grad")
case("conv1d_same_even", "F.conv1d(a, b, padding='same', dilation=1)", inp([2, 3, 9], grad=True),
     inp([2, 3, 4], grad=True), mode="grad")
case("conv3d_stride", "F.conv3d(a, b, c, stride=(1, 2, 2), padding=1)", inp([1, 2, 5, 6, 5], grad=True),
     inp([3, 2, 3, 3, 2], grad=True), inp([3], grad=True), mode="grad")
case("conv_t2d_cl", "F.conv_transpose2d(a, b, c, stride=2, padding=1, output_padding=1)",
     inp([2, 4, 5, 4], layout="channels_last", grad=True), inp([4, 3, 3, 3], grad=True), inp([3], grad=True),
     mode="grad")
case("conv_t3d_groups", "F.conv_transpose3d(a, b, None, stride=(2, 1, 2), groups=2, dilation=(1, 2, 1))",
     inp([1, 4, 3, 4, 3], grad=True), inp([4, 2, 2, 2, 3], grad=True), mode="grad")
case("conv2d_gradgrad", "F.conv2d(a, b, c, stride=2, padding=1, groups=2)", inp([2, 4, 6, 5], grad=True),
     inp([4, 2, 3, 3], grad=True), inp([4], grad=True), mode="gradgrad")
case("conv_t1d_gradgrad", "F.conv_transpose1d(a, b, c, stride=3, padding=1, output_padding=1)",
     inp([2, 3, 5], grad=True), inp([3, 2, 4], grad=True), inp([2], grad=True), mode="gradgrad")
case("conv2d_f32", "F.conv2d(a, b, padding=1)", inp([2, 8, 10, 10], "float32"), inp([16, 8, 3, 3], "float32"))
case("conv2d_int64", "F.conv2d(a, b, stride=2)", inp([1, 2, 6, 6], "int64", kind="small"),
     inp([3, 2, 3, 3], "int64", kind="small"))
case("unfold_fold", "F.fold(F.unfold(a, (2, 3), dilation=(1, 2), padding=1, stride=(2, 1)), (7, 8), (2, 3), "
     "dilation=(1, 2), padding=1, stride=(2, 1))", inp([2, 3, 7, 8], grad=True), mode="grad")
case("fold", "F.fold(a, (5, 6), 2, stride=(1, 2))", inp([2, 12, 12], grad=True), mode="grad")
case("pixel_shuffle_5d", "F.pixel_shuffle(a, 2)", inp([2, 3, 8, 2, 3], grad=True), mode="grad")
case("channel_shuffle_cl", "F.channel_shuffle(a, 3)", inp([2, 6, 3, 4], layout="channels_last"))

# --- pooling ---------------------------------------------------------------------------------
case("max_pool2d_nan_inf", "F.max_pool2d(a, 3, 2, 1, return_indices=True)", inp([2, 3, 7, 7], kind="nanwin"))
case("max_pool2d_cl", "F.max_pool2d(a, (3, 2), (2, 1), (1, 1), (1, 2), ceil_mode=True, return_indices=True)",
     inp([2, 3, 8, 9], layout="channels_last", grad=True), mode="grad")
case("max_pool3d_ceil", "F.max_pool3d(a, 2, 2, 1, 1, ceil_mode=True, return_indices=True)",
     inp([1, 2, 5, 6, 7], grad=True), mode="grad")
case("max_pool2d_int", "F.max_pool2d(a, 2, 1, 1, return_indices=True)", inp([1, 2, 5, 5], "int32", kind="small"))
case("avg_pool2d_cl", "F.avg_pool2d(a, 3, 2, 1, ceil_mode=True, count_include_pad=False)",
     inp([2, 3, 8, 7], layout="channels_last", grad=True), mode="grad")
case("avg_pool3d_div", "F.avg_pool3d(a, (2, 3, 2), (1, 2, 2), (1, 1, 0), True, True, 3)",
     inp([1, 2, 5, 6, 5], grad=True), mode="grad")
case("avg_pool2d_int", "F.avg_pool2d(a, 2, 1, 1)", inp([1, 1, 4, 5], "int64", kind="signed"))
case("adaptive_avg2d_odd", "F.adaptive_avg_pool2d(a, (4, 3))", inp([2, 3, 7, 10], grad=True), mode="grad")
case("adaptive_avg2d_one", "F.adaptive_avg_pool2d(a, 1)", inp([2, 3, 5, 4], layout="channels_last", grad=True),
     mode="grad")
case("adaptive_avg3d", "F.adaptive_avg_pool3d(a, (2, 3, 5))", inp([1, 2, 5, 7, 4], grad=True), mode="grad")
case("adaptive_avg3d_f16", "F.adaptive_avg_pool3d(a, (3, 4, 2))", inp([1, 2, 5, 7, 3], "float16"))
case("adaptive_max2d", "F.adaptive_max_pool2d(a, (3, 5), return_indices=True)", inp([2, 3, 7, 9], grad=True),
     mode="grad")
case("adaptive_max3d_nan", "F.adaptive_max_pool3d(a, (2, 3, 2), return_indices=True)",
     inp([1, 2, 4, 5, 3], kind="nanwin"))
case("fractional2d", "F.fractional_max_pool2d(a, (2, 3), output_size=(3, 4), return_indices=True, "
     "_random_samples=c)", inp([2, 3, 7, 9], grad=True), None, inp([2, 3, 2], kind="uniform"), mode="grad")
case("fractional3d", "F.fractional_max_pool3d(a, 2, output_size=(2, 3, 2), return_indices=True, "
     "_random_samples=c)", inp([1, 2, 5, 6, 4], grad=True), None, inp([1, 2, 3], kind="uniform"), mode="grad")
case("max_unpool2d", "F.max_unpool2d(a, b, 2, 2, output_size=(7, 7))", inp([2, 3, 3, 3], grad=True),
     inp([2, 3, 7, 7], kind="index2d"), mode="grad")
case("lp_pool2d", "F.lp_pool2d(a, 3, (2, 3), stride=2, ceil_mode=True)", inp([2, 3, 7, 8], kind="positive", grad=True),
     mode="grad")
case("lp_pool1d_inf", "F.lp_pool1d(a, float('inf'), 3)", inp([2, 3, 9]))
case("lp_pool3d", "F.lp_pool3d(a, 2, 2)", inp([1, 2, 4, 5, 4], kind="positive", grad=True), mode="grad")

# --- resampling ------------------------------------------------------------------------------
for mode_, size in (("bilinear", (5, 11)), ("bicubic", (3, 4)), ("bicubic", (9, 13))):
    for align in (False, True):
        tag = f"{mode_}_aa_{size[0]}x{size[1]}_{int(align)}"
        case(tag, f"F.interpolate(a, size={size}, mode='{mode_}', align_corners={align}, antialias=True)",
             inp([2, 3, 7, 8], grad=True), mode="grad")
        case(tag + "_f32", f"F.interpolate(a, size={size}, mode='{mode_}', align_corners={align}, antialias=True)",
             inp([2, 3, 7, 8], "float32"))
        case(tag + "_u8", f"F.interpolate(a, size={size}, mode='{mode_}', align_corners={align}, antialias=True)",
             inp([1, 3, 7, 8], "uint8", kind="uint8"))
case("aa_scale", "T.ops.aten._upsample_bilinear2d_aa.vec(a, None, False, [0.45, 1.3])", inp([1, 2, 9, 7], grad=True),
     mode="grad")
case("bilinear_u8_c8", "F.interpolate(a, size=(5, 11), mode='bilinear')", inp([1, 8, 7, 9], "uint8", kind="uint8"))
case("bicubic_u8_c8", "F.interpolate(a, size=(5, 11), mode='bicubic', align_corners=True)",
     inp([1, 8, 7, 9], "uint8", kind="uint8"))
case("nearest_cl", "F.interpolate(a, scale_factor=(1.5, 0.7))", inp([2, 3, 6, 7], layout="channels_last", grad=True),
     mode="grad")
case("nearest_exact3d", "F.interpolate(a, size=(3, 7, 5), mode='nearest-exact')", inp([1, 2, 4, 5, 6], grad=True),
     mode="grad")
case("trilinear_scale", "F.interpolate(a, scale_factor=(1.3, 0.6, 2.2), mode='trilinear')",
     inp([1, 2, 4, 5, 3], grad=True), mode="grad")
case("bicubic_scale", "F.interpolate(a, scale_factor=1.4, mode='bicubic', align_corners=False)",
     inp([2, 2, 5, 6], grad=True), mode="grad")
case("area_3d", "F.interpolate(a, size=(3, 2, 4), mode='area')", inp([1, 2, 5, 7, 6], grad=True), mode="grad")
for im in ("bilinear", "nearest", "bicubic"):
    for pm in ("zeros", "border", "reflection"):
        for align in (False, True):
            case(f"grid2d_{im}_{pm}_{int(align)}",
                 f"F.grid_sample(a, b, mode='{im}', padding_mode='{pm}', align_corners={align})",
                 inp([2, 3, 6, 7], grad=True), inp([2, 5, 4, 2], kind="grid", grad=True), mode="grad")
for im in ("bilinear", "nearest"):
    for pm in ("zeros", "border", "reflection"):
        case(f"grid3d_{im}_{pm}", f"F.grid_sample(a, b, mode='{im}', padding_mode='{pm}', align_corners=False)",
             inp([1, 2, 4, 5, 3], grad=True), inp([1, 3, 2, 4, 3], kind="grid", grad=True), mode="grad")
case("grid2d_f16", "F.grid_sample(a, b, align_corners=False)", inp([2, 3, 6, 7], "float16"),
     inp([2, 5, 4, 2], "float16", kind="grid"))

# --- bad calls (torch's exception class and message) -------------------------------------------
ERRORS = [
    "F.conv2d(T.ones(1, 3, 4, 4), T.ones(2, 2, 3, 3))",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 5, 5))",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3), T.ones(3))",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(3, 2, 3, 3), groups=2)",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3), stride=[1, 1, 1])",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3), padding='same', stride=2)",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3), padding='full')",
    "F.conv2d(T.ones(4, 4), T.ones(2, 2, 3, 3))",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3, dtype=T.float64))",
    "F.conv2d(T.ones(1, 2, 4, 4), T.ones(2, 2, 3, 3), dilation=0)",
    "F.conv_transpose2d(T.ones(1, 2, 4, 4), T.ones(2, 3, 2, 2), output_padding=1)",
    "F.conv_transpose2d(T.ones(1, 2, 1, 1), T.ones(2, 3, 1, 1), padding=2)",
    "F.conv_transpose2d(T.ones(1, 3, 4, 4), T.ones(2, 3, 2, 2))",
    "F.max_pool2d(T.ones(1, 1, 4, 4), (2, 2, 2))",
    "F.max_pool2d(T.ones(1, 1, 4, 4), 2, dilation=0)",
    "F.max_pool2d(T.ones(1, 1, 4, 4), 3, padding=2)",
    "F.max_pool2d(T.ones(4, 4), 2)",
    "F.max_pool2d(T.ones(1, 1, 1, 4), 2)",
    "F.max_pool2d(T.ones(1, 1, 4, 4, dtype=T.bool), 2)",
    "F.max_pool3d(T.ones(1, 1, 2, 4, 4), 3)",
    "F.max_pool1d(T.ones(1, 1, 4), 2, padding=2)",
    "F.max_pool1d(T.ones(1, 1, 4), 2, stride=0)",
    "F.avg_pool2d(T.ones(1, 1, 4, 4), 2, divisor_override=0)",
    "F.avg_pool2d(T.ones(1, 1, 4, 4, dtype=T.int32), 2)",
    "F.avg_pool3d(T.ones(1, 1, 1, 4, 4), 2)",
    "F.avg_pool1d(T.ones(1, 1, 4), (2, 2))",
    "F.adaptive_avg_pool2d(T.ones(1, 1, 0, 4), 2)",
    "F.adaptive_avg_pool2d(T.ones(1, 1, 4, 4), (2, -1))",
    "F.adaptive_max_pool2d(T.ones(1, 1, 1, 4, 4), 2)",
    "F.adaptive_max_pool2d(T.ones(1, 1, 4, 4, dtype=T.int64), 2)",
    "F.max_unpool2d(T.ones(1, 1, 2, 2), T.tensor([[[[0, 1], [2, 99]]]]), 2)",
    "F.max_unpool2d(T.ones(1, 1, 2, 2), T.zeros(1, 1, 2, 2, dtype=T.long), 2, output_size=(9, 9))",
    "F.max_unpool3d(T.ones(1, 1, 2, 2, 2), T.zeros(1, 1, 2, 2, 2, dtype=T.long), 2, stride=0)",
    "F.fractional_max_pool2d(T.ones(1, 1, 4, 4), 2, output_size=4)",
    "F.fractional_max_pool2d(T.ones(1, 1, 4, 4), 2)",
    "F.interpolate(T.ones(1, 1, 4, 4), size=3, mode='linear')",
    "F.interpolate(T.ones(1, 1, 4, 4), size=3, align_corners=True)",
    "F.interpolate(T.ones(1, 1, 4, 4), size=(3, 3, 3))",
    "F.interpolate(T.ones(1, 1, 4, 4), size=0)",
    "F.interpolate(T.ones(1, 1, 4, 4), size=3, scale_factor=2)",
    "F.interpolate(T.ones(1, 1, 4, 4), size=3, mode='nearest', antialias=True)",
    "F.interpolate(T.ones(1, 1, 4, 4, dtype=T.int64), size=3, mode='bilinear')",
    "F.interpolate(T.ones(4, 4), size=3)",
    "F.grid_sample(T.ones(1, 2, 4, 4), T.ones(1, 3, 3, 2, dtype=T.float64), align_corners=False)",
    "F.grid_sample(T.ones(1, 2, 4, 4), T.ones(2, 3, 3, 2), align_corners=False)",
    "F.grid_sample(T.ones(1, 2, 4, 4), T.ones(1, 3, 3, 3), align_corners=False)",
    "F.grid_sample(T.ones(1, 2, 4, 4), T.ones(1, 3, 3, 2), mode='area')",
    "F.unfold(T.ones(1, 2, 4, 4), 5)",
    "F.unfold(T.ones(1, 2, 4, 4), 2, stride=0)",
    "F.fold(T.ones(1, 5, 9), (4, 4), 2)",
    "F.fold(T.ones(1, 8, 8), (4, 4), 2)",
    "F.pixel_shuffle(T.ones(1, 3, 2, 2), 2)",
    "F.pixel_unshuffle(T.ones(1, 1, 3, 4), 2)",
    "F.channel_shuffle(T.ones(1, 4, 2, 2), 3)",
]


def make_input(spec, rng):
    shape, dtype, layout, grad, kind = spec
    if kind in ("small", "signed"):
        arr = rng.integers(-5 if kind == "signed" else 0, 6, size=shape)
    elif kind == "uint8":
        arr = rng.integers(0, 256, size=shape)
    elif kind == "grid":
        arr = rng.uniform(-1.2, 1.2, size=shape)
    elif kind == "uniform":
        arr = rng.uniform(0, 1, size=shape)
    elif kind == "positive":
        arr = rng.uniform(0.2, 2.0, size=shape)
    else:
        arr = rng.standard_normal(shape) * 2
        if kind == "nanwin":
            flat = arr.reshape(-1)
            flat[rng.choice(flat.size, flat.size // 9, replace=False)] = np.nan
            flat[rng.choice(flat.size, flat.size // 7, replace=False)] = -np.inf
    return arr.astype(dtype)


def to_torch(arr, spec):
    t = torch.from_numpy(np.array(arr))
    if spec[2] == "channels_last":
        t = t.contiguous(memory_format=torch.channels_last if t.dim() == 4 else torch.channels_last_3d)
    return t.requires_grad_(spec[3])


def flat_tensors(v):
    if isinstance(v, torch.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in flat_tensors(x)]
    return []


def weights(n, k):
    return torch.from_numpy(np.cos(np.arange(n) * 0.7 + k))


def weighted(outs):
    loss = 0
    for k, t in enumerate(outs):
        if t.dtype.is_floating_point and t.requires_grad:
            loss = loss + (t.reshape(-1).double() * weights(t.numel(), k)).sum()
    return loss


def main():
    rng = np.random.default_rng(20)
    arrays, meta = {}, {"cases": {}, "errors": []}
    for name, (expr, inputs, mode) in CASES.items():
        env = {"T": torch, "F": F}
        raw = {}
        for letter, spec in zip("abc", inputs):
            if spec is None:
                continue
            if spec[4] == "index2d":  # indices of a real 2x2 max pool of a 7x7 input
                src = torch.from_numpy(rng.standard_normal(spec[0]))
                arr = F.max_pool2d(src, 2, 2, return_indices=True)[1].numpy()
                shape = list(arr.shape)
                spec = (shape, "int64", "contiguous", False, "index")
                raw[letter] = arr
            else:
                raw[letter] = make_input(spec, rng)
            arrays[f"{name}/{letter}"] = np.ascontiguousarray(raw[letter])
            env[letter] = to_torch(raw[letter], spec)
        rec = {"expr": expr, "mode": mode, "inputs": {k: [s[2], s[3]] for k, s in zip("abc", inputs) if s}}
        out = eval(expr, env)
        outs = flat_tensors(out)
        rec["outs"] = []
        for i, t in enumerate(outs):
            arrays[f"{name}/out{i}"] = t.detach().numpy() if t.dtype != torch.bfloat16 else t.detach().float().numpy()
            rec["outs"].append({"dtype": str(t.dtype).removeprefix("torch."), "shape": list(t.shape),
                                "stride": list(t.stride())})
        if mode in ("grad", "gradgrad"):
            leaves = [env[k] for k in "abc" if k in env and env[k].requires_grad]
            grads = torch.autograd.grad(weighted(outs), leaves, create_graph=mode == "gradgrad", allow_unused=True)
            for k, g in zip([k for k in "abc" if k in env and env[k].requires_grad], grads):
                if g is not None:
                    arrays[f"{name}/grad_{k}"] = g.detach().numpy()
            if mode == "gradgrad":
                gl = [g for g in grads if g is not None]
                gg = torch.autograd.grad(weighted(gl), leaves, allow_unused=True)
                for k, g in zip([k for k in "abc" if k in env and env[k].requires_grad], gg):
                    if g is not None:
                        arrays[f"{name}/gradgrad_{k}"] = g.numpy()
        meta["cases"][name] = rec
    for expr in ERRORS:
        try:
            eval(expr, {"T": torch, "F": F})
            meta["errors"].append({"expr": expr, "raises": None})
        except Exception as exc:  # noqa: BLE001 - torch's answer is the record
            meta["errors"].append({"expr": expr, "raises": type(exc).__name__,
                                   "mro": [c.__name__ for c in type(exc).__mro__],
                                   "msg": str(exc).split("\n")[0]})
    arrays["__meta__"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    np.savez_compressed(OUT, **arrays)
    print(f"wrote {OUT}: {len(CASES)} cases, {len(ERRORS)} error calls, torch {torch.__version__}", file=sys.stderr)


if __name__ == "__main__":
    main()
