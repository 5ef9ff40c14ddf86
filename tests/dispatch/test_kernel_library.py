"""``opyard._registration``: the low-level registration the layers below ``opyard.library`` use."""

import warnings

import pytest

import opyard
from opyard._registration import KernelLibrary, fallthrough_kernel, fragment


def test_define_impl_call_and_destroy_restores():
    lib = KernelLibrary("regtest_a", "DEF")
    assert lib.define("twice(Tensor x) -> Tensor", tags=(opyard.Tag.pointwise,)) == "twice"
    lib.impl("twice", lambda x: x + x, "CPU")
    assert opyard.ops.regtest_a.twice(opyard.ones(2)).tolist() == [2.0, 2.0]
    assert opyard.Tag.pointwise in opyard.ops.regtest_a.twice.default.tags
    assert f"CPU: registered at {__file__}:" in opyard.dispatcher.dump("regtest_a::twice")
    lib._destroy()
    assert not hasattr(opyard.ops.regtest_a, "twice")
    with pytest.raises(RuntimeError, match=r"KernelLibrary.impl: this library \(regtest_a, DEF\) was destroyed"):
        lib.impl("twice", lambda x: x, "CPU")


def test_impl_takes_an_opoverload_and_default_key():
    lib = KernelLibrary("regtest_b", "DEF")
    lib.define("f(Tensor x) -> Tensor")
    op = opyard.ops.regtest_b.f.default
    lib.impl(op, lambda x: x * 3, "default")
    assert "CompositeExplicitAutograd[alias]: registered at" in opyard.dispatcher.dump(op)
    assert op(opyard.ones(1)).tolist() == [3.0]
    lib._destroy()


def test_override_warns_once_at_the_caller():
    lib = KernelLibrary("regtest_c", "DEF")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x, "CPU")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        lib.impl("g", lambda x: x, "CPU")
        lib.impl("g", lambda x: x, "CPU")
    assert len(caught) == 1 and caught[0].filename == __file__
    assert "operator: regtest_c::g\n  dispatch key: CPU" in str(caught[0].message)
    with pytest.raises(RuntimeError, match="regtest_c::g"):
        lib.impl("g", lambda x: x, "CPU", allow_override=False)
    lib._destroy()


def test_fallthrough_fallback_and_fragment():
    lib = KernelLibrary("_", "IMPL")
    lib.fallback(fallthrough_kernel, "TESTING_ONLY_GenericWrapper")
    assert opyard.library.fallthrough_kernel is fallthrough_kernel
    lib._destroy()
    with pytest.raises(NotImplementedError, match="should never be called"):
        fallthrough_kernel()
    frag = fragment("regtest_d")
    frag.define("h(Tensor x) -> Tensor")
    assert opyard.ops.regtest_d.h.default.name() == "regtest_d::h"


@pytest.mark.parametrize("schema, tags, error, match", [
    ("(Tensor x) -> Tensor", opyard.Tag.inplace, ValueError,
     r"Schema tagged with opyard.Tag.inplace requires the first positional argument to be mutable"),
    ("(Tensor x) -> Tensor", [opyard.Tag.pointwise, 3], TypeError,
     r"Library.define\('regtest_e_op\(Tensor x\) -> Tensor'\): tags must be opyard.Tag members .* got 3"),
])
def test_custom_op_keeps_library_define_tag_checks(schema, tags, error, match):
    # custom_op defines through a KernelLibrary; the checks Library.define makes still apply.
    with pytest.raises(error, match=match):
        opyard.library.custom_op("regtest_e::regtest_e_op", lambda x: x.clone(), mutates_args=(), schema=schema,
                                 tags=tags)
    assert not hasattr(opyard.ops.regtest_e, "regtest_e_op")
