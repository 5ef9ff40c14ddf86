"""Autograd overhead: ``Function.apply``, ``apply(x).sum().backward()``, a 2-layer MLP step.

Run: ``python bench/bench_autograd.py`` (``--cpu``: CPU time, best of 9 runs, which other
processes on a shared machine disturb less than the wall-time medians). Baselines in the same run: a plain
Python call of the Function's ``forward`` (so the ``apply`` row's excess is the
autograd overhead), and torch's equivalents when torch is importable.
"""

import gc
import os
import sys
import time
import tracemalloc

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, try_import_torch  # noqa: E402
from _harness import per_call_ns as _wall_ns  # noqa: E402

import opyard  # noqa: E402
from opyard.autograd import Function  # noqa: E402


class Scale(Function):
    @staticmethod
    def forward(ctx, x):
        return x.detach()

    @staticmethod
    def backward(ctx, g):
        return g


class Saving(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.detach()

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g


class Pair(Function):
    @staticmethod
    def forward(ctx, x):
        return x.detach(), x.detach()

    @staticmethod
    def backward(ctx, g0, g1):
        return g0


def _cpu_ns(fn, repeat=9, target_s=0.02):
    """Best CPU time per call of ``fn()`` over ``repeat`` runs (nanoseconds)."""
    number = 1
    while True:
        t0 = time.process_time()
        for _ in range(number):
            fn()
        if time.process_time() - t0 > target_s / 4:
            break
        number *= 4
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(number):
            fn()
        best = min(best, (time.process_time() - t0) / number)
    return best * 1e9


def per_call_ns(fn):
    return _cpu_ns(fn) if "--cpu" in sys.argv else _wall_ns(fn)


def _mlp(lib, x, w1, w2):
    h = lib.relu(x.mm(w1))
    return h.mm(w2).sum()


def opyard_rows():
    x = opyard.randn(4, 4, requires_grad=True)
    xn = opyard.randn(4, 4)
    w1 = opyard.randn(8, 16, requires_grad=True)
    w2 = opyard.randn(16, 4, requires_grad=True)
    xb = opyard.randn(32, 8)

    def mlp_step():
        _mlp(opyard, xb, w1, w2).backward()

    def plain(ctx, v):
        return Scale.forward(ctx, v)

    # The baseline runs forward as apply does: under no_grad (else x.detach() itself
    # would go through the autograd kernel of aten::detach).
    with opyard.no_grad():
        baseline = per_call_ns(lambda: plain(None, x))
    return [
        ("plain Python call of forward(ctx, x), no_grad", baseline),
        ("Function.apply(x), x without grad", per_call_ns(lambda: Scale.apply(xn))),
        ("Function.apply(x), x requires grad", per_call_ns(lambda: Scale.apply(x))),
        ("... with ctx.save_for_backward(x)", per_call_ns(lambda: Saving.apply(x))),
        ("... returning a tuple of 2 outputs", per_call_ns(lambda: Pair.apply(x))),
        ("apply(x).sum().backward()", per_call_ns(lambda: Scale.apply(x).sum().backward())),
        ("2-layer MLP (32x8 -> 16 -> 4) forward+backward", per_call_ns(mlp_step)),
    ]


def torch_rows(torch):
    class TScale(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.detach()

        @staticmethod
        def backward(ctx, g):
            return g

    class TSaving(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.detach()

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return g

    class TPair(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.detach(), x.detach()

        @staticmethod
        def backward(ctx, g0, g1):
            return g0

    x = torch.randn(4, 4, requires_grad=True)
    w1 = torch.randn(8, 16, requires_grad=True)
    w2 = torch.randn(16, 4, requires_grad=True)
    xb = torch.randn(32, 8)
    return [
        ("torch Function.apply(x), x requires grad", per_call_ns(lambda: TScale.apply(x))),
        ("torch ... with ctx.save_for_backward(x)", per_call_ns(lambda: TSaving.apply(x))),
        ("torch ... returning a tuple of 2 outputs", per_call_ns(lambda: TPair.apply(x))),
        ("torch apply(x).sum().backward()", per_call_ns(lambda: TScale.apply(x).sum().backward())),
        ("torch 2-layer MLP forward+backward",
         per_call_ns(lambda: _mlp(torch, xb, w1, w2).backward())),
    ]


def bytes_per_node(n=10_000):
    """Bytes tracemalloc attributes to a chain of ``n`` ``neg`` nodes, per node."""
    x = opyard.ones(1, requires_grad=True)
    y = x.neg()
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for _ in range(n):
        y = y.neg()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / n


def main():
    rows = opyard_rows()
    torch = try_import_torch()
    if torch is not None:
        rows += torch_rows(torch)
    base = rows[0][1]
    clock = "CPU time, best of 9" if "--cpu" in sys.argv else "wall time, medians"
    print(f"\nAutograd, {clock}  ({machine()})")
    for label, ns in rows:
        print(f"  {label:<50} {ns / 1000:>9.2f} us   {ns / base:>7.2f}x plain call")
    overhead = rows[2][1] - rows[0][1]
    print(f"  Function.apply overhead with grad (apply - plain call): {overhead / 1000:.2f} us")
    print(f"  memory per graph node (chain of neg, tracemalloc): {bytes_per_node():.0f} bytes "
          "(torch's nodes live on the C++ heap, which tracemalloc does not see)")
    if torch is None:
        print("  torch is not importable here: no torch rows in this run")


if __name__ == "__main__":
    main()
