"""Derivatives of the in-place comparisons (derivatives.yaml: zeros for ``self`` and for the
``.Tensor`` overloads' ``other``; nodes ``EqBackward0`` for ``eq_.Scalar``, ``EqBackward1`` for
``eq_.Tensor``, ...). The in-place logical and bitwise ops have no derivative: they leave a tensor's
history as it was, as torch's do."""

from ._helpers import A
from .registry import Formula as F

__all__ = ["FORMULAS", "NON_DIFFERENTIABLE"]


def _zero_self(grads, a, n):
    return (A.zeros_like.default(grads[0]) if n[0] else None,)


def _zero_both(grads, a, n):
    return (A.zeros_like.default(grads[0]) if n[0] else None, A.zeros_like.default(a.other) if n[1] else None)


FORMULAS = {}
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    _node = _op.capitalize() + "Backward"
    FORMULAS[f"aten::{_op}_.Scalar"] = F(_node + "0", ("self",), _zero_self)
    FORMULAS[f"aten::{_op}_.Tensor"] = F(_node + "1", ("self", "other"), _zero_both, save=("other",))

NON_DIFFERENTIABLE = (
    "aten::logical_and_", "aten::logical_or_", "aten::logical_xor_", "aten::logical_not_", "aten::bitwise_not_",
    "aten::bitwise_and_.Scalar", "aten::bitwise_or_.Scalar", "aten::bitwise_xor_.Scalar",
    "aten::bitwise_left_shift_.Tensor", "aten::bitwise_left_shift_.Tensor_Scalar",
    "aten::bitwise_right_shift_.Tensor", "aten::bitwise_right_shift_.Tensor_Scalar",
)
