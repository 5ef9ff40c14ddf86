"""custom_op call overhead, backward through register_autograd, FakeTensorMode, registration."""

import itertools
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _harness import per_call_ns, report  # noqa: E402

import opyard  # noqa: E402
from opyard import Tensor  # noqa: E402
from opyard.library import Library, custom_op  # noqa: E402


def main():
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

    clone_op.register_autograd(lambda ctx, g: g)
    xr = opyard.randn(3, requires_grad=True)
    rows = [("op(xr).sum().backward()", per_call_ns(lambda: clone_op(xr).sum().backward(), repeat=9))]
    report("custom_op with register_autograd", rows, "op(xr).sum().backward()")

    clone_op.register_fake(lambda x: opyard.empty_like(x))
    with opyard.fake.FakeTensorMode():
        fa, fb = opyard.randn(3), opyard.randn(3)
        rows = [("fake add", per_call_ns(lambda: fa + fb)), ("fake custom op", per_call_ns(lambda: clone_op(fa)))]
    report("One op under FakeTensorMode", rows, "fake add")

    counter = itertools.count()
    n = 300
    t0 = time.perf_counter()
    for _ in range(n):
        i = next(counter)

        def f(x: Tensor) -> Tensor:
            return x

        custom_op(f"benchreg::op{i}", f, mutates_args=())
    print(f"  custom_op registration: {(time.perf_counter() - t0) / n * 1e6:.1f} us per op over {n} ops")


if __name__ == "__main__":
    main()
