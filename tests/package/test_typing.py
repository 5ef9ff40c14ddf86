"""The typed public API: the Tensor stub names only what exists, and a type checker sees real types
(``mypy --strict`` passes the typed example and catches the mistakes below). ``make lint`` runs
mypy.stubtest on the other stubs."""

import ast
import os
import subprocess
import sys
import textwrap

import opyard
import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)
PACKAGE_DIR = os.path.dirname(os.path.abspath(opyard.__file__))


def _stub_members(path, class_name):
    tree = ast.parse(open(path, encoding="utf-8").read())
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == class_name]
    names = set()
    for node in cls.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


TENSOR_MEMBERS = sorted(_stub_members(os.path.join(PACKAGE_DIR, "_tensor.pyi"), "Tensor") - {"__getattr__"})


def test_the_tensor_stub_covers_the_common_methods():
    assert len(TENSOR_MEMBERS) > 150


@pytest.mark.parametrize("name", TENSOR_MEMBERS)
def test_every_tensor_member_in_the_stub_exists(name):
    assert hasattr(opyard.Tensor, name) or name in ("grad", "requires_grad")
    # torch raises (not AttributeError) for the imaginary part of a real tensor
    t = opyard.randn(2, 3, dtype=opyard.complex64 if name == "imag" else None, requires_grad=True)
    assert hasattr(t, name)


def mypy(*args, cwd=ROOT):
    pytest.importorskip("mypy", reason="mypy checks the typed API (make lint installs it)")
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=600)


BAD = '''
    import opyard
    from opyard import Tensor
    from opyard.fake import FakeTensorMode
    from opyard.func import vmap
    from opyard.library import Library, custom_op, register_fake

    @custom_op("t_typing::f", mutates_args=())
    def f(x: Tensor, s: float) -> Tensor:
        return x * s

    a: int = f(opyard.ones(2), 2.0)
    f(opyard.ones(2), "2")
    b: str = opyard.ones(2).size(0)
    c: Tensor = opyard.ones(2).numel()
    Library("t_typing", 3)
    register_fake("t_typing::f", lambda x, s: x, lib="lib")
    d: int = FakeTensorMode().from_tensor(opyard.ones(1))
    vmap(f, in_dims=1.5)
    e: int = opyard.from_numpy(opyard.ones(1).numpy())
'''


def test_mypy_strict_sees_the_types(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text(textwrap.dedent(BAD))
    proc = mypy(str(path))
    errors = [line.split(" error: ", 1)[1] for line in proc.stdout.splitlines() if " error: " in line]
    assert errors == [
        'Incompatible types in assignment (expression has type "Tensor", variable has type "int")  [assignment]',
        'Argument 2 to "__call__" of "CustomOpDef" has incompatible type "str"; expected "float"  [arg-type]',
        'Incompatible types in assignment (expression has type "int", variable has type "str")  [assignment]',
        'Incompatible types in assignment (expression has type "int", variable has type "Tensor")  [assignment]',
        'Argument 2 to "Library" has incompatible type "int"; expected "str"  [arg-type]',
        'No overload variant of "register_fake" matches argument types "str", "Callable[[Any, Any], Any]", "str"'
        '  [call-overload]',
        'Incompatible types in assignment (expression has type "FakeTensor", variable has type "int")  [assignment]',
        'Argument "in_dims" to "vmap" has incompatible type "float"; expected "int | Sequence[Any] | None"  '
        '[arg-type]',
        'Incompatible types in assignment (expression has type "Tensor", variable has type "int")  [assignment]',
    ], proc.stdout


def test_the_typed_example_checks_clean_and_runs():
    proc = mypy("examples/typed_custom_op.py")
    assert (proc.returncode, proc.stdout) == (0, ""), proc.stdout + proc.stderr
    run = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "typed_custom_op.py")],
                         capture_output=True, text=True, timeout=300,
                         env={**os.environ, "PYTHONPATH": os.path.dirname(PACKAGE_DIR)})
    assert run.returncode == 0, run.stderr
    assert "gradient matches: True" in run.stdout and "opcheck: ['SUCCESS']" in run.stdout
