"""Every built-in batching rule against a Python loop over the examples.

Each case runs with warnings as errors: the per-example fallback warns, so a
case passing here ran its rule (one physical call), not a loop.
"""

import warnings

import numpy as np
import opyard as O
import pytest

O.manual_seed(0)
X = O.randn(4, 3, 5)
Y = O.randn(4, 5)
S = O.randn(4)
M = O.randn(4, 5, 2)
V = O.randn(5)
W = O.randn(5, 2)
IDX = O.randint(0, 3, (4, 2))


def _loop(f, args, dims):
    n = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
    outs = [f(*[a.select(d, i) if d is not None else a for a, d in zip(args, dims)]) for i in range(n)]
    if isinstance(outs[0], (tuple, list)):
        return [O.stack([o[j] for o in outs]) for j in range(len(outs[0]))]
    return [O.stack(outs)]


def check(f, *args, in_dims=0):
    dims = in_dims if isinstance(in_dims, tuple) else (in_dims,) * len(args)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = O.vmap(f, in_dims=in_dims)(*args)
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    want = _loop(f, args, dims)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5, atol=1e-6)


POINTWISE = {
    "sin": (lambda a: a.sin(), X),
    "chain": (lambda a: (a.exp() * 2 - 1).relu().sqrt(), X),
    "add broadcast lower rank": (lambda a, b: a + b, X, Y),
    "add unbatched": (lambda a: a + V, X),
    "radd unbatched": (lambda a: V + a, X),
    "mul 0-dim batched": (lambda a, b: a * b, X, S),
    "0-dim float64 keeps float32": (lambda a, b: a * b, X, S.double()),
    "int 0-dim with float": (lambda a, b: b * a, S.to(O.int64), X),
    "scalar": (lambda a: a * 2.5 + 1, X),
    "pow": (lambda a: a.abs() ** 1.5, X),
    "comparison": (lambda a, b: a < b, X, Y),
    "eq scalar": (lambda a: a == 0, X),
    "where": (lambda a: O.where(a > 0, a, 0.0), X),
    "where tensors": (lambda a, b: O.where(a > 0, a, b), X, Y),
    "where batched cond only": (lambda c: O.where(c > 0, V, -V), Y),
    "clamp": (lambda a: a.clamp(-0.5, 0.5), X),
    "maximum": (lambda a, b: O.maximum(a, b), X, Y),
    "logical": (lambda a, b: O.logical_and(a > 0, b > 0), X, Y),
    "lerp": (lambda a, b: O.lerp(a, b, 0.3), X, Y),
    "isclose": (lambda a, b: O.isclose(a, b), Y, Y),
    "logaddexp2 broadcast": (lambda a, b: O.logaddexp2(a, b), X, Y),
    "logaddexp2 method unbatched": (lambda a: a.logaddexp2(V), X),
}

REDUCTIONS = {
    "sum": (lambda a: a.sum(), X), "sum dim": (lambda a: a.sum(1), X),
    "sum dims keepdim": (lambda a: a.sum((0, 1), keepdim=True), X), "sum 0-dim": (lambda a: a.sum(), S),
    "mean": (lambda a: a.mean(), X), "mean dim": (lambda a: a.mean(-1), X),
    "max": (lambda a: a.max(), X), "max dim": (lambda a: a.max(0), X), "min dim": (lambda a: a.min(1), X),
    "argmax": (lambda a: a.argmax(), X), "argmax dim keepdim": (lambda a: a.argmax(1, keepdim=True), X),
    "argmin": (lambda a: a.argmin(0), X),
    "amax": (lambda a: a.amax(), X), "amin dim": (lambda a: a.amin(1), X),
    "var": (lambda a: a.var(), X), "std dim": (lambda a: a.std(1), X),
    "prod": (lambda a: a.prod(), X), "prod dim": (lambda a: a.prod(1), X),
    "any": (lambda a: (a > 0).any(), X), "all dim": (lambda a: (a > 0).all(1), X),
    "softmax": (lambda a: a.softmax(-1), X), "log_softmax": (lambda a: a.log_softmax(0), X),
    "softmax 0-dim": (lambda a: a.softmax(0), S),
    "cumsum": (lambda a: a.cumsum(0), X), "sort": (lambda a: a.sort(), X),
    "sort descending dim": (lambda a: a.sort(0, descending=True), X), "topk": (lambda a: a.topk(2), X),
}

SHAPES = {
    "view": (lambda a: a.view(15), X), "reshape": (lambda a: a.reshape(5, -1), X),
    "permute": (lambda a: a.permute(1, 0), X), "transpose": (lambda a: a.transpose(0, 1), X),
    "t": (lambda a: a.t(), X), "t 1-d": (lambda a: a.t(), Y),
    "unsqueeze": (lambda a: a.unsqueeze(-1), X), "unsqueeze 0-dim": (lambda a: a.unsqueeze(0), S),
    "squeeze": (lambda a: a.unsqueeze(1).squeeze(), X), "squeeze dim": (lambda a: a.unsqueeze(1).squeeze(1), X),
    "expand": (lambda a: a.expand(2, 5), Y), "expand_as": (lambda a: a.expand_as(X[0]), Y),
    "view_as": (lambda a: a.view_as(X[0].t()), X),
    "select": (lambda a: a[1], X), "slice": (lambda a: a[:, 1:3], X), "index ints": (lambda a: a[0, 2], X),
    "index tensor": (lambda a: a[O.tensor([0, 2])], X),
    "flatten": (lambda a: a.flatten(), X), "flatten 0-dim": (lambda a: a.flatten(), S),
    "movedim": (lambda a: a.movedim(0, 1), X), "unbind": (lambda a: a.unbind(1), X),
    "split": (lambda a: a.split(2, 1), X), "chunk": (lambda a: a.chunk(2, 1), X),
    "narrow": (lambda a: a.narrow(1, 1, 2), X), "diagonal": (lambda a: a.diagonal(), X),
    "flip": (lambda a: a.flip(0), X), "repeat": (lambda a: a.repeat(2, 1, 1), X),
    "triu": (lambda a: a.triu(), X), "contiguous": (lambda a: a.t().contiguous(), X),
    "cat": (lambda a, b: O.cat([a, b.unsqueeze(0)]), X, Y),
    "cat unbatched member": (lambda a: O.cat([a, V.unsqueeze(0)], 0), X),
    "stack": (lambda a, b: O.stack([a[0], b], 1), X, Y),
}

PRODUCTS = {
    "mm": (lambda a, b: a @ b, X, M), "mm unbatched right": (lambda a: O.mm(a, W), X),
    "mm unbatched left": (lambda b: O.mm(X[0], b), M), "matmul vector vector": (lambda a, b: a @ b, Y, Y),
    "matmul matrix vector": (lambda a, b: a @ b, X, Y), "matmul vector matrix": (lambda a: V @ a, M),
    "matmul unbatched matrix": (lambda b: X[0] @ b, Y), "matmul rows": (lambda a: a @ W, Y),
    "matmul 3-d by matrix": (lambda a: a.unsqueeze(0) @ W, X),
    "bmm": (lambda a: O.bmm(a.unsqueeze(0), a.t().unsqueeze(0)), X),
    "dot": (lambda a, b: O.dot(a, b), Y, Y), "dot unbatched": (lambda a: O.dot(a, V), Y),
    "mv": (lambda a, b: O.mv(a, b), X, Y), "outer": (lambda a: O.outer(a, V), Y),
    "linear": (lambda a: O.ops.aten.linear(a, W.t(), V[:2]), X),
    "linear batched weight": (lambda w: O.ops.aten.linear(V, w), M.transpose(1, 2)),
    "addmm": (lambda a: O.addmm(a[:, :2], a, W, beta=0.5, alpha=2), X),
    "einsum": (lambda a, b: O.einsum("ij,j->i", a, b), X, Y),
}

OTHERS = {
    "zeros_like": (lambda a: O.zeros_like(a) + a, X), "ones_like": (lambda a: O.ones_like(a), X),
    "full_like": (lambda a: O.full_like(a, 3.0), X),
    "new_zeros": (lambda a: a.new_zeros(2) + a[0, :2], X), "new_full": (lambda a: a.new_full((2,), 7.0), X),
    "clone": (lambda a: a.clone(), X), "to dtype": (lambda a: a.to(O.float64), X),
    "double": (lambda a: a.double() * 2, X),
    "add_": (lambda a, b: a.clone().add_(b), X, Y), "mul_ sin_": (lambda a: a.clone().mul_(2).sin_(), X),
    "copy_": (lambda a, b: a.clone().copy_(b), X, Y), "zero_": (lambda a: a.clone().zero_(), X),
    "fill_": (lambda a: a.clone().fill_(2.0), X),
    "index_select": (lambda a: a.index_select(1, O.tensor([0, 2])), X),
    "index_select batched index": (lambda a, j: a.index_select(0, j), X, IDX),
    "gather": (lambda a, j: a.gather(0, j.unsqueeze(1).expand(2, 5)), X, IDX),
    "gather unbatched self": (lambda j: X[0].gather(0, j.unsqueeze(1).expand(2, 5)), IDX),
    "scatter": (lambda a, j: O.zeros(3, 5).scatter(0, j.unsqueeze(1).expand(2, 5), a[:2]), X, IDX),
    "scatter_add": (lambda a, j: a.scatter_add(0, j.unsqueeze(1).expand(2, 5), a[:2]), X, IDX),
    "masked_fill": (lambda a: a.masked_fill(a > 0, 1.0), X),
    "masked_fill_": (lambda a: a.clone().masked_fill_(a > 0, -1.0), X),
    "masked_fill unbatched self": (lambda m: X[0].masked_fill(m > 0, 0.0), X),
    "numel in arithmetic": (lambda a: a * a.numel(), X),
    "setitem int and slice": (lambda a: _setitem(a, lambda r: (r.__setitem__(0, 5.0), r.__setitem__(
        slice(1, 3), r[1:3] * 2))), X),
    "setitem tensor index, batched values": (lambda a: _setitem(a, lambda r: r.__setitem__(
        O.tensor([0, 2]), r[O.tensor([1, 2])] * 3)), X),
    "setitem second dim": (lambda a: _setitem(a, lambda r: r.__setitem__((slice(None), O.tensor([0, 2])), 1.0)), X),
    "index_put into unbatched": (lambda v: O.ops.aten.index_put(O.zeros(3, 5), [O.tensor([1])], v[0]), X),
    "index_put accumulate": (lambda a: O.ops.aten.index_put(a, [O.tensor([0, 0])], O.ones(2, 5), True), X),
}


def _setitem(a, assign):
    r = a.clone()
    assign(r)
    return r


def _params(table):
    return [pytest.param(v[0], v[1:], id=k) for k, v in table.items()]


@pytest.mark.parametrize("f,args", _params(POINTWISE))
def test_pointwise(f, args):
    check(f, *args)


@pytest.mark.parametrize("f,args", _params(REDUCTIONS))
def test_reductions(f, args):
    check(f, *args)


@pytest.mark.parametrize("f,args", _params(SHAPES))
def test_shapes(f, args):
    check(f, *args)


@pytest.mark.parametrize("f,args", _params(PRODUCTS))
def test_products(f, args):
    check(f, *args)


@pytest.mark.parametrize("f,args", _params(OTHERS))
def test_factories_inplace_indexing(f, args):
    check(f, *args)


@pytest.mark.parametrize("in_dims", [1, 2, -1])
def test_rules_with_other_in_dims(in_dims):
    check(lambda a: (a.sin() @ a.t()).sum(0), X, in_dims=in_dims)


def test_promotion_of_batched_zero_dim_matches_the_loop():
    out = O.vmap(lambda a, b: a * b)(X, S.double())
    assert out.dtype == O.float32


def test_nested_levels_stay_distinct():
    a, b = O.randn(3, 5), O.randn(4, 5)
    out = O.vmap(lambda x: O.vmap(lambda y: x * y + y.sum())(b))(a)
    want = O.stack([O.stack([x * y + y.sum() for y in b]) for x in a])
    assert out.shape == (3, 4, 5)
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-5)


def test_nested_with_matmul_and_unbatched_operand():
    check(lambda a, m: O.vmap(lambda r: r @ m)(a), X, M)
    check(lambda a: O.vmap(lambda r, q: r + q, in_dims=(0, None))(a, Y[0]), X)
    check(lambda a: O.vmap(lambda r: r * a.sum())(a), X)


@pytest.mark.parametrize("f,arg,exc,match", [
    (lambda r: r.sum(5), Y, IndexError, r"^Dimension out of range \(expected to be in range of \[-1, 0\], but got 5\)"),
    (lambda r: r.transpose(0, 3), X, IndexError, r"expected to be in range of \[-2, 1\], but got 3"),
    (lambda r: O.mm(r, r), Y, RuntimeError, (r"Shape mismatch: Got incorrect dims for mm\(a, b\). a has dim 1and b has "
                                            r"dim 1but expected them to have dim 2 and dim 2")),
    (lambda r: O.bmm(r, r), X, RuntimeError, r"incorrect dims for bmm\(a, b\)"),
    (lambda r: O.mv(r, r), X, RuntimeError, r"incorrect dims for mv\(a, b\)"),
    (lambda r: O.dot(r, r.unsqueeze(0)), Y, RuntimeError, r"Got wrong shapes for dot"),
    (lambda r: O.outer(r, r.unsqueeze(0)), Y, RuntimeError, r"outer: Expected 1-D argument vec2, but got 2-D"),
    (lambda r: O.matmul(r.sum(), r), Y, RuntimeError, (r"both arguments to matmul need to be at least 1D, but they "
                                                      r"are 0D and 1D")),
    (lambda r: r.t(), O.randn(2, 3, 4, 5), RuntimeError, r"t\(\) expects a tensor with <= 2 dimensions, but self is 3D"),
    (lambda r: r.expand(3), X, RuntimeError, (r"expand: the number of sizes provided \(1\) must be greater or equal to "
                                             r"the number of dimensions in the tensor \(2\)")),
    (lambda r: r.repeat(2), X, RuntimeError, (r"Number of dimensions of repeat dims can not be smaller than number of "
                                             r"dimensions of tensor")),
    (lambda r: r.flatten(1, 0), X, RuntimeError, r"flatten\(\) has invalid args: start_dim cannot come after end_dim"),
    (lambda r: r.triu(), Y, RuntimeError, r"triu: input tensor must have at least 2 dimensions"),
])
def test_rule_errors_name_the_logical_shapes(f, arg, exc, match):
    with pytest.raises(exc, match=match):
        O.vmap(f)(arg)
