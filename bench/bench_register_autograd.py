"""The Autograd kernel that register_autograd installs: forward and forward+backward per call shape.

Run: ``python bench/bench_register_autograd.py``. CPU time (``time.process_time``), best of
11 runs, so that other processes on a shared machine disturb the figures less than
wall time would. Rows: positional tensors only (no metadata input), the same with a
``setup_context`` that saves the input, trailing defaulted arguments (not passed), a
kwarg-only argument (metadata input), a Tensor[] input.
"""

import os
import sys
import time
from typing import List, Optional

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, try_import_torch  # noqa: E402

import opyard  # noqa: E402
from opyard import Tensor  # noqa: E402
from opyard.library import custom_op  # noqa: E402


def cpu_us(fn, n=20000, repeat=11):
    best = float("inf")
    for _ in range(repeat):
        t0 = time.process_time()
        for _ in range(n):
            fn()
        best = min(best, (time.process_time() - t0) / n)
    return best * 1e6


def main():
    @custom_op("benchrag::plain", mutates_args=())
    def plain(x: Tensor) -> Tensor:
        return x.clone()
    plain.register_autograd(lambda ctx, g: g)

    @custom_op("benchrag::withctx", mutates_args=())
    def withctx(x: Tensor) -> Tensor:
        return x.clone()
    withctx.register_autograd(_saving_backward, setup_context=_save_inputs)

    @custom_op("benchrag::defaults", mutates_args=())
    def defaults(x: Tensor, s: float = 1.0, b: Optional[Tensor] = None, n: int = 3) -> Tensor:
        return x.clone()
    defaults.register_autograd(lambda ctx, g: (g, None, None, None))  # one per schema input

    @custom_op("benchrag::kwonly", mutates_args=())
    def kwonly(x: Tensor, *, s: float = 1.0) -> Tensor:
        return x * s
    kwonly.register_autograd(lambda ctx, g: g)

    @custom_op("benchrag::listed", mutates_args=())
    def listed(xs: List[Tensor]) -> Tensor:
        return xs[0] + xs[1]
    listed.register_autograd(lambda ctx, g: ([g, g],))

    x, xr = opyard.randn(3), opyard.randn(3, requires_grad=True)
    ys = [opyard.randn(3, requires_grad=True), opyard.randn(3)]
    rows = [
        ("no grad plain(x)", cpu_us(lambda: plain(x))),
        ("forward plain(xr)", cpu_us(lambda: plain(xr))),
        ("forward withctx(xr), setup_context", cpu_us(lambda: withctx(xr))),
        ("forward defaults(xr)", cpu_us(lambda: defaults(xr))),
        ("forward kwonly(xr, s=2.0)", cpu_us(lambda: kwonly(xr, s=2.0))),
        ("forward listed([xr, y])", cpu_us_or_error(lambda: listed(ys))),
        ("plain(xr).sum().backward()", cpu_us(lambda: plain(xr).sum().backward(), n=3000)),
        ("withctx(xr).sum().backward()", cpu_us(lambda: withctx(xr).sum().backward(), n=3000)),
        ("defaults(xr).sum().backward()", cpu_us(lambda: defaults(xr).sum().backward(), n=3000)),
    ]
    torch = try_import_torch()
    if torch is not None:
        rows += torch_rows(torch)
    print(f"\nregister_autograd kernels, CPU time, best of 11  ({machine()})")
    for label, us in rows:
        print(f"  {label:<34} {us:>8.2f} us")
    if torch is None:
        print("  torch is not importable here: no torch rows in this run")


def torch_rows(torch):
    @torch.library.custom_op("benchrag::plain", mutates_args=())
    def tplain(x: torch.Tensor) -> torch.Tensor:
        return x.clone()
    tplain.register_autograd(lambda ctx, g: g)

    @torch.library.custom_op("benchrag::withctx", mutates_args=())
    def twithctx(x: torch.Tensor) -> torch.Tensor:
        return x.clone()
    twithctx.register_autograd(_saving_backward, setup_context=_save_inputs)
    x, xr = torch.randn(3), torch.randn(3, requires_grad=True)
    return [
        ("torch no grad plain(x)", cpu_us(lambda: tplain(x))),
        ("torch forward plain(xr)", cpu_us(lambda: tplain(xr))),
        ("torch forward withctx(xr)", cpu_us(lambda: twithctx(xr))),
        ("torch plain(xr).sum().backward()", cpu_us(lambda: tplain(xr).sum().backward(), n=3000)),
        ("torch withctx(xr).sum().backward()",
         cpu_us(lambda: twithctx(xr).sum().backward(), n=3000)),
    ]


def _save_inputs(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _saving_backward(ctx, g):
    (x,) = ctx.saved_tensors
    return g


def cpu_us_or_error(fn, **kw):
    try:
        return cpu_us(fn, **kw)
    except RuntimeError as e:  # an older opyard without Tensor[] gradients, for comparison runs
        print(f"  ({str(e)[:60]})")
        return float("nan")


if __name__ == "__main__":
    main()
