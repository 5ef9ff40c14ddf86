"""Gradient accumulation into ``.grad``: ``grad.add_(g)`` by operand layout, and the first copy.

Run: ``python bench/bench_accumulate.py`` (beside torch: with torch importable, its figure
from the same run). Medians (``_harness.per_call_ns``), each row also as a ratio to a plain
Python call measured in the same run. The operands are what the backward pass hands the
accumulation: a contiguous gradient, ``SumBackward0``'s ones expanded with zero strides, a
transposed gradient. All three run the Rust in-place kernel (``_aten/fast.py``); before the
kernel read strided operands, the last two ran the Python kernel. The last row is the first
gradient's copy (``.grad`` was None), the Rust ``clone`` of one value expanded.

The second table is a whole backward pass into a leaf of 3 float32 values whose ``.grad``
exists (the sink adds into it) against the same pass after ``xr.grad = None`` (the sink keeps
or copies the incoming gradient); the difference is what accumulating costs over the first
write. ``xr.grad = None`` itself is measured and subtracted.
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


def _backward_cases(lib):
    """(label, loss function) for a backward pass into a leaf ``xr`` of 3 values."""
    xr = lib.randn(3, requires_grad=True)
    return xr, [
        ("(xr * 2).sum().backward()", lambda: (xr * 2).sum().backward()),
        ("(-xr).sum().backward()", lambda: (-xr).sum().backward()),
        ("xr.sum().backward()", lambda: xr.sum().backward()),
    ]


def _existing_vs_first(lib):
    """(label, ns with .grad existing, ns after .grad = None) per backward case."""
    xr, cases = _backward_cases(lib)

    def clear():
        xr.grad = None

    reset = per_call_ns(clear)
    out = []
    for label, fn in cases:
        fn()

        def first(fn=fn):
            xr.grad = None
            fn()

        out.append((label, per_call_ns(fn), per_call_ns(first) - reset))
    return out


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
    print(f"\nbackward into a leaf: .grad exists vs .grad = None first  ({machine()})")
    theirs = {label: (e, f) for label, e, f in _existing_vs_first(torch)} if torch else {}
    for label, exists, first in _existing_vs_first(opyard):
        line = f"  {label:<28} exists {exists:>7.0f} ns  first {first:>7.0f} ns  diff {exists - first:>+6.0f} ns"
        if label in theirs:
            te, tf = theirs[label]
            line += f"   torch exists {te:>7.0f}  first {tf:>7.0f}  diff {te - tf:>+6.0f}"
        print(line)


if __name__ == "__main__":
    main()
