"""``nn.BatchNorm1d``/``2d``/``3d`` against torch 2.15's recorded answers.

The snippets are ``tests/data/nn_module_cases.py``; what torch returned (values, dtypes, shapes,
``requires_grad``, buffers and state dicts, reprs) or raised (type and text) for each was recorded by
``tests/data/gen_torch_nn_module_cases.py`` (``make nn-modules-expect``) into
``tests/data/torch_nn_module_cases.json``, which is all this test reads of torch.
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
from func_cases import run, serialize  # noqa: E402
from nn_module_cases import CASES, PRELUDE  # noqa: E402

with open(os.path.join(DATA, "torch_nn_module_cases.json")) as _f:
    RECORDED = json.load(_f)["cases"]


def _normalize(text):
    return re.sub(r"(?<![\w/#.])torch\.", "opyard.", text)


def _close(got, want, path):
    if isinstance(want, dict) and "tensor" in want:
        assert isinstance(got, dict) and "tensor" in got, f"{path}: expected a tensor, got {got!r:.200}"
        for key in ("dtype", "shape", "requires_grad"):
            assert got[key] == want[key], f"{path}: {key} {got[key]} != {want[key]}"
        tol = 1e-5 if want["dtype"] == "float32" else 1e-10
        np.testing.assert_allclose(np.asarray(got["tensor"], dtype=float), np.asarray(want["tensor"], dtype=float),
                                   rtol=tol, atol=tol, err_msg=path)
    elif isinstance(want, dict):
        assert isinstance(got, dict) and got.keys() == want.keys(), f"{path}: {got!r:.200} != {want!r:.200}"
        for k in want:
            _close(got[k], want[k], f"{path}.{k}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), f"{path}: {got!r:.200} != {want!r:.200}"
        for i, (g, w) in enumerate(zip(got, want)):
            _close(g, w, f"{path}[{i}]")
    elif isinstance(want, float):
        assert got == pytest.approx(want), path
    elif isinstance(want, str):
        assert _normalize(got) == _normalize(want), path
    else:
        assert got == want, f"{path}: {got!r} != {want!r}"


def test_every_case_is_recorded():
    assert set(RECORDED) == set(CASES), "regenerate tests/data/torch_nn_module_cases.json (make nn-modules-expect)"


@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_torch(name):
    case = RECORDED[name]
    assert case["code"] == CASES[name], "the snippet changed: regenerate (make nn-modules-expect)"
    value, error = run(PRELUDE + CASES[name], opyard)
    if case["error"] is not None:
        assert error is not None, f"torch raised {case['error'][0]}: {case['error'][1][:200]}; opyard returned"
        assert error[0] == case["error"][0], f"{error} vs torch {case['error']}"
        assert _normalize(error[1]) == _normalize(case["error"][1])
        return
    if error is not None:
        raise AssertionError(f"opyard raised {error[0]}: {error[1]}")
    _close(serialize(value, opyard), case["out"], name)


def test_training_statistics_closed_form():
    # the running statistics after one training call: (1 - m) * init + m * batch (unbiased variance)
    x = opyard.tensor(np.arange(12.0).reshape(4, 3) ** 1.5, dtype=opyard.float64)
    m = opyard.nn.BatchNorm1d(3, momentum=0.25, dtype=opyard.float64)
    y = m(x)
    data = x.numpy()
    np.testing.assert_allclose(m.running_mean.numpy(), 0.25 * data.mean(0))
    np.testing.assert_allclose(m.running_var.numpy(), 0.75 + 0.25 * data.var(0, ddof=1))
    np.testing.assert_allclose(y.detach().numpy(), (data - data.mean(0)) / np.sqrt(data.var(0) + 1e-5), atol=1e-12)
    assert m.num_batches_tracked.item() == 1 and m.num_batches_tracked.dtype == opyard.int64


def test_module_to_dtype_keeps_integer_buffers():
    m = opyard.nn.BatchNorm1d(3).double()
    assert (m.weight.dtype, m.running_var.dtype, m.num_batches_tracked.dtype) == (opyard.float64,) * 2 + (opyard.int64,)
    assert isinstance(m.weight, opyard.nn.Parameter)
    with pytest.raises(TypeError, match=r"^nn.Module.to only accepts floating point or complex dtypes, but got "
                                        r"desired dtype=opyard.int64$"):
        m.to(opyard.int64)


def test_gradcheck_through_the_module():
    m = opyard.nn.BatchNorm2d(2, dtype=opyard.float64)
    x = opyard.tensor(np.random.default_rng(0).standard_normal((3, 2, 2, 2)), dtype=opyard.float64,
                      requires_grad=True)
    assert opyard.autograd.gradcheck(lambda t: m(t), (x,))


def test_replace_all_batch_norm_modules_lets_vmap_run_the_model():
    net = opyard.nn.Module()
    net.bn = opyard.nn.BatchNorm1d(3, dtype=opyard.float64)
    xs = opyard.tensor(np.random.default_rng(1).standard_normal((5, 4, 3)), dtype=opyard.float64)
    assert opyard.func.replace_all_batch_norm_modules_(net) is net
    assert net.bn.running_mean is None and net.bn.num_batches_tracked is None and not net.bn.track_running_stats
    got = opyard.func.vmap(net.bn)(xs)
    want = np.stack([(b - b.mean(0)) / np.sqrt(b.var(0) + 1e-5) for b in xs.numpy()])
    np.testing.assert_allclose(got.detach().numpy(), want, atol=1e-12)
    # modules that do not track running statistics, and other modules, are left alone
    lin = opyard.nn.Linear(2, 2)
    assert opyard.func.replace_all_batch_norm_modules_(lin) is lin and "bias" in dict(lin.named_parameters())
