"""make_fx: graphs of OpOverloads, code, re-running, fake and symbolic tracing."""

import operator

import numpy as np
import pytest

import opyard
from opyard import Tensor
from opyard.fx import GraphModule, make_fx
from opyard.library import custom_op


def _calls(gm):
    return [n.target for n in gm.graph.nodes if n.op == "call_function"]


@pytest.mark.parametrize("mode", ["real", "fake", "symbolic"])
def test_records_overloads_and_reruns(mode):
    def f(x, y):
        return (x.sin() + y) * 2, x.sum()
    x, y = opyard.randn(3), opyard.randn(3)
    gm = make_fx(f, tracing_mode=mode)(x, y)
    assert isinstance(gm, GraphModule)
    assert [t.name() for t in _calls(gm)] == ["aten::sin", "aten::add.Tensor", "aten::mul.Tensor", "aten::sum"]
    assert [n.op for n in gm.graph.nodes][:2] == ["placeholder", "placeholder"]
    assert gm.graph.nodes[-1].op == "output"
    out, total = gm(x, y)
    ref, ref_total = f(x, y)
    assert opyard.allclose(out, ref) and opyard.allclose(total, ref_total)


def test_code_and_print_readable(capsys):
    gm = make_fx(lambda x: x.cos() * 3)(opyard.randn(2))
    assert "def forward(self, x_1):" in gm.code
    assert "cos = opyard.ops.aten.cos.default(x_1)" in gm.code
    assert "mul = opyard.ops.aten.mul.Tensor(cos, 3)" in gm.code
    text = gm.print_readable()
    assert text.startswith("class GraphModule(opyard.nn.Module):")
    assert text in capsys.readouterr().out
    assert gm.print_readable(print_output=False) == text
    assert "call_function[target=aten.cos.default](args = (%x_1,)" in str(gm.graph)


def test_only_top_level_calls_are_recorded():
    @custom_op("t_fx::inner", mutates_args=())
    def inner(x: Tensor) -> Tensor:
        return (x * 2).exp()  # not recorded: below the Tracer key
    gm = make_fx(lambda x: inner(x) + 1)(opyard.randn(2))
    assert [t.name() for t in _calls(gm)] == ["t_fx::inner", "aten::add.Tensor"]


def test_constants_factories_and_tuples():
    c = opyard.ones(2)

    def f(x):
        parts = x.split(1)
        return parts[0] * c + opyard.zeros(2)
    x = opyard.randn(2)
    gm = make_fx(f)(x)
    kinds = [n.op for n in gm.graph.nodes]
    assert "get_attr" in kinds
    assert any(t is operator.getitem for t in _calls(gm))
    assert opyard.allclose(gm(x), f(x))


def test_fake_tracing_does_not_run_kernels():
    @custom_op("t_fx::only_fake", mutates_args=())
    def only_fake(x: Tensor) -> Tensor:
        raise AssertionError("the kernel runs only when the graph runs")

    @only_fake.register_fake
    def _(x):
        return opyard.empty_like(x)
    gm = make_fx(only_fake, tracing_mode="fake")(opyard.randn(2))
    assert [t.name() for t in _calls(gm)] == ["t_fx::only_fake"]
    with pytest.raises(AssertionError, match="only when the graph runs"):
        gm(opyard.randn(2))


def test_symbolic_sizes_are_recomputed_on_rerun():
    @custom_op("t_fx::nonzero", mutates_args=())
    def nonzero(x: Tensor) -> Tensor:
        return opyard.tensor(np.stack(np.nonzero(x.numpy()), axis=1))

    @nonzero.register_fake
    def _(x):
        n = opyard.library.get_ctx().new_dynamic_size()
        return x.new_empty([n, x.dim()], dtype=opyard.int64)

    def f(x):
        idx = nonzero(x)
        return idx.new_zeros([idx.shape[0] * 2 + 1, 3]), idx + 1
    gm = make_fx(f, tracing_mode="symbolic")(opyard.tensor([0, 1, 2, 0]))
    targets = [getattr(t, "name", lambda: t.__name__)() for t in _calls(gm)]
    assert targets[:4] == ["t_fx::nonzero", "aten::sym_size.int", "mul", "add"]
    for data in ([0, 1, 2, 0], [3, 3, 3, 3, 0, 1]):
        x = opyard.tensor(data)
        zeros, shifted = gm(x)
        ref_zeros, ref_shifted = f(x)
        assert zeros.shape == ref_zeros.shape and opyard.allclose(shifted, ref_shifted)


def test_bad_tracing_mode():
    with pytest.raises(AssertionError, match="Unexpected tracing type"):
        make_fx(lambda x: x, tracing_mode="dynamic")
