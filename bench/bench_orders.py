"""``sort``, ``topk``, ``kthvalue`` and ``mode`` on large inputs beside torch in the same process (when
torch is importable: ``make bench-peers``), both at 2 threads: best of 7 wall times per row.

    PYTHONPATH=python target/peers-venv/bin/python bench/bench_orders.py
"""

import time

import numpy as np

import opyard
from _harness import machine, try_import_torch


def best(fn, rounds=7):
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times) * 1e3


def rows():
    rng = np.random.default_rng(0)
    x32 = rng.standard_normal(1 << 20).astype(np.float32)
    m = rng.standard_normal((4096, 1024)).astype(np.float32)
    ties = np.round(rng.standard_normal((4096, 1024)) * 3).astype(np.float32)
    return [
        ("sort f32 1M", x32, lambda lib, t: lib.sort(t)),
        ("sort f64 1M", rng.standard_normal(1 << 20), lambda lib, t: lib.sort(t)),
        ("sort i64 1M (ascending: the stable radix case)", rng.integers(0, 1000, 1 << 20), lambda lib, t: lib.sort(t)),
        ("sort f32 4096x1024 dim=1", m, lambda lib, t: lib.sort(t, 1)),
        ("sort f32 4096x1024 with ties dim=1", ties, lambda lib, t: lib.sort(t, 1)),
        ("topk f32 1M k=100", x32, lambda lib, t: lib.topk(t, 100)),
        ("topk f32 4096x1024 k=512 with ties", ties, lambda lib, t: lib.topk(t, 512, 1)),
        ("kthvalue f32 4096x1024 k=300", m, lambda lib, t: lib.kthvalue(t, 300, 1)),
        ("mode f32 4096x1024 with ties", ties, lambda lib, t: lib.mode(t, 1)),
    ]


def main():
    torch = try_import_torch()
    opyard.set_num_threads(2)
    if torch is not None:
        torch.set_num_threads(2)
    print(f"orders on large inputs ({machine()})")
    print(f"  {'row':<48} {'opyard ms':>10} {'torch ms':>10} {'ratio':>7}")
    for label, arr, call in rows():
        mine = best(lambda: call(opyard, opyard.from_numpy(arr)))
        if torch is None:
            print(f"  {label:<48} {mine:10.2f}")
            continue
        theirs = best(lambda: call(torch, torch.from_numpy(arr)))
        print(f"  {label:<48} {mine:10.2f} {theirs:10.2f} {mine / theirs:7.2f}")


if __name__ == "__main__":
    main()
