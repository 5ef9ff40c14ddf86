"""gradcheck samples of the derivative rows of the normalization, activation, loss, dropout,
distance and attention kernels: one callable and float64 inputs per overload (``test_gradcheck``
checks each row's backward and node name with them, ``test_forward_ad_formulas`` its forward
formula). Inputs a row refuses to differentiate (class weights, targets) do not require grad."""

import numpy as np

import opyard

A = opyard.ops.aten
_rng = np.random.default_rng(7)


def r(*shape, positive=False, grad=True):
    data = _rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return opyard.tensor(data, dtype=opyard.float64, requires_grad=grad)


def unit(*shape, grad=True):
    """Values in (0.1, 0.9): probabilities."""
    return opyard.tensor(_rng.uniform(0.1, 0.9, shape), dtype=opyard.float64, requires_grad=grad)


def idx(values):
    return opyard.tensor(values, dtype=opyard.int64)


def _stats(c):
    return r(c, grad=False), r(c, positive=True, grad=False)


# Constants of the samples (made once: each sample is called many times with the same ones).
_S2, _S3 = _stats(2), _stats(3)
_BCE_W = r(3, 4, grad=False).abs()
_POS_W = r(4, positive=True, grad=False)
_CLASS_W = r(4, positive=True, grad=False)
_SIGNS = opyard.sign(r(3, 4, grad=False))


def _first(fn):
    return lambda *a: fn(*a)[0]


def _group_norm_all_outputs(x, w, b):
    y, mean, rstd = A.native_group_norm.default(x, w, b, 3, 4, 5, 4, 1e-5)
    return y + (mean * rstd).unsqueeze(-1)


NN_SAMPLES = {
    # normalization
    "aten::native_batch_norm": (_first(lambda x, w, b: A.native_batch_norm.default(x, w, b, *_S2, True, 0.1, 1e-5)),
                                (r(3, 2, 4), r(2), r(2))),
    "aten::_native_batch_norm_legit": (
        _first(lambda x, w, b: A._native_batch_norm_legit.default(x, w, b, *_S2, False, 0.1, 1e-5)),
        (r(3, 2, 4), r(2), r(2))),
    "aten::_native_batch_norm_legit.no_stats": (
        _first(lambda x, w: A._native_batch_norm_legit.no_stats(x, w, None, True, 0.1, 1e-5)), (r(4, 3), r(3))),
    "aten::_native_batch_norm_legit_no_training": (
        _first(lambda x, b: A._native_batch_norm_legit_no_training.default(x, None, b, *_S3, 0.1, 1e-5)),
        (r(2, 3, 2), r(3))),
    "aten::_batch_norm_with_update": (
        _first(lambda x, w, b: A._batch_norm_with_update.default(x, w, b, *_S2, 0.1, 1e-5)),
        (r(3, 2, 2, 2), r(2), r(2))),
    "aten::_batch_norm_no_update": (
        _first(lambda x, w: A._batch_norm_no_update.default(x, w, None, *_S2, 0.1, 1e-5)), (r(3, 2), r(2))),
    "aten::native_group_norm": (_group_norm_all_outputs, (r(3, 4, 5), r(4), r(4))),
    "aten::native_layer_norm": (_first(lambda x, w, b: A.native_layer_norm.default(x, [2, 3], w, b, 1e-5)),
                                (r(4, 2, 3), r(2, 3), r(2, 3))),
    "aten::repeat": (lambda x: A.repeat.default(x, [2, 1, 3]), (r(2, 3),)),
    # activations and dropout
    "aten::celu": (lambda x: A.celu.default(x, 0.7), (r(6),)),
    "aten::glu": (lambda x: A.glu.default(x, 0), (r(4, 3),)),
    "aten::hardshrink": (lambda x: A.hardshrink.default(x, 0.3), (r(6),)),
    "aten::softshrink": (lambda x: A.softshrink.default(x, 0.3), (r(6),)),
    "aten::hardsigmoid": (lambda x: A.hardsigmoid.default(x * 4), (r(6),)),
    "aten::hardswish": (lambda x: A.hardswish.default(x * 4), (r(6),)),
    "aten::log_sigmoid_forward": (_first(lambda x: A.log_sigmoid_forward.default(x)), (r(6),)),
    "aten::mish": (lambda x: A.mish.default(x), (r(6),)),
    "aten::_prelu_kernel": (lambda x, w: A._prelu_kernel.default(x, w), (r(2, 3, 2), r(1, 3, 1))),
    "aten::rrelu_with_noise": (lambda x: A.rrelu_with_noise.default(x, opyard.zeros(6, dtype=opyard.float64), 0.1, 0.3,
                                                                  False), (r(6),)),
    "aten::threshold": (lambda x: A.threshold.default(x, 0.2, -1.0), (r(6),)),
    "aten::native_dropout": (_first(lambda x: A.native_dropout.default(x, 0.5, False)), (r(6),)),
    "aten::native_dropout_backward": (lambda g: A.native_dropout_backward.default(
        g, opyard.tensor([True, False, True, True, False, True]), 2.0), (r(6),)),
    # losses
    "aten::binary_cross_entropy": (lambda x, t: A.binary_cross_entropy.default(x, t, _BCE_W, 1),
                                   (unit(3, 4), unit(3, 4))),
    "aten::binary_cross_entropy_with_logits": (
        lambda x, t: A.binary_cross_entropy_with_logits.default(x, t, None, _POS_W, 0),
        (r(3, 4), unit(3, 4))),
    "aten::nll_loss_forward": (_first(lambda x: A.nll_loss_forward.default(
        x, idx([0, 3, 1, 3]), _CLASS_W, 1, 3)), (r(4, 4),)),
    "aten::nll_loss2d_forward": (_first(lambda x: A.nll_loss2d_forward.default(
        x, idx([[[0, 1], [2, 0]], [[1, 2], [0, 2]]]), None, 0, -100)), (r(2, 3, 2, 2),)),
    "aten::smooth_l1_loss": (lambda x, t: A.smooth_l1_loss.default(x, t, 2, 0.7), (r(3, 4), r(4))),
    "aten::huber_loss": (lambda x, t: A.huber_loss.default(x, t, 0, 0.7), (r(3, 4), r(3, 4))),
    "aten::mse_loss": (lambda x, t: A.mse_loss.default(x, t, 1), (r(3, 4), r(3, 1))),
    "aten::soft_margin_loss": (lambda x: A.soft_margin_loss.default(x, _SIGNS, 1),
                               (r(3, 4),)),
    "aten::multi_margin_loss": (lambda x: A.multi_margin_loss.default(x, idx([0, 3, 1]), 2, 0.8, _CLASS_W, 0),
                                (r(3, 4),)),
    "aten::multilabel_margin_loss_forward": (_first(lambda x: A.multilabel_margin_loss_forward.default(
        x, idx([[3, 0, 3, -1], [1, -1, 2, 2]]), 1)), (r(2, 4),)),
    # torch's ctc gradient is the gradient through a log_softmax (its exp(lp) term): checked through one
    "aten::_ctc_loss": (_first(lambda x: A._ctc_loss.default(x.log_softmax(2), idx([[1, 2], [3, 3]]), [5, 4], [2, 2])),
                        (r(5, 2, 4),)),
    "aten::_ctc_loss.Tensor": (_first(lambda x: A._ctc_loss.Tensor(x.log_softmax(2), idx([1, 2, 2]), idx([5, 3]),
                                                                    idx([2, 1]))), (r(5, 2, 4),)),
    # distances, bilinear forms, bag embeddings
    "aten::_cdist_forward": (lambda a, b: A._cdist_forward.default(a, b, 1.5, None), (r(2, 3, 4), r(5, 4))),
    "aten::_euclidean_dist": (lambda a, b: A._euclidean_dist.default(a, b), (r(3, 4), r(5, 4))),
    "aten::_pdist_forward": (lambda a: A._pdist_forward.default(a, 3.0), (r(4, 3),)),
    "aten::_trilinear": (lambda a, w, b: A._trilinear.default(a, w, b, [1, 3], [0], [1, 2], [2, 3]),
                         (r(2, 3), r(5, 3, 4), r(2, 4))),
    "aten::_embedding_bag": (_first(lambda w, p: A._embedding_bag.default(
        w, idx([1, 2, 5, 0, 2]), idx([0, 2, 2]), False, 0, False, p, False, 5)), (r(6, 3), r(5))),
    # attention and softmax internals
    "aten::_safe_softmax": (lambda x: A._safe_softmax.default(x, 1), (r(3, 4),)),
    "aten::_softmax_backward_data": (lambda g, y: A._softmax_backward_data.default(g, y, 1, opyard.float64),
                                     (r(3, 4), unit(3, 4))),
    "aten::_log_softmax_backward_data": (lambda g, y: A._log_softmax_backward_data.default(g, y, 0, opyard.float64),
                                         (r(3, 4), r(3, 4))),
    "aten::_scaled_dot_product_flash_attention_for_cpu": (
        _first(lambda q, k, v: A._scaled_dot_product_flash_attention_for_cpu.default(q, k, v, is_causal=True)),
        (r(1, 2, 3, 4), r(1, 1, 5, 4), r(1, 1, 5, 4))),
}

# derivatives.yaml's not_implemented rows (and torch's not-implemented fallback): a node whose
# backward raises torch's message (tests/nn/test_nn_family.py)
NN_NOT_IMPLEMENTED = {"aten::_embedding_bag_backward", "aten::_embedding_bag_dense_backward",
                      "aten::_embedding_bag_per_sample_weights_backward"}

# Rows torch has no forward-mode formula for either (its forward AD raises "not implemented").
NN_NO_FORWARD = {
    **{op: "torch has no derivative for it either (not_implemented)" for op in NN_NOT_IMPLEMENTED},
    "aten::_cdist_forward": "torch has no forward-mode formula for it either",
    "aten::_euclidean_dist": "torch has no forward-mode formula for it either",
    "aten::_pdist_forward": "torch has no forward-mode formula for it either",
    "aten::_embedding_bag": "torch has no forward-mode formula for it either",
    "aten::_ctc_loss": "torch has no forward-mode formula for it either",
    "aten::_ctc_loss.Tensor": "torch has no forward-mode formula for it either",
    "aten::multi_margin_loss": "torch has no forward-mode formula for it either",
    "aten::multilabel_margin_loss_forward": "torch has no forward-mode formula for it either",
    "aten::_scaled_dot_product_flash_attention_for_cpu": "torch has no forward-mode formula for it either",
}
