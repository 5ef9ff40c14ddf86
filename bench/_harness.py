"""Shared timing helpers for the Python-level benchmarks: medians of repeated runs."""

import datetime
import gc
import os
import platform
import statistics
import time
import tracemalloc


def per_call_ns(fn, *, number=None, repeat=15, target_s=0.02):
    """Median nanoseconds per call of ``fn()`` over ``repeat`` runs of ``number`` calls."""
    if number is None:
        number = 1
        while True:
            t0 = time.perf_counter()
            for _ in range(number):
                fn()
            if time.perf_counter() - t0 > target_s / 4:
                break
            number *= 4
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        for _ in range(number):
            fn()
        samples.append((time.perf_counter_ns() - t0) / number)
    return statistics.median(samples)


def machine():
    cpu = "unknown CPU"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{datetime.date.today().isoformat()}")


def try_import_torch():
    try:
        import torch  # noqa: F401
    except ImportError:
        return None
    # One intra-op thread: the benches time tiny ops, where torch's thread pool only adds
    # spinning workers that take a core from whatever runs next in this process.
    torch.set_num_threads(1)
    return torch


def report(title, rows, baseline):
    """Print ``rows`` [(label, ns)] with their ratio to the row named ``baseline``."""
    base = dict(rows)[baseline]
    print(f"\n{title}  ({machine()})")
    for label, ns in rows:
        print(f"  {label:<46} {ns:>10.1f} ns   {ns / base:>6.2f}x {baseline}")


def bytes_per_node(lib, n=10_000):
    """Bytes tracemalloc attributes to a chain of ``n`` ``neg`` calls on a leaf that requires
    grad (each graph node and its output tensor), per node. ``lib`` is opyard or torch."""
    x = lib.ones(1, requires_grad=True)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    y = x
    for _ in range(n):
        y = y.neg()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del y
    return (after - before) / n
