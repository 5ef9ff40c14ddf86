"""int8 quantization operators for PyTorch: ``torch.ops.tinyquant.*``."""

from .ops import clamp_, dequantize, fake_quant, quantize, scale_for

__all__ = ["clamp_", "dequantize", "fake_quant", "quantize", "scale_for"]
