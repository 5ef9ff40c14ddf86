"""``opyard.fx.make_fx``: trace a function into a graph of operator calls.

Tracing includes the ``Tracer`` key on the thread; its fallback records every
operator call at its ``OpOverload`` and redispatches below the key, so only
the calls the function makes (not their decompositions) are recorded.

Example::

    >>> gm = opyard.fx.make_fx(lambda x: x.sin() + 1)(opyard.randn(3))
    >>> print(gm.code)
"""

import threading

from .. import _core
from .._tensor import Tensor
from ..dispatcher import DispatchKey, DispatchKeySet
from ..library import Library

__all__ = ["make_fx", "Graph", "GraphModule", "Node"]

_TRACER = DispatchKeySet(DispatchKey.Tracer)


class Node:
    """One graph node: ``placeholder``, ``call_function`` (target: an OpOverload) or ``output``."""

    def __init__(self, op, name, target=None, args=(), kwargs=None):
        self.op, self.name, self.target, self.args, self.kwargs = op, name, target, args, kwargs or {}

    def __repr__(self):
        return self.name


class Graph:
    def __init__(self):
        self.nodes = []
        self._names = {}

    def _fresh(self, base):
        n = self._names.get(base, 0)
        self._names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def add(self, op, base, target=None, args=(), kwargs=None):
        node = Node(op, self._fresh(base), target, args, kwargs)
        self.nodes.append(node)
        return node

    def __str__(self):
        lines = ["graph():"]
        for n in self.nodes:
            if n.op == "placeholder":
                lines.append(f"    %{n.name} : [num_users=?] = placeholder[target={n.name}]")
            elif n.op == "call_function":
                lines.append(f"    %{n.name} = call_function[target={n.target}](args = {_fmt(n.args)}, kwargs = {n.kwargs})")
            else:
                lines.append(f"    return {_fmt(n.args)}")
        return "\n".join(lines)


def _fmt(x):
    if isinstance(x, Node):
        return f"%{x.name}"
    if isinstance(x, (list, tuple)):
        inner = ", ".join(_fmt(e) for e in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    return repr(x)


def _src(x):
    if isinstance(x, Node):
        return x.name
    if isinstance(x, (list, tuple)):
        inner = ", ".join(_src(e) for e in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    if isinstance(x, _core.device):
        return f"opyard.device({str(x)!r})"
    if hasattr(x, "_code") and type(x).__name__ == "dtype":
        return f"opyard.{x.name}"
    return repr(x)


class GraphModule:
    """A traced program: call it like the original function; ``.graph``, ``.code``."""

    def __init__(self, graph):
        self.graph = graph

    @property
    def code(self):
        params = [n.name for n in self.graph.nodes if n.op == "placeholder"]
        body = []
        for n in self.graph.nodes:
            if n.op == "call_function":
                args = ", ".join([_src(a) for a in n.args] + [f"{k} = {_src(v)}" for k, v in n.kwargs.items()])
                target = str(n.target).replace("::", ".")
                body.append(f"    {n.name} = opyard.ops.{target}({args})")
            elif n.op == "output":
                body.append(f"    return {_src(n.args[0])}")
        return f"\n\ndef forward(self, {', '.join(params)}):\n" + "\n".join(body) + "\n    "

    def print_readable(self, print_output=True):
        text = "class GraphModule(opyard.nn.Module):" + self.code.replace("\n", "\n    ").rstrip() + "\n"
        if print_output:
            print(text)
        return text

    def __call__(self, *args):
        env = {}
        it = iter(args)
        result = None
        for n in self.graph.nodes:
            if n.op == "placeholder":
                env[n.name] = next(it)
            elif n.op == "call_function":
                a = _resolve(n.args, env)
                k = {key: _resolve(v, env) for key, v in n.kwargs.items()}
                env[n.name] = n.target(*a, **k)
            else:
                result = _resolve(n.args[0], env)
        return result

    forward = __call__


def _resolve(x, env):
    if isinstance(x, Node):
        return env[x.name]
    if isinstance(x, (list, tuple)):
        return type(x)(_resolve(e, env) for e in x)
    return x


class _Tracer:
    def __init__(self):
        self.graph = Graph()
        self.values = {}  # id(tensor) -> (tensor, node)

    def node_of(self, x):
        if isinstance(x, Tensor):
            hit = self.values.get(id(x))
            if hit is not None and hit[0] is x:
                return hit[1]
            return x  # a constant tensor created outside the traced function
        if isinstance(x, (list, tuple)):
            return type(x)(self.node_of(e) for e in x)
        return x

    def record(self, op, args, kwargs, out):
        node = self.graph.add("call_function", op.__name__.split(".")[0], op,
                              tuple(self.node_of(a) for a in args),
                              {k: self.node_of(v) for k, v in kwargs.items()})
        self._bind(out, node)

    def _bind(self, out, node, index=None):
        if isinstance(out, Tensor):
            self.values[id(out)] = (out, node)
        elif isinstance(out, (list, tuple)):
            for i, o in enumerate(out):
                if isinstance(o, Tensor):
                    item = self.graph.add("call_function", f"getitem", _getitem, (node, i))
                    self.values[id(o)] = (o, item)


def _getitem(seq, i):
    return seq[i]


_getitem.__name__ = "getitem"


class _State(threading.local):
    tracer = None


_state = _State()


def _tracer_fallback(keyset, op, *args, **kwargs):
    tracer = _state.tracer
    with _core._KeyGuard(exclude=_TRACER):
        out = op.redispatch(keyset.remove(DispatchKey.Tracer), *args, **kwargs)
    if tracer is not None:
        tracer.record(op, args, kwargs, out)
    return out


def make_fx(f, tracing_mode="real", *, decomposition_table=None, pre_dispatch=False):
    """Trace ``f``: ``make_fx(f, tracing_mode="real"|"fake"|"symbolic")(*example_args)``."""
    if tracing_mode not in ("real", "fake", "symbolic"):
        raise ValueError(f"make_fx: unexpected tracing_mode {tracing_mode!r}; expected 'real', 'fake' or 'symbolic'")

    def wrapped(*args):
        from ..fake import FakeTensorMode, ShapeEnv

        tracer = _Tracer()
        mode = None
        if tracing_mode != "real":
            mode = FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)
                                  if tracing_mode == "symbolic" else None)
            args = tuple(mode.from_tensor(a) if isinstance(a, Tensor) else a for a in args)
        for i, a in enumerate(args):
            node = tracer.graph.add("placeholder", f"arg{i}_1")
            if isinstance(a, Tensor):
                tracer.values[id(a)] = (a, node)
        prev = _state.tracer
        _state.tracer = tracer
        try:
            if mode is not None:
                mode.__enter__()
            try:
                with _core._KeyGuard(include=_TRACER):
                    out = f(*args)
            finally:
                if mode is not None:
                    mode.__exit__(None, None, None)
        finally:
            _state.tracer = prev
        tracer.graph.add("output", "output", None, (tracer.node_of(out),))
        return GraphModule(tracer.graph)

    return wrapped


_lib = Library("_", "IMPL")
_lib.fallback(_tracer_fallback, "Tracer", with_keyset=True)
