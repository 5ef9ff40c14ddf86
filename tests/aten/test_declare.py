"""``OpTable``: one declaration per built-in operator (schema, kernel, kind, in-place and ``out=``
forms), and the checks ``make gen`` makes over every module's declarations."""

import numpy as np
import pytest

import opyard
from opyard._aten import _declare, _table
from opyard._aten.common import out


def _double(self):
    return out(self._data * 2, self)


def test_a_declaration_fills_every_table():
    ops = _declare.OpTable()
    ops.op("twice(Tensor self) -> Tensor", kind="pointwise", inplace="twice_(Tensor(a!) self) -> Tensor(a!)",
           out="twice.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)")(_double)
    assert ops.SCHEMAS == ["twice(Tensor self) -> Tensor", "twice_(Tensor(a!) self) -> Tensor(a!)"]
    assert ops.KERNELS["twice"] is _double and set(ops.KERNELS) == {"twice", "twice_"}
    assert ops.KINDS == {"twice": "pointwise", "twice_": "inplace"}
    assert ops.OUT == [("twice.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "twice", False)]
    assert ops.COMPOSITE == {} and ops.META_KERNELS == {}


def test_the_in_place_form_writes_into_self_and_bumps_its_version():
    ops = _declare.OpTable()
    ops.op("twice(Tensor self) -> Tensor", inplace="twice_(Tensor(a!) self) -> Tensor(a!)")(_double)
    x = opyard.tensor([1.0, 2.5])
    v = x._version
    assert ops.KERNELS["twice_"](x) is x
    assert x.tolist() == [2.0, 5.0] and x._version == v + 1
    assert ops.KERNELS["twice_"].__name__ == "twice_"


@pytest.mark.parametrize("kwargs, kind, table", [
    ({}, "proxy", "KERNELS"),
    ({"kind": "composite"}, "composite", "COMPOSITE"),
    ({"meta": _double}, "own_meta", "KERNELS"),
])
def test_kinds(kwargs, kind, table):
    ops = _declare.OpTable()
    ops.op("twice(Tensor self) -> Tensor", **kwargs)(_double)
    assert ops.KINDS == {"twice": kind} and getattr(ops, table) == {"twice": _double}
    assert ops.META_KERNELS == ({"twice": _double} if "meta" in kwargs else {})


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match=r"^OpTable.op\('twice\(Tensor self\) -> Tensor'\): kind must be one of "
                                         r"\('pointwise', 'inplace', .*\), not 'pointwize'$"):
        _declare.OpTable().op("twice(Tensor self) -> Tensor", kind="pointwize")


def test_an_operator_declared_twice_in_one_table_is_refused():
    ops = _declare.OpTable()
    ops.op("twice(Tensor self) -> Tensor")(_double)
    with pytest.raises(ValueError, match=r"^OpTable: aten::twice is declared twice$"):
        ops.op("twice(Tensor self) -> Tensor")(_double)


def test_an_operator_declared_in_two_modules_stops_make_gen(monkeypatch):
    tables = {"a_ops": {"KERNELS": [("KERNELS", {"twice": _double})]},
              "b_ops": {"KERNELS": [("OPS.KERNELS", {"twice": _double})]}}
    monkeypatch.setattr(_table, "declaring_modules", lambda: tuple(tables))
    monkeypatch.setattr(_table, "_tables", lambda module: tables[module])
    with pytest.raises(RuntimeError, match=r"^aten::twice is declared in _aten/a_ops.py and in _aten/b_ops.py: "
                                           r"every operator has one declaration$"):
        _table.rows(["twice"])


def test_an_operator_without_a_kernel_stops_make_gen(monkeypatch):
    monkeypatch.setattr(_table, "declaring_modules", lambda: ())
    with pytest.raises(RuntimeError, match=r"^aten: operators defined without kernels: \['twice'\]$"):
        _table.rows(["twice"])


def test_the_index_rows_of_declared_tables_name_their_path():
    rows = {row[0]: row for row in _table.rows(_table.op_names())}
    assert rows["logit"][1:3] == ("trig_ops", "KERNELS")
    assert all(row[2] in ("KERNELS", "COMPOSITE", "EXPLICIT", "OPS.KERNELS", "OPS.COMPOSITE") for row in rows.values())
    assert np.all([row[4] is None or "." in row[4] for row in rows.values()])
