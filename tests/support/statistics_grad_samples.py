"""Differentiable samples of the statistics operators (``_aten/statistics.py``) for the formula tests
(``grad_samples.py`` gathers them): nanmedian, logcumsumexp, renorm, dist and segment_reduce; the rows
whose backward refuses as torch's, and the rows without a forward formula with the reason."""

import numpy as np

import opyard

A = opyard.ops.aten
_rng = np.random.default_rng(20)


def _r(*shape):
    return opyard.tensor(_rng.standard_normal(shape), dtype=opyard.float64, requires_grad=True)


STATS_SAMPLES = {
    "aten::nanmedian": (lambda a: A.nanmedian.default(a), (_r(7),)),
    "aten::nanmedian.dim": (lambda a: A.nanmedian.dim(a, 1)[0], (_r(3, 5),)),
    "aten::logcumsumexp": (lambda a: A.logcumsumexp.default(a, 1), (_r(2, 5),)),
    "aten::renorm": (lambda a: A.renorm.default(a, 2, 0, 1.0), (_r(3, 4),)),
    "aten::dist": (lambda a, b: A.dist.default(a, b, 3), (_r(3, 4), _r(4))),
    "aten::segment_reduce": (lambda a: A.segment_reduce.default(a, "prod", lengths=opyard.tensor([2, 0, 3])),
                             (_r(5, 2),)),
}

# Rows whose backward raises torch's "not implemented" error (derivatives.yaml's not_implemented, or
# torch's NotImplemented node for an operator derivatives.yaml has no row for).
STATS_NOT_IMPLEMENTED = {
    "aten::_unique2", "aten::_unique", "aten::unique_dim", "aten::unique_consecutive", "aten::unique_dim_consecutive",
    "aten::bincount", "aten::histogram.bins_tensor", "aten::histogram.bin_ct", "aten::_histogramdd_bin_edges",
    "aten::_histogramdd_from_bin_cts", "aten::_histogramdd_from_bin_tensors", "aten::_segment_reduce_backward",
}

STATS_NO_FORWARD = {name: "torch has no derivative for it either (its node raises)" for name in STATS_NOT_IMPLEMENTED}
STATS_NO_FORWARD["aten::segment_reduce"] = "torch has no forward formula for it either (derivatives.yaml: data only)"
