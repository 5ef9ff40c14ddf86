"""Instructions of ``import opyard`` after ``import numpy``, and of the first use that follows it,
counted by callgrind for one or more source trees: an import comparison a busy machine cannot move.

Each figure is one fresh interpreter under callgrind, counting only while ``_operator_call`` is on
the stack (``--toggle-collect``): ``import numpy`` runs before and is not counted. The bytecode is
compiled first (as ``make dev`` and ``pip install`` leave it). "first use" is the five operator calls
``bench_import.py`` times (``ones``, ``sin``, ``mm``, ``sum``, ``mul`` then ``exp``) right after the
import; "both" counts the import and the first use in one run (where the cyclic collector's passes
fall moves between the two, not their sum). "first backward" is two backward passes of a small graph
and one with an explicit gradient right after the import, "first Function" a ``Function`` made,
applied and differentiated. Needs ``valgrind``.

Run: ``python bench/count_import_instructions.py [PYTHONPATH ...]`` (default: this repo's ``python/``).
"""

import compileall
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _callgrind import count  # noqa: E402

_FIRST_USE = "x = M.ones(3); M.sin(x), M.mm(M.ones(2, 2), M.ones(2, 2)), M.sum(x), (x * 2).exp()"
# The first backward pass (twice: the second is what every later one costs) and a first ``Function``.
_FIRST_BACKWARD = ("x = M.ones(3, requires_grad=True); (x * 2).sum().backward(); (x * 2).sum().backward(); "
                   "y = M.ones(2, 3, requires_grad=True); (y * x).backward(M.ones(2, 3))")
_FIRST_FUNCTION = ("F = type('F', (M.autograd.Function,), dict(forward=staticmethod(lambda ctx, t: t * 2), "
                   "backward=staticmethod(lambda ctx, g: g * 2))); "
                   "x = M.ones(3, requires_grad=True); F.apply(x).sum().backward()")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    trees = sys.argv[1:] or [os.path.join(here, "..", "python")]
    print("instructions (callgrind, one fresh interpreter per figure, numpy imported first, not counted)")
    print(f"  {'PYTHONPATH':<40} {'import opyard':>15} {'first use':>15} {'both, one run':>15} "
          f"{'first backward':>15} {'first Function':>15}")
    for tree in trees:
        compileall.compile_dir(os.path.join(tree, "opyard"), quiet=1)
        imported = count("import opyard", "import numpy", tree, n=1)
        first = count(_FIRST_USE, "import numpy\nimport opyard as M", tree, n=1)
        both = count("import opyard as M; " + _FIRST_USE, "import numpy", tree, n=1)
        backward = count(_FIRST_BACKWARD, "import numpy\nimport opyard as M", tree, n=1)
        function = count(_FIRST_FUNCTION, "import numpy\nimport opyard as M", tree, n=1)
        print(f"  {tree:<40} {imported:>15,.0f} {first:>15,.0f} {both:>15,.0f} {backward:>15,.0f} "
              f"{function:>15,.0f}")


if __name__ == "__main__":
    main()
