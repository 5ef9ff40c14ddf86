"""``_unsafe_view``: ``view``'s result as a tensor of its own (no view of ``self`` for autograd and
in-place tracking), as torch's. torch's ``reshape`` of a tensor it must copy is ``clone`` and then
``_unsafe_view`` of the copy (what ``make_fx`` records; ``matmul`` folds its batch dims back so too):
the copy has no other user, so sharing its memory is safe. The derivative is ``UnsafeViewBackward0``
(``autograd/derivatives/views.py``)."""

from ._declare import OpTable
from .common import out
from .shape import _shape_arg, _viewed

__all__ = ["OPS"]

OPS = OpTable()


@OPS.op("_unsafe_view(Tensor self, SymInt[] size) -> Tensor")
def _unsafe_view(self, size):
    x = self._data
    arr = _viewed(x, _shape_arg(size, x.size))
    if arr is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension "
            "spans across two contiguous subspaces). Use .reshape(...) instead."
        )
    return out(arr, self)
