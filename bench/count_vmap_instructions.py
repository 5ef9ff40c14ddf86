"""Instructions per vmap call against the same function on the whole batch, counted by callgrind.

The three vmap overhead goals as instruction ratios (numbers a busy machine cannot move):
(a) ``vmap(lambda r: sin(r) * 2)`` over a 64x16 float32 batch against ``sin(b) * 2``; (b) a custom op
with a ``register_vmap`` rule, vmapped, against the op on the batch; (c) per-sample gradients
``vmap(grad(loss), in_dims=(None, 0, 0))`` of a linear model against one batched forward + backward.
The empty loop's count is subtracted. Needs ``valgrind``.

Run: ``python bench/count_vmap_instructions.py [PYTHONPATH]`` (default: this repo's ``python/``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _callgrind import count  # noqa: E402

SETUP = """
import opyard
from opyard import func
from opyard.library import custom_op
x = opyard.randn(64, 16)
@custom_op("countvmap::mysin", mutates_args=())
def mysin(x: opyard.Tensor) -> opyard.Tensor:
    return opyard.sin(x)
@mysin.register_vmap
def _(info, in_dims, x):
    return mysin(x), in_dims[0]
va = opyard.vmap(lambda r: opyard.sin(r) * 2)
fa = lambda b: opyard.sin(b) * 2
vb = opyard.vmap(lambda r: mysin(r) * 2)
fb = lambda b: mysin(b) * 2
xd, y = opyard.randn(64, 16, dtype=opyard.float64), opyard.randn(64, dtype=opyard.float64)
w = opyard.randn(16, dtype=opyard.float64)
loss = lambda w, xi, yi: ((xi @ w - yi) ** 2).mean()
vc = func.vmap(func.grad(loss), in_dims=(None, 0, 0))
def fc():
    wr = w.detach().requires_grad_(True)
    ((xd @ wr - y) ** 2).mean().backward()
    return wr.grad
va(x); vb(x); vc(w, xd, y); fc()
"""

GOALS = [("(a) sin(r) * 2", "va(x)", "fa(x)", 4000), ("(b) custom op with a rule", "vb(x)", "fb(x)", 4000),
         ("(c) per-sample grads", "vc(w, xd, y)", "fc()", 400)]


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pythonpath = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "python")
    print(f"instructions per call (callgrind, PYTHONPATH={pythonpath}; empty loop subtracted)")
    for label, mapped, batch, n in GOALS:
        empty = count("pass", SETUP, pythonpath, n=n)
        m, b = count(mapped, SETUP, pythonpath, n=n) - empty, count(batch, SETUP, pythonpath, n=n) - empty
        print(f"  {label:<28} vmap {m:9.0f}   batch {b:9.0f}   {m / b:5.2f}x")


if __name__ == "__main__":
    main()
