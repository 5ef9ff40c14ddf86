"""Replays the snippets of tests/data/torch_behaviours.py with opyard and compares each outcome
with torch 2.15's, recorded in tests/data/torch_behaviours.json (``make behaviours-expect``)."""

import json
import os
import sys
import warnings

import pytest

import opyard

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, DATA)
from torch_behaviours import CHECK, SNIPPETS, norm  # noqa: E402

with open(os.path.join(DATA, "torch_behaviours.json")) as _f:
    RECORDED = json.load(_f)["cases"]


def _ours(text):
    return text.replace("torch", "opyard")


def run(code):
    env = {"T": opyard, "norm": norm}
    row = {"value": None, "error": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(code.replace("from T.", "from opyard."), "<snippet>", "exec"), env)  # noqa: S102
            row["value"] = norm(env.get("out"))
        except Exception as e:  # noqa: BLE001 -- compared with torch's
            row["error"] = [type(e).__name__, str(e)]
    row["warnings"] = sorted({(w.category.__name__, str(w.message).split("\n")[0]) for w in caught})
    return row


def test_every_snippet_has_a_recorded_answer():
    assert sorted(SNIPPETS) == sorted(RECORDED), "run `make behaviours-expect`"


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_snippet_agrees_with_torch(name):
    want = RECORDED[name]
    got = run(SNIPPETS[name])
    if want["error"] is None:
        assert got["error"] is None, f"torch gave {want['value']!r}; opyard raised {got['error']}"
        assert got["value"] == want["value"]
    else:
        assert got["error"] is not None, f"torch raised {want['error']}; opyard gave {got['value']!r}"
        assert got["error"][0] == want["error"][0], got["error"]
        if CHECK[name] == "words":
            assert _ours(want["error"][1]) in got["error"][1]
    assert got["warnings"] == sorted((c, _ours(m)) for c, m in want["warnings"])
