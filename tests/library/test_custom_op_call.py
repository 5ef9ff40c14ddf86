"""Calling a CustomOpDef: straight to its kernel through the Rust call path, outputs
checked after it (Note [Custom op call] in src/python/dispatch/custom_op.rs)."""

import sys

import pytest

import opyard
from opyard import Tensor
from opyard.library import custom_op
from opyard.library import CustomOpDef


@pytest.fixture
def ns(request):
    return f"t_coc_{request.node.name.split('[')[0][-40:]}"


def test_no_python_frame_between_the_call_and_the_kernel(ns):
    callers = []

    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        callers.append(sys._getframe(1).f_code.co_name)
        return x.clone()
    f(opyard.ones(1))
    assert callers == ["test_no_python_frame_between_the_call_and_the_kernel"]
    assert "__call__" not in CustomOpDef.__dict__  # the Rust base's call is the one used


def test_binding_errors_name_the_op(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor, n: int) -> Tensor:
        return x.clone()
    with pytest.raises(TypeError, match=rf"^{ns}::f\(\) Expected a value of type 'SymInt' for argument 'n' "
                                        r"but instead found type 'str'"):
        f(opyard.ones(1), "two")
    with pytest.raises(TypeError, match=rf"^{ns}::f\(\) is missing value for argument 'n'"):
        f(opyard.ones(1))
    with pytest.raises(TypeError, match=rf"^{ns}::f\(\) got an unexpected keyword argument 'm'"):
        f(opyard.ones(1), m=2)


def test_kernel_errors_pass_through_untouched(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        raise KeyError("from the kernel")
    with pytest.raises(KeyError, match="from the kernel"):
        f(opyard.ones(1))


def test_an_output_inside_a_list_argument_is_caught(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(xs: list[Tensor]) -> Tensor:
        return xs[1]
    with pytest.raises(RuntimeError, match=r"^f \(with implementation in .*\): The output of this custom operator"):
        f([opyard.ones(1), opyard.ones(1)])


def test_keyword_inputs_are_checked(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor, y: Tensor) -> Tensor:
        return y[0:1]
    with pytest.raises(RuntimeError, match="must not also be an input"):
        f(opyard.ones(2), y=opyard.ones(2))


def test_aliasing_raises_with_autograd_too(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        return x.view(-1)
    f.register_autograd(lambda ctx, g: g)
    with pytest.raises(RuntimeError, match="must not also be an input"):
        f(opyard.ones(2, requires_grad=True))
    with pytest.raises(RuntimeError, match="must not also be an input"):
        f(opyard.ones(2))  # no grad: the call site checks


def test_an_uninitialised_def_refuses_the_call():
    op = CustomOpDef.__new__(CustomOpDef)
    with pytest.raises(RuntimeError, match="create custom ops with opyard.library.custom_op"):
        op(opyard.ones(1))


def test_the_call_plan_is_set_once(ns):
    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        return x.clone()
    with pytest.raises(RuntimeError, match="already set"):
        f._set_call_plan(f._opoverload, "none", [], print)
    with pytest.raises(RuntimeError, match="unknown output check 'sometimes'"):
        CustomOpDef.__new__(CustomOpDef)._set_call_plan(f._opoverload, "sometimes", [], print)


def test_with_autograd_the_outputs_are_checked_once(ns, monkeypatch):
    from opyard._library import aliasing
    checks = []
    monkeypatch.setattr(aliasing, "check_aliasing", lambda *a: checks.append(a))

    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor) -> Tensor:
        return x.view(-1)
    f.register_autograd(lambda ctx, g: g)
    # The autograd kernel's check (made a no-op here) is the only one: the call site skips.
    f(opyard.ones(2, requires_grad=True))
    assert len(checks) == 1
    with pytest.raises(RuntimeError, match="must not also be an input"):
        f(opyard.ones(2))  # below autograd the call site checks, in Rust


def _outcome(fn, *args, **kwargs):
    try:
        out = fn(*args, **kwargs)
    except Exception as e:  # noqa: BLE001 - the error's class and message are what is compared
        return ("raised", type(e), str(e))
    return ("returned", out.tolist())


@pytest.mark.parametrize("args, kwargs", [
    ((2.0,), {}), ((), {"a": 3.0}), ((2.0, 4.0), {}), ((), {"b": 1.0}), (("x",), {}),
])
def test_every_call_form_means_the_same(ns, args, kwargs):
    import functools

    @custom_op(f"{ns}::f", mutates_args=())
    def f(x: Tensor, a: float = 1.0) -> Tensor:
        return x * a
    x = opyard.tensor([1.0, 2.0])
    plain = _outcome(f, x, *args, **kwargs)
    assert _outcome(lambda: f(x, *args, **kwargs)) == plain
    assert _outcome(f.__call__, x, *args, **kwargs) == plain
    assert _outcome(functools.partial(f, x), *args, **kwargs) == plain
    assert _outcome(f, *[x, *args], **dict(kwargs)) == plain


def test_a_subclass_with_its_own_call_keeps_it(ns):
    class Counted(CustomOpDef):
        calls = 0

        def __call__(self, *args, **kwargs):
            type(self).calls += 1
            return super().__call__(*args, **kwargs)

    def fn(x: Tensor) -> Tensor:
        return x.clone()
    op = Counted(ns, "f", "(Tensor x) -> Tensor", fn)
    op.register_kernel("cpu")(fn)
    x = opyard.ones(2)
    assert op(x).tolist() == [1.0, 1.0]
    op(x)
    op(*[x])
    assert Counted.calls == 3
    # The plain class still goes straight to the call path.

    @custom_op(f"{ns}::g", mutates_args=())
    def g(x: Tensor) -> Tensor:
        return x + 1
    assert g(x).tolist() == [2.0, 2.0] and Counted.calls == 3
