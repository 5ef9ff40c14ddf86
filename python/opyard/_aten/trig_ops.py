"""Inverse and hyperbolic trigonometry, angle conversion, logit, signbit, fmax/fmin and
isposinf/isneginf: numpy ufuncs with torch's dtype rules, and their in-place forms."""

import numpy as np

from .common import INEXACT, inplace_result, out
from .pointwise import binary
from .unary import float_unary, quiet_float_unary

__all__ = ["KERNELS", "POINTWISE", "SCHEMAS"]

_UNARY = ("asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "deg2rad", "rad2deg")
SCHEMAS = tuple(f"{n}(Tensor self) -> Tensor" for n in _UNARY) + \
    tuple(f"{n}_(Tensor(a!) self) -> Tensor(a!)" for n in _UNARY) + (
    "logit(Tensor self, float? eps=None) -> Tensor",
    "logit_(Tensor(a!) self, float? eps=None) -> Tensor(a!)",
    "signbit(Tensor self) -> Tensor",
    "fmax(Tensor self, Tensor other) -> Tensor",
    "fmin(Tensor self, Tensor other) -> Tensor",
    "isposinf(Tensor self) -> Tensor",
    "isneginf(Tensor self) -> Tensor",
)

_FNS = {"asin": np.arcsin, "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
        "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh, "deg2rad": np.deg2rad,
        "rad2deg": np.rad2deg}


def _logit(x, eps):
    """``log(x / (1 - x))``, with ``eps`` of ``x`` below ``eps`` taken as ``eps`` and then above
    ``1 - eps`` as ``1 - eps`` (torch's order: with ``eps > 0.5`` the bounds cross, unlike a clip)."""
    if eps is not None:
        lo, hi = x.dtype.type(eps), x.dtype.type(1 - eps)
        x = np.where(x < lo, lo, np.where(x > hi, hi, x))
    return np.log(x / (1 - x))


def logit(self, eps=None):
    x = self._data
    if x.dtype not in INEXACT:
        from .. import _dtype as D

        x = x.astype(D.get_default_dtype().np)
    elif x.dtype.kind == "c":
        from .. import _dtype as D

        raise NotImplementedError(f"\"logit_cpu\" not implemented for '{D.legacy_name(self.dtype)}'")
    # Half and bfloat16 are computed in their own type, each operation rounded (as torch's kernel,
    # whose clamp, ``1 - x``, division and log each round to the type), not in float32 once.
    work = x.dtype
    with np.errstate(all="ignore"):
        return out(np.asarray(_logit(x.astype(work, copy=False), eps)).astype(x.dtype, copy=False), self)


def signbit(self):
    x = self._data
    return out(np.signbit(x) if x.dtype.kind != "b" else np.zeros(x.shape, bool), self)


def _inf_test(fn, name):
    def kernel(self):
        x = self._data
        return out(fn(x) if x.dtype in INEXACT else np.zeros(x.shape, bool), self)
    kernel.__name__ = name
    return kernel


def _inplace(fn, name):
    op_name = "aten::" + name

    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, op_name)
    kernel.__name__ = name
    return kernel


KERNELS = {n: (quiet_float_unary if n in ("asin", "acos", "acosh", "atanh") else float_unary)(f, n)
           for n, f in _FNS.items()}
KERNELS.update({
    "logit": logit, "signbit": signbit,
    "fmax": binary(np.fmax, "aten::fmax"), "fmin": binary(np.fmin, "aten::fmin"),
    "isposinf": _inf_test(np.isposinf, "isposinf"), "isneginf": _inf_test(np.isneginf, "isneginf"),
})
for _n in _UNARY + ("logit",):
    KERNELS[_n + "_"] = _inplace(KERNELS[_n], _n + "_")

POINTWISE = {n for n in KERNELS if not n.endswith("_")}
