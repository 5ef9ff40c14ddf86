import itertools
import os
import sys

import pytest

from opyard import _core
from opyard.dispatcher import DispatchKey, DispatchKeySet

# Modules the tests of several areas share (sample tables, kernel probes, the seed's classes) live
# in tests/support/; test files import them by name.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "support"))

_counter = itertools.count()


class KT(_core.TensorBase):
    """A minimal tensor: only a key set (what the dispatcher reads)."""

    def __init__(self, *keys, label=""):
        self._keyset = DispatchKeySet([DispatchKey[k] if isinstance(k, str) else k for k in keys]).raw()
        self.label = label

    def __repr__(self):
        return f"KT({self.label or self._keyset})"


@pytest.fixture
def ns():
    """A fresh namespace per test, so registrations never collide."""
    return f"t{next(_counter)}"


@pytest.fixture
def kt():
    return KT
