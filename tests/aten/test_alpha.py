"""``alpha`` of add, sub and rsub (functions and in-place methods) as torch's: the value, and the
range of the element type it must fit (unsigned types wrap negative values; sub and rsub are add
with ``-alpha``; rsub scales ``self``). Expected values and errors are torch 2.15's
(``tests/data/torch_alpha.json``, written by ``gen_torch_alpha.py``)."""

import json
import os
import re

import numpy as np
import pytest

import opyard

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data", "torch_alpha.json"),
          encoding="utf-8") as _f:
    DATA = json.load(_f)
CASES = DATA["cases"]

# Cases that still differ from torch, with the reason; each is asserted to differ, so fixing it
# makes the test say to remove the entry.
KNOWN_DIFFERENT: dict = {}


def tensors():
    """The recorded tensors (expressions over ``T``), made with opyard."""
    return {"T": opyard, **{name: eval(expr, {"T": opyard}) for name, expr in DATA["tensors"].items()}}  # noqa: S307


@pytest.mark.parametrize("case", CASES, ids=[c["expr"] for c in CASES])
def test_alpha_as_torch(case):
    if case["expr"] in KNOWN_DIFFERENT:
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            _check(case)
        return
    _check(case)


def _check(case):
    env = tensors()
    if "error" in case:
        exc, message = case["error"]
        with pytest.raises(Exception, match="^" + re.escape(message)) as info:
            eval(case["expr"], env)  # noqa: S307 -- the recorded expressions
        assert type(info.value).__name__ == exc
        return
    r = eval(case["expr"], env)  # noqa: S307
    assert r.dtype.name == case["dtype"]
    if r.is_floating_point():
        # torch adds ``alpha * other`` with one fused multiply-add, numpy rounds the product first:
        # the results may differ in the last bit.
        np.testing.assert_allclose(r.tolist(), [float(v) for v in case["value"]], rtol=4 * np.finfo(np.float64).eps)
    else:
        assert [str(v) for v in r.tolist()] == case["value"]
