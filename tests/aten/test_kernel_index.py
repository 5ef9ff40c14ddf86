"""The built-in operators' index (``_aten/_index.py``) says what the kernel modules hold: import reads
every schema and each operator row's module, table, kind and meta kernel's table from it, and a
kernel module loads when a packet it serves is first defined (Note [Kernel modules on first use]).
That the index is what ``make gen`` derives: ``tests/package/test_generated_indexes.py``."""

import importlib
import os
import subprocess
import sys

import opyard
from opyard._aten import COMPOSITE_OPS, OP_NAMES, OP_TABLE, QUALIFIED, SCHEMAS, _index, _table


def test_index_is_what_the_kernel_modules_declare():
    assert _index.ROWS == _table.rows(OP_NAMES)
    assert _index.SCHEMAS == _table.schemas() and _index.OUT == _table.out_rows()
    assert (_index.FUNCTIONS, _index.METHODS) == _table.exposed(OP_NAMES)


def _grouped(names):
    found = {}
    for i, name in enumerate(names):
        found.setdefault("aten::" + name.split(".")[0], []).append(i)
    return {packet: tuple(positions) for packet, positions in found.items()}


def test_packets_try_their_overloads_in_torchs_order():
    A = opyard.ops.aten
    assert A.var.overloads()[:3] == ["dim", "correction", "default"]  # as torch's Tensor.var binding
    assert A.std_mean.overloads()[:3] == ["dim", "correction", "default"]
    assert A.sum.overloads()[:2] == ["dim_IntList", "default"]
    assert A.div.overloads()[:2] == ["Tensor", "Tensor_mode"]  # tensors before numbers (Note [Overload order])
    x = opyard.ones(3, 4)
    assert x.var(0).shape == (4,) and x.var().shape == () and x.var(unbiased=False).shape == ()


def test_prebuilt_packet_table_groups_every_schema_and_row():
    assert OP_NAMES == tuple(s.split("(")[0] for s in SCHEMAS) == _table.op_names()
    assert QUALIFIED == tuple("aten::" + n.removesuffix(".default") for n in OP_NAMES)
    # packet order kept; within a packet, torch's order of its overloads (the order a call tries them)
    assert list(_index.PACKETS.items()) == list(_table.packets(OP_NAMES).items())
    assert {p: sorted(found) for p, found in _index.PACKETS.items()} == \
        {p: sorted(found) for p, found in _grouped(OP_NAMES).items()}
    assert list(_index.PACKETS) == list(_grouped(OP_NAMES))
    assert list(_index.PACKET_ROWS.items()) == list(_grouped(row[0] for row in _index.ROWS).items())
    assert sorted(i for found in _index.PACKETS.values() for i in found) == list(range(len(SCHEMAS)))
    assert [row[0] for row in OP_TABLE] == [_index.ROWS[i][0] for found in _index.PACKET_ROWS.values()
                                            for i in found]


def test_out_overload_names_are_the_kernel_table_keys():
    from opyard._aten import out_variants
    assert out_variants.OUT_OPS == tuple(out_variants.EXPLICIT) == tuple(dict(out_variants.EXPLICIT.items()))
    assert all(out_variants.EXPLICIT[name] is kernel for name, kernel in out_variants.EXPLICIT.items())
    assert "mm.out" in out_variants.EXPLICIT and "mm" not in out_variants.EXPLICIT


def test_index_rows_name_every_operator_once_per_table():
    assert set(OP_NAMES) <= {row[0] for row in _index.ROWS}
    assert len({(row[0], row[2]) for row in _index.ROWS}) == len(_index.ROWS)
    assert COMPOSITE_OPS == {"aten::" + row[0] for row in _index.ROWS if row[3] == "composite"}


def _table_at(module, path):
    obj = importlib.import_module(f"opyard._aten.{module}")
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def test_op_table_kernels_are_the_modules_kernels():
    by_row = {(row[0], row[3]): row for row in _index.ROWS}
    for name, kernel, meta_kernel, kind in OP_TABLE:
        _, module, table, _, meta_table = by_row[name, kind]
        assert _table_at(module, table)[name] is kernel
        assert (meta_kernel is None) == (kind in ("composite", "explicit"))
        if meta_table is not None:
            assert _table_at(*meta_table.split(".", 1))[name] is meta_kernel


def test_import_loads_no_lazy_kernel_module_and_a_call_loads_its_own():
    code = """
import sys, opyard
def loaded():
    return {m.rpartition(".")[2] for m in sys.modules if m.startswith("opyard._aten.")}
before = loaded()
x = opyard.ones(2, 3)
y = opyard.ops.aten.one_hot(opyard.tensor([0, 2]), 3)
print(sorted({"composite_nn", "misc_ops", "sorting", "nn_ops", "trig_ops", "math_ops", "reduce_ops", "index_ops",
              "linalg"} & before), "nn_ops" in loaded(), y.tolist())
"""
    env = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split("\n")[0] == "[] True [[1, 0, 0], [0, 0, 1]]"
