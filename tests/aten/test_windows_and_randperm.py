"""The window functions (``hann_window``, ``hamming_window``, ``blackman_window``, ``bartlett_window``,
``kaiser_window``) against torch 2.15's values (``make windows-expect``): every length class, both
``periodic`` values, the extra parameters and every floating dtype; ``randperm`` draws permutations
in the dtype asked for; both raise torch's errors."""

import builtins
import json
import os
import re

import numpy as np
import opyard
import pytest

with open(os.path.join(os.path.dirname(__file__), "..", "data", "torch_windows.json")) as _f:
    _DATA = json.load(_f)

# 16-bit windows: torch's vectorised half-precision loop rounds its intermediates differently from
# a rounding after each op (opyard's, as torch's own step-by-step ``arange(...).mul_(...).cos_()...``
# gives): up to 5 units in the last place apart (near 0.19 torch's float16 hann value is 0.18945, the exact
# 0.18826, opyard's 0.18774).
_TOL = {"float32": 1e-6, "float64": 1e-14, "float16": 2.5e-3, "bfloat16": 2.5e-2}


def _kwargs(kw):
    return {k: getattr(opyard, v) if k == "dtype" else v for k, v in kw.items()}


@pytest.mark.parametrize("case", _DATA["values"], ids=lambda c: f"{c['call'][0]}{c['call'][1]}{c['call'][2]}")
def test_window_is_torchs(case):
    name, args, kw = case["call"]
    w = getattr(opyard, name)(*args, **_kwargs(kw))
    assert str(w.dtype) == f"opyard.{case['dtype']}"
    np.testing.assert_allclose(w.double().numpy(), case["values"], rtol=0, atol=_TOL[case["dtype"]])


@pytest.mark.parametrize("case", _DATA["errors"], ids=lambda c: f"{c['call'][0]}{c['call'][1]}{c['call'][2]}")
def test_window_and_randperm_errors_are_torchs(case):
    name, args, kw = case["call"]
    exc, message = case["error"]
    with pytest.raises(getattr(builtins, exc), match="^" + re.escape(message) + "$"):
        getattr(opyard, name)(*args, **_kwargs(kw))


@pytest.mark.parametrize("dtype", [opyard.int64, opyard.int32, opyard.int16, opyard.uint8, opyard.float32,
                                   opyard.float64, opyard.float16, opyard.bfloat16])
def test_randperm_is_a_permutation_in_the_dtype_asked_for(dtype):
    opyard.manual_seed(3)
    p = opyard.randperm(200, dtype=dtype)
    assert p.dtype == dtype and p.shape == (200,)
    assert sorted(p.double().tolist()) == list(range(200))
    opyard.manual_seed(3)
    assert opyard.randperm(200, dtype=dtype).tolist() == p.tolist()
    assert opyard.randperm(0).dtype == opyard.int64 and opyard.randperm(5, generator=None).numel() == 5


def test_windows_take_requires_grad_and_work_on_meta_and_fake():
    w = opyard.hann_window(8, requires_grad=True)
    assert w.requires_grad and w.is_leaf
    assert opyard.kaiser_window(5, device="meta").shape == (5,)
    from opyard._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        assert opyard.blackman_window(9).shape == (9,) and opyard.randperm(4).dtype == opyard.int64
