"""Every Python block of README.md runs as written (``tests/support/readme_blocks.py`` says how blocks are marked)."""

import os

import opyard
import pytest

import readme_blocks

README = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "README.md")
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(opyard.__file__)))
BLOCKS = readme_blocks.blocks(README)


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    path = tmp_path_factory.mktemp("readme")
    readme_blocks.prepare(README, str(path))
    return str(path)


@pytest.mark.parametrize("block", BLOCKS, ids=[b.name for b in BLOCKS])
def test_block_runs_as_written(block, workdir):
    if block.kind == "skip":
        pytest.skip(f"marked in README.md: {block.arg}")
    if block.kind == "file":
        assert os.path.exists(os.path.join(workdir, block.arg))
        return
    env = {**os.environ, "PYTHONPATH": PACKAGE_DIR}
    proc = readme_blocks.run(block, workdir, env=env)
    assert proc.returncode == 0, f"README.md {block.name} failed:\n{proc.stdout}{proc.stderr}"


def test_every_python_block_is_seen():
    text = open(README, encoding="utf-8").read()
    assert len(BLOCKS) == text.count("```python\n") > 5
    assert not [b for b in BLOCKS if b.kind == "skip"], "a README block that does not run"
