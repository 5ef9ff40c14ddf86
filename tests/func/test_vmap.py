"""``opyard.vmap``: in_dims/out_dims (nested), chunk_size, randomness, and torch's errors."""

import warnings

import numpy as np
import opyard as O
import pytest
from opyard.dispatcher import DispatchKey
from opyard.func import BatchedTensor

X = O.randn(3, 4)


def close(a, b):
    assert a.shape == b.shape
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)


def test_public_names():
    assert O.vmap is O.func.vmap


def test_inputs_are_batched_tensors_on_the_batched_key():
    seen = []

    def f(r):
        seen.append((type(r), r.shape, r._keyset & (1 << DispatchKey.Batched) != 0))
        return r
    close(O.vmap(f)(X), X)
    assert seen == [(BatchedTensor, (4,), True)]


def test_function_runs_once_per_call():
    calls = []
    O.vmap(lambda r: calls.append(1) or r.sin())(O.randn(64, 2))
    assert calls == [1]


@pytest.mark.parametrize("in_dims,arg,want", [
    (1, X, X.t().sin()), (-1, X, X.t().sin()), ((1,), X, X.t().sin()),
])
def test_in_dims(in_dims, arg, want):
    close(O.vmap(lambda r: r.sin(), in_dims=in_dims)(arg), want)


def test_in_dims_none_and_nested_pytrees():
    v = O.randn(4)
    out = O.vmap(lambda a, b: a + b, in_dims=(0, None))(X, v)
    close(out, X + v)
    d = {"a": X, "b": v}
    out = O.vmap(lambda d: d["a"] * d["b"], in_dims=({"a": 0, "b": None},))(d)
    close(out, X * v)
    out = O.vmap(lambda pair: pair[0] - pair[1], in_dims=((0, 1),))((X, X.t()))
    close(out, O.zeros(3, 4))


def test_kwargs_are_not_mapped():
    close(O.vmap(lambda r, *, scale: r * scale)(X, scale=O.ones(4) * 2), X * 2)


@pytest.mark.parametrize("out_dims,want", [(0, X.sin()), (1, X.sin().t()), (-1, X.sin().t()), ((1,), X.sin().t())])
def test_out_dims(out_dims, want):
    close(O.vmap(lambda r: r.sin(), out_dims=out_dims)(X), want)


def test_out_dims_per_output_and_none():
    a, b = O.vmap(lambda r: (r, r.sum()), out_dims=(1, 0))(X)
    close(a, X.t())
    close(b, X.sum(1))
    v = O.randn(2)
    assert O.vmap(lambda r: (r, v), out_dims=(0, None))(X)[1] is v
    assert O.vmap(lambda r: (r, 3), out_dims=(0, None))(X)[1] == 3


def test_unbatched_output_is_expanded():
    v = O.randn(5)
    close(O.vmap(lambda r: v)(X), v.expand(3, 5))
    close(O.vmap(lambda r: v, out_dims=1)(X), v.unsqueeze(1).expand(5, 3))


def test_dict_outputs():
    out = O.vmap(lambda r: {"s": r.sin(), "c": r.cos()})(X)
    close(out["s"], X.sin())
    close(out["c"], X.cos())


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 10])
def test_chunk_size(chunk_size):
    close(O.vmap(lambda r: r.sin() * 2, chunk_size=chunk_size)(X), X.sin() * 2)
    a, b = O.vmap(lambda r: (r, r.sum()), out_dims=(1, 0), chunk_size=chunk_size)(X)
    close(a, X.t())
    close(b, X.sum(1))


ERRORS = [
    ({"in_dims": 2}, (X,), ValueError,
     (r"Got in_dim=2 for some input, but that input is a Tensor of dimensionality 2 so expected in_dim to satisfy "
     r"-2 <= in_dim < 2")),
    ({"in_dims": (0, 0)}, (X,), ValueError, r"in_dims is not compatible with the structure of `inputs`"),
    ({"in_dims": "a"}, (X,), ValueError, r"expected `in_dims` to be int or a \(potentially nested\) tuple"),
    ({"in_dims": None}, (X,), ValueError, r"expected `in_dims` to be int or a \(potentially nested\) tuple"),
    ({"in_dims": [0]}, (X,), ValueError, r"got: <class 'list'>"),
    ({"in_dims": (None,)}, (X,), ValueError, r"vmap: Expected at least one Tensor to vmap over"),
    ({}, (3,), ValueError, (r"Got in_dim=0 for an input but the input is of type <class 'int'>. We cannot vmap "
                               r"over non-Tensor arguments, please use None as the respective in_dim")),
    ({}, (X, O.randn(4, 4)), ValueError,
     r"Expected all tensors to have the same size in the mapped dimension, got sizes \[3, 4\]"),
    ({}, (), ValueError, r"got no inputs. Maybe you forgot to add inputs"),
]


@pytest.mark.parametrize("kwargs,args,exc,match", ERRORS)
def test_input_errors(kwargs, args, exc, match):
    with pytest.raises(exc, match=match):
        O.vmap(lambda *a: a[0], **kwargs)(*args)


@pytest.mark.parametrize("f,out_dims,exc,match", [
    (lambda r: 3, 0, ValueError, (r"`<lambda>` must only return Tensors, got type <class 'int'>. Did you mean to "
                                 r"set out_dims= to None for output\?")),
    (lambda r: r, None, ValueError, r"can not return a BatchedTensor when out_dim is None"),
    (lambda r: (r, r), (0, 0, 0), ValueError, r"out_dims is not compatible with the structure of `outputs`"),
    (lambda r: r, "a", ValueError, r"`out_dims` must be an int, None or a python collection of ints"),
    (lambda r: r, 5, IndexError, r"Dimension out of range"),
])
def test_output_errors(f, out_dims, exc, match):
    with pytest.raises(exc, match=match):
        O.vmap(f, out_dims=out_dims)(X)


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"randomness": "x"}, RuntimeError, (r"Only allowed values for randomness are 'error', 'different', or "
                                         r"'same'. Got x")),
    ({"chunk_size": 0}, ValueError, r"vmap: chunk_size should be None or greater than 0. \(got 0\)"),
])
def test_vmap_argument_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        O.vmap(lambda r: r, **kwargs)


@pytest.mark.parametrize("f,match", [
    (lambda r: r.sum().item(), r"vmap: It looks like you're calling .item\(\) on a Tensor"),
    (lambda r: float(r.sum()), r"calling .item\(\)"),
    (lambda r: r if r.sum() > 0 else -r, r"data-dependent control flow"),
    (lambda r: r.numpy(), r"^Cannot access data pointer of Tensor that doesn't have storage$"),
    (lambda r: r.tolist(), r"Cannot access data pointer of Tensor"),
    (lambda r: O.nonzero(r), (r"We do not support batching operators that can output dynamic shape. Attempted to "
                             r"vmap over aten::nonzero")),
    (lambda r: O.allclose(r, r), r"vmap over opyard.allclose isn't supported yet"),
])
def test_data_dependent_errors(f, match):
    with pytest.raises(RuntimeError, match=match):
        O.vmap(f)(X)


def test_inplace_into_unbatched_tensor_is_an_error():
    y = O.zeros(4)
    with pytest.raises(RuntimeError, match=r"vmap: aten::add_\(self, \*extra_args\) is not possible because there exists "
                                           r"a Tensor `other` in extra_args that has more elements than `self`"):
        O.vmap(lambda r: y.add_(r))(X)
    assert y.tolist() == [0.0] * 4


def test_inplace_into_batched_input_writes_through():
    x = X.clone()
    out = O.vmap(lambda r: r.mul_(2))(x)
    close(x, X * 2)
    close(out, X * 2)


def test_batched_repr_names_level():
    text = []
    O.vmap(lambda r: text.append(repr(r)) or r)(X)
    assert text[0].startswith("BatchedTensor(lvl=") and ", bdim=0, value=" in text[0]


def test_escaped_batched_tensor_is_an_error():
    kept = []
    O.vmap(lambda r: kept.append(r) or r)(X)
    with pytest.raises(RuntimeError, match=r"was used outside the vmap that created it"):
        O.cat([kept[0], O.zeros(4)])  # a rule that needs the batch size
    with pytest.raises(RuntimeError, match=r"Cannot access data pointer of Tensor that doesn't have storage"):
        (kept[0] + 1).numpy()  # cheap rules still work on it, but its data never leaks out
    # inside a later vmap it is not mistaken for a batch of that vmap
    out = O.vmap(lambda r: r + kept[0])(O.zeros(3, 4))
    assert isinstance(out, BatchedTensor)


def test_layers_are_popped_after_an_error():
    from opyard.func.batched import layers

    with pytest.raises(ZeroDivisionError):
        O.vmap(lambda r: 1 / 0)(X)
    assert layers() == []


# --- randomness --------------------------------------------------------------------------------------
def test_randomness_error():
    with pytest.raises(RuntimeError, match=r"vmap: called random operation while in randomness error mode"):
        O.vmap(lambda r: r + O.randn(4))(X)
    with pytest.raises(RuntimeError, match=r"randomness error mode"):
        O.vmap(lambda r: O.rand_like(r))(X)


def test_randomness_different_and_same():
    out = O.vmap(lambda r: r * 0 + O.randn(4), randomness="different")(X)
    assert out.shape == (3, 4) and not np.allclose(out[0].numpy(), out[1].numpy())
    out = O.vmap(lambda r: r * 0 + O.randn(4), randomness="same")(X)
    assert np.allclose(out[0].numpy(), out[1].numpy()) and np.allclose(out[0].numpy(), out[2].numpy())
    out = O.vmap(lambda r: O.rand_like(r), randomness="different")(X)
    assert out.shape == (3, 4) and not np.allclose(out[0].numpy(), out[1].numpy())
    out = O.vmap(lambda r: O.rand_like(r), randomness="same")(X)
    assert out.shape == (3, 4) and np.allclose(out[0].numpy(), out[2].numpy())
    out = O.vmap(lambda r: r.clone().uniform_(), randomness="same")(X)
    assert np.allclose(out[0].numpy(), out[1].numpy())
    out = O.vmap(lambda r: r.clone().normal_(), randomness="different")(X)
    assert not np.allclose(out[0].numpy(), out[1].numpy())


def test_randomness_different_on_unbatched_tensor():
    base = O.zeros(4)
    out = O.vmap(lambda r: O.rand_like(base) + r * 0, randomness="different")(X)
    assert out.shape == (3, 4) and not np.allclose(out[0].numpy(), out[1].numpy())
    with pytest.raises(RuntimeError, match=r"vmap: Cannot ask for different inplace randomness on an unbatched "
                                           r"tensor"):
        O.vmap(lambda r: base.clone().uniform_() + r, randomness="different")(X)


def test_random_ops_outside_vmap_are_untouched():
    assert O.randn(3).shape == (3,)


def test_fallback_warns_once_and_loops():
    # Per-example indices have no batching rule: the per-example fallback runs and warns (once per op;
    # forget an earlier test's warning of this op first).
    from opyard.func.rules import fallback

    fallback._warned.discard("aten::index_put")
    idx = O.tensor([[0], [2], [1]])
    with pytest.warns(UserWarning, match=r"There is a performance drop because we have not yet implemented the "
                                         r"batching rule for aten::index_put: .* Please file an issue at "
                                         r"https://github.com/opyard/opyard/issues"):
        out = O.vmap(lambda r, j: O.ops.aten.index_put(r, [j], O.tensor(9.0)))(X, idx)
    want = X.clone()
    for i, j in enumerate([0, 2, 1]):
        want[i, j] = 9.0
    close(out, want)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        O.vmap(lambda r, j: O.ops.aten.index_put(r, [j], O.tensor(9.0)))(X, idx)


def test_inner_vmap_returning_an_outer_batched_tensor_expands_it():
    xs, ys = O.randn(3, 4), O.randn(5, 4)
    close(O.vmap(lambda x: O.vmap(lambda y: x)(ys))(xs), xs.unsqueeze(1).expand(3, 5, 4))
    assert O.vmap(lambda x: O.vmap(lambda y: x, out_dims=1)(ys))(xs).shape == (3, 4, 5)


def test_vmap_levels_are_per_thread():
    import threading

    errors = []

    def run():
        try:
            for _ in range(50):
                a = O.randn(6, 3)
                got = O.vmap(lambda r: O.vmap(lambda q: q * r.sum())(a))(a)
                close(got, O.stack([O.stack([q * r.sum() for q in a]) for r in a]))
                # VmapMode is per thread: off again here, whatever the other threads are inside.
                assert O.randn(2).shape == (2,)
                with pytest.raises(RuntimeError, match=r"randomness error mode"):
                    O.vmap(lambda r: r + O.randn(3))(a)
                assert O.randn(2).shape == (2,)
        except Exception as e:  # noqa: BLE001 -- collected and re-raised in the main thread
            errors.append(e)
    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
