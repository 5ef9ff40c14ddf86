"""The ``__opyard_function__`` / ``__torch_function__`` protocol as wide as torch's: Tensor-likes that
are not tensors (plain-method and classmethod handlers), inside int/float/scalar lists, as indices
and assigned values, through ``autograd.grad``/``backward`` and ``gradcheck``, reflected operators,
function modes (declining, overriding ``device``), and the whole overridable listing."""

import functools
import inspect
import warnings

import pytest

import opyard
import opyard.nn.functional as F
from opyard._ops import OpOverloadPacket
from opyard.overrides import (
    BaseTorchFunctionMode,
    TorchFunctionMode,
    _enable_torch_function,
    get_overridable_functions,
    get_testing_overrides,
    is_tensor_method_or_property,
    resolve_name,
    wrap_torch_function,
)
from protocol_zoo import Wrapper, wrap

Tensor = opyard.Tensor


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return fn()


# --- plain-method handlers are bound to their instance ------------------------------------------------

def test_a_plain_method_handler_receives_its_instance_and_torchs_warning():
    seen = []

    class A:
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append((self, func, types))
            return "A"

    a = A()
    with pytest.warns(UserWarning, match="Defining your `__torch_function__` as a plain method is deprecated"):
        assert opyard.add(a, 1) == "A"
    assert seen == [(a, opyard.add, (A,))]


def test_a_classmethod_handler_gives_no_warning():
    class B:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return cls

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert opyard.abs(B()) is B and F.dropout(B()) is B


# --- Tensor-likes inside lists of ints, floats and scalars ------------------------------------------

class IntLike:
    def __init__(self, value):
        self.value, self.called = value, []

    def __torch_function__(self, func, types, args=(), kwargs=None):
        self.called.append(func)
        return args[0] if args and isinstance(args[0], Tensor) else opyard.tensor(42.0)

    def __index__(self):
        return self.value

    def __float__(self):
        return float(self.value)


@pytest.mark.parametrize("call", [
    lambda o: F.pad(opyard.randn(2, 3), [1, o, 0, 0]), lambda o: F.pad(opyard.randn(2, 3), [o, 1, 1, 1]),
    lambda o: F.pad(opyard.randn(2, 3), [1, 1, 1, o]), lambda o: F.layer_norm(opyard.randn(2, 3, 4), [3, o]),
    lambda o: opyard.stack([o, IntLike(2)]), lambda o: opyard.randn(2, 3).view(o, 3),
    lambda o: opyard.randn(2, 3).reshape([o, -1]), lambda o: opyard.randn(1, 3).expand(o, 3),
])
def test_tensor_likes_inside_lists_take_part_exactly_once(call):
    o = IntLike(2)
    _quiet(lambda: call(o))
    assert len(o.called) == 1


def test_the_first_declining_object_in_a_list_hands_over_to_the_next():
    order = []

    class High:
        def __torch_function__(self, func, types, args=(), kwargs=None):
            order.append("high")
            return NotImplemented

    class Low:
        def __torch_function__(self, func, types, args=(), kwargs=None):
            order.append("low")
            return args[0]

    x = opyard.randn(2, 3)
    assert _quiet(lambda: F.pad(x, [1, High(), Low(), 0])) is x
    assert order == ["high", "low"]


def test_empty_size_lists_need_no_protocol():
    assert opyard.randn(1).view([]).shape == ()


# --- indexing ----------------------------------------------------------------------------------------

class Indexer:
    triggered = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.triggered.append(func)
        return -1


class SubIndexer(opyard.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        Indexer.triggered.append(func)
        return -1


@pytest.fixture(autouse=True)
def _clear():
    Indexer.triggered = []
    yield


@pytest.mark.parametrize("make", [Indexer, SubIndexer])
def test_getitem_and_setitem_with_tensor_like_keys(make):
    t = opyard.tensor([5])
    assert t[make()] == -1 and t[5, make()] == -1
    t[make()] = 1
    t[5, make()] = 1
    assert Tensor.__getitem__ in Indexer.triggered and Tensor.__setitem__ in Indexer.triggered
    assert t.tolist() == [5]


def test_setitem_with_a_tensor_like_value():
    t = opyard.tensor([5])
    t[0] = Indexer()
    assert Indexer.triggered == [Tensor.__setitem__] and t.tolist() == [5]


def test_getitem_looks_into_nested_tuples():
    called = []

    class Obj:
        def __init__(self, v):
            self.v = v

        def __torch_function__(self, func, types, args=(), kwargs=None):
            called.append(func.__name__)
            return args[0] if func.__name__ == "__getitem__" else opyard.tensor(42.0)

        def __index__(self):
            return self.v

    x = opyard.randn(5, 5, 5)
    assert _quiet(lambda: x[(0, (Obj(0), Obj(1)))]) is x
    assert "__getitem__" in called and "size" not in called


def test_index_list_of_subclasses_returning_none():
    class T(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, *args, **kwargs):
            pass

    assert opyard.rand(3)[[T(), T()]] is None


def test_a_tensor_like_dtype_argument():
    class MyDtype:
        def __torch_function__(self, *args, **kwargs):
            return 4

    assert _quiet(lambda: opyard.empty(4).view(MyDtype())) == 4


# --- autograd entry points ---------------------------------------------------------------------------

def test_grad_of_tensor_likes_normalizes_its_arguments_to_tuples():
    seen = []

    class Dummy:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            seen.append((func, args, kwargs))
            return -1

    x = Dummy()
    assert opyard.autograd.grad(x, x) == -1
    func, (outputs, inputs), kwargs = seen[0]
    assert func is opyard.autograd.grad and outputs == (x,) and inputs == (x,)
    assert kwargs["retain_graph"] is None and kwargs["create_graph"] is False
    seen.clear()
    assert opyard.autograd.backward(x) == -1 and seen[0][0] is opyard.autograd.backward


def test_grad_and_backward_through_a_function_mode():
    seen = []

    class Spy(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    x = opyard.ones(2, requires_grad=True)
    with Spy():
        (g,) = opyard.autograd.grad((x * 2).sum(), x)
    assert g.tolist() == [2.0, 2.0] and opyard.autograd.grad in seen


def test_gradcheck_and_gradgradcheck_on_a_tensor_like_wrapper():
    for fast in (True, False):
        a, b = wrap(opyard.tensor(5.0, dtype=opyard.double)), wrap(opyard.tensor(6.0, dtype=opyard.double))
        a.requires_grad = True
        b.requires_grad = True
        assert opyard.autograd.gradcheck(opyard.add, (a, b), raise_exception=False, fast_mode=fast)
        assert opyard.autograd.gradgradcheck(opyard.add, (a, b), raise_exception=False, fast_mode=fast)
        calls = a.used_calls | b.used_calls
        assert opyard.add in calls and opyard.autograd.grad in calls
        assert {"requires_grad", "dtype"} <= a.used_attrs | b.used_attrs


def test_gradcheck_reports_a_wrong_formula_on_a_wrapper():
    @opyard.library.custom_op("protocol_likes::bad", mutates_args=())
    def bad(x: opyard.Tensor) -> opyard.Tensor:
        return x * 3

    bad.register_autograd(lambda ctx, g: g * 2)
    a = wrap(opyard.tensor([1.0, 2.0], dtype=opyard.double))
    a.requires_grad = True
    assert not opyard.autograd.gradcheck(bad, (a,), raise_exception=False)


def test_einsum_with_wrappers():
    x, y = Wrapper(opyard.randn(5)), Wrapper(opyard.randn(4))
    assert opyard.allclose(opyard.einsum("i,j->ij", x, y)._data, opyard.outer(x._data, y._data))
    a, b, c = Wrapper(opyard.randn(2, 3)), Wrapper(opyard.randn(5, 3, 7)), Wrapper(opyard.randn(2, 7))
    assert opyard.einsum("ik,jkl,il->ij", [a, b, c])._data.shape == (2, 5)


# --- operators, subclass views, Parameters ------------------------------------------------------------

def test_reflected_operator_runs_after_the_forward_one_declines():
    class NothingImplemented(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    class RPowOnly(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return -1 if func is opyard.Tensor.__rpow__ else NotImplemented

    assert NothingImplemented() ** RPowOnly() == -1
    with pytest.raises(TypeError):
        opyard.pow(NothingImplemented(), RPowOnly())  # the function itself still raises


def test_a_subclass_made_from_a_tensor_is_a_view_of_it():
    class DummyTensor(opyard.Tensor):
        pass

    a = opyard.ones(1)
    c = DummyTensor(a)
    assert c._is_view() and c._base is a


def test_a_parameter_does_not_prevent_dispatch():
    class MyTensor:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "called"

    t1, t2 = MyTensor(), opyard.nn.Parameter(opyard.rand(2, 2))
    assert opyard.add(t2, t1) == "called"
    inp = opyard.rand(10, 10)
    assert F.linear(inp, t1, t2) == "called" and F.linear(inp, t2, t1) == "called"


# --- function modes ------------------------------------------------------------------------------------

def test_a_mode_declining_a_subclass_is_asked_again_for_the_plain_call():
    called = 0

    class A(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            nonlocal called
            called += 1
            if any(t is not opyard.Tensor for t in types):
                return NotImplemented
            return func(*args, **(kwargs or {}))

    class B(opyard.Tensor):
        pass

    with A():
        r = opyard.neg(B())
    assert type(r) is B and called == 2


def test_a_mode_overrides_device_construction():
    class CustomDevice(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            kwargs = kwargs or {}
            if func == opyard.device:
                if args and isinstance(args[0], int):
                    args = ("meta", args[0])
                elif isinstance(kwargs.get("device"), int):
                    kwargs["device"] = f"meta:{kwargs.get('device')}"
            return func(*args, **kwargs)

    with CustomDevice():
        d_args = opyard.device(0)
        d_kwargs = opyard.device(device=0)
    assert (d_args.type, d_args.index) == ("meta", 0) and (d_kwargs.type, d_kwargs.index) == ("meta", 0)
    assert opyard.device(0).type == "cuda"  # outside the mode, torch's meaning of an int
    assert isinstance(opyard.ones(1).device, opyard.device)


def test_base_mode_and_reentrant_mode_idiom():
    log = []

    class A(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append(func)
            if func is opyard.sub:
                with self:
                    x, y = args
                    return opyard.add(x, y, alpha=-1)
            return func(*args, **(kwargs or {}))

    x, y = opyard.randn(1), opyard.randn(1)
    with A():
        opyard.sub(x, y)
    assert log == [opyard.sub, opyard.add]
    with BaseTorchFunctionMode():
        assert opyard.add(opyard.ones(1), 1).tolist() == [2.0]


def test_enable_torch_function_inside_disabled_blocks():
    class A(opyard.Tensor):
        pass

    x = A(opyard.randn(5))
    with opyard._C.DisableTorchFunction():
        assert opyard._C._is_torch_function_all_disabled()
        with _enable_torch_function():
            assert isinstance(opyard.sum(x), A)
        assert not isinstance(opyard.sum(x), A)
    assert not opyard._C._is_torch_function_all_disabled()
    with opyard._C.DisableTorchFunctionSubclass():
        g = opyard._C._EnableTorchFunction()
        try:
            assert isinstance(opyard.sum(x), A)
        finally:
            del g
        assert not isinstance(opyard.sum(x), A)


def test_wrap_torch_function():
    class A:
        @classmethod
        def __torch_function__(cls, func, types, args, kwargs):
            return -1

    @wrap_torch_function(lambda a: (a,))
    def f(a):
        return a

    assert f(A()) == -1 and f(3) == 3


# --- the whole overridable listing, as torch's generated tests use it ----------------------------------

HANDLED_SUB, HANDLED_LIKE, TRIGGERED = {}, {}, {}


def _triggered(override):
    @functools.wraps(override)
    def wrapped(*args, **kwargs):
        wrapped.triggered = True
        return override(*args, **kwargs)
    wrapped.triggered = False
    return wrapped


for _func, _override in get_testing_overrides().items():
    TRIGGERED[_func] = _triggered(_override)
    (HANDLED_SUB if is_tensor_method_or_property(_func) else HANDLED_LIKE)[_func] = TRIGGERED[_func]


class SubTensor(opyard.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        if func not in HANDLED_SUB:
            return NotImplemented
        return HANDLED_SUB[func](*args, **(kwargs or {}))


class TensorLike:
    def __torch_function__(self, func, types, args=(), kwargs=None):
        if func not in HANDLED_LIKE:
            return NotImplemented
        return HANDLED_LIKE[func](*args, **(kwargs or {}))


_VALUE_OF = {"Scalar": 3.5, "bool": False, "int": 0, "SymInt": 1, "float": 1.0, "str": "",
             "ScalarType": opyard.float32}


def _call_of(func):
    """Arguments torch's generator would build: an instance per Tensor, a value per other type."""
    method = is_tensor_method_or_property(func)
    gen = (lambda: SubTensor([5])) if method else TensorLike
    if isinstance(func, OpOverloadPacket) and func.overloads():
        schema = getattr(func, func.overloads()[0])._schema
        target, args, kwargs = func, [], {}
        for a in schema.arguments:
            if a.default_value is not None:
                continue
            t = a.type[len("Optional["):-1] if a.type.startswith("Optional[") else a.type
            if t == "Tensor" and method and a.name == "self":
                target = func.__get__(gen())
                continue
            value = gen() if t == "Tensor" else [gen(), gen()] if t.startswith("List[Tensor") else \
                [1, 1] if t.startswith(("List[int]", "List[SymInt]")) else _VALUE_OF.get(t)
            (kwargs.__setitem__(a.name, value) if a.kwarg_only else args.append(value))
        return target, args, kwargs
    sig = inspect.signature(TRIGGERED[func])
    params = [p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    args = [gen() for p in params if p.default is p.empty]
    if any(p.kind is p.VAR_POSITIONAL for p in sig.parameters.values()):
        args += [gen(), gen()]
    if method and args and func.__name__ != "__get__":  # called on the instance, as users do
        return getattr(type(args[0]), func.__name__).__get__(args[0]), args[1:], {}
    return func, args, {}


_FUNCS = list(get_testing_overrides())


@pytest.mark.parametrize("func", _FUNCS, ids=[resolve_name(f) or repr(f) for f in _FUNCS])
def test_every_overridable_function_reaches_the_override(func):
    target, args, kwargs = _call_of(func)
    TRIGGERED[func].triggered = False
    _quiet(lambda: target(*args, **kwargs))
    assert TRIGGERED[func].triggered


def test_resolve_name_evaluates_back():
    for funcs in get_overridable_functions().values():
        for f in funcs:
            name = resolve_name(f)
            if name.endswith(".__get__"):
                continue  # property getters: opyard's are functions, not torch's method-wrappers
            assert eval(name, {"opyard": opyard}) is f, name


def test_resolve_name_of_an_operator_is_its_name_as_torch_gives_it():
    assert resolve_name(opyard.ops.aten.mul.Tensor) == "aten.mul.Tensor"
    assert resolve_name(opyard.ops.aten.sin.default) == "aten.sin.default"
    assert resolve_name(opyard.Tensor.add_) == "opyard.Tensor.add_"
    assert resolve_name(opyard.add) == "opyard.add"
