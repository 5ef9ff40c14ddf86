"""Differentiable samples of the built-in operators: per overload, a callable and float64 inputs
that exercise its derivative formula. ``test_gradcheck`` gradchecks them, ``test_forward_ad_formulas``
checks the forward-mode formulas on them and ``test_coverage`` counts them in the inventory."""

import numpy as np

import opyard

from nn_grad_samples import NN_NOT_IMPLEMENTED, NN_SAMPLES
from sampling_grad_samples import SAMPLING_INPLACE_SAMPLES, SAMPLING_NOT_IMPLEMENTED, SAMPLING_SAMPLES
from special_grad_samples import SPECIAL_INPLACE_SAMPLES, SPECIAL_NOT_IMPLEMENTED, SPECIAL_SAMPLES
from statistics_grad_samples import STATS_NOT_IMPLEMENTED, STATS_SAMPLES

A = opyard.ops.aten
rng = np.random.default_rng(0)


def r(*shape, positive=False, grad=True):
    data = rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return opyard.tensor(data, dtype=opyard.float64, requires_grad=grad)


def away_from_zero(*shape):
    data = rng.uniform(0.3, 1.0, shape) * rng.choice([-1, 1], shape)
    return opyard.tensor(data, dtype=opyard.float64, requires_grad=True)


# op overload -> (callable, inputs). Each row exercises the formula of that overload.
SAMPLES = {
    "aten::add.Tensor": (lambda a, b: A.add.Tensor(a, b, alpha=2), (r(2, 3), r(3))),
    "aten::add.Scalar": (lambda a: A.add.Scalar(a, 1.5), (r(3),)),
    "aten::sub.Tensor": (lambda a, b: A.sub.Tensor(a, b, alpha=3), (r(2, 3), r(2, 1))),
    "aten::sub.Scalar": (lambda a: A.sub.Scalar(a, 2.0), (r(3),)),
    "aten::rsub.Tensor": (lambda a, b: A.rsub.Tensor(a, b, alpha=2), (r(3), r(3))),
    "aten::rsub.Scalar": (lambda a: A.rsub.Scalar(a, 2.0, 3), (r(3),)),
    "aten::mul.Tensor": (lambda a, b: A.mul.Tensor(a, b), (r(2, 3), r(3))),
    "aten::mul.Scalar": (lambda a: A.mul.Scalar(a, -2.5), (r(3),)),
    "aten::div.Tensor": (lambda a, b: A.div.Tensor(a, b), (r(3), r(3, positive=True))),
    "aten::div.Scalar": (lambda a: A.div.Scalar(a, 4.0), (r(3),)),
    "aten::neg": (lambda a: A.neg.default(a), (r(3),)),
    "aten::pow.Tensor_Scalar": (lambda a: A.pow.Tensor_Scalar(a, 3), (r(3),)),
    "aten::pow.Tensor_Tensor": (lambda a, b: A.pow.Tensor_Tensor(a, b), (r(3, positive=True), r(3))),
    "aten::exp": (lambda a: A.exp.default(a), (r(3),)),
    "aten::log": (lambda a: A.log.default(a), (r(3, positive=True),)),
    "aten::sin": (lambda a: A.sin.default(a), (r(3),)),
    "aten::cos": (lambda a: A.cos.default(a), (r(3),)),
    "aten::tanh": (lambda a: A.tanh.default(a), (r(3),)),
    "aten::sigmoid": (lambda a: A.sigmoid.default(a), (r(3),)),
    "aten::relu": (lambda a: A.relu.default(a), (away_from_zero(4),)),
    "aten::sqrt": (lambda a: A.sqrt.default(a), (r(3, positive=True),)),
    "aten::rsqrt": (lambda a: A.rsqrt.default(a), (r(3, positive=True),)),
    "aten::abs": (lambda a: A.abs.default(a), (away_from_zero(4),)),
    "aten::reciprocal": (lambda a: A.reciprocal.default(a), (r(3, positive=True),)),
    "aten::log1p": (lambda a: A.log1p.default(a), (r(3, positive=True),)),
    "aten::expm1": (lambda a: A.expm1.default(a), (r(3),)),
    "aten::square": (lambda a: A.square.default(a), (r(3),)),
    "aten::where.self": (lambda a, b: A.where.self(opyard.tensor([True, False, True]), a, b), (r(3), r(3))),
    "aten::clamp": (lambda a: A.clamp.default(a, -0.5, 0.5), (away_from_zero(5),)),
    "aten::maximum": (lambda a, b: A.maximum.default(a, b), (r(4), r(4))),
    "aten::minimum": (lambda a, b: A.minimum.default(a, b), (r(4), r(4))),
    "aten::sum": (lambda a: A.sum.default(a), (r(2, 3),)),
    "aten::sum.dim_IntList": (lambda a: A.sum.dim_IntList(a, [1], False), (r(2, 3),)),
    "aten::mean": (lambda a: A.mean.default(a), (r(2, 3),)),
    "aten::mean.dim": (lambda a: A.mean.dim(a, [0], True), (r(2, 3),)),
    "aten::prod": (lambda a: A.prod.default(a), (r(4, positive=True),)),
    "aten::amax": (lambda a: A.amax.default(a, [1]), (r(2, 3),)),
    "aten::amin": (lambda a: A.amin.default(a, [1]), (r(2, 3),)),
    "aten::max.dim": (lambda a: A.max.dim(a, 1)[0], (r(2, 3),)),
    "aten::min.dim": (lambda a: A.min.dim(a, 0, True)[0], (r(2, 3),)),
    "aten::_softmax": (lambda a: A._softmax.default(a, 1, False), (r(2, 3),)),
    "aten::softmax.int": (lambda a: A.softmax.int(a, 1), (r(2, 3),)),
    "aten::_log_softmax": (lambda a: A._log_softmax.default(a, 1, False), (r(2, 3),)),
    "aten::log_softmax.int": (lambda a: A.log_softmax.int(a, 0), (r(2, 3),)),
    "aten::var.correction": (lambda a: A.var.correction(a, [1]), (r(2, 4),)),
    "aten::var.dim": (lambda a: A.var.dim(a, [0], True, True), (r(3, 2),)),
    "aten::std.correction": (lambda a: A.std.correction(a, [1]), (r(2, 4),)),
    "aten::std.dim": (lambda a: A.std.dim(a, [1], False, False), (r(2, 4),)),
    "aten::mm": (lambda a, b: A.mm.default(a, b), (r(2, 3), r(3, 4))),
    "aten::bmm": (lambda a, b: A.bmm.default(a, b), (r(2, 2, 3), r(2, 3, 2))),
    "aten::addmm": (lambda c, a, b: A.addmm.default(c, a, b, beta=0.5, alpha=2), (r(4), r(2, 3), r(3, 4))),
    "aten::addmv": (lambda c, a, v: A.addmv.default(c, a, v, beta=0.5, alpha=2), (r(1), r(2, 3), r(3))),
    "aten::addr": (lambda c, a, b: A.addr.default(c, a, b, beta=2, alpha=0.5), (r(2, 1), r(2), r(3))),
    "aten::addbmm": (lambda c, a, b: A.addbmm.default(c, a, b, beta=0.5, alpha=2), (r(4), r(3, 2, 5), r(3, 5, 4))),
    "aten::baddbmm": (lambda c, a, b: A.baddbmm.default(c, a, b, beta=0.5, alpha=2),
                      (r(2, 1, 4), r(2, 2, 3), r(2, 3, 4))),
    "aten::addcmul": (lambda c, a, b: A.addcmul.default(c, a, b, value=0.5), (r(2, 3), r(3), r(2, 1))),
    "aten::addcdiv": (lambda c, a, b: A.addcdiv.default(c, a, b, value=-2), (r(2, 3), r(3), r(2, 1, positive=True))),
    "aten::mv": (lambda a, v: A.mv.default(a, v), (r(2, 3), r(3))),
    "aten::dot": (lambda a, b: A.dot.default(a, b), (r(3), r(3))),
    "aten::view": (lambda a: A.view.default(a, [3, 2]), (r(2, 3),)),
    "aten::reshape": (lambda a: A.reshape.default(a, [6]), (r(2, 3),)),
    "aten::_reshape_alias": (lambda a: A._reshape_alias.default(a, [6], [1]), (r(2, 3),)),
    "aten::_unsafe_view": (lambda a: A._unsafe_view.default(a, [3, 2]), (r(2, 3),)),
    "aten::t": (lambda a: A.t.default(a), (r(2, 3),)),
    "aten::transpose.int": (lambda a: A.transpose.int(a, 0, 2), (r(2, 3, 4),)),
    "aten::permute": (lambda a: A.permute.default(a, [2, 0, 1]), (r(2, 3, 4),)),
    "aten::unsqueeze": (lambda a: A.unsqueeze.default(a, 1), (r(2, 3),)),
    "aten::squeeze": (lambda a: A.squeeze.default(a), (r(2, 1, 3),)),
    "aten::squeeze.dim": (lambda a: A.squeeze.dim(a, 1), (r(2, 1, 3),)),
    "aten::squeeze.dims": (lambda a: A.squeeze.dims(a, [1]), (r(2, 1, 3),)),
    "aten::expand": (lambda a: A.expand.default(a, [2, 3, 4]), (r(3, 1),)),
    "aten::select.int": (lambda a: A.select.int(a, 1, 2), (r(2, 4),)),
    "aten::slice.Tensor": (lambda a: A.slice.Tensor(a, 1, 1, 3), (r(2, 4),)),
    "aten::narrow": (lambda a: A.narrow.default(a, 0, 1, 2), (r(4, 2),)),
    "aten::cat": (lambda a, b: A.cat.default([a, b], 1), (r(2, 3), r(2, 2))),
    "aten::stack": (lambda a, b: A.stack.default([a, b], 1), (r(2, 3), r(2, 3))),
    "aten::clone": (lambda a: A.clone.default(a), (r(3),)),
    "aten::alias": (lambda a: A.alias.default(a), (r(3),)),
    "aten::_to_copy": (lambda a: A._to_copy.default(a, dtype=opyard.float64), (r(3),)),
    "aten::gather": (lambda a: A.gather.default(a, 1, opyard.tensor([[0, 0], [2, 1]])), (r(2, 3),)),
    "aten::index_select": (lambda a: A.index_select.default(a, 0, opyard.tensor([2, 0, 2])), (r(3, 2),)),
    "aten::index.Tensor": (lambda a: A.index.Tensor(a, [opyard.tensor([1, 1, 0])]), (r(3, 2),)),
    "aten::index_put": (lambda a, v: A.index_put.default(a, [opyard.tensor([0, 2])], v, False),
                        (r(3, 2), r(2, 2))),
    "aten::masked_fill.Scalar": (lambda a: A.masked_fill.Scalar(a, opyard.tensor([True, False, True]), 2.0),
                                 (r(3),)),
    "aten::masked_fill.Tensor": (lambda a, v: A.masked_fill.Tensor(a, opyard.tensor([True, False]), v),
                                 (r(2), r())),
    "aten::scatter.src": (lambda a, s: A.scatter.src(a, 0, opyard.tensor([[1, 0]]), s), (r(2, 2), r(1, 2))),
    "aten::scatter.value": (lambda a: A.scatter.value(a, 1, opyard.tensor([[1], [0]]), 3.0), (r(2, 2),)),
    "aten::outer": (lambda a, b: A.outer.default(a, b), (r(3), r(2))),
    "aten::max": (lambda a: A.max.default(a), (r(5),)),
    "aten::min": (lambda a: A.min.default(a), (r(5),)),
    "aten::cumsum": (lambda a: A.cumsum.default(a, 1), (r(2, 4),)),
    "aten::split.Tensor": (lambda a: A.split.Tensor(a, 2, 1)[1], (r(2, 5),)),
    "aten::chunk": (lambda a: A.chunk.default(a, 2, 0)[0], (r(3, 2),)),
    "aten::unbind.int": (lambda a: A.unbind.int(a, 1)[2], (r(2, 3),)),
    "aten::diagonal": (lambda a: A.diagonal.default(a, 1, 0, 1), (r(3, 4),)),
    "aten::div.Tensor_mode": (lambda a, b: A.div.Tensor_mode(a, b, rounding_mode=None),
                              (r(3), r(3, positive=True))),
    "aten::div.Scalar_mode": (lambda a: A.div.Scalar_mode(a, 2.0, rounding_mode="floor"), (r(3),)),
    "aten::pow.Scalar": (lambda e: A.pow.Scalar(2.0, e), (r(3),)),
    "aten::copy_": (lambda s: A.copy_.default(opyard.zeros(2, 3, dtype=opyard.float64), s), (r(3),)),
    "aten::fill_.Scalar": (lambda a: A.fill_.Scalar(a * 1, 2.0) + a, (r(3),)),
    "aten::zero_": (lambda a: A.zero_.default(a * 1) + a, (r(3),)),
    "aten::uniform_": (lambda a: A.mul.Scalar(A.uniform_.default(a * 1), 0) + a, (r(3),)),
    "aten::normal_": (lambda a: A.mul.Scalar(A.normal_.default(a * 1), 0) + a, (r(3),)),
    "aten::round": (lambda a: A.round.default(a) + a, (r(3),)),
    "aten::sign": (lambda a: A.sign.default(a) + a, (r(3),)),
    "aten::floor": (lambda a: A.floor.default(a) + a, (r(3),)),
    "aten::ceil": (lambda a: A.ceil.default(a) + a, (r(3),)),
}
# The in-place comparisons: zero gradients for self and (.Tensor) other.
for _op in ("eq", "ne", "lt", "le", "gt", "ge"):
    SAMPLES[f"aten::{_op}_.Scalar"] = (lambda a, o=_op: getattr(A, o + "_").Scalar(a * 1, 0.1) + a, (r(3),))
    SAMPLES[f"aten::{_op}_.Tensor"] = (lambda a, b, o=_op: getattr(A, o + "_").Tensor(a * 1, b) + a * b, (r(3), r(3)))

# --- activations, padding and splits (begin) ---
SAMPLES.update({
    "aten::gelu": (lambda a: A.gelu.default(a), (r(2, 3),)),
    "aten::gelu_backward": (lambda g, a: A.gelu_backward.default(g, a, approximate="tanh"), (r(2, 3), r(2, 3))),
    "aten::silu": (lambda a: A.silu.default(a), (r(2, 3),)),
    "aten::erf": (lambda a: A.erf.default(a), (r(4),)),
    "aten::exp2": (lambda a: A.exp2.default(a), (r(4),)),
    "aten::hardtanh": (lambda a: A.hardtanh.default(a, -0.5, 0.5), (away_from_zero(6),)),
    "aten::elu": (lambda a: A.elu.default(a, 1.5), (away_from_zero(6),)),
    "aten::leaky_relu": (lambda a: A.leaky_relu.default(a, 0.2), (away_from_zero(6),)),
    "aten::repeat_interleave.self_int": (lambda a: A.repeat_interleave.self_int(a, 2, 1), (r(2, 3),)),
    "aten::repeat_interleave.self_Tensor": (
        lambda a: A.repeat_interleave.self_Tensor(a, opyard.tensor([1, 0, 2]), 1), (r(2, 3),)),
    "aten::softplus": (lambda a: A.softplus.default(a, 2, 1), (away_from_zero(6),)),
    "aten::constant_pad_nd": (lambda a: A.constant_pad_nd.default(a, [1, -1, 2, 0], 3.0), (r(2, 3),)),
    "aten::split_with_sizes": (lambda a: A.split_with_sizes.default(a, [1, 3], 1)[1], (r(2, 4),)),
    "aten::split.sizes": (lambda a: A.split.sizes(a, [3, 1], 1)[0], (r(2, 4),)),
    "aten::index_add": (lambda a, s: A.index_add.default(a, 0, opyard.tensor([2, 0, 2]), s, alpha=1.5),
                        (r(3, 2), r(3, 2))),
    "aten::roll": (lambda a: A.roll.default(a, [1, -2], [0, 1]), (r(3, 4),)),
    "aten::kthvalue": (lambda a: A.kthvalue.default(a, 2, 1)[0], (r(3, 4),)),
    "aten::sort": (lambda a: A.sort.default(a, 0, True)[0], (r(4, 3),)),
    "aten::sort.stable": (lambda a: A.sort.stable(a, stable=True, dim=-1)[0], (r(3, 4),)),
    "aten::topk": (lambda a: A.topk.default(a, 2, 1)[0], (r(3, 4),)),
    "aten::fmod.Scalar": (lambda a: A.fmod.Scalar(a, 0.7), (away_from_zero(5),)),
    "aten::fmod.Tensor": (lambda a, b: A.fmod.Tensor(a, b), (away_from_zero(5), r(5, positive=True))),
    "aten::round.decimals": (lambda a: A.round.decimals(a, decimals=1) + a, (r(3),)),
    "aten::nan_to_num": (lambda a: A.nan_to_num.default(a), (r(4),)),
})
# --- activations, padding and splits (end) ---

# --- math, reductions, indexing and linear algebra with a numpy equivalent (begin) ---
def _zero_at(i, n):
    mask = np.ones(n)
    mask[i] = 0
    return opyard.tensor(mask, dtype=opyard.float64)


def _spd(x):
    return x @ x.mT + opyard.eye(x.shape[-1], dtype=opyard.float64)


def _weighted_extremes(a):
    lo, hi = A.aminmax.default(a, dim=1)
    return lo * 2 + hi


def _var_plus_mean(a):
    var, mean = A.var_mean.correction(a, [1])
    return var + mean


def _std_times_mean(a):
    std, mean = A.std_mean.dim(a, [0])
    return std * mean


SAMPLES.update({
    "aten::atan2": (lambda a, b: A.atan2.default(a, b), (r(2, 3), r(3))),
    "aten::hypot": (lambda a, b: A.hypot.default(a, b), (r(2, 3), r(3))),
    "aten::logaddexp": (lambda a, b: A.logaddexp.default(a, b), (r(2, 3), r(3))),
    "aten::copysign.Tensor": (lambda a, b: A.copysign.Tensor(a, b), (away_from_zero(2, 3), away_from_zero(3))),
    "aten::copysign.Scalar": (lambda a: A.copysign.Scalar(a, -1.0), (away_from_zero(4),)),
    "aten::sinc": (lambda a: A.sinc.default(a), (r(5),)),
    "aten::xlogy.Tensor": (lambda a, b: A.xlogy.Tensor(a, b), (r(2, 3), r(3, positive=True))),
    "aten::xlogy.Scalar_Other": (lambda a: A.xlogy.Scalar_Other(a, 3.0), (r(4),)),
    "aten::xlogy.Scalar_Self": (lambda b: A.xlogy.Scalar_Self(2.0, b), (r(4, positive=True),)),
    "aten::frac": (lambda a: A.frac.default(a), (away_from_zero(4),)),
    "aten::sgn": (lambda a: A.sgn.default(a) + a, (away_from_zero(4),)),
    "aten::trunc": (lambda a: A.trunc.default(a) + a, (away_from_zero(4),)),
    "aten::lerp.Scalar": (lambda a, b: A.lerp.Scalar(a, b, 0.3), (r(2, 3), r(3))),
    "aten::lerp.Tensor": (lambda a, b, w: A.lerp.Tensor(a, b, w), (r(2, 3), r(3), r(2, 1))),
    "aten::clamp_min": (lambda a: A.clamp_min.default(a, 0.1), (away_from_zero(5),)),
    "aten::clamp_max": (lambda a: A.clamp_max.default(a, 0.1), (away_from_zero(5),)),
    "aten::tril": (lambda a: A.tril.default(a, -1), (r(3, 4),)),
    "aten::triu": (lambda a: A.triu.default(a, 1), (r(3, 4),)),
    "aten::flip": (lambda a: A.flip.default(a, [0, 1]), (r(2, 3),)),
    "aten::prod.dim_int": (lambda a: A.prod.dim_int(a * _zero_at(1, 3), 1, True), (r(2, 3),)),
    "aten::cumprod": (lambda a: A.cumprod.default(a * _zero_at(2, 4), 1), (r(2, 4),)),
    "aten::aminmax": (_weighted_extremes, (r(2, 4),)),
    "aten::nansum": (lambda a: A.nansum.default(a, [1]), (r(2, 3),)),
    "aten::nanmean": (lambda a: A.nanmean.default(a, [0], True), (r(2, 3),)),
    "aten::median": (lambda a: A.median.default(a), (r(5),)),
    "aten::median.dim": (lambda a: A.median.dim(a, 1)[0], (r(2, 5),)),
    "aten::mode": (lambda a: A.mode.default(a, 0)[0], (r(3, 2),)),
    "aten::cummax": (lambda a: A.cummax.default(a, 1)[0], (r(2, 5),)),
    "aten::cummin": (lambda a: A.cummin.default(a, 0)[0], (r(4, 2),)),
    "aten::masked_select": (lambda a: A.masked_select.default(a, opyard.tensor([True, False, True])), (r(2, 3),)),
    "aten::as_strided": (lambda a: A.as_strided.default(a, [2, 2], [1, 2], 1), (r(6),)),
    "aten::trace": (lambda a: A.trace.default(a), (r(3, 4),)),
    "aten::linalg_cross": (lambda a, b: A.linalg_cross.default(a, b, dim=0), (r(3, 2), r(3, 2))),
    "aten::index_copy": (lambda a, s: A.index_copy.default(a, 0, opyard.tensor([2, 0]), s), (r(3, 2), r(2, 2))),
    "aten::index_fill.int_Scalar": (lambda a: A.index_fill.int_Scalar(a, 1, opyard.tensor([1]), 2.0), (r(3, 2),)),
    "aten::index_fill.int_Tensor": (lambda a, v: A.index_fill.int_Tensor(a, 0, opyard.tensor([0, 2]), v),
                                    (r(3, 2), r())),
    "aten::scatter_reduce.two": (lambda a, s: A.scatter_reduce.two(a, 0, opyard.tensor([0, 0, 2]), s, "mean",
                                                                   include_self=False), (r(3), r(3))),
    "aten::unfold": (lambda a: A.unfold.default(a, 1, 2, 1), (r(2, 4),)),
    "aten::tan": (lambda a: A.tan.default(a), (r(4),)),
    "aten::log2": (lambda a: A.log2.default(a), (r(4, positive=True),)),
    "aten::log10": (lambda a: A.log10.default(a), (r(4, positive=True),)),
    "aten::remainder.Tensor": (lambda a, b: A.remainder.Tensor(a, b), (r(2, 3), r(3, positive=True))),
    "aten::remainder.Scalar": (lambda a: A.remainder.Scalar(a, 0.7), (r(4),)),
    "aten::clamp.Tensor": (lambda a, lo, hi: A.clamp.Tensor(a, lo, hi),
                           (r(2, 3), r(3) - 1, r(2, 1) + 1)),
    "aten::clamp_min.Tensor": (lambda a, lo: A.clamp_min.Tensor(a, lo), (r(2, 3), r(3))),
    # Complex data reached from real inputs and back (gradcheck in float64 real inputs): the pairs
    # (real, imag) become complex numbers and the results their pairs again.
    "aten::view_as_complex": (lambda a: A.abs.default(A.view_as_complex.default(a)), (away_from_zero(3, 2),)),
    "aten::view_as_real": (lambda a: A.view_as_real.default(A.view_as_complex.default(a)), (r(3, 2),)),
    "aten::_conj_physical": (lambda a: A.view_as_real.default(A._conj_physical.default(A.view_as_complex.default(a))),
                             (r(3, 2),)),
    "aten::angle": (lambda a: A.angle.default(A.view_as_complex.default(a)), (away_from_zero(3, 2),)),
    "aten::clamp_max.Tensor": (lambda a, hi: A.clamp_max.Tensor(a, hi), (r(2, 3), r(2, 1))),
    "aten::max.other": (lambda a, b: A.max.other(a, b), (r(2, 3), r(3))),
    "aten::min.other": (lambda a, b: A.min.other(a, b), (r(2, 3), r(3))),
    "aten::where.ScalarOther": (lambda a: A.where.ScalarOther(opyard.tensor([True, False, True]), a, 2.0), (r(3),)),
    "aten::where.ScalarSelf": (lambda b: A.where.ScalarSelf(opyard.tensor([True, False]), 2.0, b), (r(2, 2),)),
    "aten::scatter_add": (lambda a, s: A.scatter_add.default(a, 0, opyard.tensor([[1, 0]]), s), (r(2, 2), r(1, 2))),
    "aten::movedim.int": (lambda a: A.movedim.int(a, 0, -1), (r(2, 3, 4),)),
    "aten::movedim.intlist": (lambda a: A.movedim.intlist(a, [0, 1], [-1, 0]), (r(2, 3, 4),)),
    "aten::logit": (lambda a: A.logit.default(a, 0.05), (opyard.tensor([0.2, 0.5, 0.7], dtype=opyard.float64,
                                                                        requires_grad=True),)),
    "aten::fmax": (lambda a, b: A.fmax.default(a, b), (r(2, 3), r(3))),
    "aten::fmin": (lambda a, b: A.fmin.default(a, b), (r(2, 3), r(3))),
    "aten::acosh": (lambda a: A.acosh.default(a), (r(4, positive=True) + 1,)),
    "aten::deg2rad": (lambda a: A.deg2rad.default(a), (r(4),)),
    "aten::rad2deg": (lambda a: A.rad2deg.default(a), (r(4),)),
})
for _n in ("asin", "acos", "atanh"):  # domain (-1, 1)
    SAMPLES[f"aten::{_n}"] = (getattr(A, _n).default, (away_from_zero(4) * 0.9,))
for _n in ("atan", "sinh", "cosh", "asinh"):
    SAMPLES[f"aten::{_n}"] = (getattr(A, _n).default, (r(4),))

# --- convolution, pooling, resampling and channel rearrangements ---


def _idx(*shape):
    """Valid max-pool indices: each (2, 2) output plane of a (4, 4) input."""
    return opyard.tensor(np.broadcast_to(np.array([[0, 2], [9, 15]]), shape).copy())


def _grid(*shape):
    return opyard.tensor(rng.uniform(-1.1, 1.1, shape), dtype=opyard.float64, requires_grad=True)


_CONV = ([2, 1], [1, 0], [1, 2], False, [0, 0], 2)
SAMPLES.update({
    "aten::convolution": (lambda a, w, b: A.convolution.default(a, w, b, *_CONV), (r(2, 4, 5, 4), r(6, 2, 3, 2), r(6))),
    "aten::_convolution": (lambda a, w, b: A._convolution.default(a, w, b, [2], [1], [1], True, [1], 1, False, False,
                                                                   True, True), (r(2, 3, 4), r(3, 2, 3), r(2))),
    "aten::convolution_backward": (lambda g, a, w: A.convolution_backward.default(g, a, w, [6], *_CONV,
                                                                                  [True, True, True])[0],
                                   (r(2, 6, 3, 2), r(2, 4, 5, 4), r(6, 2, 3, 2))),
    "aten::im2col": (lambda a: A.im2col.default(a, [2, 3], [1, 1], [1, 0], [2, 1]), (r(2, 3, 5, 6),)),
    "aten::col2im": (lambda a: A.col2im.default(a, [5, 6], [2, 2], [1, 1], [0, 0], [1, 1]), (r(2, 12, 20),)),
    "aten::pixel_shuffle": (lambda a: A.pixel_shuffle.default(a, 2), (r(2, 8, 3, 2),)),
    "aten::pixel_unshuffle": (lambda a: A.pixel_unshuffle.default(a, 2), (r(2, 2, 4, 6),)),
    "aten::channel_shuffle": (lambda a: A.channel_shuffle.default(a, 3), (r(2, 6, 3),)),
    "aten::max_pool2d_with_indices": (lambda a: A.max_pool2d_with_indices.default(a, [3, 2], [2, 1], [1, 1])[0],
                                      (r(2, 3, 5, 4),)),
    "aten::max_pool3d_with_indices": (lambda a: A.max_pool3d_with_indices.default(a, [2, 2, 2], [], [1, 0, 1])[0],
                                      (r(1, 2, 3, 4, 3),)),
    "aten::max_pool2d_with_indices_backward": (
        lambda g, a: A.max_pool2d_with_indices_backward.default(g, a, [2, 2], [2, 2], [0, 0], [1, 1], False,
                                                                _idx(1, 2, 2, 2)), (r(1, 2, 2, 2), r(1, 2, 4, 4))),
    "aten::max_pool3d_with_indices_backward": (
        lambda g, a: A.max_pool3d_with_indices_backward.default(g, a, [1, 2, 2], [1, 2, 2], [0, 0, 0], [1, 1, 1], False,
                                                                _idx(1, 2, 1, 2, 2)),
        (r(1, 2, 1, 2, 2), r(1, 2, 1, 4, 4))),
    "aten::avg_pool2d": (lambda a: A.avg_pool2d.default(a, [3, 2], [2, 1], [1, 1], True, False), (r(2, 3, 5, 4),)),
    "aten::avg_pool3d": (lambda a: A.avg_pool3d.default(a, [2, 2, 2], [1, 2, 1], [1, 0, 1], False, True, 3),
                         (r(1, 2, 3, 4, 3),)),
    "aten::avg_pool2d_backward": (lambda g, a: A.avg_pool2d_backward.default(g, a, [2, 2], [2, 2], [1, 0], True, False,
                                                                             None), (r(1, 2, 3, 2), r(1, 2, 4, 4))),
    "aten::avg_pool3d_backward": (lambda g, a: A.avg_pool3d_backward.default(g, a, [2, 2, 2], [2, 2, 2], [0, 0, 0],
                                                                             False, True, None),
                                  (r(1, 2, 1, 2, 2), r(1, 2, 2, 4, 4))),
    "aten::_adaptive_avg_pool2d": (lambda a: A._adaptive_avg_pool2d.default(a, [3, 2]), (r(2, 3, 5, 4),)),
    "aten::_adaptive_avg_pool3d": (lambda a: A._adaptive_avg_pool3d.default(a, [2, 3, 2]), (r(1, 2, 3, 4, 3),)),
    "aten::_adaptive_avg_pool2d_backward": (lambda g, a: A._adaptive_avg_pool2d_backward.default(g, a),
                                            (r(2, 3, 3, 2), r(2, 3, 5, 4))),
    "aten::_adaptive_avg_pool3d_backward": (lambda g, a: A._adaptive_avg_pool3d_backward.default(g, a),
                                            (r(1, 2, 2, 3, 2), r(1, 2, 3, 4, 3))),
    "aten::adaptive_max_pool2d": (lambda a: A.adaptive_max_pool2d.default(a, [3, 2])[0], (r(2, 3, 5, 4),)),
    "aten::adaptive_max_pool3d": (lambda a: A.adaptive_max_pool3d.default(a, [2, 3, 2])[0], (r(1, 2, 3, 4, 3),)),
    "aten::adaptive_max_pool2d_backward": (lambda g, a: A.adaptive_max_pool2d_backward.default(g, a, _idx(1, 2, 2, 2)),
                                           (r(1, 2, 2, 2), r(1, 2, 4, 4))),
    "aten::adaptive_max_pool3d_backward": (lambda g, a: A.adaptive_max_pool3d_backward.default(
        g, a, _idx(1, 2, 1, 2, 2)), (r(1, 2, 1, 2, 2), r(1, 2, 1, 4, 4))),
    "aten::fractional_max_pool2d": (lambda a: A.fractional_max_pool2d.default(
        a, [2, 2], [2, 3], opyard.tensor([[[0.3, 0.7]]], dtype=opyard.float64))[0], (r(1, 1, 5, 6),)),
    "aten::fractional_max_pool3d": (lambda a: A.fractional_max_pool3d.default(
        a, [2, 2, 2], [2, 2, 2], opyard.tensor([[[0.3, 0.7, 0.1]]], dtype=opyard.float64))[0], (r(1, 1, 4, 4, 5),)),
    "aten::fractional_max_pool2d_backward": (lambda g, a: A.fractional_max_pool2d_backward.default(
        g, a, [2, 2], [2, 2], _idx(1, 2, 2, 2)), (r(1, 2, 2, 2), r(1, 2, 4, 4))),
    "aten::fractional_max_pool3d_backward": (lambda g, a: A.fractional_max_pool3d_backward.default(
        g, a, [1, 2, 2], [1, 2, 2], _idx(1, 2, 1, 2, 2)), (r(1, 2, 1, 2, 2), r(1, 2, 1, 4, 4))),
    "aten::max_unpool2d": (lambda a: A.max_unpool2d.default(a, _idx(1, 2, 2, 2), [4, 4]), (r(1, 2, 2, 2),)),
    "aten::max_unpool3d": (lambda a: A.max_unpool3d.default(a, _idx(1, 2, 1, 2, 2), [1, 4, 4], [1, 2, 2], [0, 0, 0]),
                           (r(1, 2, 1, 2, 2),)),
    "aten::grid_sampler_2d": (lambda a, g: A.grid_sampler_2d.default(a, g, 0, 2, False), (r(2, 3, 4, 5), _grid(2, 3, 2, 2))),
    "aten::grid_sampler_3d": (lambda a, g: A.grid_sampler_3d.default(a, g, 0, 1, True),
                              (r(1, 2, 3, 4, 3), _grid(1, 2, 2, 3, 3))),
})
_UPSAMPLE = {  # name -> (input shape, output size, takes align_corners)
    "upsample_nearest1d": ((2, 3, 4), [7], False), "upsample_nearest2d": ((1, 2, 3, 4), [5, 3], False),
    "upsample_nearest3d": ((1, 2, 2, 3, 4), [3, 2, 5], False), "_upsample_nearest_exact1d": ((2, 3, 4), [7], False),
    "_upsample_nearest_exact2d": ((1, 2, 3, 4), [5, 3], False),
    "_upsample_nearest_exact3d": ((1, 2, 2, 3, 4), [3, 2, 5], False),
    "upsample_linear1d": ((2, 3, 4), [7], True), "upsample_bilinear2d": ((1, 2, 3, 4), [5, 3], True),
    "upsample_trilinear3d": ((1, 2, 2, 3, 4), [3, 2, 5], True), "upsample_bicubic2d": ((1, 2, 3, 4), [5, 3], True),
    "_upsample_bilinear2d_aa": ((1, 2, 5, 6), [3, 4], True), "_upsample_bicubic2d_aa": ((1, 2, 5, 6), [3, 4], True),
}
for _name, (_shape, _size, _align) in _UPSAMPLE.items():
    _extra = (False,) if _align else ()
    SAMPLES["aten::" + _name] = (lambda a, n=_name, o=_size, e=_extra: getattr(A, n).default(a, o, *e), (r(*_shape),))
    SAMPLES["aten::" + _name + "_backward"] = (
        lambda g, n=_name, o=_size, s=_shape, e=_extra: getattr(A, n + "_backward").default(g, o, list(s), *e),
        (r(*(_shape[:2] + tuple(_size))),))

# derivatives.yaml's not_implemented rows: a node that raises torch's message (tested below)
# torch's derivatives.yaml: remainder.Scalar_Tensor (``2 % x``) is not_implemented
NOT_IMPLEMENTED = {"aten::remainder.Scalar_Tensor", "aten::heaviside", "aten::heaviside_", "aten::geqrf", "aten::scatter.reduce", "aten::scatter.value_reduce",
                   "aten::scatter_.reduce", "aten::scatter_.value_reduce"} | NN_NOT_IMPLEMENTED | SPECIAL_NOT_IMPLEMENTED \
    | STATS_NOT_IMPLEMENTED | SAMPLING_NOT_IMPLEMENTED
# compositions: their gradients come from the ops they call
COMPOSITE_SAMPLES = {
    "aten::var_mean.correction": (_var_plus_mean, (r(2, 3),)),
    "aten::std_mean.dim": (_std_times_mean, (r(3, 2),)),
    "aten::kron": (lambda a, b: A.kron.default(a, b), (r(2, 3), r(2, 2))),
    "aten::matrix_power": (lambda a: A.matrix_power.default(a, -2), (r(3, 3, positive=True),)),
    "aten::take": (lambda a: A.take.default(a, opyard.tensor([[0, 5], [5, 1]])), (r(2, 3),)),
    "aten::take_along_dim": (lambda a: A.take_along_dim.default(a, opyard.tensor([[0], [2]]), 1), (r(2, 3),)),
    "aten::tensor_split.sections": (lambda a: A.tensor_split.sections(a, 2, 1)[1], (r(2, 3),)),
    "aten::cross": (lambda a, b: A.cross.default(a, b), (r(2, 3), r(2, 3))),
}

# --- math, reductions, indexing and linear algebra with a numpy equivalent (end) ---

# The linear-algebra, Fourier-transform and complex-view operators (their own module).
from grad_samples_linalg import COMPOSITE_SAMPLES as _LINALG_COMPOSITE  # noqa: E402
from grad_samples_linalg import SAMPLES as _LINALG  # noqa: E402

SAMPLES.update(_LINALG)
COMPOSITE_SAMPLES.update(_LINALG_COMPOSITE)


# In-place overloads: out-of-place name -> a call of the in-place form on a fresh non-leaf.
INPLACE_SAMPLES = {
    "aten::conj_physical_": (lambda a: A.view_as_real.default(
        A.mul.Scalar(A.view_as_complex.default(a), 1j).conj_physical_().exp()), (r(3, 2),)),
    "aten::add_.Tensor": (lambda a, b: (a * 1).add_(b), (r(3), r(3))),
    "aten::mul_.Tensor": (lambda a, b: (a * 1).mul_(b), (r(3), r(3))),
    "aten::div_.Tensor": (lambda a, b: (a * 1).div_(b), (r(3), r(3, positive=True))),
    "aten::sub_.Scalar": (lambda a: (a * 1).sub_(2.0), (r(3),)),
    "aten::exp_": (lambda a: (a * 1).exp_(), (r(3),)),
    "aten::sigmoid_": (lambda a: (a * 1).sigmoid_(), (r(3),)),
    "aten::pow_.Scalar": (lambda a: (a * 1).pow_(2), (r(3),)),
    "aten::clamp_": (lambda a: (a * 1).clamp_(-0.5, 0.5), (away_from_zero(5),)),
    "aten::masked_fill_.Scalar": (lambda a: (a * 1).masked_fill_(opyard.tensor([True, False, False]), 1.0),
                                  (r(3),)),
    "aten::index_put_": (lambda a, v: (a * 1).index_put_([opyard.tensor([1])], v), (r(3), r(1))),
    "aten::atan2_": (lambda a, b: (a * 1).atan2_(b), (r(3), r(3))),
    "aten::lerp_.Tensor": (lambda a, b, w: (a * 1).lerp_(b, w), (r(3), r(3), r(3))),
    "aten::clamp_min_": (lambda a: (a * 1).clamp_min_(0.1), (away_from_zero(5),)),
    "aten::cumprod_": (lambda a: (a * 1).cumprod_(0), (r(4),)),
    "aten::xlogy_.Tensor": (lambda a, b: (a * 1).xlogy_(b), (r(3), r(3, positive=True))),
    "aten::index_fill_.int_Scalar": (lambda a: (a * 1).index_fill_(0, opyard.tensor([1]), 0.5), (r(3),)),
    "aten::tril_": (lambda a: (a * 1).tril_(), (r(3, 3),)),
    "aten::fmod_.Scalar": (lambda a: (a * 1).fmod_(0.7), (away_from_zero(4),)),
}

# The normalization, activation, loss, dropout, distance and attention rows.
SAMPLES.update(NN_SAMPLES)
# Added after the tables above, so that their samples draw the same random values.
SAMPLES["aten::logaddexp2"] = (lambda a, b: A.logaddexp2.default(a, b), (r(2, 3), r(3)))
# The special functions, the number-representation ops and the complex parts.
SAMPLES.update(SPECIAL_SAMPLES)
INPLACE_SAMPLES.update(SPECIAL_INPLACE_SAMPLES)
# The statistics rows.
SAMPLES.update(STATS_SAMPLES)
SAMPLES.update(SAMPLING_SAMPLES)
INPLACE_SAMPLES.update(SAMPLING_INPLACE_SAMPLES)

# torch's small composites of the top-level namespace (_aten/surface_ops.py)
COMPOSITE_SAMPLES.update({
    "aten::vander": (lambda x: A.vander.default(x, 4, True), (r(3),)),
    "aten::chain_matmul": (lambda a, b, c: A.chain_matmul.default([a, b, c]), (r(2, 3), r(3, 4), r(4, 2))),
    "aten::frobenius_norm.dim": (lambda a: A.frobenius_norm.dim(a, [0, 2], True), (r(2, 3, 2),)),
    "aten::nuclear_norm": (lambda a: A.nuclear_norm.default(a), (r(3, 2),)),
    "aten::nuclear_norm.dim": (lambda a: A.nuclear_norm.dim(a, [0, 2]), (r(3, 2, 2),)),
    "aten::negative_": (lambda a: A.negative_.default(a * 1), (r(2, 3),)),
    "aten::fill_diagonal_": (lambda a: A.fill_diagonal_.default(a * 1, 2.0, True), (r(7, 3),)),
})
# slice_inverse as it is meant (torch's formula assumes it): ``self`` a slice of ``src``'s memory
SAMPLES["aten::slice_inverse"] = (lambda a: (lambda b: A.slice_inverse.default(b[:, 1:], b, 1, 1))(a * 1), (r(2, 3),))
