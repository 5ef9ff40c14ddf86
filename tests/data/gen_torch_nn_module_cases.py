"""Writes ``torch_nn_module_cases.json``: what torch returns or raises for each snippet of
``nn_module_cases.py`` (values as data, exceptions as type and text).

Run with a Python that has torch (``make nn-modules-expect``; the tests read only the JSON)::

    python tests/data/gen_torch_nn_module_cases.py
"""

import json
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from func_cases import run, serialize
from nn_module_cases import CASES, PRELUDE


def main():
    warnings.simplefilter("ignore")
    torch.manual_seed(0)
    out = {}
    for name, code in CASES.items():
        value, error = run(PRELUDE + code, torch)
        out[name] = {"code": code, "error": list(error) if error else None,
                     "out": None if error else serialize(value, torch)}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_nn_module_cases.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=1)
        f.write("\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
