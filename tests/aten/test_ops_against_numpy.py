"""The built-in operators against numpy: dtypes, broadcasting, dims, keepdim; and their errors."""

import numpy as np
import pytest

import opyard

A = opyard.ops.aten
rng = np.random.default_rng(1)
FLOATS = [np.float32, np.float64]
NUMERIC = [np.float32, np.float64, np.int32, np.int64]


def data(*shape, dtype=np.float32, positive=False):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(1 if positive else -5, 6, shape).astype(dtype)
    x = rng.standard_normal(shape).astype(dtype)
    return np.abs(x) + 0.5 if positive else x


def T(a):
    return opyard.from_numpy(np.ascontiguousarray(a))


UNARY = {
    "exp": np.exp, "sin": np.sin, "cos": np.cos, "tan": np.tan, "tanh": np.tanh, "expm1": np.expm1,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "neg": np.negative, "abs": np.abs, "sign": np.sign,
    "floor": np.floor, "ceil": np.ceil, "round": np.round, "trunc": np.trunc, "square": np.square,
    "relu": lambda x: np.maximum(x, 0), "silu": lambda x: x / (1 + np.exp(-x)),
}
POSITIVE = {"log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt,
            "rsqrt": lambda x: 1 / np.sqrt(x), "reciprocal": np.reciprocal}


@pytest.mark.parametrize("name", sorted(UNARY))
@pytest.mark.parametrize("dtype", FLOATS)
def test_unary(name, dtype):
    x = data(3, 4, dtype=dtype)
    y = getattr(opyard, name)(T(x)) if hasattr(opyard, name) else getattr(T(x), name)()
    assert y.dtype.name == np.dtype(dtype).name
    np.testing.assert_allclose(y.numpy(), UNARY[name](x), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", sorted(POSITIVE))
@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
def test_unary_with_a_domain(name, dtype):
    x = data(5, dtype=dtype, positive=True)
    y = getattr(opyard, name)(T(x))
    assert y.dtype is (opyard.float32 if dtype != np.float64 else opyard.float64)  # ints: default float
    np.testing.assert_allclose(y.numpy(), POSITIVE[name](x.astype(y.numpy().dtype)), rtol=1e-5)


def test_domain_errors_give_nan_silently_like_torch():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert np.isnan(opyard.tensor([-1.0]).log().item()) and opyard.tensor([0.0]).log().item() == -np.inf
        assert (opyard.tensor([1.0]) / 0).item() == np.inf


BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "maximum": np.maximum,
          "minimum": np.minimum, "eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal,
          "gt": np.greater, "ge": np.greater_equal}
SHAPES = [((3, 4), (3, 4)), ((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((), (2,)), ((2, 0), (1, 0))]


@pytest.mark.parametrize("name", sorted(BINARY))
@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("dtype", NUMERIC)
def test_binary(name, shapes, dtype):
    a, b = data(*shapes[0], dtype=dtype), data(*shapes[1], dtype=dtype)
    got = getattr(opyard, name)(T(a), T(b))
    np.testing.assert_allclose(got.numpy(), BINARY[name](a, b), rtol=1e-6)
    assert got.shape == np.broadcast_shapes(a.shape, b.shape)


@pytest.mark.parametrize("op, ref", [("__add__", np.add), ("__sub__", np.subtract), ("__mul__", np.multiply),
                                     ("__truediv__", np.true_divide), ("__radd__", np.add),
                                     ("__rsub__", lambda x, s: s - x), ("__rmul__", np.multiply),
                                     ("__rtruediv__", lambda x, s: s / x), ("__pow__", np.power),
                                     ("__rpow__", lambda x, s: s ** x)])
@pytest.mark.parametrize("scalar", [2, 0.5])
def test_dunders_with_scalars(op, ref, scalar):
    x = data(4, dtype=np.float64, positive=True)
    np.testing.assert_allclose(getattr(T(x), op)(scalar).numpy(), ref(x, scalar), rtol=1e-12)


@pytest.mark.parametrize("call, scalar", [
    (lambda x, y: opyard.rsub(x, y, alpha=2), False),
    (lambda x, y: x.rsub(y, alpha=2), False),
    (lambda x, y: opyard.ops.aten.rsub.Tensor(x, y, alpha=2), False),
    (lambda x, y: opyard.ops.aten.rsub.Scalar(x, 5, 2), True),
    (lambda x, y: x.rsub(5, alpha=2), True),
], ids=["function", "method", "Tensor", "Scalar", "method-Scalar"])
@pytest.mark.parametrize("dtype", NUMERIC)
def test_rsub_alpha_scales_self(call, scalar, dtype):
    """torch's rsub is ``other - alpha * self`` (the derivative formula always said so)."""
    x, y = data(2, 3, dtype=dtype), data(3, dtype=dtype)
    np.testing.assert_allclose(call(T(x), T(y)).numpy(), (5 if scalar else y) - 2 * x, rtol=1e-6)


def test_alpha_rounding_modes_floor_divide_remainder():
    a, b = opyard.tensor([7, -7, 5]), opyard.tensor([2, 2, -3])
    assert opyard.add(a, b, alpha=2).tolist() == [11, -3, -1]
    assert opyard.sub(a, 1, alpha=3).tolist() == [4, -10, 2]
    assert opyard.div(a, b, rounding_mode="floor").tolist() == [3, -4, -2]
    assert opyard.div(a, b, rounding_mode="trunc").tolist() == [3, -3, -1]
    assert (a // b).tolist() == [3, -4, -2] and (a % b).tolist() == [1, 1, -1]
    assert opyard.div(opyard.tensor([7.0, -7.0]), 2, rounding_mode="trunc").tolist() == [3.0, -3.0]
    with pytest.raises(RuntimeError, match="argument alpha must not be a floating point number"):
        opyard.add(a, b, alpha=0.5)
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        a // opyard.tensor([0, 1, 1])


def test_bitwise_and_logical():
    a, b = opyard.tensor([True, False, True]), opyard.tensor([True, True, False])
    assert (a & b).tolist() == [True, False, False] and (a | b).tolist() == [True, True, True]
    assert (a ^ b).tolist() == [False, True, True] and (~a).tolist() == [False, True, False]
    assert (~opyard.tensor([0, 5])).tolist() == [-1, -6]
    assert opyard.logical_xor(a, b).tolist() == [False, True, True]
    with pytest.raises(NotImplementedError, match="\"bitwise_and_cpu\" not implemented for 'Float'"):
        opyard.ones(2) & opyard.ones(2)


@pytest.mark.parametrize("name, ref", [("sum", np.sum), ("mean", np.mean), ("amax", np.amax),
                                       ("amin", np.amin), ("prod", np.prod)])
@pytest.mark.parametrize("dim, keepdim", [(None, False), (0, False), (1, True), ([0, 2], False), (-1, True)])
def test_reductions(name, ref, dim, keepdim):
    x = data(2, 3, 4, dtype=np.float64)
    if dim is None:
        got, want = getattr(T(x), name)(), ref(x)
    elif name == "prod" and isinstance(dim, list):
        with pytest.raises(TypeError, match="failed to match any schema"):  # torch: prod takes one dim
            T(x).prod(dim, keepdim)
        return
    else:
        got = getattr(T(x), name)(dim, keepdim)
        want = ref(x, axis=tuple(dim) if isinstance(dim, list) else dim, keepdims=keepdim)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
    assert got.shape == np.shape(want)


def test_reduction_dtypes():
    i = opyard.tensor([[1, 2], [3, 4]], dtype=opyard.int32)
    assert i.sum().dtype is opyard.int64 and i.sum(dtype=opyard.float64).dtype is opyard.float64
    assert i.prod().item() == 24 and i.cumsum(1).tolist() == [[1, 3], [3, 7]]
    with pytest.raises(RuntimeError, match="mean\\(\\): could not infer output dtype"):
        i.mean()
    assert i.float().mean(0).tolist() == [2.0, 3.0]


def test_min_max_argmin_argmax_var_std():
    x = data(3, 5, dtype=np.float64)
    v, idx = T(x).max(1)
    np.testing.assert_allclose(v.numpy(), x.max(1))
    assert idx.tolist() == x.argmax(1).tolist() and idx.dtype is opyard.int64
    v, idx = T(x).min(0, keepdim=True)
    assert v.shape == (1, 5) and idx.tolist() == [x.argmin(0).tolist()]
    assert T(x).argmax().item() == x.argmax() and T(x).argmin(1).tolist() == x.argmin(1).tolist()
    np.testing.assert_allclose(opyard.max(T(x), T(x[::-1].copy())).numpy(), np.maximum(x, x[::-1]))
    np.testing.assert_allclose(T(x).var(1).numpy(), x.var(1, ddof=1))
    np.testing.assert_allclose(T(x).std(correction=0).numpy(), x.std())
    with pytest.raises(RuntimeError, match="Expected reduction dim to be specified for input.numel\\(\\) == 0"):
        opyard.zeros(0).max()


def test_softmax_sort_topk_any_all():
    x = data(3, 4, dtype=np.float64)
    s = opyard.softmax(T(x), -1).numpy()
    np.testing.assert_allclose(s, np.exp(x) / np.exp(x).sum(-1, keepdims=True))
    np.testing.assert_allclose(opyard.log_softmax(T(x), 0).numpy(), x - np.log(np.exp(x).sum(0)))
    vals, idx = opyard.sort(T(x), 1, True)
    np.testing.assert_allclose(vals.numpy(), -np.sort(-x, 1))
    vals, idx = opyard.topk(T(x), 2)
    np.testing.assert_allclose(vals.numpy(), -np.sort(-x, 1)[:, :2])
    assert opyard.tensor([0, 1]).any().item() and not opyard.tensor([0, 1]).all().item()
    with pytest.raises(RuntimeError, match="selected index k out of range"):
        opyard.topk(T(x), 9)


@pytest.mark.parametrize("sa, sb", [((3, 4), (4, 5)), ((4,), (4,)), ((2, 3, 4), (4, 5)), ((4,), (4, 2)),
                                    ((3, 4), (4,)), ((5, 2, 3), (5, 3, 2)), ((2, 1, 3, 4), (5, 4, 2))])
def test_matmul(sa, sb):
    a, b = data(*sa, dtype=np.float64), data(*sb, dtype=np.float64)
    np.testing.assert_allclose((T(a) @ T(b)).numpy(), a @ b)


def test_linalg_ops_and_errors():
    a, b, v = data(2, 3), data(3, 4), data(3)
    np.testing.assert_allclose(opyard.mv(T(a), T(v)).numpy(), a @ v, rtol=1e-6)
    np.testing.assert_allclose(opyard.outer(T(v), T(v)).numpy(), np.outer(v, v), rtol=1e-6)
    np.testing.assert_allclose(opyard.einsum("ij,jk->ik", T(a), T(b)).numpy(), a @ b, rtol=1e-5)
    np.testing.assert_allclose(opyard.addmm(T(data(4)), T(a), T(b), alpha=2).numpy().shape, (2, 4))
    with pytest.raises(RuntimeError, match="expected m1 and m2 to have the same dtype"):
        opyard.mm(T(a), T(b).double())
    with pytest.raises(RuntimeError, match="both arguments to matmul need to be at least 1D"):
        opyard.matmul(opyard.tensor(1.0), T(a))
    with pytest.raises(RuntimeError, match="1D tensors expected"):
        opyard.dot(T(a), T(a))


def test_indexing_ops():
    x = data(4, 5)
    idx = opyard.tensor([0, 3])
    np.testing.assert_array_equal(opyard.index_select(T(x), 0, idx).numpy(), x[[0, 3]])
    g = opyard.tensor([[0, 4], [1, 1], [2, 0], [3, 3]])
    np.testing.assert_array_equal(opyard.gather(T(x), 1, g).numpy(), np.take_along_axis(x, g.numpy(), 1))
    s = opyard.zeros(2, 3).scatter_add(1, opyard.tensor([[0, 0], [2, 2]]), opyard.ones(2, 2))
    assert s.tolist() == [[2, 0, 0], [0, 0, 2]]
    t = opyard.zeros(3)
    t.index_put_([opyard.tensor([0, 0])], opyard.tensor([1.0, 2.0]), accumulate=True)
    assert t.tolist() == [3, 0, 0]
    with pytest.raises(RuntimeError, match="gather\\(\\): Expected dtype int64 for index"):
        opyard.gather(T(x), 1, g.int())
    with pytest.raises(IndexError, match="tensors used as indices must be long, int, byte or bool tensors"):
        T(x)[opyard.tensor([0.5])]


def test_shape_ops():
    x = data(2, 3)
    assert opyard.cat([T(x), T(x)], 1).shape == (2, 6) and opyard.stack([T(x), T(x)], 2).shape == (2, 3, 2)
    np.testing.assert_array_equal(T(x).flip(0, 1).numpy(), x[::-1, ::-1])
    np.testing.assert_array_equal(T(x).repeat(2, 1, 2).numpy(), np.tile(x, (2, 1, 2)))
    np.testing.assert_array_equal(opyard.triu(T(data(3, 3)), 1).numpy() != 0, np.triu(np.ones((3, 3)), 1) != 0)
    assert opyard.cat([opyard.ones(2, dtype=opyard.int64), opyard.ones(1)]).dtype is opyard.float32
    with pytest.raises(RuntimeError, match="Sizes of tensors must match except in dimension 0"):
        opyard.cat([opyard.ones(2, 3), opyard.ones(2, 2)])
    with pytest.raises(RuntimeError, match="stack expects each tensor to be equal size"):
        opyard.stack([opyard.ones(2), opyard.ones(3)])


def test_where_clamp_masked_fill_nonzero():
    x = data(6)
    t = T(x)
    np.testing.assert_array_equal(opyard.where(t > 0, t, 0.0).numpy(), np.where(x > 0, x, 0).astype(np.float32))
    np.testing.assert_allclose(t.clamp(min=-0.5).numpy(), np.maximum(x, -0.5))
    np.testing.assert_allclose(t.clamp(T(np.full(6, -0.1, np.float32)), opyard.tensor(0.2)).numpy(), np.clip(x, -0.1, 0.2))
    np.testing.assert_array_equal(t.masked_fill(t < 0, 1.0).numpy(), np.where(x < 0, 1, x))
    assert opyard.tensor([[0, 1], [2, 0]]).nonzero().tolist() == [[0, 1], [1, 0]]
    with pytest.raises(RuntimeError, match="At least one of 'min' or 'max' must not be None"):
        t.clamp()
    with pytest.raises(RuntimeError, match="where expected condition to be a boolean tensor"):
        opyard.where(t, t, t)


def test_broadcast_errors_name_the_dimension():
    with pytest.raises(RuntimeError, match=r"The size of tensor a \(3\) must match the size of tensor b \(4\) "
                                           r"at non-singleton dimension 1 \(aten::add\)"):
        opyard.ones(2, 3) + opyard.ones(2, 4)
    with pytest.raises(RuntimeError, match="Subtraction, the `-` operator, with two bool tensors is not supported"):
        opyard.tensor([True]) - opyard.tensor([False])
    with pytest.raises(RuntimeError, match="Negation, the `-` operator, on a bool tensor is not supported"):
        -opyard.tensor([True])


def test_in_place_ops_return_self_and_bump_the_version():
    x = opyard.ones(2, 3)
    for op in (lambda t: t.add_(1), lambda t: t.mul_(2), lambda t: t.sub_(opyard.ones(3)),
               lambda t: t.div_(2), lambda t: t.clamp_(0, 1), lambda t: t.exp_(), lambda t: t.zero_(),
               lambda t: t.fill_(3), lambda t: t.copy_(opyard.ones(3)), lambda t: t.uniform_(),
               lambda t: t.normal_(), lambda t: t.pow_(2), lambda t: t.masked_fill_(t > 0, 0.0)):
        v = x._version
        assert op(x) is x and x._version == v + 1
    x += 1
    x *= 2
    assert x._version == 15
    with pytest.raises(RuntimeError, match=r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"):
        opyard.ones(3).add_(opyard.ones(2, 3))


def test_factories_through_the_dispatcher():
    assert opyard.linspace(0, 1, 5).tolist() == [0, 0.25, 0.5, 0.75, 1]
    assert opyard.arange(1, 2, 0.25).tolist() == [1, 1.25, 1.5, 1.75]
    assert opyard.eye(2, 3).tolist() == [[1, 0, 0], [0, 1, 0]]
    assert opyard.full((2,), True).dtype is opyard.bool and opyard.full((1,), 1.5).dtype is opyard.float32
    r = opyard.randint(3, 7, (100,))
    assert r.dtype is opyard.int64 and 3 <= r.min().item() and r.max().item() < 7
    with pytest.raises(RuntimeError, match="step must be nonzero"):
        opyard.arange(0, 1, 0)
