"""Writes ``torch_behaviours.json``: what torch does with each snippet of ``torch_behaviours.py`` and its area modules
(the normalised ``out``, or the exception's type and message; the warnings it gave).

Run with a Python that has torch (``make behaviours-expect``); the tests read only the JSON.
"""

import json
import os
import sys
import warnings

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from torch_behaviours import SNIPPETS, load_all, norm, plain  # noqa: E402


def run(module, code):
    """The outcome of ``code`` with ``T`` bound to ``module``: a dict of value/error/warnings."""
    env = {"T": module, "norm": norm, "plain": plain}
    row = {"value": None, "error": None}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(compile(code.replace("from T.", f"from {module.__name__}."), "<snippet>", "exec"), env)  # noqa: S102
            row["value"] = norm(env.get("out"))
        except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
            row["error"] = [type(e).__name__, str(e).strip().split("\n")[0]]
    row["warnings"] = sorted({(w.category.__name__, str(w.message).split("\n")[0]) for w in caught
                              if "torch.jit" not in str(w.message) and "TypedStorage" not in str(w.message)})
    return row


def main():
    load_all()
    out = {name: run(torch, code) for name, code in SNIPPETS.items()}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_behaviours.json")
    with open(path, "w") as f:
        json.dump({"torch": torch.__version__, "cases": out}, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
