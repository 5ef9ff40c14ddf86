"""Instructions per call on the paths the per-call benchmarks time, counted by callgrind for one
or more source trees side by side: a comparison of two commits that a busy machine cannot move.

Each statement runs in a loop that ``operator.call`` starts, and callgrind counts only while
``_operator_call`` is on the stack, so imports, setup and three warm-up runs of the statement (its
first-use work) are not counted; the empty loop (``pass``) is the first row. Needs ``valgrind``.

Run: ``python bench/count_call_instructions.py TREE [TREE ...]`` where each TREE is a checkout with
its extension built in place (``python/opyard/_core*.so``); default: this repo.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _callgrind import count  # noqa: E402

N = 2_000
SETUP = """
import opyard
from opyard.library import Library
a = opyard.ones(1); b = opyard.ones(1); x = opyard.ones(2, 2)
xr = opyard.ones(2, 2, requires_grad=True)
lib = Library("countcalls", "DEF")
lib.define("noop(Tensor x) -> Tensor")
lib.impl("noop", lambda t: t, "CPU")
noop = opyard.ops.countcalls.noop.default
class R:
    def __radd__(self, o):
        return 1
r = R()
m = opyard.fake.FakeTensorMode()
with m:
    fa = opyard.empty(1); fb = opyard.empty(1)
made = opyard.ones(3)
@opyard.library.custom_op("countcalls::give", mutates_args=())
def give(t: opyard.Tensor) -> opyard.Tensor:
    return made
@opyard.library.custom_op("countcalls::plain", mutates_args=())
def plain(t: opyard.Tensor) -> opyard.Tensor:
    return t.clone()
plain.register_autograd(lambda ctx, g: g)
class Scale(opyard.autograd.Function):
    @staticmethod
    def forward(ctx, t):
        return t.detach()
    @staticmethod
    def backward(ctx, g):
        return g
"""
STATEMENTS = [
    "pass", "noop(a)", "a + b", "a + 1.0", "x.clone()", "a + r", "a == None",
    "x.t()", "x.unsqueeze(0)", "x[0]", "xr.t()", "(xr * 2).sum().backward()",
    "m.__enter__(); m.__exit__(None, None, None)",
    "m.__enter__(); fa + fb; m.__exit__(None, None, None)",
    "m.__enter__(); fa * 2.0; m.__exit__(None, None, None)",
    "give(a)", "Scale.apply(xr)", "plain(xr).sum().backward()",
]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    trees = sys.argv[1:] or [os.path.join(here, "..")]
    names = [os.path.basename(os.path.normpath(t)) for t in trees]
    print(f"instructions per statement (callgrind, {N:,} iterations)")
    print(f"  {'statement':<54}" + "".join(f"{n[-12:]:>13}" for n in names))
    for stmt in STATEMENTS:
        counts = [count(stmt, SETUP, os.path.join(t, "python"), n=N, warm=3) for t in trees]
        print(f"  {stmt:<54}" + "".join(f"{c:13.0f}" for c in counts))


if __name__ == "__main__":
    main()
