"""Small functions of torch's top-level namespace that are no operators, or whose Python signature
is not their operator's: predicates (``is_complex``, ``is_conj``, ``is_neg``), ``typename``,
``get_device``, ``can_cast``, ``chain_matmul`` (matrices as arguments), ``range`` (with torch's
deprecation warning) and the constants ``e``, ``pi``, ``inf``, ``nan``, ``newaxis``.
"""

import math as _math
import warnings

from . import _dtype as D
from ._ops import ops as _ops
from ._tensor import Tensor

__all__ = ["is_complex", "is_conj", "is_neg", "typename", "get_device", "can_cast", "chain_matmul", "range",
           "e", "pi", "inf", "nan", "newaxis"]

_A = _ops.aten

e = _math.e
pi = _math.pi
inf = _math.inf
nan = _math.nan
newaxis = None


def _tensor_arg(api, obj, name="input"):
    if not isinstance(obj, Tensor):
        raise TypeError(f"{api}(): argument '{name}' (position 1) must be Tensor, not {type(obj).__name__}")
    return obj


def is_complex(input):
    """Whether ``input``'s dtype is complex."""
    return _tensor_arg("is_complex", input).is_complex()


def is_conj(input):
    """Whether ``input``'s conjugate bit is set (opyard conjugates eagerly: never)."""
    return _tensor_arg("is_conj", input).is_conj()


def is_neg(input):
    """Whether ``input``'s negative bit is set (opyard negates eagerly: never)."""
    return _tensor_arg("is_neg", input).is_neg()


def typename(obj):
    """torch's name of ``obj``'s type: a tensor's ``type()`` (``opyard.FloatTensor``), else the
    object's module (unless builtins) and qualified name."""
    if isinstance(obj, Tensor):
        return obj.type()
    module = getattr(obj, "__module__", None)
    prefix = module + "." if module not in (None, "builtins", "__builtin__") else ""
    name = getattr(obj, "__qualname__", None) or getattr(obj, "__name__", None) or type(obj).__name__
    return prefix + name


def get_device(input):
    """The device index of ``input``: -1 for CPU (and meta) tensors, as torch."""
    return _tensor_arg("get_device", input).get_device()


def can_cast(from_, to):
    """Whether torch's casting rules allow ``from_`` to ``to`` (no lower category: bool < integer <
    floating < complex)."""
    for name, dt in (("from_", from_), ("to", to)):
        if not isinstance(dt, D.dtype):
            pos = 1 if name == "from_" else 2
            raise TypeError(f"can_cast(): argument '{name}' (position {pos}) must be opyard.dtype, not "
                            f"{type(dt).__name__}")
    return _category(from_) <= _category(to)


def _category(dt):
    if dt.is_complex:
        return 3
    if dt.is_floating_point:
        return 2
    return 0 if dt is D.bool else 1


def chain_matmul(*matrices, out=None):
    """The product of the matrices in the order given (torch's deprecated form of ``linalg.multi_dot``)."""
    if len(matrices) == 1 and isinstance(matrices[0], (list, tuple)):
        matrices = tuple(matrices[0])
    if out is not None:
        return _A.chain_matmul.out(list(matrices), out=out)
    return _A.chain_matmul(list(matrices))


def range(start, end, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """``start, start + step, ...`` up to and including ``end`` (deprecated, as torch: use ``arange``)."""
    warnings.warn("opyard.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use opyard.arange, which produces values in "
                  "[start, end).", UserWarning, stacklevel=2)
    r = _A.range.step(start, end, step, dtype=dtype, device=device)
    if out is not None:
        return out.resize_(list(r.shape)).copy_(r)
    return r.requires_grad_() if requires_grad else r
