"""``Tensor.backward``'s Rust entry (Note [Backward entry in Rust]) and the leaf's ``AccumulateGrad``.

The fast case is ``loss.backward()`` (no gradient, no ``inputs=``, no
``create_graph``) of a plain one-element floating tensor that requires grad;
every other call takes the Python method with torch's checks and messages.
These tests take each fallback and pin what the fast case must keep: grad
mode restored, hooks, dispatch and function modes, subclasses, and the
lifetime of the leaf's ``AccumulateGrad``.
"""

import gc
import inspect
import weakref

import pytest

import opyard
from opyard.autograd.graph import AccumulateGrad
from opyard.overrides import TorchFunctionMode
from opyard.utils.python_dispatch import TorchDispatchMode

FREED = "Trying to backward through the graph a second time"


def leaf(values=(1.0, 2.0, 3.0), dtype=opyard.float32):
    return opyard.tensor(list(values), dtype=dtype, requires_grad=True)


@pytest.mark.parametrize("dtype", [opyard.float16, opyard.float32, opyard.float64])
def test_scalar_backward_accumulates_in_every_float_dtype(dtype):
    x = leaf(dtype=dtype)
    (x * 3).sum().backward()
    assert x.grad.dtype is dtype and x.grad.tolist() == [3.0, 3.0, 3.0]
    (x * 3).sum().backward()
    assert x.grad.tolist() == [6.0, 6.0, 6.0]


def test_one_element_non_0d_root_takes_the_fast_case():
    x = leaf()
    (x.sum() * 2).reshape(1).backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_retain_graph_keeps_the_graph_and_a_second_pass_without_it_raises():
    x = leaf()
    s = (x * x).sum()
    s.backward(retain_graph=True)
    s.backward(None, True)  # positional retain_graph
    s.backward()
    assert x.grad.tolist() == [6.0, 12.0, 18.0]
    with pytest.raises(RuntimeError, match=FREED):
        s.backward()


def test_leaf_root_accumulates_into_itself():
    x = opyard.tensor(2.0, requires_grad=True)
    x.backward()
    x.backward()
    assert x.grad.item() == 2.0 and x.is_leaf


def test_non_scalar_root_raises_torchs_message():
    x = leaf()
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()


@pytest.mark.parametrize("make", [lambda: opyard.tensor(3), lambda: opyard.tensor(3.0)],
                         ids=["integer", "float without grad"])
def test_tensor_without_grad_raises_torchs_message(make):
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not "
                                           "have a grad_fn"):
        make().backward()


def test_integer_output_of_a_graph_has_no_grad():
    x = leaf()
    with pytest.raises(RuntimeError, match="does not require grad"):
        x.argmax().backward()


def test_given_gradient_inputs_and_create_graph_take_the_general_path():
    x = leaf()
    (x * 2).backward(opyard.ones(3))
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    y = leaf()
    (x * y).sum().backward(inputs=[y])
    assert y.grad.tolist() == [1.0, 2.0, 3.0] and x.grad.tolist() == [2.0, 2.0, 2.0]
    z = leaf()
    with pytest.warns(UserWarning, match="create_graph=True will create a reference cycle"):
        (z * z).sum().backward(create_graph=True)
    assert z.grad.requires_grad and z.grad.tolist() == [2.0, 4.0, 6.0]
    z.grad = None


def test_none_arguments_are_the_fast_case():
    x = leaf()
    x.sum().backward(None, None, False, None)
    x.sum().backward(gradient=None, inputs=None, create_graph=None)
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_bad_arguments_raise_pythons_type_errors():
    s = leaf().sum()
    with pytest.raises(TypeError, match="unexpected keyword argument 'retain'"):
        s.backward(retain=True)
    with pytest.raises(TypeError, match="takes from 1 to 5 positional arguments but 6 were given"):
        s.backward(None, None, False, None, 1)
    with pytest.raises(TypeError, match="multiple values for argument 'gradient'"):
        s.backward(None, gradient=None)


def test_grad_mode_and_dispatch_keys_are_restored_also_after_an_error():
    x = leaf()
    s = (x * 2).sum()
    before = opyard._core._local_keysets()
    with opyard.no_grad():
        s.backward(retain_graph=True)
        assert not opyard.is_grad_enabled()
    assert opyard.is_grad_enabled() and x.grad.tolist() == [2.0, 2.0, 2.0]

    def boom(grad):
        raise ValueError("hook failed")

    x.register_hook(boom)
    with pytest.raises(ValueError, match="hook failed"):
        s.backward()
    assert opyard._core._local_keysets() == before and opyard.is_grad_enabled()


def test_leaf_hooks_run_on_the_fast_case():
    x = leaf()
    seen = []
    x.register_hook(lambda g: g * 10)
    x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.tolist()))
    y = x * 2
    y.register_hook(lambda g: seen.append("y") or g)
    y.sum().backward()
    assert seen == ["y", [20.0, 20.0, 20.0]]


def test_dispatch_mode_sees_the_root_gradient_and_the_accumulation():
    x = leaf()
    x.sum().backward()  # .grad exists: the next pass adds into it
    log = []

    class Log(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            log.append(str(func))
            return func(*args, **(kwargs or {}))

    s = x.sum()
    with Log():
        s.backward()
    assert log == ["aten.ones_like.default", "aten.expand.default", "aten.add_.Tensor"]
    assert x.grad.tolist() == [2.0, 2.0, 2.0]


def test_function_mode_is_not_consulted_for_a_plain_tensors_backward():
    names = []

    class Names(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            names.append(getattr(func, "__name__", str(func)))
            return func(*args, **(kwargs or {}))

    x = leaf()
    s = x.sum()
    with Names():
        s.backward()
    assert "backward" not in names and x.grad.tolist() == [1.0, 1.0, 1.0]


class Logged(opyard.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(getattr(func, "__name__", func))
        return super().__torch_function__(func, types, args, kwargs)


def test_subclass_backward_goes_through_its_torch_function():
    Logged.seen = []
    x = Logged([1.0, 2.0])
    x.requires_grad_()
    s = (x * x).sum()
    Logged.seen = []
    s.backward()
    assert Logged.seen[0] == "backward"
    assert x.grad.tolist() == [2.0, 4.0]


def test_backward_reads_like_the_python_method():
    method = opyard.Tensor.backward
    assert method.__name__ == "backward" and method.__qualname__ == "Tensor.backward"
    params = list(inspect.signature(method).parameters)
    assert params == ["self", "gradient", "retain_graph", "create_graph", "inputs"]
    assert "Accumulate the gradient" in method.__doc__
    assert opyard.overrides.is_tensor_method_or_property(method)


def test_accumulate_grad_is_shared_while_a_graph_holds_it():
    x = leaf()
    y = x * 2
    z = x * 3
    acc = y.grad_fn.next_functions[0][0]
    assert isinstance(acc, AccumulateGrad) and acc.variable is x
    assert z.grad_fn.next_functions[0][0] is acc
    assert x.grad_fn is None and x.is_leaf
    ref = weakref.ref(acc)
    del y, z, acc
    assert ref() is None  # the graph was its only owner: freed without the cyclic GC
    w = x * 4
    assert w.grad_fn.next_functions[0][0].variable is x


def test_a_graph_keeps_its_leaf_alive_and_frees_it_with_itself():
    gc.disable()
    try:
        x = leaf()
        xref = weakref.ref(x)
        s = (x * x).sum()
        acc_ref = weakref.ref(s.grad_fn.next_functions[0][0].next_functions[0][0])
        del x
        assert xref() is not None  # the AccumulateGrad holds the leaf
        s.backward()
        assert xref().grad.tolist() == [2.0, 4.0, 6.0]
        del s
        assert xref() is None and acc_ref() is None  # no reference cycle: refcounting frees both
    finally:
        gc.enable()


def test_first_grad_is_not_the_root_gradient_of_another_tensor():
    x = leaf()
    s = x.sum()
    s.backward(retain_graph=True)
    first = x.grad
    s.backward()
    assert x.grad is first and first.tolist() == [2.0, 2.0, 2.0]


# Adding into an existing .grad runs the built-in add_ kernel's in-place update without the
# call machinery when the dispatcher would run that kernel (Note [Accumulation without the
# call machinery]); these pin that it is the same call: in place, versioned, every layout and
# dtype, and every case the dispatcher would route elsewhere still reaches its kernel.


@pytest.mark.parametrize("dtype", [opyard.float16, opyard.bfloat16, opyard.float32, opyard.float64])
@pytest.mark.parametrize("make", ["fresh", "expanded", "transposed"])
def test_accumulation_into_an_existing_grad_is_in_place_and_versioned(dtype, make):
    base = [[1.0, -2.0, 3.5], [0.25, 5.0, -6.0]]
    x = opyard.tensor(base, dtype=dtype, requires_grad=True)
    w = opyard.tensor([[2.0, 3.0], [-1.0, 0.5], [4.0, 1.5]], dtype=dtype)
    losses = {
        "fresh": lambda: (x * 2).sum(),  # a new contiguous gradient
        "expanded": lambda: x.sum(),  # SumBackward0's ones, zero strides
        "transposed": lambda: (x.t() * w).sum(),  # a transposed gradient
    }
    expect = {"fresh": [[2.0] * 3] * 2, "expanded": [[1.0] * 3] * 2, "transposed": w.t().tolist()}
    losses[make]().backward()
    grad, version = x.grad, x.grad._version
    losses[make]().backward()
    assert x.grad is grad and x.grad.dtype is dtype
    assert x.grad._version == version + 1
    assert x.grad.tolist() == [[2 * v for v in row] for row in expect[make]]


def test_accumulation_into_a_non_contiguous_grad_adds_through_its_strides():
    x = leaf()
    x.grad = opyard.tensor([[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])[:, 0]
    (x * 2).sum().backward()
    assert x.grad.tolist() == [3.0, 4.0, 5.0]


def test_accumulation_reaches_a_cpu_kernel_registered_over_the_built_in_add_():
    calls = []
    original = opyard.library.get_kernel("aten::add_.Tensor", "CPU")

    def add_(keyset, self, other, alpha=1):
        calls.append((self.tolist(), other.tolist()))
        return original.call_boxed(keyset, self, other, alpha=alpha)

    x = leaf()
    x.sum().backward()
    lib = opyard.library.Library("aten", "IMPL")
    with pytest.warns(UserWarning, match="Overriding a previously registered kernel"):
        lib.impl("add_.Tensor", add_, "CPU", with_keyset=True)
    try:
        x.sum().backward()
    finally:
        lib._destroy()
    assert calls == [([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])]
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    x.sum().backward()  # the built-in kernel again
    assert calls == [([1.0, 1.0, 1.0], [1.0, 1.0, 1.0])] and x.grad.tolist() == [3.0, 3.0, 3.0]
