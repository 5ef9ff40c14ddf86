"""Gradients at special points (0, -0, +-inf, nan, integer exponents, negative bases) as torch's.

The expectations were produced by torch (``tests/data/gen_torch_*.py``) and are
read from JSON: no test here imports torch.
"""

import json
import math
import os

import opyard
import opyard.nn.functional as F
import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")


def _load(name):
    with open(os.path.join(DATA, name)) as f:
        return json.load(f)


def _decode(v):
    if isinstance(v, list):
        return [_decode(e) for e in v]
    if isinstance(v, str):
        return float(v)  # "nan", "inf", "-inf"
    return v


def _same(got, want):
    """Equal up to 1e-7 relative; nan equals nan; infinities exactly; the sign of a zero is not compared."""
    if got is None or want is None:
        return got is want
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_same, got, want))
    if math.isnan(want) or math.isnan(got):
        return math.isnan(want) and math.isnan(got)
    if math.isinf(want) or math.isinf(got):
        return got == want
    return abs(got - want) <= 1e-12 + 1e-7 * abs(want)


# ---------------------------------------------------------------------------------------
# Gradients at special points (0, -0, +-inf, nan, integer exponents, negative bases)
# ---------------------------------------------------------------------------------------

SPECIAL = _load("torch_grad_special_points.json")["cases"]

# Gradients that still differ from torch, with the reason; each is asserted to differ so
# that fixing it turns this table stale (the test then says to remove the entry).
KNOWN_DIFFERENT: dict = {}


def _special_id(case):
    return f"{case['expr']}@{json.dumps(case['inputs'])[:60]}"


def _eval_grads(case):
    inputs = [_decode(v) for v in case["inputs"]]
    ts = [opyard.tensor(v, dtype=opyard.float64, requires_grad=True) for v in inputs]
    env = {"T": opyard, "F": F, "x": ts[0], "y": ts[1] if len(ts) > 1 else None}
    out = eval(case["expr"], env)  # expressions come from the generator script's tables
    out.backward(opyard.ones_like(out))
    return [None if t.grad is None else t.grad.tolist() for t in ts]


def test_special_points_cover_the_formula_table():
    exprs = " ".join(c["expr"] for c in SPECIAL)
    for name in ("pow", "prod", "amax", "std", "maximum", "relu", "clamp", "softmax", "log1p", "F.elu"):
        assert name in exprs
    assert len(SPECIAL) >= 100


# numpy's floating-point warnings from the kernels at these points (torch warns nothing).
_NUMPY_FP_WARNINGS = ("ignore:invalid value encountered:RuntimeWarning",
                      "ignore:divide by zero encountered:RuntimeWarning",
                      "ignore:overflow encountered:RuntimeWarning",
                      "ignore:Degrees of freedom <= 0:RuntimeWarning")


@pytest.mark.filterwarnings(*_NUMPY_FP_WARNINGS)
@pytest.mark.parametrize("case", SPECIAL, ids=_special_id)
def test_gradient_at_special_points_matches_torch(case):
    want = [None if g is None else _decode(g) for g in case["grads"]]
    got = _eval_grads(case)
    reason = KNOWN_DIFFERENT.get((case["expr"], json.dumps(case["inputs"])))
    if reason is not None:
        assert not _same(got, want), f"now equal to torch: remove it from KNOWN_DIFFERENT ({reason})"
        return
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want)) if not _same(g, w)]
    assert not bad, f"{case['expr']} on {case['inputs']}: (arg, got, torch) {bad}"


@pytest.mark.filterwarnings(*_NUMPY_FP_WARNINGS)
@pytest.mark.parametrize("expr, x, want", [
    ("T.pow(x, 0.0)", 0.0, 0.0),                 # 0 ** 0: d/dx is 0, not 0 * 0 ** -1 = nan
    ("T.pow(x, y)", 0.0, 0.0),                    # tensor exponent 0 at base 0
    ("T.pow(0.0, x)", 0.0, 0.0),                  # scalar base 0, exponent >= 0
    ("T.prod(x)", 0.0, 6.0),                      # a single zero gets the product of the others
    ("T.std(x)", 1.0, 0.0),                       # constant input: zero std has zero gradient
    ("T.relu(x)", math.nan, 1.0),                 # nan passes threshold_backward
])
def test_named_special_points(expr, x, want):
    values = {"T.prod(x)": [x, 2.0, 3.0], "T.std(x)": [x, x, x]}.get(expr, [x])
    t = opyard.tensor(values, dtype=opyard.float64, requires_grad=True)
    y = opyard.zeros(len(values), dtype=opyard.float64)
    out = eval(expr, {"T": opyard, "x": t, "y": y})
    out.backward(opyard.ones_like(out))
    assert _same(t.grad.tolist()[0], want)
