"""Every way of calling an OpOverload or a packet reaches the same body, and a held object follows
the registry.

`OpOverload` and `OpOverloadPacket` objects are called by vectorcall (Note [Vectorcall entries]):
a plain call, a call with keywords, `f(*args, **kwargs)` (the `tp_call` slot), `__call__` and
`functools.partial` must bind and dispatch alike, with the same results and errors. Each object
keeps the definition (or the overload list) it read last while the registry's definitions epoch
reads the same (Note [Definitions kept by the called object]): an object held across a
redefinition, a new overload or a destroyed library must see the change at its next call.
"""

import functools
import gc
import weakref

import pytest

import opyard
from opyard.library import Library

aten = opyard.ops.aten


def _outcome(fn, *args, **kwargs):
    try:
        out = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the error's class and message are what is compared
        return ("raised", type(e), str(e))
    return ("returned", out.tolist() if isinstance(out, opyard.Tensor) else out)


CALLS = [
    ((), {}),
    ((2.0,), {}),
    ((), {"alpha": 3.0}),
    ((), {"other": 1.0}),
    (("x",), {}),
    ((), {"bogus": 1}),
    ((1.0, 2.0, 3.0), {}),
]


@pytest.mark.parametrize("callable_", [aten.add, aten.add.Tensor, aten.add.Scalar],
                         ids=["packet", "Tensor", "Scalar"])
@pytest.mark.parametrize("extra, kwargs", CALLS)
def test_every_call_form_means_the_same(callable_, extra, kwargs):
    a = opyard.tensor([1.0, 2.0])
    args = (a, *extra) if extra or "other" in kwargs or "bogus" in kwargs else (a, a)
    plain = _outcome(callable_, *args, **kwargs)
    assert _outcome(lambda: callable_(*args, **kwargs)) == plain
    assert _outcome(callable_.__call__, *args, **kwargs) == plain
    assert _outcome(functools.partial(callable_, *args), **kwargs) == plain
    # The tuple/dict call (CALL_FUNCTION_EX with a dict goes through `tp_call`).
    assert _outcome(callable_, *list(args), **dict(kwargs)) == plain


def test_keyword_values_reach_the_kernel_by_name(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x, float a=1.0, *, float b=2.0) -> float")
    seen = []

    def kernel(x, a=1.0, *, b=2.0):
        seen.append((a, b))
        return a * 10 + b

    lib.impl("f", kernel, "CPU")
    op = getattr(opyard.ops, ns).f
    x = opyard.ones(1)
    assert op(x) == 12.0
    assert op(x, 3.0, b=4.0) == 34.0
    assert op.default(x, a=5.0) == 52.0
    assert op.default(x, b=7.0) == 17.0
    assert seen == [(1.0, 2.0), (3.0, 4.0), (5.0, 2.0), (1.0, 7.0)]
    with pytest.raises(TypeError, match=r"f\(\) got an unexpected keyword argument 'c'"):
        op.default(x, c=1.0)
    with pytest.raises(TypeError, match=r"f\(\) got multiple values for argument 'a'"):
        op(x, 1.0, a=2.0)


def test_held_overload_sees_a_redefinition_and_its_destruction(ns):
    # The kernel comes from a library of its own, so the operator outlives its definition and a
    # new definition reaches the same operator (a forgotten one would be a new operator).
    lib = Library(ns, "FRAGMENT")
    lib.define("g(Tensor x) -> int")
    kernels = Library(ns, "IMPL")
    kernels.impl("g", lambda x, n=5: n, "CPU")
    op = getattr(opyard.ops, ns).g.default
    x = opyard.ones(1)
    assert op(x) == 5
    with pytest.raises(TypeError, match="expected at most 1 argument"):
        op(x, 7)
    lib._destroy()
    with pytest.raises(RuntimeError, match=f"operator {ns}::g is no longer defined"):
        op(x)
    again = Library(ns, "FRAGMENT")
    again.define("g(Tensor x, int n=5) -> int")
    assert op(x) == 5, "the held OpOverload reads the new definition"
    assert op(x, 7) == 7
    again._destroy()
    kernels._destroy()


def test_held_packet_sees_a_new_overload(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("h(Tensor x) -> str")
    lib.impl("h", lambda x: "one", "CPU")
    packet = getattr(opyard.ops, ns).h
    x = opyard.ones(1)
    assert packet(x) == "one"
    with pytest.raises(TypeError, match="expected at most 1 argument"):
        packet(x, 2)
    lib.define("h.n(Tensor x, int n) -> str")
    lib.impl("h.n", lambda x, n: f"two {n}", "CPU")
    assert packet(x, 2) == "two 2", "the held packet reads the new overload list"
    assert packet(x) == "one"
    lib._destroy()


def test_a_call_that_redefines_its_own_operator_finishes_on_what_it_read(ns):
    # The kernel replaces the operator's definition while the call is running: the call in
    # flight finishes, the next call binds with the new definition.
    defs = {"now": Library(ns, "FRAGMENT")}
    defs["now"].define("k(Tensor x) -> int")
    op = getattr(opyard.ops, ns).k.default

    def kernel(x, n=-1):
        if n == -1:
            defs["now"]._destroy()
            defs["now"] = Library(ns, "FRAGMENT")
            defs["now"].define("k(Tensor x, int n=-1) -> int")
        return n

    kernels = Library(ns, "IMPL")
    kernels.impl("k", kernel, "CPU")
    x = opyard.ones(1)
    assert op(x) == -1
    assert op(x, 4) == 4
    defs["now"]._destroy()
    kernels._destroy()


def test_a_destroyed_kernel_is_released_though_the_overload_is_held(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("r(Tensor x) -> int")

    def kernel(x):
        return 3

    lib.impl("r", kernel, "CPU")
    op = getattr(opyard.ops, ns).r.default
    packet = getattr(opyard.ops, ns).r
    x = opyard.ones(1)
    assert op(x) == 3 and packet(x) == 3
    ref = weakref.ref(kernel)
    del kernel
    lib._destroy()
    gc.collect()
    assert ref() is None
