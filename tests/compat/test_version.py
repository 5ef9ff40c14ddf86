"""``opyard.__version__`` and ``opyard.version``: versions compare as versions, never as strings."""

import warnings

import pytest

import opyard
from opyard.version import Version


def test_module_attributes():
    assert opyard.version.__version__ is opyard.__version__
    assert isinstance(opyard.__version__, str) and str(opyard.__version__) == opyard._core.__version__
    assert opyard.version.torch_api == "2.15"
    assert isinstance(opyard.version.git_version, str) and opyard.version.git_version
    assert opyard.version.hip is None
    assert opyard.version.cuda is None or isinstance(opyard.version.cuda, str)
    with pytest.raises(AttributeError, match="has no attribute 'rocm_tag'"):
        opyard.version.rocm_tag


@pytest.mark.parametrize("left, op, right", [
    ("2.10", ">", "2.9"),            # a string comparison says the opposite
    ("2.4.0", "==", "2.4"),
    ("2.4", ">=", "2.4.0"),
    ("2.4.0a0", "<", "2.4"),
    ("2.4.0.dev20240501", "<", "2.4.0a0"),
    ("2.4.0rc1", "<", "2.4.0"),
    ("2.4.0+cpu", ">", "2.4.0"),
    ("2.4.post1", ">", "2.4+cu121"),
    ("2.15", ">=", (2, 4)),
    ("2.15", "<", (2, 15, 1)),
    ("1.13.1", "<", "2"),
    ("2.15", "==", Version("2.15.0")),
])
def test_version_order(left, op, right):
    v = Version(left)
    result = {"<": v < right, ">": v > right, "<=": v <= right, ">=": v >= right, "==": v == right}[op]
    assert result is True


def test_reflected_comparison_with_a_plain_string_uses_version_order():
    assert "2.9" < Version("2.10")
    assert (2, 4) <= Version("2.4.1")


def test_ordering_against_a_non_version_raises_instead_of_comparing_strings():
    with pytest.raises(TypeError, match=r"cannot order version '2.4' against 'nightly'"):
        Version("2.4") < "nightly"
    with pytest.raises(TypeError, match="cannot order version"):
        Version("2.4") >= 2.4
    assert Version("2.4") != "nightly"
    assert not (Version("2.4") == "nightly")


def test_hash_and_str_behave_like_the_string():
    v = Version("2.15")
    assert {v: 1}["2.15"] == 1
    assert v.split(".") == ["2", "15"]
    assert f"{v}" == "2.15"


def test_torch_api_gate_passes_and_gates_compare_numerically():
    assert opyard.version.torch_api >= "2.4"
    assert opyard.version.torch_api >= (2, 4)
    assert not opyard.version.torch_api >= "2.16"


def test_package_version_warns_when_compared_like_a_torch_version():
    with pytest.warns(UserWarning, match=r"Compare opyard.version.torch_api \(2.15"):
        gate = opyard.__version__ >= "2.4.1"
    assert gate is False
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert opyard.__version__ >= "0.0.1"   # opyard's own version scale: no warning
        assert opyard.__version__ == opyard._core.__version__
