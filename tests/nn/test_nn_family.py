"""The normalization, activation, loss, dropout, distance and attention operators beyond their
values (those are checked against torch in ``test_nn_family_torch.py`` and the conformance
replay): second derivatives, fake tensors, vmap (batching rules, randomness, torch's refusals),
in-place forms, running statistics, reduced precision and the errors opyard raises itself."""

import math

import numpy as np
import pytest

import opyard
from opyard.autograd import gradcheck, gradgradcheck
from opyard.fake import FakeTensorMode

F = opyard.nn.functional
A = opyard.ops.aten
f64 = opyard.float64
rng = np.random.default_rng(11)


def r(*shape, grad=True, positive=False, dtype=f64):
    data = rng.standard_normal(shape)
    if positive:
        data = np.abs(data) + 0.5
    return opyard.tensor(data, dtype=dtype, requires_grad=grad)


def unit(*shape, grad=True):
    return opyard.tensor(rng.uniform(0.1, 0.9, shape), dtype=f64, requires_grad=grad)


def idx(values):
    return opyard.tensor(values, dtype=opyard.int64)


# --- second derivatives -----------------------------------------------------------------------

_W4 = r(4, grad=False, positive=True)
_TARGETS = idx([0, 3, 1])

SECOND_ORDER = {
    "batch_norm train": (lambda x, w, b: F.batch_norm(x, None, None, w, b, training=True), (r(4, 3, 2), r(3), r(3))),
    "batch_norm eval": (lambda x, w: F.batch_norm(x, opyard.zeros(3, dtype=f64), opyard.ones(3, dtype=f64), w),
                        (r(4, 3), r(3))),
    "group_norm with its statistics": (
        lambda x, w: (lambda o: o[0] + (o[1] * o[2]).unsqueeze(-1))(A.native_group_norm(x, w, None, 2, 4, 3, 4, 1e-5)),
        (r(2, 4, 3), r(4))),
    "layer_norm": (lambda x, w, b: F.layer_norm(x, [3], w, b), (r(2, 3), r(3), r(3))),
    "rms_norm": (lambda x, w: F.rms_norm(x, [3], w), (r(2, 3), r(3))),
    "cross_entropy smoothed": (lambda x: F.cross_entropy(x, _TARGETS, weight=_W4, label_smoothing=0.2), (r(3, 4),)),
    "cross_entropy probabilities": (lambda x, p: F.cross_entropy(x, p), (r(3, 4), unit(3, 4))),
    "nll_loss 4-d": (lambda x: F.nll_loss(x, idx([[[0, 1]], [[2, 0]]]), ignore_index=2), (r(2, 3, 1, 2),)),
    "binary_cross_entropy": (lambda x, t: F.binary_cross_entropy(x, t), (unit(3, 2), unit(3, 2))),
    "binary_cross_entropy_with_logits": (lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=_W4[:2]),
                                         (r(3, 2), unit(3, 2))),
    "smooth_l1_loss": (lambda x, t: F.smooth_l1_loss(x, t, beta=2.0), (r(3, 2), r(3, 2))),
    "huber_loss": (lambda x, t: F.huber_loss(x, t, delta=2.0), (r(3, 2), r(3, 2))),
    "soft_margin_loss": (lambda x: F.soft_margin_loss(x, opyard.tensor([1.0, -1.0, 1.0], dtype=f64)), (r(3),)),
    "multi_margin_loss": (lambda x: F.multi_margin_loss(x, _TARGETS, p=2, margin=3.0), (r(3, 4),)),
    "multilabel_margin_loss": (lambda x: F.multilabel_margin_loss(x, idx([[3, 0, -1, 1], [1, -1, 0, 0]]) * 1),
                               (r(2, 4) * 0.1,)),
    "kl_div": (lambda x, t: F.kl_div(x, t, reduction="batchmean", log_target=True), (r(3, 4), r(3, 4))),
    "cosine_embedding_loss": (lambda a, b: F.cosine_embedding_loss(a, b, opyard.tensor([1.0, -1.0], dtype=f64)),
                              (r(2, 3), r(2, 3))),
    "cdist p=1.5": (lambda a, b: opyard.cdist(a, b, 1.5), (r(3, 2), r(4, 2))),
    "cdist mm": (lambda a, b: opyard.cdist(a, b, compute_mode="use_mm_for_euclid_dist"), (r(3, 2), r(4, 2))),
    "pdist p=3": (lambda a: F.pdist(a, 3.0), (r(4, 2),)),
    "cosine_similarity": (lambda a, b: F.cosine_similarity(a, b), (r(3, 4), r(3, 4))),
    "bilinear": (lambda a, b, w: F.bilinear(a, b, w), (r(2, 3), r(2, 2), r(4, 3, 2))),
    "_safe_softmax": (lambda x: A._safe_softmax(x, 0), (r(3, 2),)),
    "_softmax_backward_data": (lambda g, y: A._softmax_backward_data(g, y, 1, f64), (r(2, 3), unit(2, 3))),
    "_log_softmax_backward_data": (lambda g, y: A._log_softmax_backward_data(g, y, 1, f64), (r(2, 3), r(2, 3))),
    "celu": (lambda x: F.celu(x, 0.5), (r(5),)), "mish": (lambda x: F.mish(x), (r(5),)),
    "glu": (lambda x: F.glu(x, 0), (r(4, 2),)), "prelu": (lambda x, w: F.prelu(x, w), (r(2, 3), r(3))),
    "logsigmoid": (lambda x: F.logsigmoid(x), (r(5),)), "softsign": (lambda x: F.softsign(x), (r(5),)),
    "sdpa math path": (lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True),
                       (r(2, 3, 4), r(2, 3, 4), r(2, 3, 2))),
    "repeat": (lambda x: x.repeat(2, 3), (r(2, 2),)),
}


@pytest.mark.parametrize("name", sorted(SECOND_ORDER))
def test_second_derivative(name):
    fn, inputs = SECOND_ORDER[name]
    inputs = tuple(x.detach().requires_grad_() for x in inputs)
    assert gradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)
    assert gradgradcheck(fn, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)


def test_fused_attention_gradient_matches_the_math_path():
    q, k, v = r(1, 2, 3, 4), r(1, 1, 5, 4), r(1, 1, 5, 4)
    mask = r(3, 5, grad=False)
    fused = A._scaled_dot_product_flash_attention_for_cpu(q, k, v, attn_mask=mask, scale=0.4)[0]
    assert fused.grad_fn.name() == "ScaledDotProductFlashAttentionForCpuBackward0"
    kr, vr = k.expand(1, 2, 5, 4), v.expand(1, 2, 5, 4)
    math_out = opyard.softmax(q @ kr.transpose(-1, -2) * 0.4 + mask, -1) @ vr
    np.testing.assert_allclose(fused.detach().numpy(), math_out.detach().numpy(), rtol=1e-12, atol=1e-12)
    g = r(1, 2, 3, 4, grad=False)
    got = opyard.autograd.grad((fused * g).sum(), [q, k, v])
    want = opyard.autograd.grad((math_out * g).sum(), [q, k, v])
    for a, b in zip(got, want):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("mode", ["sum", "mean", "max"])
def test_embedding_bag_gradient_and_its_refused_second_derivative(mode):
    # the gradient comes from _embedding_bag_backward, whose derivative torch does not implement;
    # the per-sample weights' from _embedding_bag_per_sample_weights_backward (no derivative either)
    indices, offsets = idx([0, 2, 2, 1, 5, 2]), idx([0, 1, 1, 4])
    psw = r(6) if mode == "sum" else None
    inputs = (r(6, 3),) + ((psw,) if psw is not None else ())

    def fn(w, p=None):
        return F.embedding_bag(indices, w, offsets, mode=mode, per_sample_weights=p, padding_idx=5)
    assert gradcheck(fn, inputs)
    out = fn(*inputs)
    grads = opyard.autograd.grad((out * out).sum(), inputs, create_graph=True)
    assert grads[0].grad_fn.name() == "EmbeddingBagBackwardBackward0"
    with pytest.raises(NotImplementedError, match="the derivative for '_embedding_bag_backward' is not implemented."):
        grads[0].sum().backward()
    if psw is not None:
        assert grads[1].grad_fn.name() == "NotImplemented"
        with pytest.raises(RuntimeError, match="derivative for aten::_embedding_bag_per_sample_weights_backward is "
                                               "not implemented"):
            grads[1].sum().backward()


def test_embedding_bag_dense_backward_kernel():
    # sum with scale_grad_by_freq: each row's gradient over its index's count
    g = opyard.tensor([[1.0, 2.0], [10.0, 20.0]], dtype=f64)
    got = A._embedding_bag_dense_backward(g, idx([1, 1, 3, 1]), idx([0, 0, 1, 1]), idx([2, 2]), idx([0, 0]), 4,
                                          True, 0, None)
    np.testing.assert_allclose(got.numpy(), [[0, 0], [4, 8], [0, 0], [10, 20]])
    # max: each bag's gradient to its maximal row per feature; an empty bag (size 0) gives nothing
    got = A._embedding_bag_dense_backward(g, idx([1, 3]), idx([0, 0]), idx([2, 0]), idx([[1, 3], [2, 2]]), 4,
                                          False, 2, None)
    np.testing.assert_allclose(got.numpy(), [[0, 0], [1, 0], [0, 0], [0, 2]])
    # the sum's offset2bag left empty by the forward is rebuilt from the offsets
    got = A._embedding_bag_backward(g, idx([0, 2, 2]), idx([0, 1]), idx([]), idx([0, 0]), idx([0, 0]), 3,
                                    False, 0, False, None)
    np.testing.assert_allclose(got.numpy(), [[1, 2], [0, 0], [20, 40]])
    with pytest.raises(RuntimeError, match="per_sample_weights only supported for mode='sum'"):
        A._embedding_bag_per_sample_weights_backward(g, r(3, 2), idx([0, 2, 2]), idx([0, 1]), idx([0, 1, 1]), 1)


def test_ctc_gradient_is_torchs_gradient_through_log_softmax():
    # torch's ctc gradient w.r.t. log_probs has an exp(log_probs) term that vanishes through a
    # log_softmax: gradcheck holds for the composition, not for the bare op.
    x = r(5, 2, 4)
    fn = lambda x: F.ctc_loss(x.log_softmax(2), idx([[1, 2], [3, 3]]), [5, 4], [2, 2], reduction="sum")  # noqa: E731
    assert gradcheck(fn, (x,))
    with pytest.raises(opyard.autograd.GradcheckError):
        gradcheck(lambda lp: F.ctc_loss(lp, idx([[1, 2], [3, 3]]), [5, 4], [2, 2], reduction="sum"),
                  (x.detach().log_softmax(2).requires_grad_(),))


# --- node names -------------------------------------------------------------------------------


@pytest.mark.parametrize("call, node", [
    (lambda x: F.batch_norm(x, None, None, training=True), "NativeBatchNormBackward0"),
    (lambda x: F.group_norm(x, 1), "NativeGroupNormBackward0"),
    (lambda x: F.layer_norm(x, [4]), "NativeLayerNormBackward0"),
    (lambda x: F.instance_norm(x), "ViewBackward0"),
    (lambda x: F.cross_entropy(x.reshape(3, 8), idx([0, 1, 2])), "NllLossBackward0"),
    (lambda x: F.nll_loss(x, idx([[0, 1, 0, 1]] * 3)), "NllLoss2DBackward0"),
    (lambda x: F.celu(x), "CeluBackward0"),
    (lambda x: F.selu(x), "EluBackward0"),
    (lambda x: F.logsigmoid(x), "LogSigmoidBackward0"),
    (lambda x: F.prelu(x, opyard.ones(1, dtype=f64)), "PreluKernelBackward0"),
    (lambda x: F.hardswish(x), "HardswishBackward0"),
    (lambda x: F.binary_cross_entropy_with_logits(x, x.detach()), "BinaryCrossEntropyWithLogitsBackward0"),
    (lambda x: opyard.cdist(x[0], x[1]), "CdistBackward0"),
    (lambda x: F.pdist(x[0]), "PdistBackward0"),
    (lambda x: F.scaled_dot_product_attention(x, x, x), "SqueezeBackward1"),
])
def test_node_names_are_torchs(call, node):
    assert call(r(3, 2, 4)).grad_fn.name() == node


def test_non_differentiable_arguments_are_refused_as_in_torch():
    w = r(4, positive=True)
    with pytest.raises(RuntimeError, match="The function 'nll_loss_forward' is not differentiable with respect to "
                                           "argument 'weight'. This input cannot have requires_grad True."):
        F.cross_entropy(r(3, 4), _TARGETS, weight=w)
    with pytest.raises(RuntimeError, match="'binary_cross_entropy' is not differentiable with respect to argument "
                                           "'weight'"):
        F.binary_cross_entropy(unit(3, 4), unit(3, 4, grad=False), w)
    with opyard.no_grad():  # below autograd nothing is refused
        assert F.cross_entropy(r(3, 4), _TARGETS, weight=w).shape == ()


# --- running statistics, in-place forms, reduced precision --------------------------------------


def test_batch_norm_updates_running_statistics_only_in_training():
    x = r(5, 3, 2, grad=False)
    rm, rv = opyard.zeros(3, dtype=f64), opyard.ones(3, dtype=f64)
    F.batch_norm(x, rm, rv, training=True, momentum=0.25)
    data = x.numpy()
    mean = data.mean(axis=(0, 2))
    var = data.var(axis=(0, 2), ddof=1)
    np.testing.assert_allclose(rm.numpy(), 0.25 * mean, rtol=1e-12)
    np.testing.assert_allclose(rv.numpy(), 0.75 + 0.25 * var, rtol=1e-12)
    before = (rm.clone(), rv.clone(), rm._version)
    F.batch_norm(x, rm, rv, training=False)
    np.testing.assert_array_equal(rm.numpy(), before[0].numpy())
    np.testing.assert_array_equal(rv.numpy(), before[1].numpy())
    assert rm._version == before[2]


def test_instance_norm_running_statistics_are_the_batch_mean():
    x = r(4, 2, 6, grad=False)
    rm, rv = opyard.zeros(2, dtype=f64), opyard.ones(2, dtype=f64)
    F.instance_norm(x, rm, rv, momentum=1.0)
    np.testing.assert_allclose(rm.numpy(), x.numpy().mean(axis=(0, 2)), rtol=1e-12)


@pytest.mark.parametrize("name, call", [
    ("celu", lambda x: F.celu(x, 0.5, inplace=True)), ("selu", lambda x: F.selu(x, inplace=True)),
    ("hardsigmoid", lambda x: F.hardsigmoid(x, inplace=True)), ("hardswish", lambda x: F.hardswish(x, inplace=True)),
    ("mish", lambda x: F.mish(x, inplace=True)), ("threshold", lambda x: F.threshold(x, 0.1, 2.0, inplace=True)),
    ("rrelu", lambda x: F.rrelu(x, inplace=True)), ("dropout", lambda x: F.dropout(x, 0.5, False, inplace=True)),
    ("alpha_dropout", lambda x: F.alpha_dropout(x, 0.0, True, inplace=True)),
])
def test_inplace_forms_write_into_their_input(name, call):
    x = r(6, grad=False)
    expected = {"celu": lambda t: F.celu(t, 0.5), "selu": F.selu, "hardsigmoid": F.hardsigmoid,
                "hardswish": F.hardswish, "mish": F.mish}.get(name)
    want = expected(x.clone()) if expected else None
    assert call(x) is x
    if want is not None:
        np.testing.assert_allclose(x.numpy(), want.numpy())


def test_reduced_precision_is_computed_in_float32_and_rounded_once():
    x = r(4, 3, 8, grad=False, dtype=opyard.float32) * 40
    for fn in (lambda t: F.layer_norm(t, [8]), lambda t: F.group_norm(t, 3), lambda t: F.mish(t),
               lambda t: F.hardswish(t), lambda t: F.rms_norm(t, [8])):
        got = fn(x.to(opyard.bfloat16))
        want = fn(x.to(opyard.bfloat16).float()).to(opyard.bfloat16)
        assert got.dtype is opyard.bfloat16
        np.testing.assert_array_equal(got.float().numpy(), want.float().numpy())


@pytest.mark.parametrize("reduction", ["sum", "mean"])
def test_bfloat16_loss_reductions_accumulate_in_float32(reduction):
    # the losses reduce with sum/mean, which torch accumulates in float32 for bfloat16 (rounded once)
    x = (r(64, grad=False, dtype=opyard.float32) * 30).to(opyard.bfloat16)
    y = (r(64, grad=False, dtype=opyard.float32) * 30).to(opyard.bfloat16)
    got = F.l1_loss(x, y, reduction=reduction)
    want = getattr(opyard, reduction)((x - y).abs().float()).to(opyard.bfloat16)  # elementwise in bfloat16
    assert got.item() == want.item()
    rows = getattr(opyard, reduction)(x.reshape(8, 8), 1)
    want_rows = getattr(opyard, reduction)(x.float().reshape(8, 8), 1).to(opyard.bfloat16)
    np.testing.assert_array_equal(rows.float().numpy(), want_rows.float().numpy())


# --- fake tensors -----------------------------------------------------------------------------


@pytest.mark.parametrize("name, call, shapes", [
    ("batch_norm", lambda x: F.batch_norm(x, None, None, training=True), [(4, 3, 5)]),
    ("group_norm stats", lambda x: A.native_group_norm(x, None, None, 4, 3, 5, 3, 1e-5), [(4, 3, 5), (4, 3), (4, 3)]),
    ("layer_norm stats", lambda x: A.native_layer_norm(x, [5], None, None, 1e-5), [(4, 3, 5), (4, 3, 1), (4, 3, 1)]),
    ("cross_entropy", lambda x: F.cross_entropy(x, opyard.zeros(4, 5, dtype=opyard.int64, device=x.device),
                                                reduction="none"), [(4, 5)]),
    ("ctc_loss", lambda x: F.ctc_loss(x.log_softmax(2), opyard.ones(3, 2, dtype=opyard.int64, device=x.device),
                                      [4, 4, 3], [2, 1, 2], reduction="none"), [(3,)]),
    ("cdist", lambda x: opyard.cdist(x, x[0]), [(4, 3, 3)]),
    ("embedding_bag", lambda x: F.embedding_bag(opyard.zeros(6, dtype=opyard.int64, device=x.device), x[0],
                                                opyard.zeros(2, dtype=opyard.int64, device=x.device)), [(2, 5)]),
    ("fused attention", lambda x: A._scaled_dot_product_flash_attention_for_cpu(x[None], x[None], x[None]),
     [(1, 4, 3, 5), (1, 4, 3)]),
    ("multi-head attention", lambda x: F.multi_head_attention_forward(
        x, x, x, 5, 1, opyard.zeros(15, 5, device=x.device), None, None, None, False, 0.0,
        opyard.zeros(5, 5, device=x.device), None), [(4, 3, 5), (3, 4, 4)]),
])
def test_fake_tensors_give_the_shapes(name, call, shapes):
    with FakeTensorMode() as mode:
        x = mode.from_tensor(opyard.randn(4, 3, 5))
        out = call(x)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    assert [tuple(o.shape) for o in outs] == shapes


# --- vmap -------------------------------------------------------------------------------------


def test_batched_batch_norm_normalizes_each_example_with_its_own_statistics():
    xs = r(3, 4, 2, 5, grad=False)
    rms, rvs = opyard.zeros(3, 2, dtype=f64), opyard.ones(3, 2, dtype=f64)
    out = opyard.vmap(lambda x, rm, rv: F.batch_norm(x, rm, rv, training=True, momentum=0.5))(xs, rms, rvs)
    for i in range(3):
        rm, rv = opyard.zeros(2, dtype=f64), opyard.ones(2, dtype=f64)
        one = F.batch_norm(xs[i], rm, rv, training=True, momentum=0.5)
        np.testing.assert_allclose(out[i].numpy(), one.numpy(), rtol=1e-12)
        np.testing.assert_allclose(rms[i].numpy(), rm.numpy(), rtol=1e-12)
        np.testing.assert_allclose(rvs[i].numpy(), rv.numpy(), rtol=1e-12)


@pytest.mark.parametrize("call", [
    lambda x: F.group_norm(x, 2, opyard.ones(4, dtype=f64)), lambda x: F.layer_norm(x, [4, 3]),
    lambda x: F.batch_norm(x, opyard.zeros(4, dtype=f64), opyard.ones(4, dtype=f64)),
])
def test_batched_norms_equal_the_per_example_calls(call):
    xs = r(3, 2, 4, 3, grad=False)
    out = opyard.vmap(call)(xs)
    for i in range(3):
        np.testing.assert_allclose(out[i].numpy(), call(xs[i]).numpy(), rtol=1e-12, atol=1e-12)


def test_vmap_refusals_are_torchs():
    xs = r(2, 3, 4, grad=False)
    rm, rv = opyard.zeros(4, dtype=f64), opyard.ones(4, dtype=f64)
    with pytest.raises(RuntimeError, match="Batch norm got a batched tensor as input while the running_mean or "
                                           "running_var, which will be updated in place, were not batched"):
        opyard.vmap(lambda x: F.batch_norm(x, rm, rv, training=True))(xs)
    with pytest.raises(RuntimeError, match="vmap: we do not yet support aten::rrelu. Please file an issue"):
        opyard.vmap(F.rrelu)(xs)
    with pytest.raises(RuntimeError, match="Batching rule not implemented for aten::_batch_norm_with_update"):
        opyard.vmap(lambda x: A._batch_norm_with_update(x, None, None, rm, rv, 0.1, 1e-5))(xs)
    with pytest.raises(RuntimeError, match="called random operation while in randomness error mode"):
        opyard.vmap(lambda x: F.dropout(x, 0.5))(xs)


def test_dropout_under_vmap_follows_the_randomness_mode():
    xs = opyard.ones(4, 50, dtype=f64)
    same = opyard.vmap(lambda x: F.alpha_dropout(x, 0.5, True), randomness="same")(xs).numpy()
    assert (same == same[0]).all()
    different = opyard.vmap(lambda x: F.dropout(x, 0.5), randomness="different")(xs).numpy()
    assert not (different == different[0]).all()
    out, mask = opyard.vmap(lambda x: opyard.native_dropout(x, 0.5, True), randomness="same")(xs)
    assert (mask.numpy() == mask.numpy()[0]).all()
    np.testing.assert_array_equal(out.numpy()[0], mask.numpy()[0] * 2.0)


# --- errors opyard raises itself --------------------------------------------------------------


@pytest.mark.parametrize("call, exc, message", [
    (lambda: F.ctc_loss(opyard.randn(3, 1, 4, device="meta"), opyard.ones(1, 2, dtype=opyard.int64, device="meta"),
                        opyard.ones(1, dtype=opyard.int64, device="meta"),
                        opyard.ones(1, dtype=opyard.int64, device="meta")),
     NotImplementedError, "aten::ctc_loss.Tensor: the result depends on the input data"),
    (lambda: A._embedding_bag(opyard.randn(3, 2), idx([0, 1, 2]), idx([0, 2, 1])), RuntimeError,
     "offsets must be non-decreasing"),
    (lambda: A._embedding_bag(opyard.randn(3, 2), idx([0, 5]), idx([0])), RuntimeError, "index 5 is out of range for "
                                                                                         "3 embeddings"),
    (lambda: A.native_group_norm(opyard.randn(2, 3, 4), None, None, 2, 3, 5, 1, 1e-5), RuntimeError,
     r"input of shape \[2, 3, 4\] has 24 elements, N \* C \* HxW = 30"),
    (lambda: A.rrelu_with_noise(opyard.randn(3), opyard.zeros(2), 0.1, 0.3, True), RuntimeError,
     r"noise must have the input's shape \[3\]"),
    (lambda: opyard.cdist(opyard.randn(2, 3), opyard.randn(2, 3), compute_mode="fast"), ValueError,
     "fast is not a valid value for compute_mode"),
])
def test_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_pairwise_distance_module_forms():
    a, b = r(3, 4, grad=False), r(3, 4, grad=False)
    np.testing.assert_allclose(opyard.nn.PairwiseDistance(p=1.5, eps=0.0)(a, b).numpy(),
                               (np.abs(a.numpy() - b.numpy()) ** 1.5).sum(-1) ** (1 / 1.5), rtol=1e-12)
    cos = opyard.nn.CosineSimilarity(dim=0)(a, b).numpy()
    want = (a.numpy() * b.numpy()).sum(0) / np.linalg.norm(a.numpy(), axis=0) / np.linalg.norm(b.numpy(), axis=0)
    np.testing.assert_allclose(cos, want, rtol=1e-12)
    loss = F.triplet_margin_with_distance_loss(a, b, a, distance_function=opyard.nn.PairwiseDistance(), margin=2.0)
    assert math.isclose(loss.item(), F.triplet_margin_loss(a, b, a, margin=2.0).item(), rel_tol=1e-12)
