"""Package metadata: one version everywhere, the license the metadata names, a changelog."""

import importlib.metadata
import os
import re

import opyard

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)


def read(name):
    return open(os.path.join(ROOT, name), encoding="utf-8").read()


def cargo_version():
    return re.search(r'^version = "([^"]+)"', read("Cargo.toml"), re.M)[1]


def test_one_version_for_the_crate_the_wheel_and_the_module():
    # Cargo.toml is the source: maturin gives it to the wheel, the extension exports it as _core.__version__.
    assert 'dynamic = ["version"]' in read("pyproject.toml")
    assert not re.search(r"^version\s*=", read("pyproject.toml"), re.M)
    assert opyard.__version__ == opyard._core.__version__ == cargo_version()
    assert importlib.metadata.version("opyard") == cargo_version()


def test_license_is_bsd_3_clause_everywhere():
    assert read("LICENSE").startswith("BSD 3-Clause License\n")
    assert '\nlicense = "BSD-3-Clause"\n' in read("Cargo.toml")
    assert 'license = { text = "BSD-3-Clause" }' in read("pyproject.toml")
    assert "License :: OSI Approved :: BSD License" in read("pyproject.toml")
    meta = importlib.metadata.metadata("opyard")
    assert meta["License"] == "BSD-3-Clause"


def test_supported_pythons_agree():
    pyproject = read("pyproject.toml")
    assert 'requires-python = ">=3.10"' in pyproject
    minors = sorted(int(m) for m in re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', pyproject))
    assert minors == [10, 11, 12, 13]
    assert "Python 3.10 to 3.13" in read("README.md")


def test_metadata_names_its_homes_and_extras():
    meta = importlib.metadata.metadata("opyard")
    urls = dict(u.split(", ", 1) for u in meta.get_all("Project-URL"))
    assert set(urls) == {"Homepage", "Repository", "Issues", "Changelog"}
    assert meta["Author"] == "The opyard developers" or "The opyard developers" in (meta["Author-email"] or "")
    assert {"distributed", "test"} <= set(meta.get_all("Provides-Extra"))


def test_changelog_keeps_a_changelog():
    text = read("CHANGELOG.md")
    assert text.startswith("# Changelog\n")
    assert "https://keepachangelog.com/en/1.1.0/" in text and "https://semver.org/" in text
    headings = re.findall(r"^## \[([^\]]+)\]", text, re.M)
    assert headings[0] == "Unreleased"
    sections = set(re.findall(r"^### (\w+)$", text, re.M))
    assert sections <= {"Added", "Changed", "Deprecated", "Removed", "Fixed", "Security"}
    assert f"version {cargo_version()}" in text
