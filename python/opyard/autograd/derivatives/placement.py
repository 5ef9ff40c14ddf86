"""Derivatives of ``fill``, ``put``, ``masked_scatter`` and the masked indexing ops (torch's
derivatives.yaml rows and node names; ``put_`` and ``masked_scatter_`` take their functional form's); ``_chunk_cat`` records a node whose backward raises, as
torch's; ``nonzero_static`` and ``hash_tensor`` never require grad."""

from ._helpers import A
from .registry import Formula as F


def _zeros_of(meta, like):
    return A.zeros.default(list(meta.shape), dtype=meta.dtype, device=like.device)


def _fill_tensor(grads, a, n):
    g = grads[0]
    return (A.zeros_like.default(g) if n[0] else None, A.sum.default(g) if n[1] else None)


def _put(grads, a, n):
    g = grads[0]
    gs = gv = None
    if n[0]:
        gs = g if a.accumulate else A.put.default(g, a.index, _zeros_of(a.source, g), False)
    if n[1]:
        gv = A.reshape.default(A.take.default(g, a.index), list(a.source.shape))
    return gs, gv


def _masked_scatter(grads, a, n):
    g = grads[0]
    gs = A.masked_fill.Scalar(g, a.mask, 0) if n[0] else None
    gv = A.masked_scatter_backward.default(g, a.mask, list(a.source.shape)) if n[1] else None
    return gs, gv


def _masked_scatter_backward(grads, a, n):
    """The gradient of ``masked_scatter_backward``: its gradient scattered back at the mask's places."""
    g = grads[0]
    return (A.masked_scatter.default(A.zeros.default(list(a.grad_output.shape), dtype=g.dtype, device=g.device),
                                     a.mask, g),)


def _unsafe_masked_index(grads, a, n):
    g = grads[0]
    return (A._unsafe_masked_index_put_accumulate.default(_zeros_of(a.self, g), a.mask, list(a.indices), g),)


def _unsafe_masked_index_put_accumulate(grads, a, n):
    g = grads[0]
    return (g if n[0] else None,
            A._unsafe_masked_index.default(g, a.mask, list(a.indices), 0) if n[1] else None)


def _fill_fw(t, a):
    z = A.zeros_like.default(a.result)
    return z if len(t) < 2 or t[1] is None else A.add.Tensor(z, t[1])


def _put_fw(t, a):
    self_t = t[0] if t[0] is not None else A.zeros_like.default(a.result)
    src_t = t[1] if t[1] is not None else _zeros_of(a.source, a.result)
    return A.put.default(self_t, a.index, src_t, a.accumulate)


def _masked_scatter_fw(t, a):
    self_t = t[0] if t[0] is not None else A.zeros_like.default(a.result)
    src_t = t[1] if t[1] is not None else _zeros_of(a.source, a.result)
    return A.masked_scatter.default(A.expand.default(self_t, list(a.result.shape)), a.mask, src_t)


def _unsafe_masked_index_fw(t, a):
    return A._unsafe_masked_index.default(t[0], a.mask, list(a.indices), 0)


def _unsafe_masked_index_put_accumulate_fw(t, a):
    self_t = t[0] if t[0] is not None else A.zeros_like.default(a.result)
    if t[1] is None:
        return self_t
    return A._unsafe_masked_index_put_accumulate.default(self_t, a.mask, list(a.indices), t[1])


def _chunk_cat(grads, a, n):
    raise RuntimeError("derivative for aten::_chunk_cat is not implemented")


FORMULAS = {
    "aten::fill_.Tensor": F("FillBackward3", ("self", "value"), _fill_tensor, forward=_fill_fw),
    "aten::put": F("PutBackward0", ("self", "source"), _put, save=("index",), forward=_put_fw),
    "aten::masked_scatter": F("MaskedScatterBackward0", ("self", "source"), _masked_scatter, save=("mask",),
                              forward=_masked_scatter_fw),
    "aten::masked_scatter_backward": F(
        "MaskedScatterBackwardBackward0", ("grad_output",), _masked_scatter_backward, save=("mask",),
        forward=lambda t, a: A.masked_scatter_backward.default(t[0], a.mask, list(a.sizes))),
    "aten::_unsafe_masked_index": F("UnsafeMaskedIndexBackward0", ("self",), _unsafe_masked_index,
                                    save=("mask", "indices"), forward=_unsafe_masked_index_fw),
    "aten::_unsafe_masked_index_put_accumulate": F(
        "UnsafeMaskedIndexPutAccumulateBackward0", ("self", "values"), _unsafe_masked_index_put_accumulate,
        save=("mask", "indices"), forward=_unsafe_masked_index_put_accumulate_fw),
    "aten::_chunk_cat": F("NotImplemented", ("tensors",), _chunk_cat),
}

# resize_ refuses a tensor that requires grad (its kernel says so, as torch's autograd kernel)
NON_DIFFERENTIABLE = ("aten::nonzero_static", "aten::hash_tensor", "aten::resize_", "aten::resize_as_")

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
