"""The derivative table's index of formula modules (``autograd/derivatives/_index.py``) names each
module's rows exactly: registration plans every built-in op's Autograd kernel from it, and a
module loads when one of its operators is first differentiated (Note [Formula modules on first use]).
That the index is what ``make gen`` derives: ``tests/package/test_generated_indexes.py``."""

import importlib
import os
import subprocess
import sys

from opyard.autograd.derivatives import FORMULAS, NON_DIFFERENTIABLE, _derive
from opyard.autograd.derivatives._index import BY_MODULE


def test_index_names_every_module_row():
    assert BY_MODULE == _derive.by_module()
    assert NON_DIFFERENTIABLE == _derive.non_differentiable()
    for module, names in BY_MODULE.items():
        assert set(importlib.import_module(f"opyard.autograd.derivatives.{module}").FORMULAS) == set(names)


def test_formulas_is_every_module_row_in_table_order():
    merged = {}
    for module in BY_MODULE:
        merged.update(importlib.import_module(f"opyard.autograd.derivatives.{module}").FORMULAS)
    assert list(FORMULAS) == list(merged)
    assert all(FORMULAS[name] is row for name, row in merged.items())


def test_import_loads_no_formula_module_and_a_backward_loads_its_own():
    code = """
import sys, opyard
def loaded():
    return sorted(m.rpartition(".")[2] for m in sys.modules if m.startswith("opyard.autograd.derivatives."))
before = loaded()
x = opyard.tensor([0.5, 1.0], requires_grad=True)
opyard.sin(x).backward(opyard.ones(2))
print(before, "pointwise" in loaded(), "linalg" in loaded(), x.grad.tolist())
"""
    env = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    # Nothing of the table loads with the package: the index loads with the first packet defined, the
    # kernel machinery (registry and its helper module) with the first formula kernel built (Note
    # [Autograd modules on first use]), a formula module with the first backward that needs it.
    assert done.stdout.split("] ")[0] + "]" == "[]"
    assert done.stdout.split("] ")[1].split()[:2] == ["True", "False"]
