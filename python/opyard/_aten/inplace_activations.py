"""The in-place activations torch has as operators: ``leaky_relu_``, ``hardtanh_`` and ``silu_``
(``nn.functional``'s ``inplace=True``, ``nn.LeakyReLU(inplace=True)``, ``ReLU6``, ``SiLU``). Each
computes its functional form and writes it into ``self``; autograd takes the functional form's
derivative at the input as it was (the derivative plan pairs ``X_`` with ``X``)."""

from ._declare import OpTable
from .common import inplace_result
from .nn_ops import KERNELS as _NN
from .unary import KERNELS as _UNARY

__all__ = ["OPS"]

OPS = OpTable()


def _into_self(fn, name):
    def kernel(self, *args, **kwargs):
        return inplace_result(self, fn(self, *args, **kwargs)._data, "aten::" + name)
    kernel.__name__ = kernel.__qualname__ = name
    return kernel


OPS.op("leaky_relu_(Tensor(a!) self, Scalar negative_slope=0.01) -> Tensor(a!)")(
    _into_self(_UNARY["leaky_relu"], "leaky_relu_"))
OPS.op("hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)")(
    _into_self(_NN["hardtanh"], "hardtanh_"))
OPS.op("silu_(Tensor(a!) self) -> Tensor(a!)")(_into_self(_UNARY["silu"], "silu_"))
