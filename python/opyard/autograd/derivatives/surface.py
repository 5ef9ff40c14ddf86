"""Derivatives of the small operators of torch's namespace (``_aten/surface_ops.py``) that are not
composites: ``slice_inverse`` (derivatives.yaml's row: the gradient's slice for ``self``, the
gradient with that slice zeroed for ``src``)."""

from ._helpers import A
from .registry import Formula as F


def _slice_inverse(grads, a, n):
    g = grads[0]
    return (A.slice.Tensor(g, a.dim, a.start, a.end, a.step) if n[0] else None,
            A.slice_scatter.default(g, A.zeros_like.default(a.self), a.dim, a.start, a.end, a.step) if n[1] else None)


def _slice_inverse_tangent(t, a):
    """auto_linear: the same call on the tangents (a missing tangent is zeros)."""
    ts = t[0] if t[0] is not None else A.zeros_like.default(a.self)
    tsrc = t[1] if t[1] is not None else A.zeros_like.default(a.src)
    return A.slice_inverse.default(ts, tsrc, a.dim, a.start, a.end, a.step)


FORMULAS = {
    "aten::slice_inverse": F("SliceInverseBackward0", ("self", "src"), _slice_inverse,
                             save=("self",), forward=_slice_inverse_tangent),
}

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
