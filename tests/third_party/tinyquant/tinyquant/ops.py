"""The operators, registered with torch.library (both its generations)."""

import torch
from torch import Tensor
from torch.library import custom_op

# --- torch.library.Library (the 2.1 API): a schema, a CPU kernel, an abstract impl -----------------

_lib = torch.library.Library("tinyquant", "DEF")
_lib.define("dequantize(Tensor q, float scale) -> Tensor")


@torch.library.impl(_lib, "dequantize", "CPU")
def _dequantize_cpu(q, scale):
    return q.to(torch.float32) * scale


@torch.library.register_fake("tinyquant::dequantize")
def _(q, scale):
    torch._check(q.dtype == torch.int8, lambda: f"dequantize: expected an int8 tensor, got {q.dtype}")
    return torch.empty_like(q, dtype=torch.float32)


def dequantize(q: Tensor, scale: float) -> Tensor:
    return torch.ops.tinyquant.dequantize(q, scale)


# --- torch.library.custom_op (the 2.4 API) ----------------------------------------------------------

@custom_op("tinyquant::quantize", mutates_args=())
def quantize(x: Tensor, scale: float) -> Tensor:
    return torch.clamp(torch.round(x / scale), -128, 127).to(torch.int8)


@quantize.register_fake
def _(x, scale):
    return torch.empty_like(x, dtype=torch.int8)


@custom_op("tinyquant::fake_quant", mutates_args=())
def fake_quant(x: Tensor, scale: float) -> Tensor:
    """Quantize and dequantize: the rounding error of int8 in float."""
    return dequantize(quantize(x, scale), scale)


@fake_quant.register_fake
def _(x, scale):
    return torch.empty_like(x)


def _setup_context(ctx, inputs, output):
    x, scale = inputs
    ctx.save_for_backward(x)
    ctx.bound = 127 * scale


def _backward(ctx, grad):
    # The straight-through estimator: the gradient passes where x was inside the int8 range.
    (x,) = ctx.saved_tensors
    return grad * (x.abs() <= ctx.bound).to(grad.dtype), None


fake_quant.register_autograd(_backward, setup_context=_setup_context)


@custom_op("tinyquant::clamp_", mutates_args={"x"})
def clamp_(x: Tensor, bound: float) -> None:
    x.clamp_(-bound, bound)


def scale_for(x: Tensor) -> float:
    """The scale that maps ``x``'s largest magnitude to 127."""
    return max(float(x.abs().max()), 1e-12) / 127
