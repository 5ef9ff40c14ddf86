"""The statistics operators on large inputs (a million elements, 1000×1000 matrices), beside torch.

Run: ``python bench/bench_statistics.py`` (with torch importable, its figure from the same run, on
the same data; torch keeps one intra-op thread, as the harness sets). Medians of a few runs
(``_harness.per_call_ns``), in milliseconds. The kernels are numpy (``_aten/statistics.py``); the
compositions (quantile, cov, gradient, trapezoid) run opyard's own operators, as torch's do.
"""

import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, per_call_ns, try_import_torch  # noqa: E402

import opyard  # noqa: E402

_RNG = np.random.default_rng(0)
_FLAT = _RNG.standard_normal(1_000_000).astype(np.float32)
_SQUARE = _RNG.standard_normal((1000, 1000)).astype(np.float32)
_INTS = _RNG.integers(0, 1000, 1_000_000)


def _cases(lib):
    """(label, call) of each operator on its large input, in ``lib`` (opyard or torch)."""
    flat, square, ints = lib.tensor(_FLAT), lib.tensor(_SQUARE), lib.tensor(_INTS)
    lengths = lib.full((1000,), 1000)
    q = lib.tensor([0.1, 0.5, 0.9])
    return [
        ("unique(1M, inverse, counts)", lambda: lib.unique(flat, return_inverse=True, return_counts=True)),
        ("bincount(1M)", lambda: lib.bincount(ints)),
        ("histc(1M, 100)", lambda: lib.histc(flat, 100)),
        ("histogram(1M, 100)", lambda: lib.histogram(flat, 100)),
        ("histogramdd(500k x 2, [20, 20])", lambda: lib.histogramdd(flat.reshape(-1, 2), [20, 20])),
        ("nanmedian(1000x1000, 1)", lambda: lib.nanmedian(square, 1)),
        ("quantile(1000x1000, 3 q, 1)", lambda: lib.quantile(square, q, dim=1)),
        ("logcumsumexp(1000x1000, 1)", lambda: lib.logcumsumexp(square, 1)),
        ("renorm(1000x1000, 2, 0, 1)", lambda: lib.renorm(square, 2, 0, 1.0)),
        ("dist(1M, 1M)", lambda: lib.dist(flat, flat * 0.5)),
        ("_segment_reduce(1M, sum, 1000 x 1000)", lambda: lib._segment_reduce(flat, "sum", lengths=lengths)),
        ("gradient(1000x1000)", lambda: lib.gradient(square)),
        ("trapezoid(1000x1000)", lambda: lib.trapezoid(square)),
    ]


def main():
    torch = try_import_torch()
    print(f"\nstatistics operators on large inputs  ({machine()})")
    theirs = dict(_cases(torch)) if torch else {}
    for label, fn in _cases(opyard):
        ms = per_call_ns(fn, repeat=5, target_s=0.2) / 1e6
        line = f"  {label:<40} opyard {ms:>8.2f} ms"
        if label in theirs:
            tms = per_call_ns(theirs[label], repeat=5, target_s=0.2) / 1e6
            line += f"   torch {tms:>8.2f} ms   {ms / tms:>5.2f}x"
        print(line)


if __name__ == "__main__":
    main()
