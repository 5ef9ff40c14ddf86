"""Activation, padding and encoding kernels (numpy): gelu, erf, hardtanh, elu, softplus,
constant_pad_nd, one_hot. The compositions of ``nn.functional`` live in ``composite_nn.py``."""

import math

import numpy as np

from .. import _core
from .. import _dtype as D
from .common import INEXACT, out

__all__ = ["KERNELS", "SCHEMAS", "erf_array"]

SCHEMAS = (
    "gelu_backward(Tensor grad_output, Tensor self, *, str approximate='none') -> Tensor",
    "silu_backward(Tensor grad_output, Tensor self) -> Tensor",
)

_erf = np.frompyfunc(math.erf, 1, 1)
_erfc = np.frompyfunc(math.erfc, 1, 1)


def erf_array(x):
    """erf elementwise (numpy has none): ``math.erf``, exact in double precision."""
    wide = x.astype(np.float64)
    return np.asarray(_erf(wide), dtype=np.float64).astype(x.dtype, copy=False)


def _normal_cdf(w):
    """``Phi(w) = erfc(-w / sqrt 2) / 2`` in double precision, accurate relative to itself in the
    negative tail, where ``(1 + erf) / 2`` cancels to 0 (the Rust kernel's form too)."""
    return 0.5 * np.asarray(_erfc(-w.astype(np.float64) / math.sqrt(2.0)), dtype=np.float64)


def _float_input(self, name):
    x = self._data
    if x.dtype not in INEXACT:
        if name in ("erf",):  # torch computes erf of integers in the default dtype
            return x.astype(D.get_default_dtype().np)
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    return x


def _wide(x):
    """Half-precision data computed in float32 (torch's accumulate type), else as is."""
    return x.astype(np.float32) if x.dtype.itemsize < 4 and x.dtype.kind != "c" else x


def erf(self):
    if self._data.dtype.kind == "c":
        raise NotImplementedError(f"\"erf_vml_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    return out(erf_array(_float_input(self, "erf")), self)


def gelu(self, *, approximate="none"):
    if approximate not in ("none", "tanh"):
        raise RuntimeError(f"approximate argument must be either none or tanh. (aten::gelu: got "
                           f"'{approximate}')")
    x = _float_input(self, "GeluKernelImpl")
    w = _wide(x)
    fused = _core._fused_gelu(w, approximate == "tanh") if w.flags.c_contiguous else None
    if fused is not None:  # one pass in Rust (float32/float64)
        return out(fused.astype(x.dtype, copy=False), self)
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (w + 0.044715 * w ** 3)
        r = 0.5 * w * (1.0 + np.tanh(inner))
    else:
        r = w * _normal_cdf(w)
    return out(np.asarray(r).astype(x.dtype, copy=False), self)


def _backward_inputs(grad_output, self, kernel_name):
    """``(g, x, dtype)``: both operands in their common compute dtype (float32 for float16/bfloat16)
    and the result dtype, or torch's "not implemented" error for integral inputs."""
    g, x = grad_output._data, self._data
    dt = np.result_type(g, x)
    if dt not in INEXACT:
        raise NotImplementedError(f"\"{kernel_name}\" not implemented for '{D.legacy_name(D.FROM_NP[dt])}'")
    wide = _wide(np.empty(0, dt)).dtype
    return g.astype(wide, copy=False), x.astype(wide, copy=False), dt


def _fused_pair(g, x):
    """``(g, x)`` for a fused Rust backward kernel (same shape, C-contiguous), or ``None``."""
    if g.shape != x.shape or not x.flags.c_contiguous:
        return None
    return np.ascontiguousarray(g), x  # sum's gradient is a broadcast view: one copy


def gelu_backward(grad_output, self, *, approximate="none"):
    """``grad_output * gelu'(self)`` (torch's ``GeluBackwardKernelImpl``)."""
    if approximate not in ("none", "tanh"):
        raise RuntimeError("approximate argument must be either none or tanh.")
    g, x, dt = _backward_inputs(grad_output, self, "GeluBackwardKernelImpl")
    pair = _fused_pair(g, x)
    fused = _core._fused_gelu_backward(*pair, approximate == "tanh") if pair is not None else None
    if fused is not None:  # one pass in Rust (float32/float64)
        return out(fused.astype(dt, copy=False), grad_output)
    with np.errstate(over="ignore", invalid="ignore"):
        if approximate == "tanh":
            k = math.sqrt(2.0 / math.pi)
            t = np.tanh(k * (x + 0.044715 * x ** 3))
            d = 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3 * 0.044715 * x * x)
        else:
            d = _normal_cdf(x) + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
        r = g * d
    return out(np.asarray(r).astype(dt, copy=False), grad_output)


def silu_backward(grad_output, self):
    """``grad_output * s * (1 + self * (1 - s))`` with ``s = sigmoid(self)`` (torch's ``silu_backward_cpu``)."""
    g, x, dt = _backward_inputs(grad_output, self, "silu_backward_cpu")
    pair = _fused_pair(g, x)
    fused = _core._fused_silu_backward(*pair) if pair is not None else None
    if fused is not None:
        return out(fused.astype(dt, copy=False), grad_output)
    with np.errstate(over="ignore", invalid="ignore"):
        s = np.reciprocal(np.exp(-x) + 1)
        r = g * s * (1 + x * (1 - s))
    return out(np.asarray(r).astype(dt, copy=False), grad_output)


def hardtanh(self, min_val=-1, max_val=1):
    x = self._data
    if x.dtype == np.bool_:
        raise NotImplementedError("Bool inputs not supported for hardtanh")
    return out(np.clip(x, min_val, max_val).astype(x.dtype, copy=False), self)


def elu(self, alpha=1, scale=1, input_scale=1):
    x = _float_input(self, "elu")
    w = _wide(x)
    with np.errstate(over="ignore"):
        r = np.where(w > 0, scale * w, scale * alpha * np.expm1(w * input_scale))
    return out(r.astype(x.dtype, copy=False), self)


def softplus(self, beta=1, threshold=20):
    x = _float_input(self, "softplus")
    w = _wide(x)
    with np.errstate(over="ignore"):
        r = np.where(w * beta > threshold, w, np.log1p(np.exp(w * beta)) / beta)
    return out(r.astype(x.dtype, copy=False), self)


def constant_pad_nd(self, pad, value=0):
    """torch's constant padding: ``pad`` lists (before, after) pairs from the last dimension
    backwards; negative amounts crop."""
    x = self._data
    pad = [int(p) for p in pad]
    if len(pad) % 2:
        raise RuntimeError(f"Length of pad must be even but instead it equals {len(pad)}")
    if len(pad) // 2 > x.ndim:
        raise RuntimeError(f"Length of pad should be no more than twice the number of dimensions of the "
                           f"input. Pad length is {len(pad)} while the input has {x.ndim} dimensions.")
    widths = [(0, 0)] * x.ndim
    crops = [slice(None)] * x.ndim
    for i in range(len(pad) // 2):
        d = x.ndim - 1 - i
        before, after = pad[2 * i], pad[2 * i + 1]
        size = x.shape[d] + before + after
        if size < 0:
            raise RuntimeError(f"The input size {x.shape[d]}, plus negative padding {before} and {after} "
                               f"resulted in a negative output size, which is invalid. Check dimension "
                               f"{d} of your input.")
        widths[d] = (max(before, 0), max(after, 0))
        crops[d] = slice(-min(before, 0), x.shape[d] + min(after, 0))
    cropped = x[tuple(crops)]
    return out(np.pad(cropped, widths, mode="constant", constant_values=value), self)


def one_hot(self, num_classes=-1):
    x = self._data
    if x.dtype != np.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    if num_classes == -1:
        if x.size == 0:
            raise RuntimeError("Can not infer total number of classes from empty tensor.")
        num_classes = int(x.max()) + 1
    if x.size and x.min() < 0:
        raise RuntimeError("Class values must be non-negative.")
    if x.size and x.max() >= num_classes:
        raise RuntimeError("Class values must be smaller than num_classes.")
    return out((x[..., None] == np.arange(num_classes)).astype(np.int64), self)


KERNELS = {
    "erf": erf, "gelu": gelu, "gelu_backward": gelu_backward, "silu_backward": silu_backward, "hardtanh": hardtanh,
    "elu": elu, "softplus": softplus, "constant_pad_nd": constant_pad_nd, "one_hot": one_hot,
}

POINTWISE = {"erf", "gelu", "gelu_backward", "silu_backward", "hardtanh", "elu", "softplus"}
