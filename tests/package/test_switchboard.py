"""The switchboard (src/python/hooks.rs, opyard/_hooks.py): one install of every late-bound call,
and ``OPYARD_FASTPATH=0`` turning the Rust fast paths off at import."""

import os
import subprocess
import sys

import pytest

import opyard
from opyard import _core


def test_the_hooks_are_installed_once():
    hooks = _core._hooks()
    assert isinstance(hooks, _core.Hooks)
    assert hooks.tensor is opyard.Tensor and hooks.facade is opyard
    with pytest.raises(RuntimeError, match="installed already"):
        _core._install_hooks()


def test_every_hook_is_named_by_the_install():
    with pytest.raises(RuntimeError, match="installed already"):
        _core._install_hooks(tensor=opyard.Tensor)
    names = [n for n in dir(_core.Hooks) if not n.startswith("_")]
    # Each field is a hook, readable from Python (the derived ones stay in Rust).
    for name in ("tensor", "packet_of", "function_protocol", "apply_general", "backward",
                 "accumulate_grad", "record_outputs", "lift_fresh", "autocast_kernel", "vmap_kernel",
                 "number_operands", "transform_apply", "legacy_vmap", "batched_tangent"):
        assert name in names
        assert getattr(_core._hooks(), name) is not None


def _run(code, **env):
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **env}, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


_SHOW = ("import opyard, opyard._core as c; from opyard.autograd import Function\n"
         "class F(Function):\n"
         "    @staticmethod\n"
         "    def forward(ctx, x): return x * 2\n"
         "    @staticmethod\n"
         "    def backward(ctx, g): return g * 2\n"
         "x = opyard.ones(2, requires_grad=True); F.apply(x).sum().backward()\n"
         "print(c.FAST_PATHS, type(opyard.Tensor.backward).__name__, type(F.apply).__name__,"
         " x.grad.tolist())")


@pytest.mark.parametrize("value, fast", [("0", False), ("1", True), ("", True)])
def test_opyard_fastpath_in_the_environment(value, fast):
    out = _run(_SHOW, OPYARD_FASTPATH=value)
    flag, backward, apply, grad = out.split(" ", 3)
    assert flag == str(fast)
    # The Rust method and the Rust apply, or the Python general paths.
    assert backward == ("method_descriptor" if fast else "function")
    assert apply == ("_FunctionSpec" if fast else "method")
    assert grad == "[2.0, 2.0]"


def test_hooks_before_the_install_raise_or_default():
    # The extension loaded alone (no package import, so nothing installed the hooks yet).
    out = _run("import importlib.util, sys\n"
               f"spec = importlib.util.spec_from_file_location('opyard._core', {_core.__file__!r})\n"
               "c = importlib.util.module_from_spec(spec); spec.loader.exec_module(c)\n"
               "print(c._hooks(5))\n"
               "try:\n"
               "    c._hooks()\n"
               "except RuntimeError as e:\n"
               "    print(e)\n"
               "try:\n"
               "    c._install_hooks(bogus=1)\n"
               "except TypeError as e:\n"
               "    print(e)\n")
    default, message, missing = out.split("\n")
    assert missing == "_install_hooks() missing hook 'tensor'"
    assert default == "5"
    assert message == ("opyard._core: the hooks are not installed yet (`import opyard` installs them: "
                       "opyard/_hooks.py)")


@pytest.mark.parametrize("module", ["__init__.py", "_hooks.py"])
def test_the_facade_and_the_switchboard_patch_no_module(module):
    # The hooks are the only way a higher layer reaches into a lower one: at module level neither
    # the facade nor `_hooks.py` assigns an attribute of anything, nor calls `setattr`.
    import ast
    path = os.path.join(os.path.dirname(opyard.__file__), module)
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    patches = []
    for stmt in tree.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for node in ast.walk(stmt):
            targets = (node.targets if isinstance(node, ast.Assign)
                       else [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else [])
            patches += [ast.unparse(t) for t in targets if isinstance(t, ast.Attribute)]
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr":
                patches.append(ast.unparse(node))
    assert patches == []
