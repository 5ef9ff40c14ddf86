"""Import time: ``import numpy``, then ``import opyard`` (and ``import torch``, when importable), each
in fresh interpreters, runs interleaved; medians of wall and CPU time.

Run: ``python bench/bench_import.py [runs]`` (default 11). opyard's figure is what ``import opyard``
adds after numpy (which it needs); the ratio is (numpy + opyard) / numpy, the goal <= 1.2x. The
package's bytecode is compiled first, as ``make dev`` and ``pip install`` leave it: an import that
must compile its sources measures the compiler. CPU time is printed beside wall time because a
shared machine's load inflates wall time most.

The last column is the first use after the import: five different operators called once each
(``ones``, ``sin``, ``mm``, ``sum``, ``mul`` then ``exp``). opyard defines a built-in packet on its
first use (Note [Operators defined on first use], src/python/dispatch/lazy.rs), so this is where that cost shows.
"""

import compileall
import importlib.util
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _harness import machine  # noqa: E402

# Each child prints (wall, cpu) seconds of `import numpy`, of the import that follows it, and the
# CPU seconds of a first use of five operators.
_CHILD = """
import time
w0, c0 = time.perf_counter(), time.process_time()
import numpy
w1, c1 = time.perf_counter(), time.process_time()
import {module} as M
w2, c2 = time.perf_counter(), time.process_time()
x = M.ones(3)
M.sin(x), M.mm(M.ones(2, 2), M.ones(2, 2)), M.sum(x), (x * 2).exp()
c3 = time.process_time()
print(w1 - w0, c1 - c0, w2 - w1, c2 - c1, c3 - c2)
"""


def _package_dir():
    """The folder holding the ``opyard`` this interpreter would import (without importing it)."""
    spec = importlib.util.find_spec("opyard")
    if spec is None or not spec.submodule_search_locations:
        sys.exit("opyard is not importable: run `make dev`, or set PYTHONPATH=python")
    return os.path.dirname(list(spec.submodule_search_locations)[0])


def _sample(module, env):
    done = subprocess.run([sys.executable, "-c", _CHILD.format(module=module)], capture_output=True,
                          text=True, env=env, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"import {module} failed in a fresh interpreter:\n{done.stderr[-2000:]}")
    return [float(v) * 1e3 for v in done.stdout.split()]


def _importable(module, env):
    return subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True,
                          env=env, check=False).returncode == 0


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 11
    root = _package_dir()
    compileall.compile_dir(os.path.join(root, "opyard"), quiet=1)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    modules = ["opyard"] + (["torch"] if _importable("torch", env) else [])
    samples = {m: [] for m in modules}
    for _ in range(runs):
        for m in modules:  # interleaved, so that a burst of load hits every module alike
            samples[m].append(_sample(m, env))
    print(f"\nImport time, fresh interpreters, median of {runs}  ({machine()})")
    print(f"  {'':<30} {'wall ms':>9} {'cpu ms':>9}   {'(numpy + X) / numpy':>20}   {'first use, cpu ms':>17}")
    numpy_wall = statistics.median(s[0] for m in modules for s in samples[m])
    numpy_cpu = statistics.median(s[1] for m in modules for s in samples[m])
    print(f"  {'import numpy':<30} {numpy_wall:>9.1f} {numpy_cpu:>9.1f}")
    for m in modules:
        # Each module's ratio uses the numpy figure of its own runs.
        nw, nc, w, c, first = (statistics.median(s[i] for s in samples[m]) for i in range(5))
        print(f"  {'import ' + m + ' (after numpy)':<30} {w:>9.1f} {c:>9.1f}   "
              f"wall {(nw + w) / nw:>5.2f}x  cpu {(nc + c) / nc:>5.2f}x   {first:>17.2f}")


if __name__ == "__main__":
    main()
