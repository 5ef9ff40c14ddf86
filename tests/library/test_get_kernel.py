"""get_kernel (the kernel a dispatch table holds for a key) and CustomOpDef.set_kernel_enabled, as torch's."""

import logging

import pytest

import opyard
from opyard import Tensor
from opyard.dispatcher import DispatchKey, DispatchKeySet
from opyard.library import Library, custom_op, get_kernel


# --- get_kernel --------------------------------------------------------------------------------------

CPU = DispatchKeySet("CPU")


@pytest.mark.parametrize("op", ["aten::sin", "aten::sin.default", opyard.ops.aten.sin.default])
@pytest.mark.parametrize("key", ["CPU", DispatchKey.CPU])
def test_get_kernel_of_a_builtin(op, key):
    kernel = get_kernel(op, key)
    assert repr(kernel).startswith("SafeKernelFunction(debug='registered at ") and "_aten" in repr(kernel)
    assert kernel.op_handle.name() == "aten::sin"
    assert kernel.call_boxed(CPU, opyard.tensor([0.0, 1.0])).tolist() == pytest.approx([0.0, 0.8414709848])


def test_get_kernel_keeps_the_kernel_it_found_when_a_new_one_is_registered():
    # torch's documented use: wrap the original kernel of a key.
    original = get_kernel("aten::sin", "CPU")

    def conditional_sin(keyset, x):
        return original.call_boxed(keyset, x) if bool((x < 0).any()) else opyard.zeros_like(x)
    lib = Library("aten", "IMPL")
    with pytest.warns(UserWarning, match="Overriding a previously registered kernel"):
        lib.impl("sin", conditional_sin, "CPU", with_keyset=True)
    try:
        assert opyard.sin(opyard.tensor([1.0, 2.0])).tolist() == [0.0, 0.0]
        assert opyard.sin(opyard.tensor([-1.0, 2.0])).tolist() == pytest.approx([-0.8414709848, 0.9092974268])
        assert get_kernel("aten::sin", "CPU").call_boxed(CPU, opyard.tensor([3.0])).tolist() == [0.0]
    finally:
        lib._destroy()
    assert opyard.sin(opyard.tensor([1.0])).tolist() == pytest.approx([0.8414709848])


def test_get_kernel_of_custom_ops_composites_autograd_and_fallbacks(ns):
    op = custom_op(f"{ns}::f", lambda x: x + 1, mutates_args=(), schema="(Tensor x) -> Tensor")
    x = opyard.ones(2)
    # A CompositeExplicitAutograd kernel fills the CPU slot; a CustomOpDef is accepted. Its Meta slot
    # holds torch's refusal until a fake impl is registered.
    assert get_kernel(op, "CPU").call_boxed(CPU, x).tolist() == [2.0, 2.0]
    with pytest.raises(RuntimeError, match="There was no fake impl registered for <CustomOpDef"):
        get_kernel(f"{ns}::f", "Meta").call_boxed(CPU, x)
    lib = Library(ns, "FRAGMENT")
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x * 3, "CompositeImplicitAutograd")
    assert get_kernel(f"{ns}::g", "AutogradCPU").call_boxed(CPU, x).tolist() == [3.0, 3.0]
    # An Autograd-key kernel registered with_keyset receives the keyset.
    autograd = get_kernel("aten::sin", "AutogradCPU")
    assert "autograd" in repr(autograd)
    assert autograd.call_boxed(CPU, opyard.tensor([0.0])).tolist() == [0.0]
    # A fallback: the operator is passed to it.
    assert "fake" in repr(get_kernel("aten::sin", "Fake"))


def test_get_kernel_of_a_fallthrough_cannot_be_called():
    kernel = get_kernel("aten::sin", "BackendSelect")
    with pytest.raises(RuntimeError, match=r"is a fallthrough: the dispatcher skips this key"):
        kernel.call_boxed(CPU, opyard.ones(1))


GET_KERNEL_ERRORS = [
    (lambda: get_kernel(opyard.ops.aten.sin, "CPU"), ValueError,
     r"^get_kernel\(aten\.sin\): got unexpected type for op: <class 'opyard\._ops\.OpOverloadPacket'>"),
    (lambda: get_kernel(3, "CPU"), ValueError, r"^get_kernel\(3\): got unexpected type for op: <class 'int'>"),
    (lambda: get_kernel("aten::sin", "Bogus"), ValueError, r"^Invalid dispatch key: Bogus$"),
    (lambda: get_kernel("aten::sin", 3), TypeError, r"expected dispatch_key as a str \(e\.g\. 'CPU'\) or a DispatchKey"),
    (lambda: get_kernel("aten::sin", "CompositeImplicitAutograd"), RuntimeError,
     r"^Alias keys do not have runtime kernel registrations\.$"),
    (lambda: get_kernel("aten::sin", "Autograd"), RuntimeError, r"^Alias keys do not have runtime kernel"),
    (lambda: get_kernel("aten::nope", "CPU"), RuntimeError, r"^operator aten::nope does not exist$"),
    (lambda: get_kernel("sin", "CPU"), RuntimeError, r"^operator sin does not exist$"),
    (lambda: get_kernel("aten::sin", "CPU").call_boxed(1, opyard.ones(1)), TypeError,
     r"call_boxed\(\): expected a DispatchKeySet as the first argument"),
    (lambda: get_kernel("aten::sin", "CPU").call_boxed(CPU, opyard.ones(1), opyard.ones(1)), RuntimeError,
     r"^aten::sin\(\) expected at most 1 argument\(s\) but received 2 argument\(s\)\. Declaration: "
     r"aten::sin\(Tensor self\) -> Tensor$"),
    (lambda: get_kernel("aten::sin", "CPU").call_boxed(CPU, x=opyard.ones(1)), RuntimeError,
     r"^aten::sin\(\) is missing value for argument 'self'\. Declaration: aten::sin\(Tensor self\) -> Tensor$"),
    (lambda: get_kernel("aten::add.Tensor", "CPU").call_boxed(CPU, opyard.ones(1), opyard.ones(1), beta=1),
     RuntimeError, r"^aten::add\(\) got an unexpected keyword argument 'beta'"),
]


@pytest.mark.parametrize("call, exc, match", GET_KERNEL_ERRORS)
def test_get_kernel_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_get_kernel_of_a_missing_kernel(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("bar(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError, match=rf"^no kernel for CPU for {ns}::bar$"):
        get_kernel(f"{ns}::bar", "CPU")


def test_get_kernel_forgets_destroyed_registrations(ns):
    lib = Library(ns, "FRAGMENT")
    lib.define("h(Tensor x) -> Tensor")
    lib.impl("h", lambda x: x * 2, "CPU")
    assert get_kernel(f"{ns}::h", "CPU").call_boxed(CPU, opyard.ones(1)).tolist() == [2.0]
    lib._destroy()
    from opyard.library import KERNEL_RECORDS

    assert f"{ns}::h" not in KERNEL_RECORDS
    with pytest.raises(RuntimeError, match="does not exist"):
        get_kernel(f"{ns}::h", "CPU")


# --- set_kernel_enabled ----------------------------------------------------------------------------

def _zeros_op(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        return opyard.zeros(1)
    return f


def test_set_kernel_enabled_disables_a_device_kernel_for_the_block(ns):
    f = _zeros_op(ns)
    x = opyard.ones(1)
    assert f(x).tolist() == [0.0]
    f.register_kernel("cpu", lambda x: opyard.ones(1))
    assert f(x).tolist() == [1.0]
    with f.set_kernel_enabled("cpu", enabled=False):
        assert f(x).tolist() == [0.0]
        assert getattr(opyard.ops, ns).f(x).tolist() == [0.0]  # the dispatcher's table, not a wrapper
    assert f(x).tolist() == [1.0]
    with pytest.raises(KeyError):
        with f.set_kernel_enabled("cpu", False):
            raise KeyError("boom")
    assert f(x).tolist() == [1.0]  # restored on exceptions


def test_set_kernel_enabled_nested_and_already_in_state_log(ns, caplog):
    f = _zeros_op(ns)
    f.register_kernel("cpu", lambda x: opyard.ones(1))
    x = opyard.ones(1)
    with caplog.at_level(logging.WARNING, logger="opyard._library.custom_op"):
        with f.set_kernel_enabled("cpu", False):
            with f.set_kernel_enabled("cpu", False):
                assert f(x).tolist() == [0.0]
            assert f(x).tolist() == [0.0]  # the inner block restores "disabled"
            with f.set_kernel_enabled("cpu", True):
                assert f(x).tolist() == [1.0]
            assert f(x).tolist() == [0.0]
        with f.set_kernel_enabled("cpu"):
            pass
        with f.set_kernel_enabled("cuda", False):
            pass
    messages = [r.getMessage() for r in caplog.records]
    assert messages == [
        "Attempted to disable kernel for cpu but it was already disabled.",
        "Attempted to enable kernel for cpu but it was already enabled.",
        "Attempted to disable kernel for cuda but no kernel was registered for this device type.",
    ]
    assert f(x).tolist() == [1.0]


def test_a_kernel_registered_while_disabled_stays_disabled(ns):
    f = _zeros_op(ns)
    x = opyard.ones(1)
    with f.set_kernel_enabled("cpu", False):
        f.register_kernel("cpu", lambda x: opyard.ones(1))
        assert f(x).tolist() == [0.0]
        f.register_kernel("cpu", lambda x: opyard.full((1,), 2.0))
        assert f(x).tolist() == [0.0]
    assert f(x).tolist() == [2.0]
