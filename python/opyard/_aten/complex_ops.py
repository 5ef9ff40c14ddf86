"""``adjoint``: the conjugate transpose of the last two dimensions (``tensor.mH``), over the complex
parts and conjugation of ``complex_views``."""

from ._declare import OpTable
from .common import A

__all__ = ["OPS"]

OPS = OpTable()


@OPS.op("adjoint(Tensor(a) self) -> Tensor(a)", kind="composite")
def adjoint(self):
    """The conjugate transpose of the last two dimensions (``tensor.mH``)."""
    if self.dim() < 2:
        raise RuntimeError(f"tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                           f"{self.dim()}-D tensor.")
    return A.conj(A.transpose__int(self, -2, -1))
