"""Library kinds, lifetime, overrides, dangling impls and the decorator forms."""

import gc
import warnings

import pytest

import opyard
from opyard import library
from opyard.library import Library, fallthrough_kernel


def test_define_returns_name_and_op_appears(ns, kt):
    lib = Library(ns, "DEF")
    assert lib.define("sum(Tensor self) -> Tensor") == "sum"
    assert lib.define("sum.dim(Tensor self, int dim) -> Tensor") == "sum.dim"
    packet = getattr(opyard.ops, ns).sum
    assert packet.overloads() == ["default", "dim"]
    assert packet.default._schema.name == f"{ns}::sum"
    assert packet.dim.name() == f"{ns}::sum.dim"
    assert packet.default.overloadpacket == packet


@pytest.mark.parametrize("kind, exc, match", [
    ("DEFN", ValueError, "Unsupported kind: DEFN"),
    ("def", ValueError, "Unsupported kind: def"),
])
def test_bad_kind(ns, kind, exc, match):
    with pytest.raises(exc, match=match):
        Library(ns, kind)


def test_bad_dispatch_key(ns):
    with pytest.raises(RuntimeError, match="could not parse dispatch key: Cpu"):
        Library(ns, "IMPL", "Cpu")


def test_second_def_names_both_sites(ns):
    first = Library(ns, "DEF")
    with pytest.raises(RuntimeError, match=rf"Only a single Library\(\"{ns}\", \"DEF\"\).*test_library.py:\d+.*test_library.py:\d+"):
        Library(ns, "DEF")
    first._destroy()
    Library(ns, "DEF")  # the namespace is free again


def test_redefinition_rejected(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> Tensor")
    frag = Library(ns, "FRAGMENT")
    with pytest.raises(RuntimeError, match=rf"Tried to register an operator \({ns}::f\) with the same name"):
        frag.define("f(Tensor x) -> Tensor")


def test_define_in_impl_rejected(ns):
    with pytest.raises(RuntimeError, match="cannot define .* in an IMPL library"):
        Library(ns, "IMPL").define("f(Tensor x) -> Tensor")


def test_namespace_mismatch(ns):
    lib = Library(ns, "DEF")
    with pytest.raises(RuntimeError, match="does not match the Library's namespace"):
        lib.define("other::f(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError, match=r"Explicitly provided namespace \(other\)"):
        lib.impl("other::f", lambda x: x, "CPU")


def test_fallback_outside_global_namespace(ns):
    with pytest.raises(RuntimeError, match='global namespace "_"'):
        Library(ns, "IMPL").fallback(lambda op, *a: None, "CPU")


def test_fallback_needs_key():
    with pytest.raises(AssertionError, match="dispatch_key must not be empty for fallback"):  # torch's type
        Library("_", "IMPL").fallback(lambda op, *a: None)


def test_bad_schema_is_schema_error(ns):
    with pytest.raises(opyard.SchemaError):
        Library(ns, "DEF").define("f(Tensor x -> Tensor")


def test_bad_alias_analysis(ns):
    with pytest.raises(RuntimeError, match="^Invalid alias_analysis type"):
        Library(ns, "DEF").define("f(Tensor x) -> Tensor", alias_analysis="MAYBE")


def test_impl_requires_callable(ns):
    with pytest.raises(TypeError, match="^Input function is required to be a callable but found type <class .int.>"):
        Library(ns, "DEF").impl("f", 3, "CPU")


def test_destroy_restores_shadowed_kernel(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "original", "CPU")
    over = Library(ns, "IMPL")
    with pytest.warns(UserWarning, match="Overriding a previously registered kernel"):
        over.impl("f", lambda x: "override", "CPU")
    op = getattr(opyard.ops, ns).f
    assert op(kt("CPU")) == "override"
    over._destroy()
    assert op(kt("CPU")) == "original"
    opyard._core._check_invariants()


def test_override_warns_once(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "a", "CPU")
    with pytest.warns(UserWarning):
        lib.impl("f", lambda x: "b", "CPU")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        lib.impl("f", lambda x: "c", "CPU")


def test_allow_override_false_raises(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "a", "CPU")
    with pytest.raises(RuntimeError, match=r"This is not allowed since there's already a kernel registered from python "
                       r"overriding f's behavior for CPU dispatch key and \w+ namespace. .*registered at "
                       r".*test_library.py:\d+, and allow_override=False"):
        lib.impl("f", lambda x: "b", "CPU", allow_override=False)


def test_destroying_def_removes_op(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "a", "CPU")
    op = getattr(opyard.ops, ns).f.default
    lib._destroy()
    with pytest.raises(AttributeError, match="no attribute 'f'"):
        getattr(opyard.ops, ns).f
    with pytest.raises(RuntimeError, match="no longer defined"):
        op(kt("CPU"))
    with pytest.raises(RuntimeError, match="^Library object has been destroyed"):
        lib.define("g(Tensor x) -> Tensor")


def test_finalizer_destroys_unreferenced_library(ns):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> Tensor")
    del lib
    gc.collect()
    with pytest.raises(AttributeError):
        getattr(opyard.ops, ns).f
    Library(ns, "DEF")


def test_dangling_impl_goes_live_at_define(ns, kt):
    imp = Library(ns, "IMPL")
    imp.impl("late", lambda x: "late kernel", "CPU")
    assert f"{ns}::late" in library.find_dangling_impls()
    lib = Library(ns, "DEF")
    lib.define("late(Tensor x) -> str")
    assert f"{ns}::late" not in library.find_dangling_impls()
    assert getattr(opyard.ops, ns).late(kt("CPU")) == "late kernel"


def test_library_dispatch_key_is_default_and_must_agree(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    cpu = Library(ns, "IMPL", "CPU")
    cpu.impl("f", lambda x: "cpu")
    assert getattr(opyard.ops, ns).f(kt("CPU")) == "cpu"
    with pytest.raises(RuntimeError, match=r"inconsistent with the dispatch key of the enclosing Library \(CPU\)"):
        cpu.impl("f", lambda x: "meta", "Meta")


def test_empty_key_is_composite_implicit(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl("f", lambda x: "cia")
    assert getattr(opyard.ops, ns).f(kt("Meta", "AutogradMeta")) == "cia"
    assert "CompositeImplicitAutograd[alias]" in opyard.dispatcher.dump(f"{ns}::f")


def test_impl_accepts_opoverload(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    lib.impl(getattr(opyard.ops, ns).f.default, lambda x: "via overload", "CPU")
    assert getattr(opyard.ops, ns).f(kt("CPU")) == "via overload"


def test_fallthrough_kernel_is_not_callable():
    with pytest.raises(NotImplementedError, match="should never be called"):
        fallthrough_kernel()


def test_decorators_2_1(ns, kt):
    lib = Library(ns, "DEF")

    @library.define(lib, "double(Tensor x) -> str")
    def double(x):
        return "composite"

    @library.impl(lib, "double", "CPU")
    def double_cpu(x):
        return "cpu"

    assert getattr(opyard.ops, ns).double(kt("CPU")) == "cpu"
    assert getattr(opyard.ops, ns).double(kt("Meta")) == "composite"


def test_decorators_2_13(ns, kt):
    library.define(f"{ns}::g", "(Tensor x) -> str")

    @library.impl(f"{ns}::g", "cpu")
    def g_cpu(x):
        return "cpu"

    library.impl(f"{ns}::g", ["meta"], lambda x: "meta")
    assert getattr(opyard.ops, ns).g(kt("CPU")) == "cpu"
    assert getattr(opyard.ops, ns).g(kt("Meta")) == "meta"
    with pytest.raises(ValueError, match="Expected `qualname` to be of the form \"namespace::name\", but got noseparator"):
        library.define("noseparator", "(Tensor x) -> Tensor")


def test_with_keyset_kernel_gets_masked_keyset(ns, kt):
    lib = Library(ns, "DEF")
    lib.define("f(Tensor x) -> str")
    seen = []

    def autograd_kernel(keyset, x):
        seen.append(keyset)
        below = keyset & opyard.dispatcher.after_autograd_keyset
        return getattr(opyard.ops, ns).f.default.redispatch(below, x)

    lib.impl("f", autograd_kernel, "Autograd", with_keyset=True)
    lib.impl("f", lambda x: "cpu", "CPU")
    assert getattr(opyard.ops, ns).f(kt("CPU", "AutogradCPU")) == "cpu"
    assert repr(seen[0]) == "DispatchKeySet(CPU, AutogradCPU)"


def test_unknown_op_attribute(ns):
    Library(ns, "DEF")
    with pytest.raises(AttributeError, match=f"'{ns}' object has no attribute 'nope'"):
        getattr(opyard.ops, ns).nope
    lib = Library(ns, "FRAGMENT")
    lib.define("yes(Tensor x) -> Tensor")
    with pytest.raises(AttributeError, match="no overload name 'nope'"):
        getattr(opyard.ops, ns).yes.nope


def test_fallback_at_a_key_held_by_another_library_is_refused_as_torch():
    first = Library("_", "IMPL")
    first.fallback(lambda op, *a, **k: None, "TESTING_ONLY_GenericWrapper")
    second = Library("_", "IMPL")
    try:
        with pytest.raises(RuntimeError, match=r"^Tried to register multiple backend fallbacks for the same dispatch "
                                               r"key TESTING_ONLY_GenericWrapper; previous registration registered at "
                                               r".*test_library\.py:\d+, new registration registered at .*"
                                               r"test_library\.py:\d+ \(Library\.fallback: _destroy\(\)"):
            second.fallback(lambda op, *a, **k: None, "TESTING_ONLY_GenericWrapper")
        with pytest.raises(RuntimeError, match="multiple backend fallbacks"):
            first.fallback(lambda op, *a, **k: None, "TESTING_ONLY_GenericWrapper")
    finally:
        first._destroy()
    second.fallback(lambda op, *a, **k: None, "TESTING_ONLY_GenericWrapper")  # the key is free again
    second._destroy()
    garbage = Library("_", "IMPL")
    garbage.me = garbage  # unreachable after del, until the collector runs: it gives the key up
    garbage.fallback(lambda op, *a, **k: None, "TESTING_ONLY_GenericWrapper")
    del garbage
    third = Library("_", "IMPL")
    third.fallback(lambda op, *a, **k: None, "TESTING_ONLY_GenericWrapper")
    third._destroy()
