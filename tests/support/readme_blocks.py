"""Run the Python blocks of README.md as a reader would copy them.

Each ```python block runs as its own script (``__main__``) in a fresh interpreter, in
a scratch directory, with nothing from the block before it. A marker comment on the
line just above a block changes what happens to it:

- ``<!-- file: my_ops.py -->``: the block is a module that later blocks import; it is
  written into the scratch directory under that name instead of being run.
- ``<!-- torch -->``: the block is torch code, shown for comparison; it is run after
  ``opyard.install_as_torch()``, so it must run unchanged with opyard in torch's place.
- ``<!-- skip: REASON -->``: not run (the reason is reported by name).

``pytest tests/package/test_readme.py`` runs every block; ``python tests/support/readme_blocks.py README.md``
does the same outside pytest (CI runs it against the installed wheel, from outside the source tree).
"""

import os
import re
import subprocess
import sys
import tempfile

_FENCE = re.compile(r"^```(\S*)[^\n]*\n(.*?)^```\s*$", re.S | re.M)
_MARKER = re.compile(r"<!--\s*(file|torch|skip)\s*:?\s*(.*?)\s*-->\s*$")

TORCH_PRELUDE = "import opyard\nopyard.install_as_torch()\n"


class Block:
    """One fenced Python block: its source, first line number, and what its marker says to do."""

    def __init__(self, source, line, kind, arg):
        self.source, self.line, self.kind, self.arg = source, line, kind, arg

    @property
    def name(self):
        first = next((ln.strip() for ln in self.source.splitlines() if ln.strip()), "")
        return f"line {self.line}: {first[:50]}"


def blocks(readme_path):
    """The README's Python blocks, in order."""
    text = open(readme_path, encoding="utf-8").read()
    out = []
    for m in _FENCE.finditer(text):
        if m.group(1) != "python":
            continue
        before = text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1]
        marker = _MARKER.search(before)
        kind, arg = (marker.group(1), marker.group(2)) if marker else ("run", "")
        out.append(Block(m.group(2), text.count("\n", 0, m.start()) + 2, kind, arg))
    return out


def prepare(readme_path, workdir):
    """Write the README's module blocks into ``workdir``; return the blocks to run (run and torch)."""
    runnable = []
    for block in blocks(readme_path):
        if block.kind == "file":
            with open(os.path.join(workdir, block.arg), "w", encoding="utf-8") as f:
                f.write(block.source)
        elif block.kind in ("run", "torch"):
            runnable.append(block)
    return runnable


def run(block, workdir, python=sys.executable, env=None, timeout=300):
    """Run one block as a script in ``workdir``; return the finished process."""
    source = (TORCH_PRELUDE if block.kind == "torch" else "") + block.source
    path = os.path.join(workdir, f"readme_line_{block.line}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (workdir, env.get("PYTHONPATH")) if p)
    return subprocess.run([python, path], cwd=workdir, capture_output=True, text=True, timeout=timeout, env=env)


def main(readme_path):
    failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for block in prepare(readme_path, workdir):
            proc = run(block, workdir)
            status = "ok" if proc.returncode == 0 else "FAILED"
            print(f"{status:6} README.md {block.name}")
            if proc.returncode != 0:
                failed += 1
                print(proc.stdout + proc.stderr)
    for block in blocks(readme_path):
        if block.kind == "skip":
            print(f"skip   README.md {block.name} ({block.arg})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "README.md")))
