"""``Graph``, ``Node`` and ``GraphModule``: a traced program as data, as code, and as a callable.

Nodes are torch.fx's: ``placeholder`` (an input), ``get_attr`` (a constant
tensor kept on the module), ``call_function`` (``target`` is an ``OpOverload``
or a Python function such as ``operator.getitem``) and ``output``.
"""

import builtins
import keyword
import operator

from .. import _core
from ..utils._pytree import describe, tree_flatten

__all__ = ["Node", "Graph", "GraphModule"]


class Node:
    """One graph node; ``args``/``kwargs`` hold constants and other nodes."""

    __slots__ = ("op", "name", "target", "args", "kwargs", "meta")

    def __init__(self, op, name, target=None, args=(), kwargs=None):
        self.op, self.name, self.target = op, name, target
        self.args, self.kwargs = args, kwargs or {}
        self.meta = {}

    def __repr__(self):
        return self.name

    def __reduce__(self):
        # ``meta`` holds what tracing saw (fake tensors of one FakeTensorMode); it does not
        # travel, as torch's pickled GraphModules are rebuilt from their code without it.
        return _node, (self.op, self.name, self.target, self.args, self.kwargs)


def _node(op, name, target, args, kwargs):
    return Node(op, name, target, args, kwargs)


class Graph:
    """An ordered list of nodes with unique names."""

    def __init__(self):
        self.nodes = []
        self._names = {}

    def _fresh(self, base):
        n = self._names.get(base, 0)
        if n == 0 and (base in _RESERVED or keyword.iskeyword(base)):
            n = 1  # as torch.fx: a node never shadows a builtin (``sum_1``, not ``sum``)
        self._names[base] = n + 1
        return base if n == 0 else f"{base}_{n}"

    def create_node(self, op, base, target=None, args=(), kwargs=None):
        node = Node(op, self._fresh(base), target, args, kwargs)
        self.nodes.append(node)
        return node

    def placeholder(self, name):
        return self.create_node("placeholder", name, name)

    def output(self, result):
        return self.create_node("output", "output", "output", (result,))

    def __str__(self):
        lines = ["graph():"]
        for n in self.nodes:
            if n.op == "output":
                lines.append(f"    return {_fmt(n.args[0])}")
            else:
                target = n.target if n.op != "call_function" else _target_name(n.target)
                lines.append(f"    %{n.name} : [num_users={self._users(n)}] = {n.op}[target={target}]"
                             + (f"(args = {_fmt(tuple(n.args))}, kwargs = {_fmt(n.kwargs)})"
                                if n.op == "call_function" else ""))
        return "\n".join(lines)

    def _users(self, node):
        count = 0
        for n in self.nodes:
            if _uses(n.args, node) or _uses(tuple(n.kwargs.values()), node):
                count += 1
        return count

    def print_tabular(self):
        print("\n".join(f"{n.op:<14} {n.name:<16} {_target_name(n.target)!s:<32} {_fmt(tuple(n.args))}"
                        for n in self.nodes))


def _uses(x, node):
    if x is node:
        return True
    if isinstance(x, (list, tuple)):
        return any(_uses(e, node) for e in x)
    return False


def _is_opyard_function(t):
    """``opyard.sym_max`` and its kin: public functions of opyard's fake layer (torch.sym_max in torch)."""
    return getattr(t, "__module__", "") == "opyard.fake.sym" and t.__name__.startswith("sym_")


def _target_name(target):
    if hasattr(target, "_schema") and hasattr(target, "name"):
        ns_name = target.name().replace("::", ".")
        return f"{ns_name}" if "." in ns_name.split(".", 1)[1] else f"{ns_name}.default"
    if getattr(target, "__module__", None) == "_operator":
        return f"operator.{target.__name__}"
    if _is_opyard_function(target):
        return f"opyard.{target.__name__}"
    return getattr(target, "__name__", str(target))


def _fmt(x):
    if isinstance(x, Node):
        return f"%{x.name}"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_fmt(v)}" for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        inner = ", ".join(_fmt(e) for e in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    return repr(x)


def _src(x):
    """Python source for an argument value."""
    if isinstance(x, Node):
        return x.name
    if isinstance(x, (list, tuple)):
        inner = ", ".join(_src(e) for e in x)
        return f"[{inner}]" if isinstance(x, list) else f"({inner}{',' if len(x) == 1 else ''})"
    if isinstance(x, _core.device):
        return repr(x)  # ``device(type='cpu')``, as torch.fx writes it
    if type(x).__name__ == "dtype" and hasattr(x, "is_floating_point"):
        return str(x)
    return repr(x)


_RESERVED = frozenset(dir(builtins)) | {"self", "opyard", "operator"}

# Size arithmetic prints infix, as torch.fx prints it (``mul = sym_size_int * sym_size_int_1``).
_INFIX = {operator.add: "+", operator.sub: "-", operator.mul: "*", operator.floordiv: "//",
          operator.mod: "%", operator.truediv: "/", operator.pow: "**"}


def _call_src(n):
    args = [_src(a) for a in n.args] + [f"{k} = {_src(v)}" for k, v in n.kwargs.items()]
    t = n.target
    if t is operator.getitem:
        return f"{_src(n.args[0])}[{_src(n.args[1])}]"
    if t in _INFIX and len(n.args) == 2 and not n.kwargs:
        return f"{args[0]} {_INFIX[t]} {args[1]}"
    if t is operator.neg and len(n.args) == 1:
        return f"-{args[0]}"
    if _is_opyard_function(t):
        return f"opyard.{t.__name__}({', '.join(args)})"
    if getattr(t, "__module__", None) == "_operator":
        return f"operator.{t.__name__}({', '.join(args)})"
    return f"opyard.ops.{_target_name(t)}({', '.join(args)})"


def _input_nodes(x, found):
    if isinstance(x, Node):
        found.append(x)
    elif isinstance(x, (list, tuple)):
        for e in x:
            _input_nodes(e, found)
    elif isinstance(x, dict):
        for e in x.values():
            _input_nodes(e, found)
    return found


def _freed_after(nodes):
    """``node -> ";  a = b = None"``: the values whose last use is ``node`` (in the order its
    arguments name them), then ``node`` itself if nothing uses it, as torch.fx's code frees them."""
    last_uses, used = {}, set()
    for node in reversed(nodes):
        for n in _input_nodes((node.args, node.kwargs), []):
            used.add(n)
            if n not in last_uses:
                last_uses[n] = node
    frees = {}
    for n, user in last_uses.items():
        frees.setdefault(user, []).append(n)
    for names in frees.values():
        names.reverse()  # the reversed walk met the arguments last-first within a user
    def freed(node):
        names = [n for n in frees.get(node, [])]
        names = _first_seen_order(node, names)
        if node not in used and node.op != "output":
            names.append(node)
        return f";  {' = '.join(n.name for n in names)} = None" if names else ""
    return freed


def _first_seen_order(node, names):
    """``names`` (inputs of ``node`` whose last use it is) in the order ``node``'s arguments name them."""
    order = []
    for n in _input_nodes((node.args, node.kwargs), []):
        if n in names and n not in order:
            order.append(n)
    return order


class GraphModule:
    """A traced program: call it like the original function; ``.graph``, ``.code``."""

    def __init__(self, graph, constants=None):
        self.graph = graph
        self._in_bases = self._in_specs = None  # set when inputs were nested (see _set_input_structure)
        self._constants = dict(constants or {})
        for name, value in self._constants.items():
            setattr(self, name, value)

    def __repr__(self):
        return f"GraphModule({len(self.graph.nodes)} nodes)"

    def _set_input_structure(self, bases, specs):
        """The inputs were nested: ``forward`` takes them so and flattens them (``utils._pytree``)."""
        self._in_bases, self._in_specs = list(bases), list(specs)

    def _flatten_inputs(self, args):
        if len(args) != len(self._in_specs):
            raise TypeError(f"GraphModule.forward: expected {len(self._in_specs)} inputs "
                            f"({', '.join(self._in_bases)}), got {len(args)}")
        flat = []
        for base, spec, a in zip(self._in_bases, self._in_specs, args):
            leaves, got = tree_flatten(a)
            if got != spec:
                raise TypeError(f"GraphModule.forward: input {base} must have the structure it was traced "
                                f"with ({describe(spec)}), got {describe(got)}")
            flat.extend(leaves)
        return flat

    @property
    def code(self):
        """The program as Python source (``def forward(self, arg0_1, ...)``)."""
        params = [n.name for n in self.graph.nodes if n.op == "placeholder"]
        body = []
        if self._in_specs is not None:
            body.append(f"    {', '.join(params)}, = self._flatten_inputs([{', '.join(self._in_bases)}])")
            params = self._in_bases
        freed = _freed_after(self.graph.nodes)
        for n in self.graph.nodes:
            if n.op == "get_attr":
                body.append(f"    {n.name} = self.{n.target}" + freed(n))
            elif n.op == "call_function":
                body.append(f"    {n.name} = {_call_src(n)}" + freed(n))
            elif n.op == "output":
                body.append(f"    return {_src(n.args[0])}")
        return f"\n\n\ndef forward(self, {', '.join(params)}):\n" + "\n".join(body) + "\n    "

    def print_readable(self, print_output=True):
        """The module as readable source: printed (unless ``print_output=False``) and returned."""
        lines = ["class GraphModule(opyard.nn.Module):"]
        lines += ["    " + line if line else line for line in self.code.strip("\n").rstrip().split("\n")]
        text = "\n".join(lines) + "\n"
        if print_output:
            print(text)
        return text

    def __call__(self, *args):
        env = {}
        it = iter(self._flatten_inputs(args) if self._in_specs is not None else args)
        for n in self.graph.nodes:
            if n.op == "placeholder":
                try:
                    env[n.name] = next(it)
                except StopIteration:
                    raise TypeError(f"GraphModule.forward: missing input {n.name} (the graph takes "
                                    f"{sum(m.op == 'placeholder' for m in self.graph.nodes)} inputs)") from None
            elif n.op == "get_attr":
                env[n.name] = getattr(self, n.target)
            elif n.op == "call_function":
                env[n.name] = n.target(*_resolve(n.args, env), **{k: _resolve(v, env) for k, v in n.kwargs.items()})
            else:
                return _resolve(n.args[0], env)
        return None

    forward = __call__


def _resolve(x, env):
    if isinstance(x, Node):
        return env[x.name]
    if isinstance(x, (list, tuple)):
        return type(x)(_resolve(e, env) for e in x)
    return x

from .._exports import public_dir

__dir__ = public_dir(globals())
