"""Backward engine: the fixed cost of one ``backward()``, then scaling: cost per
node for chains of 1k / 10k / 100k unary ops with the cyclic GC on, and the
memory one graph node holds (``tracemalloc``).

Run: ``python bench/bench_engine.py`` (``--fixed`` for the first table only).
A linear engine shows the same microseconds per node at every length; torch's
figures come from the same run when torch is importable. CPU time
(``time.process_time``), best of several runs: other processes on a shared
machine disturb it less than wall time. The fixed-cost rows are also given
as a ratio to a plain Python call timed in the same run.
"""

import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _harness import bytes_per_node, machine, try_import_torch  # noqa: E402

import opyard  # noqa: E402

LENGTHS = (1_000, 10_000, 100_000)


def _plain():
    pass


def cpu_us(fn, n=20_000, repeat=9):
    """Best of ``repeat`` CPU-time µs per call of ``fn`` over ``n`` calls."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n * 1e6)
    return best


def fixed_cases(lib):
    """(label, call) of the fixed cost of a backward pass and of a leaf's AccumulateGrad, in
    ``lib`` (opyard or torch). ``xr`` is a 3-element leaf."""
    xr = lib.ones(3, requires_grad=True)
    s = xr.sum()
    w = lib.ones((), requires_grad=True)
    xr.sum().backward()  # .grad exists: each pass below adds into it
    w.backward()
    return [
        # One SumBackward0 node and the leaf's AccumulateGrad, graph kept.
        ("s.backward(retain_graph=True)", lambda: s.backward(retain_graph=True)),
        # The same plus the forward that records it (and a new AccumulateGrad).
        ("xr.sum().backward()", lambda: xr.sum().backward()),
        # A leaf as its own root: the root gradient straight into .grad.
        ("w.backward(), w a 0-d leaf", lambda: w.backward()),
        # The forward alone: the graph dies each call, so each call makes a new AccumulateGrad.
        ("xr.sum() (records a node and an AccumulateGrad)", lambda: xr.sum()),
    ]


def fixed_cost(torch):
    """Print the fixed-cost rows beside torch's."""
    plain = cpu_us(_plain, n=200_000)
    print(f"\nFixed cost of backward(), CPU time, best of 9  ({machine()})")
    print(f"  {'plain Python call':<50} {plain:7.3f} us")
    theirs = dict(fixed_cases(torch)) if torch else {}
    for label, fn in fixed_cases(opyard):
        us = cpu_us(fn)
        line = f"  {label:<50} {us:7.3f} us  {us / plain:6.1f}x plain"
        if label in theirs:
            tus = cpu_us(theirs[label])
            line += f"   torch {tus:7.3f} us ({tus / us:4.1f}x opyard)"
        print(line)


def _chain(lib, n):
    x = lib.ones(1, requires_grad=True)
    y = x
    for _ in range(n):
        y = y.neg()
    return x, y.sum()


def per_node_us(lib, n, repeat=3):
    """Best of ``repeat`` (forward µs/node, backward µs/node) for a chain of ``n`` negs."""
    best_f = best_b = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        x, loss = _chain(lib, n)
        t1 = time.process_time()
        loss.backward()
        t2 = time.process_time()
        best_f = min(best_f, (t1 - t0) / n * 1e6)
        best_b = min(best_b, (t2 - t1) / n * 1e6)
        del x, loss
    return best_f, best_b



def main():
    assert gc.isenabled()
    torch = try_import_torch()
    fixed_cost(torch)
    if "--fixed" in sys.argv:
        return
    print(f"\nBackward engine scaling, GC on, CPU time  ({machine()})")
    for lib, name in ((opyard, "opyard"),) + (((torch, "torch"),) if torch else ()):
        for n in LENGTHS:
            f, b = per_node_us(lib, n)
            print(f"  {name:<7} chain of {n:>7,} neg: forward {f:6.2f} us/node, backward {b:6.2f} us/node")
        if lib is opyard:
            print(f"  {name:<7} memory per graph node (neg, tracemalloc): {bytes_per_node(lib):7.0f} bytes")
        else:  # torch allocates graph nodes in C++, where tracemalloc does not look
            print(f"  {name:<7} memory per graph node: not visible to tracemalloc (C++ heap)")
    if torch is None:
        print("  torch is not importable here: no torch rows in this run")


if __name__ == "__main__":
    main()
