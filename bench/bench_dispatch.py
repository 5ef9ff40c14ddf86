"""Dispatcher call overhead: ``ops.ns.noop(x)`` vs a plain Python call vs the kernel;
packet calls that pick among overloads; the call with 10 and 10,000 other operators
registered; registering and destroying a library.

Run: ``python bench/bench_dispatch.py``. With torch importable, its figures are timed
in the same run.
"""

import sys
import os
import time
import warnings

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

    overloads(torch)
    scaling(torch)

    t0 = __import__("time").perf_counter()
    n = 2000
    reg = Library("benchreg", "DEF")
    for i in range(n):
        reg.define(f"op{i}(Tensor x, int n=1) -> Tensor")
        reg.impl(f"op{i}", kernel, "CPU")
    per_op = (__import__("time").perf_counter() - t0) / n * 1e6
    print(f"  registration (define + impl) from Python: {per_op:.2f} us per op over {n} ops")


class _Reflecting:
    """An operand only its own reflected method can add to a tensor."""

    def __radd__(self, other):
        return self


_reflecting = _Reflecting()


def overloads(torch):
    """A packet call picks its overload per argument signature (cached), and
    ``packet.<overload>`` is a cached attribute."""
    a, b = opyard.ones(1), opyard.ones(1)
    add = opyard.ops.aten.add
    add_t = add.Tensor

    def plain(x):
        return x

    rows = [("plain Python call f(x)", per_call_ns(lambda: plain(a))),
            ("opyard ops.aten.add.Tensor(a, b)", per_call_ns(lambda: add_t(a, b))),
            ("opyard ops.aten.add(a, b) (packet)", per_call_ns(lambda: add(a, b))),
            ("opyard ops.aten.add(a, 2) (packet)", per_call_ns(lambda: add(a, 2))),
            ("opyard ops.aten.add.Tensor (attribute)", per_call_ns(lambda: add.Tensor)),
            ("opyard add.Tensor.overloadpacket (cached)", per_call_ns(lambda: add_t.overloadpacket)),
            # Operator protocol: the operand's type fits no overload, so `==` falls back to identity.
            ("opyard a == None (NotImplemented)", per_call_ns(lambda: a == None)),
            ("opyard a + R() (R.__radd__ answers)", per_call_ns(lambda: a + _reflecting))]
    if torch is not None:
        ta, tb = torch.ones(1), torch.ones(1)
        tadd = torch.ops.aten.add
        tadd_t = tadd.Tensor
        rows += [("torch ops.aten.add.Tensor(a, b)", per_call_ns(lambda: tadd_t(ta, tb))),
                 ("torch ops.aten.add(a, b) (packet)", per_call_ns(lambda: tadd(ta, tb))),
                 ("torch ops.aten.add(a, 2) (packet)", per_call_ns(lambda: tadd(ta, 2))),
                 ("torch ops.aten.add.Tensor (attribute)", per_call_ns(lambda: tadd.Tensor)),
                 ("torch add.Tensor.overloadpacket", per_call_ns(lambda: tadd_t.overloadpacket)),
                 ("torch a == None (NotImplemented)", per_call_ns(lambda: ta == None)),
                 ("torch a + R() (R.__radd__ answers)", per_call_ns(lambda: ta + _reflecting))]
    report("Overload resolution: 1-element add", rows, "plain Python call f(x)")


def _many_ops(make_lib, n):
    lib = make_lib()
    for i in range(n):
        lib.define(f"op{i}(Tensor x) -> Tensor")
        lib.impl(f"op{i}", lambda x: x, "CPU")
    return lib


def _impl_and_destroy_us(make_lib, n=300):
    """Median time to open a library, override the op's CPU kernel, destroy the library."""
    samples = []
    warnings.simplefilter("ignore", UserWarning)  # the override warning, once per library
    for _ in range(n):
        t0 = time.perf_counter()
        lib = make_lib()
        lib.impl("noop", lambda x: x, "CPU")
        lib._destroy()
        samples.append(time.perf_counter() - t0)
    return sorted(samples)[n // 2] * 1e6


def scaling(torch):
    """Per-call cost and registration cost with 10 and with 10,000 other operators."""
    def plain(x):
        return x
    x = opyard.ones(1)
    rows = [("plain Python call f(x)", per_call_ns(lambda: plain(x)))]
    others, extra = [], []
    for n in (10, 10_000):
        lib = Library(f"benchscale{n}", "DEF")
        lib.define("noop(Tensor x) -> Tensor")
        lib.impl("noop", lambda x: x, "CPU")
        others.append(_many_ops(lambda n=n: Library(f"benchscaleother{n}", "DEF"), n))
        op = getattr(opyard.ops, f"benchscale{n}").noop.default
        rows.append((f"opyard ops.ns.noop.default(x), {n} other ops", per_call_ns(lambda op=op: op(x))))
        us = _impl_and_destroy_us(lambda n=n: Library(f"benchscale{n}", "IMPL"))
        extra.append(f"  opyard Library IMPL + impl + _destroy(), {n} other ops: {us:.1f} us (median)")
        others.append(lib)
    if torch is not None:
        tx = torch.ones(1)
        for n in (10, 10_000):
            tlib = torch.library.Library(f"benchscale{n}", "DEF")
            tlib.define("noop(Tensor x) -> Tensor")
            tlib.impl("noop", lambda x: x, "CPU")
            others.append(_many_ops(lambda n=n: torch.library.Library(f"benchscaleother{n}", "DEF"), n))
            top = getattr(torch.ops, f"benchscale{n}").noop.default
            rows.append((f"torch ops.ns.noop.default(x), {n} other ops", per_call_ns(lambda top=top: top(tx))))
            us = _impl_and_destroy_us(lambda n=n: torch.library.Library(f"benchscale{n}", "IMPL"))
            extra.append(f"  torch Library IMPL + impl + _destroy(), {n} other ops: {us:.1f} us (median)")
            others.append(tlib)
    report("Scaling: one call with 10 vs 10,000 other operators", rows, "plain Python call f(x)")
    print("\n".join(extra))
    for lib in reversed(others):
        lib._destroy()


def _bare_tensor():
    from opyard import _core
    from opyard.dispatcher import DispatchKey, DispatchKeySet

    t = _core.TensorBase()
    t._keyset = DispatchKeySet(DispatchKey.CPU).raw()
    return t


if __name__ == "__main__":
    main()
