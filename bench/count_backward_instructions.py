"""Instructions per backward-pass statement, counted by callgrind: figures a busy machine cannot move.

Each statement runs ``N`` times in a loop that ``operator.call`` starts, and callgrind counts only
while ``_operator_call`` is on the stack (``--toggle-collect``), so imports and setup are not
counted; the empty loop's count is printed first (subtract it). Needs ``valgrind``.

Run: ``python bench/count_backward_instructions.py [PYTHONPATH]`` (default: this repo's ``python/``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _callgrind import main  # noqa: E402

STATEMENTS = [
    "pass",
    "s.backward(retain_graph=True)",  # one SumBackward0 node and the leaf's AccumulateGrad
    "xr.sum().backward()",  # the same, recorded each time
    "w.backward()",  # a 0-d leaf as its own root
    "xr.sum()",  # the forward alone: a node and a new AccumulateGrad
    "acc(y)",  # a new AccumulateGrad of a leaf in no graph (it dies each time)
]
SETUP = """
import opyard
from opyard import _core
xr = opyard.ones(3, requires_grad=True)
w = opyard.ones((), requires_grad=True)
y = opyard.ones(3, requires_grad=True)
s = xr.sum()
acc = _core._grad_accumulator
xr.sum().backward()
w.backward()
"""


if __name__ == "__main__":
    main(STATEMENTS, SETUP, width=32)
