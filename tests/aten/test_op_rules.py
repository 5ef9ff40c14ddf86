"""The rules whole families of operators follow, as torch 2.15's: how a Python number meets an element
type (``_aten/scalars.py``), the precision half-precision data is computed in (``_aten/precision.py``),
result dtypes, edge shapes and values, the checks torch makes, index tensors, the BLAS-like scaling,
gradient dtypes, complex autograd and autograd node names. Expected outcomes are torch's
(``tests/data/torch_op_rules.json``, written by ``make rules-expect`` from ``tests/data/op_rules.py``).
"""

import json
import math
import os
import sys

import pytest

import opyard

_DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, _DATA)
from op_rules import outcome, tensors  # noqa: E402

with open(os.path.join(_DATA, "torch_op_rules.json"), encoding="utf-8") as _f:
    RECORDED = json.load(_f)["sections"]

# Cases that still differ from torch, with the reason; each is asserted to differ, so fixing one makes
# the test say to remove its entry.
KNOWN_DIFFERENT = {
    "(T.full((64,), 0.1, dtype=T.float16) + 1).prod()": "torch's prod multiplies half data in the half type, "
    "lane by lane of its vector unit (the result depends on the machine's vector width); opyard accumulates in "
    "float32 and rounds once",
    "(T.full((64,), 0.1, dtype=T.bfloat16) + 1).prod()": "as the float16 prod",
    "T.sum(O(2, 3), 1, out=T.empty(1).expand(2))": "torch's reduction kernel accumulates every output element "
    "into the one memory location they share (3 + 3); opyard writes each element's sum once",
    "u8.clone().clamp_(1.5, None)": "torch's clamp_ names the dtype 'unsigned char' in this one message",
    "i8.clone().clamp_(1.5, None)": "torch's clamp_ names the dtype 'signed char' in this one message",
    "T.histc(f, 3, out=T.empty(3, dtype=T.float64))": "torch's histc names its own out= dtype check ('input tensor "
    "and hist tensor should have the same dtype'); opyard raises the out= forms' common RuntimeError",
    "T.quantile(f, 0.3, out=T.empty((), dtype=T.float64))": "as histc: torch's quantile words its own out= dtype check",
}
# torch's add and sub refuse uint16/uint32/uint64 ("add_stub"); opyard's pointwise add/sub compute them, so the
# compositions over them (trapezoid, cumulative_trapezoid, gradient) return where torch raises.
KNOWN_DIFFERENT.update({
    f"T.{call}(T.tensor([1, 0, 1, 1]).to(T.{dt}))": "opyard's add/sub take uint16/32/64; torch's refuse them"
    for call in ("trapezoid", "cumulative_trapezoid", "gradient") for dt in ("uint16", "uint32", "uint64")})
KNOWN_DIFFERENT["T._segment_reduce(T.tensor(1.), 'sum', lengths=T.tensor([1]))"] = (
    "torch's check message ends asking for an enhancement request to PyTorch; opyard states the requirement only")
# torch's renorm fails an internal assert on these types (no accumulate type); opyard refuses them with the norm's
# NotImplementedError
KNOWN_DIFFERENT.update({
    f"T.renorm(T.tensor([1, 0, 1, 1]).to(T.{dt}).reshape(2, 2), 2, 0, 1)": "torch's internal assert (RuntimeError); "
    "opyard refuses the type with the norm's NotImplementedError" for dt in ("uint16", "uint32", "uint64")})

# Nodes without a formula: opyard's name() is the type's name, as for its other C++-named nodes (AccumulateGrad).
KNOWN_DIFFERENT.update({
    f"({f}).grad_fn.name()": "torch's C++ name 'torch::autograd::NotImplemented'; opyard's node is 'NotImplemented'"
    for f in ("xr // 2", "2 // xr", "2 % xr", "T.remainder(2, xr)", "T.floor_divide(xr, 2)",
              "xr.clone().floor_divide_(2)", "xr.clone().floor_divide_(T.tensor(2.0, dtype=T.float64))")})

# (rtol, atol) of float values by dtype (torch.testing's, as the conformance replay's): torch's and
# numpy's libm and summation orders differ in the last bits.
_TOL = {"float16": (1e-3, 1e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (1.3e-5, 1e-5), "float64": (1e-7, 1e-7),
        "complex64": (1.3e-5, 1e-5), "complex128": (1e-7, 1e-7)}


def _same_value(a, b, dtype):
    if a == b:
        return True
    if dtype.startswith("complex"):
        a, b = complex(a), complex(b)
        return all(_same_value(str(x), str(y), "float64") for x, y in ((a.real, b.real), (a.imag, b.imag)))
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    rtol, atol = _TOL.get(dtype, (0.0, 0.0))
    return abs(x - y) <= atol + rtol * abs(y)


def _differs(got, want):
    """None when opyard's picture ``got`` matches torch's ``want``, else what differs."""
    if "items" in want:
        if "items" not in got or len(got["items"]) != len(want["items"]):
            return f"structure: {got} vs {want}"
        for g, w in zip(got["items"], want["items"]):
            d = _differs(g, w)
            if d:
                return d
        return None
    if "py" in want:
        return None if got == want or (want["py"][0] == got.get("py", [None])[0] == "float" and _same_value(
            got["py"][1], want["py"][1], "float64")) else f"{got} vs {want}"
    for key in ("dtype", "shape", "requires_grad"):
        if got.get(key) != want[key]:
            return f"{key}: opyard {got.get(key)}, torch {want[key]}"
    bad = [(g, w) for g, w in zip(got["values"], want["values"]) if not _same_value(g, w, want["dtype"])]
    return f"values: opyard {got['values'][:8]}, torch {want['values'][:8]}" if bad else None


# Sections compared bit for bit: their point is the last bit of half-precision results.
EXACT = {"half_scalars"}


def _check(case, exact=False):
    got = outcome(case["expr"], tensors(opyard))
    if "error" in case:
        assert "error" in got, f"torch raises {case['error']}, opyard returns {got['result']}"
        torch_type, torch_msg = case["error"]
        exc_type, msg = got["error"]
        names = {c.__name__ for c in getattr(opyard, exc_type, type(None)).__mro__} if hasattr(opyard, exc_type) \
            else set()
        builtin = __builtins__ if isinstance(__builtins__, dict) else vars(__builtins__)
        if exc_type in builtin:
            names |= {c.__name__ for c in builtin[exc_type].__mro__}
        assert exc_type == torch_type or torch_type in names or _subclass_name(exc_type, torch_type), \
            f"torch raises {torch_type}, opyard {exc_type}: {msg}"
        assert torch_msg.replace("torch", "opyard") in msg, f"torch says {torch_msg!r}, opyard {msg!r}"
        return
    assert "result" in got, f"torch returns {case['result']}, opyard raises {got['error']}"
    if exact:
        assert got["result"] == case["result"], f"opyard {got['result']}, torch {case['result']}"
        return
    d = _differs(got["result"], case["result"])
    assert d is None, d


def _subclass_name(name, base):
    """Whether opyard's exception class ``name`` (one of its own, e.g. ArgumentOverflowError) has a base
    class named ``base``."""
    from opyard import _core  # opyard's own exception classes live in the core and the binder

    for module in (_core, opyard):
        cls = getattr(module, name, None)
        if isinstance(cls, type) and base in {c.__name__ for c in cls.__mro__}:
            return True
    return False


CASES = [(section, case) for section, rows in RECORDED.items() for case in rows]


@pytest.mark.parametrize("section, case", CASES, ids=[f"{s}: {c['expr']}" for s, c in CASES])
def test_as_torch(section, case):
    if case["expr"] in KNOWN_DIFFERENT:
        with pytest.raises(AssertionError):
            _check(case, section in EXACT)
        return
    _check(case, section in EXACT)
