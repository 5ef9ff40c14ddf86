"""Errors and autograd node names of the samplers, the placement operators, the index factories and
``opyard.masked`` against torch 2.15's recorded answers (``tests/data/torch_sampling_answers.json``, written by
``gen_torch_sampling_answers.py``): the same expression raises torch's exception class (or a
subclass) with torch's message, ``torch.`` read as ``opyard.``."""

import json
import os
import warnings

import pytest

import opyard

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data", "torch_sampling_answers.json"),
          encoding="utf-8") as _f:
    DATA = json.load(_f)
CASES = DATA["cases"]

# Messages that agree with torch's up to a point, with the reason; the rest must be equal.
PREFIX = {
    "T.fill(X, T.tensor([1.0, 2.0]))": ("fill_ only supports 0-dimension value tensor but got tensor with 1 dimensions.",
                                        "fill_'s kernel names the operator after torch's text"),
    "T.bernoulli(T.tensor([1.5]))": ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.",
                                     "torch's generic check adds a request to report to PyTorch"),
    "T.bernoulli(T.tensor([float('nan')]))": ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.",
                                              "torch's generic check adds a request to report to PyTorch"),
    "T.zeros(3).bernoulli_(T.tensor([0.2, 0.3, 1.4]))": (
        "Expected p_in >= 0 && p_in <= 1 to be true, but got false.",
        "torch's generic check adds a request to report to PyTorch"),
    "T.zeros(3).bernoulli_(T.zeros(2, 3))": ("expand(", "expand names the tensor by its dtype, torch by a legacy "
                                                         "type name (FloatTensor)"),
    "X.clone().masked_scatter_(T.ones(2, 2, 3, dtype=T.bool), T.arange(20.0))": (
        "expand(", "expand names the tensor by its dtype, torch by a legacy type name (CPUBoolType)"),
    "T.normal(T.zeros(2), T.ones(3))": (
        "The size of tensor a (2) must match the size of tensor b (3) at non-singleton dimension 0",
        "opyard's broadcast error names the operator after torch's text"),
    "T.masked_scatter(X, T.tensor([[True], [False], [True]]), T.arange(10.0))": (
        "The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 0",
        "opyard's broadcast error names the operator after torch's text"),
    "T._chunk_cat([], 0, 1)": ("", "a call without tensors is refused by the dispatcher (no backend to run on), "
                                   "before the kernel's check"),
    "T.masked.argmin(T.tensor([1j]), 0, mask=T.tensor([True]))": (
        "", "iinfo's refusal keeps torch's own wording (tests/tensor/test_dtypes.py), the type it names differs"),
}


def _env():
    return {"T": opyard, **{name: eval(expr, {"T": opyard}) for name, expr in DATA["tensors"].items()}}  # noqa: S307


def _raised(expr):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(expr, _env())  # noqa: S307 -- the recorded expressions
    except Exception as exc:  # noqa: BLE001 -- compared with torch's below
        return exc
    return None


def test_the_data_is_torchs():
    assert DATA["torch"].startswith("2.15")
    assert len(CASES) > 100


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] for c in CASES])
def test_error_as_torch(case):
    exc = _raised(case["expr"])
    if case.get("returns"):
        assert exc is None, f"torch returns; opyard raises {type(exc).__name__}: {exc}"
        return
    name, _, message = case["error"]
    assert exc is not None, f"torch raises {name}: {message}; opyard returns"
    assert name in [c.__name__ for c in type(exc).__mro__], f"torch raises {name}; opyard {type(exc).__name__}"
    got = str(exc).split("\n")[0]
    if case["expr"] in PREFIX:
        assert got.startswith(PREFIX[case["expr"]][0])
        assert message.startswith(PREFIX[case["expr"]][0])
    else:
        assert got == message.replace("torch.", "opyard.")


@pytest.mark.parametrize("expr", sorted(DATA["nodes"]))
def test_autograd_node_as_torch(expr):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = eval(expr, _env())  # noqa: S307 -- the recorded expressions
    assert type(result.grad_fn).__name__ == DATA["nodes"][expr]
