"""Tensor ops that real extension code calls in reference kernels and fake impls: sorting and
searching, ``max(dim)``'s named tuple, ``split`` with sizes, ``out=``, and the smaller ops
(kthvalue, repeat_interleave, aminmax, cumprod, fmod, as_strided, ...). numpy is the reference."""

import warnings

import numpy as np
import pytest

import opyard
from opyard.fake import FakeTensorMode

A = opyard.ops.aten
rng = np.random.default_rng(0)


def t(a, **kw):
    return opyard.tensor(np.asarray(a), **kw)


# --- sorting and searching -------------------------------------------------------------------

@pytest.mark.parametrize("dim, descending", [(0, False), (1, False), (-1, True), (0, True)])
def test_argsort_matches_numpy_stably(dim, descending):
    x = rng.integers(0, 4, (5, 6)).astype(np.float32)  # many ties: the order of equal keys is checked
    got = opyard.argsort(t(x), dim=dim, descending=descending).numpy()
    ref = np.argsort(-x if descending else x, axis=dim, kind="stable")
    np.testing.assert_array_equal(got, ref)
    assert opyard.argsort(t(x), stable=True, dim=dim, descending=descending).tolist() == ref.tolist()
    assert t(x).argsort(dim, descending).dtype is opyard.int64


def test_sort_stable_overload_and_named_tuple():
    x = t([[3.0, 1.0, 3.0], [0.0, 5.0, 4.0]])
    r = opyard.sort(x, stable=True, dim=1, descending=True)
    assert type(r).__name__ == "sort" and r.values.tolist() == [[3.0, 3.0, 1.0], [5.0, 4.0, 0.0]]
    assert r.indices.tolist() == [[0, 2, 1], [1, 2, 0]]


@pytest.mark.parametrize("right", [False, True])
@pytest.mark.parametrize("values", [[1, 5, 9, 2, 8], [[0, 4], [6, 10]]])
def test_bucketize_and_searchsorted_match_numpy(values, right):
    bounds = np.array([2, 4, 6, 8])
    side = "right" if right else "left"
    ref = np.searchsorted(bounds, np.array(values), side=side)
    got = opyard.bucketize(t(values), t(bounds), right=right)
    assert got.dtype is opyard.int64 and got.tolist() == ref.tolist()
    assert opyard.bucketize(t(values), t(bounds), right=right, out_int32=True).dtype is opyard.int32
    assert opyard.searchsorted(t(bounds), t(values), right=right).tolist() == ref.tolist()
    assert opyard.searchsorted(t(bounds), t(values), side=side).tolist() == ref.tolist()


def test_bucketize_scalar_and_searchsorted_rows_and_sorter():
    assert opyard.bucketize(3, t([2, 4, 6, 8])).tolist() == 1
    rows = opyard.searchsorted(t([[1, 3, 5], [2, 4, 6]]), t([[2], [5]]))
    assert rows.tolist() == [[1], [2]]
    unsorted = t([5, 1, 3])
    assert opyard.searchsorted(unsorted, t([2, 4]), sorter=t([1, 2, 0])).tolist() == [1, 2]


SEARCH_ERRORS = [
    (lambda: opyard.bucketize(t([1]), t([[2, 4], [6, 8]])), RuntimeError, r"boundaries tensor must be 1 dimension, but got dim\(2\)"),
    (lambda: opyard.searchsorted(t([1, 3]), t([2]), side="left", right=True), RuntimeError,
     "side and right can't be set to opposites, got side of left while right was True"),
    (lambda: opyard.searchsorted(t([1, 3]), t([2]), side="middle"), RuntimeError,
     "side can only be 'left' or 'right' but got middle"),
    (lambda: opyard.searchsorted(t([[1, 3, 5], [2, 4, 6]]), t([[2], [5], [1]])), RuntimeError,
     r"boundaries tensor \[2, 3\] and input value tensor \[3, 1\]"),
    (lambda: opyard.bucketize(t([1]), t([1, 2], device="meta")), RuntimeError, "Expected all tensors to be on the same device"),
]


@pytest.mark.parametrize("call, exc, message", SEARCH_ERRORS)
def test_search_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_argwhere_matches_numpy_and_refuses_meta():
    x = rng.integers(0, 2, (3, 4))
    assert opyard.argwhere(t(x)).tolist() == np.argwhere(x).tolist()
    with pytest.raises(NotImplementedError, match="aten::argwhere: the result depends on the input data"):
        opyard.argwhere(opyard.empty(3, device="meta"))


# --- max(dim) / min(dim): torch.return_types -------------------------------------------------

def test_max_min_dim_return_named_tuples():
    x = opyard.tensor([[1.0, 5.0], [3.0, 2.0]])
    r = opyard.max(x, 1)
    values, indices = r
    assert r.values is r[0] and r.indices is r[1] and values.tolist() == [5.0, 3.0] and indices.tolist() == [1, 0]
    assert repr(r) == "opyard.return_types.max(\nvalues=tensor([5., 3.]),\nindices=tensor([1, 0]))"
    m = x.min(dim=0, keepdim=True)
    assert type(m) is opyard.return_types.min and m.values.tolist() == [[1.0, 2.0]] and m.indices.tolist() == [[0, 1]]
    assert isinstance(r, tuple) and len(r) == 2 and r._fields == ("values", "indices")
    assert type(x.topk(1)) is opyard.return_types.topk and type(x.sort()) is opyard.return_types.sort
    assert opyard.max(x).item() == 5.0 and opyard.max(x, t([[9.0, 0.0], [0.0, 9.0]])).tolist() == [[9.0, 5.0], [3.0, 9.0]]


def test_named_tuples_survive_meta_fake_autograd_and_pickle():
    import pickle

    assert type(opyard.max(opyard.empty(3, 4, device="meta"), 1)) is opyard.return_types.max
    with FakeTensorMode() as mode:
        r = opyard.max(mode.from_tensor(opyard.randn(3, 4)), 1)
    assert type(r) is opyard.return_types.max and r.values.shape == (3,)
    x = opyard.randn(3, 4, dtype=opyard.float64, requires_grad=True)
    r = x.max(1)
    r.values.sum().backward()
    assert x.grad.sum().item() == 3.0 and type(r) is opyard.return_types.max
    back = pickle.loads(pickle.dumps(opyard.max(t([[1.0, 2.0]]), 1)))
    assert type(back) is opyard.return_types.max and back.indices.tolist() == [1]
    with pytest.raises(TypeError, match=r"opyard.return_types.max takes a 2-sequence \(3-sequence given\)"):
        opyard.return_types.max((1, 2, 3))


def test_max_dim_of_empty_dimension():
    with pytest.raises(IndexError, match=r"max\(\): Expected reduction dim 1 to have non-zero size"):
        opyard.max(opyard.empty(2, 0), 1)


# --- split with a list of sizes --------------------------------------------------------------

def test_split_with_sizes_are_views():
    x = opyard.arange(6.0)
    parts = opyard.split(x, [1, 2, 3])
    assert [p.tolist() for p in parts] == [[0.0], [1.0, 2.0], [3.0, 4.0, 5.0]]
    assert all(p._base is x for p in parts)
    parts[1].mul_(10)
    assert x.tolist() == [0.0, 10.0, 20.0, 3.0, 4.0, 5.0]
    cols = opyard.arange(8.0).view(2, 4).split([3, 1], dim=1)
    assert [tuple(c.shape) for c in cols] == [(2, 3), (2, 1)]
    assert [tuple(p.shape) for p in A.split_with_sizes(opyard.empty(5, 2, device="meta"), [2, 3])] == [(2, 2), (3, 2)]


@pytest.mark.parametrize("sizes", [[1, 2, 2], [4, 3], [7, -1]])
def test_split_sizes_must_sum_to_the_dimension(sizes):
    with pytest.raises(RuntimeError, match=r"split_with_sizes expects split_sizes to sum exactly to 6 \(input "
                                           r"tensor's size at dimension 0\), but got split_sizes="):
        opyard.arange(6).split(sizes)


# --- out= -----------------------------------------------------------------------------------

OUT_CASES = [
    ("mm", lambda a, b: opyard.mm(a, b.t(), out=_o()), lambda a, b: a @ b.T),
    ("add", lambda a, b: opyard.add(a, b, alpha=2, out=_o()), lambda a, b: a + 2 * b),
    ("sub", lambda a, b: opyard.sub(a, b, out=_o()), lambda a, b: a - b),
    ("mul", lambda a, b: opyard.mul(a, b, out=_o()), lambda a, b: a * b),
    ("div", lambda a, b: opyard.div(a, b, out=_o()), lambda a, b: a / b),
    ("maximum", lambda a, b: opyard.maximum(a, b, out=_o()), np.maximum),
    ("exp", lambda a, b: opyard.exp(a, out=_o()), lambda a, b: np.exp(a)),
    ("sqrt", lambda a, b: opyard.sqrt(b, out=_o()), lambda a, b: np.sqrt(b)),
    ("sum", lambda a, b: opyard.sum(a, 1, out=_o()), lambda a, b: a.sum(1)),
    ("mean", lambda a, b: opyard.mean(a, [0], keepdim=True, out=_o()), lambda a, b: a.mean(0, keepdims=True)),
    ("cumsum", lambda a, b: opyard.cumsum(a, 1, out=_o()), lambda a, b: np.cumsum(a, 1)),
    ("cat", lambda a, b: opyard.cat([a, b], out=_o()), lambda a, b: np.concatenate([a, b])),
    ("clamp", lambda a, b: opyard.clamp(a, -0.5, 0.5, out=_o()), lambda a, b: np.clip(a, -0.5, 0.5)),
    ("softmax", lambda a, b: opyard.softmax(a, 1, out=_o()), lambda a, b: np.exp(a) / np.exp(a).sum(1, keepdims=True)),
]
_OUTS = []


def _o():
    o = opyard.empty(0, dtype=opyard.float64)
    _OUTS.append(o)
    return o


@pytest.mark.parametrize("name, call, ref", OUT_CASES, ids=[c[0] for c in OUT_CASES])
def test_out_writes_into_the_given_tensor(name, call, ref):
    a = rng.standard_normal((2, 3))
    b = np.abs(rng.standard_normal((2, 3))) + 0.5
    _OUTS.clear()
    r = call(t(a), t(b))
    assert r is _OUTS[0] and r._version == 1
    np.testing.assert_allclose(r.numpy(), ref(a, b), rtol=1e-12)


def test_out_resizes_silently_when_empty_and_warns_otherwise():
    a, b = opyard.ones(2, 3), opyard.ones(3, 4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert opyard.mm(a, b, out=opyard.empty(0)).shape == (2, 4)
        same = opyard.empty(2, 4)
        assert opyard.mm(a, b, out=same) is same and same.tolist() == [[3.0] * 4] * 2
    with pytest.warns(UserWarning, match=r"An output with one or more elements was resized since it had shape "
                                         r"\[5\], which does not match the required output shape \[2, 4\]"):
        assert opyard.mm(a, b, out=opyard.empty(5)).shape == (2, 4)


def test_out_dtype_rules():
    a = opyard.ones(2, 3)
    assert opyard.add(a, a, out=opyard.empty(2, 3, dtype=opyard.float64)).dtype is opyard.float64
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        opyard.add(a, a, out=opyard.empty(2, 3, dtype=opyard.int64))
    with pytest.raises(RuntimeError, match="Expected out tensor to have dtype float, but got double instead"):
        opyard.mm(a, a.t(), out=opyard.empty(2, 2, dtype=opyard.float64))
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Bool"):
        opyard.mul(a, a, out=opyard.empty(0, dtype=opyard.bool))
    assert opyard.eq(a, a, out=opyard.empty(0, dtype=opyard.bool)).tolist() == [[True] * 3] * 2


def test_out_device_and_autograd_errors():
    a = opyard.ones(2, 3)
    with pytest.raises(RuntimeError, match="Attempting to copy from device cpu to device meta, but cross-device "
                                           "copies are not allowed!"):
        opyard.add(a, a, out=opyard.empty(2, 3, device="meta"))
    g = opyard.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"add\(\): functions with out=\.\.\. arguments don't support automatic "
                                           r"differentiation, but one of the arguments requires grad\."):
        opyard.add(g, a, out=opyard.empty(0))
    with opyard.no_grad():
        assert opyard.add(g, a, out=opyard.empty(0)).tolist() == [[2.0] * 3] * 2
    with pytest.raises(TypeError):
        opyard.mm(a, a.t(), out=[1, 2])


def test_out_on_meta_and_fake():
    m = opyard.empty(0, device="meta")
    r = opyard.mm(opyard.empty(2, 3, device="meta"), opyard.empty(3, 4, device="meta"), out=m)
    assert r is m and r.shape == (2, 4) and r.device.type == "meta" and m._version == 1
    with FakeTensorMode() as mode:
        x = mode.from_tensor(opyard.randn(3, 4))
        same = opyard.empty(3, 5)
        assert opyard.mm(x, opyard.empty(4, 5), out=same) is same and same.shape == (3, 5)


# --- smaller ops ------------------------------------------------------------------------------

def test_kthvalue_and_aminmax():
    x = rng.standard_normal((3, 5))
    r = opyard.kthvalue(t(x), 2, 1)
    np.testing.assert_array_equal(r.values.numpy(), np.sort(x, 1)[:, 1])
    np.testing.assert_array_equal(r.indices.numpy(), np.argsort(x, 1, kind="stable")[:, 1])
    assert opyard.kthvalue(t(x), 1, 0, keepdim=True).values.shape == (1, 5)
    with pytest.raises(RuntimeError, match=r"kthvalue\(\): selected number k out of range for dimension 0"):
        opyard.kthvalue(t([3.0]), 2)
    mn, mx = opyard.aminmax(t(x))
    assert (mn.item(), mx.item()) == (x.min(), x.max())
    r = opyard.aminmax(t(x), dim=1, keepdim=True)
    assert r.min.shape == (3, 1) and r.max.numpy().ravel().tolist() == x.max(1).tolist()
    with pytest.raises(RuntimeError, match=r"aminmax\(\): cannot compute aminmax over an empty dimension"):
        opyard.aminmax(opyard.empty(0))


def test_repeat_interleave_as_torch():
    assert opyard.repeat_interleave(t([1, 2]), 2).tolist() == [1, 1, 2, 2]
    assert opyard.repeat_interleave(t([1, 2]), t([1, 3])).tolist() == [1, 2, 2, 2]
    assert opyard.repeat_interleave(t([2, 1])).tolist() == [0, 0, 1]
    assert t([[1, 2], [3, 4]]).repeat_interleave(2, dim=0).tolist() == [[1, 2], [1, 2], [3, 4], [3, 4]]
    assert t([[1, 2], [3, 4]]).repeat_interleave(2).tolist() == [1, 1, 2, 2, 3, 3, 4, 4]


@pytest.mark.parametrize("call, exc, message", [
    (lambda: opyard.repeat_interleave(t([1, 2]), t([1, 2, 3])), RuntimeError,
     r"repeats must have the same size as input along dim, but got repeats.size\(0\) = 3 and input.size\(0\) = 2"),
    (lambda: opyard.repeat_interleave(t([1, 2]), t([1, -2])), RuntimeError, "repeats can not be negative"),
    (lambda: opyard.repeat_interleave(t([1, 2]), opyard.tensor([1.0, 2.0])), NotImplementedError,
     "\"repeat_interleave_cpu\" not implemented for 'Float'"),
])
def test_repeat_interleave_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_cumprod_fmod_round_exp2_count_nonzero_masked_select_diff():
    x = rng.standard_normal((2, 4))
    np.testing.assert_allclose(opyard.cumprod(t(x), 1).numpy(), np.cumprod(x, 1))
    assert opyard.cumprod(t([1, 2, 3]), 0).dtype is opyard.int64
    assert opyard.fmod(t([-3.0, 3.0]), 2).tolist() == [-1.0, 1.0]
    assert opyard.fmod(t([-3, 3]), t([2, 2])).tolist() == [-1, 1]
    assert opyard.round(t([1.2345, -2.5]), decimals=2).tolist() == [1.23, -2.5]
    with pytest.raises(NotImplementedError, match="\"round_cpu\" not implemented for 'Long'"):
        opyard.round(t([12345]), decimals=-2)
    assert opyard.exp2(t([0, 3])).tolist() == [1.0, 8.0]
    assert opyard.count_nonzero(t([[0, 1], [2, 0]]), 0).tolist() == [1, 1]
    assert opyard.count_nonzero(t([[0, 1], [2, 0]])).item() == 2
    assert opyard.masked_select(t([[1, 2, 3]]), t([True, False, True])).tolist() == [1, 3]
    with pytest.raises(RuntimeError, match="masked_select: expected BoolTensor for mask"):
        opyard.masked_select(t([1, 2, 3]), t([1, 0, 1]))
    assert opyard.diff(t([1, 4, 9, 16]), n=2).tolist() == [2, 2]
    assert opyard.diff(t([[1, 3]]), prepend=t([[0]]), append=t([[10]])).tolist() == [[1, 2, 7]]
    assert opyard.diff(t([True, False, False])).tolist() == [True, False]


def test_as_strided_views_the_storage():
    base = opyard.arange(6.0)
    v = opyard.as_strided(base, (3, 3), (1, 1))
    assert v.tolist() == [[0.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 3.0, 4.0]] and v._base is base
    assert base[2:].as_strided((2,), (2,)).tolist() == [2.0, 4.0]  # the view's own offset is kept
    assert opyard.as_strided(base, (2,), (1,), 4).tolist() == [4.0, 5.0]
    m = opyard.as_strided(opyard.empty(6, device="meta"), (2, 2), (1, 2), 1)
    assert m.stride() == (1, 2) and m.storage_offset() == 1
    with pytest.raises(RuntimeError, match=r"setStorage: sizes \[3, 3\], strides \[2, 1\], storage offset 0, and "
                                           r"itemsize 4 requiring a storage size of 28 are out of bounds for "
                                           r"storage of size 24"):
        opyard.as_strided(opyard.arange(6.0), (3, 3), (2, 1))


def test_new_empty_strided_and_float8_round_trip_in_reference_code():
    x = opyard.ones(2, 3, dtype=opyard.bfloat16)
    e = x.new_empty_strided((2, 3), (1, 2))
    assert e.dtype is opyard.bfloat16 and e.shape == (2, 3) and e.stride() == (1, 2)
    # torchao-style float8 quantization reference: scale, clamp, cast, dequantize.
    w = t(rng.standard_normal((4, 4)).astype(np.float32))
    scale = opyard.finfo(opyard.float8_e4m3fn).max / w.abs().amax().clamp(min=1e-12)
    q = (w * scale).clamp(-448.0, 448.0).to(opyard.float8_e4m3fn)
    back = q.to(opyard.float32) / scale
    assert q.dtype is opyard.float8_e4m3fn and q.element_size() == 1
    np.testing.assert_allclose(back.numpy(), w.numpy(), rtol=0.07, atol=1e-6)


def test_flash_attention_style_fake_returns_out_and_lse():
    """A flash-attention-style forward: returns (out, softmax_lse); the fake impl allocates both
    with ``empty_like`` / ``new_empty``; the real kernel is the reference math."""
    lib = opyard.library.Library("flashx", "FRAGMENT")
    lib.define("fwd(Tensor q, Tensor k, Tensor v, float softmax_scale, bool causal) -> (Tensor, Tensor)")

    @opyard.library.register_fake("flashx::fwd", lib=lib)
    def _(q, k, v, softmax_scale, causal):
        batch, seqlen, heads, _ = q.shape
        return opyard.empty_like(q), q.new_empty((batch, heads, seqlen), dtype=opyard.float32)

    @opyard.library.impl(lib, "fwd", "CPU")
    def _(q, k, v, softmax_scale, causal):
        qh, kh, vh = (x.transpose(1, 2).to(opyard.float32) for x in (q, k, v))
        scores = qh @ kh.transpose(-2, -1) * softmax_scale
        if causal:
            mask = opyard.ones(q.shape[1], k.shape[1], dtype=opyard.bool).triu(1)
            scores = scores.masked_fill(mask, float("-inf"))
        lse = opyard.logsumexp(scores, -1)
        out = (scores - lse.unsqueeze(-1)).exp() @ vh
        return out.transpose(1, 2).to(q.dtype), lse

    q, k, v = (t(rng.standard_normal((2, 5, 3, 4))) for _ in range(3))
    out, lse = opyard.ops.flashx.fwd(q, k, v, 0.5, True)
    ref = opyard.nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2),
                                                            v.transpose(1, 2), is_causal=True, scale=0.5)
    np.testing.assert_allclose(out.numpy(), ref.transpose(1, 2).numpy(), rtol=1e-5, atol=1e-5)
    assert lse.shape == (2, 3, 5)
    q16, k16, v16 = (x.to(opyard.bfloat16) for x in (q, k, v))  # real ops run outside the mode
    with FakeTensorMode() as mode:
        fq, fk, fv = (mode.from_tensor(x) for x in (q16, k16, v16))
        fout, flse = opyard.ops.flashx.fwd(fq, fk, fv, 0.5, True)
    assert (fout.shape, fout.dtype, flse.shape, flse.dtype) == ((2, 5, 3, 4), opyard.bfloat16, (2, 3, 5), opyard.float32)
    lib._destroy()


# --- ops from quantization reference kernels --------------------------------------------------

def test_bit_shifts_pack_two_nibbles_per_byte():
    codes = opyard.tensor([1, 15, 7, 0, 9, 3], dtype=opyard.uint8)
    packed = codes[::2] << 4 | codes[1::2]
    assert packed.dtype is opyard.uint8 and packed.tolist() == [0x1F, 0x70, 0x93]
    assert (packed >> 4).tolist() == [1, 7, 9] and (packed & 0xF).tolist() == [15, 0, 3]
    assert (opyard.tensor([200], dtype=opyard.uint8) << 4).tolist() == [128]  # wraps like torch
    assert opyard.bitwise_left_shift(t([1, 2]), t([3, 1])).tolist() == [8, 4]
    assert opyard.bitwise_right_shift(t([-8]), 1).tolist() == [-4]
    with pytest.raises(RuntimeError, match="\"lshift_cpu\" not implemented for 'Float'"):
        opyard.ones(2) << 1


def test_blockwise_quantize_dequantize_reference_round_trip():
    """A blockwise absmax quantizer written the way quantization libraries write their
    PyTorch-native fallback: abs/max(dim)/clamp/argmin against a code table, then a lookup."""
    code = opyard.linspace(-1.0, 1.0, 256)
    a = opyard.tensor(rng.standard_normal(70).astype(np.float32))
    blocksize = 32
    n = a.numel()
    blocks = -(n // -blocksize)
    padded = opyard.nn.functional.pad(a, (0, blocks * blocksize - n))
    absmax = padded.view(blocks, blocksize).abs().max(dim=-1)[0]
    scaled = opyard.clamp(padded.view(blocks, blocksize) / absmax.view(-1, 1), -1, 1).reshape(-1)
    q = opyard.argmin((scaled.unsqueeze(-1) - code).abs(), dim=-1).to(opyard.uint8)[:n]
    back = code[q.int()]
    back = opyard.nn.functional.pad(back, (0, blocks * blocksize - n)).view(-1, blocksize)
    back = (back * absmax.view(-1, 1)).reshape(-1)[:n]
    assert q.dtype is opyard.uint8 and absmax.shape == (3,)
    np.testing.assert_allclose(back.numpy(), a.numpy(), atol=absmax.max().item() / 127)


def test_index_add_roll_nan_to_num_isin_norms():
    x = opyard.zeros(3, 2)
    assert x.index_add_(0, t([0, 0, 2]), opyard.ones(3, 2), alpha=2) is x
    assert x.tolist() == [[4.0, 4.0], [0.0, 0.0], [2.0, 2.0]] and x._version == 1
    with pytest.raises(IndexError, match="index out of range in self"):
        opyard.index_add(opyard.zeros(2), 0, t([5]), opyard.ones(1))
    with pytest.raises(RuntimeError, match=r"Number of indices \(2\) should be equal to source.size\(dim\): \(3\), for dim: 0"):
        opyard.index_add(opyard.zeros(2), 0, t([0, 1]), opyard.ones(3))
    s = opyard.zeros(3)
    assert s.scatter_add_(0, t([0, 0]), opyard.ones(2)) is s and s.tolist() == [2.0, 0.0, 0.0]
    assert opyard.roll(t([[1, 2, 3], [4, 5, 6]]), 1).tolist() == [[6, 1, 2], [3, 4, 5]]
    assert opyard.roll(t([[1, 2, 3], [4, 5, 6]]), [1, -1], [0, 1]).tolist() == [[5, 6, 4], [2, 3, 1]]
    with pytest.raises(RuntimeError, match="shifts and dimensions must align. shifts: 2, dims:1"):
        opyard.roll(t([1, 2]), [1, 1], [0])
    clean = opyard.tensor([1.0, float("nan"), float("inf"), float("-inf")]).nan_to_num(posinf=9.0)
    assert clean.tolist() == [1.0, 0.0, 9.0, float(opyard.finfo(opyard.float32).min)]
    assert opyard.isin(t([1, 2, 3]), t([2])).tolist() == [False, True, False]
    assert opyard.isin(t([1, 2, 3]), t([2]), invert=True).tolist() == [True, False, True]
    m = rng.standard_normal((3, 4))
    np.testing.assert_allclose(t(m).norm().item(), np.linalg.norm(m))
    np.testing.assert_allclose(t(m).norm(dim=1).numpy(), np.linalg.norm(m, axis=1))
    np.testing.assert_allclose(opyard.norm(t(m), 1, dim=0, keepdim=True).numpy(), np.abs(m).sum(0, keepdims=True))
    np.testing.assert_allclose(opyard.norm(t(m), float("inf")).item(), np.abs(m).max())
    with pytest.raises(RuntimeError, match="linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"):
        t([1, 2]).norm()


def test_var_std_unbiased_addcmul_addcdiv_baddbmm_tile():
    m = rng.standard_normal((3, 4))
    np.testing.assert_allclose(t(m).var(1, unbiased=False).numpy(), m.var(1))
    np.testing.assert_allclose(t(m).std(unbiased=True).item(), m.std(ddof=1))
    np.testing.assert_allclose(opyard.var(t(m), [0], True, True).numpy(), m.var(0, ddof=1, keepdims=True))
    a, b, c = (rng.standard_normal((2, 3)) for _ in range(3))
    np.testing.assert_allclose(opyard.addcmul(t(a), t(b), t(c), value=0.5).numpy(), a + 0.5 * b * c)
    np.testing.assert_allclose(opyard.addcdiv(t(a), t(b), t(c)).numpy(), a + b / c)
    with pytest.raises(RuntimeError, match="Integer division with addcdiv is no longer supported"):
        opyard.addcdiv(t([1]), t([1]), t([1]))
    x, b1, b2 = rng.standard_normal((2, 2, 4)), rng.standard_normal((2, 2, 3)), rng.standard_normal((2, 3, 4))
    np.testing.assert_allclose(opyard.baddbmm(t(x), t(b1), t(b2), beta=0.5, alpha=2).numpy(), 0.5 * x + 2 * (b1 @ b2))
    assert t([[1, 2]]).tile((2, 2)).tolist() == [[1, 2, 1, 2], [1, 2, 1, 2]]
    assert t([1, 2]).tile((2,)).tolist() == [1, 2, 1, 2]
    assert t([1, 2]).tile(2, 1).tolist() == [[1, 2], [1, 2]]  # sizes as varargs, as torch


def test_quantized_decomposed_style_per_tensor_round_trip():
    """Per-tensor affine quantization in the style of the ``quantized_decomposed`` reference ops
    (choose_qparams, quantize, dequantize), registered with CompositeExplicitAutograd and Meta."""
    lib = opyard.library.Library("qdx", "FRAGMENT")
    lib.define("choose_qparams.tensor(Tensor input, int quant_min, int quant_max, float eps, "
               "ScalarType dtype) -> (Tensor, Tensor)")
    lib.define("quantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, "
               "ScalarType dtype) -> Tensor")
    lib.define("dequantize_per_tensor(Tensor input, float scale, int zero_point, int quant_min, int quant_max, "
               "ScalarType dtype, *, ScalarType? out_dtype=None) -> Tensor")

    def choose_qparams(input, quant_min, quant_max, eps, dtype):
        min_val, max_val = opyard.aminmax(input)
        min_neg = opyard.min(min_val, opyard.zeros_like(min_val))
        max_pos = opyard.max(max_val, opyard.zeros_like(max_val))
        scale = (max_pos - min_neg) / float(quant_max - quant_min)
        scale = opyard.max(scale, opyard.full_like(scale, eps))
        zero_point = quant_min - opyard.round(min_neg / scale).to(opyard.int64)
        return scale.reshape(1), opyard.clamp(zero_point, quant_min, quant_max).reshape(1)

    def quantize(input, scale, zero_point, quant_min, quant_max, dtype):
        assert opyard.iinfo(dtype).min <= quant_min and quant_max <= opyard.iinfo(dtype).max
        return opyard.clamp(opyard.round(input * (1.0 / scale)) + zero_point, quant_min, quant_max).to(dtype)

    def dequantize(input, scale, zero_point, quant_min, quant_max, dtype, *, out_dtype=None):
        return (input.to(out_dtype or opyard.float32) - zero_point) * scale

    for name, fn in (("choose_qparams.tensor", choose_qparams), ("quantize_per_tensor", quantize),
                     ("dequantize_per_tensor", dequantize)):
        lib.impl(name, fn, "CompositeExplicitAutograd")
    lib.impl("quantize_per_tensor", lambda x, s, z, lo, hi, dt: opyard.empty_like(x, dtype=dt), "Meta")

    x = opyard.tensor(rng.uniform(-2, 3, 50).astype(np.float32))
    scale, zp = opyard.ops.qdx.choose_qparams.tensor(x, -128, 127, 1e-5, opyard.int8)
    q = opyard.ops.qdx.quantize_per_tensor(x, scale.item(), int(zp.item()), -128, 127, opyard.int8)
    back = opyard.ops.qdx.dequantize_per_tensor(q, scale.item(), int(zp.item()), -128, 127, opyard.int8)
    assert q.dtype is opyard.int8 and back.dtype is opyard.float32 and zp.dtype is opyard.int64
    np.testing.assert_allclose(back.numpy(), x.numpy(), atol=scale.item() / 2 + 1e-6)
    meta = opyard.ops.qdx.quantize_per_tensor(opyard.empty(4, device="meta"), 0.1, 0, -128, 127, opyard.uint8)
    assert meta.dtype is opyard.uint8 and meta.device.type == "meta"
    lib._destroy()


def test_jagged_sparse_style_reference_ops():
    """Jagged-tensor helpers in the style of recommendation-model sparse ops: a complete cumsum
    (offsets with a leading 0) and the positions inside each segment, whose output size depends
    on the data (the fake impl asks the context for a dynamic size)."""
    from opyard.fake import ShapeEnv

    lib = opyard.library.Library("sparsex", "FRAGMENT")
    lib.define("complete_cumsum(Tensor t) -> Tensor")
    lib.define("offsets_range(Tensor offsets, SymInt range_size) -> Tensor")
    lib.define("segment_positions(Tensor lengths) -> Tensor")

    @opyard.library.impl(lib, "complete_cumsum", "CompositeExplicitAutograd")
    def _(t):
        return opyard.cat([t.new_zeros(1), opyard.cumsum(t, 0)])

    @opyard.library.impl(lib, "segment_positions", "CPU")
    def _(lengths):
        starts = opyard.ops.sparsex.complete_cumsum(lengths)[:-1]
        owner = opyard.repeat_interleave(lengths)
        return opyard.arange(int(lengths.sum())) - starts.index_select(0, owner)

    @opyard.library.register_fake("sparsex::segment_positions", lib=lib)
    def _(lengths):
        n = opyard.library.get_ctx().new_dynamic_size()
        return lengths.new_empty(n)

    lengths = opyard.tensor([2, 0, 3, 1])
    assert opyard.ops.sparsex.complete_cumsum(lengths).tolist() == [0, 2, 2, 5, 6]
    assert opyard.ops.sparsex.segment_positions(lengths).tolist() == [0, 1, 0, 1, 2, 0]
    meta = opyard.ops.sparsex.complete_cumsum(opyard.empty(4, dtype=opyard.int64, device="meta"))
    assert meta.shape == (5,) and meta.dtype is opyard.int64
    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)) as mode:
        out = opyard.ops.sparsex.segment_positions(mode.from_tensor(lengths))
    assert out.dim() == 1 and out.dtype is opyard.int64
    lib._destroy()


def test_linalg_norms_match_numpy():
    m = rng.standard_normal((2, 3, 4))
    np.testing.assert_allclose(opyard.linalg.vector_norm(t(m)).item(), np.linalg.norm(m.ravel()))
    np.testing.assert_allclose(opyard.linalg.vector_norm(t(m), 1, dim=-1).numpy(), np.abs(m).sum(-1))
    np.testing.assert_allclose(opyard.linalg.vector_norm(t(m), float("inf"), dim=(0, 2), keepdim=True).numpy(),
                               np.abs(m).max((0, 2), keepdims=True))
    for ord in ("fro", 1, -1, float("inf"), float("-inf")):
        np.testing.assert_allclose(opyard.linalg.matrix_norm(t(m), ord).numpy(),
                                   np.linalg.norm(m, ord, axis=(-2, -1)), err_msg=str(ord))
    np.testing.assert_allclose(opyard.linalg.norm(t(m[0])).item(), np.linalg.norm(m[0]))
    np.testing.assert_allclose(opyard.linalg.norm(t(m[0]), 1).item(), np.linalg.norm(m[0], 1))
    np.testing.assert_allclose(opyard.linalg.norm(t(m), 3, dim=1).numpy(), (np.abs(m) ** 3).sum(1) ** (1 / 3))
    with pytest.raises(RuntimeError, match="linalg.matrix_norm: The input tensor A must have at least 2 dimensions"):
        opyard.linalg.matrix_norm(t([1.0, 2.0]))
    for ord in (2, -2, "nuc"):  # through the singular values
        np.testing.assert_allclose(opyard.linalg.matrix_norm(t(m, dtype=opyard.float64), ord).numpy(),
                                   np.linalg.norm(m, ord, axis=(-2, -1)), err_msg=str(ord))
    x = t(rng.standard_normal(5), dtype=opyard.float64)
    x.requires_grad_(True)
    assert opyard.autograd.gradcheck(lambda v: opyard.linalg.vector_norm(v, 3), (x,))
