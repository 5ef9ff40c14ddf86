"""``opyard.func`` and ``opyard.autograd.functional`` against torch 2.15's recorded answers.

The snippets are ``tests/data/func_cases.py``; what torch returned (values, dtypes, shapes,
``requires_grad``, structure) or raised (type and text) for each was recorded by
``tests/data/gen_torch_func_cases.py`` (``make func-cases-expect``) into
``tests/data/torch_func_cases.json``, which is all this test reads of torch.
"""

import json
import os
import re
import sys

import numpy as np
import opyard
import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, DATA)
from func_cases import CASES, run, serialize  # noqa: E402

with open(os.path.join(DATA, "torch_func_cases.json")) as _f:
    RECORDED = json.load(_f)["cases"]

# Where opyard differs from torch, how the case is compared instead, and why.
DIFFERENCES = {
    "functionalize_nested": (
        "computes", "out = x3 + 1",
        "torch fails an internal assertion of its functional storage when functionalize wraps a functionalized "
        "function; here the inner call's functional tensors wrap the outer call's, and each level writes its "
        "input once at its end."),
    "functionalize_mutate_captured": (
        "raises", r"^mutating a non-functional tensor with a functional tensor is not allowed\. Please ensure that all "
                  r"of your inputs are wrapped inside of a functionalize\(\) call\.$",
        "torch raises this as an internal assertion (its text starts with the assertion's file and line); here the "
        "same refusal without them."),
    "setitem_into_fresh_under_jacfwd": (
        "raises", r"vmap: aten::copy_\(self, \*extra_args\) is not possible because there exists a Tensor `other`",
        "jacfwd maps jvp over the basis with the primals expanded along the batch (tangents ride on physical "
        "tensors, Note [Forward transforms under vmap]); torch keeps the primal unbatched and only its tangent "
        "batched, so a fresh unbatched tensor may take the written values there. Here the write of a batched "
        "value into an unbatched tensor is refused, as torch refuses it under vmap in general."),
    "vmap_of_linearize": (
        "computes", "out = x23.cos() * x23",
        "torch has no batching rule for aten::_make_dual, so its linearize cannot run under vmap; here "
        "linearize's tangent map is forward AD through the batching rules, which vmap maps as any function "
        "(checked against the closed form cos(x) * x)."),
    "jacfwd_non_tensor_input": (
        "raises", r"^jvp\(f, primals, tangents\): Expected primals to only contain Tensors, got <class 'float'>$",
        "torch fails by accident (AttributeError: 'float' object has no attribute 'numel', while it builds the "
        "basis); here jvp's own check of the primals answers, with jvp's text."),
    "vmap_bool": (
        "raises", (r"^vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow\. "
                   r"We don't support that yet, please rewrite it without branching on tensor values"),
        "torch's text ends by asking to file an issue on torch's tracker; here it says how to rewrite the code."),
    "vmap_inplace_unbatched_into_batched": (
        "raises", r"^vmap: aten::add_\(self, \*extra_args\) is not possible because there exists a Tensor `other`",
        "torch reaches this case through its broadcasting check ('output with shape [3] doesn't match the "
        "broadcast shape [2, 3]'); here the in-place batching rule refuses it first, with torch's text for that "
        "refusal."),
    "vmap_inplace_batched_into_unbatched": (
        "raises", r"^vmap: aten::add_\(self, \*extra_args\) is not possible because there exists a Tensor `other`",
        "as vmap_inplace_unbatched_into_batched."),
}


def _normalize(text):
    """torch's names read ``opyard.`` here; object addresses are dropped."""
    text = re.sub(r"(?<![\w/#.])torch\.", "opyard.", text)
    text = text.replace("PyTorch internals", "opyard internals").replace("PyTorch framework", "opyard framework")
    return re.sub(r"0x[0-9a-f]+", "0x?", text)


def _close(got, want, path):
    if isinstance(want, dict) and "tensor" in want:
        assert isinstance(got, dict) and "tensor" in got, f"{path}: expected a tensor, got {got!r:.200}"
        assert got["dtype"] == want["dtype"], f"{path}: dtype {got['dtype']} != {want['dtype']}"
        assert got["shape"] == want["shape"], f"{path}: shape {got['shape']} != {want['shape']}"
        assert got["requires_grad"] == want["requires_grad"], f"{path}: requires_grad {got['requires_grad']}"
        tol = 1e-5 if want["dtype"] in ("float32", "complex64") else 1e-10
        np.testing.assert_allclose(np.asarray(got["tensor"], dtype=float), np.asarray(want["tensor"], dtype=float),
                                   rtol=tol, atol=tol, err_msg=path)
        return
    if isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), f"{path}: {got!r:.200} != {want!r:.200}"
        for k in want:
            _close(got[k], want[k], f"{path}.{k}")
        return
    if isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r:.200} != {want!r:.200}"
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{i}]")
        return
    if isinstance(want, float):
        assert got == pytest.approx(want), path
        return
    assert got == want, f"{path}: {got!r} != {want!r}"


def test_table_size():
    assert len(RECORDED) >= 150
    assert set(RECORDED) == set(CASES), "regenerate tests/data/torch_func_cases.json (make func-cases-expect)"


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_torch(name):
    case = RECORDED[name]
    assert case["code"] == CASES[name], "the snippet changed: regenerate (make func-cases-expect)"
    value, error = run(CASES[name], opyard)
    mode = DIFFERENCES.get(name, ("exact",))
    if mode[0] == "raises":  # opyard refuses what torch computes, or with other words (see DIFFERENCES)
        assert error is not None and re.search(mode[1], error[1]), error
        return
    if mode[0] == "computes":  # torch refuses what opyard computes: checked against a closed form
        assert case["error"] is not None and error is None, (case["error"], error)
        want, _ = run(mode[1], opyard)
        np.testing.assert_allclose(np.asarray(value.tolist()), np.asarray(want.tolist()), rtol=1e-12, atol=1e-12)
        return
    if case["error"] is not None:
        assert error is not None, f"torch raised {case['error'][0]}: {case['error'][1][:200]}; opyard returned"
        assert error[0] == case["error"][0], f"{error} vs torch {case['error']}"
        assert _normalize(error[1]) == _normalize(case["error"][1])
        return
    if error is not None:
        raise AssertionError(f"opyard raised {error[0]}: {error[1]}")
    _close(serialize(value, opyard), case["out"], name)
