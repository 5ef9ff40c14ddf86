"""``opyard.install_as_torch()``: ``import torch`` and ``from torch.X import Y`` reach opyard's homes.

Every test runs in a child process, so the aliasing never reaches this suite's own imports.
"""

import os
import subprocess
import sys
import textwrap

import opyard
import pytest

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(opyard.__file__)))
TINYQUANT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "third_party", "tinyquant")


def run(code, *, extra_path=()):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((PACKAGE_DIR, *extra_path))}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          timeout=300, cwd=os.path.dirname(os.path.abspath(__file__)))


def check(code, **kwargs):
    proc = run(code, **kwargs)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


def test_a_package_written_against_torch_library_passes_its_own_tests():
    # tests/third_party/tinyquant: registrations with Library/impl (2.1) and custom_op (2.4), fake
    # impls with torch._check, register_autograd, an in-place op; its tests use FakeTensorMode from
    # torch._subclasses, make_fx from torch.fx.experimental, torch._C and torch.library.opcheck.
    out = check(f"""
        import sys
        import opyard, pytest
        opyard.install_as_torch()
        sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", {TINYQUANT!r}]))
    """, extra_path=(TINYQUANT,))
    assert "10 passed" in out


# (statement, the opyard object the imported name must be)
IMPORTS = [
    ("import torch as m", "opyard"),
    ("import torch.library as m", "opyard.library"),
    ("from torch.library import custom_op as m", "opyard.library.custom_op"),
    ("from torch.library import Library as m", "opyard.library.Library"),
    ("from torch import Tensor as m", "opyard.Tensor"),
    ("from torch._subclasses.fake_tensor import FakeTensorMode as m", "opyard.fake.FakeTensorMode"),
    ("from torch._subclasses import FakeTensor as m", "opyard.fake.FakeTensor"),
    ("from torch.fx.experimental.proxy_tensor import make_fx as m", "opyard.fx.make_fx"),
    ("from torch.fx.experimental.symbolic_shapes import ShapeEnv as m", "opyard.fake.ShapeEnv"),
    ("import torch.nn.functional as m", "opyard.nn.functional"),
    ("from torch.nn import Module as m", "opyard.nn.Module"),
    ("from torch.utils._python_dispatch import TorchDispatchMode as m",
     "opyard.utils.python_dispatch.TorchDispatchMode"),
    ("from torch.utils._pytree import tree_flatten as m", "opyard.utils._pytree.tree_flatten"),
    ("from torch.overrides import TorchFunctionMode as m", "opyard.overrides.TorchFunctionMode"),
    ("import torch.autograd.forward_ad as m", "opyard.autograd.forward_ad"),
    ("from torch.autograd import Function as m", "opyard.autograd.Function"),
    ("from torch.autograd.function import once_differentiable as m", "opyard.autograd.function.once_differentiable"),
    ("from torch.func import vmap as m", "opyard.func.vmap"),
    ("from torch.amp import autocast as m", "opyard.amp.autocast"),
    ("from torch._C import Tag as m", "opyard.Tag"),
    ("from torch._C import DispatchKey as m", "opyard.dispatcher.DispatchKey"),
    ("from torch._custom_ops import get_ctx as m", "opyard.library.get_ctx"),
    ("from torch._python_dispatcher import PythonDispatcher as m", "opyard.dispatcher.PythonDispatcher"),
    ("from torch._ops import OpOverload as m", "opyard._ops.OpOverload"),
    ("from torch import _check as m", "opyard.fake.checks.check"),
]


@pytest.mark.parametrize("statement, home", IMPORTS, ids=[s for s, _ in IMPORTS])
def test_torch_spellings_resolve_to_opyard_homes(statement, home):
    check(f"""
        import importlib, sys
        import opyard
        opyard.install_as_torch()
        {statement}
        module, _, attr = {home!r}.rpartition(".")
        want = importlib.import_module(module or {home!r})
        want = getattr(want, attr) if module else want
        assert m is want, (m, want)
        assert sys.modules["torch"] is opyard
    """)


def test_modules_are_shared_never_imported_twice():
    out = check("""
        import sys
        import opyard
        opyard.install_as_torch()
        import torch.autograd.forward_ad, torch.library, torch._subclasses.fake_tensor, torch.nn.functional
        for name in ("autograd", "autograd.forward_ad", "library", "_subclasses.fake_tensor", "nn.functional"):
            assert sys.modules["torch." + name] is sys.modules["opyard." + name], name
            assert sys.modules["torch." + name].__name__ == "opyard." + name
        modules = {id(m): m for m in list(sys.modules.values())}.values()
        files = [m.__file__ for m in modules if getattr(m, "__file__", None)]
        assert len(files) == len(set(files)), "a module of opyard was imported a second time"
        print(opyard.ops.aten.add(opyard.ones(1), opyard.ones(1)).item())
    """)
    assert out == "2.0\n"


def test_it_is_opt_in():
    out = check("""
        import sys
        import opyard
        print("torch" in sys.modules, any(type(f).__name__ == "TorchAliasFinder" or
                                          getattr(f, "__name__", "") == "TorchAliasFinder" for f in sys.meta_path))
    """)
    assert out == "False False\n"


def test_calling_twice_installs_one_finder():
    out = check("""
        import sys
        import opyard
        from opyard._install_as_torch import TorchAliasFinder
        opyard.install_as_torch()
        opyard.install_as_torch()
        import torch
        print(sys.meta_path.count(TorchAliasFinder), torch is opyard)
    """)
    assert out == "1 True\n"


def test_refused_when_the_real_torch_is_imported():
    proc = run("""
        import sys, types
        real = types.ModuleType("torch")
        real.__file__ = "/site-packages/torch/__init__.py"
        sys.modules["torch"] = real
        import opyard
        try:
            opyard.install_as_torch()
        except RuntimeError as e:
            print(e)
        print(sys.modules["torch"] is real, any(getattr(f, "__name__", "") == "TorchAliasFinder"
                                                 for f in sys.meta_path))
    """)
    assert proc.returncode == 0, proc.stderr
    message, state = proc.stdout.splitlines()
    assert message == ("opyard.install_as_torch(): the real torch is imported already (from "
                       "/site-packages/torch/__init__.py), so `import torch` cannot be made to mean opyard in "
                       "this process. Call opyard.install_as_torch() before anything imports torch, or run the "
                       "code that needs opyard in a separate process.")
    assert state == "True False"


@pytest.mark.parametrize("statement, missing", [
    ("import torch._dynamo", "torch._dynamo"),
    ("from torch.testing._internal.common_utils import TestCase", "torch.testing._internal.common_utils"),
    ("import torch.nn.does_not_exist", "torch.nn.does_not_exist"),
])
def test_a_module_opyard_lacks_names_what_was_looked_for(statement, missing):
    home = "opyard" + missing[len("torch"):]
    out = check(f"""
        import opyard
        opyard.install_as_torch()
        try:
            {statement}
        except ModuleNotFoundError as e:
            print(e.name)
            print(e)
    """)
    name, message = out.splitlines()
    assert name == missing
    assert message == (f"No module named '{missing}': opyard.install_as_torch() maps torch.* to opyard.*, "
                       f"and opyard has no module '{home}'")


def test_unrelated_imports_are_untouched():
    out = check("""
        import opyard
        opyard.install_as_torch()
        import json
        print(json.dumps([1]))
    """)
    assert out == "[1]\n"
