"""Writes ``python/opyard/_aten/variants.txt``: the names torch 2.15 has as functions
(``torch.<name>``) and as Tensor methods (``Tensor.<name>``); and ``overload_order.txt``: the order
of each ``aten`` packet's overloads, the order in which a call of the packet tries them.

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


ORDER_HEADER = """\
# The order of torch 2.15's overloads of each aten packet with more than one (the order a call of the
# packet tries them in). `make gen` orders each built-in packet's overloads so (_aten/_table.py).
# Written by tests/data/gen_torch_variants.py (make torch-variants).
"""


def overload_order(path):
    packets = sorted({name.split("::")[1].split(".")[0] for name in torch._C._dispatch_get_all_op_names()
                      if name.startswith("aten::")})
    with open(path, "w", encoding="utf-8") as f:
        f.write(ORDER_HEADER)
        for packet in packets:
            try:
                overloads = getattr(torch.ops.aten, packet).overloads()
            except (AttributeError, RuntimeError):
                continue
            if len(overloads) > 1:
                f.write(f"{packet}: {' '.join(overloads)}\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    aten = os.path.normpath(os.path.join(here, os.pardir, os.pardir, "python", "opyard", "_aten"))
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(aten, "variants.txt"))
    overload_order(os.path.join(aten, "overload_order.txt"))
