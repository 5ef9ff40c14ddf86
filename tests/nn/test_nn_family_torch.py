"""The normalization, activation, loss, dropout, distance and attention functions against torch
2.15's recorded answers beyond the OpInfo samples (``tests/data/torch_nn_family.json``, written
by ``tests/data/gen_torch_nn_family.py``): values and dtypes, gradients in float64, the running
statistics and weights a call changes in place, and the exception class and message."""

import json
import math
import os
import warnings

import numpy as np
import pytest

import opyard

T, F, A = opyard, opyard.nn.functional, opyard.ops.aten

with open(os.path.join(os.path.dirname(__file__), os.pardir, "data", "torch_nn_family.json")) as _f:
    _DATA = json.load(_f)
CASES = _DATA["cases"]

# (rtol, atol) by dtype: float16/bfloat16 results are computed in float32 and rounded once, as torch.
TOLERANCE = {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (2e-5, 2e-5), "float64": (1e-7, 1e-7)}


def _dec(v):
    if isinstance(v, list):
        return [_dec(x) for x in v]
    return float(v) if isinstance(v, str) else v


def build(spec):
    dtype = getattr(opyard, spec["dtype"])
    values = _dec(spec["values"])
    if dtype is opyard.bool:
        t = opyard.tensor(values, dtype=opyard.bool)
    else:
        t = opyard.tensor(np.asarray(values, dtype=np.float64).reshape(spec["shape"]), dtype=opyard.float64)
        t = t.to(dtype)
    t = t.reshape(spec["shape"])
    return t.requires_grad_() if spec["grad"] else t


def check_tensor(got, rec, what):
    assert isinstance(got, opyard.Tensor), f"{what}: torch gives a tensor, opyard {type(got).__name__}"
    assert str(got.dtype).removeprefix("opyard.") == rec["dtype"], f"{what}: dtype {got.dtype} vs {rec['dtype']}"
    assert list(got.shape) == rec["shape"], f"{what}: shape {list(got.shape)} vs {rec['shape']}"
    if rec["values"] is None:
        return
    want = np.asarray(_dec(rec["values"]), dtype=np.float64).reshape(rec["shape"])
    have = got.detach().to(opyard.float64).numpy() if rec["dtype"] != "bool" else got.numpy().astype(np.float64)
    rtol, atol = TOLERANCE.get(rec["dtype"], (0, 0))
    np.testing.assert_allclose(have, want, rtol=rtol, atol=atol, equal_nan=True, err_msg=what)


def _weighted_sum(outs):
    total = None
    for i, o in enumerate(outs):
        w = opyard.from_numpy(np.cos(np.arange(o.numel()) * 0.7 + i)).reshape(list(o.shape))
        term = (o.to(opyard.float64) * w).sum()
        total = term if total is None else total + term
    return total


@pytest.mark.parametrize("rec", CASES, ids=[f"{i}-{c['name'][:60]}" for i, c in enumerate(CASES)])
def test_against_torch(rec):
    tensors = {k: build(v) for k, v in rec["inputs"].items()}
    env = {"T": T, "F": F, "A": A, "math": math, **tensors}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "raises" in rec:
            with pytest.raises(Exception) as info:
                eval(rec["expr"], env)  # noqa: S307 - the recorded expressions
            names = {c.__name__ for c in type(info.value).__mro__}
            assert rec["raises"] in names, f"torch raises {rec['raises']}: {rec['message']}; opyard {info.value!r}"
            message = rec["message"].replace("torch.Size", "opyard.Size")  # sizes print as the module's own Size
            assert message in str(info.value), f"torch's message: {message!r}; opyard's: {info.value}"
            return
        out = eval(rec["expr"], env)  # noqa: S307
    outs = list(out) if isinstance(out, (tuple, list)) else [out]
    assert len(outs) == len(rec["out"])
    for i, (o, r) in enumerate(zip(outs, rec["out"])):
        if r is None:
            assert o is None, f"output {i}: torch gives None"
        elif isinstance(r, dict):
            check_tensor(o, r, f"output {i}")
    for name, r in rec["after"].items():
        check_tensor(tensors[name], r, f"{name} after the call")
    if "grads" in rec:
        diff = [o for o in outs if isinstance(o, opyard.Tensor) and o.requires_grad]
        leaves = list(rec["grads"])
        grads = opyard.autograd.grad(_weighted_sum(diff), [tensors[k] for k in leaves], allow_unused=True)
        for name, g in zip(leaves, grads):
            want = rec["grads"][name]
            if want is None:
                assert g is None or not g.abs().sum().item(), f"torch gives {name} no gradient"
            else:
                assert g is not None, f"torch gives {name} a gradient, opyard none"
                check_tensor(g, want, f"gradient of {name}")
