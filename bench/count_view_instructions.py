"""Instructions per view statement, counted by callgrind (see ``_callgrind.py``): views with and
without grad, ops on views, reading ``grad_fn``, and a view whose history is stale.

Run: ``python bench/count_view_instructions.py [PYTHONPATH]`` (default: this repo's ``python/``).
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _callgrind import main  # noqa: E402

STATEMENTS = ["pass", "x[1:]", "xr[1:]", "xr * 2", "v * 2", "v.grad_fn", "y.grad_fn", "x.view(4)",
              "xr.view(4)", "a * b", "(a * b).sum().backward()"]
SETUP = """
import opyard
x = opyard.ones(2, 2)
xr = opyard.ones(2, 2, requires_grad=True)
y = xr * 2
v = y[1:]
a, b = opyard.ones(1, requires_grad=True), opyard.ones(1, requires_grad=True)
"""


if __name__ == "__main__":
    main(STATEMENTS, SETUP, width=28)
