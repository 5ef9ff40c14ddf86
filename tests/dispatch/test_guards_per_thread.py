"""Registration while other threads dispatch; guards are per thread and exception-safe."""

import threading

import pytest

import opyard
from opyard.dispatcher import DispatchKey, exclude, include, local_keysets
from opyard.library import Library


@pytest.mark.filterwarnings("ignore:Overriding a previously registered kernel")
def test_dispatch_while_registering_and_destroying(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "base", "CPU")
    op = getattr(opyard.ops, ns).f.default
    errors, results = [], set()
    stop = threading.Event()

    def caller():
        x = kt("CPU")
        while not stop.is_set():
            try:
                results.add(op(x))
            except Exception as e:  # any exception is a failure
                errors.append(e)
                return

    threads = [threading.Thread(target=caller) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        for i in range(300):
            over = Library(ns, "IMPL")
            over.impl("f", (lambda i: lambda x: f"over{i % 3}")(i), "CPU", allow_override=True)
            over._destroy()
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert errors == []
    assert "base" in results and results <= {"base", "over0", "over1", "over2"}
    opyard._core._check_invariants()


def test_guards_restore_after_exception():
    before = local_keysets()
    with pytest.raises(ValueError):
        with include(DispatchKey.Tracer), exclude(DispatchKey.AutogradCPU):
            inc, exc = local_keysets()
            assert inc.has(DispatchKey.Tracer) and exc.has(DispatchKey.AutogradCPU)
            raise ValueError("boom")
    assert local_keysets() == before


def test_guard_restored_when_kernel_raises(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")

    def autograd(x):
        with opyard.dispatcher.below_autograd():
            raise RuntimeError("kernel failed")

    lib.impl("f", autograd, "Autograd")
    before = local_keysets()
    with pytest.raises(RuntimeError, match="kernel failed"):
        getattr(opyard.ops, ns).f(kt("CPU", "AutogradCPU"))
    assert local_keysets() == before


def test_guards_are_thread_local():
    seen = {}

    def other():
        seen["other"] = local_keysets()

    with include("Tracer"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
        assert local_keysets()[0].has("Tracer")
    assert not seen["other"][0].has("Tracer")


def test_nested_guards_unwind_in_order():
    with include("Tracer"):
        with exclude("Tracer"):
            assert not local_keysets()[0].has("Tracer")
            assert local_keysets()[1].has("Tracer")
        assert local_keysets()[0].has("Tracer")
        assert not local_keysets()[1].has("Tracer")
