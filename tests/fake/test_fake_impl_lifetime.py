"""Fake impls live as long as the Library they were registered with, as torch's FakeImplHolder."""

import pytest

import opyard
from opyard.fake import FakeTensorMode
from opyard.library import Library, register_fake


@pytest.fixture
def op():
    lib = Library("t_fil", "FRAGMENT")
    lib.define("f(Tensor x) -> Tensor")
    lib.impl("f", lambda x: x.clone(), "CPU")
    yield opyard.ops.t_fil.f.default
    lib._destroy()


def _fake_shape(op, n=3):
    with FakeTensorMode():
        return tuple(op(opyard.randn(n)).shape)


def _meta_shape(op, n=3):
    return tuple(op(opyard.randn(n, device="meta")).shape)


def test_a_fake_impl_disappears_with_its_library(op):
    L = Library("t_fil", "FRAGMENT")
    register_fake("t_fil::f", lambda x: x.new_empty(2), lib=L)
    assert _fake_shape(op) == (2,) and _meta_shape(op) == (2,)
    L._destroy()
    with pytest.raises(NotImplementedError, match=r"t_fil.f.default: it has no fake impl and no Meta kernel"):
        _fake_shape(op)
    with pytest.raises(NotImplementedError, match="attempted to run this operator with Meta tensors, but there was no "
                                                  "fake impl or Meta kernel registered"):
        _meta_shape(op)


@pytest.mark.filterwarnings("ignore:Overriding a previously registered kernel")  # torch warns too
def test_destroying_the_newer_library_uncovers_the_older_fake_impl(op):
    old, new = Library("t_fil", "FRAGMENT"), Library("t_fil", "FRAGMENT")
    register_fake("t_fil::f", lambda x: x.new_empty(2), lib=old)
    register_fake("t_fil::f", lambda x: x.new_empty(5), lib=new)
    assert _fake_shape(op) == (5,)
    new._destroy()
    assert _fake_shape(op) == (2,) and _meta_shape(op) == (2,)
    old._destroy()


def test_a_later_meta_kernel_is_not_overridden(op):
    L, M = Library("t_fil", "FRAGMENT"), Library("t_fil", "FRAGMENT")
    try:
        register_fake("t_fil::f", lambda x: x.new_empty(2), lib=L)
        M.impl("f", lambda x: x.new_empty(7), "Meta")
        assert _meta_shape(op) == (7,)  # the newest Meta kernel serves meta tensors
        assert _fake_shape(op) == (2,)  # FakeTensorMode prefers the fake impl, as torch
        L._destroy()
        assert _meta_shape(op) == (7,) and _fake_shape(op) == (7,)
    finally:
        L._destroy()
        M._destroy()


def test_allow_override_false(op):
    L, L2 = Library("t_fil", "FRAGMENT"), Library("t_fil", "FRAGMENT")
    try:
        register_fake("t_fil::f", lambda x: x.new_empty(2), lib=L, allow_override=False)  # first: fine
        with pytest.raises(RuntimeError, match=r"register_fake\(\.\.\.\): the operator t_fil::f already has "
                                               r"a fake impl registered at .*test_fake_impl_lifetime.py:\d+\."):
            register_fake("t_fil::f", lambda x: x.new_empty(5), lib=L, allow_override=False)
        assert _fake_shape(op) == (2,)  # the refused one left no trace
        L._destroy()
        register_fake("t_fil::f", lambda x: x.new_empty(4), lib=L2, allow_override=False)  # L's is gone
        assert _fake_shape(op) == (4,)
    finally:
        L._destroy()
        L2._destroy()


def test_allow_override_false_with_a_meta_kernel(op):
    M = Library("t_fil", "FRAGMENT")
    M.impl("f", lambda x: x.new_empty(9), "Meta")
    try:
        with pytest.raises(RuntimeError, match="already has a DispatchKey::Meta implementation via a "
                                               "pre-existing torch.library or TORCH_LIBRARY registration"):
            register_fake("t_fil::f", lambda x: x.new_empty(5), lib=M, allow_override=False)
    finally:
        M._destroy()


def test_refused_on_a_composite_implicit_autograd_op():
    lib = Library("t_filc", "FRAGMENT")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x.sin(), "CompositeImplicitAutograd")
    try:
        with pytest.raises(RuntimeError, match="We should not register a meta kernel directly to the operator "
                                               "'t_filc::g', because it has a CompositeImplicitAutograd kernel"):
            register_fake("t_filc::g", lambda x: x.new_empty(5), lib=lib)
        with pytest.raises(RuntimeError, match="already has an implementation for this device type via a "
                                               "pre-existing registration to DispatchKey::"
                                               "CompositeImplicitAutograd.CompositeImplicitAutograd operators "
                                               "do not need a fake impl"):
            register_fake("t_filc::g", lambda x: x.new_empty(5), lib=lib, allow_override=False)
        with FakeTensorMode():  # it decomposes instead
            assert opyard.ops.t_filc.g(opyard.randn(3)).shape == (3,)
    finally:
        lib._destroy()


def test_register_fake_refuses_a_non_function(op):
    with pytest.raises(TypeError, match=r"register_fake\(t_fil::f\): expected a function, got 3"):
        register_fake("t_fil::f", 3)


def test_custom_op_fake_impl_goes_with_the_op():
    @opyard.library.custom_op("t_filo::k", mutates_args=())
    def k(x: opyard.Tensor) -> opyard.Tensor:
        return x.clone()

    @k.register_fake
    def _(x):
        return x.new_empty(6)
    assert _fake_shape(opyard.ops.t_filo.k.default) == (6,)
    k._destroy()
    from opyard._library.fake_impl import FAKE_IMPLS
    assert "t_filo::k" not in FAKE_IMPLS


def test_get_ctx_on_meta_tensors_raises_torchs_message(op):
    L = Library("t_fil", "FRAGMENT")

    def nonzero_like(x):
        n = opyard.library.get_ctx().new_dynamic_size()
        return x.new_empty(n)
    try:
        register_fake("t_fil::f", nonzero_like, lib=L)
        with pytest.raises(RuntimeError, match=r"t_fil::f \(.*test_fake_impl_lifetime.py:\d+\): You're trying to "
                                               r"run this operator with meta Tensors \(as opposed to FakeTensors\)"):
            _meta_shape(op)
        shape_env = opyard.fake.ShapeEnv(allow_dynamic_output_shape_ops=True)
        with FakeTensorMode(shape_env=shape_env):
            y = op(opyard.randn(3))
        assert str(y.shape[0]).startswith("u")
    finally:
        L._destroy()
