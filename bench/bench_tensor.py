"""Tensor operators through the dispatcher vs raw numpy (and torch when importable), one run.

Each row is a median over interleaved runs; ``xplain`` is the ratio to a plain Python call
(``def f(): pass``) measured in the same run, the machine-independent figure. The 1-element
arithmetic, ``sum``, ``clone``, ``ones_like`` and ``neg`` rows run the Rust kernels
(``_aten/fast.py``); the 1,000,000-element rows hand the work to numpy.

Targets: 1-element ``a + b`` at most half of torch's time (issue: <= 14x a plain call where
torch is 28x); 1,000,000-element ``a + b`` not slower than numpy.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, per_call_ns, try_import_torch  # noqa: E402

import numpy as np  # noqa: E402

import opyard  # noqa: E402


def _plain():
    pass


def _cases(n, torch):
    """(label, opyard call, numpy call, torch call or None) for ``n``-element float32 vectors."""
    a, b = opyard.randn(n), opyard.randn(n)
    na, nb = a.numpy(), b.numpy()
    ta, tb = (torch.from_numpy(na.copy()), torch.from_numpy(nb.copy())) if torch else (None, None)
    T = torch is not None
    rows = [
        (f"a + b ({n})", lambda: a + b, lambda: na + nb, (lambda: ta + tb) if T else None),
        (f"a - b ({n})", lambda: a - b, lambda: na - nb, (lambda: ta - tb) if T else None),
        (f"a * b ({n})", lambda: a * b, lambda: na * nb, (lambda: ta * tb) if T else None),
        (f"a / b ({n})", lambda: a / b, lambda: na / nb, (lambda: ta / tb) if T else None),
        (f"x.sum() ({n})", lambda: a.sum(), lambda: na.sum(), (lambda: ta.sum()) if T else None),
    ]
    if n == 1:
        rows += [
            ("a + 1.0 (1)", lambda: a + 1.0, lambda: na + 1.0, (lambda: ta + 1.0) if T else None),
            ("-x (1)", lambda: -a, lambda: -na, (lambda: -ta) if T else None),
            ("x.clone() (1)", lambda: a.clone(), lambda: na.copy(), (lambda: ta.clone()) if T else None),
            ("ones_like(x) (1)", lambda: opyard.ones_like(a), lambda: np.ones_like(na),
             (lambda: torch.ones_like(ta)) if T else None),
        ]
    if n == 1000:
        rows.append((f"x.sin() ({n})", lambda: a.sin(), lambda: np.sin(na), (lambda: ta.sin()) if T else None))
    if n == 1_000_000:
        rows = [rows[0], rows[4]]
    return rows


def _mm_case(torch):
    m = opyard.randn(64, 64)
    nm = m.numpy()
    tm = torch.from_numpy(nm.copy()) if torch else None
    return ("mm 64x64", lambda: m.mm(m), lambda: nm @ nm, (lambda: tm.mm(tm)) if torch else None)


def main():
    torch = try_import_torch()
    rows = []
    cases = _cases(1, torch) + _cases(1000, torch) + _cases(1_000_000, torch) + [_mm_case(torch)]
    for label, ours, ref, theirs in cases:
        # Interleaved halves, so that drift of the machine hits both sides alike.
        p1, o1, n1 = per_call_ns(_plain, repeat=13), per_call_ns(ours, repeat=13), per_call_ns(ref, repeat=13)
        t1 = per_call_ns(theirs, repeat=13) if theirs else None
        p2, o2, n2 = per_call_ns(_plain, repeat=13), per_call_ns(ours, repeat=13), per_call_ns(ref, repeat=13)
        t2 = per_call_ns(theirs, repeat=13) if theirs else None
        p, o, n = (p1 + p2) / 2, (o1 + o2) / 2, (n1 + n2) / 2
        t = (t1 + t2) / 2 if theirs else None
        rows.append((label, p, o, n, t))
    print(f"\nTensor ops  ({machine()})")
    print(f"  {'operation':<20} {'opyard':>10} {'xplain':>7} {'numpy':>10} {'vs numpy':>9} {'torch':>10} "
          f"{'xplain':>7} {'vs torch':>9}")
    for label, p, o, n, t in rows:
        torch_cols = (f"{t / 1000:>8.2f}us {t / p:>6.1f}x {o / t:>8.2f}x" if t is not None
                      else f"{'(absent)':>10} {'':>7} {'':>9}")
        print(f"  {label:<20} {o / 1000:>8.2f}us {o / p:>6.1f}x {n / 1000:>8.2f}us {o / n:>8.2f}x {torch_cols}")
    return rows


if __name__ == "__main__":
    main()
