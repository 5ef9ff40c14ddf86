"""Instructions per statement, counted by callgrind: figures a busy machine cannot move.

Each statement runs ``N`` times in a loop that ``operator.call`` starts, and callgrind counts only
while ``_operator_call`` is on the stack (``--toggle-collect``), so imports and setup are not
counted; print the empty loop (``pass``) first and subtract it. Needs ``valgrind``.
"""

import os
import re
import subprocess
import sys
import tempfile

N = 20_000
_LOOP = """
import operator
{setup}
for _ in range({warm}):
    {stmt}
code = compile(f"for _ in range({n}):\\n    {stmt}\\n", "<loop>", "exec")
operator.call(exec, code)
"""


def count(stmt, setup, pythonpath, n=N, warm=0):
    """Instructions per execution of ``stmt`` after ``setup`` (source run once, not counted) and
    ``warm`` uncounted executions of ``stmt`` (first-use work: operators defined, modules loaded)."""
    with tempfile.TemporaryDirectory() as tmp:
        script, out = os.path.join(tmp, "loop.py"), os.path.join(tmp, "callgrind.out")
        with open(script, "w") as f:
            f.write(_LOOP.replace("{setup}", setup).replace("{n}", str(n)).replace("{stmt}", stmt)
                    .replace("{warm}", str(warm)))
        env = dict(os.environ, PYTHONPATH=pythonpath, PYTHONHASHSEED="0")
        subprocess.run(["valgrind", "--tool=callgrind", "--collect-atstart=no",
                        "--toggle-collect=_operator_call", f"--callgrind-out-file={out}", "-q",
                        sys.executable, script], env=env, check=True, capture_output=True)
        with open(out) as f:
            total = int(re.search(r"^summary: (\d+)", f.read(), re.M).group(1))
    return total / n


def main(statements, setup, width=32):
    """Print the count of each statement; ``argv[1]`` overrides the PYTHONPATH (default ``python/``)."""
    here = os.path.dirname(os.path.abspath(__file__))
    pythonpath = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "python")
    print(f"instructions per statement (callgrind, {N:,} iterations, PYTHONPATH={pythonpath})")
    for stmt in statements:
        print(f"  {stmt:<{width}} {count(stmt, setup, pythonpath):9.0f}")
