"""Backward engine scaling: cost per node for chains of 1k / 10k / 100k unary ops
with the cyclic GC on, and the memory one graph node holds (``tracemalloc``).

Run: ``python bench/bench_engine.py``. A linear engine shows the same
microseconds per node at every length; torch's figures come from the same
run when torch is importable. CPU time (``time.process_time``), best of 3:
other processes on a shared machine disturb it less than wall time.
"""

import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _harness import bytes_per_node, machine, try_import_torch  # noqa: E402

import opyard  # noqa: E402

LENGTHS = (1_000, 10_000, 100_000)


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
