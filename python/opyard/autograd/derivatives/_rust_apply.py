"""The Rust backward applies of the hottest formulas (``_core._NodeApply``).

A :class:`~.registry.Formula` names one with ``rust_apply=`` (see Note [Rust node apply] in
src/python/ag_apply.rs): it computes what the formula's ``backward`` computes, calling the same
ops, and falls back to the Python apply when grad mode is on or anything is unusual.
"""

from ... import _core
from ..._ops import ops as _ops

__all__ = ["rust_apply"]

# The Rust applies: kind -> (the saved names it reads, in order; the ops it calls).
_RUST_APPLY = {
    "sum": (("self",), lambda: (_ops.aten.expand.default,)),
    "neg": ((), lambda: (_ops.aten.neg.default,)),
    "clone": ((), lambda: ()),
    "identity": ((), lambda: ()),
    "add": (("self", "other", "alpha"), lambda: (_ops.aten.mul.Scalar,)),
    "sub": (("self", "other", "alpha"), lambda: (_ops.aten.mul.Scalar, _ops.aten.neg.default)),
    "mul": (("self", "other"), lambda: (_ops.aten.mul.Tensor, _ops.aten.mul.Scalar)),
    "mul_scalar": (("self", "other"), lambda: (_ops.aten.mul.Tensor, _ops.aten.mul.Scalar)),
}


def rust_apply(formula, save_names, fallback, saved_tensor):
    """The ``_NodeApply`` of ``formula.rust_apply`` for a node saving ``save_names``, falling
    back to the Python apply ``fallback``; ``saved_tensor`` is the ``SavedTensor`` class."""
    reads, ops = _RUST_APPLY[formula.rust_apply]
    if save_names[:len(reads)] != reads or (formula.rust_apply == "mul" and save_names != reads):
        raise ValueError(f"{formula.name}: the Rust apply {formula.rust_apply!r} reads the saved "
                         f"values {reads}, but the node saves {save_names}")
    return _core._NodeApply(formula.rust_apply, fallback, ops(), saved_tensor)
