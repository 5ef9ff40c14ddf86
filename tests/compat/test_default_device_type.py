"""The device type ``"default"`` registers at CompositeExplicitAutograd, in every registration API."""

import pytest

import opyard
from opyard.library import Library

NS = "compat_default"


@pytest.fixture
def lib():
    lib = Library(NS, "DEF")
    lib.define("f(Tensor x) -> Tensor")
    yield lib
    lib._destroy()


def triple(x):
    return x * 3


def _register_kernel(lib, fn):
    opyard.library.register_kernel(f"{NS}::f", "default", fn, lib=lib)


def _register_kernel_decorator(lib, fn):
    opyard.library.register_kernel(f"{NS}::f", "default", lib=lib)(fn)


def _impl_free_function(lib, fn):
    opyard.library.impl(f"{NS}::f", "default", fn, lib=lib)


def _impl_with_a_list(lib, fn):
    opyard.library.impl(f"{NS}::f", ["default"], lib=lib)(fn)


def _library_impl(lib, fn):
    lib.impl("f", fn, "default")


def _impl_2_1_decorator(lib, fn):
    opyard.library.impl(lib, "f", "default")(fn)


FORMS = [_register_kernel, _register_kernel_decorator, _impl_free_function, _impl_with_a_list, _library_impl,
         _impl_2_1_decorator]


@pytest.mark.parametrize("register", FORMS, ids=[f.__name__.lstrip("_") for f in FORMS])
def test_default_is_composite_explicit_autograd(lib, register):
    register(lib, triple)
    op = opyard.ops.compat_default.f.default
    assert op.has_kernel_for_dispatch_key("CompositeExplicitAutograd")
    assert not op.has_kernel_for_dispatch_key("CPU")
    assert opyard.ops.compat_default.f(opyard.ones(2)).tolist() == [3.0, 3.0]
    table = opyard.dispatcher.dump_table(op)
    assert "CPU: triple [default backend kernel]" in table
    assert "Meta: triple [default backend kernel]" in table  # CEA covers every backend, Meta included


def test_a_device_kernel_beats_the_default_one(lib):
    opyard.library.register_kernel(f"{NS}::f", "default", lambda x: x * 3, lib=lib)
    opyard.library.register_kernel(f"{NS}::f", "cpu", lambda x: x * 5, lib=lib)
    assert opyard.ops.compat_default.f(opyard.ones(1)).tolist() == [5.0]


def test_custom_op_with_default_device_types():
    @opyard.library.custom_op(f"{NS}::g", mutates_args=(), device_types="default")
    def g(x: opyard.Tensor) -> opyard.Tensor:
        return x + 1

    try:
        assert g._opoverload.has_kernel_for_dispatch_key("CompositeExplicitAutograd")
        assert g(opyard.zeros(1)).tolist() == [1.0]
    finally:
        g._destroy()


def test_custom_op_default_kernel_beside_a_device_kernel():
    @opyard.library.custom_op(f"{NS}::h", mutates_args=(), device_types="cpu")
    def h(x: opyard.Tensor) -> opyard.Tensor:
        return x + 1

    try:
        @h.register_kernel("default")
        def _(x):
            return x + 2
        assert h(opyard.zeros(1)).tolist() == [1.0]  # the cpu kernel wins on a cpu tensor
        table = opyard.dispatcher.dump_table(h._opoverload)
        assert "CPU: test_custom_op_default_kernel_beside_a_device_kernel.<locals>.h [kernel]" in table
        assert "CUDA: test_custom_op_default_kernel_beside_a_device_kernel.<locals>._ [default backend kernel]" \
            in table  # the default kernel serves the other devices
    finally:
        h._destroy()


def test_default_on_a_factory_needs_no_device_argument():
    @opyard.library.custom_op(f"{NS}::make", mutates_args=(), device_types="default")
    def make(n: int) -> opyard.Tensor:
        return opyard.ones(n)

    try:
        assert make(3).tolist() == [1.0, 1.0, 1.0]
    finally:
        make._destroy()


def test_unknown_device_types_still_name_the_valid_ones(lib):
    with pytest.raises(ValueError, match=r"unknown device type 'defualt'; the valid device types are "
                                         r"\['cpu', 'cuda', 'default', 'meta', 'privateuseone'\]"):
        opyard.library.register_kernel(f"{NS}::f", "defualt", lambda x: x)
