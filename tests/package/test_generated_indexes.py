"""Every generated index is what ``make gen`` derives from the modules as they are: the built-in
operators' index (``_aten/_index.py``), the derivative table's (``autograd/derivatives/_index.py``)
and the batching rule modules' (``func/rules/_index.py``). A declaration added without ``make gen``
fails here, naming the stale file and the command."""

import pytest

from opyard import _gen
from opyard._aten import _table
from opyard.autograd.derivatives import _derive as derivatives


def test_every_generated_index_is_fresh():
    stale = _gen.stale()
    assert not stale, f"stale generated indexes (run `make gen`): {stale}"


def test_the_check_names_a_stale_index_and_fails(monkeypatch, capsys):
    monkeypatch.setattr(derivatives, "index_source", lambda: "BY_MODULE = {}\n")
    assert _gen.stale() == [derivatives.PATH]
    assert _gen.main(["--check"]) == 1
    assert "stale: autograd/derivatives/_index.py (run `make gen`)" in capsys.readouterr().out


def test_the_check_passes_and_writes_nothing_when_fresh(capsys):
    assert _gen.main(["--check"]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("source, names", [
    # QUALIFIED, ROWS, PACKETS and PACKET_ROWS are decoded on first read (Note [Packed operator index])
    (_table.index_source, {"SCHEMAS", "OUT", "_QUALIFIED", "PACKET_NAMES", "FUNCTIONS", "METHODS", "packet_schemas",
                           "packet_rows", "__getattr__"}),
    (derivatives.index_source, {"BY_MODULE", "NON_DIFFERENTIABLE", "PLAN", "MISSING"}),
    (_gen.rules_index_source, {"MODULES"}),
], ids=["aten", "derivatives", "rules"])
def test_each_index_is_python_defining_its_tables(source, names):
    namespace = {}
    exec(compile(source(), "<index>", "exec"), namespace)  # noqa: S102 -- the generated text
    assert names <= set(namespace)
