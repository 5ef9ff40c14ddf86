"""scipy is an optional dependency: the special functions numpy has no equivalent of need it, and
say so when it is absent; the ones computed with torch's own algorithms in numpy do not."""

import sys

import pytest

import opyard


def test_special_functions_name_scipy_when_it_is_absent(monkeypatch):
    """scipy is optional: a kernel that needs it says so (the op and the install command)."""
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.special", None)
    with pytest.raises(ImportError, match=r"aten::lgamma: .*scipy.special .*pip install scipy"):
        opyard.lgamma(opyard.tensor([1.5]))
    # the functions with torch's own algorithm in numpy need nothing more
    assert opyard.digamma(opyard.tensor([1.0], dtype=opyard.float64)).item() == pytest.approx(-0.5772156649015329)
