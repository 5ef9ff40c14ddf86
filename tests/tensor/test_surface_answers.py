"""Generators, the random state, predicates, small functions and global switches against torch 2.15's
recorded answers (``tests/data/torch_surface_answers.json``, written by
``gen_torch_surface_answers.py``): the same expression with ``torch`` read as ``opyard`` returns the
same value (or, for random results, the same type, dtype and shape) or raises torch's exception class
(or a subclass) with torch's message."""

import array
import json
import math
import os
import warnings

import numpy as np
import pytest

import opyard

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data", "torch_surface_answers.json"),
          encoding="utf-8") as _f:
    DATA = json.load(_f)
CASES = DATA["cases"]

# opyard's generator state is its own (PCG64's, STATE_SIZE bytes), not torch's 5056-byte mt19937 state.
_STATE = opyard._aten.generators.STATE_SIZE
# Cases whose answer differs from torch's on purpose, with what opyard answers instead and why.
DIFFERENT = {
    "G.set_state(T.zeros(3, dtype=T.uint8))": (
        f"Expected a CPUGeneratorImplState of size {_STATE} but found the input RNG state size to be 3",
        "opyard's state has its own size"),
    "T.get_rng_state()": ({"tensor": "uint8", "shape": [_STATE]}, "opyard's state has its own size"),
    "G.get_state()": ({"tensor": "uint8", "shape": [_STATE]}, "opyard's state has its own size"),
    "T.rand(2, generator=3)": ("argument 'generator' must be opyard.Generator, not int",
                               "torch's argument parser lists every signature; opyard names the argument"),
    "T.zeros(2).uniform_(generator='g')": ("argument 'generator' must be opyard.Generator, not str",
                                           "opyard's kernels do not know the operator's name"),
    "T.rand(2, dtype=T.int64, generator=G)": (
        "\"check_uniform_bounds\" not implemented for 'Long': rand() samples floating point values; pass a floating "
        "dtype such as opyard.float32 (opyard.randint draws integers)", "opyard's message adds the fix"),
    "T.typename(T.Tensor)": ("opyard._tensor.Tensor", "opyard's Tensor class is defined in a private module"),
    "T.frombuffer(bytearray(8))": ("frombuffer() missing 1 required keyword-only argument: 'dtype'",
                                   "Python's own message for the missing keyword"),
    "(T.set_flush_denormal(True), T.set_flush_denormal(False))[0]": (False, "numpy cannot flush denormals (torch's answer on a CPU without FTZ/DAZ)"),
    # torch's asarray fails to make a meta tensor from data ("Cannot copy out of meta tensor; no data!");
    # opyard makes it, as ``tensor(data, device='meta')`` and ``.to('meta')`` do in both
    "T.asarray(X, device='meta')": ({"tensor": "float32", "shape": [2, 3]}, "opyard makes the meta tensor"),
    "T.asarray((1, 2), device='meta')": ({"tensor": "int64", "shape": [2]}, "opyard makes the meta tensor"),
}
# Deprecations torch reports once per process (TORCH_WARN_ONCE): whether a case warns depends on the
# cases before it; tests/tensor/test_small_functions.py checks the once.
WARN_ONCE = ("chain_matmul", "frobenius_norm", "nuclear_norm")


def _env():
    env = {"T": opyard, "np": np, "array": array}
    for name, expr in DATA["tensors"].items():
        env[name] = eval(expr, env)  # noqa: S307 -- the recorded table
    return env


def _describe(value, exact):
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, (tuple, list)):
        return [_describe(v, exact) for v in value]
    kind = type(value).__name__
    if kind == "Tensor":
        d = {"tensor": str(value.dtype).split(".")[-1], "shape": list(value.shape)}
        if exact:
            d["values"] = [repr(x) for x in value.detach().resolve_conj().reshape(-1).tolist()]
        return d
    if kind in ("dtype", "device", "Size"):
        return {kind: str(value).replace("opyard.", "")}
    return {"type": kind}


def _run(expr):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return eval(expr, _env()), None, caught  # noqa: S307 -- the recorded expressions
        except Exception as exc:  # noqa: BLE001 -- compared with torch's below
            return None, exc, caught


def test_the_data_is_torchs():
    assert DATA["torch"].startswith("2.15")
    assert len(CASES) > 100


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] for c in CASES])
def test_as_torch(case):
    value, exc, caught = _run(case["expr"])
    expected = DIFFERENT.get(case["expr"], (None,))[0]
    if isinstance(expected, dict):  # torch raises, opyard returns (the reason beside it)
        assert exc is None, f"opyard raises {type(exc).__name__}: {exc}"
        assert _describe(value, False) == expected
        return
    if "error" in case:
        name, _, message = case["error"]
        assert exc is not None, f"torch raises {name}: {message}; opyard returns {value!r}"
        assert name in [c.__name__ for c in type(exc).__mro__], f"torch raises {name}; opyard {type(exc).__name__}: {exc}"
        got = str(exc).split("\n")[0]
        assert got == (expected if expected is not None else message.replace("torch.", "opyard."))
        return
    assert exc is None, f"torch returns; opyard raises {type(exc).__name__}: {exc}"
    want = expected if expected is not None else case["value"]
    if isinstance(want, str):
        want = want.replace("torch.", "opyard.")
    assert _describe(value, not case.get("shape_only")) == want
    if not any(name in case["expr"] for name in WARN_ONCE):
        assert sorted({c.category.__name__ for c in caught}) == sorted(set(case.get("warns", [])))
