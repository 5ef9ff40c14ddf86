"""What a ``register_vmap`` rule is told at each level of nested vmaps, against torch 2.15's recorded
answers (``tests/data/torch_protocol_answers.json``, section ``vmap_rule_levels``): the batch size,
which arguments are batched at that level (``in_dims``), and the logical shapes of the arguments
it receives; the rule's results agree with the unbatched op run in loops.

Where the batch dim sits physically is each library's choice (opyard's batched tensors keep it at
dim 0, torch keeps it where ``in_dims`` put it); ``in_dims`` says where, so the tests compare the
shapes with the batch dim removed."""

import json
import os

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.library import custom_op

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
LEVELS = json.load(open(os.path.join(DATA_DIR, "torch_protocol_answers.json")))["vmap_rule_levels"]


@pytest.fixture
def recorded(ns):
    seen = []

    @custom_op(f"{ns}::g", mutates_args=())
    def g(x: Tensor, y: Tensor) -> Tensor:
        return opyard.from_numpy(x.numpy() * y.numpy())  # reads the data: only right on plain tensors

    @g.register_vmap
    def _(info, in_dims, x, y):
        for t, d in zip((x, y), in_dims):
            assert d is None or t.shape[d] == info.batch_size  # in_dims points at the batch dim
        logical = [list(t.shape[:d]) + list(t.shape[d + 1:]) if d is not None else list(t.shape)
                   for t, d in zip((x, y), in_dims)]
        seen.append({"batch_size": info.batch_size, "batched": [d is not None for d in in_dims],
                     "logical_shapes": logical})
        xs = x.movedim(in_dims[0], 0) if in_dims[0] is not None else x.expand(info.batch_size, *x.shape)
        ys = y.movedim(in_dims[1], 0) if in_dims[1] is not None else y.expand(info.batch_size, *y.shape)
        return g(xs, ys), 0

    return g, seen


def _inputs():
    gen = np.random.default_rng(0)
    return {name: opyard.from_numpy(gen.standard_normal(shape).astype(np.float32))
            for name, shape in (("a", (2, 5)), ("b", (3, 5)), ("c", (2, 3, 5)))}


@pytest.mark.parametrize("case", sorted(LEVELS))
def test_rule_is_told_each_levels_in_dims_as_torch(recorded, case):
    g, seen = recorded
    env = {"vmap": opyard.vmap, "g": g, **_inputs()}
    out = eval(LEVELS[case]["call"], env)
    assert seen == LEVELS[case]["calls"]
    assert list(out.shape) == LEVELS[case]["shape"]


@pytest.mark.parametrize("case", sorted(LEVELS))
def test_results_match_the_unbatched_op_in_loops(recorded, case):
    g, _ = recorded
    inputs = _inputs()
    batched = eval(LEVELS[case]["call"], {"vmap": opyard.vmap, "g": g, **inputs})

    def loop(fn, in_dims=0):
        def run(x):
            rows = [fn(r) for r in (x if in_dims == 0 else x.movedim(in_dims, 0))]
            return opyard.stack(rows)
        return run

    looped = eval(LEVELS[case]["call"], {"vmap": loop, "g": lambda x, y: x * y, **inputs})
    np.testing.assert_allclose(batched.numpy(), looped.numpy(), rtol=1e-6)
