"""FakeTensorMode snippets (tests/data/torch_behaviours_fake.py) replayed with opyard against
torch 2.15's recorded outcomes (tests/support/torch_replay.py; ``make behaviours-expect``)."""

import pytest
from torch_replay import check, names


@pytest.mark.parametrize("name", names("fake"))
def test_snippet_agrees_with_torch(name):
    check(name)
