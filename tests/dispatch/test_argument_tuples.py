"""Argument tuples kept for reuse between operator calls (Note [Reused argument tuples]).

An operator called by vectorcall packs its positional values into a tuple; one that nobody else
holds when the call returns is kept, emptied (`None` in every place), and filled by the next call of
its length. What must hold: a tuple someone kept (a mode's record, a finaliser's find) never
changes; a finaliser that runs while a tuple is emptied may call operators; every length and every
call form gives the values it was given.
"""

import gc

import pytest

import opyard
from opyard.library import Library
from opyard.overrides import TorchFunctionMode
from opyard.utils.python_dispatch import TorchDispatchMode


@pytest.fixture
def f(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x, Any obj) -> Tensor")
    lib.impl("f", lambda x, obj: x, "CPU")
    yield getattr(opyard.ops, ns).f
    lib._destroy()


class _Recorder(TorchFunctionMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.seen.append(args)
        return func(*args, **(kwargs or {}))


class _DispatchRecorder(TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.seen = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.seen.append(args)
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("mode_type", [_Recorder, _DispatchRecorder], ids=["function", "dispatch"])
def test_argument_tuples_a_mode_keeps_never_change(f, mode_type):
    xs = [opyard.full((1,), float(i)) for i in range(6)]
    mode = mode_type()
    with mode:
        for i, x in enumerate(xs):
            f(x, i)
    for i in range(20):  # later calls of the same length, outside the mode
        f(xs[i % 6], -i)
    recorded = [(a[0], a[1]) for a in mode.seen if len(a) == 2]
    assert len(recorded) == 6
    for i, (x, obj) in enumerate(recorded):
        assert x is xs[i] and obj == i


def test_a_kept_tuple_found_by_the_collector_is_not_refilled(ns):
    during = []
    found = []
    lib = Library(ns, "DEF")
    lib.define("h(Tensor x, Any obj) -> Tensor")

    def kernel(x, obj):
        during.append([o == (None, None) for o in found])
        return x

    lib.impl("h", kernel, "CPU")
    h = getattr(opyard.ops, ns).h
    a, b = opyard.ones(1), opyard.zeros(1)
    gc.disable()
    try:
        with _Recorder():
            h(a, 1)  # this call's tuple stays with the mode: no tuple of length 2 is kept now
        h(a, 1)  # a fresh tuple, kept emptied after the call
        found.extend(o for o in gc.get_objects() if type(o) is tuple and o == (None, None))
        assert found
        during.clear()
        assert h(b, 2) is b  # made its own tuple: the kept one is held by `found`
        assert during == [[True] * len(found)]
        assert all(o == (None, None) for o in found)
    finally:
        gc.enable()
        lib._destroy()


def test_a_finaliser_run_while_a_tuple_is_emptied_may_call_operators(f):
    seen = []

    class Finalised:
        def __del__(self):
            # Runs while the outer call's tuple releases its values.
            seen.append(f(opyard.full((2,), 7.0), "inner").tolist())

    x = opyard.ones(1)
    for _ in range(3):
        assert f(x, Finalised()) is x
    assert seen == [[7.0, 7.0]] * 3
    assert f(x, 1) is x


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_every_length_gets_its_own_values(ns, n):
    lib = Library(ns, "DEF")
    params = ", ".join(f"Any a{i}" for i in range(n - 1))
    lib.define(f"g(Tensor x{', ' + params if params else ''}) -> Any")
    lib.impl("g", lambda x, *rest: (x, rest), "CPU")
    g = getattr(opyard.ops, ns).g
    x = opyard.ones(1)
    for k in range(4):
        values = tuple(range(k, k + n - 1))
        out = g(x, *values)
        assert out[0] is x and out[1] == values
        # A result that holds the argument values: the next call does not change it.
        held = g(x, *values)
        g(x, *(v + 100 for v in values))
        assert held[1] == values
    lib._destroy()
