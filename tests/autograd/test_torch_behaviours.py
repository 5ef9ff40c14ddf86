"""Autograd snippets of tests/data/torch_behaviours.py replayed with opyard against torch 2.15's
recorded outcomes (tests/support/torch_replay.py; ``make behaviours-expect`` records them)."""

import pytest
from torch_replay import check, every_snippet_is_recorded, names


def test_every_snippet_has_a_recorded_answer():
    every_snippet_is_recorded()


@pytest.mark.parametrize("name", names("autograd"))
def test_snippet_agrees_with_torch(name):
    check(name)
