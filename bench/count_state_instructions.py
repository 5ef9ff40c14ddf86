"""Instructions per tensor-state statement, counted by callgrind: numbers a busy machine cannot move.

Each statement runs ``N`` times in a loop that ``operator.call`` starts, and callgrind counts only
while ``_operator_call`` is on the stack (``--toggle-collect``), so imports and setup are not
counted; the empty loop's count is printed first (subtract it). Needs ``valgrind``.

Run: ``python bench/count_state_instructions.py [PYTHONPATH]`` (default: this repo's ``python/``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _callgrind import main  # noqa: E402

STATEMENTS = ["pass", "t._data", "t.device", "y.grad_fn", "t.requires_grad", "t._keyset", "t.grad",
              "t.dtype", "t.shape", "t._version", "mk(a)", "t.detach()", "u + u"]
SETUP = """
import sys
import numpy as np
import opyard
from opyard import _tensor
t, u = opyard.ones(3), opyard.ones(1)
y = opyard.ones(3, requires_grad=True) * 2
a, mk = np.ones(1, np.float32), _tensor._make
"""


if __name__ == "__main__":
    main(STATEMENTS, SETUP, width=18)
