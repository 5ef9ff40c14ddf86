"""The special functions and the pointwise math beside them against torch 2.15's recorded answers
(``tests/data/torch_special_family.json``, written by ``gen_torch_special_family.py``): values at
the special points and the edges of every approximation, the dtypes each op takes or refuses,
float64 gradients, mixed dtypes and Python numbers, in-place forms and the errors."""

import json
import math
import os

import numpy as np
import pytest

import opyard

pytest.importorskip("scipy")

_PATH = os.path.join(os.path.dirname(__file__), "..", "data", "torch_special_family.json")
with open(_PATH) as _f:
    CASES = json.load(_f)["cases"]

# rtol/atol by result dtype: torch.testing's, a little wider for half and bfloat16, whose results
# torch computes in float32 and rounds once.
TOL = {"float64": (1e-7, 1e-7), "float32": (1.3e-5, 1e-5), "float16": (1e-3, 1e-3), "bfloat16": (1.6e-2, 1e-2),
       "complex64": (1.3e-5, 1e-5), "complex128": (1e-7, 1e-7)}


def _decode(v):
    if isinstance(v, list):
        return [_decode(e) for e in v]
    if isinstance(v, str):
        return float(v)
    return v


def _tensor(values, dtype):
    t = opyard.tensor(_decode(values), dtype=opyard.float64)
    return t.to(getattr(opyard, dtype))


def _values(t):
    t = t.detach()
    if t.dtype.is_complex:
        return np.stack([t.real.numpy().reshape(-1), t.imag.numpy().reshape(-1)], -1).astype(np.float64)
    return t.to(opyard.float64).numpy().reshape(-1) if t.dtype != opyard.bool else t.numpy().reshape(-1)


def _close(actual, expected, dtype):
    expected = np.asarray(_decode(expected), dtype=np.float64 if dtype != "bool" else bool)
    if expected.dtype == bool or dtype.startswith(("int", "uint")):
        return np.array_equal(actual, expected)
    a = np.asarray(actual, dtype=np.float64)
    if a.shape != expected.shape:
        return False
    rtol, atol = TOL[dtype]
    same = (np.isnan(a) & np.isnan(expected)) | (a == expected)
    with np.errstate(all="ignore"):
        near = np.isfinite(a) & np.isfinite(expected) & (np.abs(a - expected) <= atol + rtol * np.abs(expected))
    return bool(np.all(same | near))


def _run(case, grad):
    dts = case["dtypes"]
    xs = case["inputs"]
    x = _tensor(xs[0], dts[0])
    y = _tensor(xs[1], dts[1] if len(dts) > 1 else dts[0]) if len(xs) > 1 else None
    if grad:
        x.requires_grad_()
        if y is not None:
            y.requires_grad_()
    env = {"T": opyard, "S": opyard.special, "x": x, "y": y}
    return eval(case["expr"], env), x, y


def _id(case):
    return f"{case['expr']}-{'-'.join(case['dtypes'])}"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_against_torch(case):
    grad = "grads" in case or "grad_error" in case
    if "error" in case:
        with pytest.raises(Exception) as info:
            _run(case, False)
        names = {c.__name__ for c in type(info.value).__mro__}
        assert case["error"] in names, f"torch raises {case['error']}: {case['msg']}; opyard {info.value!r}"
        # opyard may name the operator after torch's message (its broadcast errors do)
        assert str(info.value).split("\n")[0].startswith(case["msg"]), (str(info.value), case["msg"])
        return
    result, x, y = _run(case, grad)
    if "outs" in case:
        for r, e in zip(result, case["outs"]):
            assert str(r.dtype).removeprefix("opyard.") == e["dtype"]
            assert _close(_values(r), e["values"], e["dtype"]), (_values(r), e["values"])
        return
    assert str(result.dtype).removeprefix("opyard.") == case["dtype"]
    assert _close(_values(result), case["values"], case["dtype"]), (_values(result), case["values"])
    if not grad:
        return
    ins = [t for t in (x, y) if t is not None]
    if "grad_error" in case:
        with pytest.raises(Exception) as info:
            opyard.autograd.grad(result.sum(), ins, allow_unused=True)
        assert case["grad_error"]["error"] in {c.__name__ for c in type(info.value).__mro__}
        return
    grads = opyard.autograd.grad(result.sum(), ins, allow_unused=True)
    for g, e in zip(grads, case["grads"]):
        assert (g is None) == (e is None)
        if g is not None:
            assert _close(_values(g), e, "float64"), (_values(g), e)


def test_the_recording_covers_every_family():
    exprs = {c["expr"].split("(")[0] for c in CASES}
    for name in ("S.bessel_j0", "S.airy_ai", "T.igamma", "S.zeta", "T.polygamma", "T.mvlgamma", "T.gcd", "T.nextafter",
                 "S.chebyshev_polynomial_t", "T.ldexp", "T.float_power", "T.logaddexp2"):
        assert name in exprs
    assert math.isnan(_decode("nan"))
