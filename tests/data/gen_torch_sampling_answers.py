"""Writes ``torch_sampling_answers.json``: the exception type and message torch 2.15 raises for bad
arguments of the samplers (bernoulli, cauchy_, exponential_, geometric_, log_normal_, random_,
randint_like, multinomial, normal, uniform_), the placement operators (fill, put, masked_scatter,
the masked indexing ops, index_reduce, nonzero_static, _chunk_cat, hash_tensor, resize_), the index
factories (tril_indices, triu_indices, empty_permuted, unravel_index) and torch.masked's
reductions; and the autograd node each one records. Each case is an expression over ``T`` (the torch module) and the tensors ``X`` (a 2 x 3
float tensor) and ``M`` (a 2 x 3 bool mask); the tests evaluate the same expressions with opyard
(``tests/aten/test_sampling_placement_answers.py``). Run with a Python that has torch (the tests read
only the JSON)::

    python tests/data/gen_torch_sampling_answers.py
"""

import json
import os
import warnings

import torch

EXPRESSIONS = [
    # samplers
    "T.empty(3).cauchy_(0, 0)",
    "T.empty(3, dtype=T.int32).cauchy_()",
    "T.empty(3, dtype=T.int64).cauchy_()",
    "T.empty(3, dtype=T.complex64).cauchy_()",
    "T.empty(3).exponential_(-1)",
    "T.empty(3, dtype=T.int64).exponential_()",
    "T.empty(3, dtype=T.bool).exponential_()",
    "T.empty(3).log_normal_(0, 0)",
    "T.empty(3, dtype=T.int32).log_normal_()",
    "T.empty(3).geometric_(1)",
    "T.empty(3).geometric_(-1)",
    "T.empty(3, dtype=T.bool).geometric_(0.5)",
    "T.empty(3, dtype=T.complex64).geometric_(0.5)",
    "T.bernoulli(T.tensor([1.5]))",
    "T.bernoulli(T.tensor([float('nan')]))",
    "T.bernoulli(T.tensor([1, 0]))",
    "T.bernoulli(T.tensor([True]))",
    "T.bernoulli(T.tensor([1j]))",
    "T.bernoulli(X, 1.3)",
    "T.zeros(3).bernoulli_(1.3)",
    "T.zeros(3, dtype=T.complex64).bernoulli_(0.5)",
    "T.zeros(3).bernoulli_(T.tensor([0.2, 0.3]))",
    "T.zeros(3).bernoulli_(T.tensor([0.2, 0.3, 1.4]))",
    "T.zeros(3).bernoulli_(T.zeros(2, 3))",
    "T.randint_like(T.zeros(3), 5, 2)",
    "T.randint_like(T.zeros(3), 0)",
    "T.randint_like(T.zeros(3, dtype=T.uint8), 300)",
    "T.randint_like(T.zeros(3, dtype=T.bool), 3)",
    "T.randint_like(T.zeros(3, dtype=T.int8), -200, 3)",
    "T.randint_like(T.zeros(3, dtype=T.uint8), -1, 3)",
    "T.randint_like(T.zeros(3), T.tensor([5, 6]))",
    "T.randint_like(T.zeros(3, dtype=T.complex64), 3)",
    "T.multinomial(T.ones(1, 2, 3), 2)",
    "T.multinomial(T.tensor(0.3), 1, True)",
    "T.multinomial(T.ones(2, dtype=T.int64), 2)",
    "T.multinomial(T.tensor([0.3 + 0j, 0.7]), 2, True)",
    "T.multinomial(T.ones(2), 0)",
    "T.multinomial(T.ones(2), 3)",
    "T.multinomial(T.tensor([0.5, -1.0]), 2)",
    "T.multinomial(T.tensor([0.5, float('inf')]), 1)",
    "T.multinomial(T.zeros(2, 2), 1)",
    "T.multinomial(T.tensor([0.5, float('nan')]), 2, True)",
    "T.multinomial(T.tensor([0.5, float('inf')]), 2, True)",
    "T.multinomial(T.tensor([0.5, -float('inf')]), 2, True)",
    "T.multinomial(T.zeros(3), 2, True)",
    "T.multinomial(T.ones(2), 2, out=T.empty(2, dtype=T.int32))",
    "T.normal(T.zeros(3), -1.0)",
    "T.normal(T.zeros(3), float('nan'))",
    "T.normal(0.0, T.tensor([1.0, -1.0]))",
    "T.normal(T.zeros(2), T.ones(3))",
    "T.normal(T.zeros(2, dtype=T.int64), 1.0)",
    "T.normal(0.0, 1.0, (2,), dtype=T.int64)",
    "T.zeros(3).normal_(0, -1)",
    "T.zeros(3).uniform_(1, 0)",
    "T.zeros(3).uniform_(0, float('inf'))",
    "T.zeros(3).uniform_(float('nan'), 1)",
    "T.zeros(3, dtype=T.float16).uniform_(0, 1e6)",
    # placement
    "T.fill(X, T.tensor([1.0, 2.0]))",
    "T.put(X, T.tensor([0, 7]), T.tensor([1.0, 2.0]))",
    "T.put(X, T.tensor([0, -7]), T.tensor([1.0, 2.0]))",
    "T.put(X, T.tensor([0, 1], dtype=T.int32), T.tensor([1.0, 2.0]))",
    "T.put(X, T.tensor([0, 1]), T.tensor([1.0, 2.0], dtype=T.float64))",
    "T.put(X, T.tensor([0, 1]), T.tensor([1.0, 2.0, 3.0]))",
    "X.clone().put_(T.tensor([9]), T.tensor([1.0]))",
    "T.masked_scatter(X, M, T.tensor([1.0, 2.0]))",
    "T.masked_scatter(X, M, T.arange(10, dtype=T.float64))",
    "T.masked_scatter(X, M.to(T.uint8), T.arange(10.0))",
    "T.masked_scatter(X, T.tensor([[True], [False], [True]]), T.arange(10.0))",
    "X.clone().masked_scatter_(T.ones(2, 2, 3, dtype=T.bool), T.arange(20.0))",
    "T._unsafe_masked_index(X, M, [T.tensor([0.0])], 0)",
    "T.index_reduce(X, 0, T.tensor([1]), X[:1], 'sum')",
    "T.index_reduce(X, 0, T.tensor([[1]]), X[:1], 'prod')",
    "T.index_reduce(X, 0, T.tensor([1.0]), X[:1], 'prod')",
    "T.index_reduce(X, 0, T.tensor([1]), X[:1].double(), 'prod')",
    "T.index_reduce(X, 0, T.tensor([5]), X[:1], 'prod')",
    "T.index_reduce(X, 0, T.tensor([-1]), X[:1], 'prod')",
    "T.index_reduce(X, 0, T.tensor([0, 1]), X[:1], 'prod')",
    "T.index_reduce(X, 0, T.tensor([1]), T.ones(1, 4), 'prod')",
    "T.index_reduce(X, 0, T.tensor([1]), T.ones(3), 'prod')",
    "T.index_reduce(X, 2, T.tensor([1]), X[:1], 'prod')",
    "T.index_reduce(T.tensor([True]), 0, T.tensor([0]), T.tensor([False]), 'prod')",
    "T.index_reduce(T.tensor([1j]), 0, T.tensor([0]), T.tensor([1j]), 'prod')",
    "T.nonzero_static(X, size=-1)",
    "T._chunk_cat([], 0, 1)",
    "T._chunk_cat([T.ones(0), T.ones(3)], 0, 1)",
    "T._chunk_cat([T.ones(2, 3), T.ones(2, 3, dtype=T.float64)], 1, 2)",
    "T._chunk_cat([T.ones(2, 3), T.ones(4)], -1, 3)",
    "T._chunk_cat([T.ones(2, 3), T.ones(4)], 1, 3)",
    "T._chunk_cat([T.ones(2, 3, 4), T.ones(4, 3)], 1, 3)",
    "T._chunk_cat([T.ones(2), T.ones(3)], 0, 0)",
    "T._chunk_cat([T.ones(2, 3)], 2, 2)",
    "T.vmap(lambda a: T._chunk_cat([a, a], 0, 2))(T.ones(2, 3))",
    "T.hash_tensor(T.ones(2), mode=1)",
    "T.hash_tensor(T.tensor([1j]))",
    "T.hash_tensor(T.ones(0))",
    "T.ones(3, requires_grad=True).resize_(2)",
    "T.ones(3).resize_(2, memory_format=T.preserve_format)",
    "T.ones(3).resize_(2, 2, memory_format=T.channels_last)",
    "T.ones(3).resize_(-1)",
    # index factories
    "T.tril_indices(-1, 3)",
    "T.triu_indices(3, -3)",
    "T.tril_indices(3, 3, dtype=T.float32)",
    "T.triu_indices(3, 3, dtype=T.int16)",
    "T.empty_permuted((2,), (0, 1))",
    "T.empty_permuted((2,), (3,))",
    "T.empty_permuted((2, 2), (0, 0))",
    "T.unravel_index(T.tensor([5.0]), (2, 4))",
    "T.unravel_index(T.tensor([True]), (2, 4))",
    "T.unravel_index(T.tensor([5]), (2, -4))",
    "T.unravel_index(T.tensor([5]), (2, 4.0))",
    "T.unravel_index(T.tensor([5]), 2.0)",
    # masked reductions
    "T.masked.sum(X, (0, 0), mask=M)",
    "T.masked.sum(X, 2, mask=M)",
    "T.masked.amax(X, -3, mask=M)",
    "T.masked.sum(X, 1, mask=T.ones(1, 2, 3, dtype=T.bool))",
    "T.masked.mean(T.arange(3), 0, mask=M[0])",
    "T.masked.mean(X, 0, dtype=T.int32, mask=M)",
    "T.masked.amax(T.tensor([True]), 0, mask=T.tensor([True]))",
    "T.masked.argmin(T.tensor([1j]), 0, mask=T.tensor([True]))",
    "T.masked.norm(T.arange(3), float('-inf'), 0, mask=M[0])",
    "T.masked.var(X, 1, True, correction=1, mask=M)",
    "T.masked.std(X, 1, False, correction=0, mask=M)",
    "T.masked.softmax(X, 2, mask=M)",
    "T.masked.cumsum(X, 5, mask=M)",
]

# Expressions whose result's autograd node name is recorded (``G``: a float64 tensor that requires
# grad, ``P`` a probability vector that does).
NODES = [
    "G.clone().cauchy_()", "G.clone().exponential_()", "G.clone().geometric_(0.5)", "G.clone().log_normal_()",
    "G.clone().bernoulli_(0.5)", "G.clone().bernoulli_(P)", "G.clone().random_(0, 5)", "G.clone().random_(5)",
    "G.clone().random_()", "T.bernoulli(P)", "T.bernoulli(P, 0.3)", "T.normal(G, 1.0)", "T.normal(0.0, P)",
    "T.normal(G, P)", "G.clone().fill_(2.0)", "G.clone().fill_(P[0])",
    "T.put(G, T.tensor([0, 2]), P[:2])", "G.clone().put_(T.tensor([0, 2]), P[:2], True)",
    "T.masked_scatter(G, G > 0, P)", "G.clone().masked_scatter_(G > 0, P)",
    "T.index_reduce(G, 0, T.tensor([2, 0]), P[:2], 'prod')", "G.clone().index_reduce_(0, T.tensor([1]), P[:1], 'amax')",
    "T._unsafe_masked_index(G, G > 0, [T.tensor([0, 1, 2])], 0.0)",
    "T._unsafe_masked_index_put_accumulate(G, G > 0, [T.tensor([0, 1, 2])], P)",
    "T.ops.aten.masked_scatter_backward(G, G > 0, [3])", "T._chunk_cat([G.reshape(1, 3)], 1, 2)",
]

# The tensors the expressions name, as expressions over ``T`` themselves (recorded with the cases).
TENSORS = {"X": "T.arange(6.0).reshape(2, 3)", "M": "T.tensor([[True, False, True], [False, True, True]])",
           "G": "T.tensor([0.5, -1.0, 2.0], dtype=T.float64, requires_grad=True)",
           "P": "T.tensor([0.2, 0.7, 0.4], dtype=T.float64, requires_grad=True)"}


def tensors(T, table=TENSORS):
    """``{"T": T, name: tensor}`` for the expressions of ``table``."""
    return {"T": T, **{name: eval(expr, {"T": T}) for name, expr in table.items()}}  # noqa: S307


def main():
    out = []
    for expr in EXPRESSIONS:
        env = tensors(torch)
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                eval(expr, env)  # noqa: S307 -- the expressions above
            out.append({"expr": expr, "returns": True})
        except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
            out.append({"expr": expr, "error": [type(e).__name__, [c.__name__ for c in type(e).__mro__],
                                                str(e).split("\n")[0]]})
    nodes = {}
    for expr in NODES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            nodes[expr] = type(eval(expr, tensors(torch)).grad_fn).__name__  # noqa: S307
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_sampling_answers.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "tensors": TENSORS, "cases": out, "nodes": nodes}, f, indent=1)
    print(f"wrote {path}: {len(out)} cases")


if __name__ == "__main__":
    main()
