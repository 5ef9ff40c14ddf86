"""The backward engine: accumulation, graph lifetime, higher order, hooks, grad modes, errors."""

import threading

import numpy as np
import pytest

import opyard
from opyard.autograd import grad


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


def close(a, b):
    return np.allclose(np.asarray(a.detach().numpy()), np.asarray(b), atol=1e-6)


def test_backward_accumulates_into_leaf_grad():
    x = t([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).sum().backward()
    assert close(x.grad, [2, 4, 6])
    (x * 3).sum().backward()
    assert close(x.grad, [5, 7, 9])


def test_graph_structure_and_node_names():
    x = t([1.0, 2.0], requires_grad=True)
    y = (x.sin() * x).sum()
    assert y.grad_fn.name() == "SumBackward0"
    mul = y.grad_fn.next_functions[0][0]
    assert mul.name() == "MulBackward0"
    names = {fn.name() for fn, _ in mul.next_functions if fn is not None}
    assert names == {"SinBackward0", "AccumulateGrad"}
    assert x.is_leaf and not y.is_leaf and y.requires_grad


def test_second_backward_without_retain_graph_raises():
    x = t([1.0, 2.0], requires_grad=True)
    y = x.sin().sum()
    y.backward()
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        y.backward()


def test_retain_graph_allows_second_backward():
    x = t([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward(retain_graph=True)
    y.backward()
    assert close(x.grad, 2 * np.exp([1.0, 2.0]))


def test_implicit_grad_only_for_scalars():
    x = t([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        (x * 2).backward()
    (x * 2).backward(t([1.0, 10.0]))
    assert close(x.grad, [2, 20])


def test_gradient_shape_mismatch_message():
    x = t([1.0, 2.0, 3.0], requires_grad=True)
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape of "):
        (x * 2).backward(t([1.0, 2.0]))


def test_backward_of_tensor_without_grad_raises():
    x = t([1.0])
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not "
                                           "have a grad_fn"):
        x.sum().backward()


def test_broadcast_gradients_are_reduced():
    a = t([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = t([10.0, 20.0, 30.0], requires_grad=True)
    (a * b).sum().backward()
    assert close(b.grad, [5, 7, 9])
    assert close(a.grad, [[10, 20, 30], [10, 20, 30]])


def test_diamond_runs_each_node_once_in_dependency_order():
    x = t([1.0, 2.0], requires_grad=True)
    y = x * 2
    order = []
    y.register_hook(lambda g: order.append("y") or None)
    a = y * 3
    a.register_hook(lambda g: order.append("a") or None)
    b = y.sin()
    b.register_hook(lambda g: order.append("b") or None)
    (a + b).sum().backward()
    assert order.index("y") > order.index("a") and order.index("y") > order.index("b")
    assert order.count("y") == 1
    assert close(x.grad, 2 * (3 + np.cos([2.0, 4.0])))


def test_grad_returns_without_accumulating():
    x = t([1.0, 2.0], requires_grad=True)
    (gx,) = grad((x ** 3).sum(), x)
    assert close(gx, [3, 12])
    assert x.grad is None


def test_grad_allow_unused():
    x = t([1.0], requires_grad=True)
    z = t([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="appears to not have been used in the graph"):
        grad((x * 2).sum(), [x, z])
    gx, gz = grad((x * 2).sum(), [x, z], allow_unused=True)
    assert gz is None and close(gx, [2])
    gx, gz = grad((x * 2).sum(), [x, z], materialize_grads=True)
    assert close(gz, [0])


def test_grad_input_without_requires_grad():
    x = t([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require grad"):
        grad((x * 2).sum(), t([1.0]))


def test_grad_of_intermediate():
    x = t([1.0, 2.0], requires_grad=True)
    y = x * 3
    (gy,) = grad((y * y).sum(), y)
    assert close(gy, [6, 12])


def test_double_backward_with_create_graph():
    x = t([1.0, 2.0], requires_grad=True)
    (g,) = grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad
    (gg,) = grad(g.sum(), x)
    assert close(gg, [6, 12])


def test_backward_inputs_restricts_accumulation():
    x = t([1.0], requires_grad=True)
    w = t([2.0], requires_grad=True)
    (x * w).sum().backward(inputs=[x])
    assert close(x.grad, [2]) and w.grad is None
    with pytest.raises(RuntimeError, match="`inputs` argument to `backward\\(\\)` cannot be empty"):
        (x * w).sum().backward(inputs=[])


def test_hooks_can_replace_gradients_and_be_removed():
    x = t([1.0, 2.0], requires_grad=True)
    handle = x.register_hook(lambda g: g * 10)
    (x * 1).sum().backward()
    assert close(x.grad, [10, 10])
    handle.remove()
    x.grad = None
    (x * 1).sum().backward()
    assert close(x.grad, [1, 1])


def test_hook_on_non_leaf_and_retain_grad():
    x = t([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    seen = []
    y.register_hook(lambda g: seen.append(g) or None)
    (y * y).sum().backward()
    assert y.retains_grad
    assert close(y.grad, [4, 8]) and close(seen[0], [4, 8])


def test_hook_errors():
    with pytest.raises(RuntimeError, match="cannot register a hook on a tensor that doesn't require gradient"):
        t([1.0]).register_hook(lambda g: g)
    with pytest.raises(RuntimeError, match="can't retain_grad on Tensor that has requires_grad=False"):
        t([1.0]).retain_grad()


def test_node_hooks():
    x = t([1.0, 2.0], requires_grad=True)
    y = x.sin()
    calls = []
    y.grad_fn.register_prehook(lambda gouts: calls.append("pre") or None)
    y.grad_fn.register_hook(lambda gins, gouts: calls.append("post") or None)
    y.sum().backward()
    assert calls == ["pre", "post"]


def test_post_accumulate_grad_hook():
    x = t([1.0], requires_grad=True)
    seen = []
    x.register_post_accumulate_grad_hook(lambda p: seen.append(p.grad))
    (x * 4).sum().backward()
    assert close(seen[0], [4])


def test_saved_tensor_modified_inplace_message():
    x = t([1.0, 2.0, 3.0], requires_grad=True)
    y = x.exp()
    y.add_(1)
    with pytest.raises(RuntimeError, match=r"one of the variables needed for gradient computation has "
                                           r"been modified by an inplace operation: \[opyard\.DoubleTensor "
                                           r"\[3\]\], which is output 0 of Exp, is at version 1; "
                                           r"expected version 0 instead"):
        y.sum().backward()


def test_inplace_on_leaf_requiring_grad_raises():
    x = t([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad is being used in an "
                                           "in-place operation."):
        x.add_(1)
    with opyard.no_grad():
        x.add_(1)  # allowed without grad mode
    assert close(x, [2])


def test_inplace_rebases_history():
    x = t([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.mul_(x)
    assert y.grad_fn.name() == "MulBackward0"
    y.sum().backward()
    assert close(x.grad, [2, 4])


def test_views_get_view_grad_fns():
    x = t([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    v = x.t()
    assert v.grad_fn.name() == "TBackward0"
    (v * t([[1.0, 2.0], [3.0, 4.0]])).sum().backward()
    assert close(x.grad, [[1, 3], [2, 4]])


def test_detach_and_requires_grad_rules():
    x = t([1.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    assert not d.requires_grad and d.grad_fn is None
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad = False
    z = t([1.0]).requires_grad_()
    assert z.requires_grad and z.is_leaf


def test_no_grad_and_enable_grad():
    x = t([1.0], requires_grad=True)
    with opyard.no_grad():
        assert not opyard.is_grad_enabled()
        y = x * 2
        with opyard.enable_grad():
            z = x * 2
    assert not y.requires_grad and z.requires_grad
    assert opyard.is_grad_enabled()


def test_no_grad_decorator_and_set_grad_enabled():
    x = t([1.0], requires_grad=True)

    @opyard.no_grad()
    def f(v):
        return v * 2

    @opyard.no_grad
    def g(v):
        return v * 2

    assert not f(x).requires_grad and not g(x).requires_grad
    with opyard.set_grad_enabled(False):
        assert not (x * 2).requires_grad
    assert opyard.is_grad_enabled()
    opyard.set_grad_enabled(False)
    try:
        assert not opyard.is_grad_enabled()
    finally:
        opyard.set_grad_enabled(True)


def test_inference_mode():
    x = t([1.0], requires_grad=True)
    with opyard.inference_mode():
        assert not (x * 2).requires_grad
        assert opyard.autograd.is_inference_mode_enabled()
    with opyard.inference_mode(False):
        assert (x * 2).requires_grad


def test_grad_mode_is_per_thread():
    results = {}
    started = threading.Event()
    release = threading.Event()

    def other():
        started.set()
        release.wait()
        results["other"] = opyard.is_grad_enabled()

    thread = threading.Thread(target=other)
    thread.start()
    started.wait()
    with opyard.no_grad():
        release.set()
        thread.join()
        results["main"] = opyard.is_grad_enabled()
    assert results == {"other": True, "main": False}


def test_op_without_formula_gets_not_implemented_node(ns):
    lib = opyard.library.Library(ns, "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x * 2, "CPU")
    op = getattr(opyard.ops, ns).twice
    x = t([1.0], requires_grad=True)
    y = op(x)
    assert y.requires_grad and y.grad_fn.name() == "NotImplemented"
    with pytest.raises(RuntimeError, match=f"Trying to backward through {ns}::twice but no autograd "
                                           "formula was registered for it. Use "
                                           "opyard.library.register_autograd to add one"):
        y.sum().backward()
    assert not op(t([1.0])).requires_grad


def test_fallback_passes_non_tensor_outputs_through(ns):
    lib = opyard.library.Library(ns, "DEF")
    lib.define("count(Tensor x) -> int")
    lib.impl("count", lambda x: 3, "CPU")
    assert getattr(opyard.ops, ns).count(t([1.0], requires_grad=True)) == 3


def test_leaf_grad_never_aliases_a_gradient_the_caller_holds():
    x = t([1.0, 2.0], requires_grad=True)
    g = t([1.0, 1.0])
    (x * 1).backward(g)
    (x * 1).backward(g)
    assert close(g, [1, 1]) and close(x.grad, [2, 2])
    w = t([1.0, 2.0], requires_grad=True)
    w.backward(g)
    w.backward(g)
    assert close(g, [1, 1]) and close(w.grad, [2, 2])


# --- in-place ops on leaves and retain_grad --------------------------------------------------------

@pytest.mark.parametrize("write, match", [
    (lambda x: x.__setitem__(0, opyard.tensor(1.0)), "a view of a leaf Variable that requires grad"),
    (lambda x: x.add_(1), "^a leaf Variable that requires grad is being used in an in-place operation.$"),
    (lambda x: x[0:2].mul_(2), "a view of a leaf Variable that requires grad"),
])
def test_in_place_on_leaf_requiring_grad(write, match):
    x = opyard.zeros(3, requires_grad=True)
    with pytest.raises(RuntimeError, match=match):
        write(x)
    with opyard.no_grad():
        write(x)  # allowed without grad mode


@pytest.mark.parametrize("write, want_y_grad, want_x_grad", [
    (lambda y: y.mul_(3), [1.0, 1.0, 1.0], [6.0, 6.0, 6.0]),
    (lambda y: y[1:].mul_(3), None, [8.0, 72.0, 72.0]),
])
def test_retain_grad_follows_in_place(write, want_y_grad, want_x_grad):
    x = opyard.ones(3, requires_grad=True)
    y = x * 2
    y.retain_grad()
    write(y)
    if want_y_grad is None:
        (y * y).sum().backward()
        assert y.grad.tolist() == [4.0, 12.0, 12.0]  # the gradient of the modified y
    else:
        y.sum().backward()
        assert y.grad.tolist() == want_y_grad
    assert x.grad.tolist() == want_x_grad
