"""Packet calls: the overload chosen per argument signature is cached, and the cache
never changes which overload a call runs (Note [Overload cache] in registry/resolve.rs)."""

import sys

import pytest

import opyard
from opyard.library import Library


@pytest.fixture
def packet(request):
    """A packet ``ns::f`` whose overloads record which one ran; ``define(schema)`` adds one."""
    ns = f"t_oc_{request.node.name.split('[')[0][-40:]}"
    libs = [Library(ns, "FRAGMENT")]
    ran = []

    def define(schema, lib=None):
        lib = lib or libs[0]
        lib.define(schema)
        name = schema.split("(")[0]
        overload = name.partition(".")[2] or "default"
        lib.impl(name, lambda *a, **k: ran.append(overload) or a[0], "CompositeExplicitAutograd")

    def call(*args, **kwargs):
        ran.clear()
        getattr(opyard.ops, ns).f(*args, **kwargs)
        return ran[-1]

    def new_library():
        libs.append(Library(ns, "FRAGMENT"))
        return libs[-1]

    call.define, call.new_library = define, new_library
    call.packet = lambda: getattr(opyard.ops, ns).f
    yield call
    for lib in reversed(libs):
        lib._destroy()


X = opyard.ones(2)


def test_a_new_overload_voids_what_was_cached(packet):
    packet.define("f.float(Tensor x, float y) -> Tensor")
    packet.define("f.other(Tensor x, str y) -> Tensor")
    assert packet(X, 2) == "float"  # by conversion
    assert packet(X, 2) == "float"
    assert packet.packet()._cached_signatures == 1
    later = packet.new_library()
    packet.define("f.int(Tensor x, int y) -> Tensor", later)
    assert packet.packet()._cached_signatures == 0
    assert packet(X, 2) == "int"  # matches without conversion now
    later._destroy()
    assert packet(X, 2) == "float"


def test_keyword_and_positional_calls_are_told_apart(packet):
    packet.define("f.kw(Tensor x, *, int alpha) -> Tensor")
    packet.define("f.pos(Tensor x, int beta) -> Tensor")
    for _ in range(2):
        assert packet(X, alpha=1) == "kw"
        assert packet(X, 1) == "pos"
        assert packet(X, beta=1) == "pos"
        assert packet(x=X, alpha=1) == "kw"
    assert packet.packet()._cached_signatures == 4


def test_none_bool_and_int_are_told_apart(packet):
    packet.define("f.int(Tensor x, int n) -> Tensor")
    packet.define("f.bool(Tensor x, bool flag) -> Tensor")
    packet.define("f.tensor(Tensor x, Tensor y) -> Tensor")
    packet.define("f.opt(Tensor x, int? n) -> Tensor")
    for _ in range(2):
        assert packet(X, 3) == "int"
        assert packet(X, True) == "bool"
        assert packet(X, X) == "tensor"
        assert packet(X, None) == "opt"


def test_a_value_out_of_range_is_resolved_every_time(packet):
    packet.define("f.int(Tensor x, int n) -> Tensor")
    packet.define("f.scalar(Tensor x, Scalar s) -> Tensor")
    assert packet(X, 2**63) == "scalar"  # not an int64: the Scalar overload takes it
    assert packet(X, 5) == "int"
    assert packet(X, 2**63) == "scalar"
    assert packet(X, 5) == "int"


def test_list_elements_and_lengths(packet):
    packet.define("f.two(Tensor x, int[2] s) -> Tensor")
    packet.define("f.ints(Tensor x, int[] s) -> Tensor")
    packet.define("f.floats(Tensor x, float[] s) -> Tensor")
    for _ in range(2):
        assert packet(X, [1, 2]) == "two"
        assert packet(X, [1, 2, 3]) == "two"  # as torch's: int[2] takes any length (its kernel checks it)
        assert packet(X, (1, 2)) == "two"
        assert packet(X, [1.0, 2.0]) == "floats"
        assert packet(X, [1, 2.5]) == "floats"
        assert packet(X, []) == "two"


def test_errors_are_unchanged_by_the_cache(packet):
    packet.define("f.int(Tensor x, int n) -> Tensor")
    packet.define("f.str(Tensor x, str s) -> Tensor")
    assert packet(X, 1) == "int"
    for _ in range(2):
        with pytest.raises(TypeError, match=r"failed to match any schema:\n.*Expected a value of type 'int'"):
            packet(X, 1.5)
        with pytest.raises(TypeError, match=r"failed to match any schema"):
            packet(X, 1, 2)


def test_a_kernel_sees_loud_binding_errors_after_a_cached_call(packet):
    packet.define("f.int(Tensor x, int n) -> Tensor")
    packet.define("f.str(Tensor x, str s) -> Tensor")
    packet(X, 1)
    packet(X, 1)  # a cache hit binds quietly; the quiet mode must not outlive it
    with pytest.raises(TypeError, match=r"Expected a value of type 'int' for argument 'n'"):
        getattr(opyard.ops, packet.packet()._qualified_op_name.split("::")[0]).f.int(X, "no")


def test_overload_attributes_are_cached_objects(packet):
    packet.define("f.int(Tensor x, int n) -> Tensor")
    packet.define("f(Tensor x) -> Tensor")
    p = packet.packet()
    assert p.int is p.int and p.default is p.default
    assert p.overloads() == ["int", "default"]  # a method of the class, not an overload
    with pytest.raises(AttributeError, match="has no overload name 'nope'"):
        _ = p.nope
    _ = p.default, p.int
    before = sys.getallocatedblocks()
    for _ in range(1000):
        _ = p.default
        _ = p.int
    assert sys.getallocatedblocks() - before < 50
