"""opcheck over the math, reduction, indexing and linear-algebra ops with a numpy equivalent:
schema, fake tensors (Meta kernels run on stand-ins under FakeTensorMode), autograd registration
and the in-place forms' aliasing all pass as for any built-in op."""

import pytest

import opyard
from opyard.library import opcheck

A = opyard.ops.aten
f64 = opyard.float64


def _x(*shape, grad=False):
    return opyard.randn(*shape, dtype=f64, requires_grad=grad)


def _idx(*values):
    return opyard.tensor(list(values))


CASES = {
    "atan2": lambda: (A.atan2.default, (_x(3, 3, grad=True), _x(3))),
    "xlogy": lambda: (A.xlogy.Tensor, (_x(3, grad=True), opyard.rand(3, dtype=f64) + 0.5)),
    "lerp.Tensor": lambda: (A.lerp.Tensor, (_x(2, 3, grad=True), _x(3), _x(2, 1))),
    "nansum": lambda: (A.nansum.default, (_x(2, 3, grad=True), [1])),
    "cummax": lambda: (A.cummax.default, (_x(2, 3, grad=True), 1)),
    "median.dim": lambda: (A.median.dim, (_x(2, 5, grad=True), 1)),
    "var_mean": lambda: (A.var_mean.correction, (_x(2, 3, grad=True), [1])),
    "linalg_det": lambda: (A.linalg_det.default, (_x(2, 3, 3, grad=True),)),
    "linalg_svd": lambda: (A.linalg_svd.default, (_x(4, 3, grad=True), False)),
    "linalg_solve": lambda: (A.linalg_solve.default, (_x(3, 3, grad=True), _x(3, 2))),
    "unfold": lambda: (A.unfold.default, (_x(2, 5, grad=True), 1, 2, 2)),
    "index_copy": lambda: (A.index_copy.default, (_x(3, 2, grad=True), 0, _idx(2), _x(1, 2))),
    "take_along_dim": lambda: (A.take_along_dim.default, (_x(2, 3, grad=True), _idx([0], [2]), 1)),
    "cumprod_": lambda: (A.cumprod_.default, (_x(2, 3), 1)),
    "cumsum_": lambda: (A.cumsum_.default, (_x(2, 3), 0)),
    "atan2_": lambda: (A.atan2_.default, (_x(3), _x(3))),
    "index_fill_": lambda: (A.index_fill_.int_Scalar, (_x(3, 2), 1, _idx(0), 2.0)),
    "scatter_reduce_": lambda: (A.scatter_reduce_.two, (_x(3), 0, _idx(0, 0, 2), _x(3), "amax")),
    "tril_": lambda: (A.tril_.default, (_x(3, 3),)),
    "detach_": lambda: (A.detach_.default, (_x(3),)),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_opcheck_passes(name):
    op, args = CASES[name]()
    opcheck(op, args)


def test_sort_values_out_overload_passes_opcheck():
    x = _x(2, 3)
    opcheck(A.sort.values, (x, 1), {"values": opyard.empty(0, dtype=f64),
                                    "indices": opyard.empty(0, dtype=opyard.int64)})
