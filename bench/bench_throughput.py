"""Throughput at realistic sizes: ~40 common ops on large inputs, opyard beside torch in one run.

Each row times one call on inputs made once (median of several runs, after a warm-up); torch
runs at its default thread count. The table gives milliseconds, opyard ÷ torch and, for the
elementwise rows, the bytes each call moves as a fraction of this machine's copy bandwidth
(a numpy copy of 64 MB), so rows bound by memory bandwidth show as such. The last line is the
geometric mean of opyard ÷ torch.

    python bench/bench_throughput.py [--filter 'softmax|sum f32'] [--quick] [--threads 1] [--cpu]

``--cpu`` times the process's CPU time (all threads) and keeps the best run instead of the wall
median: on a loaded machine a library's threads waiting for a core do not count, so the figures
stay comparable (with ``--threads 1`` it is each call's own work).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import opyard
from _harness import machine

M1, M16 = 1 << 20, 1 << 24


# Warm-up before a row is timed. This host runs a short call 1.5-2 times slower for the first
# few hundred milliseconds after the process was idle (a 1M-element add: ~280 us, ~180 us after
# 0.2 s of calls, on one thread), so a row timed right after an idle stretch or after the other
# library's row is not comparable; every row is therefore timed after this much of its own calls.
WARM_S = 0.25


def timed_ms(fn, *, min_runs=5, budget_s=1.0, cpu=False):
    """Median wall milliseconds of ``fn()`` after ``WARM_S`` of warm-up calls (``cpu``: the least
    CPU time)."""
    warm_end = time.perf_counter() + WARM_S
    fn()
    while time.perf_counter() < warm_end:
        fn()
    clock = time.process_time if cpu else time.perf_counter
    times = []
    t_end = time.perf_counter() + budget_s
    while len(times) < min_runs or (time.perf_counter() < t_end and len(times) < 50):
        t0 = clock()
        fn()
        times.append((clock() - t0) * 1e3)
    return min(times) if cpu else statistics.median(times)


def copy_bandwidth_gbs():
    """Bytes per second of a numpy copy of 64 MB (read + write), the machine's memory ceiling."""
    src = np.ones(M16, dtype=np.float32)
    dst = np.empty_like(src)
    ms = timed_ms(lambda: np.copyto(dst, src), min_runs=10)
    return 2 * src.nbytes / (ms / 1e3) / 1e9


class Lib:
    """The few constructors the rows need, for opyard and torch alike."""

    def __init__(self, mod, name):
        self.m = mod
        self.name = name

    def dtype(self, name):
        return getattr(self.m, name)

    def rand(self, shape, dtype="float32", lo=-1.0, hi=1.0, seed=0):
        arr = np.random.default_rng(seed).uniform(lo, hi, size=shape)
        if dtype == "int64":
            arr = np.round(arr * 1000)
        t = self.m.from_numpy(np.ascontiguousarray(arr.astype(np.float64)))
        return t.to(self.dtype(dtype))

    def index(self, n, high, seed=1):
        return self.m.from_numpy(np.random.default_rng(seed).integers(0, high, size=n).astype(np.int64))


def rows(L: Lib):
    """(label, bytes moved or None, make) where make() returns the call to time."""
    m = L.m
    F = m.nn.functional
    out = []

    def row(label, nbytes, make):
        out.append((label, nbytes, make))

    for n, tag in ((M1, "1M"), (M16, "16M")):
        row(f"add f32 {tag}", 12 * n, lambda n=n: (lambda a=L.rand(n), b=L.rand(n, seed=1): a + b))
        row(f"mul f32 {tag}", 12 * n, lambda n=n: (lambda a=L.rand(n), b=L.rand(n, seed=1): a * b))
        row(f"exp f32 {tag}", 8 * n, lambda n=n: (lambda a=L.rand(n): m.exp(a)))
        row(f"sigmoid f32 {tag}", 8 * n, lambda n=n: (lambda a=L.rand(n): m.sigmoid(a)))
        row(f"add_ f32 {tag} (in place)", 12 * n, lambda n=n: (lambda a=L.rand(n), b=L.rand(n, seed=1): a.add_(b)))
    row("add f64 16M", 24 * M16, lambda: (lambda a=L.rand(M16, "float64"), b=L.rand(M16, "float64", seed=1): a + b))
    row("add i64 16M", 24 * M16, lambda: (lambda a=L.rand(M16, "int64"), b=L.rand(M16, "int64", seed=1): a + b))
    row("add bf16 16M", 6 * M16, lambda: (lambda a=L.rand(M16, "bfloat16"), b=L.rand(M16, "bfloat16", seed=1): a + b))
    row("exp bf16 1M", 4 * M1, lambda: (lambda a=L.rand(M1, "bfloat16"): m.exp(a)))
    row("sin f64 1M", 16 * M1, lambda: (lambda a=L.rand(M1, "float64"): m.sin(a)))
    row("sqrt f32 16M", 8 * M16, lambda: (lambda a=L.rand(M16, lo=0.0): m.sqrt(a)))
    row("clamp f32 16M", 8 * M16, lambda: (lambda a=L.rand(M16): m.clamp(a, -0.5, 0.5)))
    row("where f32 16M", 13 * M16, lambda: (lambda c=L.rand(M16) > 0, a=L.rand(M16), b=L.rand(M16, seed=1):
                                            m.where(c, a, b)))
    row("addcmul f32 1M", 16 * M1, lambda: (lambda a=L.rand(M1), b=L.rand(M1, seed=1), c=L.rand(M1, seed=2):
                                            m.addcmul(a, b, c, value=0.5)))

    sq = (4096, 4096)
    row("sum f32 16M", 4 * M16, lambda: (lambda a=L.rand(M16): a.sum()))
    row("sum f32 4096² dim=0", 4 * M16, lambda: (lambda a=L.rand(sq): a.sum(0)))
    row("sum f32 4096² dim=1", 4 * M16, lambda: (lambda a=L.rand(sq): a.sum(1)))
    row("mean f64 16M", 8 * M16, lambda: (lambda a=L.rand(M16, "float64"): a.mean()))
    row("sum bf16 16M", 2 * M16, lambda: (lambda a=L.rand(M16, "bfloat16"): a.sum()))
    row("sum f16 16M", 2 * M16, lambda: (lambda a=L.rand(M16, "float16"): a.sum()))
    row("mean bf16 16M", 2 * M16, lambda: (lambda a=L.rand(M16, "bfloat16"): a.mean()))
    row("sum bf16 4096² dim=1", 2 * M16, lambda: (lambda a=L.rand(sq, "bfloat16"): a.sum(1)))
    row("amax f32 4096² dim=1", 4 * M16, lambda: (lambda a=L.rand(sq): a.amax(1)))
    row("var f32 4096² dim=1", 4 * M16, lambda: (lambda a=L.rand(sq): a.var(1)))
    row("argmax f32 16M", 4 * M16, lambda: (lambda a=L.rand(M16): a.argmax()))

    act = (4096, 1024)
    row("softmax f32 4096×1024", None, lambda: (lambda a=L.rand(act): m.softmax(a, -1)))
    row("log_softmax f32 4096×1024", None, lambda: (lambda a=L.rand(act): m.log_softmax(a, -1)))
    row("layer_norm f32 4096×1024", None, lambda: (
        lambda a=L.rand(act), w=L.rand(1024), b=L.rand(1024, seed=1): F.layer_norm(a, (1024,), w, b)))
    row("layer_norm f32 4096×1024 fwd+bwd", None, lambda: _layer_norm_step(L))
    row("rms_norm f32 4096×1024", None, lambda: (lambda a=L.rand(act), w=L.rand(1024): F.rms_norm(a, (1024,), w)))
    row("gelu f32 4096×1024", 8 * 4096 * 1024, lambda: (lambda a=L.rand(act): F.gelu(a)))
    row("silu f32 4096×1024", 8 * 4096 * 1024, lambda: (lambda a=L.rand(act): F.silu(a)))

    row("cumsum f32 1M", None, lambda: (lambda a=L.rand(M1): m.cumsum(a, 0)))
    row("sort f32 1M", None, lambda: (lambda a=L.rand(M1): m.sort(a)))
    row("topk f32 1M k=100", None, lambda: (lambda a=L.rand(M1): m.topk(a, 100)))

    tab = (1 << 16, 64)
    row("index_select 64k×64 f32, 256k rows", None, lambda: (
        lambda a=L.rand(tab), i=L.index(1 << 18, 1 << 16): m.index_select(a, 0, i)))
    row("gather f32 4096×1024 dim=1", None, lambda: (
        lambda a=L.rand(act), i=L.index(4096 * 1024, 1024).reshape(act): m.gather(a, 1, i)))
    row("scatter_add f32 4096×1024 dim=1", None, lambda: (
        lambda a=L.rand(act), i=L.index(4096 * 1024, 1024).reshape(act), s=L.rand(act, seed=3):
        a.scatter_add(1, i, s)))
    row("scatter f32 4096×1024 dim=1", None, lambda: (
        lambda a=L.rand(act), i=L.index(4096 * 1024, 1024).reshape(act), s=L.rand(act, seed=3):
        a.scatter(1, i, s)))
    row("scatter.value f32 4096×1024 dim=1", None, lambda: (
        lambda a=L.rand(act), i=L.index(4096 * 1024, 1024).reshape(act): a.scatter(1, i, 2.0)))
    row("index_put f32 1M, 256k indices", None, lambda: (
        lambda a=L.rand(M1), i=L.index(1 << 18, M1), v=L.rand(1 << 18, seed=3): a.index_put((i,), v)))
    row("cat 8 × 1M f32", 8 * 8 * M1, lambda: (lambda ts=[L.rand(M1, seed=k) for k in range(8)]: m.cat(ts)))
    row("stack 8 × 1M f32", 8 * 8 * M1, lambda: (lambda ts=[L.rand(M1, seed=k) for k in range(8)]: m.stack(ts)))

    for n in (512, 1024, 2048):
        row(f"matmul f32 {n}²", None, lambda n=n: (lambda a=L.rand((n, n)), b=L.rand((n, n), seed=1): a @ b))
    row("bmm f32 64×256×256", None, lambda: (lambda a=L.rand((64, 256, 256)), b=L.rand((64, 256, 256), seed=1):
                                             m.bmm(a, b)))
    row("addmm f32 1024²", None, lambda: (lambda c=L.rand(1024), a=L.rand((1024, 1024)), b=L.rand((1024, 1024), seed=1):
                                          m.addmm(c, a, b)))
    if hasattr(F, "conv2d"):
        row("conv2d 32×64×56×56, 64 3×3", None, lambda: (
            lambda x=L.rand((32, 64, 56, 56)), w=L.rand((64, 64, 3, 3), seed=1): F.conv2d(x, w, padding=1)))
    if hasattr(F, "max_pool2d"):
        row("max_pool2d 32×64×112×112, 3×3/2", None, lambda: (
            lambda x=L.rand((32, 64, 112, 112)): F.max_pool2d(x, 3, 2, 1)))
    row("MLP 784-512-256-10 fwd+bwd, batch 256", None, lambda: _mlp_step(L))
    return out


def _layer_norm_step(L):
    """layer_norm over the rows of 4096×1024 with weight and bias, then the gradients of all three."""
    F = L.m.nn.functional
    x = L.rand((4096, 1024)).requires_grad_()
    w, b = L.rand(1024, seed=1).requires_grad_(), L.rand(1024, seed=2).requires_grad_()
    g = L.rand((4096, 1024), seed=3)

    def step():
        F.layer_norm(x, (1024,), w, b).backward(g)
        x.grad = w.grad = b.grad = None
    return step


def _mlp_step(L):
    m = L.m
    F = m.nn.functional
    x = L.rand((256, 784))
    target = L.rand((256, 10), seed=9)
    ws = [L.rand(shape, seed=k).mul(0.05).requires_grad_() for k, shape in
          enumerate(((512, 784), (256, 512), (10, 256)))]
    bs = [L.rand(n, seed=10 + k).mul(0.05).requires_grad_() for k, n in enumerate((512, 256, 10))]

    def step():
        h = x
        for k, (w, b) in enumerate(zip(ws, bs)):
            h = F.linear(h, w, b)
            if k < 2:
                h = F.relu(h)
        loss = ((h - target) ** 2).mean()
        loss.backward()
        for p in ws + bs:
            p.grad = None
        return loss
    return step


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--filter", default="", help="a regular expression the row labels must match")
    p.add_argument("--quick", action="store_true", help="fewer runs per row")
    p.add_argument("--cpu", action="store_true", help="best CPU time instead of the wall median")
    p.add_argument("--threads", type=int, default=0,
                   help="intra-op threads of both libraries (default: each library's own default)")
    args = p.parse_args(argv)
    budget = 0.3 if args.quick else 1.0
    try:
        import torch
    except ImportError:
        torch = None
    libs = [Lib(opyard, "opyard")]
    if torch is not None:
        libs.append(Lib(torch, "torch"))
    if args.threads:
        for lib in libs:
            if hasattr(lib.m, "set_num_threads"):
                lib.m.set_num_threads(args.threads)
    bw = copy_bandwidth_gbs()
    threads = f", torch {torch.__version__} at {torch.get_num_threads()} threads" if torch else ""
    opy_threads = opyard.get_num_threads() if hasattr(opyard, "get_num_threads") else 1
    clock = "best CPU time" if args.cpu else "wall median"
    print(f"Throughput ({machine()}; copy bandwidth {bw:.1f} GB/s; opyard at {opy_threads} threads{threads}; "
          f"{clock}; load average {os.getloadavg()[0]:.1f})")
    print(f"  {'row':<40} {'opyard ms':>10} {'torch ms':>10} {'ratio':>7} {'of bw':>6}")
    ratios = []
    table = {lib.name: rows(lib) for lib in libs}
    for k, (label, nbytes, _) in enumerate(table["opyard"]):
        if not re.search(args.filter, label):
            continue
        res = {}
        for lib in libs:
            try:
                res[lib.name] = timed_ms(table[lib.name][k][2](), budget_s=budget, cpu=args.cpu)
            except Exception as exc:  # noqa: BLE001 - a row opyard cannot run yet is reported, not fatal
                res[lib.name] = None
                err = f"{type(exc).__name__}: {str(exc)[:60]}"
                print(f"  {label:<40} {lib.name} failed: {err}")
        o, t = res.get("opyard"), res.get("torch")
        ratio = o / t if o and t else None
        if ratio:
            ratios.append(ratio)
        frac = f"{nbytes / (o / 1e3) / 1e9 / bw:6.2f}" if nbytes and o else "      "
        print(f"  {label:<40} {o if o else float('nan'):>10.3f} {t if t else float('nan'):>10.3f} "
              f"{ratio if ratio else float('nan'):>7.2f} {frac}", flush=True)
    if ratios:
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print(f"  geometric mean opyard ÷ torch over {len(ratios)} rows: {gm:.2f}; "
              f"worst {max(ratios):.2f}")


if __name__ == "__main__":
    main()
