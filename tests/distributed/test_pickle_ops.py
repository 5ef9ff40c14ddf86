"""Operators and traced graphs travel by name: they resolve where they are unpickled, or say
precisely which module that process has to import."""

import os
import pickle
import subprocess
import sys

import extension_ops
import opyard
import pytest
from opyard.library import Library, custom_op

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))

# Unpickles operators in a fresh interpreter that can import the tests' modules but imported none of
# them, calls each (what a worker does with a task), then imports the extension module and calls the
# same unpickled objects again.
_LOAD_WITHOUT_IMPORT = """
import pickle, sys
sys.path.insert(0, {tests!r})
import opyard

def attempt(op, args):
    try:
        return op(*args).tolist()
    except Exception as e:
        return type(e).__name__ + ": " + str(e)

loaded = [(type(op).__name__, op, args) for op, args in pickle.loads(sys.stdin.buffer.read())]
before = [(kind, attempt(op, args)) for kind, op, args in loaded]
import extension_ops
after = [attempt(op, args) for _, op, args in loaded]
sys.stdout.buffer.write(pickle.dumps(list(zip(before, after))))
"""

# Runs pickled (function, args) pairs in a fresh interpreter that imported the extension module, and
# pickles the results back.
_RUN = """
import pickle, sys
sys.path.insert(0, {tests!r})
import extension_ops
calls = pickle.loads(sys.stdin.buffer.read())
sys.stdout.buffer.write(pickle.dumps([fn(*args) for fn, args in calls]))
"""


def in_child(script, payload):
    proc = subprocess.run([sys.executable, "-c", script.format(tests=TESTS_DIR)],
                          input=pickle.dumps(payload), capture_output=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


_X = [1.0, 2.0]
# name -> (the operator, the arguments a worker calls it with, the result when the module is imported)
UNIMPORTED = {
    "extension_ops::scaled_sin": (lambda: extension_ops.scaled_sin, (1.0,)),
    "extension_ops::scaled_sin.default": (lambda: opyard.ops.extension_ops.scaled_sin.default, (1.0,)),
    "extension_ops::scaled_sin ": (lambda: opyard.ops.extension_ops.scaled_sin, (1.0,)),  # the packet
    "extension_ops::axpy.default": (lambda: opyard.ops.extension_ops.axpy.default, (opyard.ones(2), 2.0)),
    "extension_ops::axpy": (lambda: opyard.ops.extension_ops.axpy, (opyard.ones(2), 2.0)),
}


@pytest.fixture(scope="module")
def unimported():
    x = opyard.tensor(_X)
    payload = [(make(), (x, *args)) for make, args in UNIMPORTED.values()]
    local = [op(*args).tolist() for op, args in payload]
    return dict(zip(UNIMPORTED, zip(pickle.loads(in_child(_LOAD_WITHOUT_IMPORT, payload)), local)))


@pytest.mark.parametrize("name", list(UNIMPORTED))
def test_unregistered_op_fails_when_used_naming_the_module_to_import(name, unimported):
    ((kind, error), _after), _local = unimported[name]
    assert kind == "UnresolvedOperator"
    assert error.startswith(f"RuntimeError: operator {name.strip()} was unpickled in a process where no "
                            "operator of that name is registered; it was defined in module 'extension_ops' "
                            "("), error
    assert "run `import extension_ops` in this process before unpickling it" in error


@pytest.mark.parametrize("name", list(UNIMPORTED))
def test_unresolved_op_resolves_once_the_module_is_imported(name, unimported):
    (_, after), local = unimported[name]
    assert after == local


def test_ops_resolve_to_the_registered_objects():
    op = opyard.ops.extension_ops.scaled_sin.default
    assert pickle.loads(pickle.dumps(extension_ops.scaled_sin)) is extension_ops.scaled_sin
    assert pickle.loads(pickle.dumps(op)) == op
    packet = pickle.loads(pickle.dumps(opyard.ops.extension_ops.axpy))
    x = opyard.ones(2)
    assert packet(x, x, 3.0).tolist() == [4.0, 4.0]


def test_op_defined_in_this_test_module_names_it(ns):
    lib = Library(ns, "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    data = pickle.dumps(getattr(opyard.ops, ns).twice.default)
    lib._destroy()
    opyard.ops._forget(f"{ns}::twice")
    op = pickle.loads(data)
    with pytest.raises(RuntimeError, match=rf"operator {ns}::twice.default was unpickled in a process where no "
                                           r"operator .* defined in module '[\w.]*test_pickle_ops' "
                                           r"\(.*test_pickle_ops.py:\d+\)"):
        op(opyard.ones(1))


def test_op_defined_outside_any_module_says_to_move_it(ns):
    scope = {"custom_op": custom_op, "opyard": opyard}
    source = (f"@custom_op('{ns}::f', mutates_args=())\ndef f(x: opyard.Tensor) -> opyard.Tensor:\n"
              "    return x.clone()\n")
    exec(source, scope)  # noqa: S102 (an operator defined outside any module file)
    data = pickle.dumps(scope["f"])
    scope["f"]._destroy()
    op = pickle.loads(data)
    # The decorator's line (Python 3.11 on) or the ``def`` line (3.10) is where the frame says it runs.
    line = 1 if sys.version_info >= (3, 11) else 2
    with pytest.raises(RuntimeError, match=rf"operator {ns}::f was unpickled .* defined at <string>:{line}, which a "
                                           "new process does not run: define the operator in an importable module"):
        op(opyard.ones(1))


def test_op_redefined_with_another_schema_is_refused(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> Tensor")
    data = pickle.dumps(getattr(opyard.ops, ns).f.default)
    lib._destroy()
    opyard.ops._forget(f"{ns}::f")
    lib2 = Library(ns, "DEF")
    lib2.define("f(Tensor x, int n) -> Tensor")
    op = pickle.loads(data)
    with pytest.raises(RuntimeError, match=rf"operator {ns}::f.default was pickled with the schema "
                                           rf"{ns}::f\(Tensor x\) -> Tensor but is defined in this process as "
                                           rf"{ns}::f\(Tensor x, int n\) -> Tensor; import the same version"):
        op(opyard.ones(1))
    lib2._destroy()


def test_custom_op_redefined_by_another_def_resolves_to_the_current_one(ns):
    def make(scale):
        @custom_op(f"{ns}::s", mutates_args=())
        def s(x: opyard.Tensor) -> opyard.Tensor:
            return x * scale
        return s
    old = make(2.0)
    data = pickle.dumps(old)
    new = make(3.0)
    assert pickle.loads(data) is new
    new._destroy()


# --- traced graphs ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def graph_runs():
    """Two traced graphs, run on new inputs in one other process: ``(graph, inputs, result there)``."""
    opyard.manual_seed(2)
    x, y = opyard.randn(2, 2), opyard.randn(2, 2)
    plain = opyard.fx.make_fx(lambda a, b: extension_ops.scaled_sin(a, 0.5).mm(b) + opyard.ones(2))(x, y)
    symbolic = opyard.fx.make_fx(extension_ops.padded_rows, tracing_mode="symbolic")(opyard.tensor([0, 1, 2, 0]))
    runs = [(plain, (opyard.randn(2, 2), opyard.randn(2, 2))), (symbolic, (opyard.tensor([3, 3, 3, 3, 0, 1]),))]
    results = pickle.loads(in_child(_RUN, runs))
    return [(gm, args, out) for (gm, args), out in zip(runs, results)]


def test_graph_module_reruns_in_another_process(graph_runs):
    gm, (x, y), out = graph_runs[0]
    assert opyard.allclose(out, gm(x, y)) and opyard.allclose(out, extension_ops.scaled_sin(x, 0.5).mm(y) + 1)


def test_symbolic_graph_module_defines_sym_size_where_loaded(graph_runs):
    gm, (x,), (zeros, shifted) = graph_runs[1]
    assert "aten.sym_size.int" in gm.code
    ref_zeros, ref_shifted = extension_ops.padded_rows(x)
    assert zeros.shape == ref_zeros.shape and shifted.tolist() == ref_shifted.tolist()


def test_unresolved_op_travels_on_and_resolves_where_registered(ns):
    lib = Library(ns, "DEF")
    lib.define("neg(Tensor x) -> Tensor")
    lib.impl("neg", lambda x: -x, "CPU")
    data = pickle.dumps(getattr(opyard.ops, ns).neg)
    lib._destroy()
    opyard.ops._forget(f"{ns}::neg")
    stand_in = pickle.loads(data)
    assert repr(stand_in) == f"<UnresolvedOperator {ns}::neg: not registered in this process>"
    again = pickle.loads(pickle.dumps(stand_in))
    assert type(again).__name__ == "UnresolvedOperator"
    lib = Library(ns, "DEF")
    lib.define("neg(Tensor x) -> Tensor")
    lib.impl("neg", lambda x: -x, "CPU")
    assert again(opyard.ones(2)).tolist() == [-1.0, -1.0]
    assert isinstance(pickle.loads(pickle.dumps(again)), opyard._ops.OpOverloadPacket)
    lib._destroy()
