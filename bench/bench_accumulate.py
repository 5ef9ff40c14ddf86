"""Gradient accumulation into ``.grad``: ``grad.add_(g)`` by operand layout, and the first copy.

Run: ``python bench/bench_accumulate.py`` (beside torch: with torch importable, its figure
from the same run). Medians (``_harness.per_call_ns``), each row also as a ratio to a plain
Python call measured in the same run. The operands are what the backward pass hands the
accumulation: a contiguous gradient, ``SumBackward0``'s ones expanded with zero strides, a
transposed gradient. All three run the Rust in-place kernel (``_aten/fast.py``); before the
kernel read strided operands, the last two ran the Python kernel. The last row is the first
gradient's copy (``.grad`` was None), the Rust ``clone`` of one value expanded.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, per_call_ns, try_import_torch  # noqa: E402

import opyard  # noqa: E402


def _plain():
    pass


def _cases(lib):
    """(label, call) of ``grad.add_(g)`` for each operand layout, in ``lib`` (opyard or torch)."""
    add_ = lib.ops.aten.add_.Tensor
    grad3, grad23 = lib.zeros(3), lib.zeros(2, 3)
    dense, ones = lib.ones(3), lib.ones(()).expand(3)
    ones23, tr = lib.ones(()).expand(2, 3), lib.ones(3, 2).t()
    return [
        ("grad(3).add_(contiguous g)", lambda: add_(grad3, dense)),
        ("grad(3).add_(ones().expand(3))", lambda: add_(grad3, ones)),
        ("grad(2,3).add_(ones().expand(2,3))", lambda: add_(grad23, ones23)),
        ("grad(2,3).add_(g(3,2).t())", lambda: add_(grad23, tr)),
        # The first gradient of a leaf: the engine copies an expanded one into a fresh .grad.
        ("ones(()).expand(2,3).clone()", lambda: ones23.clone()),
    ]


def main():
    torch = try_import_torch()
    plain = per_call_ns(_plain)
    print(f"\ngrad.add_(g) through the dispatcher  ({machine()})")
    print(f"  {'plain Python call':<40} {plain:>8.1f} ns")
    theirs = dict(_cases(torch)) if torch else {}
    for label, fn in _cases(opyard):
        ns = per_call_ns(fn)
        line = f"  {label:<40} {ns:>8.1f} ns  {ns / plain:>6.1f}x plain"
        if label in theirs:
            tns = per_call_ns(theirs[label])
            line += f"   torch {tns:>8.1f} ns  {tns / plain:>6.1f}x plain"
        print(line)


if __name__ == "__main__":
    main()
