"""View and indexing ops on a 2x2 float32 tensor, without and with grad, beside torch (one run).

Rows: the shape views (``view``, ``reshape``, ``t``, ``transpose``, ``permute``, ``unsqueeze``,
``squeeze``, ``select``, ``narrow``, ``expand``) and basic indexing (``x[0]``, ``x[1:]``,
``x[:, 0]``), which run the Rust CPU kernels (``src/python/kernels_py/view_shape.rs``); then the
same on a leaf that requires grad, recorded by the Rust Autograd kernel with the view's replay
(``src/python/autograd/view_replay.rs``), and ``h.add_(x)`` on a non-leaf requiring grad (the in-place
path of that kernel; ``h`` is made afresh every 4,096 calls so its history stays short, in both
libraries). ``xplain`` is the ratio to a plain Python call (``def f(): pass``) in the same run.

Each row is the median of short samples taken round-robin (plain call, opyard, torch), and the
median of three passes. Run: ``PYTHONPATH=python python bench/bench_views.py``.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, try_import_torch  # noqa: E402

import opyard  # noqa: E402


def _plain():
    pass


def _inplace(lib, xr, x):
    state = [xr * 1, 0]

    def call():
        s = state
        s[1] += 1
        if not s[1] & 4095:
            s[0] = xr * 1
        s[0].add_(x)
    return call


def _cases(lib):
    x = lib.ones(2, 2)
    xr = lib.ones(2, 2, requires_grad=True)
    rows = [
        ("x.view(-1)", lambda: x.view(-1)), ("x.reshape(4)", lambda: x.reshape(4)),
        ("x.t()", lambda: x.t()), ("x.transpose(0, 1)", lambda: x.transpose(0, 1)),
        ("x.permute(1, 0)", lambda: x.permute(1, 0)), ("x.unsqueeze(0)", lambda: x.unsqueeze(0)),
        ("x.squeeze()", lambda: x.squeeze()), ("x.select(0, 1)", lambda: x.select(0, 1)),
        ("x.narrow(0, 0, 1)", lambda: x.narrow(0, 0, 1)), ("x.expand(2, 2, 2)", lambda: x.expand(2, 2, 2)),
        ("x[0]", lambda: x[0]), ("x[1:]", lambda: x[1:]), ("x[:, 0]", lambda: x[:, 0]),
        ("xr.view(-1) (grad)", lambda: xr.view(-1)), ("xr.t() (grad)", lambda: xr.t()),
        ("xr[0] (grad)", lambda: xr[0]), ("xr[:, 0] (grad)", lambda: xr[:, 0]),
        ("xr.unsqueeze(0) (grad)", lambda: xr.unsqueeze(0)),
        ("xr.expand(2, 2, 2) (grad)", lambda: xr.expand(2, 2, 2)),
        ("h.add_(x) (grad, non-leaf h)", _inplace(lib, xr, x)),
        ("xr.sum() (grad, for reference)", lambda: xr.sum()),
    ]
    return rows


def _sample(fn, number):
    t0 = time.perf_counter_ns()
    for _ in range(number):
        fn()
    return (time.perf_counter_ns() - t0) / number


def _pass(ours, theirs, number=2000, rounds=15):
    out = []
    for i, (label, fn) in enumerate(ours):
        plain, mine, torch_ns = [], [], []
        for _ in range(rounds):
            plain.append(_sample(_plain, number))
            mine.append(_sample(fn, number))
            if theirs is not None:
                torch_ns.append(_sample(theirs[i][1], number))
        out.append((label, statistics.median(plain), statistics.median(mine),
                    statistics.median(torch_ns) if torch_ns else None))
    return out


def main():
    torch = try_import_torch()
    ours = _cases(opyard)
    theirs = _cases(torch) if torch is not None else None
    passes = [_pass(ours, theirs) for _ in range(3)]
    print(f"Views and indexing, 2x2 float32  ({machine()})")
    head = f"  {'':<32} {'opyard ns':>10} {'xplain':>7}"
    print(head + (f" {'torch ns':>10} {'xplain':>7} {'torch/opyard':>12}" if torch else ""))
    for k, (label, *_rest) in enumerate(passes[0]):
        plain = statistics.median(p[k][1] for p in passes)
        mine = statistics.median(p[k][2] for p in passes)
        line = f"  {label:<32} {mine:>10.0f} {mine / plain:>7.1f}"
        if torch is not None:
            t = statistics.median(p[k][3] for p in passes)
            line += f" {t:>10.0f} {t / plain:>7.1f} {t / mine:>12.2f}"
        print(line)


if __name__ == "__main__":
    main()
