"""``make_fx``: trace a function into a ``GraphModule`` of operator calls.

Tracing includes the ``Tracer`` key on the thread. Its fallback records each
call at its ``OpOverload`` and redispatches below the key with ``Tracer``
excluded, so only the calls the function itself makes are recorded (not the
kernels' inner calls). ``tracing_mode="fake"`` runs the trace on fake tensors
and ``"symbolic"`` adds a ``ShapeEnv``: every input size other than 0 and 1
becomes a backed symbol (``s75``: named, specialized and duck-sized as torch
does, See Note [Backed symbols]), int inputs too, and data-dependent sizes
become unbacked ones (``u0``); arguments that are symbolic sizes are recorded
as ``aten.sym_size.int`` and ``operator`` nodes that recompute them on re-run.
What the trace branched on is in ``gm.shape_env.guards``. Placeholders are
named after ``f``'s parameters (``x_1``), or ``arg0_1``... when ``f`` takes
``*args`` or has no Python signature, as in torch.
"""

import inspect
import operator
import threading

from .. import _core
from .._op_pickle import LAZY
from .._ops import ops
from .._tensor import Tensor
from ..dispatcher import DispatchKey, DispatchKeySet
from .._registration import KernelLibrary
from ._composites import CALL_COMPOSITE, decomposition as _trace_decomposition
from .graph import Graph, GraphModule
from ..utils._pytree import LEAF, tree_flatten, tree_unflatten

__all__ = ["make_fx"]

_TRACER = DispatchKeySet(DispatchKey.Tracer)
_CPU = DispatchKeySet(DispatchKey.CPU)
_FUNCTIONALIZE = DispatchKey.Functionalize


class _Tracer:
    def __init__(self, fake=False, decompositions=None):
        self.fake = fake  # nodes keep their fake value in meta["val"], as torch's
        # make_fx's decomposition_table by operator name: traced through instead of recorded
        self.decompositions = {op.name(): fn for op, fn in (decompositions or {}).items()}
        self.graph = Graph()
        self.values = {}  # id(tensor) -> (tensor, node)
        self.sym_nodes = {}  # SymInt expression -> node computing it
        self.sym_sources = {}  # symbol name -> (node of a tensor, dim) whose size it is
        self.constants = {}

    def node_of(self, x):
        if isinstance(x, Tensor):
            hit = self.values.get(id(x))
            if hit is not None and hit[0] is x:
                return hit[1]
            return self._constant(x)
        if isinstance(x, (list, tuple)):
            return type(x)(self.node_of(e) for e in x)
        if _is_symint(x):
            return self._sym_node(x)
        return x

    def _constant(self, t):
        """A tensor made outside the traced function: a ``get_attr`` of the module."""
        name = f"_tensor_constant{len(self.constants)}"
        self.constants[name] = t
        node = self.graph.create_node("get_attr", name, name)
        self.values[id(t)] = (t, node)
        return node

    def _sym_node(self, s):
        node = self.sym_nodes.get(s._expr)
        if node is not None:
            return node
        if s._parts is not None:
            fn, *operands = s._parts
            node = self.graph.create_node("call_function", fn.__name__, fn,
                                          tuple(self.node_of(a) for a in operands))
        else:
            source = self.sym_sources.get(s._expr)
            if source is None:
                raise RuntimeError(f"make_fx: the symbolic size {s} is not the size of any traced tensor, so "
                                   "the graph cannot recompute it on re-run")
            node = self.graph.create_node("call_function", "sym_size_int", _sym_size_int(), source)
        self.sym_nodes[s._expr] = node
        return node

    def record(self, op, args, kwargs, out):
        args, kwargs = _as_torch_passes(op, args, kwargs)
        node = self.graph.create_node("call_function", op.__name__.split(".")[0], op,
                                      tuple(self.node_of(a) for a in args),
                                      {k: self.node_of(v) for k, v in kwargs.items()})
        if self.fake:
            node.meta["val"] = out
        self.bind(out, node)

    def bind(self, out, node):
        if isinstance(out, Tensor):
            self.values[id(out)] = (out, node)
            for i, s in enumerate(getattr(out, "_sym_shape", None) or ()):
                if _is_symint(s) and s._parts is None:
                    self.sym_sources.setdefault(s._expr, (node, i))
        elif isinstance(out, (list, tuple)):
            for i, o in enumerate(out):
                if isinstance(o, Tensor):
                    self.bind(o, self.graph.create_node("call_function", "getitem", operator.getitem, (node, i)))


_ABSENT = object()


def _as_torch_passes(op, args, kwargs):
    """A call's arguments as torch's dispatcher hands them to Python: positional arguments by
    position without the trailing ones that equal their defaults, keyword-only ones by name unless
    they equal their defaults (``clamp.default(x, None, 2)``, ``sort.stable(x, stable = True)``)."""
    params = op._schema.arguments
    values = list(args) + [_ABSENT] * (len(params) - len(args))
    for i, p in enumerate(params):
        if p.name in kwargs:
            values[i] = kwargs[p.name]
    positional, named = [], {}
    for p, v in zip(params, values):
        if v is _ABSENT and p.has_default_value:
            v = p.default_value
        if p.kwarg_only:
            if v is not _ABSENT and not _is_default(p, v):
                named[p.name] = v
        else:
            positional.append((p, v))
    while positional and (positional[-1][1] is _ABSENT or _is_default(*positional[-1])):
        positional.pop()
    if any(v is _ABSENT for _, v in positional):
        return args, kwargs  # a required argument missing: the call raised below; record it as made
    return tuple(v for _, v in positional), named


def _is_default(param, value):
    if not param.has_default_value or isinstance(value, Tensor):
        return False
    default = param.default_value
    if isinstance(value, (list, tuple)) and isinstance(default, (list, tuple)):
        return list(value) == list(default)
    return type(value) is type(default) and value == default or value is default


def _is_symint(x):
    from ..fake.symbolic import SymInt

    return isinstance(x, SymInt)


_SYM_SIZE = []


def _sym_size_int():
    """``aten::sym_size.int``: the size of one dimension, as an operator graphs can call."""
    if not _SYM_SIZE:
        try:
            op = ops.aten.sym_size.int
        except (AttributeError, RuntimeError):
            lib = KernelLibrary("aten", "FRAGMENT")
            lib.define("sym_size.int(Tensor self, int dim) -> SymInt")
            lib.impl("sym_size.int", _size_of_dim, "CompositeExplicitAutograd")
            _SYM_SIZE.append(lib)
            op = ops.aten.sym_size.int
        _SYM_SIZE.insert(0, op)
    return _SYM_SIZE[0]


def _size_of_dim(self, dim):
    return self.shape[dim]


LAZY["aten::sym_size"] = _sym_size_int  # a pickled graph calling it defines it where it is loaded


class _State(threading.local):
    tracer = None


_state = _State()


def _tracer_fallback(keyset, op, *args, **kwargs):
    if keyset.has(_FUNCTIONALIZE):
        # Inside ``functionalize``: what is recorded is what its kernel calls (the out-of-place operators,
        # on the tensors under the functional ones), which reach this key again with ``Functionalize``
        # excluded (Note [Functional tensors] in func/functionalize.py).
        return op.redispatch(keyset.remove(DispatchKey.Tracer), *args, **kwargs)
    tracer = _state.tracer
    if tracer is not None and tracer.decompositions:
        decomposition = tracer.decompositions.get(op.name())
        if decomposition is not None:
            # As torch's proxy mode: the decomposition runs under the trace, which records its calls;
            # NotImplemented leaves the op to be recorded as called.
            out = decomposition(*args, **kwargs)
            if out is not NotImplemented:
                return out
    how = _trace_decomposition(op)
    if how is CALL_COMPOSITE:
        # torch's trace sees the calls of a CompositeImplicitAutograd kernel, never the operator: the
        # kernel runs with the trace on (see fx/_composites.py), called at the CPU entry it fills (no
        # kernel of its own is there), so no layer below the trace (a fake mode) handles the operator.
        return op.redispatch(_CPU, *args, **kwargs)
    if how is not None:
        return how(*args, **kwargs)
    with _core._KeyGuard(exclude=_TRACER):
        out = op.redispatch(keyset.remove(DispatchKey.Tracer), *args, **kwargs)
    if tracer is not None:
        tracer.record(op, args, kwargs, out)
    return out


def make_fx(f, tracing_mode="real", *, decomposition_table=None, pre_dispatch=False, _allow_non_fake_inputs=False):
    """Trace ``f``: ``make_fx(f, tracing_mode="real"|"fake"|"symbolic")(*example_args)`` -> GraphModule.

    ``decomposition_table`` (``{OpOverload: fn}``, e.g. ``opyard.fx.decomposition.decomposition_table``):
    a call of an operator it maps is traced through ``fn`` instead of being recorded.

    Example::

        >>> gm = make_fx(lambda x: x.sin() + 1)(opyard.randn(3))
        >>> gm.print_readable()
    """
    if tracing_mode not in ("real", "fake", "symbolic"):
        raise AssertionError(f"Unexpected tracing type: {tracing_mode}; expected 'real', 'fake' or 'symbolic'")

    def wrapped(*args):
        from ..fake import FakeTensor, FakeTensorMode, ShapeEnv

        bases = _param_names(f, len(args))
        flat, specs, names = [], [], []
        for base, a in zip(bases, args):
            leaves, spec = tree_flatten(a)
            flat.extend(leaves)
            specs.append(spec)
            names.extend(f"{base}_{k}" for k in range(1, len(leaves) + 1))
        tracer = _Tracer(tracing_mode != "real", decomposition_table)
        mode = env = None
        if tracing_mode != "real":
            # Fake inputs bring their mode (as torch's detect_fake_mode): mixing modes would raise.
            mode = next((a.fake_mode for a in flat if isinstance(a, FakeTensor) and a.fake_mode), None)
            if mode is not None:
                env = mode.shape_env
            else:
                env = ShapeEnv(allow_dynamic_output_shape_ops=True) if tracing_mode == "symbolic" else None
                mode = FakeTensorMode(shape_env=env, allow_non_fake_inputs=_allow_non_fake_inputs)
            flat = [_fakeify_input(mode, env, a, i) for i, a in enumerate(flat)]
        for name, a in zip(names, flat):
            node = tracer.graph.placeholder(name)
            if tracer.fake:
                node.meta["val"] = a
            if isinstance(a, Tensor):
                tracer.bind(a, node)
            elif _is_symint(a):
                tracer.sym_nodes.setdefault(a._expr, node)
        it = iter(flat)
        args = [_unflatten_next(it, spec) for spec in specs]
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
        tracer.graph.output(tracer.node_of(out))
        gm = GraphModule(tracer.graph, tracer.constants)
        gm.shape_env = env
        if any(spec is not LEAF for spec in specs):
            gm._set_input_structure(bases, specs)
        return gm

    return wrapped


def _unflatten_next(it, spec):
    if spec is LEAF:
        return next(it)
    leaves = [next(it) for _ in range(spec.num_leaves)]
    return tree_unflatten(leaves, spec)


def _param_names(f, count):
    """torch's placeholder bases: the positional parameters' names, else ``arg<i>`` (``*args``)."""
    try:
        params = list(inspect.signature(f).parameters.values())
    except (TypeError, ValueError):
        params = None
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    if params is None or any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in params):
        return [f"arg{i}" for i in range(count)]
    names = [p.name for p in params if p.kind in positional]
    if len(names) != count:
        raise RuntimeError(f"Tracing expected {len(names)} arguments but got {count} concrete arguments")
    return names


def _fakeify_input(mode, env, a, i):
    """An input as the trace sees it: tensors fake (symbolic sizes under ``env``), ints symbols."""
    if isinstance(a, Tensor):
        return mode.from_tensor(a, static_shapes=env is None, source=f"input{i}")
    if env is not None and type(a) is int:
        return env.create_symbol(a, f"input{i}", positive=None)
    return a


_lib = KernelLibrary("_", "IMPL")
_lib.fallback(_tracer_fallback, "Tracer", with_keyset=True)

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
