"""Public modules list their own API: ``dir()`` shows no standard-library helper they import
(``warnings``, ``functools``, ``np``, ``dataclass``...), and the facade exports each name once."""

import sys
import types

import pytest

import opyard
import opyard.fx.experimental  # noqa: F401  (loads on first use: imported here so that it is checked too)
from opyard._exports import is_foreign, public_dir


def _public_modules():
    return sorted(name for name in sys.modules
                  if name == "opyard" or (name.startswith("opyard.")
                                          and not any(p.startswith("_") for p in name.split(".")[1:])))


@pytest.mark.parametrize("name", _public_modules())
def test_dir_has_no_foreign_imports(name):
    module = sys.modules[name]
    exported = getattr(module, "__all__", ())
    leaked = [k for k in dir(module) if not k.startswith("_") and is_foreign(k, getattr(module, k), exported)]
    assert not leaked, f"{name} shows imports in dir(): {leaked}; end the module with __dir__ = public_dir(globals())"


@pytest.mark.parametrize("name, hidden", [
    ("opyard.library", ["warnings", "weakref"]),
    ("opyard.dispatcher", ["re", "sys", "warnings", "dataclass"]),
    ("opyard.autograd.grad_mode", ["functools", "inspect", "threading"]),
])
def test_named_leaks_are_gone_but_the_api_stays(name, hidden):
    names = dir(sys.modules[name])
    assert not set(hidden) & set(names)
    assert set(sys.modules[name].__all__) <= set(names)


def test_public_names_stay_reachable():
    assert {"Library", "custom_op", "opcheck", "fallthrough_kernel", "_destroy"} <= set(dir(opyard.library))
    assert callable(opyard.library.Library) and opyard.dispatcher.DispatchKey.CPU.name == "CPU"


def test_facade_all_is_unique_and_resolves():
    assert len(opyard.__all__) == len(set(opyard.__all__))
    missing = [n for n in opyard.__all__ if not hasattr(opyard, n)]
    assert not missing


@pytest.mark.parametrize("name, value, exported, expected", [
    ("np", __import__("numpy"), (), True),
    ("warnings", __import__("warnings"), (), True),
    ("partial", __import__("functools").partial, (), True),
    ("partial", __import__("functools").partial, ("partial",), False),  # re-exported on purpose
    ("Tensor", opyard.Tensor, (), False),
    ("library", opyard.library, (), False),
    ("TABLE", {"a": 1}, (), False),
    ("N", 3, (), False),
])
def test_is_foreign(name, value, exported, expected):
    assert is_foreign(name, value, exported) is expected


def test_public_dir_on_a_synthetic_module():
    mod = types.ModuleType("opyard_synthetic")
    exec("import warnings\nfrom functools import wraps\n__all__ = ['f']\ndef f():\n    pass\nX = 1\n", mod.__dict__)
    mod.__dict__["f"].__module__ = "opyard.synthetic"
    mod.__dir__ = public_dir(mod.__dict__)
    assert dir(mod) == sorted(k for k in mod.__dict__ if k not in ("warnings", "wraps"))
