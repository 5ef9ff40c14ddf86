"""Recording into the graph from Rust (``src/python/autograd/record.rs``): formula nodes made without a
type call (Note [Formula nodes without a type call]), an output's history from its array
header (Note [Plain tensors at the sink]), the leaf's ``AccumulateGrad`` (Note [Sinks
without __new__]) and releasing saved tensors after a pass."""

import pytest

import opyard
from opyard import _core
from opyard.autograd.graph import AccumulateGrad, Node, SavedTensor


class Plain(Node):
    __init__ = object.__init__


class WithInit(Node):
    def __init__(self):
        super().__init__()
        self.made_by_init = True


def _record(cls, out, saved=(), complex=False):
    x = opyard.ones(2, requires_grad=True)
    return _core._record_node(cls, [(_core._grad_accumulator(x), 0)], out, list(saved), complex), x


def test_plain_formula_node_is_made_fresh_without_init():
    a, _ = _record(Plain, opyard.ones(2))
    b, _ = _record(Plain, opyard.ones(2))
    assert type(a) is Plain and b._sequence_nr > a._sequence_nr
    assert not a._released and a._out_shapes == ((2,),)
    assert "made_by_init" not in dir(a)


def test_node_class_with_its_own_init_is_called():
    node, _ = _record(WithInit, opyard.ones(2))
    assert node.made_by_init and type(node) is WithInit


@pytest.mark.parametrize("dtype", [opyard.float16, opyard.float32, opyard.float64, opyard.bfloat16, opyard.complex64])
def test_floating_and_complex_outputs_get_history(dtype):
    out = opyard.ones(2, 3, dtype=dtype)
    node, _ = _record(Plain, out, complex=True)
    assert out.grad_fn is node and out.requires_grad and node._out_shapes == ((2, 3),)


def test_complex_output_of_a_real_only_formula_gets_no_history():
    """Note [Complex outputs]: without the formula's word that it computes the Wirtinger derivative,
    a complex result has no history (``backward`` refuses it) rather than a wrong gradient."""
    out = opyard.ones(2, 3, dtype=opyard.complex64)
    _record(Plain, out)
    assert out.grad_fn is None and not out.requires_grad


@pytest.mark.parametrize("dtype", [opyard.int64, opyard.bool])
def test_integer_outputs_get_no_history(dtype):
    out = opyard.zeros(3, dtype=dtype)
    node, _ = _record(Plain, out)
    assert out.grad_fn is None and not out.requires_grad and node._out_shapes == ((3,),)


def test_subclass_output_is_read_through_its_attributes():
    class Sub(opyard.Tensor):
        pass

    out = Sub(opyard.ones(4))
    node, _ = _record(Plain, out)
    assert out.grad_fn is node and node._out_shapes == ((4,),)


def test_release_empties_saved_tensors_only():
    t = opyard.ones(2)
    kept = (1, 2)
    node, _ = _record(Plain, opyard.ones(2), [SavedTensor(t), [SavedTensor(t)], kept])
    node.release_variables()
    first, listed, other = node._saved
    assert node._released and first.tensor is None and listed[0].tensor is None and other is kept


def test_grad_accumulator_is_an_accumulate_grad_of_the_leaf():
    x = opyard.ones(2, requires_grad=True)
    acc = _core._grad_accumulator(x)
    assert type(acc) is AccumulateGrad and acc.variable is x and acc.name() == "AccumulateGrad"
    assert _core._grad_accumulator(x) is acc and acc._sequence_nr == 1 << 62
    assert x._grad_accumulator() is acc
