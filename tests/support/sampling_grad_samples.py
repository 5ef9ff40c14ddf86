"""Differentiable samples of the samplers and the placement operators (see ``grad_samples``). A
sampler's draw is multiplied by zero and the input added, so the function is deterministic and
its gradient is the formula's zero plus the identity."""

import numpy as np

import opyard

A = opyard.ops.aten
_rng = np.random.default_rng(7)


def _r(*shape, positive=False):
    data = _rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return opyard.tensor(data, dtype=opyard.float64, requires_grad=True)


def _u(*shape):
    return opyard.tensor(_rng.uniform(0.1, 0.9, shape), dtype=opyard.float64, requires_grad=True)


def _drawn(draw):
    """``draw(a)`` times zero plus ``a``: the sampler's (zero) gradient and the identity's."""
    return lambda a: A.mul.Scalar(draw(a), 0) + a


_IDX = opyard.tensor([4, 0, 4])
_MASK = opyard.tensor([[True, False, True], [False, True, True]])
_ROWS, _COLS = opyard.tensor([[0], [1], [1]]), opyard.tensor([2, 0, 7])

SAMPLING_SAMPLES = {
    "aten::bernoulli": (_drawn(lambda a: A.bernoulli.default(a)), (_u(3),)),
    "aten::bernoulli_.float": (_drawn(lambda a: A.bernoulli_.float(a * 1, 0.5)), (_r(3),)),
    "aten::bernoulli_.Tensor": (lambda a, p: A.mul.Scalar(A.bernoulli_.Tensor(a * 1, p), 0) + (a + p),
                                (_r(3), _u(3))),
    "aten::cauchy_": (_drawn(lambda a: A.cauchy_.default(a * 1)), (_r(3),)),
    "aten::exponential_": (_drawn(lambda a: A.exponential_.default(a * 1)), (_r(3),)),
    "aten::geometric_": (_drawn(lambda a: A.geometric_.default(a * 1, 0.5)), (_r(3),)),
    "aten::log_normal_": (_drawn(lambda a: A.log_normal_.default(a * 1)), (_r(3),)),
    "aten::random_.from": (_drawn(lambda a: getattr(A.random_, "from")(a * 1, 0, 5)), (_r(3),)),
    "aten::random_.to": (_drawn(lambda a: A.random_.to(a * 1, 5)), (_r(3),)),
    "aten::random_": (_drawn(lambda a: A.random_.default(a * 1)), (_r(3),)),
    "aten::normal.Tensor_float": (_drawn(lambda a: A.normal.Tensor_float(a, 0.5)), (_r(3),)),
    "aten::normal.float_Tensor": (_drawn(lambda a: A.normal.float_Tensor(0.0, a)), (_r(3, positive=True),)),
    "aten::normal.Tensor_Tensor": (lambda m, s: A.mul.Scalar(A.normal.Tensor_Tensor(m, s), 0) + (m + s),
                                   (_r(2, 3), _r(3, positive=True))),
    "aten::poisson": (_drawn(lambda a: A.poisson.default(a)), (_r(3, positive=True),)),
    "aten::put": (lambda a, s: A.put.default(a, _IDX, s, True), (_r(2, 3), _r(3))),
    "aten::masked_scatter": (lambda a, s: A.masked_scatter.default(a, _MASK, s), (_r(2, 3), _r(6))),
    "aten::masked_scatter_backward": (lambda g: A.masked_scatter_backward.default(g, _MASK, [7]), (_r(2, 3),)),
    "aten::_unsafe_masked_index": (lambda a: A._unsafe_masked_index.default(a, _COLS < 3, [_ROWS, _COLS], 0.5),
                                   (_r(2, 3),)),
    "aten::_unsafe_masked_index_put_accumulate": (
        lambda a, v: A._unsafe_masked_index_put_accumulate.default(a, _COLS < 3, [_ROWS, _COLS], v),
        (_r(2, 3), _r(3, 3))),
    "aten::index_reduce": (lambda a, s: A.index_reduce.default(a, 0, opyard.tensor([1, 0, 1]), s, "amax"),
                           (_r(2, 3), _r(3, 3))),
}

SAMPLING_INPLACE_SAMPLES = {
    "aten::fill_.Tensor": (lambda a, v: (a * 1).fill_(v), (_r(3), _r())),
}

# A node whose backward raises torch's message (derivatives.yaml's not_implemented, or no row)
SAMPLING_NOT_IMPLEMENTED = {"aten::bernoulli.p", "aten::_chunk_cat", "aten::binomial"}
