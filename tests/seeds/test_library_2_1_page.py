"""The examples of the torch.library 2.1 page, with torch replaced by opyard."""

import pytest

import opyard
from opyard.library import Library


def test_define_in_a_new_library():
    my_lib = Library("foo", "DEF")
    assert my_lib.define("sum(Tensor self) -> Tensor") == "sum"
    try:
        assert str(opyard.ops.foo.sum.default._schema) == "foo::sum(Tensor self) -> Tensor"
        my_lib.impl("sum", lambda self: self.sum(), "CPU")
        assert opyard.ops.foo.sum(opyard.tensor([1.0, 2.0])).item() == 3.0
    finally:
        my_lib._destroy()


def test_impl_overrides_an_aten_kernel():
    my_lib = Library("aten", "IMPL")

    def div_cpu(self, other):
        return self * (1 / other)

    opyard.library._warned_overrides.discard(("aten::div.Tensor", "CPU"))  # the warning is once per op and key
    with pytest.warns(UserWarning):
        my_lib.impl("div.Tensor", div_cpu, "CPU")
    try:
        a, b = opyard.tensor([1.0, 4.0]), opyard.tensor([2.0, 8.0])
        assert (a / b).tolist() == [0.5, 0.5]
        assert "div_cpu" in opyard.dispatcher.dump_table("aten::div.Tensor")
    finally:
        my_lib._destroy()
    assert "div_cpu" not in opyard.dispatcher.dump_table("aten::div.Tensor")


def test_fallthrough_kernel_and_decorators():
    lib = Library("foo21", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    try:
        @opyard.library.impl(lib, "twice", "CPU")
        def twice(x):
            return x * 2

        lib.impl("twice", opyard.library.fallthrough_kernel, "AutogradCPU")
        assert opyard.ops.foo21.twice(opyard.tensor([1.0])).tolist() == [2.0]
        @opyard.library.define(lib, "thrice(Tensor x) -> Tensor")
        def thrice(x):
            return x * 3

        assert opyard.ops.foo21.thrice(opyard.tensor([1.0])).tolist() == [3.0]
    finally:
        lib._destroy()
