"""The built-in ops' Autograd kernel in Rust (``_core._PlainAutogradKernel``) against the
Python kernel it replaced and numpy (the Rust backward applies: ``test_node_applies.py``).

Every plain op (no ``Tensor[]`` differentiable argument, no mutation, no view output) records
through the Rust kernel; ``make_kernel(op, formula, rust=False)`` builds the Python kernel it
replaced, and a ``_NodeApply``'s ``__wrapped__`` is the Python apply it replaced.
"""

import numpy as np
import opyard
import opyard.autograd.forward_ad as fwAD
import pytest
from opyard import _core
from opyard.autograd.derivatives import formula
from opyard.autograd.derivatives.registry import TensorMeta, make_kernel, tensor_meta
from opyard.autograd.graph import SavedTensor

A = opyard.ops.aten
KEYS = _core._local_keysets()[0]  # a key set object: the kernels ignore its value


def _leaf(values, dtype=opyard.float32):
    return opyard.tensor(values, dtype=dtype, requires_grad=True)


def _kernels(op, name):
    return make_kernel(op, formula(name)), make_kernel(op, formula(name), rust=False)


# (formula row, op, args builder, kwargs): args from two leaves a, b of shape (3,).
CASES = [
    ("aten::sum", A.sum.default, lambda a, b: (a,), {}),
    ("aten::neg", A.neg.default, lambda a, b: (a,), {}),
    ("aten::clone", A.clone.default, lambda a, b: (a,), {}),
    ("aten::mul.Scalar", A.mul.Scalar, lambda a, b: (a, 2.5), {}),
    ("aten::mul.Tensor", A.mul.Tensor, lambda a, b: (a, b), {}),
    ("aten::add.Tensor", A.add.Tensor, lambda a, b: (a, b), {}),
    ("aten::add.Tensor", A.add.Tensor, lambda a, b: (a, b), {"alpha": 2}),
    ("aten::sub.Tensor", A.sub.Tensor, lambda a, b: (a, b), {"alpha": 0.5}),
    ("aten::sub.Tensor", A.sub.Tensor, lambda a, b: (a, b), {}),
    ("aten::div.Tensor", A.div.Tensor, lambda a, b: (a, b), {}),
    ("aten::exp", A.exp.default, lambda a, b: (a,), {}),
    ("aten::sum.dim_IntList", A.sum.dim_IntList, lambda a, b: (a, [0], True), {}),
    ("aten::mean", A.mean.default, lambda a, b: (a,), {}),
    ("aten::add.Scalar", A.add.Scalar, lambda a, b: (a, 1.5), {}),
]


def _ids(case):
    return f"{case[0]}{'-' + str(case[3]) if case[3] else ''}"


def test_plain_ops_get_the_rust_kernel_and_others_keep_python():
    assert isinstance(make_kernel(A.sum.default, formula("aten::sum")), _core._PlainAutogradKernel)
    assert isinstance(make_kernel(A.mul.Tensor, formula("aten::mul.Tensor")), _core._PlainAutogradKernel)
    # A view op and an in-place op on self take the Rust kernel too; a Tensor[] differentiable
    # argument the Python general kernel; the Python plain kernel on request.
    assert isinstance(make_kernel(A.expand.default, formula("aten::expand")), _core._PlainAutogradKernel)
    assert isinstance(make_kernel(A.copy_.default, formula("aten::copy_")), _core._PlainAutogradKernel)
    assert not isinstance(make_kernel(A.cat.default, formula("aten::cat")), _core._PlainAutogradKernel)
    py = make_kernel(A.sum.default, formula("aten::sum"), rust=False)
    assert callable(py) and not isinstance(py, _core._PlainAutogradKernel)
    rust = make_kernel(A.sum.default, formula("aten::sum"))
    assert rust.__name__ == py.__name__ == "autograd_aten_sum"
    assert rust.node_cls.__name__ == "SumBackward0"
    assert callable(rust.__wrapped__)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_rust_kernel_records_what_the_python_kernel_records(case):
    name, op, build, kwargs = case
    rust, py = _kernels(op, name)
    results = []
    for kernel in (rust, py):
        a, b = _leaf([1.0, -2.0, 3.0]), _leaf([0.5, 4.0, -1.5])
        out = kernel(KEYS, *build(a, b), **kwargs)
        fn = out.grad_fn
        edges = [(type(n).__name__ if n is not None else None, nr) for n, nr in fn.next_functions]
        saved = [type(v).__name__ if isinstance(v, (SavedTensor, TensorMeta)) else v for v in fn._saved]
        out.sum().backward() if out.dim() else out.backward()
        results.append((out.tolist(), type(fn).__name__, edges, saved, out.requires_grad,
                        a.grad.tolist(), None if b.grad is None else b.grad.tolist()))
    assert results[0] == results[1]


@pytest.mark.parametrize("op, args, expected", [
    ("sum", lambda a, b: a.sum(), lambda a, b: (np.ones(3), None)),
    ("mean", lambda a, b: a.mean() * 3.0, lambda a, b: (np.ones(3), None)),
    ("neg", lambda a, b: -a, lambda a, b: (-np.ones(3), None)),
    ("clone", lambda a, b: a.clone(), lambda a, b: (np.ones(3), None)),
    ("mul.Scalar", lambda a, b: a * 3.0, lambda a, b: (np.full(3, 3.0), None)),
    ("mul.Tensor", lambda a, b: a * b, lambda a, b: (b, a)),
    ("add.Tensor", lambda a, b: a + b, lambda a, b: (np.ones(3), np.ones(3))),
    ("add alpha", lambda a, b: opyard.add(a, b, alpha=3), lambda a, b: (np.ones(3), np.full(3, 3.0))),
    ("sub.Tensor", lambda a, b: a - b, lambda a, b: (np.ones(3), -np.ones(3))),
    ("sub alpha", lambda a, b: opyard.sub(a, b, alpha=2), lambda a, b: (np.ones(3), np.full(3, -2.0))),
])
def test_gradients_match_numpy(op, args, expected):
    na, nb = np.array([1.0, -2.0, 3.0]), np.array([0.5, 4.0, -1.5])
    a, b = _leaf(na, opyard.float64), _leaf(nb, opyard.float64)
    args(a, b).sum().backward()
    ga, gb = expected(na, nb)
    np.testing.assert_array_equal(a.grad.numpy(), ga)
    if gb is None:
        assert b.grad is None
    else:
        np.testing.assert_array_equal(b.grad.numpy(), gb)


def test_graph_names_and_next_functions():
    x = _leaf([1.0, 2.0])
    y = (-(x * 2).clone() + x).sum()
    assert y.grad_fn.name() == "SumBackward0"
    add = y.grad_fn.next_functions[0][0]
    assert type(add).__name__ == "AddBackward0"
    (neg, nr0), (acc, nr1) = add.next_functions
    assert (type(neg).__name__, nr0, type(acc).__name__, nr1) == ("NegBackward0", 0, "AccumulateGrad", 0)
    assert acc.variable is x
    clone = neg.next_functions[0][0]
    assert type(clone).__name__ == "CloneBackward0"
    assert type(clone.next_functions[0][0]).__name__ == "MulBackward0"  # a number operand: torch's mul.Tensor
    # Non-differentiable / no-grad inputs get an empty edge.
    z = x * opyard.ones(2)
    assert z.grad_fn.next_functions[1] == (None, 0)


def test_saved_values_and_their_accessors():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    m = a * b
    assert m.grad_fn._saved_self is a and m.grad_fn._saved_other is b
    s = opyard.add(a, b, alpha=2)
    assert s.grad_fn._saved_alpha == 2
    with pytest.raises(AttributeError, match="_saved_self"):
        _ = s.grad_fn._saved_self  # kept only as shape/dtype
    assert s.grad_fn._saved[0] is tensor_meta(a)
    assert a.sum().grad_fn._saved[0].shape == (2,)
    st = m.grad_fn._saved[0]
    assert type(st) is SavedTensor
    assert (st.tensor, st.version, st.is_output, st.node_name, st.output_nr) == (a, 0, False, "", 0)


def test_result_saved_by_the_rust_kernel():
    x = _leaf([0.5, -1.0])
    y = x.exp()
    st = y.grad_fn._saved[-1]
    assert (st.tensor is y, st.is_output, st.node_name, st.output_nr) == (True, True, "ExpBackward0", 0)
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), np.exp([0.5, -1.0]), rtol=1e-6)


def test_shared_meta_survives_a_cleared_rust_cache():
    a = _leaf([1.0])
    _core._clear_meta_cache()
    first = (a + a).grad_fn._saved[0]
    _core._clear_meta_cache()
    assert (a + a).grad_fn._saved[0] is first  # Python's cache still hands out the same object
    assert first is tensor_meta(a)


def test_keyword_arguments():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    y = opyard.add(a, other=b, alpha=3)
    y.sum().backward()
    assert (a.grad.tolist(), b.grad.tolist()) == ([1.0, 1.0], [3.0, 3.0])
    s = a.sum(dtype=opyard.float64)
    assert s.dtype == opyard.float64 and s.grad_fn.name() == "SumBackward0"
    # A keyword the kernel does not place goes to the Python kernel, which reports it as before
    # (the dispatcher's binder refuses unknown keywords before any kernel runs).
    rust, py = _kernels(A.mul.Scalar, "aten::mul.Scalar")
    errors = []
    for k in (rust, py):
        with pytest.raises(Exception) as info:
            k(KEYS, a, bogus=1)
        errors.append((type(info.value), str(info.value)))
    assert errors[0] == errors[1]
    with pytest.raises(TypeError, match="bogus"):
        opyard.mul(a, 2.0, bogus=1)


def test_parameters_and_subclasses():
    p = opyard.nn.Parameter(opyard.tensor([1.0, 2.0]))
    (p * p).sum().backward()
    assert p.grad.tolist() == [2.0, 4.0]

    class Sub(opyard.Tensor):
        pass

    s = opyard.tensor([1.0, 2.0]).as_subclass(Sub).requires_grad_()
    y = (s * 3.0).sum()
    assert y.grad_fn.name() == "SumBackward0"
    y.backward()
    assert s.grad.tolist() == [3.0, 3.0]


def test_forward_ad_takes_the_general_kernel():
    x = _leaf([1.0, 2.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, opyard.tensor([1.0, 0.5]))
        y = d * 3.0 + d
        _, t = fwAD.unpack_dual(y)
        assert t.tolist() == [4.0, 2.0]
        assert y.grad_fn.name() == "AddBackward0"
        y.sum().backward()
    assert x.grad.tolist() == [4.0, 4.0]
    # After the level, the Rust path again (no tangents).
    z = x * 2
    assert z.grad_fn.name() == "MulBackward0"


def test_no_grad_and_inference_mode_record_nothing():
    x = _leaf([1.0, 2.0])
    with opyard.no_grad():
        y = x * 2 + x
    assert y.grad_fn is None and not y.requires_grad
    with opyard.inference_mode():
        z = x.sum()
    assert z.grad_fn is None and not z.requires_grad
    assert (x * 2).requires_grad


def test_integer_and_non_floating_outputs():
    x = _leaf([1.0, 2.5])
    i = opyard.tensor([1, 2])
    y = x * i
    assert y.requires_grad and y.grad_fn.name() == "MulBackward0"
    assert not (i * 2).requires_grad


def test_tuple_outputs_are_recorded_by_python():
    x = _leaf([[1.0, 5.0], [3.0, 2.0]])
    values, _ = x.max(dim=1)
    assert values.grad_fn.name() == "MaxBackward0"
    values.sum().backward()
    assert x.grad.tolist() == [[0.0, 1.0], [1.0, 0.0]]


def test_an_error_in_the_op_restores_grad_mode():
    a, b = _leaf([1.0, 2.0]), _leaf([1.0, 2.0, 3.0])
    with pytest.raises(RuntimeError):
        a + b
    assert opyard.is_grad_enabled()
    assert (a * 2).grad_fn is not None


def test_plain_kernel_constructor_errors():
    op, f = A.neg.default, formula("aten::neg")
    good = make_kernel(op, f)
    general = good.__wrapped__
    args = {"op": op, "general": general, "record": general, "node_cls": good.node_cls, "diff_pos": [0],
            "saves": [1], "defaults": [None], "names": ["self"], "result_name": None,
            "tensor_meta": tensor_meta, "saved_tensor": SavedTensor, "name": "k"}
    _core._PlainAutogradKernel(**args)
    with pytest.raises(ValueError, match="save kind 7"):
        _core._PlainAutogradKernel(**{**args, "saves": [7]})
    with pytest.raises(ValueError, match="one entry per argument"):
        _core._PlainAutogradKernel(**{**args, "defaults": []})
    with pytest.raises(ValueError, match="diff_pos positions below 1"):
        _core._PlainAutogradKernel(**{**args, "diff_pos": [3]})
    with pytest.raises(TypeError, match="node_cls must subclass NodeBase"):
        _core._PlainAutogradKernel(**{**args, "node_cls": int})
    with pytest.raises(TypeError, match="key set first"):
        good()


def _mul_kernel(**overrides):
    op, f = A.mul.Tensor, formula("aten::mul.Tensor")
    good = make_kernel(op, f)
    args = {"op": op, "general": good.__wrapped__, "record": good.__wrapped__, "node_cls": good.node_cls,
            "diff_pos": [0, 1], "saves": [0, 0], "defaults": [None, None], "names": ["self", "other"],
            "result_name": None, "tensor_meta": tensor_meta, "saved_tensor": SavedTensor, "name": "k"}
    return _core._PlainAutogradKernel(**{**args, **overrides})


def test_saved_tensor_made_in_rust_is_the_python_one():
    a, b = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    with opyard.no_grad():
        a2 = a.clone()
        a2.add_(1)  # version 1
    a2.requires_grad_()
    fn = _mul_kernel()(KEYS, a2, b).grad_fn
    ours, theirs = fn._saved[0], SavedTensor(a2)
    fields = SavedTensor.__slots__
    assert [getattr(ours, n) for n in fields] == [getattr(theirs, n) for n in fields]
    assert ours.version == 1


def test_a_changed_saved_tensor_class_is_called():
    made = []

    class LoggingSaved(SavedTensor):
        __slots__ = ()

        def __init__(self, tensor, *args):
            made.append(tensor)
            super().__init__(tensor, *args)

    a, b = _leaf([1.0]), _leaf([2.0])
    out = _mul_kernel(saved_tensor=LoggingSaved)(KEYS, a, b)
    assert [type(s) for s in out.grad_fn._saved] == [LoggingSaved, LoggingSaved]
    assert made == [a, b]
    out.backward()  # the Rust apply of MulBackward0 reads a SavedTensor subclass through Python
    assert (a.grad.tolist(), b.grad.tolist()) == ([2.0], [1.0])


def test_a_node_class_with_its_own_init_is_called():
    base = make_kernel(A.mul.Tensor, formula("aten::mul.Tensor")).node_cls
    inits = []

    class Counted(base):
        def __init__(self):
            inits.append(1)

    out = _mul_kernel(node_cls=Counted)(KEYS, _leaf([1.0]), _leaf([2.0]))
    assert type(out.grad_fn) is Counted and inits == [1]


def test_function_and_dispatch_modes_see_what_they_saw_before():
    from opyard.overrides import TorchFunctionMode
    from opyard.utils.python_dispatch import TorchDispatchMode

    log = []

    class Functions(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            log.append(func.__name__)
            return func(*args, **(kwargs or {}))

    class Dispatch(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            log.append(str(func))
            return func(*args, **(kwargs or {}))

    xr = _leaf([1.0, 2.0])
    with Functions():
        y = (xr * 2).sum()
    assert log == ["mul", "sum"] and y.grad_fn.name() == "SumBackward0"
    log.clear()
    with Dispatch():
        y = (xr * 2).sum()
        y.backward()
    assert log == ["aten.mul.Tensor", "aten.sum.default", "aten.ones_like.default", "aten.expand.default",
                   "aten.mul.Tensor"]
    assert xr.grad.tolist() == [2.0, 2.0]


def test_meta_cache_past_its_bound_keeps_every_shape_right():
    _core._clear_meta_cache()
    nodes = []
    for n in range(1, 4200):  # more shapes than the cache holds: it is emptied once on the way
        t = opyard.ones(n, requires_grad=True)
        nodes.append(((t + t).grad_fn, n))
    assert all(node._saved[0].shape == (n,) and node._saved[0].dtype == opyard.float32 for node, n in nodes)
    d = opyard.ones(2, dtype=opyard.float64, requires_grad=True)
    assert (d + d).grad_fn._saved[0].dtype == opyard.float64  # keyed by dtype too
