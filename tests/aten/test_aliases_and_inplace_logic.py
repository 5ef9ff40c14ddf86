"""torch's alias operators (``arccos``, ``clip``, ``fix``, ``greater``..., ``moveaxis``, ``swapaxes``,
``row_stack``, ``ger``) and the in-place comparisons, logical and bitwise ops (``eq_``, ``logical_and_``,
``bitwise_not_``, the in-place shifts): each an operator of its own with torch's schema, as function and
method where torch has them, computing what the operator it names computes; the in-place forms write
into ``self`` with torch's dtype and shape rules, and differentiate as torch's do."""

import numpy as np
import opyard
import pytest

_X = np.array([[0.5, -0.2, 2.0], [-1.5, 0.0, 0.25]])
_Y = np.array([[0.5, 0.3, -2.0], [1.0, 0.0, 0.25]])

# (alias call, the call of the operator it names)
ALIASES = [
    ("arccos", lambda t, u, m: m.arccos(t.clamp(-1, 1)), lambda t, u, m: m.acos(t.clamp(-1, 1))),
    ("arcsin", lambda t, u, m: m.arcsin(t.clamp(-1, 1)), lambda t, u, m: m.asin(t.clamp(-1, 1))),
    ("arctan", lambda t, u, m: m.arctan(t), lambda t, u, m: m.atan(t)),
    ("arccosh", lambda t, u, m: m.arccosh(t.abs() + 1), lambda t, u, m: m.acosh(t.abs() + 1)),
    ("arcsinh", lambda t, u, m: m.arcsinh(t), lambda t, u, m: m.asinh(t)),
    ("arctanh", lambda t, u, m: m.arctanh(t.clamp(-0.9, 0.9)), lambda t, u, m: m.atanh(t.clamp(-0.9, 0.9))),
    ("arctan2", lambda t, u, m: m.arctan2(t, u), lambda t, u, m: m.atan2(t, u)),
    ("clip", lambda t, u, m: m.clip(t, -0.3, 0.4), lambda t, u, m: m.clamp(t, -0.3, 0.4)),
    ("clip.Tensor", lambda t, u, m: m.clip(t, max=u), lambda t, u, m: m.clamp(t, max=u)),
    ("fix", lambda t, u, m: m.fix(t * 3), lambda t, u, m: m.trunc(t * 3)),
    ("greater", lambda t, u, m: m.greater(t, u), lambda t, u, m: m.gt(t, u)),
    ("greater_equal", lambda t, u, m: m.greater_equal(t, 0.25), lambda t, u, m: m.ge(t, 0.25)),
    ("less", lambda t, u, m: m.less(t, u), lambda t, u, m: m.lt(t, u)),
    ("less_equal", lambda t, u, m: m.less_equal(t, u), lambda t, u, m: m.le(t, u)),
    ("not_equal", lambda t, u, m: m.not_equal(t, u), lambda t, u, m: m.ne(t, u)),
    ("moveaxis", lambda t, u, m: m.moveaxis(t.reshape(1, 2, 3), 0, -1), lambda t, u, m: m.movedim(t.reshape(1, 2, 3), 0, -1)),
    ("moveaxis.intlist", lambda t, u, m: m.moveaxis(t.reshape(1, 2, 3), [0, 1], [2, 0]),
     lambda t, u, m: m.movedim(t.reshape(1, 2, 3), [0, 1], [2, 0])),
    ("swapaxes", lambda t, u, m: m.swapaxes(t, 0, 1), lambda t, u, m: m.transpose(t, 0, 1)),
    ("swapdims", lambda t, u, m: m.swapdims(t, 1, 0), lambda t, u, m: m.transpose(t, 1, 0)),
    ("row_stack", lambda t, u, m: m.row_stack([t, u]), lambda t, u, m: m.vstack([t, u])),
    ("ger", lambda t, u, m: m.ger(t[0], u[1]), lambda t, u, m: m.outer(t[0], u[1])),
]


@pytest.mark.parametrize("name, alias, target", ALIASES, ids=[a[0] for a in ALIASES])
def test_alias_computes_its_operator(name, alias, target):
    t, u = opyard.from_numpy(_X.copy()), opyard.from_numpy(_Y.copy())
    got, want = alias(t, u, opyard), target(t, u, opyard)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    base = name.partition(".")[0]
    assert hasattr(opyard.ops.aten, base) and hasattr(opyard, base)
    assert hasattr(opyard.Tensor, base) == (base != "row_stack")  # as torch's methods


@pytest.mark.parametrize("name", ["arccos_", "arcsin_", "arctan_", "arcsinh_", "arctanh_", "fix_", "clip_"])
def test_in_place_aliases_write_self(name):
    t = opyard.from_numpy((_X / 4).copy())
    args = (-0.1, 0.2) if name == "clip_" else ()
    want = getattr(t.clone(), {"fix_": "trunc_", "clip_": "clamp_"}.get(name, "a" + name[3:]))(*args)
    assert getattr(t, name)(*args) is t
    np.testing.assert_array_equal(t.numpy(), want.numpy())


@pytest.mark.parametrize("name", ["swapaxes_", "swapdims_"])
def test_in_place_swaps_transpose_self(name):
    t = opyard.from_numpy(_X.copy())
    assert getattr(t, name)(0, 1) is t and t.shape == (3, 2)
    np.testing.assert_array_equal(t.numpy(), _X.T)


def test_alias_schemas_are_torchs():
    assert str(opyard.ops.aten.greater_equal.Tensor._schema) == \
        "aten::greater_equal.Tensor(Tensor self, Tensor other) -> Tensor"
    assert str(opyard.ops.aten.swapaxes.default._schema) == \
        "aten::swapaxes(Tensor(a) self, int axis0, int axis1) -> Tensor(a)"
    assert str(opyard.ops.aten.clip_.Tensor._schema) == \
        "aten::clip_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)"


def test_alias_gradients():
    x = opyard.from_numpy((_X / 4).copy()).requires_grad_(True)
    assert opyard.autograd.gradcheck(lambda t: opyard.arctan2(opyard.arcsinh(t), opyard.clip(t, -0.2, 0.3) + 1), (x,))
    assert type(opyard.arccos(x).grad_fn).__name__ == "AcosBackward0"


CMP = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
       "ge": np.greater_equal}


@pytest.mark.parametrize("op", list(CMP))
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.bool_])
def test_in_place_comparisons_write_the_result_in_selfs_dtype(op, dtype):
    x = (_X * 2).astype(dtype)
    for other in (opyard.from_numpy((_Y * 2).astype(dtype)), 0.5, 1):
        t = opyard.from_numpy(x.copy())
        assert getattr(t, op + "_")(other) is t and t.dtype == opyard.from_numpy(x).dtype
        o = other.numpy() if isinstance(other, opyard.Tensor) else other
        np.testing.assert_array_equal(t.numpy(), CMP[op](x, o).astype(dtype))


@pytest.mark.parametrize("name, fn", [("logical_and_", np.logical_and), ("logical_or_", np.logical_or),
                                      ("logical_xor_", np.logical_xor)])
@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.bool_])
def test_in_place_logical_ops(name, fn, dtype):
    x, y = (_X * 2).astype(dtype), (_Y * 2).astype(dtype)
    t = opyard.from_numpy(x.copy())
    getattr(t, name)(opyard.from_numpy(y))
    np.testing.assert_array_equal(t.numpy(), fn(x, y).astype(dtype))
    t = opyard.from_numpy(x.copy())
    t.logical_not_()
    np.testing.assert_array_equal(t.numpy(), np.logical_not(x).astype(dtype))


def test_in_place_bitwise_ops():
    x = np.array([1, 2, 3, -4], dtype=np.int64)
    cases = [("bitwise_not_", (), ~x), ("bitwise_and_", (6,), x & 6), ("bitwise_or_", (8,), x | 8),
             ("bitwise_xor_", (5,), x ^ 5), ("bitwise_left_shift_", (2,), x << 2),
             ("bitwise_right_shift_", (1,), x >> 1),
             ("bitwise_left_shift_", (opyard.tensor([1, 0, 2, 1]),), x << np.array([1, 0, 2, 1]))]
    for name, args, want in cases:
        t = opyard.from_numpy(x.copy())
        assert getattr(t, name)(*args) is t
        np.testing.assert_array_equal(t.numpy(), want)
    b = opyard.tensor([True, False])
    b.bitwise_not_()
    assert b.tolist() == [False, True]


# torch 2.15's errors for the same calls.
@pytest.mark.parametrize("call, exc, message", [
    (lambda: opyard.tensor([0.5, -0.2, 2.0]).eq_(opyard.ones(2, 3)), RuntimeError,
     r"output with shape \[3\] doesn't match the broadcast shape \[2, 3\]"),
    (lambda: opyard.tensor([0.5, 2.0]).bitwise_not_(), NotImplementedError,
     "\"bitwise_not_cpu\" not implemented for 'Float'"),
    (lambda: opyard.tensor([0.5, 2.0]).bitwise_left_shift_(1), NotImplementedError,
     "\"lshift_cpu\" not implemented for 'Float'"),
    (lambda: opyard.randn(3, requires_grad=True).eq_(0), RuntimeError,
     "a leaf Variable that requires grad is being used in an in-place operation."),
])
def test_in_place_logic_errors(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_in_place_comparison_differentiates_to_zero_and_logical_leaves_history():
    # torch 2.15: eq_ records EqBackward1 (zeros for self and other); logical_not_ leaves the history.
    b = opyard.randn(3, requires_grad=True).clone()
    o = opyard.randn(3, requires_grad=True)
    b.eq_(o)
    assert b.grad_fn.name() == "EqBackward1"
    b.sum().backward()
    assert o.grad.tolist() == [0.0, 0.0, 0.0]
    x = opyard.randn(3, requires_grad=True)
    y = x * 2
    y.logical_not_()
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_in_place_logic_under_vmap_and_fake():
    x = opyard.randn(4, 3)
    out = opyard.vmap(lambda t: t.clone().gt_(opyard.zeros(3)))(x)
    np.testing.assert_array_equal(out.numpy(), (x.numpy() > 0).astype(np.float32))
    from opyard._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        f = opyard.empty(3, 4)
        assert f.clone().eq_(1).shape == (3, 4) and f.swapaxes(0, 1).shape == (4, 3)
