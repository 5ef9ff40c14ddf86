"""Parts of the generic autograd kernel (See ``registry.py``): the shared shape/dtype
stand-ins its nodes keep (``TensorMeta``), the Rust backward applies of the hottest formulas
(``rust_apply``), and what is off its common path: forward-AD tangents, the copies an in-place
op saves, ``Tensor[]`` edges and views."""

from ... import _core
from ..._ops import ops as _ops
from .. import _tensor_meta as meta
from .. import forward_ad as fwad
from ..grad_mode import no_grad
from ..graph import gradient_edge
from ..views import mark_multi_output, record_view
from ...dispatcher import DispatchKey, DispatchKeySet

__all__ = ["_Args", "record_view_of", "collect_lists", "tangents_of", "clone_originals",
           "push_tangents", "NO_EDGE", "TensorMeta", "tensor_meta", "rust_apply"]

NO_EDGE = (None, 0)
_TRACER = DispatchKeySet(DispatchKey.Tracer)


class _Args:
    """The saved arguments of one call, by schema name (unpacked for one backward)."""

    def __init__(self, values):
        self.__dict__ = values


def record_view_of(spec, out, args, kwargs):
    """See Note in ``views.py``: how to rebuild this view from its root base (the outputs of an op
    returning several views are marked as such instead)."""
    if isinstance(out, (list, tuple)):
        mark_multi_output(out)
        return
    if getattr(out, "_base", None) is None:
        return
    op, rest = spec.op, args[1:]
    record_view(out, args[0], lambda b: op(b, *rest, **kwargs))


def collect_lists(values, diff_pos):
    needs, edges, arity = [], [], []
    for p in diff_pos:
        v = values[p]
        if isinstance(v, (list, tuple)):
            flags = [meta.is_tensor(t) and meta.requires_grad(t) for t in v]
            edges.extend(gradient_edge(t) if f else NO_EDGE for t, f in zip(v, flags))
            arity.append(len(v))
            needs.append(any(flags))
        else:
            flag = v is not None and meta.requires_grad(v)
            edges.append(gradient_edge(v) if flag else NO_EDGE)
            arity.append(None)
            needs.append(flag)
    return needs, edges, arity


def tangents_of(spec, values):
    """``[(level, tangents)]`` of the visible forward levels where a differentiable argument has a
    tangent, outermost first (Note [Forward AD levels]); None when there is none."""
    found = None
    for level in fwad.visible_levels():
        tangents = [_tangent_of(values[p], level) for p in spec.diff_pos]
        if all(t is None for t in tangents):
            continue
        if spec.formula.forward is None:
            raise NotImplementedError(
                f"Trying to use forward AD with {spec.op_name} that does not support it because it "
                "has not been implemented yet.")
        if found is None:
            found = []
        found.append((level, tangents))
    return found


# What a node keeps of an argument: the tensor, its metadata, the value; ``SAVE_IF + k``: the tensor
# when differentiable argument ``k`` needs a gradient, else its metadata (Note [Conditional saves]).
SAVE, META, VALUE = 0, 1, 2
SAVE_IF = 3


def clone_originals(spec, values, edges=None):
    """In-place ops whose formula needs the input: save a copy of it before it changes. The copy
    keeps the input's history (as torch's ``original_self``), so a double backward reaches it.
    With ``edges``, an input saved only for a gradient no input needs (``mul_`` by a number:
    Note [Conditional saves]) is not copied."""
    if edges is None:
        return {p: values[p].clone() for p in spec.clone_before}
    out = {}
    for p in spec.clone_before:
        kind = spec.saves[p][2]
        if kind < SAVE_IF or edges[kind - SAVE_IF][0] is not None:
            out[p] = values[p].clone()
    return out


def _tangent_of(v, level):
    if isinstance(v, (list, tuple)):
        ts = [fwad.tangent_at(t, level) if meta.is_tensor(t) else None for t in v]
        return None if all(t is None for t in ts) else ts
    return fwad.tangent_at(v, level) if meta.is_tensor(v) else None


def push_tangents(spec, out, values, per_level, originals):
    """Compute and attach the output tangents of every level of ``per_level`` (``tangents_of``)."""
    args = dict(zip(spec.names, values))
    for p, v in (originals or {}).items():
        args[spec.names[p]] = v
    args["result"] = out
    args = _Args(args)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    # Under make_fx the tracer records this op and runs it with ``Tracer`` excluded; the tangent
    # formulas are the traced function's own computation (torch traces them): visible again.
    retrace = _core._KeyGuard(include=_TRACER) if _core._is_excluded(_TRACER) else None
    if retrace is not None:
        retrace.__enter__()
    try:
        for level, tangents in per_level:
            with fwad.hidden(level):
                _push_level(spec, outs, values, args, tangents, level)
    finally:
        if retrace is not None:
            retrace.__exit__(None, None, None)


def _push_level(spec, outs, values, args, tangents, level):
    # Tangents are computed without recording unless something they depend on requires grad: then
    # the jvp must be backward-differentiable (reverse over forward), as in torch.
    if any(meta.is_tensor(t) and meta.requires_grad(t) for t in _flat(tangents)) or \
            any(meta.is_tensor(v) and meta.requires_grad(v) for v in _flat(values)):
        if spec.mutated:
            # The new tangent of a mutated input is written into its tangent below: the formula reads a
            # copy of the old one (torch's ``original_self_t``), so what the recorded tangent computation
            # saved is not changed under it.
            tangents = [t.clone() if p in spec.mutated and meta.is_tensor(t) else t
                        for p, t in zip(spec.diff_pos, tangents)]
        result = spec.formula.forward(tangents, args)
    else:
        # ``no_grad``, not the guard excluding the autograd keys: the outer levels' tangents flow.
        with no_grad():
            result = spec.formula.forward(tangents, args)
    res = result if isinstance(result, (tuple, list)) else (result,)
    mutated = spec.mutated
    for o, t in zip(outs, res):
        if t is not None and meta.is_tensor(o) and meta.is_differentiable_dtype(o):
            if meta.shape(t) != meta.shape(o):  # the tangent of a broadcast input: expand it, as the primal was
                t = t.expand(*meta.shape(o))
            if t.dtype != o.dtype:  # a tangent has its primal's dtype (torch casts what formulas give)
                t = t.to(o.dtype)
            if mutated and any(values[p] is o for p in mutated):
                fwad.set_inplace_tangent(o, t, level)
            else:
                if any(t is x for x in _flat(tangents)) and not any(o is v for v in _flat(values)):
                    # A formula that passes an input's tangent through (``add`` with one tangent): the new
                    # tensor gets a tangent of its own, or an in-place change of it would write into the
                    # input's (torch's formulas always make a new tensor there).
                    t = t.clone()
                fwad.set_tangent(o, t, level)


def _flat(tangents):
    for t in tangents:
        if isinstance(t, (list, tuple)):
            yield from t
        else:
            yield t


class TensorMeta:
    """Shape/dtype of an input tensor the formula does not need the values of.

    Immutable and shared: :func:`tensor_meta` hands out one object per (shape, dtype)."""

    __slots__ = ("shape", "dtype")

    def __init__(self, t):
        self.shape = meta.shape(t)
        self.dtype = meta.dtype(t)

    def dim(self):
        return len(self.shape)

    @property
    def ndim(self):
        return len(self.shape)

    def size(self, d=None):
        return self.shape if d is None else self.shape[d]

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n


_META_CACHE: dict = {}
_META_CACHE_SIZE = 4096


def tensor_meta(t):
    """The shared :class:`TensorMeta` of ``t``'s shape and dtype.

    Note [Shared tensor metadata]: a node keeps the shape and dtype of every tensor
    argument it does not save (formulas read ``a.self.shape``); one object per
    (shape, dtype) instead of one per node keeps a unary node small (See Note [Rust
    graph nodes] in ``src/python/autograd/node/mod.rs``). The cache is bounded: it is emptied
    when full, which only costs new objects."""
    key = (t.shape, t.dtype)
    try:
        cached = _META_CACHE.get(key)
    except TypeError:  # an unhashable size (a symbolic one): this node's own object
        return TensorMeta(t)
    if cached is not None:
        return cached
    if len(_META_CACHE) >= _META_CACHE_SIZE:
        _META_CACHE.clear()
    m = _META_CACHE[key] = TensorMeta(t)
    return m


# The Rust applies: kind -> (the saved names it reads, in order; the ops it calls).
_RUST_APPLY = {
    "sum": (("self",), lambda: (_ops.aten.expand.default,)),
    "mean": (("self",), lambda: (_ops.aten.div.Scalar, _ops.aten.expand.default)),
    "neg": ((), lambda: (_ops.aten.neg.default,)),
    "clone": ((), lambda: ()),
    "identity": ((), lambda: ()),
    "add": (("self", "other", "alpha"), lambda: (_ops.aten.mul.Scalar,)),
    "sub": (("self", "other", "alpha"), lambda: (_ops.aten.mul.Scalar, _ops.aten.neg.default)),
    "mul": (("self", "other"), lambda: (_ops.aten.mul.Tensor,)),
    "div": (("self", "other"), lambda: (_ops.aten.div.Tensor,)),
    "mm": (("self", "mat2"), lambda: (_ops.aten.mm.default, _ops.aten.t.default)),
    "addmm": (("self", "mat1", "mat2", "beta", "alpha"),
              lambda: (_ops.aten.mm.default, _ops.aten.t.default, _ops.aten.mul.Scalar)),
    "mul_scalar": (("self", "other"), lambda: (_ops.aten.mul.Tensor, _ops.aten.mul.Scalar)),
    "div_scalar": (("self", "other"), lambda: (_ops.aten.div.Tensor, _ops.aten.div.Scalar)),
    "mul_result": (("self", "result"), lambda: (_ops.aten.mul.Tensor, _ops.aten.mul.Scalar)),
    "tanh": (("self", "result"), lambda: (_ops.aten.mul.Tensor, _ops.aten.rsub.Scalar)),
    "sigmoid": (("self", "result"), lambda: (_ops.aten.mul.Tensor, _ops.aten.rsub.Scalar)),
    "relu": (("self", "result"), lambda: (_ops.aten.where.self, _ops.aten.le.Scalar,
                                          _ops.aten.zeros_like.default)),
    "bmm": (("self", "mat2"), lambda: (_ops.aten.bmm.default, _ops.aten.transpose.int)),
    "pow_scalar": (("self", "exponent"), lambda: (_ops.aten.pow.Tensor_Scalar, _ops.aten.mul.Scalar,
                                                  _ops.aten.mul.Tensor)),
    "unsqueeze": (("self", "dim"), lambda: (_ops.aten.squeeze.dim,)),
    "reshape": (("self",), lambda: (_ops.aten.reshape.default,)),
    "mean_dim": (("self", "dim", "keepdim", "dtype"), lambda: (_ops.aten.div.Scalar, _ops.aten.unsqueeze.default,
                                                               _ops.aten.expand.default)),
}


def rust_apply(formula, save_names, fallback, saved_tensor):
    """The ``_NodeApply`` of ``formula.rust_apply`` for a node saving ``save_names``, falling
    back to the Python apply ``fallback``; ``saved_tensor`` is the ``SavedTensor`` class."""
    reads, ops = _RUST_APPLY[formula.rust_apply]
    # These read every saved value by position.
    exact = formula.rust_apply in ("mul", "div", "mm", "addmm", "mul_result", "tanh", "sigmoid", "relu", "bmm",
                                   "pow_scalar", "unsqueeze", "mean_dim")
    if save_names[:len(reads)] != reads or (exact and save_names != reads):
        raise ValueError(f"{formula.name}: the Rust apply {formula.rust_apply!r} reads the saved "
                         f"values {reads}, but the node saves {save_names}")
    return _core._NodeApply(formula.rust_apply, fallback, ops(), saved_tensor)
