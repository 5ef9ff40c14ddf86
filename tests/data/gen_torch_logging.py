"""Writes ``torch_logging.json``: the lines torch 2.15's ``LoggingTensor``/``LoggingTensorMode`` log for
each snippet of ``logging_cases.py`` (``torch.`` written ``opyard.``), or ``ERROR <type>``.

Run with a Python that has torch (``make logging-expect``; the tests read only the JSON)::

    python tests/data/gen_torch_logging.py
"""

import json
import os
import sys

import torch
from torch.testing._internal import logging_tensor as lt

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from logging_cases import CASES  # noqa: E402


def run(T, lt_module, kind, source):
    env = {"T": T, "LT": lt_module.LoggingTensor, "log_input": lt_module.log_input}
    capture = lt_module.capture_logs_with_logging_tensor_mode if kind == "mode" else lt_module.capture_logs
    try:
        with capture() as logs:
            exec(source, env)
    except Exception as e:  # noqa: BLE001 - the answer is what the library raised
        return [f"ERROR {type(e).__name__}"]
    return [line.replace("torch.", "opyard.") for line in logs]


if __name__ == "__main__":
    out = {name: run(torch, lt, kind, source) for name, (kind, source) in CASES.items()}
    with open(os.path.join(HERE, "torch_logging.json"), "w", encoding="utf-8") as f:
        json.dump({"torch": torch.__version__, "logs": out}, f, indent=1, sort_keys=True)
        f.write("\n")
