"""Registration under concurrent calls and from finalizers: no crash, no wrong
kernel, no deadlock (see Note [No foreign code under a lock] in the registry)."""

import faulthandler
import gc
import subprocess
import sys
import textwrap
import threading
import warnings

import pytest

import opyard
from opyard import _core
from opyard.library import Library

CALLERS = 8
ROUNDS = 150
HANG_LIMIT = 60  # seconds; a deadlock aborts the run with every thread's stack


@pytest.fixture
def hang_guard():
    """Abort (with tracebacks) instead of hanging if the test deadlocks."""
    faulthandler.dump_traceback_later(HANG_LIMIT, exit=True)
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-4)  # switch threads often: more interleavings
    yield
    sys.setswitchinterval(switch)
    faulthandler.cancel_dump_traceback_later()


def _register_and_destroy(ns, i):
    """One round of the registering thread: every kind of change, every way of destroying."""
    over = Library(ns, "IMPL")
    over.impl("f", lambda x, i=i: f"over{i}", "CPU")
    frag = Library(ns, "FRAGMENT")
    frag.define(f"g{i}(Tensor x) -> str")
    frag.impl(f"g{i}", lambda x: "g", "CPU")
    fb = Library("_", "IMPL")
    fb.fallback(lambda op, *a, **k: "fallback", "TESTING_ONLY_GenericMode")
    cyclic = Library(ns, "IMPL")
    cyclic.impl("f", lambda x: "cyclic", "Meta")
    cyclic.me = cyclic  # destroyed by the cyclic GC's finalizer
    del cyclic
    if i % 20 == 0:
        gc.collect()
    fb._destroy()
    del frag  # destroyed by its finalizer
    over._destroy()


@pytest.mark.filterwarnings("ignore:Overriding a previously registered kernel")
def test_callers_see_a_valid_kernel_while_another_thread_registers(ns, kt, hang_guard):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "base", "CPU")
    lib.impl("f", lambda x: "meta", "Meta")
    overload, packet = getattr(opyard.ops, ns).f.default, getattr(opyard.ops, ns).f
    cpu_ok = {"base"} | {f"over{i}" for i in range(ROUNDS)}
    meta_ok = {"meta", "cyclic"}
    errors, seen = [], [set() for _ in range(CALLERS)]
    stop = threading.Event()

    def caller(n):
        op = overload if n % 2 else packet
        x, allowed = (kt("CPU"), cpu_ok) if n < CALLERS // 2 else (kt("Meta"), meta_ok)
        try:
            while not stop.is_set():
                out = op(x)
                if out not in allowed:
                    errors.append(f"caller {n} ran the wrong kernel: {out!r}")
                    return
                seen[n].add(out)
        except Exception as e:  # any exception is a failure
            errors.append(f"caller {n}: {e!r}")

    def registrar():
        try:
            for i in range(ROUNDS):
                _register_and_destroy(ns, i)
        except Exception as e:
            errors.append(f"registrar: {e!r}")

    threads = [threading.Thread(target=caller, args=(n,), daemon=True) for n in range(CALLERS)]
    writer = threading.Thread(target=registrar, daemon=True)
    for t in threads:
        t.start()
    writer.start()
    writer.join(HANG_LIMIT / 2)
    stop.set()
    for t in threads:
        t.join(HANG_LIMIT / 4)
    assert not writer.is_alive() and not any(t.is_alive() for t in threads), "deadlock"
    assert errors == []
    assert all(s for s in seen), "every caller completed calls"
    gc.collect()
    assert overload(kt("CPU")) == "base" and overload(kt("Meta")) == "meta"
    assert not [n for n in opyard.library.find_dangling_impls() if n.startswith(f"{ns}::")]
    _core._check_invariants()


def test_a_kernel_may_destroy_its_own_library_mid_call(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "base", "CPU")
    over = Library(ns, "IMPL")
    state = {"inner": None}

    def kernel(x):
        over._destroy()
        # The table this call loaded is gone; this call still owns its kernel.
        state["inner"] = getattr(opyard.ops, ns).f.default(x)
        return "over"

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        over.impl("f", kernel, "CPU")
    op = getattr(opyard.ops, ns).f.default
    assert op(kt("CPU")) == "over"
    assert state["inner"] == "base"
    assert op(kt("CPU")) == "base"
    _core._check_invariants()


@pytest.mark.parametrize("script", [
    # A DEF library defines a schema whose compilation allocates enough to run
    # the cyclic GC, which finalizes an unreachable Library.
    """
    lib = Library('d2', 'DEF')
    gc.collect()
    l = Library('d1', 'FRAGMENT'); l.me = l; del l
    gc.set_threshold(300)
    lib.define('f(Tensor x, ' + ', '.join(f'int[] a{i}=[1]' for i in range(2000)) + ') -> Tensor')
    assert opyard._core._find_op('d2::f') is not None
    """,
    # Every kind of registration while cyclic garbage with kernels and
    # fallbacks is finalized at a GC threshold of 1.
    """
    gc.set_threshold(1)
    lib = Library('d3', 'DEF')
    for i in range(200):
        l = Library('d3', 'FRAGMENT'); l.me = l
        l.define(f'g{i}(Tensor x, int[] a=[1, 2], float b=0.5) -> Tensor')
        l.impl(f'g{i}', lambda x: x, 'CPU')
        f = Library('_', 'IMPL'); f.me = f
        f.fallback(lambda op, *a, **k: None, 'TESTING_ONLY_GenericMode')
        del l, f
        lib.define(f'h{i}(Tensor x, int[] a=[1, 2]) -> Tensor')
        lib.impl(f'h{i}', lambda x: x, 'CPU')
    gc.collect()
    assert not [n for n in opyard.library.find_dangling_impls() if n.startswith('d3::')]
    opyard._core._check_invariants()
    """,
], ids=["issue_reproducer", "threshold_1"])
def test_gc_finalizer_during_registration_does_not_deadlock(script):
    code = "import gc, opyard\nfrom opyard.library import Library\n"
    code += textwrap.dedent(script) + "\nprint('ok')\n"
    try:
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=HANG_LIMIT)
    except subprocess.TimeoutExpired:
        pytest.fail("registration deadlocked with a Library finalizer run by the GC")
    assert run.returncode == 0 and run.stdout.strip() == "ok", run.stderr[-2000:]
