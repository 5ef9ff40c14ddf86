"""The fake-tensor path: one op under FakeTensorMode, beside torch's FakeTensorMode.

Rows: a built-in op served by the metadata cache (through the packet, the overload,
with a scalar, with an int list), and a custom op whose fake impl runs on every call.
Medians of repeated runs in one process, as ratios to a plain Python call from the same
run; torch's figures from the same run when torch is importable. Time is this thread's CPU
time (``time.thread_time_ns``), not wall time: on a shared machine wall-clock medians of
sub-microsecond calls moved by 3x between identical runs, CPU time by a few percent.
"""

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
import opyard
from _harness import report, try_import_torch
from opyard import Tensor
from opyard.library import custom_op

PLAIN = "plain Python call f()"
FAKE_ADD = "fake a + b (cached metadata)"
FAKE_CUSTOM = "fake custom op (fake impl: empty_like)"


def _plain():
    return None


def per_call_ns(fn, *, repeat=15, target_s=0.02):
    """Median CPU nanoseconds of this thread per call of ``fn()`` (``_harness.per_call_ns``'s
    scheme on ``time.thread_time_ns``)."""
    clock = time.thread_time_ns
    number = 1
    while True:
        t0 = clock()
        for _ in range(number):
            fn()
        if clock() - t0 > target_s * 1e9 / 4:
            break
        number *= 4
    samples = []
    for _ in range(repeat):
        t0 = clock()
        for _ in range(number):
            fn()
        samples.append((clock() - t0) / number)
    return statistics.median(samples)


def bench_opyard():
    @custom_op("benchfake::clone_op", mutates_args=())
    def clone_op(x: Tensor) -> Tensor:
        return x.clone()

    clone_op.register_fake(lambda x: opyard.empty_like(x))
    overload = opyard.ops.benchfake.clone_op.default
    add = opyard.ops.aten.add.Tensor
    with opyard.fake.FakeTensorMode():
        a, b = opyard.randn(3), opyard.randn(3)
        m = opyard.randn(4, 5)
        rows = [(PLAIN, per_call_ns(_plain)),
                (FAKE_ADD, per_call_ns(lambda: a + b)),
                ("fake aten.add.Tensor(a, b) (the overload)", per_call_ns(lambda: add(a, b))),
                ("fake a * 2.0 (scalar argument)", per_call_ns(lambda: a * 2.0)),
                ("fake m.sum([0]) (int-list argument)", per_call_ns(lambda: m.sum([0]))),
                ("fake opyard.empty_like(a)", per_call_ns(lambda: opyard.empty_like(a))),
                (FAKE_CUSTOM, per_call_ns(lambda: clone_op(a))),
                ("fake ops.benchfake.clone_op.default(a)", per_call_ns(lambda: overload(a)))]
    report("One op under FakeTensorMode", rows, PLAIN)
    return dict(rows)


def bench_torch(torch):
    from torch._subclasses.fake_tensor import FakeTensorMode

    @torch.library.custom_op("benchfake::clone_op", mutates_args=())
    def clone_op(x: torch.Tensor) -> torch.Tensor:
        return x.clone()

    clone_op.register_fake(lambda x: torch.empty_like(x))
    with FakeTensorMode():
        a, b = torch.randn(3), torch.randn(3)
        m = torch.randn(4, 5)
        rows = [(PLAIN, per_call_ns(_plain)),
                (FAKE_ADD, per_call_ns(lambda: a + b, repeat=7)),
                ("fake a * 2.0 (scalar argument)", per_call_ns(lambda: a * 2.0, repeat=7)),
                ("fake m.sum([0]) (int-list argument)", per_call_ns(lambda: m.sum([0]), repeat=7)),
                (FAKE_CUSTOM, per_call_ns(lambda: clone_op(a), repeat=7))]
    report("torch FakeTensorMode", rows, PLAIN)
    return dict(rows)


def main():
    ours = bench_opyard()
    torch = try_import_torch()
    if torch is None:
        print("\ntorch is not installed: only opyard's figures")
        return
    theirs = bench_torch(torch)
    print()
    for row in (FAKE_ADD, FAKE_CUSTOM):
        print(f"  {row}: opyard {ours[row] / 1e3:.2f} us ({ours[row] / ours[PLAIN]:.1f}x plain), "
              f"torch {theirs[row] / 1e3:.2f} us ({theirs[row] / theirs[PLAIN]:.0f}x plain), "
              f"torch / opyard = {theirs[row] / ours[row]:.0f}x")


if __name__ == "__main__":
    main()
