"""Snippets of real libraries' registration code (tests/data/torch_behaviours_ports.py) replayed
with opyard against torch 2.15's recorded outcomes (tests/support/torch_replay.py)."""

import pytest
from torch_replay import check, names


@pytest.mark.parametrize("name", names("ports"))
def test_snippet_agrees_with_torch(name):
    check(name)
