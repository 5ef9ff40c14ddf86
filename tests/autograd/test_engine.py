"""The Rust backward engine seen from Python: roots, ordering, restriction, lifetime, errors.

``backward()``/``grad()`` run ``_core._run_backward``; these tests pin what
the engine itself decides (the node classes and formulas are tested in
``test_autograd*.py``).
"""

import numpy as np
import pytest

import opyard
from opyard import _core
from opyard.autograd import grad
from opyard.autograd.graph import Node, gradient_edge


def t(values, **kw):
    return opyard.tensor(values, dtype=opyard.float64, **kw)


def values(x):
    return np.asarray(x.detach().numpy()).tolist()


def test_duplicate_leaf_roots_accumulate_both_gradients():
    x = t([1.0, 2.0], requires_grad=True)
    opyard.autograd.backward([x, x], [t([1.0, 1.0]), t([2.0, 2.0])])
    assert values(x.grad) == [3.0, 3.0]


def test_duplicate_interior_roots_count_their_edges_once():
    x = t([1.0, 2.0], requires_grad=True)
    s = (x * 2).sum()
    opyard.autograd.backward([s, s])
    assert values(x.grad) == [4.0, 4.0]


def test_a_root_also_reached_from_another_root_waits_for_it():
    x = t([1.0], requires_grad=True)
    y = x * 2
    z = y * 3
    opyard.autograd.backward([y, z], [t([1.0]), t([1.0])])
    assert values(x.grad) == [8.0]


def test_newest_node_runs_first_and_a_join_waits_for_both_branches():
    x = t([1.0], requires_grad=True)
    h = x * 1
    a = h * 2
    b = h * 3
    order = []
    for name, v in (("h", h), ("a", a), ("b", b)):
        v.register_hook(lambda g, name=name: order.append(name))
    (a + b).sum().backward()
    assert order == ["b", "a", "h"]
    assert values(x.grad) == [5.0]


def test_inputs_restrict_the_pass_to_their_part_of_the_graph():
    a = t([1.0], requires_grad=True)
    b = t([1.0], requires_grad=True)
    fb = b * 3
    ran = []
    fb.grad_fn.register_prehook(lambda grads: ran.append("fb"))
    y = (a * 2 + fb).sum()
    (ga,) = grad(y, [a])
    assert values(ga) == [2.0]
    assert ran == []
    y.backward(inputs=[b])
    assert values(b.grad) == [3.0] and a.grad is None


def test_backward_twice_without_retain_graph_raises_torchs_message():
    x = t([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=r"^Trying to backward through the graph a second time"):
        y.backward()


def test_retain_graph_allows_a_second_pass():
    x = t([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert values(x.grad) == [4.0, 8.0]


def test_long_chains_are_not_recursive():
    x = t([1.0], requires_grad=True)
    y = x
    for _ in range(5000):
        y = y * 1.0
    y.sum().backward()
    assert values(x.grad) == [1.0]


class _Bad(Node):
    """A node whose ``apply`` returns what the test asks for."""

    def __init__(self, edges, result):
        super().__init__(edges, ((1,),))
        self.result = result

    def apply(self, grads):
        return self.result


def _leaf_edge():
    x = t([1.0], requires_grad=True)
    return x, gradient_edge(x)


@pytest.mark.parametrize("result, exc, match", [
    ((t([1.0]), t([1.0])), RuntimeError,
     r"function _Bad returned an incorrect number of gradients \(expected 1, got 2\)"),
    (5, TypeError, "not iterable"),
])
def test_a_node_returning_bad_gradients_is_an_error(result, exc, match):
    x, edge = _leaf_edge()
    node = _Bad((edge,), result)
    with pytest.raises(exc, match=match):
        _core._run_backward([(node, 0, t([1.0]))], None, False, False, True)


@pytest.mark.parametrize("roots, match", [
    (lambda n: [(n, 3, t([1.0]))], r"_Bad has 1 input\(s\) but a gradient arrived for input 3"),
    (lambda n: [(n, -2, t([1.0]))], r"an edge to _Bad has the negative input number -2"),
    (lambda n: [(_Bad(((n, -1),), ()), 0, t([1.0]))], r"negative input number -1"),
])
def test_malformed_edges_are_errors_naming_the_node(roots, match):
    x, edge = _leaf_edge()
    node = _Bad((edge,), (None,))
    with pytest.raises(RuntimeError, match=match):
        _core._run_backward(roots(node), None, False, False, True)


def test_malformed_next_functions_is_a_type_error():
    # The edges are Rust fields of the node: they are checked when set, not at backward.
    with pytest.raises(TypeError, match=r"next_functions: expected \(node, input_nr\) pairs, got \(1, 2, 3\)"):
        _Bad(((1, 2, 3),), ())


def test_errors_raised_in_a_node_pass_through_unchanged():
    class Boom(Node):
        def apply(self, grads):
            raise ValueError("boom from apply")

    node = Boom((), ((1,),))
    with pytest.raises(ValueError, match="^boom from apply$"):
        _core._run_backward([(node, 0, t([1.0]))], None, False, False, True)


def test_grad_captures_leaf_and_interior_inputs():
    x = t([2.0], requires_grad=True)
    h = x * 3
    y = (h * h).sum()
    gx, gh = grad(y, [x, h], retain_graph=True)
    assert (values(gx), values(gh)) == ([36.0], [12.0])
    y.backward(inputs=[h], retain_graph=True)
    assert values(h.grad) == [12.0] and x.grad is None


def test_node_post_hook_sees_both_sides_once_per_pass():
    x = t([2.0], requires_grad=True)
    y = (x * x).sum()
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append(len(grad_inputs)))
    y.backward()
    assert seen == [1] and values(x.grad) == [4.0]


def test_create_graph_records_the_backward_for_a_second_derivative():
    x = t([2.0], requires_grad=True)
    (g,) = grad((x * x * x).sum(), x, create_graph=True)
    assert g.requires_grad and values(g) == [12.0]
    (g2,) = grad(g.sum(), x)
    assert values(g2) == [12.0]


def test_gradients_are_summed_where_branches_meet():
    x = t([1.0, 2.0], requires_grad=True)
    y = x * 2
    (y + y * y + x).sum().backward()
    # d/dx (2x + 4x^2 + x) = 3 + 8x
    assert values(x.grad) == [11.0, 19.0]


# --- duplicate roots -------------------------------------------------------------------------------

@pytest.mark.parametrize("through_op", [False, True])
def test_duplicate_roots_accumulate(through_op):
    x = opyard.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1 if through_op else x
    g = opyard.tensor([1.0, 3.0])
    opyard.autograd.backward([y, y], [g, g])
    assert x.grad.tolist() == [2.0, 6.0]
