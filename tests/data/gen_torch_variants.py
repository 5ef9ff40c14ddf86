"""Writes ``python/opyard/_aten/variants.txt``: the names torch 2.15 has as functions
(``torch.<name>``) and as Tensor methods (``Tensor.<name>``).

``make gen`` reads it to decide which built-in packets are ``opyard.<name>`` and ``Tensor.<name>``
(``_aten/_table.py``), so a new operator gets torch's forms without a hand-written list. Run with
a Python that has torch (``make torch-variants``); nothing else reads torch.
"""

import os
import sys

import torch

HEADER = """\
# Which names torch 2.15 has as functions (torch.<name>) and as Tensor methods (Tensor.<name>): every
# callable of dir(torch) that is not a class, and every callable of dir(torch.Tensor), dunders left
# out. A built-in packet of the same name is opyard.<name> / Tensor.<name>. Written by
# tests/data/gen_torch_variants.py (make torch-variants); read by _aten/_table.py for `make gen`.
"""


def _callables(owner):
    return sorted(n for n in dir(owner) if not n.startswith("__") and callable(getattr(owner, n, None))
                  and not isinstance(getattr(owner, n), type))


def main(path):
    functions, methods = _callables(torch), _callables(torch.Tensor)
    with open(path, "w", encoding="utf-8") as f:
        f.write(HEADER)
        f.write("function: " + " ".join(functions) + "\n")
        f.write("method: " + " ".join(methods) + "\n")
    print(f"wrote {path}: {len(functions)} functions, {len(methods)} methods")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    main(sys.argv[1] if len(sys.argv) > 1 else
         os.path.normpath(os.path.join(here, os.pardir, os.pardir, "python", "opyard", "_aten", "variants.txt")))
