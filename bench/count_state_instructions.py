"""Instructions per tensor-state statement, counted by callgrind: numbers a busy machine cannot move.

Each statement runs ``N`` times in a loop that ``operator.call`` starts, and callgrind counts only
while ``_operator_call`` is on the stack (``--toggle-collect``), so imports and setup are not
counted; the empty loop's count is printed first (subtract it). Needs ``valgrind``.

Run: ``python bench/count_state_instructions.py [PYTHONPATH]`` (default: this repo's ``python/``).
"""

import os
import re
import subprocess
import sys
import tempfile

N = 20_000
STATEMENTS = ["pass", "t._data", "t.device", "y.grad_fn", "t.requires_grad", "t._keyset", "t.grad",
              "t.dtype", "t.shape", "t._version", "mk(a)", "t.detach()", "u + u"]
LOOP = """
import operator, sys
import numpy as np
import opyard
from opyard import _tensor
t, u = opyard.ones(3), opyard.ones(1)
y = opyard.ones(3, requires_grad=True) * 2
a, mk = np.ones(1, np.float32), _tensor._make
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
        print(f"  {stmt:<18} {count(stmt, pythonpath):9.0f}")


if __name__ == "__main__":
    main()
