"""Forward-mode formulas (jvp) of the derivative table, checked against finite differences in
float64 on the gradcheck samples, and jvp == the reverse-mode Jacobian applied to a tangent."""

import numpy as np
import pytest

import opyard
import opyard.autograd.forward_ad as fwAD
from opyard import autograd
from opyard.autograd import gradcheck
from opyard.autograd.derivatives import FORMULAS

from grad_samples import COMPOSITE_SAMPLES, INPLACE_SAMPLES, SAMPLES
from nn_grad_samples import NN_NO_FORWARD
from statistics_grad_samples import STATS_NO_FORWARD

A = opyard.ops.aten

# Rows whose forward formula torch has but opyard leaves out (the reason beside each).
NO_FORWARD = {
    "aten::heaviside": "torch has no derivative for it either (a NotImplemented node)",
    "aten::scatter.reduce": "torch has no derivative for it either (a NotImplemented node)",
    "aten::scatter.value_reduce": "torch has no derivative for it either (a NotImplemented node)",
    "aten::linalg_qr": "QR's tangent formula is not written",
    "aten::geqrf": "torch has no derivative for it either (its formula raises)",
    "aten::linalg_lu_solve": "the tangent through LU's factors (torch's linalg_lu_solve_jvp) is not written",
    "aten::linalg_householder_product": "the tangent through the reflectors is not written (the gradient is)",
    "aten::ormqr": "the tangent through the reflectors is not written (the gradient is)",
    "aten::linalg_polar": "the tangent through the SVD's factors is not written (the gradient is)",
    "aten::grid_sampler_2d": "the grid tangent (torch's grid_sampler_2d_jvp) is not written",
    "aten::grid_sampler_3d": "the grid tangent (torch's grid_sampler_3d_jvp) is not written",
    "aten::bernoulli.p": "torch has no derivative for it either (a NotImplemented node)",
    "aten::_chunk_cat": "torch has no derivative for it either (a NotImplemented node)",
    "aten::binomial": "torch has no derivative for it either (a NotImplemented node)",
    "aten::index_reduce": "torch has no forward formula for it either (forward AD refuses it)",
}
NO_FORWARD.update(NN_NO_FORWARD)
NO_FORWARD.update(STATS_NO_FORWARD)
WITH_FORWARD = sorted(op for op in SAMPLES if op in autograd._registered_ops and op not in NO_FORWARD)


def test_every_formula_has_a_forward_formula_or_a_reason():
    missing = sorted(name for name, f in FORMULAS.items() if f.forward is None)
    assert missing == sorted(NO_FORWARD)


@pytest.mark.parametrize("op", WITH_FORWARD)
def test_forward_formula_matches_finite_differences(op):
    fn, inputs = SAMPLES[op]
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, check_forward_ad=True)


@pytest.mark.parametrize("op", sorted(INPLACE_SAMPLES))
def test_forward_formula_of_inplace_variant(op):
    fn, inputs = INPLACE_SAMPLES[op]
    assert gradcheck(fn, inputs, check_forward_ad=True)


@pytest.mark.parametrize("op", sorted(COMPOSITE_SAMPLES))
def test_forward_formula_through_compositions(op):
    fn, inputs = COMPOSITE_SAMPLES[op]
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3, check_forward_ad=True)


def _jvp(fn, inputs, tangents):
    with fwAD.dual_level():
        duals = [fwAD.make_dual(x.detach(), v) for x, v in zip(inputs, tangents)]
        out = fn(*duals)
        return fwAD.unpack_dual(out).tangent


def _vjp_rows(fn, inputs):
    """The full Jacobian from reverse mode: one backward per output element."""
    out = fn(*inputs)
    rows = []
    for k in range(out.numel()):
        g = np.zeros(out.numel())
        g[k] = 1
        grads = autograd.grad(out, inputs, opyard.tensor(g.reshape(tuple(out.shape)), dtype=opyard.float64),
                              retain_graph=True, allow_unused=True)
        rows.append(np.concatenate([np.zeros(x.numel()) if gr is None else gr.numpy().reshape(-1)
                                    for x, gr in zip(inputs, grads)]))
    return np.array(rows)


REVERSE_VS_FORWARD = ["aten::prod", "aten::amax", "aten::softmax.int", "aten::var.correction", "aten::max.dim",
                      "aten::log_softmax.int", "aten::std.correction", "aten::cumprod", "aten::atan2",
                      "aten::linalg_det", "aten::linalg_solve", "aten::median.dim", "aten::aminmax"]


@pytest.mark.parametrize("op", REVERSE_VS_FORWARD)
def test_jvp_equals_reverse_jacobian_times_tangent(op):
    fn, inputs = SAMPLES[op] if op in SAMPLES else COMPOSITE_SAMPLES[op]
    rng = np.random.default_rng(1)
    tangents = [opyard.tensor(rng.standard_normal(tuple(x.shape)), dtype=opyard.float64) for x in inputs]
    jvp = _jvp(fn, inputs, tangents).numpy().reshape(-1)
    jac = _vjp_rows(fn, inputs)
    v = np.concatenate([t.numpy().reshape(-1) for t in tangents])
    np.testing.assert_allclose(jvp, jac @ v, rtol=1e-9, atol=1e-9)


def test_eigh_jvp_matches_finite_differences():
    rng = np.random.default_rng(4)
    x = opyard.tensor(rng.standard_normal((3, 3)), dtype=opyard.float64, requires_grad=True)

    def fn(a):
        w, v = A.linalg_eigh.default(a + a.mT)
        return w + (v * v).sum(0)
    assert gradcheck(fn, (x,), check_forward_ad=True)


def test_scatter_reduce_amax_jvp_names_what_is_missing():
    x = opyard.tensor([1.0, 2.0, 3.0], dtype=opyard.float64)
    with fwAD.dual_level(), pytest.raises(NotImplementedError, match="reduce='amax' is not implemented"):
        A.scatter_reduce.two(fwAD.make_dual(x, x), 0, opyard.tensor([0, 0, 2]), x, "amax")


def test_prod_jvp_is_exact_with_zeros():
    x = opyard.tensor([2.0, 0.0, 3.0], dtype=opyard.float64)
    v = opyard.tensor([1.0, 1.0, 1.0], dtype=opyard.float64)
    assert _jvp(lambda a: A.prod.default(a), [x], [v]).item() == 6.0


def test_max_dim_tangent_reads_the_selected_elements():
    x = opyard.tensor([[1.0, 5.0, 2.0], [7.0, 0.0, 3.0]], dtype=opyard.float64)
    v = opyard.tensor([[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]], dtype=opyard.float64)
    with fwAD.dual_level():
        values, indices = opyard.max(fwAD.make_dual(x, v), 1)
        assert fwAD.unpack_dual(values).tangent.tolist() == [20.0, 40.0]
        assert fwAD.unpack_dual(indices).tangent is None
