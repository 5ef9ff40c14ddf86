"""``repr`` of tensors as torch 2.15 prints them (``tests/data/torch_reprs.json``, written by
``tests/data/gen_torch_reprs.py``, ``make repr-expect``): notation and width chosen from the values,
complex parts formatted apart, rows wrapped at 80 columns, more than 1000 elements summarized with
``...``, suffixes on a new line when they would pass the width, the default dtypes left unnamed."""

import json
import os
import sys

import pytest

import opyard

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "data")
sys.path.insert(0, DATA)

from repr_cases import CASES  # noqa: E402

with open(os.path.join(DATA, "torch_reprs.json"), encoding="utf-8") as _f:
    TORCH = json.load(_f)["reprs"]


@pytest.mark.parametrize("expr", CASES)
def test_repr_is_torchs(expr):
    assert repr(eval(expr, {"T": opyard})) == TORCH[expr]


def test_the_default_complex_dtype_follows_the_default_dtype():
    try:
        opyard.set_default_dtype(opyard.float64)
        assert repr(opyard.tensor([1j])) == "tensor([0.+1.j])"
        assert repr(opyard.tensor([1j], dtype=opyard.complex64)) == "tensor([0.+1.j], dtype=opyard.complex64)"
        assert repr(opyard.tensor([1.5], dtype=opyard.float32)) == "tensor([1.5000], dtype=opyard.float32)"
    finally:
        opyard.set_default_dtype(opyard.float32)
