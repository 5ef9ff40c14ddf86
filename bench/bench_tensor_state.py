"""Tensor state: attribute reads and writes, and the memory one tensor and one graph node hold.

Each read is timed as a bare statement in a ``timeit`` loop (not behind a function call),
minus the empty loop; the ratio column divides by a read of a ``__slots__`` attribute of a
plain Python object in the same run. Memory is what ``tracemalloc`` sees: ``N`` detached
tensors sharing one array (the tensor objects alone), and a chain of ``neg`` (nodes plus
their outputs). torch's reads come from the same run when torch is importable; its tensors
and nodes live in the C++ heap, where tracemalloc does not look.

Run: ``python bench/bench_tensor_state.py``.
"""

import gc
import os
import statistics
import sys
import timeit
import tracemalloc

sys.path.insert(0, os.path.dirname(__file__))
from _harness import bytes_per_node, machine, try_import_torch  # noqa: E402

import opyard  # noqa: E402


class _Slotted:
    __slots__ = ("x",)

    def __init__(self):
        self.x = 1


# (label, opyard statement, torch statement or None); ``t`` is a leaf of 3 float32 elements,
# ``y`` a non-leaf (``t * 2`` with ``t`` requiring grad; reading its ``.grad`` warns in torch
# and opyard alike, so the grad row reads a leaf).
READS = [
    ("t._data", "t._data", None),
    ("t.grad (leaf)", "t.grad", "t.grad"),
    ("y._grad_fn / y.grad_fn", "y._grad_fn", "y.grad_fn"),
    ("t.dtype", "t.dtype", "t.dtype"),
    ("t.shape", "t.shape", "t.shape"),
    ("t.device", "t.device", "t.device"),
    ("t.ndim", "t.ndim", "t.ndim"),
    ("t._version", "t._version", "t._version"),
    ("t.dim()", "t.dim()", "t.dim()"),
    ("t.numel()", "t.numel()", "t.numel()"),
    ("t.requires_grad", "t.requires_grad", "t.requires_grad"),
    ("t._meta_offset = 0 (write)", "t._meta_offset = 0", None),
    # a new tensor object: the result constructor (``_make``/``_make_view``) on top of the op
    ("t.detach()", "t.detach()", "t.detach()"),
    ("t + t (1 element)", "u + u", "u + u"),
]


def _ns(stmt, env, number=50_000, repeat=15):
    """Median ns of ``stmt`` minus the median of an empty statement."""
    def med(s):
        return statistics.median(t / number * 1e9 for t in timeit.repeat(s, globals=env, number=number,
                                                                           repeat=repeat))
    return max(med(stmt) - med("pass"), 0.0)


def _env(lib):
    t = lib.ones(3)
    g = lib.ones(3, requires_grad=True)
    return {"t": t, "y": g * 2, "u": lib.ones(1), "o": _Slotted()}


def bytes_per_tensor(n=10_000):
    """tracemalloc bytes per ``x.detach()`` (a new tensor object sharing ``x``'s array)."""
    x = opyard.ones(1)
    keep = []
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        keep.append(x.detach())
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before - sys.getsizeof(keep)) / n



def main():
    torch = try_import_torch()
    ours = _env(opyard)
    theirs = _env(torch) if torch else None
    base = _ns("o.x", ours)
    print(f"\nTensor state reads  ({machine()})")
    print(f"  {'read':<28} {'opyard':>9} {'ratio':>7} {'torch':>9} {'ratio':>7}   (ratio: to o.x of a __slots__ object, "
          f"{base:.1f} ns)")
    for label, stmt, tstmt in READS:
        o = _ns(stmt, ours)
        if torch and tstmt:
            t = _ns(tstmt, theirs)
            tcol = f"{t:>7.1f}ns {t / base:>6.1f}x"
        else:
            tcol = f"{'':>9} {'':>7}"
        print(f"  {label:<28} {o:>7.1f}ns {o / base:>6.1f}x {tcol}")
    print(f"  memory per tensor (x.detach(), tracemalloc): {bytes_per_tensor():7.0f} bytes")
    print(f"  memory per graph node (neg chain, tracemalloc): {bytes_per_node(opyard):7.0f} bytes")
    if torch is None:
        print("  torch is not importable here: no torch column in this run")


if __name__ == "__main__":
    main()
