"""Dispatcher call overhead: ``ops.ns.noop(x)`` vs a plain Python call vs the kernel.

Run: ``python bench/bench_dispatch.py``. With torch importable, its Library
op and custom_op are timed in the same run.
"""

import sys
import os

sys.path.insert(0, os.path.dirname(__file__))
from _harness import per_call_ns, report, try_import_torch  # noqa: E402

import opyard  # noqa: E402
from opyard.library import Library  # noqa: E402


def main():
    lib = Library("benchdispatch", "DEF")
    lib.define("noop(Tensor x) -> Tensor")

    def kernel(x):
        return x

    lib.impl("noop", kernel, "CPU")
    x = opyard.zeros(1) if hasattr(opyard, "zeros") else _bare_tensor()
    op = opyard.ops.benchdispatch.noop.default
    packet = opyard.ops.benchdispatch.noop

    def plain(x):
        return x

    rows = [
        ("plain Python call f(x)", per_call_ns(lambda: plain(x))),
        ("kernel called directly", per_call_ns(lambda: kernel(x))),
        ("opyard ops.ns.noop.default(x)", per_call_ns(lambda: op(x))),
        ("opyard ops.ns.noop(x) (packet)", per_call_ns(lambda: packet(x))),
        ("opyard ops.benchdispatch.noop(x) (attribute chain)",
         per_call_ns(lambda: opyard.ops.benchdispatch.noop(x))),
    ]
    torch = try_import_torch()
    if torch is not None:
        tlib = torch.library.Library("benchdispatch", "DEF")
        tlib.define("noop(Tensor x) -> Tensor")
        tlib.impl("noop", kernel, "CPU")
        tx = torch.zeros(1)
        top = torch.ops.benchdispatch.noop.default
        rows.append(("torch Library op .default(x)", per_call_ns(lambda: top(tx))))

        @torch.library.custom_op("benchdispatch::cnoop", mutates_args=())
        def cnoop(x: torch.Tensor) -> torch.Tensor:
            return x.clone()

        rows.append(("torch custom_op(x) (kernel clones)", per_call_ns(lambda: cnoop(tx))))
    report("Dispatch: one-tensor no-op", rows, "plain Python call f(x)")

    t0 = __import__("time").perf_counter()
    n = 2000
    reg = Library("benchreg", "DEF")
    for i in range(n):
        reg.define(f"op{i}(Tensor x, int n=1) -> Tensor")
        reg.impl(f"op{i}", kernel, "CPU")
    per_op = (__import__("time").perf_counter() - t0) / n * 1e6
    print(f"  registration (define + impl) from Python: {per_op:.2f} us per op over {n} ops")


def _bare_tensor():
    from opyard import _core
    from opyard.dispatcher import DispatchKey, DispatchKeySet

    t = _core.TensorBase()
    t._keyset = DispatchKeySet(DispatchKey.CPU).raw()
    return t


if __name__ == "__main__":
    main()
