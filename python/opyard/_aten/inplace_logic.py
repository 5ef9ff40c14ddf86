"""The in-place comparisons and logical and bitwise operators torch has as Tensor methods:
``eq_``/``ne_``/``lt_``/``le_``/``gt_``/``ge_``, ``logical_and_``/``or_``/``xor_``/``not_``,
``bitwise_not_``, ``bitwise_and_``/``or_``/``xor_`` with a number, and the in-place shifts. Each
computes its functional form and writes the result into ``self`` under torch's rules (a bool result
converted to ``self``'s dtype; a result that cannot be cast refused)."""

from ._declare import OpTable
from .common import inplace_result
from .extra_ops import KERNELS as _EXTRA
from .pointwise import KERNELS as _POINTWISE
from .unary import KERNELS as _UNARY

__all__ = ["OPS"]

OPS = OpTable()


def _into_self(fn, name):
    def kernel(self, *args):
        return inplace_result(self, fn(self, *args)._data, "aten::" + name)
    kernel.__name__ = kernel.__qualname__ = name.replace(".", "_")
    return kernel


_BINARY = "(Tensor(a!) self, Tensor other) -> Tensor(a!)"
_SCALAR = "(Tensor(a!) self, Scalar other) -> Tensor(a!)"

for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    for _over, _args in (("Tensor", _BINARY), ("Scalar", _SCALAR)):
        OPS.op(f"{_op}_.{_over}{_args}")(_into_self(_POINTWISE[f"{_op}.{_over}"], f"{_op}_.{_over}"))
for _op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
    OPS.op(f"{_op}_.Scalar{_SCALAR}")(_into_self(_POINTWISE[f"{_op}.Scalar"], f"{_op}_.Scalar"))
for _op in ("logical_and", "logical_or", "logical_xor"):
    OPS.op(f"{_op}_{_BINARY}")(_into_self(_POINTWISE[_op], _op + "_"))
OPS.op("logical_not_(Tensor(a!) self) -> Tensor(a!)")(_into_self(_UNARY["logical_not"], "logical_not_"))
OPS.op("bitwise_not_(Tensor(a!) self) -> Tensor(a!)")(_into_self(_POINTWISE["bitwise_not"], "bitwise_not_"))
for _op in ("bitwise_left_shift", "bitwise_right_shift"):
    OPS.op(f"{_op}_.Tensor{_BINARY}")(_into_self(_EXTRA[f"{_op}.Tensor"], f"{_op}_.Tensor"))
    OPS.op(f"{_op}_.Tensor_Scalar{_SCALAR}")(_into_self(_EXTRA[f"{_op}.Tensor_Scalar"], f"{_op}_.Tensor_Scalar"))
