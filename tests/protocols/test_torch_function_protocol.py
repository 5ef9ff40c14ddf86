"""__opyard_function__ / __torch_function__ rules beyond the seed: modes, guards, routing, errors."""

import opyard
import pytest
from opyard.library import Library
from opyard.overrides import (
    DisableTorchFunction,
    DisableTorchFunctionSubclass,
    TorchFunctionMode,
    _disabled_torch_function_impl,
    _get_current_function_mode,
    handle_torch_function,
    has_torch_function,
    is_tensor_like,
)


class Recorder(opyard.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(getattr(func, "__name__", func))
        return super().__torch_function__(func, types, args, kwargs)


@pytest.fixture(autouse=True)
def _clear():
    Recorder.seen = []
    yield


class Optout(opyard.Tensor):
    __torch_function__ = _disabled_torch_function_impl


class Duck:
    @classmethod
    def __opyard_function__(cls, func, types, args=(), kwargs=None):
        return ("duck", func.__name__, tuple(t.__name__ for t in types))


def test_every_entry_point_reaches_the_override():
    x = Recorder([1.0, 2.0])
    opyard.sin(x)                    # functional form
    x.cos()                          # method
    x + 1                            # operator
    opyard.ops.aten.neg.default(x)   # overload
    opyard.ops.aten.exp(x)           # packet
    x.view(2)                        # Python-level method
    x[1]                             # indexing
    assert Recorder.seen == ["sin", "cos", "add", "neg.default", "exp", "view", "__getitem__"]


def test_custom_op_reaches_the_override(ns):
    lib = Library(ns, "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * 2, "CPU")
    op = getattr(opyard.ops, ns).twice
    out = op(Recorder([1.0]))
    assert Recorder.seen == ["twice"]  # the kernel's own mul runs with the protocol off
    assert type(out) is Recorder and out.tolist() == [2.0]
    lib._destroy()


def test_tensor_in_a_list_takes_part():
    out = opyard.cat([opyard.ones(1), Recorder([2.0])])
    assert Recorder.seen == ["cat"]
    assert type(out) is Recorder and out.tolist() == [1.0, 2.0]


def test_results_in_tuples_become_the_subclass():
    a, b = Recorder([1.0, 2.0, 3.0, 4.0]).split(2)
    assert type(a) is Recorder and type(b) is Recorder


def test_properties_route_and_grad_is_not_wrapped():
    x = Recorder([1.0, 2.0])
    x.requires_grad_()
    (x * x).sum().backward()
    Recorder.seen = []
    g = x.grad
    d = x.data
    assert Recorder.seen == ["__get__", "__get__"]
    assert type(g) is opyard.Tensor and g.tolist() == [2.0, 4.0]
    assert type(d) is Recorder


def test_disabled_impl_opts_out():
    out = Optout([1.0]) + 1
    assert type(out) is opyard.Tensor


def test_parameter_is_plain():
    p = opyard.nn.Parameter(opyard.ones(2))
    assert type(p * 2) is opyard.Tensor


def test_disable_subclass_guard():
    x = Recorder([1.0])
    with DisableTorchFunctionSubclass():
        out = x + 1
    assert Recorder.seen == [] and type(out) is opyard.Tensor
    x + 1
    assert Recorder.seen == ["add"]


def test_disable_everything_guard_also_disables_modes():
    class Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            raise AssertionError("mode consulted")

    with Mode(), DisableTorchFunction():
        assert (Recorder([1.0]) + 1).tolist() == [2.0]
        assert not has_torch_function((Recorder([1.0]),))


def test_function_modes_nest_and_are_popped_inside():
    log = []

    class Named(TorchFunctionMode):
        def __init__(self, name):
            super().__init__()
            self.name = name

        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append((self.name, func.__name__, _get_current_function_mode()))
            return func(*args, **(kwargs or {}))

    outer, inner = Named("outer"), Named("inner")
    with outer, inner:
        out = opyard.ones(2).sum()
    assert out.item() == 2.0
    # sum: inner first (outer still on the stack inside it), then outer (nothing left).
    assert log[-2:] == [("inner", "sum", outer), ("outer", "sum", None)]
    assert _get_current_function_mode() is None


def test_mode_sees_plain_tensors_and_can_replace_results():
    class Zero(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return "replaced"

    with Zero():
        assert opyard.add(opyard.ones(1), 1) == "replaced"
    assert opyard.add(opyard.ones(1), 1).tolist() == [2.0]


def test_mode_returning_not_implemented_falls_to_types_then_errors():
    class Never(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return NotImplemented

    x = opyard.ones(1)
    with Never():
        assert opyard.add(Duck(), 1) == ("duck", "add", ("Duck",))
        with pytest.raises(TypeError, match=r"no implementation found for 'opyard.add' on types that "
                                            r"implement __opyard_function__: \[\] nor in mode"):
            opyard.add(x, 1)


@pytest.mark.parametrize("args, expected", [
    ((opyard.ones(1),), False),
    ((Recorder([1.0]),), True),
    (([opyard.ones(1), Recorder([1.0])],), True),
    ((Duck(),), True),
    ((Optout([1.0]),), False),
    ((3, "x"), False),
])
def test_has_torch_function(args, expected):
    assert has_torch_function(args) is expected


@pytest.mark.parametrize("obj, expected", [
    (opyard.ones(1), True), (Recorder([1.0]), True), (Duck(), True), (3, False), ([opyard.ones(1)], False),
])
def test_is_tensor_like(obj, expected):
    assert is_tensor_like(obj) is expected


def test_handle_torch_function_for_a_python_function():
    def my_func(a, b=1):
        if has_torch_function((a,)):
            return handle_torch_function(my_func, (a,), a, b=b)
        return "plain"

    assert my_func(3) == "plain"
    assert my_func(Duck(), b=2) == ("duck", "my_func", ("Duck",))


def test_handle_torch_function_without_overloaded_args_says_so():
    with pytest.raises(TypeError, match="no argument of .* takes part in the protocol"):
        handle_torch_function(opyard.add, (1,), 1, 2)


def test_calling_func_directly_recursion_is_explained():
    class Looping(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with pytest.raises(RecursionError, match=r"Looping.__torch_function__ for 'opyard.add'.*"
                                             r"super\(\).__torch_function__.*DisableTorchFunctionSubclass"):
        Looping([1.0]) + 1


def test_override_errors_pass_through_untouched():
    class Raising(opyard.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            raise KeyError("mine")

    with pytest.raises(KeyError, match="mine"):
        Raising([1.0]).sin()


def test_as_subclass_shares_data_and_history():
    x = opyard.ones(2, requires_grad=True)
    y = (x * 3).as_subclass(Recorder)
    assert type(y) is Recorder and y.grad_fn is not None
    y.sum().backward()
    assert x.grad.tolist() == [3.0, 3.0]
    with pytest.raises(TypeError, match="Creating a Tensor subclass from a class that does not inherit from Tensor"):
        x.as_subclass(int)


def test_guards_restore_only_their_own_state():
    class Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return "mode"

    x = Recorder([1.0])
    guard = DisableTorchFunctionSubclass()
    guard.__enter__()
    mode = Mode()
    mode.__enter__()           # not nested inside the guard's block
    guard.__exit__(None, None, None)
    try:
        assert opyard.ones(1) == "mode"
    finally:
        mode.__exit__(None, None, None)
    assert type(x + 1) is Recorder and Recorder.seen == ["add"]


def test_guard_nesting():
    x = Recorder([1.0])
    with DisableTorchFunctionSubclass():
        with DisableTorchFunctionSubclass():
            pass
        x + 1
    assert Recorder.seen == []
    x + 1
    assert Recorder.seen == ["add"]


@pytest.mark.parametrize("make, text", [
    (lambda: Recorder([[1.0, 2.0], [3.0, 4.0]]), "Recorder([[1., 2.],\n          [3., 4.]])"),
    (lambda: Recorder([1.0, 2.0]).requires_grad_(), "Recorder([1., 2.], requires_grad=True)"),
    (lambda: opyard.tensor([1.0]), "tensor([1.])"),
])
def test_subclass_repr_names_the_subclass(make, text):
    assert repr(make()) == text


def test_opting_out_after_class_creation():
    class Later(opyard.Tensor):
        pass

    x = Later([1.0])
    Later.__torch_function__ = _disabled_torch_function_impl
    assert type(x + 1) is opyard.Tensor and x.shape == (1,) and x[0].item() == 1.0


def test_mode_with_the_opyard_spelling():
    class Spelled(TorchFunctionMode):
        def __opyard_function__(self, func, types, args=(), kwargs=None):
            return ("spelled", func.__name__)

    x = opyard.ones(1)
    with Spelled():
        assert x.neg() == ("spelled", "neg")


def test_subclass_instances_pickle_and_copy():
    import copy
    import pickle

    x = Recorder([1.0, 2.0]).requires_grad_()
    y = pickle.loads(pickle.dumps(x))
    assert type(y) is Recorder and y.tolist() == [1.0, 2.0] and y.requires_grad
    # deepcopy goes through the protocol (as torch's); the default new_empty() gives a plain tensor
    with pytest.raises(RuntimeError, match=r"non-wrapper subclasses only works for subclass types"):
        copy.deepcopy(x)
    assert "__deepcopy__" in Recorder.seen
