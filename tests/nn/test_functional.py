"""``opyard.nn.functional``: numerics against numpy references, gradients (gradcheck in float64
through the compositions), meta/fake shapes, and torch's errors."""

import math

import numpy as np
import pytest

import opyard
import opyard.nn.functional as F
from opyard.autograd import gradcheck
from opyard.fake import FakeTensorMode

rng = np.random.default_rng(0)


def t(a, grad=False, dtype=opyard.float64):
    return opyard.tensor(np.asarray(a), dtype=dtype, requires_grad=grad)


def _erf(x):
    return np.vectorize(math.erf)(x)


def _softmax(x, axis):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


X = rng.standard_normal((3, 4))

ELEMENTWISE = [
    ("relu", lambda x: F.relu(x), lambda x: np.maximum(x, 0)),
    ("relu6", lambda x: F.relu6(x * 4), lambda x: np.clip(x * 4, 0, 6)),
    ("silu", lambda x: F.silu(x), lambda x: x / (1 + np.exp(-x))),
    ("gelu", lambda x: F.gelu(x), lambda x: 0.5 * x * (1 + _erf(x / math.sqrt(2)))),
    ("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"),
     lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))),
    ("sigmoid", lambda x: F.sigmoid(x), lambda x: 1 / (1 + np.exp(-x))),
    ("tanh", lambda x: F.tanh(x), np.tanh),
    ("leaky_relu", lambda x: F.leaky_relu(x, 0.2), lambda x: np.where(x > 0, x, 0.2 * x)),
    ("hardtanh", lambda x: F.hardtanh(x, -0.5, 0.5), lambda x: np.clip(x, -0.5, 0.5)),
    ("elu", lambda x: F.elu(x, 1.5), lambda x: np.where(x > 0, x, 1.5 * np.expm1(x))),
    ("softplus", lambda x: F.softplus(x, 2.0, 1.0), lambda x: np.where(2 * x > 1, x, np.log1p(np.exp(2 * x)) / 2)),
    ("softmax", lambda x: F.softmax(x, dim=1), lambda x: _softmax(x, 1)),
    ("log_softmax", lambda x: F.log_softmax(x, 0), lambda x: np.log(_softmax(x, 0))),
    ("normalize", lambda x: F.normalize(x, dim=1), lambda x: x / np.linalg.norm(x, axis=1, keepdims=True)),
]


@pytest.mark.parametrize("name, fn, ref", ELEMENTWISE, ids=[e[0] for e in ELEMENTWISE])
def test_elementwise_and_softmax_match_numpy(name, fn, ref):
    np.testing.assert_allclose(fn(t(X)).numpy(), ref(X), rtol=1e-10, atol=1e-12)
    assert fn(t(X, dtype=opyard.float32)).dtype is opyard.float32
    meta = fn(opyard.empty(3, 4, device="meta"))
    assert meta.shape == (3, 4) and meta.device.type == "meta"


def test_gelu_known_values_as_torch():
    x = opyard.tensor([-1.0, 0.0, 1.0, 2.0])
    assert F.gelu(x).tolist() == pytest.approx([-0.15865525, 0.0, 0.84134475, 1.95449972], abs=1e-6)
    assert F.gelu(x, approximate="tanh").tolist() == pytest.approx([-0.15880801, 0.0, 0.84119199, 1.95459769], abs=1e-6)
    assert F.gelu(x.to(opyard.bfloat16)).dtype is opyard.bfloat16


def test_layer_norm_and_rms_norm_match_numpy():
    x = rng.standard_normal((2, 3, 4))
    w, b = rng.standard_normal(4), rng.standard_normal(4)
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    ref = (x - mean) / np.sqrt(var + 1e-5) * w + b
    np.testing.assert_allclose(F.layer_norm(t(x), (4,), t(w), t(b)).numpy(), ref, rtol=1e-10)
    ref2 = (x - x.mean((1, 2), keepdims=True)) / np.sqrt(x.var((1, 2), keepdims=True) + 1e-3)
    np.testing.assert_allclose(F.layer_norm(t(x), [3, 4], eps=1e-3).numpy(), ref2, rtol=1e-10)
    rms = x / np.sqrt((x ** 2).mean(-1, keepdims=True) + np.finfo(np.float64).eps) * w
    np.testing.assert_allclose(F.rms_norm(t(x), 4, t(w)).numpy(), rms, rtol=1e-10)
    assert F.rms_norm(opyard.tensor([[1.0, 2.0, 3.0]]), (3,)).tolist()[0] == pytest.approx(
        [0.46291006, 0.92582011, 1.38873017], abs=1e-6)  # torch's values (eps = finfo(float32).eps)


def _sdpa_ref(q, k, v, mask=None, causal=False, scale=None):
    s = q @ np.swapaxes(k, -1, -2) * (1 / math.sqrt(q.shape[-1]) if scale is None else scale)
    if causal:
        mask = np.tril(np.ones((q.shape[-2], k.shape[-2]), dtype=bool))
    if mask is not None:
        s = np.where(mask, s, -np.inf) if mask.dtype == bool else s + mask
    return _softmax(s, -1) @ v


@pytest.mark.parametrize("kind", ["plain", "causal", "bool_mask", "float_mask", "scale"])
def test_scaled_dot_product_attention_reference_math(kind):
    q, k, v = rng.standard_normal((2, 3, 4, 8)), rng.standard_normal((2, 3, 6, 8)), rng.standard_normal((2, 3, 6, 5))
    bool_mask = rng.random((4, 6)) > 0.3
    bool_mask[:, 0] = True
    float_mask = rng.standard_normal((4, 6))
    kwargs, ref_kwargs = {
        "plain": ({}, {}), "causal": ({"is_causal": True}, {"causal": True}),
        "bool_mask": ({"attn_mask": opyard.tensor(bool_mask)}, {"mask": bool_mask}),
        "float_mask": ({"attn_mask": t(float_mask)}, {"mask": float_mask}),
        "scale": ({"scale": 0.3}, {"scale": 0.3}),
    }[kind]
    got = F.scaled_dot_product_attention(t(q), t(k), t(v), **kwargs)
    np.testing.assert_allclose(got.numpy(), _sdpa_ref(q, k, v, **ref_kwargs), rtol=1e-10)


def test_sdpa_grouped_query_attention_and_dropout():
    q, k, v = rng.standard_normal((1, 4, 3, 2)), rng.standard_normal((1, 2, 3, 2)), rng.standard_normal((1, 2, 3, 2))
    got = F.scaled_dot_product_attention(t(q), t(k), t(v), enable_gqa=True)
    ref = _sdpa_ref(q, np.repeat(k, 2, axis=1), np.repeat(v, 2, axis=1))
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-10)
    ones = opyard.ones(1, 1, 2, 2)
    dropped = F.scaled_dot_product_attention(ones, ones, ones, dropout_p=0.999999)
    assert dropped.abs().sum().item() < 1e-3 or dropped.abs().max().item() > 1.0  # dropout was applied


def test_dropout_training_and_eval():
    x = opyard.ones(1000, dtype=opyard.float64)
    assert F.dropout(x, 0.5, training=False) is x
    opyard.manual_seed(0)
    y = F.dropout(x, 0.25)
    kept = (y != 0).sum().item()
    assert 650 < kept < 850 and set(np.unique(y.numpy())) <= {0.0, 1 / 0.75}
    assert F.dropout(x, 1.0).abs().sum().item() == 0.0 and F.dropout(x, 0.0) is x
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)


def test_embedding_one_hot_linear_pad_mse():
    w = rng.standard_normal((5, 3))
    idx = opyard.tensor([[0, 4], [2, 2]])
    np.testing.assert_array_equal(F.embedding(idx, t(w)).numpy(), w[[[0, 4], [2, 2]]])
    assert F.embedding(idx.to(opyard.int32), t(w), padding_idx=-1).shape == (2, 2, 3)
    assert F.one_hot(opyard.tensor([0, 2])).tolist() == [[1, 0, 0], [0, 0, 1]]
    assert F.one_hot(opyard.tensor([1]), 4).tolist() == [[0, 1, 0, 0]]
    x, lw, lb = rng.standard_normal((2, 3)), rng.standard_normal((4, 3)), rng.standard_normal(4)
    np.testing.assert_allclose(F.linear(t(x), t(lw), t(lb)).numpy(), x @ lw.T + lb, rtol=1e-12)
    a = np.arange(6.0).reshape(1, 2, 3)
    for mode, npmode in (("reflect", "reflect"), ("replicate", "edge"), ("circular", "wrap")):
        np.testing.assert_array_equal(F.pad(t(a), (2, 1), mode=mode).numpy(),
                                      np.pad(a, [(0, 0), (0, 0), (2, 1)], mode=npmode))
    np.testing.assert_array_equal(F.pad(t(a), (1, 0, 0, 1), value=7.0).numpy(),
                                  np.pad(a, [(0, 0), (0, 1), (1, 0)], constant_values=7.0))
    assert F.pad(t(a), (-1, 1)).tolist() == [[[1.0, 2.0, 0.0], [4.0, 5.0, 0.0]]]
    assert F.mse_loss(t([1.0, 2.0]), t([0.0, 0.0])).item() == 2.5


NN_ERRORS = [
    (lambda: F.gelu(opyard.ones(2), approximate="fast"), RuntimeError, "approximate argument must be either none or tanh"),
    (lambda: F.layer_norm(opyard.ones(2, 3), (4,)), RuntimeError,
     r"Given normalized_shape=\[4\], expected input with shape \[\*, 4\], but got input of size\[2, 3\]"),
    (lambda: F.layer_norm(opyard.ones(2, 3), (3,), opyard.ones(4)), RuntimeError,
     r"Expected weight to be of same shape as normalized_shape, but got weight of shape \[4\] and normalized_shape = \[3\]"),
    (lambda: F.embedding(opyard.tensor([0.0, 1.0]), opyard.ones(3, 2)), RuntimeError,
     "Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int; but got "
     "opyard.FloatTensor instead"),
    (lambda: F.embedding(opyard.tensor([0]), opyard.ones(3, 2), padding_idx=3), AssertionError,
     "Padding_idx must be within num_embeddings"),
    (lambda: F.one_hot(opyard.tensor([0, 3]), 3), RuntimeError, "Class values must be smaller than num_classes"),
    (lambda: F.one_hot(opyard.tensor([0.0, 3.0])), RuntimeError, "one_hot is only applicable to index tensor of type LongTensor"),
    (lambda: F.one_hot(opyard.tensor([-1, 0])), RuntimeError, "Class values must be non-negative"),
    (lambda: F.one_hot(opyard.empty(2, dtype=opyard.int64, device="meta")), NotImplementedError,
     "aten::one_hot: with num_classes=-1 the result depends on the input data"),
    (lambda: F.pad(opyard.ones(2, 3), (1, 2, 3)), RuntimeError, "Padding length must be divisible by 2"),
    (lambda: F.pad(opyard.ones(2, 3), (1, 1, 1, 1, 1, 1)), RuntimeError,
     "Padding length should be less than or equal to two times the input dimension but got padding length 6"),
    (lambda: F.pad(opyard.ones(2, 3), (4, 4), mode="reflect"), RuntimeError,
     r"Argument #4: Padding size should be less than the corresponding input dimension, but got: padding \(4, 4\) "
     r"at dimension 1 of input \[2, 3\]"),
    (lambda: F.pad(opyard.ones(2, 3), (1, 1), mode="zeros"), NotImplementedError, "Unrecognised padding mode zeros"),
    (lambda: F.pad(opyard.ones(2, 3), (1, 1), mode="reflect", value=2.0), RuntimeError,
     "Padding mode \"reflect\" doesn't take in value argument"),
    (lambda: F.pad(opyard.ones(2, 3), (-2, -2)), RuntimeError, "resulted in a negative output size"),
    (lambda: F.scaled_dot_product_attention(opyard.ones(1, 2, 3), opyard.ones(1, 2, 3), opyard.ones(1, 2, 3),
                                            attn_mask=opyard.ones(2, 2, dtype=opyard.bool), is_causal=True),
     RuntimeError, "_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True"),
    (lambda: F.hardtanh(opyard.tensor([True])), NotImplementedError, "Bool inputs not supported for hardtanh"),
    (lambda: F.mse_loss(opyard.ones(1), opyard.ones(1), reduction="avg"), ValueError, "avg is not a valid value for reduction"),
]


@pytest.mark.parametrize("call, exc, message", NN_ERRORS)
def test_errors_as_torch(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_softmax_without_dim_warns_as_torch():
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax has been deprecated"):
        assert F.softmax(opyard.ones(2, 3)).sum(1).tolist() == [1.0, 1.0]


GRADS = [
    ("layer_norm", lambda x, w, b: F.layer_norm(x, (4,), w, b), ((2, 4), (4,), (4,))),
    ("rms_norm", lambda x, w: F.rms_norm(x, (4,), w, 1e-6), ((2, 4), (4,))),
    ("sdpa", lambda q, k, v: F.scaled_dot_product_attention(q, k, v, is_causal=True), ((1, 3, 2), (1, 3, 2), (1, 3, 2))),
    ("gelu", lambda x: F.gelu(x), ((5,),)),
    ("gelu_tanh", lambda x: F.gelu(x, approximate="tanh"), ((5,),)),
    ("embedding", lambda w: F.embedding(opyard.tensor([[1, 1], [0, 2]]), w), ((3, 2),)),
    ("pad_reflect", lambda x: F.pad(x, (2, 1), mode="reflect"), ((2, 4),)),
    ("pad_constant", lambda x: F.pad(x, (1, -1, 0, 2), value=3.0), ((2, 4),)),
    ("linear", lambda x, w, b: F.linear(x, w, b), ((2, 3), (4, 3), (4,))),
    ("softplus", lambda x: F.softplus(x), ((5,),)),
    ("logsumexp", lambda x: opyard.logsumexp(x, 1), ((2, 3),)),
]


@pytest.mark.parametrize("name, fn, shapes", GRADS, ids=[g[0] for g in GRADS])
def test_gradcheck_through_functional(name, fn, shapes):
    inputs = tuple(t(rng.standard_normal(s), grad=True) for s in shapes)
    assert gradcheck(fn, inputs)


def test_fake_and_meta_shapes_of_compositions():
    with FakeTensorMode() as mode:
        q = mode.from_tensor(opyard.randn(2, 3, 4, 8))
        out = F.scaled_dot_product_attention(q, q, q, is_causal=True)
        ln = F.layer_norm(q, (8,))
        p = F.pad(q, (1, 1), mode="replicate")
    assert out.shape == (2, 3, 4, 8) and ln.shape == (2, 3, 4, 8) and p.shape == (2, 3, 4, 10)
    m = F.embedding(opyard.empty(2, 5, dtype=opyard.int64, device="meta"), opyard.empty(10, 3, device="meta"))
    assert m.shape == (2, 5, 3) and m.device.type == "meta"


def test_llm_serving_style_reference_kernels():
    """Reference kernels of the kind LLM-serving libraries register as custom ops (activation and
    mul into an out buffer, RMS norm, rotary embedding, per-tensor fp8 quantization), each
    checked against numpy; the fake impls only describe the outputs."""

    @opyard.library.custom_op("servex::silu_and_mul", mutates_args=("out",))
    def silu_and_mul(out: opyard.Tensor, x: opyard.Tensor) -> None:
        d = x.shape[-1] // 2
        out.copy_(F.silu(x[..., :d]) * x[..., d:])

    @opyard.library.custom_op("servex::rotary", mutates_args=())
    def rotary(x: opyard.Tensor, positions: opyard.Tensor, cos_sin: opyard.Tensor) -> opyard.Tensor:
        cos, sin = cos_sin.index_select(0, positions).chunk(2, dim=-1)
        x1, x2 = x.chunk(2, dim=-1)
        return opyard.cat((x1 * cos - x2 * sin, x2 * cos + x1 * sin), dim=-1)

    @rotary.register_fake
    def _(x, positions, cos_sin):
        return opyard.empty_like(x)

    @opyard.library.custom_op("servex::scaled_fp8_quant", mutates_args=())
    def scaled_fp8_quant(x: opyard.Tensor) -> tuple[opyard.Tensor, opyard.Tensor]:
        fmax = opyard.finfo(opyard.float8_e4m3fn).max
        scale = (x.abs().max() / fmax).clamp(min=1e-12).reshape(1)
        return (x / scale).clamp(min=-fmax, max=fmax).to(opyard.float8_e4m3fn), scale

    @scaled_fp8_quant.register_fake
    def _(x):
        return opyard.empty_like(x, dtype=opyard.float8_e4m3fn), x.new_empty((1,), dtype=opyard.float32)

    xs = rng.standard_normal((3, 8)).astype(np.float32)
    out = opyard.empty(3, 4)
    silu_and_mul(out, opyard.tensor(xs))
    np.testing.assert_allclose(out.numpy(), xs[:, :4] / (1 + np.exp(-xs[:, :4])) * xs[:, 4:], rtol=1e-5)

    theta = rng.standard_normal((5, 2)).astype(np.float32)
    cos_sin = opyard.tensor(np.concatenate([np.cos(theta), np.sin(theta)], -1))
    pos = opyard.tensor([4, 0, 2])
    y = rotary(opyard.tensor(xs[:, :4]), pos, cos_sin).numpy()
    c, s = np.cos(theta[[4, 0, 2]]), np.sin(theta[[4, 0, 2]])
    x1, x2 = xs[:, :2], xs[:, 2:4]
    np.testing.assert_allclose(y, np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], -1), rtol=1e-5)

    w = rng.standard_normal(8).astype(np.float32)
    ref = xs / np.sqrt((xs ** 2).mean(-1, keepdims=True) + 1e-6) * w
    got = opyard.tensor(xs) * opyard.rsqrt(opyard.tensor(xs).pow(2).mean(dim=-1, keepdim=True) + 1e-6) * opyard.tensor(w)
    np.testing.assert_allclose(got.numpy(), ref, rtol=1e-5)
    np.testing.assert_allclose(F.rms_norm(opyard.tensor(xs), (8,), opyard.tensor(w), 1e-6).numpy(), ref, rtol=1e-5)

    q, scale = scaled_fp8_quant(opyard.tensor(xs))
    assert q.dtype is opyard.float8_e4m3fn and scale.shape == (1,)
    np.testing.assert_allclose((q.float() * scale).numpy(), xs, rtol=0.07, atol=1e-3)
    with FakeTensorMode() as mode:
        fx = mode.from_tensor(opyard.tensor(xs).to(opyard.bfloat16))
        fq, fs = scaled_fp8_quant(fx)
        fr = rotary(fx[:, :4], mode.from_tensor(pos), mode.from_tensor(cos_sin))
    assert (fq.dtype, fq.shape, fs.dtype, fr.shape) == (opyard.float8_e4m3fn, (3, 8), opyard.float32, (3, 4))


def test_embedding_gradient_skips_padding_row_and_scales_by_frequency():
    w = t(rng.standard_normal((4, 2)), grad=True)
    idx = opyard.tensor([[0, 2, 2], [3, 2, 0]])
    F.embedding(idx, w, padding_idx=2).sum().backward()
    assert w.grad.tolist() == [[2.0, 2.0], [0.0, 0.0], [0.0, 0.0], [1.0, 1.0]]  # row 2 is padding
    w.grad = None
    out = F.embedding(idx, w, scale_grad_by_freq=True)
    np.testing.assert_array_equal(out.detach().numpy(), w.detach().numpy()[[[0, 2, 2], [3, 2, 0]]])
    out.sum().backward()
    assert w.grad.tolist() == [[1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [1.0, 1.0]]  # each summed grad / count
