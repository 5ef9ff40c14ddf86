"""``opyard.viz``: autograd and traced graphs as DOT (parsed here with pydot) and SVG (through
Graphviz's ``dot`` where it is installed), dispatch tables and ``explain`` results as HTML."""

import os
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import opyard
import pydot
import pytest
from opyard import viz
from opyard.fx import make_fx
from opyard.library import Library, custom_op

# pydot's parser calls pyparsing's camelCase names, which new pyparsing releases deprecate.
pytestmark = pytest.mark.filterwarnings("ignore:.*deprecated - use:DeprecationWarning")

# The SVG tests need Graphviz's `dot`; CI installs it and sets OPYARD_REQUIRE_GRAPHVIZ=1, so that there
# they fail instead of skipping if it is missing.
needs_graphviz = pytest.mark.skipif(
    shutil.which("dot") is None and os.environ.get("OPYARD_REQUIRE_GRAPHVIZ") != "1",
    reason="Graphviz's `dot` program is not installed (apt-get install graphviz)")


def parse(dot):
    """``(labels by node id, edges as (tail label, head label, attributes))`` of a DOT source."""
    (graph,) = pydot.graph_from_dot_data(dot.source)
    labels = {n.get_name(): n.get_label().strip('"').replace("\\l", "\n").strip() for n in graph.get_nodes()
              if n.get_name() not in ("node", "edge", "graph")}
    edges = [(labels[e.get_source()], labels[e.get_destination()], e.get_attributes()) for e in graph.get_edges()]
    return graph, labels, edges


def test_autograd_graph_nodes_saved_tensors_leaves_and_inputs_without_grad():
    x = opyard.randn(3, 4, requires_grad=True)
    w = opyard.randn(4, requires_grad=True)
    c = opyard.randn(4)  # does not require grad
    y = ((x * w).sin() * c).sum()
    graph, labels, edges = parse(viz.to_dot(y, params={"x": x, "w": w}))
    assert graph.get_name() == "autograd"
    plain = {(a, b) for a, b, _ in edges}
    assert ("SumBackward0", "output\n() float32") in plain
    assert ("MulBackward0", "SumBackward0") in plain
    assert ("SinBackward0", "MulBackward0") in plain
    # The leaves gradients accumulate into, named by params, with shape and dtype.
    assert ("x\n(3, 4) float32\nrequires_grad=True", "MulBackward0") in plain
    assert ("w\n(4,) float32\nrequires_grad=True", "MulBackward0") in plain
    # c required no grad: its slot shows as a dashed grey input.
    assert ("input 1\nrequires_grad=False", "MulBackward0") in plain
    # Saved tensors (dashed edges into the node that saved them): x * w saved both operands, sin its input;
    # sin(...) * c only c, as torch (sin(...) is needed only for c's gradient, which nothing needs);
    # sum kept only its input's metadata.
    saved = sorted((a, b) for a, b, attrs in edges if attrs.get("style") == '"dashed"' and "input" not in a)
    assert saved == sorted([("other\n(4,) float32", "MulBackward0"), ("self\n(3, 4) float32", "MulBackward0"),
                            ("other\n(4,) float32", "MulBackward0"),
                            ("self\n(3, 4) float32", "SinBackward0"),
                            ("self\n(3, 4) float32 (shape only)", "SumBackward0")])
    assert len(labels) == 13 and len(edges) == 12


def test_function_nodes_show_saved_tensors_until_backward_frees_them():
    class Double(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2

    x = opyard.randn(5, dtype=opyard.float64, requires_grad=True)
    z = Double.apply(x).sum()
    _, _, edges = parse(viz.to_dot(z))
    assert ("saved[0]\n(5,) float64", "DoubleBackward") in {(a, b) for a, b, _ in edges}
    z.backward()
    _, _, edges = parse(viz.to_dot(z))
    assert ("saved\nfreed by backward", "DoubleBackward") in {(a, b) for a, b, _ in edges}


def test_shared_subgraphs_are_drawn_once():
    x = opyard.randn(3, requires_grad=True)
    h = x.exp()
    _, labels, edges = parse(viz.to_dot(h * h + h))
    assert list(labels.values()).count("ExpBackward0") == 1
    assert sum(1 for a, b, _ in edges if a == "ExpBackward0") == 3  # into mul twice and into add


def test_several_outputs_and_tensors_without_a_graph():
    x = opyard.randn(2, requires_grad=True)
    _, labels, edges = parse(viz.to_dot([x.sin(), x.cos()]))
    assert {"output 0\n(2,) float32", "output 1\n(2,) float32"} <= set(labels.values())
    assert sum(1 for a, b, _ in edges if a.endswith("requires_grad=True")) == 2
    _, labels, edges = parse(viz.to_dot(x))
    assert list(labels.values()) == ["leaf output\n(2,) float32"] and edges == []
    _, labels, edges = parse(viz.to_dot(opyard.ones(2)))
    assert list(labels.values()) == ["output\n(2,) float32"] and edges == []


def test_labels_are_quoted():
    x = opyard.randn(2, requires_grad=True)
    _, labels, _ = parse(viz.to_dot(x * 2, params={'my "x"\\': x}))
    assert 'my \\"x\\"\\\\\n(2,) float32\nrequires_grad=True' in labels.values()


def test_traced_graph():
    gm = make_fx(lambda a, b: (a * b).sin().sum(0), tracing_mode="fake")(opyard.randn(3, 4), opyard.randn(4))
    graph, labels, edges = parse(viz.to_dot(gm))
    assert graph.get_name() == "graph_module"
    assert sorted(labels.values()) == sorted([
        "a_1\n(3, 4) float32", "b_1\n(4,) float32", "mul\naten.mul.Tensor\n(3, 4) float32",
        "sin\naten.sin.default\n(3, 4) float32", "sum_1\naten.sum.dim_IntList\n(4,) float32", "output"])
    assert [(a.split("\n")[0], b.split("\n")[0], attrs.get("label")) for a, b, attrs in edges] == [
        ("a_1", "mul", '"0"'), ("b_1", "mul", '"1"'), ("mul", "sin", None), ("sin", "sum_1", None),
        ("sum_1", "output", None)]


def test_traced_graph_of_a_custom_op_in_real_mode():
    @custom_op("t_viz::scale", mutates_args=())
    def scale(x: opyard.Tensor, s: float) -> opyard.Tensor:
        return x * s

    gm = make_fx(lambda a: scale(a, 3.0) + 1)(opyard.randn(2))
    _, labels, _ = parse(viz.to_dot(gm))
    assert "scale\nt_viz.scale.default" in labels.values()  # real mode records no shapes


@pytest.mark.parametrize("arg, kwargs, message", [
    (3, {}, r"to_dot: expected a Tensor, a list or tuple of Tensors, or a traced graph module "
            r"\(opyard.fx.make_fx\), got int"),
    ([], {}, r"got list"),
    ("x", {}, r"got str"),
])
def test_bad_arguments(arg, kwargs, message):
    with pytest.raises(TypeError, match=message):
        viz.to_dot(arg, **kwargs)


def test_params_are_for_autograd_graphs():
    gm = make_fx(lambda a: a + 1)(opyard.randn(2))
    with pytest.raises(TypeError, match=r"to_dot: params= names the leaves of an autograd graph"):
        viz.to_dot(gm, params={"a": opyard.ones(1)})


@needs_graphviz
def test_svg_renders():
    x = opyard.randn(3, requires_grad=True)
    dot = viz.to_dot((x.sin() * 2).sum(), params={"x": x})
    svg = dot.render()
    root = ET.fromstring(svg.split("\n", 3)[3] if svg.startswith("<?xml") else svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = {t.text for t in root.iter("{http://www.w3.org/2000/svg}text")}
    assert {"SumBackward0", "MulBackward0", "SinBackward0", "x"} <= texts
    assert dot._repr_mimebundle_()["image/svg+xml"] == svg
    assert dot.render("png").startswith(b"\x89PNG")


@needs_graphviz
def test_svg_renders_a_traced_graph(tmp_path):
    gm = make_fx(lambda a: a.exp() + 1, tracing_mode="fake")(opyard.randn(2))
    path = viz.to_dot(gm).save(tmp_path / "graph.svg")
    texts = {t.text for t in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}text")}
    assert {"exp", "aten.exp.default", "add", "output"} <= texts


def test_without_graphviz_render_says_how_to_install_it(monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    dot = viz.to_dot(opyard.randn(2, requires_grad=True) * 2)
    with pytest.raises(RuntimeError, match=r"Dot.render: Graphviz's `dot` program is not on PATH, so the graph "
                                           r"cannot be drawn. Install Graphviz \(Debian/Ubuntu: apt-get install"):
        dot.render()
    assert dot._repr_mimebundle_() == {"text/plain": dot.source}


def test_save_and_render_arguments(tmp_path):
    dot = viz.to_dot(opyard.randn(2, requires_grad=True) * 2)
    assert open(dot.save(tmp_path / "g.dot")).read() == dot.source == str(dot)
    with pytest.raises(ValueError, match=r"Dot.save: cannot tell the format from '.*g.txt'; name it .dot, .gv"):
        dot.save(tmp_path / "g.txt")
    with pytest.raises(ValueError, match=r"Dot.render: unknown format 'gif'; expected one of svg, dot, plain"):
        dot.render("gif")
    assert repr(dot) == "<opyard.viz.Dot digraph autograd: 4 edges>"  # output, leaf, 2 saved values


# --- HTML ---------------------------------------------------------------------------------------------

class _Rows(HTMLParser):
    def __init__(self):
        super().__init__()
        self.captions, self.rows, self.classes, self._cell = [], [], [], None

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self.rows.append([])
            self.classes.append(dict(attrs).get("class"))
        elif tag in ("td", "th", "caption"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th"):
            self.rows[-1].append("".join(self._cell))
        elif tag == "caption":
            self.captions.append("".join(self._cell))
        self._cell = None if tag in ("td", "th", "caption") else self._cell

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def rows_of(html):
    parser = _Rows()
    parser.feed(html)
    return parser


@pytest.fixture
def lib():
    lib = Library("t_vizlib", "DEF")
    yield lib
    lib._destroy()


def test_dispatch_table_html_has_every_row_of_the_table(lib):
    lib.define("f(Tensor x) -> Tensor")

    def f_cpu(x):
        return x

    lib.impl("f", f_cpu, "CPU")
    lib.impl("f", f_cpu, "CompositeExplicitAutograd")
    html = viz.dispatch_table_html("t_vizlib::f")
    assert html._repr_html_() == html  # notebooks render it
    parsed = rows_of(html)
    assert parsed.captions == ["t_vizlib::f(Tensor x) -> Tensor"]
    assert parsed.rows[0] == ["dispatch key", "kernel", "why", "registered at"]
    want = [list(r) for r in opyard._core._table_entries("t_vizlib::f")]
    assert parsed.rows[1:] == want
    by_key = dict(zip((r[0] for r in parsed.rows[1:]), parsed.classes[1:]))
    assert by_key["CPU"] == "kernel" and by_key["BackendSelect"] == "fallthrough"
    cpu = parsed.rows[1]
    assert cpu[:3] == ["CPU", "test_dispatch_table_html_has_every_row_of_the_table.<locals>.f_cpu", "kernel"]
    assert cpu[3].endswith("test_dot_and_html.py:" + str(test_dispatch_table_html_has_every_row_of_the_table.__code__
                                                 .co_firstlineno + 6))
    meta = next(r for r in parsed.rows if r[0] == "Meta")
    assert meta[1:3] == [cpu[1], "default backend kernel"]  # from CompositeExplicitAutograd


def test_dispatch_table_html_accepts_every_spelling_of_an_operator():
    want = viz.dispatch_table_html("aten::mul.Tensor")
    assert viz.dispatch_table_html(opyard.ops.aten.mul.Tensor) == want
    assert viz.dispatch_table_html(opyard.ops.aten.sin) == viz.dispatch_table_html("aten::sin")
    with pytest.raises(RuntimeError, match=r"no operator named 'nope::x' is registered"):
        viz.dispatch_table_html("nope::x")


def test_explain_renders_as_html_with_the_chosen_key_marked(capsys):
    e = opyard.dispatcher.explain(opyard.ops.aten.add, opyard.ones(1), opyard.ones(1))
    capsys.readouterr()
    parsed = rows_of(e._repr_html_())
    assert parsed.captions[0] == "explain: aten::add.Tensor"
    summary = dict(r for r in parsed.rows if len(r) == 2)
    assert summary["dispatch key"] == "CPU" and summary["argument keys"] == "DispatchKeySet(CPU)"
    assert summary["kernel"] == f"{e.kernel} [kernel]" and summary["registered at"] == e.provenance
    chosen = [r for r, c in zip(parsed.rows, parsed.classes) if c == "chosen"]
    assert chosen == [["CPU", e.kernel, "kernel", e.provenance]]
    assert e._repr_html_().count("<style>") == 1


def test_html_escapes_what_it_shows(lib):
    lib.define("g(Tensor x) -> Tensor")
    lib.impl("g", lambda x: x, "CPU")  # kernel name <lambda>
    html = viz.dispatch_table_html("t_vizlib::g")
    assert "&lt;lambda&gt;" in html and "<lambda>" not in html
    assert "-&gt; Tensor" in html
