"""Writes ``torch_windows.json``: torch 2.15's window functions (``hann_window``, ``hamming_window``,
``blackman_window``, ``bartlett_window``, ``kaiser_window``) for lengths around their special cases,
both ``periodic`` values, their extra parameters and every floating dtype, as the tests compare them
with opyard's; and the errors of the window functions and ``randperm``.

Run with a Python that has torch (``make windows-expect``; the tests read only the JSON)::

    python tests/data/gen_torch_windows.py
"""

import json
import os

import torch

CALLS = []
for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
    for n in (0, 1, 2, 3, 4, 7, 10, 31):
        for periodic in (True, False):
            for dtype in ("float32", "float64", "float16", "bfloat16"):
                CALLS.append((name, [n, periodic], {"dtype": dtype}))
CALLS += [("hamming_window", [9, True, 0.5], {}), ("hamming_window", [9, False, 0.6, 0.3], {"dtype": "float64"}),
          ("kaiser_window", [9, True, 3.5], {}), ("kaiser_window", [12, False, 0.0], {"dtype": "float64"}),
          ("hann_window", [6], {}), ("kaiser_window", [6], {"dtype": "float64"})]
ERRORS = [("hann_window", [-1], {}), ("hamming_window", [4], {"dtype": "int64"}),
          ("kaiser_window", [3], {"dtype": "int32"}), ("blackman_window", [3, True], {"dtype": "complex64"}),
          ("randperm", [-1], {}), ("randperm", [3], {"dtype": "bool"}), ("randperm", [300], {"dtype": "int8"}),
          ("randperm", [3000], {"dtype": "float16"}), ("randperm", [70000], {"dtype": "uint16"})]


def _kwargs(kw):
    return {k: getattr(torch, v) if k == "dtype" else v for k, v in kw.items()}


def main():
    out = {"values": [], "errors": []}
    for name, args, kw in CALLS:
        t = getattr(torch, name)(*args, **_kwargs(kw))
        out["values"].append({"call": [name, args, kw], "dtype": str(t.dtype).split(".")[1],
                              "values": t.double().tolist()})
    for name, args, kw in ERRORS:
        try:
            getattr(torch, name)(*args, **_kwargs(kw))
            out["errors"].append({"call": [name, args, kw], "error": None})
        except Exception as e:  # noqa: BLE001 - the answer is the exception
            out["errors"].append({"call": [name, args, kw], "error": [type(e).__name__, str(e).splitlines()[0]]})
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_windows.json")
    with open(path, "w") as f:
        json.dump(out, f, indent=0)
    print(f"wrote {len(out['values'])} windows and {len(out['errors'])} errors to {path}")


if __name__ == "__main__":
    main()
