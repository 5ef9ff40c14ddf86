"""Writes ``torch_make_fx.json``: what torch 2.15's ``make_fx`` records, and which ``aten`` operators
torch keeps CompositeImplicitAutograd (a trace records what their kernel calls, not the operator).

- ``graphs``: ``"<case>/<mode>"`` -> the traced ``GraphModule.code`` (``torch.`` written ``opyard.``) of
  each function of ``fx_cases.py``, traced ``real`` and ``fake``, or ``"ERROR <type>: <message>"``.
- ``composite``: the ``aten`` overloads whose CPU autograd entry is their CompositeImplicitAutograd
  kernel (an overload with a kernel of its own beside it, as ``silu_backward``, runs that one).

Run with a Python that has torch (``make fx-expect``; the tests read only the JSON)::

    python tests/data/gen_torch_make_fx.py
"""

import json
import os
import sys

import torch
from torch.fx.experimental.proxy_tensor import make_fx

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from fx_cases import cases  # noqa: E402


def graphs():
    out = {}
    for name, (f, shapes) in cases(torch).items():
        for mode in ("real", "fake"):
            args = [torch.randn(*s, generator=torch.Generator().manual_seed(i)) for i, s in enumerate(shapes)]
            try:
                code = make_fx(f, tracing_mode=mode)(*args).code.replace("torch.", "opyard.")
            except Exception as e:  # noqa: BLE001 - the answer is what torch raised
                code = f"ERROR {type(e).__name__}: {str(e)[:200]}"
            out[f"{name}/{mode}"] = code
    return out


def composite():
    names = []
    for name in torch._C._dispatch_get_all_op_names():
        if not name.startswith("aten::"):
            continue
        table = torch._C._dispatch_dump_table(name).split("\n")
        if any(line.startswith("AutogradCPU:") and line.endswith("[math kernel]") for line in table):
            names.append(name)
    return sorted(names)


if __name__ == "__main__":
    data = {"torch": torch.__version__, "graphs": graphs(), "composite": composite()}
    with open(os.path.join(HERE, "torch_make_fx.json"), "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True)
        f.write("\n")
