"""Writes ``torch_op_rules.json``: what torch 2.15 gives for the rules whole families of operators
follow, one section per rule (``op_rules.py`` holds the expressions and the tensors they name):
how a Python number meets an element type, the precision half-precision data is computed in,
result dtypes, edge shapes and values, the checks torch makes, index tensors, the scaling of the
BLAS-like ops, gradient dtypes, complex autograd and the autograd node of an operator.

Run with a Python that has torch (``make rules-expect``); the tests (``tests/aten/test_op_rules.py``)
evaluate the same expressions with opyard and read only the JSON.
"""

import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from op_rules import SECTIONS, TENSORS, outcome, tensors  # noqa: E402


def main():
    out = {}
    for section, exprs in SECTIONS.items():
        rows = []
        for expr in exprs:
            env = tensors(torch)
            rows.append({"expr": expr, **outcome(expr, env)})
        out[section] = rows
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_op_rules.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "tensors": TENSORS, "sections": out}, f, indent=0)
        f.write("\n")
    print(f"wrote {path}: {sum(len(v) for v in out.values())} cases")


if __name__ == "__main__":
    main()
