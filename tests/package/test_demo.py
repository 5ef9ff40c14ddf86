"""``python -m opyard``: the demo runs, and its command line answers ``--help`` and ``--version``."""

import os
import subprocess
import sys

import opyard
import pytest

PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(opyard.__file__)))


def run(*args):
    env = {**os.environ, "PYTHONPATH": PACKAGE_DIR}
    return subprocess.run([sys.executable, "-m", "opyard", *args], capture_output=True, text=True, env=env,
                          timeout=120)


def test_demo_tours_the_dispatcher():
    proc = run()
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert out.startswith(f"opyard {opyard.__version__}\n")
    for section in ("schema: mylib::myadd(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
                    "myadd(a, b, alpha=2) = tensor([3., 4., 5.])", "why that kernel?", "dispatch key:  CPU",
                    "dispatch table:", "Meta: main.<locals>.myadd_meta [kernel]"):
        assert section in out
    # The override runs the user's kernel; once its library is destroyed, the built-in one runs again.
    overridden, restored = out.splitlines()[-2:]
    assert overridden.endswith("kernels called: ['div_cpu']")
    assert restored.endswith("kernels called: [] (the built-in kernel)")
    assert proc.stderr == ""


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_describes_the_demo_without_running_it(flag):
    proc = run(flag)
    assert proc.returncode == 0
    assert proc.stdout.startswith("usage: python -m opyard [-h] [--version]")
    assert "A tour of opyard's dispatcher" in proc.stdout
    assert "dispatch table:" not in proc.stdout


def test_version():
    proc = run("--version")
    assert (proc.returncode, proc.stdout) == (0, f"opyard {opyard.__version__}\n")


def test_unknown_argument_is_refused():
    proc = run("--bogus")
    assert proc.returncode == 2
    assert "unrecognized arguments: --bogus" in proc.stderr
    assert proc.stdout == ""
