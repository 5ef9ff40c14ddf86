"""The messages of common autograd mistakes as torch's.

The mistakes are code snippets (``tests/data/autograd_mistakes.py``); what
torch 2.15 raised or warned for each was recorded by
``tests/data/gen_torch_autograd_messages.py`` into
``tests/data/torch_autograd_messages.json``, which is all this test reads.
"""

import json
import os
import re
import warnings

import opyard
import pytest

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
fwAD = opyard.autograd.forward_ad

with open(os.path.join(DATA, "torch_autograd_messages.json")) as _f:
    MESSAGES = json.load(_f)["cases"]

# Where opyard's text deliberately differs, how it is compared instead, and why.
_BEFORE_HINT = ("before_hint", ("torch's hint points to anomaly detection, which opyard does not "
                                "have; opyard's hint says how to avoid the in-place change"))
MESSAGE_DIFFERENCES = {
    "inplace_saved_output": _BEFORE_HINT,
    "inplace_saved_input": _BEFORE_HINT,
    "inplace_saved_via_detach": _BEFORE_HINT,
    "fn_saved_input_modified": _BEFORE_HINT,
    "fn_grad_type": ("contains", "opyard names the node and the position; torch's text is the tail"),
    "grad_assign_dtype": ("prefix", ("opyard has no grad_dtype attribute, so torch's advice to set "
                                     "it is left out")),
    "backward_non_tensor_gradient": ("type_only", ("torch's text (\"'int' object is not iterable\") "
                                                   "is an accident of iterating the argument; opyard "
                                                   "says what backward expected")),
}


def _normalize(text):
    """torch's type names read ``opyard.`` here; drop C++ provenance and object addresses."""
    text = re.sub(r" \(Triggered internally at [^)]*\)", "", text)
    text = re.sub(r"(?<![\w/#.])torch\.", "opyard.", text)
    return re.sub(r"0x[0-9a-f]+", "0x?", text)


def _run_mistake(code):
    env = {"T": opyard, "fwAD": fwAD}
    error = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, env)  # noqa: S102 -- the table in tests/data/autograd_mistakes.py
        except Exception as e:  # noqa: BLE001 -- every mistake's exception is compared
            error = (type(e).__name__, str(e))
    return error, [(w.category.__name__, _normalize(str(w.message))) for w in caught]


def test_mistakes_table_size():
    assert len(MESSAGES) >= 40
    assert sum(1 for c in MESSAGES.values() if c["warnings"]) >= 4


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_mistake_message_matches_torch(name):
    case = MESSAGES[name]
    error, warned = _run_mistake(case["code"])
    for category, text in case["warnings"]:
        assert (category, _normalize(text)) in warned, f"{name}: missing warning {category}: {text[:120]}"
    if case["error"] is None:
        assert error is None, f"{name}: torch only warns, opyard raised {error}"
        return
    assert error is not None, f"{name}: torch raised {case['error'][0]}, opyard did not"
    want_type, want = case["error"][0], _normalize(case["error"][1])
    assert error[0] == want_type
    got = _normalize(error[1])
    mode = MESSAGE_DIFFERENCES.get(name, ("exact",))[0]
    if mode == "before_hint":
        assert got.split(" Hint: ")[0] == want.split(" Hint: ")[0]
        assert got != want
    elif mode == "contains":
        assert want in got and got != want
    elif mode == "prefix":
        assert want.startswith(got) and got != want
    elif mode == "type_only":
        assert got != want
    else:
        assert got == want
