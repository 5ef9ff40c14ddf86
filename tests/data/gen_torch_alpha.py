"""Writes ``torch_alpha.json``: what torch 2.15's add, sub and rsub give for an ``alpha`` per dtype
(the value and its element type's range: unsigned types wrap negative values, overflow raises; sub
and rsub are add with ``-alpha``). Each case is an expression over ``T`` (the torch module) and
tensors ``u8``, ``i8``, ``i32``, ``f16``, ``f32``, ``f64``; the tests evaluate the same expressions
with opyard. Run with a Python that has torch (the tests read only the JSON)::

    python tests/data/gen_torch_alpha.py
"""

import json
import os

import torch

EXPRESSIONS = [
    f"T.{op}({a}, {b}, alpha={alpha})"
    for op in ("add", "sub", "rsub")
    for a, b in (("u8", "u8"), ("u8", "3"), ("i8", "i8"), ("i8", "3"), ("i32", "i32"), ("i32", "3"), ("f16", "f16"),
                 ("f32", "2.5"), ("f64", "f64"))
    for alpha in (-1, 2, -3, 100, 127, 200, 255, -255, -256, 300, 2**31, -2**31, 2**40, 0.5, -1.5)
] + [f"{t}.clone().{op}_({t}, alpha={alpha})" for op in ("add", "sub") for t in ("u8", "i32", "f32")
     for alpha in (-1, -3, 300, 2**31)]


# The tensors the expressions name, as expressions over ``T`` themselves (recorded with the cases).
TENSORS = {"u8": "T.tensor([1, 2, 200], dtype=T.uint8)", "i8": "T.tensor([1, -2, 100], dtype=T.int8)",
           "i32": "T.tensor([1, -2, 2**30], dtype=T.int32)", "f16": "T.tensor([1.5, -2.0, 6.0e4], dtype=T.float16)",
           "f32": "T.tensor([1.5, -2.25, 3.0e38], dtype=T.float32)",
           "f64": "T.tensor([0.1, -2.0, 1e300], dtype=T.float64)"}


def tensors(T, table=TENSORS):
    """``{"T": T, name: tensor}`` for the expressions of ``table``."""
    return {"T": T, **{name: eval(expr, {"T": T}) for name, expr in table.items()}}  # noqa: S307


def main():
    env = tensors(torch)
    out = []
    for expr in EXPRESSIONS:
        try:
            r = eval(expr, dict(env))  # noqa: S307 -- the expressions above
            out.append({"expr": expr, "dtype": str(r.dtype).replace("torch.", ""),
                        "value": [str(v) for v in r.tolist()]})
        except Exception as e:  # noqa: BLE001 -- recorded, whatever it is
            out.append({"expr": expr, "error": [type(e).__name__, str(e).split("\n")[0]]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_alpha.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "tensors": TENSORS, "cases": out}, f, indent=1)
    print(f"wrote {path}: {len(out)} cases")


if __name__ == "__main__":
    main()
