"""Helpers the normalization, loss and activation kernels share: the accumulate type of
reduced-precision data, torch's checks of parameter dtypes next to an input, the loss
``reduction`` enum and the dtype names of torch's "not implemented for" messages."""

import numpy as np

from .. import _dtype as D

__all__ = ["REDUCTIONS", "opmath", "opmath_dtype", "check_params", "check_floating", "reduce_loss",
           "reduction_enum", "not_implemented"]

# torch's ``at::Reduction``: the ``int reduction`` argument of the loss operators.
REDUCTIONS = {"none": 0, "mean": 1, "sum": 2}

_REDUCED = (np.dtype(np.float16), D.bfloat16.np)


def opmath_dtype(arr):
    """The numpy dtype torch computes ``arr``'s dtype in: float32 for float16 and bfloat16
    (``at::opmath_type``), the dtype itself otherwise."""
    return np.dtype(np.float32) if arr.dtype in _REDUCED else arr.dtype


def opmath(arr):
    """``arr`` in its compute dtype (see ``opmath_dtype``); no copy when it already is."""
    return arr.astype(np.float32) if arr.dtype in _REDUCED else arr


def not_implemented(kernel_name, dtype):
    """torch's ``"<kernel>" not implemented for '<Type>'`` for a dtype the kernel does not take."""
    return NotImplementedError(f"\"{kernel_name}\" not implemented for '{D.legacy_name(dtype)}'")


def check_floating(kernel_name, t):
    """The floating types (float16, bfloat16, float32, float64) a normalization kernel takes."""
    if not t.dtype.is_floating_point:
        raise not_implemented(kernel_name, t.dtype)


def check_params(input, *params):
    """The dtype of the statistics a CPU normalization kernel computes for ``input`` next to
    its parameters (``None`` entries are left out), or torch's error.

    torch's rule: parameters of the input's dtype are plain; a float32 first parameter
    next to a float16/bfloat16 input is the "mixed" case (every parameter float32, the
    statistics in float32); any other first parameter is an error."""
    defined = [p for p in params if p is not None]
    dt = input.dtype
    if not defined or defined[0].dtype is dt:
        for p in defined[1:]:
            if p.dtype is not dt:
                raise RuntimeError(f"expected scalar type {D.legacy_name(dt)} but found {D.legacy_name(p.dtype)}")
        return dt
    if any(p.dtype is not D.float32 for p in defined):
        raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
    if dt not in (D.float16, D.bfloat16):
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")
    return D.float32


def reduction_enum(reduction):
    """``'mean'`` -> 1: the ``int reduction`` of the aten loss operators, or torch's ValueError."""
    try:
        return REDUCTIONS[reduction]
    except (KeyError, TypeError):
        raise ValueError(f"{reduction} is not a valid value for reduction") from None


def reduce_loss(loss, reduction):
    """A numpy loss reduced as the ``int reduction`` asks (0 none, 1 mean, 2 sum)."""
    if reduction == 1:
        return np.asarray(loss.mean() if loss.size else np.asarray(np.nan, loss.dtype))
    if reduction == 2:
        return np.asarray(loss.sum())
    return loss
