"""The batched tensor in Rust: its fields on TensorBase, ``wrap``, the pointwise rules and ``vmap``'s
common call (Note [Batched tensors in Rust], Note [Pointwise batching in Rust]).

Every case compares the Rust kernel with the Python rule it replaces (its ``__wrapped__``) and the
vmapped result with a per-example loop computed by numpy; with ``OPYARD_FASTPATH=0`` the Python
rules run everywhere and the same expectations hold.
"""

import numpy as np
import pytest

import opyard
from opyard import _core
from opyard.func import batched as B
from opyard.func.batched import BatchedTensor, wrap, wrap_general
from opyard.func.rules import pointwise

FAST = _core.FAST_PATHS


@pytest.mark.parametrize("make", [wrap, wrap_general])
def test_wrap_makes_the_logical_view(make):
    x = opyard.randn(5, 3, 2)
    t = make(x, 7)
    assert t.__class__ is BatchedTensor
    assert t._value is x and t._level == 7
    assert t.shape == (3, 2) and t.dtype == opyard.float32 and t.dim() == 2
    assert t._data.base is not None and np.shares_memory(t._data, x._data)
    assert t._keyset == x._keyset | B.BATCHED_BIT


@pytest.mark.parametrize("shape", [(0, 3), (4,)])
def test_wrap_empty_batch_and_vector(shape):
    x = opyard.zeros(*shape)
    for make in (wrap, wrap_general):
        t = make(x, 3)
        assert tuple(t.shape) == shape[1:] and t._value is x


def test_plain_tensors_have_no_batch_fields():
    x = opyard.ones(2)
    assert x._value is None and x._level is None


@pytest.mark.skipif(not FAST, reason="the Rust kernels are installed with the fast paths on")
@pytest.mark.parametrize("name,unary", [("sin", True), ("exp", True), ("mul.Tensor", False), ("add.Tensor", False),
                                        ("mul.Scalar", True), ("zeros_like", True)])
def test_pointwise_ops_get_the_rust_kernel(name, unary):
    from opyard.func import rules
    assert rules.RULES[name] in (pointwise.unary_rule, pointwise.pointwise_rule)
    assert (rules.RULES[name] is pointwise.unary_rule) == unary


def _mapped_cases():
    r = np.random.default_rng(0)
    a = r.standard_normal((4, 3, 2)).astype(np.float32)
    b = r.standard_normal((4, 3, 2)).astype(np.float32)
    row = r.standard_normal(2).astype(np.float32)
    return [
        ("unary", lambda x: opyard.sin(x), (a,), (0,)),
        ("scalar", lambda x: x * 2 + 1, (a,), (0,)),
        ("same rank", lambda x, y: x * y - y, (a, b), (0, 0)),
        ("unbatched lower rank", lambda x, y: x + y, (a, row), (0, None)),
        ("batched lower rank (padding, Python rule)", lambda x, y: x + y, (row[None].repeat(4, 0), b), (0, 0)),
        ("0-dim batched, other dtype (promotion, Python rule)",
         lambda x, y: x * y, (a[:, 0, 0].astype(np.float64), a), (0, 0)),
        ("in_dims 1", lambda x: opyard.exp(x) / 3, (np.ascontiguousarray(a.transpose(1, 0, 2)),), (1,)),
        ("where (Python rule)", lambda x, y: opyard.where(x > 0, x, y), (a, b), (0, 0)),
    ]


@pytest.mark.parametrize("label,f,arrays,dims", _mapped_cases(), ids=[c[0] for c in _mapped_cases()])
def test_vmap_agrees_with_a_loop(label, f, arrays, dims):
    xs = [opyard.tensor(a) for a in arrays]
    got = opyard.vmap(f, in_dims=dims)(*xs)
    moved = [a if d is None else np.moveaxis(a, d, 0) for a, d in zip(arrays, dims)]
    n = next(m.shape[0] for m, d in zip(moved, dims) if d is not None)
    want = np.stack([np.asarray(f(*[opyard.tensor(m if d is None else m[i]) for m, d in zip(moved, dims)]).numpy())
                     for i in range(n)])
    assert got.dtype == opyard.tensor(want).dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


def test_nested_vmap_and_out_dims():
    x = opyard.randn(3, 4, 5)
    y = opyard.randn(4, 5)
    got = opyard.vmap(opyard.vmap(lambda r, s: opyard.sin(r) * s + 1), in_dims=(0, None))(x, y)
    np.testing.assert_allclose(got.numpy(), np.sin(x.numpy()) * y.numpy() + 1, rtol=1e-5, atol=1e-6)
    got = opyard.vmap(lambda r: r * 2, out_dims=1)(x)
    np.testing.assert_allclose(got.numpy(), np.moveaxis(x.numpy() * 2, 0, 1))
    c = opyard.ones(2)
    pair = opyard.vmap(lambda r: (r * 2, c + 1), out_dims=(0, None))(x)
    np.testing.assert_allclose(pair[0].numpy(), x.numpy() * 2)
    assert pair[1] is not None and tuple(pair[1].shape) == (2,)


def test_unbatched_output_is_expanded():
    x = opyard.randn(3, 2)
    c = opyard.ones(2)
    got = opyard.vmap(lambda r: c * 2)(x)
    assert tuple(got.shape) == (3, 2)


def test_an_error_inside_restores_levels_and_keys():
    before = _core._local_keysets()
    with pytest.raises(RuntimeError, match="data-dependent control flow"):
        opyard.vmap(lambda r: 1 if r.sum() else 0)(opyard.randn(3, 2))
    assert B._stack.levels == [] and _core._local_keysets() == before
    # The next call works.
    x = opyard.randn(3, 2)
    np.testing.assert_allclose(opyard.vmap(lambda r: r * 2)(x).numpy(), x.numpy() * 2)


@pytest.mark.skipif(not FAST, reason="the Rust kernels are installed with the fast paths on")
def test_rust_kernel_and_python_rule_agree():
    op = opyard.ops.aten.mul.Tensor
    rust = _core._BatchedPointwise(op, pointwise.pointwise_rule(op), unary=False)
    assert rust.__wrapped__.__qualname__ == "batch_rule<aten::mul.Tensor>" == rust.__qualname__
    pa, pb = opyard.randn(4, 3), opyard.randn(4, 3)
    layer = B.push_layer(4, "error", "f")
    try:
        with B._state.vmap_mode:
            a, b = wrap(pa, layer.level), wrap(pb, layer.level)
            boxed = rust(a, b)  # the boxed call is the Python rule
            fast = a * b        # the dispatcher's call takes the Rust path
            assert boxed.__class__ is fast.__class__ is BatchedTensor
            np.testing.assert_array_equal(boxed._value.numpy(), fast._value.numpy())
            assert fast._level == layer.level
    finally:
        B.pop_layer(layer)


def test_per_sample_grads_match_a_loop():
    func = opyard.func
    x, y = opyard.randn(6, 4, dtype=opyard.float64), opyard.randn(6, dtype=opyard.float64)
    w = opyard.randn(4, dtype=opyard.float64)

    def loss(w, xi, yi):
        return ((xi @ w - yi) ** 2).mean()

    got = func.vmap(func.grad(loss), in_dims=(None, 0, 0))(w, x, y)
    want = np.stack([2 * (x.numpy()[i] @ w.numpy() - y.numpy()[i]) * x.numpy()[i] for i in range(6)])
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-10)
