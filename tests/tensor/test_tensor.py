"""opyard.Tensor and the built-in operators: numerics against numpy, meta agreement, views."""

import warnings

import numpy as np
import pytest

import opyard
from opyard.library import Library

A = opyard.ops.aten
rng = np.random.default_rng(0)


def arr(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype) if dtype != np.int64 else rng.integers(-5, 5, shape)


def T(a):
    return opyard.from_numpy(np.array(a))


UNARY = [
    ("neg", np.negative), ("abs", np.abs), ("exp", np.exp), ("sin", np.sin), ("cos", np.cos),
    ("tanh", np.tanh), ("sigmoid", lambda x: 1 / (1 + np.exp(-x))), ("relu", lambda x: np.maximum(x, 0)),
    ("sign", np.sign), ("floor", np.floor), ("ceil", np.ceil), ("square", np.square),
]


@pytest.mark.parametrize("name, ref", UNARY)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_matches_numpy(name, ref, dtype):
    x = arr(3, 4, dtype=dtype)
    y = getattr(T(x), name)()
    assert y.dtype is opyard._dtype.from_np(np.dtype(dtype))
    np.testing.assert_allclose(y.numpy(), ref(x), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("name", ["log", "sqrt", "rsqrt", "reciprocal"])
def test_unary_positive_domain(name):
    x = np.abs(arr(5)) + 0.1
    ref = {"log": np.log, "sqrt": np.sqrt, "rsqrt": lambda v: 1 / np.sqrt(v), "reciprocal": lambda v: 1 / v}[name]
    np.testing.assert_allclose(getattr(opyard, name)(T(x)).numpy(), ref(x), rtol=1e-6)


BINARY = [("add", np.add), ("sub", np.subtract), ("mul", np.multiply), ("div", np.divide),
          ("maximum", np.maximum), ("minimum", np.minimum)]


@pytest.mark.parametrize("name, ref", BINARY)
@pytest.mark.parametrize("shapes", [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((), (2,))])
def test_binary_broadcasting(name, ref, shapes):
    a, b = arr(*shapes[0]), arr(*shapes[1])
    np.testing.assert_allclose(getattr(opyard, name)(T(a), T(b)).numpy(), ref(a, b), rtol=1e-6)


@pytest.mark.parametrize("a_dtype, b, expected", [
    (opyard.int64, 2.5, opyard.float32),
    (opyard.int32, 2, opyard.int32),
    (opyard.float16, 1.0, opyard.float16),
    (opyard.bool, 1, opyard.int64),
    (opyard.float32, 1j, opyard.complex64),
])
def test_scalar_promotion(a_dtype, b, expected):
    x = opyard.ones(2, dtype=a_dtype)
    assert (x + b).dtype is expected


@pytest.mark.parametrize("a, b, expected", [
    (opyard.int32, opyard.int64, opyard.int64),
    (opyard.int64, opyard.float16, opyard.float16),
    (opyard.float32, opyard.float64, opyard.float64),
    (opyard.uint8, opyard.int8, opyard.int16),
    (opyard.bool, opyard.int8, opyard.int8),
    (opyard.float64, opyard.complex64, opyard.complex128),
])
def test_tensor_promotion_table(a, b, expected):
    assert opyard.promote_types(a, b) is expected
    assert (opyard.ones(2, dtype=a) + opyard.ones(2, dtype=b)).dtype is expected


def test_zero_dim_tensors_do_not_promote_dimensioned_ones():
    x = opyard.ones(3, dtype=opyard.float32)
    assert (x + opyard.tensor(1.0, dtype=opyard.float64)).dtype is opyard.float32
    assert (opyard.ones(3, dtype=opyard.int32) + opyard.tensor(1.5, dtype=opyard.float64)).dtype is opyard.float64


def test_integer_division_promotes_and_rounding_modes():
    a, b = T(np.array([7, -7])), T(np.array([2, 2]))
    assert (a / b).dtype is opyard.float32
    assert opyard.div(a, b, rounding_mode="floor").tolist() == [3, -4]
    assert opyard.div(a, b, rounding_mode="trunc").tolist() == [3, -3]
    with pytest.raises(RuntimeError, match="rounding_mode"):
        opyard.div(a, b, rounding_mode="round")


@pytest.mark.parametrize("dim, keepdim", [(None, False), (0, False), (1, True), ([0, 1], False), (-1, True)])
@pytest.mark.parametrize("name, ref", [("sum", np.sum), ("mean", np.mean), ("amax", np.amax), ("amin", np.amin)])
def test_reductions(name, ref, dim, keepdim):
    x = arr(3, 4)
    t = T(x)
    if dim is None:
        got, want = getattr(t, name)(), ref(x)
    else:
        got, want = getattr(t, name)(dim, keepdim), ref(x, axis=tuple(dim) if isinstance(dim, list) else dim, keepdims=keepdim)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)
    assert got.shape == np.shape(want)


def test_max_dim_returns_values_and_indices():
    x = arr(3, 4)
    v, i = T(x).max(1)
    np.testing.assert_allclose(v.numpy(), x.max(1))
    assert i.dtype is opyard.int64 and i.tolist() == x.argmax(1).tolist()


def test_var_std_softmax_cumsum():
    x = arr(4, 5).astype(np.float64)
    t = T(x)
    np.testing.assert_allclose(t.var().numpy(), x.var(ddof=1))
    np.testing.assert_allclose(t.std(0, correction=0).numpy(), x.std(0))
    s = opyard.softmax(t, 1).numpy()
    np.testing.assert_allclose(s, np.exp(x) / np.exp(x).sum(1, keepdims=True))
    np.testing.assert_allclose(opyard.log_softmax(t, 1).numpy(), np.log(s))
    np.testing.assert_allclose(t.cumsum(0).numpy(), x.cumsum(0))


@pytest.mark.parametrize("sa, sb", [((3, 4), (4, 5)), ((4,), (4,)), ((2, 3, 4), (4, 5)), ((4,), (4, 2)), ((5, 2, 3), (5, 3, 2))])
def test_matmul_cases(sa, sb):
    a, b = arr(*sa), arr(*sb)
    np.testing.assert_allclose((T(a) @ T(b)).numpy(), a @ b, rtol=1e-5)


def test_mm_errors():
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x3 and 2x3\)"):
        opyard.mm(opyard.ones(2, 3), opyard.ones(2, 3))


def test_linear_addmm_seed_calls():
    x, w, b = arr(2, 3), arr(4, 3), arr(4)
    out = T(x).mm(T(w).t())
    out += T(b).unsqueeze(0).expand_as(out)
    np.testing.assert_allclose(out.numpy(), x @ w.T + b, rtol=1e-5)
    np.testing.assert_allclose(A.linear(T(x), T(w), T(b)).numpy(), x @ w.T + b, rtol=1e-5)
    np.testing.assert_allclose(A.addmm(T(b), T(x), T(w).t(), beta=2).numpy(), 2 * b + x @ w.T, rtol=1e-5)


def test_views_share_memory_and_version():
    x = opyard.zeros(3, 4)
    v = x[1]
    assert v._base is x and v.storage_offset() == 4
    v.add_(1)
    assert x.sum().item() == 4 and x._version == v._version == 1
    t = x.t()
    assert t.shape == (4, 3) and t.stride() == (1, 4) and not t.is_contiguous()
    x[0, 0] = 5.0
    assert t[0, 0].item() == 5.0 and x._version == 2
    r = x.view(12)
    assert r._base is x and r.shape == (12,)


def test_view_incompatible_raises_reshape_copies():
    t = opyard.zeros(3, 4).t()
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        t.view(12)
    assert t.reshape(12).shape == (12,)


def test_indexing_matches_numpy():
    x = arr(4, 5, 6)
    t = T(x)
    for key in [1, (1, 2), (slice(1, 3),), (Ellipsis, 2), (None, 0), (slice(None), slice(None, None, 2))]:
        np.testing.assert_array_equal(t[key].numpy(), x[key])
    idx = opyard.tensor([0, 2])
    np.testing.assert_array_equal(t[idx].numpy(), x[[0, 2]])
    mask = T(x > 0)
    np.testing.assert_array_equal(t[mask].numpy(), x[x > 0])


def test_index_assignment_is_in_place():
    t = opyard.zeros(3)
    t[opyard.tensor([0, 2])] = opyard.tensor([1.0, 2.0])
    assert t.tolist() == [1.0, 0.0, 2.0] and t._version == 1


def test_cat_stack_split_chunk_gather_scatter():
    a, b = arr(2, 3), arr(2, 3)
    np.testing.assert_array_equal(opyard.cat([T(a), T(b)], 1).numpy(), np.concatenate([a, b], 1))
    np.testing.assert_array_equal(opyard.stack([T(a), T(b)]).numpy(), np.stack([a, b]))
    assert [p.shape for p in T(arr(5, 2)).split(2)] == [(2, 2), (2, 2), (1, 2)]
    assert [p.shape for p in T(arr(5, 2)).chunk(2)] == [(3, 2), (2, 2)]
    idx = opyard.tensor([[0, 0], [1, 0]])
    np.testing.assert_array_equal(opyard.gather(T(a[:, :2]), 1, idx).numpy(), np.take_along_axis(a[:, :2], idx.numpy(), 1))
    s = opyard.zeros(2, 3).scatter(1, opyard.tensor([[2], [0]]), 7.0)
    assert s.tolist() == [[0, 0, 7], [7, 0, 0]]


def test_where_masked_fill_nonzero_clamp():
    x = arr(6)
    t = T(x)
    np.testing.assert_array_equal(opyard.where(t > 0, t, opyard.zeros(6)).numpy(), np.where(x > 0, x, 0))
    np.testing.assert_array_equal(t.masked_fill(t < 0, 0.0).numpy(), np.where(x < 0, 0, x))
    assert opyard.tensor([0, 1, 0, 3]).nonzero().tolist() == [[1], [3]]
    np.testing.assert_allclose(t.clamp(-0.5, 0.5).numpy(), np.clip(x, -0.5, 0.5))


def test_factories():
    assert opyard.zeros(2, 3).shape == (2, 3) and opyard.zeros((2, 3)).dtype is opyard.float32
    assert opyard.ones(2, dtype=opyard.int64).tolist() == [1, 1]
    assert opyard.full((2,), 7).dtype is opyard.int64
    assert opyard.arange(5).tolist() == [0, 1, 2, 3, 4] and opyard.arange(0, 1, 0.5).dtype is opyard.float32
    assert opyard.eye(2).tolist() == [[1, 0], [0, 1]]
    assert opyard.tensor([True, False]).dtype is opyard.bool
    assert opyard.tensor([1, 2.5]).dtype is opyard.float32
    opyard.manual_seed(3)
    a = opyard.randn(4)
    opyard.manual_seed(3)
    assert opyard.randn(4).tolist() == a.tolist()
    x = opyard.randn(3)
    assert x.new_empty((2, 2), dtype=opyard.int64).dtype is opyard.int64
    assert opyard.zeros_like(x).tolist() == [0, 0, 0]


def test_from_numpy_shares_memory_and_dlpack():
    a = np.zeros(3, dtype=np.float32)
    t = opyard.from_numpy(a)
    a[0] = 1
    assert t[0].item() == 1
    assert opyard.from_dlpack(a).numpy() is not None
    assert np.shares_memory(opyard.from_dlpack(t).numpy(), a)


def test_repr_like_torch():
    assert repr(opyard.tensor([1.0, 2.0])) == "tensor([1., 2.])"
    assert repr(opyard.tensor([1, 2])) == "tensor([1, 2])"
    assert repr(opyard.tensor([1.5, 2.0])) == "tensor([1.5000, 2.0000])"
    assert repr(opyard.tensor([1.0], dtype=opyard.float64)) == "tensor([1.], dtype=opyard.float64)"
    assert repr(opyard.tensor([1.0, 2.0], requires_grad=True)) == "tensor([1., 2.], requires_grad=True)"
    assert repr(opyard.zeros(2, 3, device="meta")) == "tensor(..., device='meta', size=(2, 3))"
    assert repr(opyard.tensor(3.0)) == "tensor(3.)"
    assert repr(opyard.zeros(2, 2)) == "tensor([[0., 0.],\n        [0., 0.]])"
    assert repr(opyard.Size([2, 3])) == "opyard.Size([2, 3])"


META_CASES = [
    ("add", lambda m: opyard.add(m(2, 3), m(3))),
    ("mul scalar", lambda m: m(2, 3) * 2),
    ("sum dim", lambda m: m(2, 3, 4).sum(1)),
    ("sum keepdim", lambda m: m(2, 3, 4).sum([0, 2], True)),
    ("max dim", lambda m: m(2, 3).max(1)[0]),
    ("mm", lambda m: m(2, 3).mm(m(3, 5))),
    ("matmul batched", lambda m: m(4, 2, 3) @ m(3, 5)),
    ("t", lambda m: m(2, 3).t()),
    ("transpose", lambda m: m(2, 3, 4).transpose(0, 2)),
    ("view", lambda m: m(2, 3).view(6)),
    ("expand", lambda m: m(3, 1).expand(3, 4)),
    ("cat", lambda m: opyard.cat([m(2, 3), m(1, 3)])),
    ("softmax", lambda m: opyard.softmax(m(2, 3), 1)),
    ("select", lambda m: m(2, 3)[1]),
    ("unsqueeze", lambda m: m(2, 3).unsqueeze(1)),
    ("comparison", lambda m: m(2, 3) > 0),
    ("argmax", lambda m: m(2, 3).argmax(1)),
    ("where", lambda m: opyard.where(m(2, 3) > 0, m(2, 3), m(3))),
    ("linear", lambda m: A.linear(m(2, 3), m(4, 3), m(4))),
]


@pytest.mark.parametrize("name, fn", META_CASES, ids=[c[0] for c in META_CASES])
def test_meta_matches_cpu(name, fn):
    real = fn(lambda *s: opyard.randn(*s))
    meta = fn(lambda *s: opyard.empty(*s, device="meta"))
    assert meta.device.type == "meta"
    assert meta.shape == real.shape and meta.dtype is real.dtype


def test_meta_has_no_data():
    m = opyard.empty(2, device="meta")
    for fn, name in ((m.numpy, "numpy"), (m.item, "item"), (m.tolist, "tolist")):
        with pytest.raises(RuntimeError, match=f"{name}: meta tensors hold no data"):
            fn()


def test_mixed_devices_raise():
    with pytest.raises(RuntimeError, match="Expected all tensors to be on the same device, but found at least two devices, cpu and meta"):
        opyard.add(opyard.ones(2), opyard.ones(2, device="meta"))


def test_cuda_without_cupy_is_a_clear_error():
    if opyard.cuda.is_available():
        assert opyard.ones(2).cuda().device.type == "cuda"
    else:
        with pytest.raises(RuntimeError, match="CUDA is not available"):
            opyard.ones(2).cuda()


def test_aten_override_changes_division_and_destroy_restores():
    calls = []

    def div_cpu(self, other):
        calls.append(1)
        return self * (1 / other)

    a, b = opyard.tensor([2.0, 4.0]), opyard.tensor([2.0, 2.0])
    lib = Library("aten", "IMPL")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Overriding a previously registered kernel" (warned once per process)
        lib.impl("div.Tensor", div_cpu, "CPU")
    assert (a / b).tolist() == [1.0, 2.0] and calls == [1]
    lib._destroy()
    assert (a / b).tolist() == [1.0, 2.0] and calls == [1]


def test_numpy_errors():
    x = opyard.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Can't call numpy\(\) on Tensor that requires grad"):
        x.numpy()
    assert x.numpy(force=True).tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="cannot be converted to Scalar"):
        x.item()


def test_inplace_cast_rule():
    i = opyard.ones(2, dtype=opyard.int64)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        i.add_(opyard.ones(2))


def test_to_and_casts():
    x = opyard.tensor([1.5, 2.5])
    assert x.to(opyard.float64).dtype is opyard.float64
    assert x.long().tolist() == [1, 2] and x.to(x) is x
    assert x.to("meta").device.type == "meta"
    assert x.type() == "opyard.FloatTensor"


def test_privateuse1_backend_runs_numpy_kernels():
    x = opyard.ones(2, device="privateuseone")
    y = (x + 1).sin()
    assert y.device.type == x.device.type
    np.testing.assert_allclose(y.cpu().numpy(), np.sin(2 * np.ones(2)), rtol=1e-6)
