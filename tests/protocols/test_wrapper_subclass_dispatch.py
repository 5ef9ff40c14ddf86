"""Wrapper subclasses (_make_wrapper_subclass) and __opyard_dispatch__ / __torch_dispatch__."""

import opyard
import pytest
from opyard.library import Library
from opyard.utils.python_dispatch import _disabled_torch_dispatch_impl, is_traceable_wrapper_subclass

aten = opyard.ops.aten


class TwoTensor(opyard.Tensor):
    """Holds two tensors of one shape; every operator applies to both."""

    @staticmethod
    def __new__(cls, a, b):
        out = opyard.Tensor._make_wrapper_subclass(
            cls, a.shape, strides=a.stride(), storage_offset=a.storage_offset(),
            dtype=a.dtype, device=a.device, requires_grad=a.requires_grad)
        out.a, out.b = a, b
        return out

    def __init__(self, a, b):
        pass

    def __repr__(self):
        return f"TwoTensor({self.a}, {self.b})"

    funcs = []

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.funcs.append(func)
        kwargs = kwargs or {}

        def side(pick):
            return [pick(x) if isinstance(x, TwoTensor) else x for x in args]

        out_a = func(*side(lambda t: t.a), **kwargs)
        out_b = func(*side(lambda t: t.b), **kwargs)
        if isinstance(out_a, opyard.Tensor):
            return TwoTensor(out_a, out_b)
        if isinstance(out_a, (list, tuple)):
            return type(out_a)(TwoTensor(x, y) for x, y in zip(out_a, out_b))
        return out_a


@pytest.fixture(autouse=True)
def _clear():
    TwoTensor.funcs = []
    yield


def two(a, b, **kw):
    return TwoTensor(opyard.tensor(a, **kw), opyard.tensor(b, **kw))


def test_wrapper_metadata_and_keys():
    t = two([[1.0, 2.0, 3.0]], [[4.0, 5.0, 6.0]])
    assert t.shape == (1, 3) and t.stride() == (3, 1) and t.dtype == opyard.float32
    assert t.device == opyard.device("cpu") and t.storage_offset() == 0
    K, KS = opyard.dispatcher.DispatchKey, opyard.dispatcher.DispatchKeySet
    assert t._keyset == (KS(K.Python) | KS(K.CPU)).raw()
    assert not is_traceable_wrapper_subclass(t)  # no __tensor_flatten__
    assert not is_traceable_wrapper_subclass(opyard.ones(1))

    class Flat(TwoTensor):
        def __tensor_flatten__(self):
            return ["a", "b"], None

        @staticmethod
        def __tensor_unflatten__(inner, meta, outer_size, outer_stride):
            return Flat(inner["a"], inner["b"])

    assert is_traceable_wrapper_subclass(Flat(opyard.ones(1), opyard.zeros(1)))
    assert not t.requires_grad


def test_given_strides_and_offset_are_kept():
    t = opyard.Tensor._make_wrapper_subclass(TwoTensor, (2, 3), strides=(1, 2), storage_offset=5,
                                             dtype=opyard.float64, device="meta")
    assert t.stride() == (1, 2) and t.storage_offset() == 5 and not t.is_contiguous()
    assert t.dtype == opyard.float64 and t.device.type == "meta"


def test_ops_apply_to_both_and_see_overloads():
    t = two([1.0, 2.0], [10.0, 20.0])
    r = t * 2 + 1
    assert type(r) is TwoTensor
    assert r.a.tolist() == [3.0, 5.0] and r.b.tolist() == [21.0, 41.0]
    assert TwoTensor.funcs == [aten.mul.Tensor, aten.add.Tensor]  # a Python number: the Tensor overload


def test_mixed_with_a_plain_tensor_and_tuple_results():
    t = two([1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0])
    s = t + opyard.ones(4)
    assert s.a.tolist() == [2.0, 3.0, 4.0, 5.0]
    first, second = s.split(2)
    assert type(first) is TwoTensor and second.b.tolist() == [8.0, 9.0]


def test_custom_op_on_a_wrapper_reaches_torch_dispatch(ns):
    lib = Library(ns, "DEF")
    lib.define("scale(Tensor x, float f) -> Tensor")
    lib.impl("scale", lambda x, f: x * f, "CPU")
    op = getattr(opyard.ops, ns).scale
    out = op(two([1.0], [2.0]), 3.0)
    assert TwoTensor.funcs == [op.default]
    assert out.a.tolist() == [3.0] and out.b.tolist() == [6.0]
    lib._destroy()


def test_custom_op_def_on_a_wrapper(ns):
    @opyard.library.custom_op(f"{ns}::triple", mutates_args=())
    def triple(x: opyard.Tensor) -> opyard.Tensor:
        return x * 3

    out = triple(two([1.0], [2.0]))
    assert [str(f) for f in TwoTensor.funcs] == [f"{ns}.triple.default"]
    assert out.b.tolist() == [6.0]


def test_autograd_runs_above_the_wrapper():
    t = two([1.0, 2.0], [3.0, 4.0])
    t.requires_grad_()
    out = (t * t).sum()
    assert type(out) is TwoTensor and out.grad_fn is not None
    TwoTensor.funcs = []
    out.backward()
    assert type(t.grad) is TwoTensor
    assert t.grad.a.tolist() == [2.0, 4.0] and t.grad.b.tolist() == [6.0, 8.0]
    assert aten.mul.Tensor in TwoTensor.funcs  # the backward's own ops reach the subclass


def test_requires_grad_at_creation_sets_the_autograd_key():
    K, KS = opyard.dispatcher.DispatchKey, opyard.dispatcher.DispatchKeySet
    t = opyard.Tensor._make_wrapper_subclass(TwoTensor, (2,), requires_grad=True)
    assert t.requires_grad and t.is_leaf
    assert t._keyset == (KS(K.Python) | KS(K.CPU) | KS(K.AutogradCPU)).raw()


@pytest.mark.parametrize("call, exc, match", [
    (lambda: opyard.Tensor._make_wrapper_subclass(int, (2,)), TypeError,
     r"Creating a Tensor subclass from a class that does not inherit from Tensor is not possible"),
    (lambda: opyard.Tensor._make_wrapper_subclass(3, (2,)), TypeError, r"cls must be a type \(got int\)"),
    (lambda: opyard.Tensor._make_wrapper_subclass(TwoTensor, 3), TypeError,
     r"_make_wrapper_subclass\(\): argument 'size' \(position 2\) must be tuple of ints, not int"),
    (lambda: opyard.Tensor._make_wrapper_subclass(TwoTensor, (2, -1)), RuntimeError,
     r"Trying to create tensor with negative dimension -1: \[2, -1\]"),
    (lambda: opyard.Tensor._make_wrapper_subclass(TwoTensor, (2, 3), strides=(1,)), RuntimeError,
     r"dimensionality of sizes \(2\) must match dimensionality of strides \(1\)"),
    (lambda: opyard.Tensor._make_wrapper_subclass(TwoTensor, (2,), dtype="float"), TypeError,
     r"_make_wrapper_subclass\(\): argument 'dtype' must be opyard.dtype, not str"),
    (lambda: opyard.Tensor._make_wrapper_subclass(TwoTensor, (2,), dtype=opyard.int64,
                                                  requires_grad=True),
     RuntimeError, r"Only Tensors of floating point and complex dtype can require gradients"),
    (lambda: opyard.Tensor._make_wrapper_subclass(TwoTensor, (2,), dispatch_sizes_strides_policy="bad"),
     ValueError, r"Unknown sizes_strides_policy: bad; expected 'strides' or 'sizes'"),
])
def test_make_wrapper_subclass_errors(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@pytest.mark.parametrize("read, match", [
    (lambda t: t.numpy(), r"^\.numpy\(\) is not supported for tensor subclasses\.$"),
    (lambda t: t.tolist(), r"^\.tolist\(\) is not supported for tensor subclasses, got TwoTensor$"),
    (lambda t: t.__array__(), r"TwoTensor\.__array__: this tensor was made by Tensor._make_wrapper_subclass and "
                              r"holds no data"),
])
def test_wrapper_has_no_data_of_its_own(read, match):
    t = opyard.Tensor._make_wrapper_subclass(TwoTensor, (1,))
    with pytest.raises(RuntimeError, match=match):
        read(t)


def test_item_of_a_wrapper_asks_its_handler():
    t = two([2.5], [4.0])
    assert t.item() == 2.5 and TwoTensor.funcs == [aten._local_scalar_dense.default]


class Bad(opyard.Tensor):
    returns = None

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return cls.returns


@pytest.mark.parametrize("value, exc, match", [
    (3, RuntimeError, r"^Unable to cast 3 to Tensor: Bad.__torch_dispatch__ returned it for aten.sin.default"),
    ("arf", RuntimeError, r"^Unable to cast arf to Tensor"),
    ([opyard.ones(1)], RuntimeError, r"^Unable to cast \[tensor\(\[1.\]\)\] to Tensor"),
])
def test_wrong_result_type_names_op_and_subclass(value, exc, match):
    # torch's conversion of the returned object: "Unable to cast <value> to Tensor"
    Bad.returns = value
    t = opyard.Tensor._make_wrapper_subclass(Bad, (1,))
    with pytest.raises(exc, match=match):
        t.sin()


def test_none_for_a_tensor_result_is_returned_as_none():
    # torch reads None as an undefined tensor: the call returns None, no error
    Bad.returns = None
    assert opyard.Tensor._make_wrapper_subclass(Bad, (1,)).sin() is None


@pytest.mark.parametrize("value, exc, match", [
    ((opyard.ones(1),), RuntimeError,
     r"^Expected Bad.__torch_dispatch__ to return 2 values for aten.sort.default, but it returned 1$"),
    (opyard.ones(1), TypeError, r"^Object of type 'Tensor' is not an instance of 'sequence'"),
    ((opyard.ones(1), "x"), RuntimeError, r"^Unable to cast x to Tensor"),
])
def test_wrong_results_for_a_multi_return_op(value, exc, match):
    Bad.returns = value
    t = opyard.Tensor._make_wrapper_subclass(Bad, (3,))
    with pytest.raises(exc, match=match):
        aten.sort.default(t)


def test_none_inside_a_multi_return_result_is_kept():
    Bad.returns = (opyard.ones(1), None)
    assert aten.sort.default(opyard.Tensor._make_wrapper_subclass(Bad, (3,)))[1] is None


@pytest.mark.parametrize("value", [None, opyard.ones(1), [opyard.ones(1), None]])
def test_tensor_list_results_must_be_lists_of_tensors(value):
    Bad.returns = value
    t = opyard.Tensor._make_wrapper_subclass(Bad, (2,))
    with pytest.raises(RuntimeError, match=r"^Unable to cast Python instance of type .* to Tensor\[\]"):
        aten.split.Tensor(t, 1)


def test_not_implemented_from_every_subclass():
    class Refuses(opyard.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    t = opyard.Tensor._make_wrapper_subclass(Refuses, (1,))
    with pytest.raises(TypeError, match=r"^Multiple dispatch failed for 'opyard._ops.aten.neg.default'; all "
                                        r"__torch_dispatch__ handlers returned NotImplemented:\n\n  - tensor "
                                        r"subclass <class '.*Refuses'>\n\nFor more information, try re-running "
                                        r"with TORCH_LOGS=not_implemented$"):
        t.neg()


def test_calling_func_on_the_wrapper_itself_is_explained():
    class Loops(opyard.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    t = opyard.Tensor._make_wrapper_subclass(Loops, (1,))
    with pytest.raises(RecursionError, match=r"Loops.__torch_dispatch__ for aten.neg.default: it called "
                                             r"func again on its own wrapper tensors"):
        t.neg()


def test_opyard_spelling_of_the_protocol():
    class Spelled(opyard.Tensor):
        @classmethod
        def __opyard_dispatch__(cls, func, types, args=(), kwargs=None):
            return opyard.full((1,), 7.0)

    t = opyard.Tensor._make_wrapper_subclass(Spelled, (1,))
    assert t.exp().tolist() == [7.0]


def test_custom_op_autograd_on_a_wrapper_forward_and_backward(ns):
    @opyard.library.custom_op(f"{ns}::scale3", mutates_args=())
    def scale3(x: opyard.Tensor) -> opyard.Tensor:
        return x * 3

    scale3.register_autograd(lambda ctx, g: g * 3)
    t = two([1.0, 2.0], [3.0, 4.0])
    t.requires_grad_()
    scale3(t).sum().backward()
    assert [str(f) for f in TwoTensor.funcs] == [
        f"{ns}.scale3.default", "aten.sum.default",                    # forward, below autograd
        "aten.ones_like.default", "aten.expand.default", "aten.mul.Tensor",  # backward
    ]
    assert t.grad.a.tolist() == [3.0, 3.0] and t.grad.b.tolist() == [3.0, 3.0]


@pytest.mark.parametrize("opt_out", [False, True])
def test_wrapper_class_without_torch_dispatch(opt_out):
    # torch refuses at construction: a wrapper holds no data for Tensor's default to run on.
    NoHandler = type("NoHandler", (opyard.Tensor,), {"__torch_dispatch__": _disabled_torch_dispatch_impl}
                     if opt_out else {})
    with pytest.raises(TypeError, match=r"^NoHandler must define __torch_dispatch__$"):
        opyard.Tensor._make_wrapper_subclass(NoHandler, (1,))


def test_composite_implicit_ops_reach_the_subclass_decomposed():
    t = two([[1.0, 2.0]], [[3.0, 4.0]])
    out = opyard.matmul(t, opyard.ones(2, 1))
    assert TwoTensor.funcs == [aten.mm.default]
    assert out.a.tolist() == [[3.0]] and out.b.tolist() == [[7.0]]
