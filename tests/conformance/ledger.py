"""The ledger of known differences (``tests/conformance/ledger.json``): per OpInfo entry, the
cases where opyard still differs from torch and how. The test suite fails when a case
differs that the ledger does not list (a regression) and when a listed case now agrees
(the ledger is stale: ``make conformance-report`` rewrites it)."""

from __future__ import annotations

import json
import os

PATH = os.path.join(os.path.dirname(__file__), "ledger.json")


def read() -> dict:
    if not os.path.exists(PATH):
        return {}
    with open(PATH) as f:
        return json.load(f)


def write(ledger: dict) -> None:
    """One line per entry, sorted, so that changes to different entries merge."""
    lines = ["{"]
    items = sorted(ledger.items())
    for n, (entry, cases) in enumerate(items):
        sep = "," if n + 1 < len(items) else ""
        lines.append(f"  {json.dumps(entry)}: {json.dumps(cases, sort_keys=True)}{sep}")
    lines.append("}")
    with open(PATH, "w") as f:
        f.write("\n".join(lines) + "\n")


def compress(differences: dict, n_cases: int):
    """``"missing"`` when every case of an entry is missing, else the differences."""
    if differences and n_cases and len(differences) == n_cases and set(differences.values()) == {"missing"}:
        return "missing"
    return differences


def expand(known, outcomes: dict) -> dict:
    if known == "missing":
        return {case: "missing" for case in outcomes}
    return known or {}
