"""Examples of the torch.library 2.1 page and the dispatcher tutorial, with torch → opyard."""

import pytest

import opyard
from opyard.library import Library


def test_library_2_1_define_and_div_override():
    my_lib = Library("foo", "DEF")
    my_lib.define("sum(Tensor self) -> Tensor")
    assert opyard.ops.foo.sum.overloads() == ["default"]

    my_lib2 = Library("aten", "IMPL")

    def div_cpu(self, other):
        return self * (1 / other)

    opyard.library._warned_overrides.discard(("aten::div.Tensor", "CPU"))  # the warning is once per op and key
    try:
        with pytest.warns(UserWarning, match="Overriding"):
            my_lib2.impl("div.Tensor", div_cpu, "CPU")
        a, b = opyard.tensor([1.0, 4.0]), opyard.tensor([2.0, 8.0])
        assert (a / b).tolist() == [0.5, 0.5]
        assert "div_cpu" in opyard.dispatcher.dump_table("aten::div.Tensor")
    finally:
        my_lib2._destroy()
    assert "div_cpu" not in opyard.dispatcher.dump_table("aten::div.Tensor")
    my_lib._destroy()


def test_tutorial_myadd_with_autograd_kernel_and_autocast():
    m = Library("myops", "DEF")
    m.define("myadd(Tensor self, Tensor other) -> Tensor")

    def myadd_cpu(self_, other_):
        assert self_.shape == other_.shape
        return opyard.from_numpy(self_.contiguous().numpy() + other_.contiguous().numpy())

    m.impl("myadd", myadd_cpu, "CPU")

    def myadd(self, other):
        return opyard.ops.myops.myadd.default(self, other)

    class MyAddFunction(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, self, other):
            with opyard.dispatcher.below_autograd():
                return myadd(self, other)

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output, grad_output

    def myadd_autograd(self, other):
        return MyAddFunction.apply(self, other)

    m.impl("myadd", myadd_autograd, "Autograd")
    x = opyard.ones(3, requires_grad=True)
    y = opyard.ones(3)
    out = myadd(x, y)
    out.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0, 1.0]

    seen = []

    def myadd_autocast(self, other):
        with opyard.dispatcher.exclude("AutocastCPU"):
            seen.append(True)
            return myadd(opyard.amp.cached_cast(opyard.float16, self, "cpu"),
                         opyard.amp.cached_cast(opyard.float16, other, "cpu"))

    m.impl("myadd", myadd_autocast, "AutocastCPU")
    with opyard.amp.autocast("cpu", dtype=opyard.float16):
        r = myadd(opyard.ones(2), opyard.ones(2))
    assert seen and r.dtype is opyard.float16
    assert myadd(opyard.ones(2), opyard.ones(2)).dtype is opyard.float32


def test_builtin_autocast_policy():
    a = opyard.randn(2, 3)
    with opyard.amp.autocast("cpu", dtype=opyard.float16):
        assert opyard.mm(a, a.t()).dtype is opyard.float16
        assert (a + a).dtype is opyard.float32
        assert opyard.amp.is_autocast_enabled("cpu")
    assert not opyard.amp.is_autocast_enabled("cpu")
    assert opyard.amp.promote_type(opyard.float16, opyard.ones(1, dtype=opyard.float32), device_type="cpu") is opyard.float32


def test_autograd_not_implemented_fallback_pattern():
    m = Library("myops2", "DEF")
    m.define("noformula(Tensor x) -> Tensor")
    m.impl("noformula", lambda x: x * 2, "CPU")
    y = opyard.ops.myops2.noformula(opyard.ones(2, requires_grad=True))
    assert y.requires_grad
    with pytest.raises(RuntimeError, match="myops2::noformula"):
        y.sum().backward()

