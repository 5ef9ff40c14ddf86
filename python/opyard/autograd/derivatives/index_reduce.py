"""Derivatives of ``index_reduce`` (torch's ``index_reduce_backward``, node ``IndexReduceBackward0``):

* ``prod``: each input's gradient is the result's gradient times the product of the others. For
  ``self`` that is ``grad * result / self``, with zeros of ``self`` replaced by one in both places
  (the reduction rerun on the masked ``self``); for a source element, ``grad * result / source``
  unless it is the one zero of its slot, whose gradient is the product of the rest.
* ``mean``: the gradient divided by the number of values each slot averaged.
* ``amax``/``amin``: the gradient shared evenly among the values equal to the result.

Without ``include_self`` the indexed slots of ``self`` get no gradient."""

from ._helpers import A
from .registry import Formula as F


def _index_reduce(grads, a, n):
    g = grads[0]
    self, dim, index, source, reduce, result = a.self, a.dim, a.index, a.source, a.reduce, a.result
    include_self = a.include_self
    gs = gv = None
    if reduce == "prod":
        masked_self = A.masked_fill.Scalar(self, A.eq.Scalar(self, 0), 1)
        masked_self_result = A.index_reduce.default(masked_self, dim, index, source, reduce,
                                                    include_self=include_self)
        gs = A.div.Tensor(A.mul.Tensor(g, masked_self_result), masked_self)
        src_zero = A.eq.Scalar(source, 0)
        src_num_zeros = A.index_select.default(
            A.index_add.default(A.zeros_like.default(self), dim, index, A._to_copy.default(src_zero, dtype=self.dtype)),
            dim, index)
        src_single_zero = A.bitwise_and.Tensor(src_zero, A.eq.Scalar(src_num_zeros, 1))
        masked_src = A.masked_fill.Scalar(source, src_single_zero, 1)
        masked_src_result = A.index_reduce.default(self, dim, index, masked_src, reduce, include_self=include_self)
        gv = A.where.self(
            src_single_zero,
            A.index_select.default(A.mul.Tensor(g, masked_src_result), dim, index),
            A.div.Tensor(A.index_select.default(A.mul.Tensor(g, result), dim, index),
                         A.masked_fill.Scalar(source, src_zero, 1)))
    elif reduce == "mean":
        counts = A.ones_like.default(g) if include_self else A.zeros_like.default(g)
        counts = A.index_add.default(counts, dim, index, A.ones_like.default(source))
        counts = A.masked_fill.Scalar(counts, A.eq.Scalar(counts, 0), 1)
        gs = A.div.Tensor(g, counts)
        gv = A.div.Tensor(A.index_select.default(g, dim, index), A.index_select.default(counts, dim, index))
    else:  # amax / amin
        value = A.index_select.default(result, dim, index)
        self_is_result = A._to_copy.default(A.eq.Tensor(self, result), dtype=self.dtype)
        source_is_result = A._to_copy.default(A.eq.Tensor(source, value), dtype=self.dtype)
        shares = A.index_add.default(self_is_result, dim, index, source_is_result)
        distributed = A.div.Tensor(g, shares)
        gs = A.mul.Tensor(self_is_result, distributed)
        gv = A.mul.Tensor(source_is_result, A.index_select.default(distributed, dim, index))
    if not include_self:
        gs = A.index_fill.int_Scalar(gs, dim, index, 0)
    return (gs if n[0] else None, gv if n[1] else None)


_FORMULA = F("IndexReduceBackward0", ("self", "source"), _index_reduce, save=("self", "index", "source", "result"))
FORMULAS = {"aten::index_reduce": _FORMULA}  # index_reduce_ takes the functional form's (declared in place)

from ..._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
