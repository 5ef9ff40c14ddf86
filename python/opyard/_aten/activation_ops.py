"""Activation kernels (numpy) as torch structures them: ``celu`` (elu with ``input_scale =
1 / alpha``), ``glu``, ``hardshrink``, ``softshrink``, ``hardsigmoid``, ``hardswish``,
``log_sigmoid_forward``, ``mish``, ``_prelu_kernel``, ``rrelu_with_noise``, ``threshold`` and
``elu_``, with their in-place forms; the compositions ``selu``, ``log_sigmoid``, ``prelu`` and
``rrelu``. float16/bfloat16 data is computed in float32 and rounded once, as torch's kernels do.
Derivatives: ``autograd/derivatives/activations.py``."""

import numpy as np

from .. import _dtype as D
from .common import A, inplace_result, out
from .factory import generator
from .nn_common import not_implemented, opmath
from .nn_ops import elu as _elu

__all__ = ["COMPOSITE", "KERNELS", "POINTWISE", "SCHEMAS"]

SCHEMAS = (
    "celu(Tensor self, Scalar alpha=1.0) -> Tensor",
    "celu_(Tensor(a!) self, Scalar alpha=1.0) -> Tensor(a!)",
    "selu(Tensor self) -> Tensor",
    "selu_(Tensor(a!) self) -> Tensor(a!)",
    "elu_(Tensor(a!) self, Scalar alpha=1, Scalar scale=1, Scalar input_scale=1) -> Tensor(a!)",
    "glu(Tensor self, int dim=-1) -> Tensor",
    "hardshrink(Tensor self, Scalar lambd=0.5) -> Tensor",
    "softshrink(Tensor self, Scalar lambd=0.5) -> Tensor",
    "hardsigmoid(Tensor self) -> Tensor",
    "hardsigmoid_(Tensor(a!) self) -> Tensor(a!)",
    "hardswish(Tensor self) -> Tensor",
    "hardswish_(Tensor(a!) self) -> Tensor(a!)",
    "log_sigmoid(Tensor self) -> Tensor",
    "log_sigmoid_forward(Tensor self) -> (Tensor output, Tensor buffer)",
    "mish(Tensor self) -> Tensor",
    "mish_(Tensor(a!) self) -> Tensor(a!)",
    "prelu(Tensor self, Tensor weight) -> Tensor",
    "_prelu_kernel(Tensor self, Tensor weight) -> Tensor",
    "rrelu(Tensor self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor",
    "rrelu_(Tensor(a!) self, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor(a!)",
    "rrelu_with_noise(Tensor self, Tensor(b!) noise, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor",
    "rrelu_with_noise_(Tensor(a!) self, Tensor(b!) noise, Scalar lower=0.125, Scalar upper=0.3333333333333333, bool training=False, Generator? generator=None) -> Tensor(a!)",
    "threshold(Tensor self, Scalar threshold, Scalar value) -> Tensor",
    "threshold_(Tensor(a!) self, Scalar threshold, Scalar value) -> Tensor(a!)",
)

# selu's constants (Klambauer et al.), as torch spells them.
SELU_ALPHA = 1.6732632423543772848170429916717
SELU_SCALE = 1.0507009873554804934193349852946


def _floating(self, kernel_name):
    """The data of a floating tensor in its compute dtype, or torch's "not implemented" error."""
    x = self._data
    if not self.dtype.is_floating_point:
        raise not_implemented(kernel_name, self.dtype)
    return x, opmath(x)


def _done(r, x, like):
    return out(np.asarray(r).astype(x.dtype, copy=False), like)


def celu(self, alpha=1.0):
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError: alpha cannot be 0 for CELU")
    return _elu(self, alpha, 1.0, 1.0 / alpha)


def glu(self, dim=-1):
    x, w = _floating(self, "glu_cpu")
    if x.ndim == 0:
        raise RuntimeError("glu does not support 0-dimensional tensors")
    d = dim + x.ndim if dim < 0 else dim
    if not 0 <= d < x.ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-x.ndim}, {x.ndim - 1}], but got "
                         f"{dim})")
    n = x.shape[d]
    if n % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {d} is size {n}")
    a, b = np.split(w, 2, axis=d)
    with np.errstate(over="ignore"):
        return _done(a / (1 + np.exp(-b)), x, self)


def _in_dtype(value, x):
    """A scalar as the kernel reads it: in the tensor's dtype (torch's ``lambd.to<scalar_t>()``)."""
    return float(np.asarray(value).astype(x.dtype))


def hardshrink(self, lambd=0.5):
    x, w = _floating(self, "hardshrink_cpu")
    lambd = _in_dtype(lambd, x)
    return _done(np.where((w >= -lambd) & (w <= lambd), 0, w), x, self)


def _check_lambda(lambd, dtype):
    top = float(D.finfo(dtype).max)
    if not 0 <= lambd <= top:
        raise RuntimeError(f"lambda must be in range [0, {top:.6g}] for input dtype {D.legacy_name(dtype)}, but "
                           f"found {lambd:g}")


def softshrink(self, lambd=0.5):
    if not self.dtype.is_floating_point:
        raise not_implemented("softshrink_check", self.dtype)
    _check_lambda(lambd, self.dtype)
    x, w = _floating(self, "softshrink_cpu")
    lambd = _in_dtype(lambd, x)
    r = np.where(w > lambd, w - lambd, np.where(w < -lambd, w + lambd, 0))
    return _done(np.where(np.isnan(w), w, r), x, self)


def hardsigmoid(self):
    x, w = _floating(self, "hardsigmoid_cpu")
    return _done(np.minimum(np.maximum(w + 3, 0), 6) / 6, x, self)


def hardswish(self):
    x, w = _floating(self, "hardswish_cpu")
    return _done(w * np.minimum(np.maximum(w + 3, 0), 6) / 6, x, self)


def log_sigmoid_forward(self):
    """``(output, buffer)``: ``min(x, 0) - log1p(exp(-|x|))`` and the ``exp(-|x|)`` the
    backward reads."""
    x, w = _floating(self, "log_sigmoid_cpu")
    buffer = np.exp(-np.abs(w))
    return _done(np.minimum(w, 0) - np.log1p(buffer), x, self), _done(buffer, x, self)


def mish(self):
    x, w = _floating(self, "mish_cpu")
    with np.errstate(over="ignore"):
        sp = np.where(w > 20, w, np.log1p(np.exp(w)))
    return _done(w * np.tanh(sp), x, self)


def prelu_kernel(self, weight):
    x = self._data
    if not self.dtype.is_floating_point:
        raise not_implemented("prelu_cpu", self.dtype)
    w = weight._data
    acc = opmath(x)
    r = np.where(acc > 0, acc, acc * opmath(w))
    return out(r.astype(x.dtype, copy=False), self)


def _rrelu_checks(self, lower, upper):
    if not self.dtype.is_floating_point:
        raise not_implemented("leaky_relu_cpu", self.dtype)
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")


def _rrelu_values(self, noise, lower, upper, training, gen):
    """The rrelu result; in training the slope of each negative element is drawn from
    U(lower, upper) and written to ``noise`` (1 for the others)."""
    x, w = _floating(self, "rrelu_with_noise_cpu")
    if not training:
        slope = (lower + upper) / 2
        return np.where(w > 0, w, w * slope).astype(x.dtype, copy=False)
    if noise is None or tuple(noise.shape) != tuple(x.shape):
        raise RuntimeError(f"rrelu_with_noise: noise must have the input's shape {list(x.shape)}, but got "
                           f"{list(noise.shape) if noise is not None else None}")
    draws = generator(gen).uniform(lower, upper, x.shape).astype(w.dtype)
    slopes = np.where(w <= 0, draws, 1).astype(w.dtype)
    noise._data[...] = slopes.astype(noise._data.dtype)
    noise._bump_version()
    return (w * slopes).astype(x.dtype, copy=False)


def rrelu_with_noise(self, noise, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    _rrelu_checks(self, lower, upper)
    return out(_rrelu_values(self, noise, lower, upper, training, generator), self)


def rrelu_with_noise_(self, noise, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    _rrelu_checks(self, lower, upper)
    return inplace_result(self, _rrelu_values(self, noise, lower, upper, training, generator), "aten::rrelu_with_noise_")


def threshold(self, threshold, value):
    x = self._data
    if x.dtype.kind == "b":
        raise not_implemented("threshold_cpu", self.dtype)
    if x.dtype.kind == "c":
        raise not_implemented("threshold_cpu", self.dtype)
    # The scalars in the tensor's dtype (an integer tensor truncates them), as torch's kernel reads
    # them; half-precision data compares with the threshold in float32 (its compute type).
    cmp = opmath(x)
    th = np.asarray(threshold).astype(cmp.dtype)
    val = np.asarray(value).astype(x.dtype)
    return out(np.where(cmp <= th, val, x).astype(x.dtype, copy=False), self)


def _inplace(fn, name):
    op_name = "aten::" + name

    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, op_name)
    kernel.__name__ = name
    return kernel


# --- compositions (CompositeImplicitAutograd in torch) ----------------------------------------


def selu(self):
    return A.elu(self, SELU_ALPHA, SELU_SCALE)


def selu_(self):
    return A.elu_(self, SELU_ALPHA, SELU_SCALE)


def log_sigmoid(self):
    return A.log_sigmoid_forward(self)[0]


def prelu(self, weight):
    """torch's ``prelu``: a one-element weight applies everywhere, else one slope per channel (dim 1)."""
    if weight.dim() > 1:
        raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = {weight.dim()}")
    if self.dim() == 0 and weight.numel() != 1:
        raise RuntimeError("Not allow zero-dim input tensor.")
    if self.dtype is not weight.dtype:
        raise RuntimeError(f"prelu: Type promoting not supported. Got {D.legacy_name(self.dtype)} and "
                           f"{D.legacy_name(weight.dtype)}")
    n = weight.numel()
    if n != 1:
        channels = self.shape[1] if self.dim() >= 2 else 1
        if n != channels:
            raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                               f"{n} and channel size = {channels}.")
        weight = A.reshape(weight, [1, n] + [1] * (self.dim() - 2)) if self.dim() >= 2 else weight
    elif weight.dim() == 1:  # one slope: broadcast against any input, a 0-d one included
        weight = A.reshape(weight, [1] * self.dim())
    return A._prelu_kernel(self, weight)


def rrelu(self, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = A.empty_like(self)
    return A.rrelu_with_noise(self, noise, lower, upper, training, generator)


def rrelu_(self, lower=0.125, upper=1.0 / 3, training=False, generator=None):
    if lower > upper:
        raise RuntimeError("Lower bound should be less than or equal to the upper bound")
    noise = A.empty_like(self)
    return A.rrelu_with_noise_(self, noise, lower, upper, training, generator)


KERNELS = {
    "celu": celu, "glu": glu, "hardshrink": hardshrink, "softshrink": softshrink, "hardsigmoid": hardsigmoid,
    "hardswish": hardswish, "log_sigmoid_forward": log_sigmoid_forward, "mish": mish,
    "_prelu_kernel": prelu_kernel, "rrelu_with_noise": rrelu_with_noise, "rrelu_with_noise_": rrelu_with_noise_,
    "threshold": threshold,
}
for _name in ("celu", "hardsigmoid", "hardswish", "mish", "threshold"):
    KERNELS[_name + "_"] = _inplace(KERNELS[_name], _name + "_")
KERNELS["elu_"] = _inplace(_elu, "elu_")

COMPOSITE = {"selu": selu, "selu_": selu_, "log_sigmoid": log_sigmoid, "prelu": prelu, "rrelu": rrelu, "rrelu_": rrelu_}

# Elementwise kernels (shape = the broadcast of the inputs): their Meta kernels and batching rules
# follow from that.
POINTWISE = {"celu", "hardshrink", "softshrink", "hardsigmoid", "hardswish", "mish", "_prelu_kernel", "threshold"}
