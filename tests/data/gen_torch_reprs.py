"""Writes ``torch_reprs.json``: ``repr`` of each tensor of ``repr_cases.py`` under torch 2.15
(``torch`` written ``opyard``). Run with a Python that has torch (``make repr-expect``)."""

import json
import os
import sys

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from repr_cases import CASES  # noqa: E402

if __name__ == "__main__":
    out = {expr: repr(eval(expr, {"T": torch})).replace("torch.", "opyard.") for expr in CASES}
    with open(os.path.join(HERE, "torch_reprs.json"), "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "reprs": out}, f, indent=1)
        f.write("\n")
