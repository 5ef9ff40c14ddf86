"""TorchDispatchMode: a thread-local stack of modes seeing every operator below autograd."""

import threading

import opyard
import pytest
from opyard.fake import FakeTensor, FakeTensorMode
from opyard.fx import make_fx
from opyard.utils.python_dispatch import (
    TorchDispatchMode,
    _get_current_dispatch_mode,
    _get_current_dispatch_mode_stack,
    _len_torch_dispatch_stack,
    _pop_mode_temporarily,
)

aten = opyard.ops.aten
PYTHON = opyard.dispatcher.DispatchKey.Python


class LoggingMode(TorchDispatchMode):
    def __init__(self, name="log", sink=None):
        super().__init__()
        self.name = name
        self.log = [] if sink is None else sink

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.log.append(str(func) if self.name == "log" else (self.name, str(func)))
        return func(*args, **(kwargs or {}))


def test_logging_mode_sees_forward_and_backward_ops():
    x = opyard.randn(3, requires_grad=True)
    y = opyard.randn(3)
    with LoggingMode() as m:
        (x * y).sum().backward()
    assert m.log[:2] == ["aten.mul.Tensor", "aten.sum.default"]
    # torch 2.15 logs the same backward ops (plus AccumulateGrad's detach).
    assert m.log[2:] == ["aten.ones_like.default", "aten.expand.default", "aten.mul.Tensor"]
    assert x.grad.tolist() == pytest.approx(y.tolist())


def test_factories_and_custom_ops_are_seen(ns):
    lib = opyard.library.Library(ns, "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * 2, "CPU")
    with LoggingMode() as m:
        out = getattr(opyard.ops, ns).twice(opyard.zeros(2))
    # the kernel's own mul runs while the mode is popped, as in torch
    assert m.log == ["aten.zeros.default", f"{ns}.twice.default"]
    assert out.tolist() == [0.0, 0.0]
    lib._destroy()


def test_the_python_key_is_included_only_while_a_mode_is_active():
    assert not opyard.dispatcher.DispatchKeySet(PYTHON).raw() & opyard._core._local_keysets()[0].raw()
    with LoggingMode():
        assert opyard._core._local_keysets()[0].has(PYTHON)
        with _pop_mode_temporarily():
            assert not opyard._core._local_keysets()[0].has(PYTHON)
        assert opyard._core._local_keysets()[0].has(PYTHON)
    assert not opyard._core._local_keysets()[0].has(PYTHON)


def test_modes_nest_innermost_first_and_are_popped_inside():
    seen = []

    class Probe(LoggingMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((self.name, str(func), _get_current_dispatch_mode()))
            return func(*args, **(kwargs or {}))

    outer, inner = Probe("outer"), Probe("inner")
    x = opyard.ones(2)
    with outer:
        with inner:
            assert _get_current_dispatch_mode_stack() == [outer, inner]
            x.neg()
    assert seen == [("inner", "aten.neg.default", outer), ("outer", "aten.neg.default", None)]
    assert _len_torch_dispatch_stack() == 0 and _get_current_dispatch_mode() is None


def test_mode_is_restored_after_an_exception():
    class Boom(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        with Boom():
            opyard.ones(1)
    assert _len_torch_dispatch_stack() == 0
    assert not opyard._core._local_keysets()[0].has(PYTHON)


def test_modes_are_per_thread():
    found = []
    with LoggingMode():
        t = threading.Thread(target=lambda: found.append(
            (_get_current_dispatch_mode(), opyard._core._local_keysets()[0].has(PYTHON))))
        t.start()
        t.join()
    assert found == [(None, False)]


def test_mode_that_does_not_define_torch_dispatch():
    with pytest.raises(NotImplementedError, match="Bare must define __torch_dispatch__"):
        class Bare(TorchDispatchMode):
            pass

        with Bare():
            opyard.ones(1)


def test_mode_result_is_checked():
    class Wrong(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return "nope"

    x = opyard.ones(1)
    with pytest.raises(RuntimeError, match=r"^Unable to cast nope to Tensor: Wrong.__torch_dispatch__ returned it for aten.neg.default"):
        with Wrong():
            x.neg()


class Boxed(opyard.Tensor):
    """A wrapper holding one tensor."""

    @staticmethod
    def __new__(cls, inner):
        out = opyard.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype)
        out.inner = inner
        return out

    def __init__(self, inner):
        pass

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        args = [a.inner if isinstance(a, Boxed) else a for a in args]
        return Boxed(func(*args, **(kwargs or {})))


def test_mode_sees_wrapper_subclass_ops_first_then_the_subclass():
    seen = []

    class Types(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append((str(func), types))
            return func(*args, **(kwargs or {}))

    b = Boxed(opyard.tensor([1.0, -2.0]))
    with Types():
        out = b.abs()
    assert seen == [("aten.abs.default", (Boxed,))]
    assert type(out) is Boxed and out.inner.tolist() == [1.0, 2.0]


def test_fake_tensor_mode_composes_with_a_user_mode():
    # Order (documented in opyard.utils.python_dispatch): dispatch modes (Python key) see an
    # operator before fake tensors (Fake key) run it, whichever was entered first.
    with FakeTensorMode():
        with LoggingMode() as inner:
            y = opyard.randn(2, 3).sum(0)
    assert inner.log == ["aten.randn.default", "aten.sum.dim_IntList"]
    assert type(y) is FakeTensor and y.shape == (3,)
    with LoggingMode() as outer:
        with FakeTensorMode():
            z = opyard.randn(4).neg()
    assert outer.log == ["aten.randn.default", "aten.neg.default"]
    assert type(z) is FakeTensor


def test_make_fx_composes_with_a_user_mode():
    def f(a):
        return a.sin() * 2

    with LoggingMode() as m:
        g = make_fx(f)(opyard.ones(3))
    assert [n for n in ("sin", "mul") if f"aten.{n}." in g.code] == ["sin", "mul"]
    assert "opyard.ops.aten.sin.default" in g.code
    # make_fx (Tracer key) records an operator before the mode (Python key) sees it
    assert m.log == ["aten.ones.default", "aten.sin.default", "aten.mul.Tensor"]
    assert g(opyard.zeros(3)).tolist() == [0.0, 0.0, 0.0]


def test_private_spelling_is_the_public_module():
    from opyard.utils import _python_dispatch, python_dispatch

    assert _python_dispatch.TorchDispatchMode is python_dispatch.TorchDispatchMode
    assert _python_dispatch._pop_mode_temporarily is python_dispatch._pop_mode_temporarily
    with FakeTensorMode() as fake:
        assert _python_dispatch._get_current_dispatch_mode() is fake  # code written for torch finds it
        with LoggingMode() as mine:
            assert _python_dispatch._get_current_dispatch_mode() is mine


def test_python_key_from_a_guard_alone_runs_the_kernel():
    x = opyard.tensor([1.0, -2.0])
    with opyard.dispatcher.include(PYTHON):
        assert x.abs().tolist() == [1.0, 2.0]


def test_composite_implicit_ops_reach_modes_decomposed():
    # As in torch: matmul (CompositeImplicitAutograd) is seen as the mm it decomposes into,
    # whether or not the inputs require grad.
    a, b = opyard.ones(2, 3), opyard.ones(3, 2)
    with LoggingMode() as m:
        out = opyard.matmul(a, b)
    assert m.log == ["aten.mm.default"] and out.tolist() == [[3.0, 3.0], [3.0, 3.0]]
    with LoggingMode() as m:
        opyard.matmul(a.requires_grad_(), b)
    assert m.log == ["aten.mm.default"]


def test_mode_stack_helpers_of_torchs_private_module():
    from opyard.utils._python_dispatch import (TorchDispatchMode, _disable_current_modes,
                                               _get_current_dispatch_mode_stack, _has_traceable_wrapper_subclass_protocol,
                                               any_torch_dispatch_mode_on_stack)

    class Passing(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    class Infra(Passing):
        @classmethod
        def is_infra_mode(cls):
            return True

    assert not any_torch_dispatch_mode_on_stack()
    with Infra():
        assert not any_torch_dispatch_mode_on_stack()
    with Passing() as outer, Passing() as inner:
        assert any_torch_dispatch_mode_on_stack()
        with _disable_current_modes() as modes:
            assert modes == [inner, outer] and _get_current_dispatch_mode_stack() == []
        assert _get_current_dispatch_mode_stack() == [outer, inner]
    assert not _has_traceable_wrapper_subclass_protocol(opyard.ones(1))
