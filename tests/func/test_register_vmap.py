"""``register_vmap``: a custom op's (or a Library op's) rule runs wherever the op meets a batched tensor."""

import warnings

import numpy as np
import opyard as O
import pytest
from opyard import Tensor
from opyard.library import Library, custom_op, register_vmap

X = O.randn(5, 3)


def close(a, b):
    assert a.shape == b.shape
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


@pytest.fixture
def mysin(ns):
    calls = []

    @custom_op(f"{ns}::mysin", mutates_args=())
    def mysin(x: Tensor) -> Tensor:
        return O.from_numpy(np.sin(x.numpy()))  # reads the data: only correct on a plain tensor

    @mysin.register_vmap
    def _(info, in_dims, x):
        calls.append((info.batch_size, info.randomness, in_dims, tuple(x.shape)))
        return mysin(x.movedim(in_dims[0], 0) if in_dims[0] is not None else x), 0 if in_dims[0] is not None else None
    mysin.calls = calls
    return mysin


def test_rule_runs_inside_any_function(mysin):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no per-example fallback
        out = O.vmap(lambda r: mysin(r * 2) + 1)(X)
    close(out, (X * 2).sin() + 1)
    assert mysin.calls == [(5, "error", (0,), (5, 3))]


def test_rule_sees_info_and_in_dims(mysin):
    O.vmap(lambda r: mysin(r), randomness="same", in_dims=1)(X)
    assert mysin.calls == [(3, "same", (0,), (3, 5))]


def test_rule_in_nested_vmaps(mysin):
    out = O.vmap(O.vmap(lambda r: mysin(r) * 2))(O.randn(2, 4, 3))
    assert out.shape == (2, 4, 3)
    assert [c[0] for c in mysin.calls] == [4, 2]  # the inner level is unwrapped first


def test_rule_for_op_called_directly_and_numbers_match_loop(mysin):
    close(O.vmap(mysin)(X), O.stack([mysin(r) for r in X]))


def test_rule_with_unbatched_and_batched_arguments(ns):
    @custom_op(f"{ns}::axpy", mutates_args=())
    def axpy(a: float, x: Tensor, y: Tensor) -> Tensor:
        return x * a + y

    seen = []

    @axpy.register_vmap
    def _(info, in_dims, a, x, y):
        seen.append(in_dims)
        x = x if in_dims[1] is not None else x.expand(info.batch_size, *x.shape)
        y = y if in_dims[2] is not None else y.expand(info.batch_size, *y.shape)
        return axpy(a, x, y), 0
    y = O.randn(3)
    out = O.vmap(lambda r: axpy(2.0, r, y))(X)
    close(out, X * 2 + y)
    assert seen == [(None, 0, None)]


def test_rule_returning_tuple_and_none_out_dim(ns):
    @custom_op(f"{ns}::pair", mutates_args=())
    def pair(x: Tensor) -> tuple[Tensor, Tensor]:
        return x.clone(), x.sum(0, keepdim=True)

    @pair.register_vmap
    def _(info, in_dims, x):
        return (x.clone(), O.zeros(1)), (0, None)
    a, b = O.vmap(pair, out_dims=(0, None))(X)
    close(a, X)
    close(b, O.zeros(1))


def test_free_function_and_library_op(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: O.from_numpy(x.numpy() * 2), "CPU")
    seen = []

    def rule(info, in_dims, x):
        seen.append(info.batch_size)
        return O.ops.__getattr__(ns).twice(x), in_dims[0]
    register_vmap(f"{ns}::twice", rule, lib=lib)
    out = O.vmap(lambda r: O.ops.__getattr__(ns).twice(r).sin())(X)
    close(out, (X * 2).sin())
    assert seen == [5]
    lib._destroy()


def test_custom_op_without_rule_falls_back_to_a_loop(ns):
    @custom_op(f"{ns}::norule", mutates_args=())
    def norule(x: Tensor) -> Tensor:
        return O.from_numpy(np.cumsum(x.numpy()))
    with pytest.warns(UserWarning, match=rf"batching rule for {ns}::norule: it runs once per example and the "
                                         rf"results are stacked. Register one with "
                                         rf"opyard.library.register_vmap\('{ns}::norule', rule\)"):
        out = O.vmap(lambda r: norule(r) * 2)(X)
    close(out, O.stack([norule(r) for r in X]) * 2)


@pytest.mark.parametrize("rule,exc,match", [
    (lambda info, in_dims, x: x, ValueError, r"expected it to return \(outputs, out_dims\)"),
    (lambda info, in_dims, x: (3, 0), ValueError, r"out_dims=0 for an output of type int"),
    (lambda info, in_dims, x: ((x, x), (0,)), ValueError, r"returned 2 outputs but 1 out_dims"),
])
def test_bad_rules(ns, rule, exc, match):
    @custom_op(f"{ns}::bad", mutates_args=())
    def bad(x: Tensor) -> Tensor:
        return x.clone()
    bad.register_vmap(rule)
    with pytest.raises(exc, match=match):
        O.vmap(bad)(X)


def test_register_vmap_rejects_non_callable(ns):
    @custom_op(f"{ns}::nc", mutates_args=())
    def nc(x: Tensor) -> Tensor:
        return x.clone()
    with pytest.raises(TypeError, match=rf"register_vmap\({ns}::nc.*\): expected a function"):
        nc.register_vmap(3)
