"""The derivative table of the built-in ``aten`` ops and its registration.

``FORMULAS`` maps an overload name to its :class:`~.registry.Formula`;
adding a derivative is one row in ``pointwise.py``, ``reductions.py`` or
``views.py``. :func:`register` installs, on one ``Library("aten", "IMPL")``
kept alive by ``opyard.autograd``, the generic kernel for every row whose op
is defined, the same formula for the in-place variant (``add_.Tensor`` uses
``add.Tensor``'s row), and a pass-through kernel for the ops whose outputs
are never differentiable.
"""

from ... import _core
from ...library import Library
from ..fallback import make_non_differentiable_kernel
from . import pointwise, reductions, views
from .registry import Formula, make_kernel

__all__ = ["FORMULAS", "NON_DIFFERENTIABLE", "register", "Formula", "inplace_name"]

FORMULAS = {**pointwise.FORMULAS, **reductions.FORMULAS, **views.FORMULAS}

# derivatives.yaml's `output_differentiability: [False]` rows and the
# factories: their outputs never require grad.
NON_DIFFERENTIABLE = (
    "aten::zeros_like", "aten::ones_like", "aten::empty_like", "aten::full_like",
    "aten::rand_like", "aten::randn_like", "aten::new_zeros", "aten::new_ones",
    "aten::new_empty", "aten::new_full", "aten::argmax", "aten::argmin",
    "aten::eq.Tensor", "aten::eq.Scalar", "aten::ne.Tensor", "aten::ne.Scalar",
    "aten::lt.Tensor", "aten::lt.Scalar", "aten::le.Tensor", "aten::le.Scalar",
    "aten::gt.Tensor", "aten::gt.Scalar", "aten::ge.Tensor", "aten::ge.Scalar",
    "aten::sign", "aten::floor", "aten::ceil", "aten::round", "aten::trunc",
    "aten::isnan", "aten::logical_and", "aten::logical_or", "aten::logical_not",
    "aten::detach", "aten::bernoulli", "aten::bernoulli.p",
)


def inplace_name(name):
    """``aten::add.Tensor`` -> ``aten::add_.Tensor``."""
    base, dot, overload = name.partition(".")
    return f"{base}_{dot}{overload}"


def _find(name):
    op = _core._find_op(name)
    if op is None and "." not in name:
        op = _core._find_op(name + ".default")
    return op


def register():
    """Register every derivative kernel; returns ``(library, registered, missing)``."""
    lib = Library("aten", "IMPL")
    registered, missing = [], []
    for name, formula in FORMULAS.items():
        for target in (name, inplace_name(name)):
            op = _find(target)
            if op is None:
                if target == name:
                    missing.append(name)
                continue
            lib.impl(op.name(), make_kernel(op, formula), "Autograd", with_keyset=True)
            registered.append(op.name())
    for name in NON_DIFFERENTIABLE:
        op = _find(name)
        if op is not None:
            lib.impl(op.name(), make_non_differentiable_kernel(op), "Autograd", with_keyset=True)
    return lib, registered, missing
