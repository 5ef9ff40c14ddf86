"""Activation, padding and encoding kernels (numpy): gelu, erf, hardtanh, elu, softplus,
constant_pad_nd, one_hot. The compositions of ``nn.functional`` live in ``composite_nn.py``."""

import math

import numpy as np

from .. import _dtype as D
from .common import INEXACT, out

__all__ = ["KERNELS", "erf_array"]

_erf = np.frompyfunc(math.erf, 1, 1)


def erf_array(x):
    """erf elementwise (numpy has none): ``math.erf``, exact in double precision."""
    wide = x.astype(np.float64)
    return np.asarray(_erf(wide), dtype=np.float64).astype(x.dtype, copy=False)


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
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (w + 0.044715 * w ** 3)
        r = 0.5 * w * (1.0 + np.tanh(inner))
    else:
        r = 0.5 * w * (1.0 + erf_array(w / math.sqrt(2.0)))
    return out(np.asarray(r).astype(x.dtype, copy=False), self)


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
    "erf": erf, "gelu": gelu, "hardtanh": hardtanh, "elu": elu, "softplus": softplus,
    "constant_pad_nd": constant_pad_nd, "one_hot": one_hot,
}

POINTWISE = {"erf", "gelu", "hardtanh", "elu", "softplus"}
