"""Instructions per backward-pass statement, counted by callgrind: figures a busy machine cannot move.

Each statement runs ``N`` times in a loop that ``operator.call`` starts, and callgrind counts only
while ``_operator_call`` is on the stack (``--toggle-collect``), so imports and setup are not
counted; the empty loop's count is printed first (subtract it). Needs ``valgrind``.

Run: ``python bench/count_backward_instructions.py [PYTHONPATH]`` (default: this repo's ``python/``).
"""

import os
import re
import subprocess
import sys
import tempfile

N = 20_000
STATEMENTS = [
    "pass",
    "s.backward(retain_graph=True)",  # one SumBackward0 node and the leaf's AccumulateGrad
    "xr.sum().backward()",  # the same, recorded each time
    "w.backward()",  # a 0-d leaf as its own root
    "xr.sum()",  # the forward alone: a node and a new AccumulateGrad
    "acc(y)",  # a new AccumulateGrad of a leaf in no graph (it dies each time)
]
LOOP = """
import operator
import opyard
from opyard import _core
xr = opyard.ones(3, requires_grad=True)
w = opyard.ones((), requires_grad=True)
y = opyard.ones(3, requires_grad=True)
s = xr.sum()
acc = _core._grad_accumulator
xr.sum().backward()
w.backward()
code = compile(f"for _ in range({n}):\\n    {stmt}\\n", "<loop>", "exec")
operator.call(exec, code)
"""


def count(stmt, pythonpath):
    with tempfile.TemporaryDirectory() as tmp:
        script, out = os.path.join(tmp, "loop.py"), os.path.join(tmp, "callgrind.out")
        with open(script, "w") as f:
            f.write(LOOP.replace("{n}", str(N)).replace("{stmt}", stmt))
        env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONHASHSEED="0")
        subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                        "--toggle-collect=_operator_call", f"--callgrind-out-file={out}", "-q",
                        sys.executable, script], env=env, check=True, capture_output=True)
        with open(out) as f:
            total = int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))
    return total / N


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    pythonpath = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "python")
    print(f"instructions per statement (callgrind, {N:,} iterations, PYTHONPATH={pythonpath})")
    for stmt in STATEMENTS:
        print(f"  {stmt:<32} {count(stmt, pythonpath):9.0f}")


if __name__ == "__main__":
    main()
