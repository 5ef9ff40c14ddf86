"""Binding: positional vs kwarg-only, defaults not passed, type errors, overload choice."""

import pytest

import opyard
from opyard.library import Library


def _op(ns, schema, kernel, key="CPU"):
    lib = Library(ns, "FRAGMENT")
    name = lib.define(schema)
    lib.impl(name, kernel, key)
    packet = getattr(opyard.ops, ns)
    base, _, overload = name.partition(".")
    return lib, getattr(getattr(packet, base), overload or "default")


def _record(*args, **kwargs):
    return (tuple(a if not hasattr(a, "label") else a.label for a in args), kwargs)


SCHEMA = "f(Tensor x, int a=1, float b=2.5, *, bool flag=False, str mode=\"m\") -> Any"


@pytest.mark.parametrize("args, kwargs, expected_args, expected_kwargs", [
    ((), {}, (), {}),
    ((1,), {}, (), {}),
    ((5,), {}, (5,), {}),
    ((1, 2.5), {}, (), {}),
    ((1, 3.0), {}, (1, 3.0), {}),
    ((), {"b": 4.0}, (1, 4.0), {}),
    ((), {"a": 7}, (7,), {}),
    ((), {"flag": True}, (), {"flag": True}),
    ((), {"flag": False, "mode": "m"}, (), {}),
    ((2,), {"mode": "z"}, (2,), {"mode": "z"}),
    ((1, 2), {}, (1, 2.0), {}),  # int for float is converted
])
def test_defaults_are_not_passed(ns, kt, args, kwargs, expected_args, expected_kwargs):
    _, op = _op(ns, SCHEMA, _record)
    got_args, got_kwargs = op(kt("CPU", label="x"), *args, **kwargs)
    assert got_args == ("x",) + expected_args
    assert [type(a) for a in got_args[1:]] == [type(a) for a in expected_args]
    assert got_kwargs == expected_kwargs


def test_tensor_kwarg_positional_parameter(ns, kt):
    _, op = _op(ns, "f(Tensor x, Tensor y) -> Any", _record)
    assert op(y=kt("CPU", label="b"), x=kt("CPU", label="a")) == (("a", "b"), {})


def test_kwarg_only_tensor_is_dispatchable(ns, kt):
    lib, op = _op(ns, "f(Tensor x, *, Tensor? out=None) -> Any", lambda x, *, out=None: "cpu")
    lib.impl("f", lambda x, *, out=None: "meta", "Meta")
    assert op(kt("CPU")) == "cpu"
    assert op(kt("CPU"), out=kt("Meta")) == "meta"


def test_tensor_list_keys(ns, kt):
    lib, op = _op(ns, "f(Tensor[] xs) -> Any", lambda xs: "cpu")
    lib.impl("f", lambda xs: "meta", "Meta")
    assert op([kt("CPU"), kt("CPU")]) == "cpu"
    assert op((kt("CPU"), kt("Meta"))) == "meta"


def test_optional_tensor_list(ns, kt):
    _, op = _op(ns, "f(Tensor self, Tensor?[] indices) -> Any", lambda s, i: len(i))
    assert op(kt("CPU"), [None, kt("CPU")]) == 2


def test_fixed_int_list_accepts_single_int(ns, kt):
    _, op = _op(ns, "f(Tensor x, int[2] size) -> Any", lambda x, size: size)
    assert op(kt("CPU"), 3) == [3, 3]
    assert op(kt("CPU"), [1, 2]) == [1, 2]


ERRORS = [
    ((1, 2, 3, 4), {}, TypeError, r"expected at most 3 argument\(s\) but received 5 argument\(s\)"),
    ((), {"nope": 1}, TypeError, r"got an unexpected keyword argument 'nope'"),
    ((1,), {"a": 2}, TypeError, r"got multiple values for argument 'a'"),
    (("s",), {}, TypeError, r"Expected a value of type 'int' for argument 'a' but instead found type 'str'\.\nPosition: 1\nValue: 's'"),
    ((True,), {}, TypeError, r"Expected a value of type 'int' for argument 'a' but instead found type 'bool'"),
    ((1, "x"), {}, TypeError, r"type 'float' for argument 'b'"),
    ((), {"flag": 1}, TypeError, r"type 'bool' for argument 'flag'"),
]


@pytest.mark.parametrize("args, kwargs, exc, match", ERRORS)
def test_binding_errors_quote_the_schema(ns, kt, args, kwargs, exc, match):
    _, op = _op(ns, "f(Tensor x, int a=1, float b=2.5, *, bool flag=False) -> Any", _record)
    with pytest.raises(exc, match=match) as info:
        op(kt("CPU"), *args, **kwargs)
    assert f"{ns}::f(Tensor x, int a=1, float b=2.5, *, bool flag=False) -> Any" in str(info.value)


def test_missing_argument(ns, kt):
    _, op = _op(ns, "f(Tensor x, Tensor y) -> Any", _record)
    with pytest.raises(TypeError, match="is missing value for argument 'y'"):
        op(kt("CPU"))


def test_non_tensor_for_tensor(ns):
    _, op = _op(ns, "f(Tensor x) -> Any", _record)
    with pytest.raises(TypeError, match=r"Expected a value of type 'Tensor' for argument 'x' but instead found type 'int'"):
        op(3)


def test_errors_raised_before_dispatch(ns, kt):
    calls = []
    _, op = _op(ns, "f(Tensor x, int a) -> Any", lambda *a: calls.append(a))
    with pytest.raises(TypeError):
        op(kt("CPU"), 1.5)
    assert calls == []


def test_kernel_exceptions_pass_through(ns, kt):
    def boom(x):
        raise KeyError("from kernel")

    _, op = _op(ns, "f(Tensor x) -> Any", boom)
    with pytest.raises(KeyError, match="from kernel"):
        op(kt("CPU"))


def test_overload_prefers_exact_match(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("g.float(Tensor x, float v) -> str")
    lib.define("g.int(Tensor x, int v) -> str")
    lib.define("g.Tensor(Tensor x, Tensor v) -> str")
    lib.impl("g.float", lambda x, v: "float", "CPU")
    lib.impl("g.int", lambda x, v: "int", "CPU")
    lib.impl("g.Tensor", lambda x, v: "Tensor", "CPU")
    g = getattr(opyard.ops, ns).g
    assert g(kt("CPU"), 2) == "int"        # exact beats conversion though float is first
    assert g(kt("CPU"), 2.0) == "float"
    assert g(kt("CPU"), kt("CPU")) == "Tensor"
    with pytest.raises(TypeError, match="failed to match any schema"):
        g(kt("CPU"), "s")


def test_overload_falls_back_to_registration_order(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("h.a(Tensor x, float v) -> str")
    lib.define("h.b(Tensor x, float w) -> str")
    lib.impl("h.a", lambda x, v: "a", "CPU")
    lib.impl("h.b", lambda x, w: "b", "CPU")
    assert getattr(opyard.ops, ns).h(kt("CPU"), 1) == "a"
    assert getattr(opyard.ops, ns).h(kt("CPU"), w=1.0) == "b"


def test_factory_dispatches_on_device(ns):
    lib = Library(ns, "DEF")
    lib.define("make(int n, *, Device? device=None) -> str")
    lib.impl("make", lambda n, *, device=None: "cpu", "CPU")
    lib.impl("make", lambda n, *, device=None: "meta", "Meta")
    make = getattr(opyard.ops, ns).make
    assert make(3) == "cpu"
    assert make(3, device="meta") == "meta"
    assert make(3, device=opyard.device("meta")) == "meta"
    with pytest.raises(RuntimeError, match="Expected one of cpu, cuda, meta"):
        make(3, device="tpu")


def test_no_tensor_op_uses_undefined_slot(ns):
    lib = Library(ns, "DEF")
    lib.define("const(int n) -> int")
    lib.impl("const", lambda n: n + 1, "CompositeExplicitAutograd")
    assert getattr(opyard.ops, ns).const(1) == 2


def test_method_binding(ns, kt):
    _, op = _op(ns, "f(Tensor x, int a=1) -> Any", _record)

    class Holder(kt):
        pass

    Holder.f = op
    h = Holder("CPU", label="self")
    assert h.f(4) == (("self", 4), {})
    assert Holder.f is op
