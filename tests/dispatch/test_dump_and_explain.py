"""dump, dump_table and explain."""

import re

import pytest

import opyard
from opyard.dispatcher import dump, dump_table, explain
from opyard.library import Library


def _setup(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")

    def f_cpu(x):
        return "cpu"

    def f_math(x):
        return "math"

    lib.impl("f", f_cpu, "CPU")
    lib.impl("f", f_math, "CompositeImplicitAutograd")
    return lib


def test_dump_lists_registrations_with_provenance(ns):
    lib = _setup(ns)  # noqa: F841 (a Library lives as long as it is referenced)
    text = dump(f"{ns}::f")
    assert text.startswith(f"name: {ns}::f\nschema: {ns}::f(Tensor x) -> str\n")
    assert re.search(r"^CPU: registered at .*test_dump_and_explain.py:\d+ :: _setup.<locals>.f_cpu$", text, re.M)
    assert re.search(r"^CompositeImplicitAutograd\[alias\]: registered at .*test_dump_and_explain.py:\d+", text, re.M)


def test_dump_marks_shadowed_kernels_inactive(ns):
    lib = _setup(ns)  # noqa: F841 (a Library lives as long as it is referenced)
    over = Library(ns, "IMPL")
    with pytest.warns(UserWarning):
        over.impl("f", lambda x: "new", "CPU")
    text = dump(getattr(opyard.ops, ns).f)
    assert text.count("CPU: registered at") == 2 and "[inactive]" in text


def test_dump_table_reasons(ns):
    lib = _setup(ns)  # noqa: F841 (a Library lives as long as it is referenced)
    table = dump_table(getattr(opyard.ops, ns).f.default)
    assert "CPU: _setup.<locals>.f_cpu [kernel]\n" in table
    assert "Meta: _setup.<locals>.f_math [math kernel]\n" in table
    assert "AutogradMeta: _setup.<locals>.f_math [math kernel]\n" in table
    assert "Undefined: _setup.<locals>.f_math [math kernel]\n" in table
    assert "AutogradCPU: _setup.<locals>.f_math" not in table


def test_explain(ns, kt, capsys):
    lib = _setup(ns)  # noqa: F841 (a Library lives as long as it is referenced)
    e = explain(getattr(opyard.ops, ns).f, kt("CPU"))
    assert e.key == "CPU" and e.reason == "kernel" and e.kernel.endswith("f_cpu")
    assert "test_dump_and_explain.py" in e.provenance
    out = capsys.readouterr().out
    assert "dispatch key:  CPU" in out and "argument keys: DispatchKeySet(CPU)" in out
    e = explain(f"{ns}::f", kt("Meta"))
    assert e.key == "Meta" and e.reason == "math kernel"
    with opyard.dispatcher.exclude("Meta"):
        e = explain(f"{ns}::f", kt("Meta"))
    assert e.key == "Undefined" and repr(e.call_keys) == "DispatchKeySet()"


def test_unknown_op_in_introspection():
    with pytest.raises(RuntimeError, match="no operator named 'nope::nothing'"):
        dump_table("nope::nothing")
