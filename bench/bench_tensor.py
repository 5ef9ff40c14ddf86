"""Tensor operators through the dispatcher vs raw numpy (and torch when importable), one run.

Targets: 1-element ``a + b`` at most 1.59 us and at most numpy's time + 1 us; 1,000-element
operations and ``mm`` 64x64 within 10% of numpy.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, per_call_ns, try_import_torch  # noqa: E402

import numpy as np  # noqa: E402

import opyard  # noqa: E402


def _cases(n):
    """(label, opyard call, numpy call, torch call or None) for ``n``-element float32 vectors."""
    torch = try_import_torch()
    a, b = opyard.randn(n), opyard.randn(n)
    na, nb = a.numpy(), b.numpy()
    ta, tb = (torch.from_numpy(na.copy()), torch.from_numpy(nb.copy())) if torch else (None, None)
    return [
        (f"a + b ({n})", lambda: a + b, lambda: na + nb, (lambda: ta + tb) if torch else None),
        (f"x.sin() ({n})", lambda: a.sin(), lambda: np.sin(na), (lambda: ta.sin()) if torch else None),
        (f"x.sum() ({n})", lambda: a.sum(), lambda: na.sum(), (lambda: ta.sum()) if torch else None),
    ]


def _mm_case():
    torch = try_import_torch()
    m = opyard.randn(64, 64)
    nm = m.numpy()
    tm = torch.from_numpy(nm.copy()) if torch else None
    return ("mm 64x64", lambda: m.mm(m), lambda: nm @ nm, (lambda: tm.mm(tm)) if torch else None)


def main():
    rows = []
    big = _cases(1_000_000)[:1]
    for label, ours, ref, theirs in _cases(1) + _cases(1000) + big + [_mm_case()]:
        # Interleaved halves, so that drift of the machine hits both sides alike.
        o1, n1 = per_call_ns(ours, repeat=13), per_call_ns(ref, repeat=13)
        o2, n2 = per_call_ns(ours, repeat=13), per_call_ns(ref, repeat=13)
        o, n = (o1 + o2) / 2, (n1 + n2) / 2
        t = per_call_ns(theirs, repeat=25) if theirs else None
        rows.append((label, o, n, t))
    print(f"\nTensor ops  ({machine()})")
    print(f"  {'operation':<18} {'opyard':>10} {'numpy':>10} {'ratio':>7} {'opyard-numpy':>13} {'torch':>10}")
    for label, o, n, t in rows:
        torch_col = f"{t / 1000:>8.2f}us" if t is not None else "   (absent)"
        print(f"  {label:<18} {o / 1000:>8.2f}us {n / 1000:>8.2f}us {o / n:>6.2f}x {(o - n) / 1000:>+11.2f}us "
              f"{torch_col}")
    return rows


if __name__ == "__main__":
    main()
