"""Replays the snippets of tests/data/torch_behaviours*.py with opyard and compares each outcome
with torch 2.15's, recorded in tests/data/torch_behaviours.json (``make behaviours-expect``).

Each area's test file parametrizes ``check`` over ``names(area)``."""

import json
import os
import sys
import warnings

import opyard

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, DATA)
from torch_behaviours import AREA, CHECK, SNIPPETS, load_all, norm, plain  # noqa: E402

load_all()

with open(os.path.join(DATA, "torch_behaviours.json")) as _f:
    RECORDED = json.load(_f)["cases"]


def names(area):
    """The snippets the test folder ``area`` replays, sorted."""
    return sorted(n for n, a in AREA.items() if a == area)


def _ours(text):
    # torch's name read as opyard's, except where the text names torch's own features (opyard keeps
    # those words, so that code matching them keeps working).
    return (text.replace("torch", "opyard").replace("opyard.compile/export/fx", "torch.compile/export/fx")
            .replace("(opyard.compile/opyard.export)", "(torch.compile/torch.export)")
            .replace("https://pyopyard.org", "https://pytorch.org").replace("funcopyard", "functorch"))


def run(code):
    env = {"T": opyard, "norm": norm, "plain": plain}
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


def every_snippet_is_recorded():
    missing = sorted(set(SNIPPETS) - set(RECORDED))
    stale = sorted(set(RECORDED) - set(SNIPPETS))
    assert not missing and not stale, f"run `make behaviours-expect` (missing {missing}, stale {stale})"


def check(name):
    """opyard's outcome of snippet ``name`` is torch's (value or exception type, words, warnings)."""
    want = RECORDED[name]
    got = run(SNIPPETS[name])
    if want["error"] is None:
        assert got["error"] is None, f"torch gave {want['value']!r}; opyard raised {got['error']}"
        assert got["value"] == want["value"], f"torch gave {want['value']!r}; opyard {got['value']!r}"
    else:
        assert got["error"] is not None, f"torch raised {want['error']}; opyard gave {got['value']!r}"
        assert got["error"][0] == want["error"][0], got["error"]
        if CHECK[name] == "words":
            assert _ours(want["error"][1]) in got["error"][1], f"torch said {want['error'][1]!r}; opyard {got['error'][1]!r}"
    want_warnings = sorted((c, _ours(m)) for c, m in want["warnings"])
    assert got["warnings"] == want_warnings, f"torch warned {want_warnings}; opyard {got['warnings']}"
