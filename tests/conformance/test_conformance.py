"""opyard against torch 2.15's recorded answers for every OpInfo entry in scope
(``tests/data/conformance``, written by ``make conformance-expect``).

Each entry's cases are replayed (``replay.py``); a case differs from torch unless it is
one of the deliberate differences (``policy.py``). The differences must be exactly the
ledger's (``ledger.json``): a new one is a regression, a listed one that now agrees means
the ledger is stale (``make conformance-report`` rewrites it and CONFORMANCE.md)."""

import pytest

from . import ledger, policy, replay

ENTRIES = [e for e in replay.entries() if not policy.excluded(e[1])]
LEDGER = ledger.read()


def differences(entry, outcomes):
    return {case: kind for case, kind in outcomes.items()
            if kind != "ok" and not policy.deliberate(entry, case, kind)}


def _show(cases):
    items = sorted(cases.items())
    text = ", ".join(f"{c}={k}" for c, k in items[:12])
    return text + (f", ... ({len(items)} in all)" if len(items) > 12 else "")


@pytest.mark.parametrize("entry,name,fname", ENTRIES, ids=[e[0] for e in ENTRIES])
def test_entry_agrees_with_torch_or_ledger(entry, name, fname):
    meta, outcomes = replay.replay_entry(fname)
    got = differences(entry, outcomes)
    known = ledger.expand(LEDGER.get(entry), outcomes)
    new = {c: k for c, k in got.items() if known.get(c) != k}
    fixed = {c: k for c, k in known.items() if c not in got}
    assert not new, f"{entry}: differs from torch 2.15 where the ledger says it agrees: {_show(new)}"
    assert not fixed, (f"{entry}: agrees with torch 2.15 now where the ledger lists a difference "
                       f"(run `make conformance-report`): {_show(fixed)}")


def test_deliberate_list_is_short():
    assert len(policy.DELIBERATE) <= 20
    assert all(d.reason for d in policy.DELIBERATE)
