"""Tables registered by one core call (``KernelLibrary.define_many`` / ``impl_many``) behave as the
same rows registered one at a time; the derivative kernels of the built-in ops are built on their
first call and then sit in the table themselves."""

import subprocess
import sys
import textwrap
import os
import warnings

import pytest

import opyard
from opyard import _core
from opyard._registration import KernelLibrary

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")
SCHEMAS = ["f(Tensor x) -> Tensor", "f.two(Tensor x, Tensor y) -> Tensor", "g(Tensor x) -> Tensor"]


def _cpu(x, *rest):
    return x + 1


def _meta(x, *rest):
    return opyard.empty_like(x)


def _cia(x):
    return opyard.ops.bulk_a.f(x) * 2


def _rows():
    return [("f", "CPU", _cpu, False), ("f", "Meta", _meta, False), ("f.two", "CPU", _cpu, False),
            ("g", "CompositeImplicitAutograd", _cia, False)]


def _table(ns):
    return {name: opyard.dispatcher.dump_table(f"{ns}::{name}") for name in ("f", "f.two", "g")}


def test_a_batch_registers_what_one_by_one_registers():
    one, many = KernelLibrary("bulk_a", "DEF"), KernelLibrary("bulk_b", "DEF")
    try:
        for s in SCHEMAS:
            one.define(s)
        for name, key, fn, _ in _rows():
            one.impl(name, fn, key)
        names = many.define_many(SCHEMAS)
        many.impl_many(_rows())
        assert names == ["bulk_b::f", "bulk_b::f.two", "bulk_b::g"]
        assert _table("bulk_a") == _table("bulk_b")
        x = opyard.ones(2)
        assert opyard.ops.bulk_b.f(x).tolist() == opyard.ops.bulk_a.f(x).tolist() == [2.0, 2.0]
        assert opyard.ops.bulk_b.f.two(x, x).tolist() == [2.0, 2.0]
        assert opyard.library.get_kernel("bulk_b::f", "CPU").call_boxed(
            opyard.dispatcher.DispatchKeySet("CPU"), x).tolist() == [2.0, 2.0]
        _core._check_invariants()
    finally:
        one._destroy()
        many._destroy()
    assert _core._find_op("bulk_b::f") is None
    assert not hasattr(opyard.ops.bulk_b, "f") or not opyard.ops.bulk_b.f.overloads()
    _core._check_invariants()


def test_a_refused_batch_registers_nothing():
    lib = KernelLibrary("bulk_c", "DEF")
    try:
        with pytest.raises(RuntimeError, match=r"\(bulk_c::f\) with the same name and overload name multiple times"):
            lib.define_many([SCHEMAS[0], SCHEMAS[0]])
        assert _core._find_op("bulk_c::f") is None
        with pytest.raises(opyard.SchemaError):
            lib.define_many([SCHEMAS[0], "g(Tensor x -> Tensor"])
        assert _core._find_op("bulk_c::f") is None
        lib.define_many(SCHEMAS)
        with pytest.raises(TypeError, match=r"_impl_many\(\): row 1: expected \(op_name, dispatch_key, kernel"):
            lib.impl_many([("f", "CPU", _cpu, False), ("f", "CPU")])
        with pytest.raises(RuntimeError, match="at Undefined"):
            lib.impl_many([("f", "CPU", _cpu, False), ("g", "Undefined", _cpu, False)])
        assert "CPU" not in opyard.dispatcher.dump("bulk_c::f")
        _core._check_invariants()
    finally:
        lib._destroy()


def test_a_shadowing_row_warns_like_impl():
    lib = KernelLibrary("bulk_d", "DEF")
    try:
        lib.define_many(SCHEMAS)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            lib.impl_many([("f", "CPU", _cpu, False), ("f", "CPU", _meta, False)])
        assert len(caught) == 1 and "operator: bulk_d::f\n  dispatch key: CPU" in str(caught[0].message)
        assert caught[0].filename == __file__
    finally:
        lib._destroy()


def run(code):
    env = {**os.environ, "PYTHONPATH": os.path.abspath(PYTHON_DIR)}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_derivative_kernels_are_built_on_first_use_and_then_called_directly():
    # A fresh interpreter: in this one, other tests have long differentiated sin.
    out = run("""
        import opyard
        from opyard import dispatcher

        def autograd_row():
            return next(l for l in dispatcher.dump("aten::sin").splitlines() if l.startswith("Autograd"))

        before = autograd_row()
        stand_in = opyard.library.get_kernel("aten::sin", "AutogradCPU")
        x = opyard.tensor([0.0, 1.0], requires_grad=True)
        x.sin().sum().backward()
        after = autograd_row()
        print(before.split(" :: ")[0] == after.split(" :: ")[0])  # same registration, same provenance
        print("_on_first_call" in before, "_on_first_call" in after)
        print([round(v, 4) for v in x.grad.tolist()])
        # The stand-in still works for whoever holds it, and forwards to the one real kernel.
        y = opyard.tensor([0.0], requires_grad=True)
        keys = dispatcher.DispatchKeySet("AutogradCPU") | dispatcher.DispatchKeySet("CPU")
        stand_in.call_boxed(keys, y).sum().backward()
        print(y.grad.tolist())
        opyard._core._check_invariants()
    """)
    assert out.splitlines() == ["True", "True False", "[1.0, 0.5403]", "[1.0]"]
