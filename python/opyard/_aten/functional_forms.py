"""The out-of-place forms of ``copy_`` and ``fill_``: ``copy(self, src)`` and ``fill(self, value)``,
what functionalization writes for those two mutations (torch's ``aten::copy`` / ``aten::fill``).

Each is a fresh copy of ``self`` written by the in-place operator, as torch's own kernels are
(``clone`` then ``copy_``/``fill_``), composed here so autograd, vmap and fake tensors follow from
the in-place operators: ``self`` gets a zero gradient, ``src``/``value`` the gradient of what they
wrote, as torch's formulas say.
"""

from ._declare import OpTable

__all__ = ["OPS"]

OPS = OpTable()


@OPS.op("copy(Tensor self, Tensor src, bool non_blocking=False) -> Tensor", kind="composite")
def copy(self, src, non_blocking=False):
    """A tensor like ``self`` holding ``src`` (broadcast to ``self``'s shape, in ``self``'s dtype)."""
    return self.clone().copy_(src, non_blocking)


@OPS.op("fill.Scalar(Tensor self, Scalar value) -> Tensor", kind="composite")
def fill_scalar(self, value):
    """A tensor like ``self`` with every element ``value``."""
    return self.clone().fill_(value)


@OPS.op("fill.Tensor(Tensor self, Tensor value) -> Tensor", kind="composite")
def fill_tensor(self, value):
    """A tensor like ``self`` with every element the 0-dim ``value``."""
    return self.clone().fill_(value)
