"""Tensor operators through the dispatcher vs raw numpy (and torch when importable), one run.

Each row is a median over short samples taken round-robin (plain call, opyard, numpy, torch),
then the median of three passes over all rows; ``xplain`` is the ratio to a plain Python call
(``def f(): pass``) measured in the same run, the machine-independent figure. The 1-element
arithmetic, ``sum``, ``clone``, ``ones_like``, ``neg``, ``expand`` and ``add_`` rows run the Rust kernels
(``_aten/fast.py``); the 1,000,000-element rows hand the work to numpy.

Targets: 1-element ``a + b`` at most half of torch's time (issue: <= 14x a plain call where
torch is 28x); 1,000,000-element ``a + b`` not slower than numpy.

The autograd rows (``--autograd`` runs only them) time the same 1-element ops on leaves that
require grad, recording through the built-in ops' Autograd kernel in Rust, and their backward;
``xnograd`` is the ratio to the same call without grad. Target: ``xr.sum()`` with grad <= 1.0 us.
"""

import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, try_import_torch  # noqa: E402

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
            ("a.add(b) (1)", lambda: a.add(b), lambda: np.add(na, nb), (lambda: ta.add(tb)) if T else None),
            ("a + 1.0 (1)", lambda: a + 1.0, lambda: na + 1.0, (lambda: ta + 1.0) if T else None),
            ("-x (1)", lambda: -a, lambda: -na, (lambda: -ta) if T else None),
            ("x.clone() (1)", lambda: a.clone(), lambda: na.copy(), (lambda: ta.clone()) if T else None),
            ("ones_like(x) (1)", lambda: opyard.ones_like(a), lambda: np.ones_like(na),
             (lambda: torch.ones_like(ta)) if T else None),
            ("x.expand(4, 1) (1)", lambda: a.expand(4, 1), lambda: np.broadcast_to(na, (4, 1)),
             (lambda: ta.expand(4, 1)) if T else None),
        ]
        # In place (gradient accumulation): separate tensors, so the other rows' inputs stay put.
        g, acc = opyard.randn(n), opyard.zeros(n)
        ng, nacc = g.numpy(), acc.numpy().copy()
        tg, tacc = (torch.from_numpy(ng.copy()), torch.zeros(n)) if T else (None, None)
        rows.append(("acc.add_(g) (1)", lambda: acc.add_(g), lambda: np.add(nacc, ng, out=nacc),
                     (lambda: tacc.add_(tg)) if T else None))
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


def _autograd_cases(torch):
    """(label, opyard call with grad, the same call without grad, torch call or None): the
    built-in ops' Autograd kernel (``_core._PlainAutogradKernel``) and the Rust backward applies
    (``_core._NodeApply``) on 1-element float32 leaves that require grad."""
    xr, a, b = (opyard.randn(1, requires_grad=True) for _ in range(3))
    x, c, d = xr.detach(), a.detach(), b.detach()
    T = torch is not None
    if T:
        txr, ta, tb = (torch.randn(1, requires_grad=True) for _ in range(3))
    return [
        ("xr.sum()", lambda: xr.sum(), lambda: x.sum(), (lambda: txr.sum()) if T else None),
        ("xr * 2", lambda: xr * 2, lambda: x * 2, (lambda: txr * 2) if T else None),
        ("xr.clone()", lambda: xr.clone(), lambda: x.clone(), (lambda: txr.clone()) if T else None),
        ("-xr", lambda: -xr, lambda: -x, (lambda: -txr) if T else None),
        ("a + b", lambda: a + b, lambda: c + d, (lambda: ta + tb) if T else None),
        ("a * b", lambda: a * b, lambda: c * d, (lambda: ta * tb) if T else None),
        ("xr.sum().backward()", lambda: xr.sum().backward(), lambda: x.sum(),
         (lambda: txr.sum().backward()) if T else None),
        ("(a*b).sum().backward()", lambda: (a * b).sum().backward(), lambda: (c * d).sum(),
         (lambda: (ta * tb).sum().backward()) if T else None),
    ]


def autograd_main(torch=None, passes=3):
    """The autograd rows: opyard with grad, its ratio to a plain call and to the same call
    without grad, and torch's figure from the same run."""
    collected = {}
    labels = []
    for _ in range(passes):
        for label, ours, nograd, theirs in _autograd_cases(torch):
            fns = [_plain, ours, nograd] + ([theirs] if theirs else [])
            if label not in collected:
                labels.append(label)
            collected.setdefault(label, []).append(interleaved_ns(fns, rounds=101))
    print(f"\nAutograd ops, 1 element, inputs require grad  ({machine()})")
    print(f"  {'operation':<24} {'opyard':>10} {'xplain':>7} {'xnograd':>8} {'torch':>10} {'xplain':>7} "
          f"{'vs torch':>9}")
    rows = []
    for label in labels:
        p, o, n, *t = (statistics.median(col) for col in zip(*collected[label]))
        t = t[0] if t else None
        rows.append((label, p, o, n, t))
        torch_cols = (f"{t / 1000:>8.2f}us {t / p:>6.1f}x {t / o:>8.2f}x" if t is not None
                      else f"{'(absent)':>10} {'':>7} {'':>9}")
        print(f"  {label:<24} {o / 1000:>8.2f}us {o / p:>6.1f}x {o / n:>7.2f}x {torch_cols}")
    print("  (xnograd: the same call with no input requiring grad; vs torch: torch's time / opyard's)")
    return rows


def interleaved_ns(fns, rounds=301, sample_s=0.0002):
    """Median ns per call of each of ``fns``, sampled round-robin (one short sample of each per
    round), so that load from other processes falls on every function alike."""
    numbers = []
    for fn in fns:
        n = 1
        while True:
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            if time.perf_counter() - t0 > sample_s:
                break
            n *= 2
        numbers.append(n)
    samples = [[] for _ in fns]
    order = list(range(len(fns)))
    gc.disable()  # as timeit does: a collection walking torch's ~100k objects is not the op's cost
    try:
        _rounds(fns, numbers, samples, order, rounds)
    finally:
        gc.enable()
    return [statistics.median(s) for s in samples]


def _rounds(fns, numbers, samples, order, rounds):
    shuffle = random.Random(0).shuffle
    for _ in range(rounds):
        # A fresh order each round: whoever runs right after another library's large free (torch
        # returns big blocks to the OS, the next allocation page-faults them back in) is drawn at
        # random, not always the same function (a rotation would keep the cyclic order).
        shuffle(order)
        for i in order:
            fn, n = fns[i], numbers[i]
            t0 = time.perf_counter_ns()
            for _ in range(n):
                fn()
            samples[i].append((time.perf_counter_ns() - t0) / n)


def main():
    torch = try_import_torch()
    # Each size's tensors exist only while its rows run: the 1,000,000-element arrays, kept
    # alive beside the small ones, change what the allocator hands the small results.
    groups = [lambda: _cases(1, torch), lambda: _cases(1000, torch), lambda: _cases(1_000_000, torch),
              lambda: [_mm_case(torch)]]
    # Three passes over all rows, each row's figure the median of its three: a burst of load
    # lasting as long as one row (another process's build) is outvoted.
    labels, passes = [], {}
    for _ in range(3):
        for make in groups:
            for label, ours, ref, theirs in make():
                fns = [_plain, ours, ref] + ([theirs] if theirs else [])
                if label not in passes:
                    labels.append(label)
                passes.setdefault(label, []).append(
                    interleaved_ns(fns, rounds=31 if "1000000" in label else 101))
    rows = []
    for label in labels:
        p, o, n, *t = (statistics.median(col) for col in zip(*passes[label]))
        rows.append((label, p, o, n, t[0] if t else None))
    print(f"\nTensor ops  ({machine()})")
    print(f"  {'operation':<20} {'opyard':>10} {'xplain':>7} {'numpy':>10} {'vs numpy':>9} {'torch':>10} "
          f"{'xplain':>7} {'vs torch':>9}")
    for label, p, o, n, t in rows:
        torch_cols = (f"{t / 1000:>8.2f}us {t / p:>6.1f}x {o / t:>8.2f}x" if t is not None
                      else f"{'(absent)':>10} {'':>7} {'':>9}")
        print(f"  {label:<20} {o / 1000:>8.2f}us {o / p:>6.1f}x {n / 1000:>8.2f}us {o / n:>8.2f}x {torch_cols}")
    autograd_main(torch)
    return rows


if __name__ == "__main__":
    if "--autograd" in sys.argv:  # only the autograd rows
        autograd_main(try_import_torch())
    else:
        main()
