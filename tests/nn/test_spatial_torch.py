"""Convolution, pooling, resampling and rearrangement calls against torch 2.15's recorded answers
(``tests/data/torch_nn_spatial.npz``, written by ``tests/data/gen_torch_nn_spatial.py``): values,
dtypes, shapes and strides (channels_last where torch returns it), gradients and second
derivatives in float64, and the exception class and message of bad calls."""

import json
import math
import os
import warnings

import numpy as np
import pytest

import opyard
import opyard.nn.functional as F

DATA = os.path.join(os.path.dirname(__file__), os.pardir, "data", "torch_nn_spatial.npz")

with np.load(DATA) as _z:
    ARRAYS = {k: _z[k] for k in _z.files}
META = json.loads(bytes(ARRAYS.pop("__meta__")))
CASES = META["cases"]

TOL = {"float16": (1e-3, 1e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (1.3e-5, 1e-5), "float64": (1e-7, 1e-7)}


def _tensor(name, letter, layout, grad):
    arr = np.array(ARRAYS[f"{name}/{letter}"])
    t = opyard.from_numpy(arr)
    if layout == "channels_last":
        t = t.contiguous(memory_format=opyard.channels_last if t.dim() == 4 else opyard.channels_last_3d)
    return t.requires_grad_(grad) if grad else t


def _flat(v):
    if isinstance(v, opyard.Tensor):
        return [v]
    if isinstance(v, (list, tuple)):
        return [t for x in v for t in _flat(x)]
    return []


def _weighted(outs):
    loss = 0
    for k, t in enumerate(outs):
        if t.dtype.is_floating_point and t.requires_grad:
            w = opyard.from_numpy(np.cos(np.arange(t.numel()) * 0.7 + k))
            loss = loss + (t.reshape(-1).double() * w).sum()
    return loss


def _close(actual, expected, dtype):
    if dtype in TOL:
        rtol, atol = TOL[dtype]
        if dtype == "float32":  # sums of many float32 products: the order of addition shows at the scale of the sum
            atol *= max(1.0, float(np.nanmax(np.abs(expected), initial=0.0)) / 10)
        np.testing.assert_allclose(actual.astype(np.float64), expected.astype(np.float64), rtol=rtol, atol=atol,
                                   equal_nan=True)
    else:
        np.testing.assert_array_equal(actual, expected)


def _run(name):
    rec = CASES[name]
    env = {"T": opyard, "F": F, "math": math}
    for letter, (layout, grad) in rec["inputs"].items():
        env[letter] = _tensor(name, letter, layout, grad)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = eval(rec["expr"], env)
    return rec, env, _flat(out)


@pytest.mark.parametrize("name", sorted(CASES))
def test_forward_matches_torch(name):
    rec, env, outs = _run(name)
    assert len(outs) == len(rec["outs"])
    for i, (t, want) in enumerate(zip(outs, rec["outs"])):
        assert str(t.dtype).removeprefix("opyard.") == want["dtype"]
        assert list(t.shape) == want["shape"]
        assert list(t.stride()) == want["stride"], f"output {i}: strides {t.stride()} (torch {want['stride']})"
        _close(t.detach().float().numpy() if want["dtype"] == "bfloat16" else t.detach().numpy(),
               ARRAYS[f"{name}/out{i}"], want["dtype"])


GRAD_CASES = sorted(n for n, r in CASES.items() if r["mode"] in ("grad", "gradgrad"))


@pytest.mark.parametrize("name", GRAD_CASES)
def test_gradients_match_torch(name):
    rec, env, outs = _run(name)
    letters = [k for k in "abc" if k in rec["inputs"] and rec["inputs"][k][1]]
    leaves = [env[k] for k in letters]
    grads = opyard.autograd.grad(_weighted(outs), leaves, allow_unused=True,
                                 create_graph=rec["mode"] == "gradgrad")
    for k, g in zip(letters, grads):
        key = f"{name}/grad_{k}"
        if key not in ARRAYS:
            assert g is None
            continue
        _close(g.detach().numpy(), ARRAYS[key], "float64")
    if rec["mode"] == "gradgrad":
        gg = opyard.autograd.grad(_weighted([g for g in grads if g is not None]), leaves, allow_unused=True)
        for k, g in zip(letters, gg):
            key = f"{name}/gradgrad_{k}"
            if key in ARRAYS:
                _close(g.numpy(), ARRAYS[key], "float64")


ERRORS = META["errors"]


@pytest.mark.parametrize("case", ERRORS, ids=[e["expr"][:70] for e in ERRORS])
def test_bad_calls_raise_torch_class_and_message(case):
    env = {"T": opyard, "F": F}
    if case["raises"] is None:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            eval(case["expr"], env)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(Exception) as info:
            eval(case["expr"], env)
    names = {c.__name__ for c in type(info.value).__mro__}
    assert case["raises"] in names, f"{type(info.value).__name__}: {info.value}"
    assert str(info.value).split("\n")[0] == case["msg"]
