"""custom_op call overhead, backward through register_autograd, registration (fake: bench_fake.py).

Medians of repeated runs in one process; torch's figures when torch is importable.
"""

import itertools
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, per_call_ns, report, try_import_torch  # noqa: E402

import opyard  # noqa: E402
from opyard import Tensor  # noqa: E402
from opyard.library import Library, custom_op  # noqa: E402



def _registration_us(make, n=300):
    samples = []
    for i in range(n):
        t0 = time.perf_counter()
        make(i)
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples) * 1e6


def bench_opyard():
    def kernel(x):
        return x.clone()

    @custom_op("benchco::clone_op", mutates_args=())
    def clone_op(x: Tensor) -> Tensor:
        return x.clone()

    lib = Library("benchco", "FRAGMENT")
    lib.define("lib_clone(Tensor x) -> Tensor")
    lib.impl("lib_clone", kernel, "CPU")
    lib_op = opyard.ops.benchco.lib_clone.default
    x = opyard.randn(3)
    rows = [("plain call kernel(x) (x.clone())", per_call_ns(lambda: kernel(x))),
            ("Library op(x)", per_call_ns(lambda: lib_op(x))),
            ("custom_op(x)", per_call_ns(lambda: clone_op(x)))]
    report("custom_op call, no grad", rows, "plain call kernel(x) (x.clone())")

    # The call path alone: a kernel that does no work (returns a tensor made once, which
    # aliases no input), so the ratio is the custom op's overhead over a Python call.
    y = opyard.randn(3)

    def give(x):
        return y

    @custom_op("benchco::give", mutates_args=())
    def give_op(x: Tensor) -> Tensor:
        return y
    rows = [("plain call kernel(x) (returns a made tensor)", per_call_ns(lambda: give(x))),
            ("custom_op(x), same kernel", per_call_ns(lambda: give_op(x)))]
    report("custom_op call overhead, trivial kernel", rows, "plain call kernel(x) (returns a made tensor)")

    clone_op.register_autograd(lambda ctx, g: g)
    xr = opyard.randn(3, requires_grad=True)
    rows = [("xr.clone().sum().backward() (built-in clone)", per_call_ns(lambda: xr.clone().sum().backward(), repeat=9)),
            ("op(xr).sum().backward()", per_call_ns(lambda: clone_op(xr).sum().backward(), repeat=9))]
    report("custom_op with register_autograd", rows, "xr.clone().sum().backward() (built-in clone)")
    backward_ns = rows[1][1]

    # The FakeTensorMode rows are in bench_fake.py.
    def f(x: Tensor) -> Tensor:
        return x.clone()
    counter = itertools.count()
    us = _registration_us(lambda i: custom_op(f"benchcoreg::op{next(counter)}", f, mutates_args=()))
    print(f"\ncustom_op registration  ({machine()})\n  custom_op(name, f, mutates_args=()): {us:.1f} us (median of 300)")
    return backward_ns


def bench_torch(torch):
    from torch import Tensor as TT

    @torch.library.custom_op("benchco::clone_op", mutates_args=())
    def clone_op(x: TT) -> TT:
        return x.clone()
    clone_op.register_autograd(lambda ctx, g: g)
    x = torch.randn(3)
    xr = torch.randn(3, requires_grad=True)
    ty = torch.randn(3)

    @torch.library.custom_op("benchco::give", mutates_args=())
    def give_op(x: TT) -> TT:
        return ty

    def give(x):
        return ty
    rows = [("torch plain call kernel(x) (returns a made tensor)", per_call_ns(lambda: give(x))),
            ("torch custom_op(x), same kernel", per_call_ns(lambda: give_op(x)))]
    report("torch custom_op call overhead, trivial kernel", rows,
           "torch plain call kernel(x) (returns a made tensor)")
    rows = [("torch plain x.clone()", per_call_ns(lambda: x.clone())),
            ("torch custom_op(x)", per_call_ns(lambda: clone_op(x))),
            ("torch op(xr).sum().backward()", per_call_ns(lambda: clone_op(xr).sum().backward(), repeat=9))]
    report("torch", rows, "torch plain x.clone()")
    return rows[2][1]


def main():
    backward_ns = bench_opyard()
    torch = try_import_torch()
    if torch is None:
        print("\ntorch is not installed: only opyard's figures")
    else:
        torch_ns = bench_torch(torch)
        print(f"  op(xr).sum().backward(): opyard {backward_ns / 1e3:.1f} us, torch {torch_ns / 1e3:.1f} us "
              f"({torch_ns / backward_ns:.2f}x)")


if __name__ == "__main__":
    main()
