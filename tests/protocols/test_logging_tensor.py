"""``opyard.testing._internal.logging_tensor`` logs what torch's logs: the snippets of
``tests/data/logging_cases.py`` give torch 2.15's lines (``tests/data/torch_logging.json``, written by
``tests/data/gen_torch_logging.py``, ``make logging-expect``): which operators a wrapper subclass's
``__torch_dispatch__`` and a dispatch mode see, with which arguments, in which order."""

import json
import os
import sys

import opyard
import pytest
from opyard.testing._internal import logging_tensor as lt
from opyard.utils.weak import WeakTensorKeyDictionary

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, DATA)

from logging_cases import CASES  # noqa: E402

with open(os.path.join(DATA, "torch_logging.json"), encoding="utf-8") as _f:
    TORCH = json.load(_f)["logs"]

# Where opyard's lines are not torch's yet, and why. Each must still differ.
DIFFERENT = {
    "backward": "torch's engine passes pin_memory/memory_format to the root ones_like and detaches the "
                "gradient it stores; opyard's engine calls ones_like plainly and stores the sum",
    "mode_backward": "the same, and torch's MulBackward0 computes the other operand's gradient first",
    "mode_ops": "torch's Python bindings pass device= and pin_memory= to the factories",
    "mode_factories": "the same",
    "mode_softmax": "the same (ones)",
    "mode_matmul": "the same (ones)",
    "mode_indexing": "the same (ones)",
}


def _run(kind, source):
    env = {"T": opyard, "LT": lt.LoggingTensor, "log_input": lt.log_input}
    capture = lt.capture_logs_with_logging_tensor_mode if kind == "mode" else lt.capture_logs
    with capture() as logs:
        exec(source, env)
    return list(logs)


def test_the_cases_are_the_recorded_ones():
    assert sorted(CASES) == sorted(TORCH) and set(DIFFERENT) <= set(CASES)


@pytest.mark.parametrize("name", [n for n in sorted(CASES) if n not in DIFFERENT])
def test_logs_are_torchs(name):
    assert _run(*CASES[name]) == TORCH[name]


@pytest.mark.parametrize("name", sorted(DIFFERENT))
def test_known_differences_still_differ(name):
    assert _run(*CASES[name]) != TORCH[name], f"{name} logs as torch's now: drop it from DIFFERENT"


def test_tracebacks_are_collected_when_asked():
    with lt.capture_logs(python_tb=True) as (logs, tracebacks):
        x = lt.LoggingTensor(opyard.ones(2))
        x.sin()
    assert logs == ["$1: f32[2] = opyard._ops.aten.sin.default($0)"]
    assert len(tracebacks) == 1 and "test_tracebacks_are_collected_when_asked" in tracebacks[0]


def test_logging_tensor_repr_and_reentrant():
    x = lt.LoggingTensor(opyard.ones(2))
    assert repr(x) == "LoggingTensor(tensor([1., 1.]))"
    with lt.capture_logs() as logs:
        y = lt.LoggingTensorReentrant(opyard.ones(2)) * 2
    assert type(y) is lt.LoggingTensorReentrant and logs == ["$1: f32[2] = opyard._ops.aten.mul.Tensor($0, 2)"]


def test_the_handler_leaves_the_logger_when_done():
    before = list(lt.logger.handlers)
    with lt.capture_logs():
        pass
    assert lt.logger.handlers == before


def test_weak_tensor_key_dictionary_keys_by_identity_and_forgets_dead_keys():
    d = WeakTensorKeyDictionary()
    a, b = opyard.ones(2), opyard.ones(2)
    d[a], d[b] = 1, 2
    assert (d[a], d[b], len(d)) == (1, 2, 2) and opyard.ones(2) not in d
    del a
    import gc

    gc.collect()
    assert list(d.values()) == [2]
