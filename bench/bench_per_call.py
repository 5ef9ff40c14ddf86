"""The per-call goals in one run: each path as a ratio to a plain Python call measured in the same run.

Run: ``python bench/bench_per_call.py [rounds]`` (default 3), beside torch with
``PYTHONPATH=python target/peers-venv/bin/python``. Each round measures every row once (medians,
``_harness.per_call_ns``) and its own plain call; the table gives, per row, the median over rounds of
the time and of the ratio to that round's plain call, and torch's figures from the same rounds.

| row | goal |
| --- | --- |
| ``ops.ns.noop(x)`` (a Library op whose kernel returns its input) | <= 3x plain |
| ``a + b``, 1-element float32 | <= 10x plain |
| ``x.clone()``, 1 element | <= 8x plain |
| ``Function.apply(x)``, x requires grad | <= 20x plain |
| custom_op call over a direct call of its kernel | <= 3 plain calls more |
| custom op with ``register_autograd``: ``op(xr).sum().backward()`` | <= 100x plain and >= 20x faster than torch |
| fake ``a + b`` | <= 10x plain |

Three floors follow the table, timed in the same rounds: ``functools.partial(kernel)(x)`` (a C
object forwarding the no-op's call to its Python kernel, no dispatch at all) and numpy's own
one-element ``a + b`` and ``a.copy()`` (a fresh array, no tensor around it).
"""

import functools
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine, per_call_ns, try_import_torch  # noqa: E402

import numpy as np  # noqa: E402

import opyard  # noqa: E402


def _plain():
    pass


def _rows(lib, ns):
    """(label, call) for ``lib`` (opyard or torch); ``ns`` names the operator library of this run."""
    Tensor = lib.Tensor
    keep = []  # libraries and modes that must outlive the calls
    lib_ = lib.library.Library(ns, "DEF")
    keep.append(lib_)
    lib_.define("noop(Tensor x) -> Tensor")
    lib_.impl("noop", lambda x: x, "CPU")
    noop = getattr(getattr(lib.ops, ns), "noop")

    made = lib.ones(3)  # the trivial kernel's result, made once (it aliases no input)

    def given(x):
        return made

    @lib.library.custom_op(f"{ns}::give", mutates_args=())
    def give(x: Tensor) -> Tensor:
        return made

    @lib.library.custom_op(f"{ns}::plain", mutates_args=())
    def plain(x: Tensor) -> Tensor:
        return x.clone()

    plain.register_autograd(lambda ctx, g: g)

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.detach()

        @staticmethod
        def backward(ctx, g):
            return g

    a, b = lib.ones(1), lib.ones(1)
    x, xr = lib.randn(3), lib.randn(3, requires_grad=True)
    if lib is opyard:
        mode = opyard.fake.FakeTensorMode()
    else:
        from torch._subclasses.fake_tensor import FakeTensorMode
        mode = FakeTensorMode()
    keep.append(mode)
    return keep, [
        ("ops.ns.noop(x)", lambda: noop(x)),
        ("a + b, 1 element", lambda: a + b),
        ("x.clone(), 1 element", lambda: x.clone()),
        ("Function.apply(xr)", lambda: Scale.apply(xr)),
        ("kernel(x) called directly", lambda: given(x)),
        ("custom_op(x), same kernel", lambda: give(x)),
        ("op(xr).sum().backward()", lambda: plain(xr).sum().backward()),
        ("fake a + b", None),
    ], mode


def _floors():
    """What CPython and numpy alone take for the work of three rows, timed in the same run: a C
    object forwarding a call to the Python kernel (the no-op's kernel call without any dispatch),
    numpy's own one-element add and copy (a fresh numpy array, no tensor around it)."""
    fwd = functools.partial(lambda x: x)
    na, nb = np.ones(1, np.float32), np.ones(1, np.float32)
    return [
        ("functools.partial(kernel)(x)", lambda: fwd(na)),
        ("numpy a + b, 1 element", lambda: na + nb),
        ("numpy a.copy(), 1 element", lambda: na.copy()),
    ]


def _measure(lib, ns):
    keep, rows, mode = _rows(lib, ns)
    if lib is opyard:
        rows = rows + [("floor: " + label, fn) for label, fn in _floors()]
    out = {"plain": per_call_ns(_plain)}
    for label, fn in rows:
        if label.startswith("fake"):
            # Fake tensors made and added inside the mode, entered once around the timed loop.
            with mode:
                fa, fb = lib.ones(4), lib.ones(4)
                out[label] = per_call_ns(lambda: fa + fb)
        else:
            out[label] = per_call_ns(fn)
    del keep
    return out


GOALS = {
    "ops.ns.noop(x)": "<= 3x", "a + b, 1 element": "<= 10x", "x.clone(), 1 element": "<= 8x",
    "Function.apply(xr)": "<= 20x", "custom_op(x), same kernel": "<= kernel + 3 plain",
    "op(xr).sum().backward()": "<= 100x, >= 20x faster than torch", "fake a + b": "<= 10x",
}


def main():
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    torch = try_import_torch()
    ours, theirs = [], []
    for r in range(rounds):
        ours.append(_measure(opyard, f"benchpc{r}"))
        if torch is not None:
            theirs.append(_measure(torch, f"benchpc{r}"))
    med = lambda runs, k: statistics.median(run[k] for run in runs)  # noqa: E731
    ratio = lambda runs, k: statistics.median(run[k] / run["plain"] for run in runs)  # noqa: E731
    print(f"\nPer-call goals, median of {rounds} rounds  ({machine()})")
    print(f"  plain Python call: {med(ours, 'plain'):.1f} ns" +
          (f" (torch's process: {med(theirs, 'plain'):.1f} ns)" if theirs else ""))
    print(f"  {'row':<38} {'opyard ns':>10} {'x plain':>8} {'torch ns':>10} {'x plain':>8}  goal")
    for label in ours[0]:
        if label == "plain" or label.startswith("floor: "):
            continue
        line = f"  {label:<38} {med(ours, label):>10.0f} {ratio(ours, label):>8.1f}"
        line += f" {med(theirs, label):>10.0f} {ratio(theirs, label):>8.1f}" if theirs else f" {'-':>10} {'-':>8}"
        print(line + f"  {GOALS.get(label, '')}")
    print("  floors, the same work without opyard (same run):")
    for label in ours[0]:
        if label.startswith("floor: "):
            print(f"  {label[7:]:<38} {med(ours, label):>10.0f} {ratio(ours, label):>8.1f}")
    over = statistics.median((run["custom_op(x), same kernel"] - run["kernel(x) called directly"]) / run["plain"]
                             for run in ours)
    print(f"  custom_op overhead over its kernel: {over:.1f} plain calls (goal <= 3)")
    if theirs:
        speed = statistics.median(t["op(xr).sum().backward()"] / o["op(xr).sum().backward()"]
                                  for o, t in zip(ours, theirs))
        print(f"  custom op forward+backward: {speed:.1f}x faster than torch (goal >= 20x)")
    else:
        print("  torch is not importable here: no torch column in this run")


if __name__ == "__main__":
    main()
