"""The ``__opyard_dispatch__`` / ``__torch_dispatch__`` protocol as wide as torch's: both spellings,
direct (``_make_subclass``) subclasses, wrapper subclasses (a logging one, one holding two tensors),
modes, the helpers at torch's homes, and torch's error texts (recorded in
``tests/data/torch_protocol_answers.json``)."""

import copy
import json
import os

import pytest

import opyard
from opyard.library import Library
from opyard.utils._mode_utils import all_same_mode, no_dispatch
from opyard.utils._python_dispatch import (
    TorchDispatchMode,
    _get_current_dispatch_mode,
    _get_current_dispatch_mode_stack,
    is_in_torch_dispatch_mode,
    is_traceable_wrapper_subclass,
    is_traceable_wrapper_subclass_type,
    transform_subclass,
)
from protocol_zoo import (
    DirectSubclass,
    LoggingMode,
    LoggingTensor,
    LoggingTensorReentrant,
    TwoTensor,
    capture,
    log_input,
)

aten = opyard.ops.aten
DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
DATA = json.load(open(os.path.join(DATA_DIR, "torch_protocol_answers.json")))


# --- the contract's spellings ----------------------------------------------------------------------

def test_both_spellings_are_one_classmethod_on_tensor():
    d = opyard.Tensor.__dict__
    assert d["__opyard_function__"] is d["__torch_function__"]
    assert d["__opyard_dispatch__"] is d["__torch_dispatch__"]
    assert isinstance(d["__opyard_dispatch__"], classmethod)


@pytest.mark.parametrize("ours", [True, False])
def test_super_dispatch_runs_below_python_in_either_spelling(ours):
    seen = []

    def handler(cls, func, types, args=(), kwargs=None):
        seen.append(func)
        return (super(S, cls).__opyard_dispatch__ if ours else super(S, cls).__torch_dispatch__)(
            func, types, args, kwargs)

    S = type("S", (opyard.Tensor,), {"__opyard_dispatch__" if ours else "__torch_dispatch__": classmethod(handler)})
    x, y = opyard.randn(2), opyard.randn(2)
    out = opyard.Tensor._make_subclass(S, x) + opyard.Tensor._make_subclass(S, y)
    assert type(out) is opyard.Tensor and out.tolist() == (x + y).tolist()
    assert seen == [aten.add.Tensor]
    assert S.__dict__["__opyard_dispatch__"] is S.__dict__["__torch_dispatch__"]


def test_a_dispatch_class_inheriting_the_default_function_protocol_has_it_disabled():
    # torch: a class with its own __torch_dispatch__ and Tensor's __torch_function__ skips the latter
    class WithOwnFunction(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return super().__torch_function__(func, types, args, kwargs)

    class D(WithOwnFunction):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return super().__torch_dispatch__(func, types, args, kwargs)

    assert DirectSubclass.__torch_function__ is opyard.overrides._disabled_torch_function_impl
    assert D.__dict__.get("__torch_function__") is None  # its base's own protocol is kept
    assert type(opyard.Tensor._make_subclass(D, opyard.ones(1)) + 1) is D


def test_super_dispatch_with_a_list_of_arguments():
    DirectSubclass.seen = []
    x = opyard.randn(2)
    assert DirectSubclass(x).neg().tolist() == x.neg().tolist()
    assert DirectSubclass.seen == [aten.neg.default]


def test_super_dispatch_does_not_run_autograd_again():
    class S(opyard.Tensor):
        @staticmethod
        def __new__(cls, elem):
            return opyard.Tensor._make_subclass(cls, elem, elem.requires_grad)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            assert args[0].requires_grad
            r = super().__torch_dispatch__(func, types, args, kwargs)
            assert not r.requires_grad  # the handler runs below autograd
            return r

    out = S(opyard.randn(2, requires_grad=True)).neg()
    assert out.requires_grad and out.grad_fn is not None


# --- direct subclasses: _make_subclass, as_subclass, Subclass(tensor) --------------------------------

class _S(opyard.Tensor):
    pass


MAKERS = {
    "make_subclass": lambda x: opyard.Tensor._make_subclass(_S, x),
    "make_subclass_require_grad": lambda x: opyard.Tensor._make_subclass(_S, x.detach(), True),
    "as_subclass": lambda x: x.as_subclass(_S),
    "legacy_constructor": lambda x: _S(x),
}


@pytest.mark.parametrize("key", sorted(DATA["subclass_construction"]))
def test_subclass_construction_matches_torch(key):
    name, requires_grad = key.split("|")
    x = opyard.randn(2, requires_grad=requires_grad == "True")
    s = MAKERS[name](x)
    got = {"type_is_S": type(s) is _S, "base_is_input": s._base is x, "is_view": s._is_view(), "is_leaf": s.is_leaf,
           "requires_grad": s.requires_grad, "grad_fn": None if s.grad_fn is None else type(s.grad_fn).__name__}
    before = x._version
    with opyard.no_grad():
        s.add_(1)
    got["shares_version"] = x._version == before + 1
    assert got == DATA["subclass_construction"][key]


def test_as_subclass_is_differentiable():
    x = opyard.ones(2, requires_grad=True)
    (x * 3).as_subclass(_S).sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]


@pytest.mark.parametrize("make, shape, dtype", [
    (lambda: _S(), (0,), opyard.float32), (lambda: _S(3), (3,), opyard.float32),
    (lambda: _S(2, 3), (2, 3), opyard.float32), (lambda: _S(opyard.Size([2, 3])), (2, 3), opyard.float32),
    (lambda: _S([1, 2]), (2,), opyard.float32), (lambda: _S(opyard.arange(3)), (3,), opyard.int64),
])
def test_legacy_constructor_is_torchs(make, shape, dtype):
    t = make()
    assert type(t) is _S and tuple(t.shape) == shape and t.dtype is dtype


@pytest.mark.parametrize("call, match", [
    (lambda: _S(2.0), r"^new\(\): data must be a sequence \(got float\)$"),
    (lambda: _S("a"), r"^new\(\): invalid data type 'str'$"),
    (lambda: _S(opyard.ones(1), 3), r"^new\(\) received an invalid combination of arguments - got \(Tensor, int\)"),
])
def test_legacy_constructor_errors(call, match):
    with pytest.raises(TypeError, match=match):
        call()


@pytest.mark.parametrize("name", sorted(DATA["errors"]))
def test_errors_are_torchs(name):
    class S(opyard.Tensor):
        pass

    class NoHandler(opyard.Tensor):
        pass

    class W(opyard.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    class ClassDispatchMode(TorchDispatchMode):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    class ClassFunctionMode(opyard.overrides.TorchFunctionMode):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    x = opyard.randn(2)

    def in_mode(mode):
        def run():
            with mode():
                return x + x
        return run

    cases = {
        "make_subclass_not_a_type": lambda: opyard.Tensor._make_subclass(3, x),
        "make_subclass_not_a_tensor_class": lambda: opyard.Tensor._make_subclass(int, x),
        "make_subclass_data_not_a_tensor": lambda: opyard.Tensor._make_subclass(S, [1.0]),
        "make_subclass_int_requires_grad": lambda: opyard.Tensor._make_subclass(S, opyard.arange(2), True),
        "make_subclass_bad_policy": lambda: opyard.Tensor._make_subclass(S, x, dispatch_sizes_strides_policy="bad"),
        "as_subclass_not_a_tensor_class": lambda: x.as_subclass(int),
        "wrapper_without_handler": lambda: opyard.Tensor._make_wrapper_subclass(NoHandler, (2,)),
        "wrapper_not_a_type": lambda: opyard.Tensor._make_wrapper_subclass(3, (2,)),
        "wrapper_size_not_ints": lambda: opyard.Tensor._make_wrapper_subclass(W, 3),
        "wrapper_strides_mismatch": lambda: opyard.Tensor._make_wrapper_subclass(W, (2, 3), (1,)),
        "wrapper_bad_policy": lambda: opyard.Tensor._make_wrapper_subclass(W, (2,), dispatch_sizes_strides_policy="x"),
        "wrapper_int_requires_grad": lambda: opyard.Tensor._make_wrapper_subclass(W, (2,), dtype=opyard.int64,
                                                                                  requires_grad=True),
        "dispatch_mode_classmethod": in_mode(ClassDispatchMode),
        "function_mode_classmethod": in_mode(ClassFunctionMode),
        "all_handlers_not_implemented": lambda: opyard.Tensor._make_wrapper_subclass(W, (2,)).neg(),
    }
    expected = DATA["errors"][name]
    text = expected["message"].replace("torch._ops.", "opyard._ops.")
    exc = {"TypeError": TypeError, "RuntimeError": RuntimeError, "ValueError": ValueError}[expected["error"]]
    with pytest.raises(exc) as info:
        cases[name]()
    assert str(info.value).split("\n")[0] == text


def test_a_wrapper_of_a_dispatch_subclass_cannot_become_another_subclass():
    class Foo(opyard.Tensor):
        pass

    msg = r"subclass Foo but.*already associated to a python object of type LoggingTensor"
    for make in (lambda: opyard.Tensor._make_subclass(Foo, LoggingTensor(opyard.rand(2))),
                 lambda: LoggingTensor(opyard.rand(2)).as_subclass(Foo), lambda: Foo(LoggingTensor(opyard.rand(2)))):
        with pytest.raises(RuntimeError, match=msg):
            make()


# --- modes and subclasses together -------------------------------------------------------------------

def test_modes_take_precedence_over_subclasses_and_subclasses_over_bases():
    class ErrorA(RuntimeError):
        pass

    class ErrorB(RuntimeError):
        pass

    class AMode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            raise ErrorA

    class BMode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            raise ErrorB

    class A(opyard.Tensor):
        @staticmethod
        def __new__(cls, elem):
            return opyard.Tensor._make_subclass(cls, elem, elem.requires_grad)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            with AMode():
                raise ErrorA

    class B(A):
        @staticmethod
        def __new__(cls, elem):
            return opyard.Tensor._make_subclass(cls, elem, elem.requires_grad)

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            with BMode():
                func(*args, **kwargs)

    a, b = A(opyard.empty(1)), B(opyard.empty(1))
    with pytest.raises(ErrorA):
        a + a
    with pytest.raises(ErrorB):
        a + b
    with pytest.raises(ErrorA), AMode():
        b + b
    with pytest.raises(ErrorB), BMode():
        a + a


def test_a_mode_can_make_direct_subclasses():
    class ModeTensor(opyard.Tensor):
        def __new__(cls, elem, mode):
            r = opyard.Tensor._make_subclass(cls, elem, elem.requires_grad)
            r.elem, r.mode = elem, mode
            return r

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            raise NotImplementedError("Shouldn't be here")

    class Mode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            out = func(*[a.elem if isinstance(a, ModeTensor) else a for a in args], **(kwargs or {}))
            return ModeTensor(out, self) if isinstance(out, opyard.Tensor) else out

    class Basic(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    x = opyard.tensor(4.0)
    for nested in (False, True):
        with Mode():
            if nested:
                with Basic():
                    y = x + x
                    z = y + y
            else:
                y = x + x
                z = y + y
        assert isinstance(y, ModeTensor) and isinstance(z, ModeTensor) and z.elem.item() == 16.0
    with Basic():
        assert isinstance(DirectSubclass(opyard.randn(3)), DirectSubclass)


def test_a_mode_declining_lets_the_subclass_run():
    sub_count = 0

    class Polite(TorchDispatchMode):
        def __init__(self):
            self.pre = self.post = 0

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            self.pre += 1
            if any(t is not opyard.Tensor for t in types):
                return NotImplemented
            self.post += 1
            return func(*args, **(kwargs or {}))

    class Sub(opyard.Tensor):
        def __new__(cls, elem):
            r = opyard.Tensor._make_wrapper_subclass(cls, elem.shape)
            r.elem = elem
            return r

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            nonlocal sub_count
            sub_count += 1
            return func(*[a.elem if isinstance(a, Sub) else a for a in args], **(kwargs or {}))

    a = Sub(opyard.randn(2))
    with Polite() as mode:
        a.abs()
    assert (mode.pre, mode.post, sub_count) == (2, 1, 1)
    with Polite(), Polite():
        a.abs()


def test_mode_stack_queries():
    class A(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    class Infra(TorchDispatchMode):
        @classmethod
        def is_infra_mode(cls):
            return True

    assert _get_current_dispatch_mode() is None and _get_current_dispatch_mode_stack() == []
    with A() as mode1:
        assert _get_current_dispatch_mode() is mode1 and _get_current_dispatch_mode_stack() == [mode1]
    with mode1, A() as mode2:
        assert _get_current_dispatch_mode() is mode2 and _get_current_dispatch_mode_stack() == [mode1, mode2]
    assert all_same_mode([mode1, mode1]) and not all_same_mode([mode1, None]) and not all_same_mode([mode1, mode2])
    assert not is_in_torch_dispatch_mode()
    with Infra():
        assert is_in_torch_dispatch_mode() and not is_in_torch_dispatch_mode(include_infra_modes=False)
        with A():
            assert is_in_torch_dispatch_mode(include_infra_modes=False)
    assert opyard._C._len_torch_dispatch_stack() == 0


def test_no_dispatch_hides_operators_from_modes():
    with capture() as plain, LoggingMode():
        opyard.ones(2, 3)
    with capture() as hidden, LoggingMode():
        opyard.ones(2, 3)
        with no_dispatch():
            opyard.ones(2, 3)
    assert plain == hidden and len(plain) == 1


def test_handlers_run_below_autograd_unless_reentrant():
    true_t = opyard.rand(2, requires_grad=True)
    out = LoggingTensor(true_t) + 2
    assert not out.requires_grad and out.elem.grad_fn is None  # torch: no second graph inside
    t = LoggingTensorReentrant(true_t)
    out = t + 2
    assert not out.requires_grad and out.grad_fn is None
    assert out.elem.requires_grad and out.elem.grad_fn is not None
    with pytest.raises(RuntimeError, match="does not require grad"):
        out.sum().backward()
    out.elem.sum().backward()
    assert t.grad is None and t.elem.grad is not None


# --- wrapper subclasses: logs, versions, .data, set_, copies, repr ------------------------------------

def test_logging_tensor_logs_torchs_module_names():
    with capture() as logs:
        x = LoggingTensor(opyard.tensor([3.0]), requires_grad=True)
        log_input("x", x)
        y = x * x
        grad_y = LoggingTensor(opyard.tensor([1.0]))
        log_input("grad_y", grad_y)
        (g,) = opyard.autograd.grad((y,), (x,), (grad_y,))
    assert g.elem.tolist() == [6.0]
    assert logs[:2] == ["$0: f32[1] = input('x')", "$1: f32[1] = opyard._ops.aten.mul.Tensor($0, $0)"]
    assert all(" = opyard._ops.aten." in line for line in logs if "input(" not in line)
    assert aten.mul.Tensor.__module__ == "opyard._ops.aten" and aten.mul.__module__ == "opyard._ops.aten"


def test_logging_mode_names_ops_by_module():
    x, y = opyard.randn([]), opyard.randn([])
    with capture() as logs, LoggingMode():
        x + y
    assert logs == ["$2: f32[] = opyard._ops.aten.add.Tensor($0, $1)"]


def test_version_counter_through_detach_and_data():
    x = LoggingTensor(opyard.ones(1))
    prev = x._version
    x.detach().add_(2)
    cur = x._version
    assert cur != prev  # detach shares the counter
    x.data.add_(2)
    assert x._version == cur  # .data has one of its own


def test_views_of_wrappers_record_their_base():
    w = LoggingTensor(opyard.ones(2, 2))
    v = w.view(4)
    assert v._base is w and type(v) is LoggingTensor
    assert w.detach()._base is None


def test_data_and_set_reach_the_subclass():
    called = 0

    class Sub(opyard.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            nonlocal called
            called += 1
            return super().__torch_dispatch__(func, types, args, kwargs)

    x = Sub(opyard.empty(2))
    x.data
    assert called == 1
    x.data = opyard.empty(2)
    assert called == 1
    x.data
    assert called == 2 and type(x) is Sub
    x.set_(opyard.empty(2))
    assert called == 3
    x.data
    assert called == 4 and type(x) is Sub


def test_set_shares_the_source_memory():
    a, b = opyard.zeros(3), opyard.arange(4.0)
    assert a.set_(b) is a and a.tolist() == [0.0, 1.0, 2.0, 3.0] and a._version == 1
    b.add_(1)
    assert a.tolist() == [1.0, 2.0, 3.0, 4.0]


def test_deepcopy_of_a_wrapper_uses_clone_and_copies_slots():
    x = LoggingTensor(opyard.arange(3))
    c = copy.deepcopy(x)
    assert type(c) is LoggingTensor and c is not x and c.elem.tolist() == [0, 1, 2] and c.elem is not x.elem


def test_deepcopy_of_a_wrapper_whose_clone_changes_type():
    class W(opyard.Tensor):
        __slots__ = ["elem"]

        @staticmethod
        def __new__(cls, elem):
            r = opyard.Tensor._make_wrapper_subclass(cls, elem.size(), dtype=elem.dtype)
            r.elem = elem
            return r

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            if func.overloadpacket.__name__ == "clone":
                return args[0].elem.clone()
            raise RuntimeError("NYI")

    with pytest.raises(RuntimeError, match="for which cloning returns another instance of the same subclass"):
        copy.deepcopy(W(opyard.randn(3)))


def test_deepcopy_of_a_direct_subclass_uses_new_empty():
    class Error1(opyard.Tensor):
        pass

    class Error2(opyard.Tensor):
        def new_empty(self, shape):
            return opyard.Tensor(shape)

    class Success(opyard.Tensor):
        def new_empty(self, shape):
            return type(self)(shape)

    for cls in (Error1, Error2):
        with pytest.raises(RuntimeError, match="for which that function returns another instance of the same subclass"):
            copy.deepcopy(cls(3))
    x = Success([1.0, 2.0])
    x.tag = ["t"]
    c = copy.deepcopy(x)
    assert type(c) is Success and c.tolist() == [1.0, 2.0] and c.tag == ["t"] and c.tag is not x.tag


def test_repr_with_tensor_contents():
    assert repr(LoggingTensor(opyard.ones(1))) == "LoggingTensor(tensor([1.]))"
    assert str(LoggingTensor(opyard.ones(1))) == f"{LoggingTensor(opyard.ones(1))}" == "LoggingTensor(tensor([1.]))"
    assert repr(LoggingTensor(opyard.ones(2), requires_grad=True)) == \
        "LoggingTensor(tensor([1., 1.]), requires_grad=True)"
    assert repr(LoggingTensor(opyard.ones(2, dtype=opyard.float64))) == \
        "LoggingTensor(tensor([1., 1.], dtype=opyard.float64), dtype=opyard.float64)"
    assert opyard.ones(2).as_subclass(_S).__repr__(tensor_contents="hello") == "_S(hello)"
    assert opyard.ones(2, requires_grad=True).__repr__(tensor_contents="C") == "tensor(C, requires_grad=True)"


def test_data_reads_of_a_wrapper_are_torchs_errors():
    x = LoggingTensor(opyard.tensor([2.0, 3.0]))
    with pytest.raises(RuntimeError, match=r"^\.tolist\(\) is not supported for tensor subclasses, got LoggingTensor$"):
        x.tolist()
    with pytest.raises(RuntimeError, match=r"^\.numpy\(\) is not supported for tensor subclasses\.$"):
        x.numpy()
    assert LoggingTensor(opyard.tensor([2.5])).item() == 2.5  # through aten._local_scalar_dense


# --- helpers at torch's homes --------------------------------------------------------------------------

def test_return_and_correct_aliasing_for_views_inplace_and_inplace_views(ns):
    import numpy as np

    lib = Library(ns, "DEF")
    lib.define("flatten_(Tensor(a!) self) -> Tensor(a!)", tags=(opyard.Tag.inplace_view,))

    def flatten_(self):  # an inplace_view op: it changes the metadata of its argument
        self._data = np.broadcast_to(self._data.reshape(-1)[:1].reshape(()), (self._data.size,)) \
            if self._meta_strides is not None else self._data.reshape(-1)
        if self._meta_strides is not None:
            self._meta_strides = (1,)
        return self

    lib.impl("flatten_", flatten_, "CompositeExplicitAutograd")
    flat_ = getattr(opyard.ops, ns).flatten_.default
    t = TwoTensor(opyard.randn(2, 2), opyard.randn(2, 2))
    x = opyard.randn(2, 2)
    col = t[:, 0]
    assert col.stride() == x[:, 0].stride() and col._base is t and type(col) is TwoTensor
    assert t.add_(1) is t  # the mutated argument itself comes back
    out = TwoTensor(opyard.zeros(2, 2), opyard.zeros(2, 2))
    assert opyard.ops.aten.add.out(t, t, out=out) is out
    u = TwoTensor(opyard.randn(2, 3), opyard.randn(2, 3))
    assert flat_(u) is u and u.shape == (6,) and u.stride() == (1,) and u.a.shape == (6,)
    v = u.view(6)
    assert v._version == u._version
    u.add_(1)
    assert v._version == u._version


def test_traceable_wrapper_helpers():
    t = TwoTensor(opyard.randn(2, 3), opyard.randn(2, 3))
    assert is_traceable_wrapper_subclass(t) and not is_traceable_wrapper_subclass(opyard.randn(2))
    assert is_traceable_wrapper_subclass_type(TwoTensor) and not is_traceable_wrapper_subclass_type(opyard.Tensor)
    doubled = transform_subclass(t, lambda name, inner: inner * 2)
    assert type(doubled) is TwoTensor and doubled.a.tolist() == (t.a * 2).tolist()

    class IgnoresSize(TwoTensor):
        @staticmethod
        def __tensor_unflatten__(inner, meta, outer_size, outer_stride):
            return IgnoresSize(inner["a"], inner["b"])

    with pytest.raises(AssertionError, match=r"__tensor_unflatten__\(\) to have shape equal to \(3, 2\)"):
        transform_subclass(IgnoresSize(t.a, t.b), lambda name, inner: inner, outer_size=(3, 2), outer_stride=(2, 1))


def test_register_torch_dispatch_for_a_mode_and_a_subclass(ns):
    @opyard.library.custom_op(f"{ns}::foo", mutates_args=())
    def foo(x: opyard.Tensor) -> opyard.Tensor:
        return x.clone()

    class MyMode(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    @opyard.library.register_torch_dispatch(f"{ns}::foo", MyMode)
    def _(mode, func, types, args, kwargs):
        (x,) = args
        return x + 1

    x = opyard.randn(3)
    assert foo(x).tolist() == x.tolist()
    with MyMode():
        assert opyard.allclose(foo(x), x + 1)

    seen = []

    @opyard.library.register_torch_dispatch(foo, TwoTensor)
    def _(cls, func, types, args, kwargs):
        seen.append(cls)
        return args[0].a

    t = TwoTensor(opyard.ones(2), opyard.zeros(2))
    assert foo(t).tolist() == [1.0, 1.0] and seen == [TwoTensor]
    with pytest.raises(RuntimeError, match="already has a `__torch_dispatch__` rule registered"):
        opyard.library.register_torch_dispatch(foo, TwoTensor, lambda *a: None)


def test_register_torch_dispatch_lives_as_long_as_its_library(ns):
    lib = Library(ns, "DEF")
    lib.define("bar(Tensor x) -> Tensor")
    lib.impl("bar", lambda x: x.clone(), "CompositeExplicitAutograd")

    class M(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    opyard.library.register_torch_dispatch(f"{ns}::bar", M, lambda mode, func, types, args, kwargs: args[0] * 5,
                                           lib=lib)
    op = getattr(opyard.ops, ns).bar.default
    with M():
        assert op(opyard.ones(1)).tolist() == [5.0]
    from opyard._torch_dispatch_rules import RULES
    assert (op, M) in RULES
    lib._destroy()
    assert (op, M) not in RULES
