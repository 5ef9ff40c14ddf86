"""What every opcheck test shares: its error, copying inputs, comparing results, the messages."""

import numpy as _np

from .._tensor import Tensor

__all__ = ["OpCheckError", "clone_tensors", "assert_close", "OUTPUTS_MSG", "GRADIENTS_MSG"]


class OpCheckError(Exception):
    """An ``opcheck`` test failed; the message names the test."""


def _clone_input(t):
    """A new leaf with ``t``'s data, strides and requires_grad (torch's ``clone_input``)."""
    c = t.detach().clone()
    if t.requires_grad:
        c.requires_grad_(True)
    return c


def clone_tensors(x):
    """``x`` with every tensor replaced by a :func:`_clone_input` copy."""
    if isinstance(x, Tensor):
        return _clone_input(x)
    if isinstance(x, (list, tuple)):
        return type(x)(clone_tensors(e) for e in x)
    if isinstance(x, dict):
        return {k: clone_tensors(v) for k, v in x.items()}
    return x


# torch's messages, about opyard's check: the op traced by ``opyard.fx.make_fx`` and re-run, where torch
# compiles it with AOTAutograd (``aot.py``).
OUTPUTS_MSG = (
    "Outputs of the operator are different in eager mode vs traced by opyard.fx.make_fx. This means the "
    "operator will have incorrect output in a traced graph. This could be because the operator's "
    "implementation is not traceable.")
GRADIENTS_MSG = (
    "Gradients of the operator are different in eager mode vs traced by opyard.fx.make_fx. This means the "
    "operator will have incorrect gradients in a traced graph. This could be because the operator's backward "
    "is incorrectly registered or not traceable.")



# --- comparing results (torch.testing.assert_close's defaults) --------------------------------

_TOLERANCES = {"float16": (1e-3, 1e-5), "bfloat16": (1.6e-2, 1e-5), "float32": (1.3e-6, 1e-5),
               "float64": (1e-7, 1e-7), "complex64": (1.3e-6, 1e-5), "complex128": (1e-7, 1e-7)}


def _close(a, b, rtol, atol):
    if isinstance(a, Tensor) or isinstance(b, Tensor):
        if not (isinstance(a, Tensor) and isinstance(b, Tensor)):
            return False
        if tuple(a.shape) != tuple(b.shape) or a.dtype != b.dtype:
            return False
        if rtol is None:
            rtol, atol = _TOLERANCES.get(str(a.dtype).rsplit(".", 1)[-1], (0.0, 0.0))
        return bool(_np.allclose(a.detach().numpy(), b.detach().numpy(), rtol=rtol, atol=atol))
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    return a == b


def assert_close(actual, expected, rtol, atol, msg):
    """Raise ``AssertionError(msg)`` unless ``actual`` matches ``expected`` (nested, tensors by value)."""
    if not _close(actual, expected, rtol, atol):
        raise AssertionError(msg)
