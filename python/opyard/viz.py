"""``opyard.viz``: pictures of autograd graphs, traced graphs and dispatch tables.

``to_dot(tensor)`` draws the autograd graph that computed ``tensor``: one box per
backward node, the tensors each node saved (shape and dtype), the leaves the
gradients accumulate into, and which inputs required no grad. ``to_dot(graph_module)``
draws a graph traced by ``opyard.fx.make_fx``. Both return a :class:`Dot`: its
``.source`` is Graphviz DOT text, and ``.render()`` turns it into SVG when
Graphviz's ``dot`` program is installed (notebooks show the SVG, else the DOT
text). ``dispatch_table_html(op)`` is the operator's dispatch table as an HTML
table; ``opyard.dispatcher.explain(...)`` results render the same way in notebooks.

Example::

    >>> x = opyard.randn(3, requires_grad=True)
    >>> dot = opyard.viz.to_dot((x.sin() * 2).sum(), params={"x": x})
    >>> print(dot.source)          # digraph autograd { ... }
    >>> svg = dot.render()         # needs Graphviz's `dot` on PATH
"""

from __future__ import annotations

import shutil
import subprocess
import typing

from ._tensor import Tensor

if typing.TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence
    from os import PathLike
from .dispatcher import dispatch_table_html

__all__ = ["Dot", "to_dot", "dispatch_table_html"]

_FORMATS = {"svg": True, "dot": True, "plain": True, "json": True, "png": False, "pdf": False}


def _quote(text: object) -> str:
    """A DOT quoted string: backslashes and double quotes escaped, newlines as left-justified breaks."""
    text = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + text.replace("\n", "\\l") + ('\\l"' if "\n" in text else '"')


class Dot:
    """A graph as Graphviz DOT text (``.source``, also ``str(dot)``); ``.render()`` draws it.

    Rendering runs Graphviz's ``dot`` program (a subprocess, as the ``graphviz`` package does;
    opyard needs no Python package for it). Without that program, ``.render()`` raises a
    ``RuntimeError`` saying how to install it, and notebooks show the DOT text.
    """

    __slots__ = ("source",)

    def __init__(self, source: str) -> None:
        self.source = source

    def __str__(self) -> str:
        return self.source

    def __repr__(self) -> str:
        first = self.source.split("\n", 1)[0]
        return f"<opyard.viz.Dot {first.rstrip(' {')}: {self.source.count(' -> ')} edges>"

    def render(self, format: str = "svg") -> str | bytes:
        """The drawing in ``format`` (``"svg"`` by default; also ``"png"``, ``"pdf"``, ``"json"``,
        ``"plain"``, ``"dot"``): ``str`` for the text formats, ``bytes`` for the others."""
        if format not in _FORMATS:
            raise ValueError(f"Dot.render: unknown format {format!r}; expected one of {', '.join(_FORMATS)}")
        exe = shutil.which("dot")
        if exe is None:
            raise RuntimeError(
                "Dot.render: Graphviz's `dot` program is not on PATH, so the graph cannot be drawn. Install "
                "Graphviz (Debian/Ubuntu: apt-get install graphviz; macOS: brew install graphviz; conda: conda "
                "install graphviz), or use the DOT text in .source with any Graphviz viewer.")
        proc = subprocess.run([exe, f"-T{format}"], input=self.source.encode(), capture_output=True)
        if proc.returncode != 0:
            raise RuntimeError(f"Dot.render: dot -T{format} failed: {proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout.decode() if _FORMATS[format] else proc.stdout

    def save(self, path: str | PathLike[str]) -> str | PathLike[str]:
        """Write the graph to ``path``: DOT text for ``.dot``/``.gv``, else the format the suffix
        names (``.svg``, ``.png``, ``.pdf``). Returns ``path``."""
        suffix = str(path).rsplit(".", 1)[-1].lower() if "." in str(path) else ""
        if suffix in ("dot", "gv"):
            data = self.source.encode()
        elif suffix in _FORMATS:
            rendered = self.render(suffix)
            data = rendered.encode() if isinstance(rendered, str) else rendered
        else:
            raise ValueError(f"Dot.save: cannot tell the format from {str(path)!r}; name it .dot, .gv, .svg, "
                             ".png or .pdf")
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _repr_mimebundle_(self, include: object = None, exclude: object = None) -> dict[str, str | bytes]:
        # Notebooks: the SVG when Graphviz can draw it, and always the DOT text.
        bundle: dict[str, str | bytes] = {"text/plain": self.source}
        if shutil.which("dot") is not None:
            bundle["image/svg+xml"] = self.render("svg")
        return bundle


# --- autograd graphs --------------------------------------------------------------------------------

def _meta(t: typing.Any) -> str:
    """``(3, 4) float32``: a tensor's shape and dtype as a label line."""
    dtype = str(t.dtype).rsplit(".", 1)[-1]
    return f"{tuple(t.shape)} {dtype}"


def _unavailable(error: BaseException) -> str:
    text = str(error)
    if "freed" in text or "backward through the graph a second time" in text:
        return "freed by backward"
    return "unavailable: " + text.split(". ")[0][:80]


def _saved_values(node: typing.Any) -> list[tuple[str, str]]:
    """``[(name, label)]``: what a backward node saved for its formula.

    Built-in nodes name their saved arguments (``_saved_self``, as torch's); an argument kept
    only as its shape and dtype says so. Nodes of ``autograd.Function`` and ``register_autograd``
    ops report ``ctx.save_for_backward``'s tensors. A graph already run by ``backward`` has
    freed them."""
    names = getattr(type(node), "_save_names", None)
    if names:
        out: list[tuple[str, str]] = []
        for i, name in enumerate(names):
            try:
                value = getattr(node, "_saved_" + name)
            except AttributeError:  # kept as metadata only (shape, dtype): the formula needs no data
                raw = node._saved[i]
                if hasattr(raw, "shape") and hasattr(raw, "dtype"):
                    out.append((name, _meta(raw) + " (shape only)"))
                continue
            except RuntimeError as e:
                out.append((name, _unavailable(e)))
                continue
            if isinstance(value, Tensor):
                out.append((name, _meta(value)))
            elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Tensor) for v in value):
                out.append((name, ", ".join(_meta(v) for v in value)))
            elif value is not None:
                out.append((name, repr(value)))
        return out
    try:
        saved = node.saved_tensors
    except AttributeError:
        return []
    except RuntimeError as e:  # freed by an earlier backward, or modified in place since
        return [("saved", _unavailable(e))]
    return [(f"saved[{i}]", _meta(t) if isinstance(t, Tensor) else repr(t)) for i, t in enumerate(saved or ())]


class _Builder:
    def __init__(self, name: str) -> None:
        self.name = name
        self.ids: dict[tuple[object, ...], str] = {}
        self.lines: list[str] = []

    def node(self, key: tuple[object, ...], label: str, **attrs: str) -> tuple[str, bool]:
        if key in self.ids:
            return self.ids[key], False
        node_id = f"n{len(self.ids)}"
        self.ids[key] = node_id
        extra = "".join(f", {k}={_quote(v)}" for k, v in attrs.items())
        self.lines.append(f"  {node_id} [label={_quote(label)}{extra}];")
        return node_id, True

    def edge(self, a: str, b: str, **attrs: str) -> None:
        extra = ", ".join(f"{k}={_quote(v)}" for k, v in attrs.items())
        self.lines.append(f"  {a} -> {b}" + (f" [{extra}]" if extra else "") + ";")

    def dot(self, graph_attrs: Iterable[str]) -> Dot:
        head = [f"digraph {self.name} {{", *(f"  {line};" for line in graph_attrs)]
        return Dot("\n".join(head + self.lines + ["}"]) + "\n")


def _leaf_label(t: Tensor, names: dict[int, str]) -> str:
    name = names.get(id(t))
    head = f"{name}\n" if name else ""
    return f"{head}{_meta(t)}\nrequires_grad=True"


def _autograd_dot(roots: Sequence[Tensor], params: Mapping[str, Tensor] | None) -> Dot:
    names = {id(t): n for n, t in (params or {}).items()}
    b = _Builder("autograd")
    stack: list[typing.Any] = []
    for i, root in enumerate(roots):
        label = f"output{'' if len(roots) == 1 else f' {i}'}\n{_meta(root)}"
        rid, _ = b.node(("tensor", id(root)), label, shape="box", style="filled", fillcolor="darkolivegreen1")
        fn = root.grad_fn
        if fn is None:
            if root.requires_grad:  # a leaf: its gradient accumulates in .grad
                b.lines[-1] = b.lines[-1].replace('label="output', 'label="leaf output', 1)
            continue
        fid, new = b.node(("fn", id(fn)), fn.name(), shape="box", style="filled", fillcolor="lightgrey")
        b.edge(fid, rid)
        if new:
            stack.append(fn)
    while stack:
        fn = stack.pop()
        fid = b.ids[("fn", id(fn))]
        for name, label in _saved_values(fn):
            sid, _ = b.node(("saved", id(fn), name), f"{name}\n{label}", shape="box", style="filled",
                            fillcolor="orange")
            b.edge(sid, fid, style="dashed")
        for k, (nxt, _nr) in enumerate(fn.next_functions):
            if nxt is None:  # that input did not require grad: no gradient flows to it
                nid, _ = b.node(("none", id(fn), k), f"input {k}\nrequires_grad=False", shape="box",
                                style="dashed", color="grey", fontcolor="grey")
                b.edge(nid, fid, style="dashed", color="grey")
                continue
            variable = getattr(nxt, "variable", None)
            if isinstance(variable, Tensor):  # AccumulateGrad: draw the leaf tensor it writes .grad of
                nid, _ = b.node(("tensor", id(variable)), _leaf_label(variable, names), shape="box",
                                style="filled", fillcolor="lightblue")
                b.edge(nid, fid)
                continue
            nid, new = b.node(("fn", id(nxt)), nxt.name(), shape="box", style="filled", fillcolor="lightgrey")
            b.edge(nid, fid)
            if new:
                stack.append(nxt)
    return b.dot(("rankdir=BT", 'node [fontname="monospace", fontsize=10]'))


# --- traced graphs ----------------------------------------------------------------------------------

def _node_refs(x: object, out: list[typing.Any]) -> list[typing.Any]:
    if hasattr(x, "op") and hasattr(x, "name") and hasattr(x, "meta"):
        out.append(x)
    elif isinstance(x, (list, tuple)):
        for e in x:
            _node_refs(e, out)
    elif isinstance(x, dict):
        for e in x.values():
            _node_refs(e, out)
    return out


def _target(node: typing.Any) -> str:
    t = node.target
    if hasattr(t, "_schema") and hasattr(t, "name"):
        return str(t)
    return getattr(t, "__name__", str(t))


def _value_line(node: typing.Any) -> str:
    val = node.meta.get("val")
    if isinstance(val, Tensor):
        return "\n" + _meta(val)
    if isinstance(val, (list, tuple)) and val and all(isinstance(v, Tensor) for v in val):
        return "\n" + ", ".join(_meta(v) for v in val)
    return "" if val is None else f"\n{val}"


_STYLES: dict[str, dict[str, str]] = {
    "placeholder": {"shape": "box", "style": "filled", "fillcolor": "lightblue"},
    "get_attr": {"shape": "box", "style": "filled", "fillcolor": "lightyellow"},
    "call_function": {"shape": "box", "style": "filled", "fillcolor": "lightgrey"},
    "output": {"shape": "box", "style": "filled", "fillcolor": "darkolivegreen1"},
}


def _fx_dot(gm: typing.Any) -> Dot:
    b = _Builder("graph_module")
    for node in gm.graph.nodes:
        if node.op == "call_function":
            label = f"{node.name}\n{_target(node)}{_value_line(node)}"
        elif node.op == "output":
            label = "output"
        else:
            label = f"{node.name}{_value_line(node)}"
        nid, _ = b.node(("fx", node.name), label, **_STYLES.get(node.op, {"shape": "box"}))
        args = _node_refs((node.args, node.kwargs), [])
        for position, arg in enumerate(args):
            b.edge(b.ids[("fx", arg.name)], nid, **({"label": str(position)} if len(args) > 1 else {}))
    return b.dot(("rankdir=TB", 'node [fontname="monospace", fontsize=10]'))


# --- the entry point --------------------------------------------------------------------------------

def to_dot(tensor_or_graph_module: Tensor | Sequence[Tensor] | typing.Any, *,
           params: Mapping[str, Tensor] | None = None) -> Dot:
    """A picture of what computed a tensor, or of a traced program, as a :class:`Dot`.

    ``to_dot(tensor)`` (or a list/tuple of tensors) draws the autograd graph: the output (green),
    one grey box per backward node (``MulBackward0``), the tensors each node saved (orange:
    name, shape, dtype), the leaves that gradients accumulate into (blue: shape, dtype), and a
    dashed grey box for each input that did not require grad. ``params`` (``{name: tensor}``,
    e.g. ``dict(module.named_parameters())``) names the leaves.

    ``to_dot(graph_module)`` draws a graph traced by ``opyard.fx.make_fx``: inputs (blue), one box
    per operator call with its overload and, when tracing recorded it (fake and symbolic
    modes), its result's shape and dtype; edges are numbered by argument position.
    """
    obj = tensor_or_graph_module
    if isinstance(obj, Tensor):
        return _autograd_dot([obj], params)
    if isinstance(obj, (list, tuple)) and obj and all(isinstance(t, Tensor) for t in obj):
        return _autograd_dot(list(obj), params)
    graph = getattr(obj, "graph", None)
    if graph is not None and hasattr(graph, "nodes"):
        if params is not None:
            raise TypeError("to_dot: params= names the leaves of an autograd graph; a traced graph's inputs "
                            "are named by its placeholders")
        return _fx_dot(obj)
    raise TypeError(f"to_dot: expected a Tensor, a list or tuple of Tensors, or a traced graph module "
                    f"(opyard.fx.make_fx), got {type(obj).__name__}")


from ._exports import public_dir

__dir__ = public_dir(globals())
