"""Parts of the generic autograd kernel (See ``registry.py``): the shared shape/dtype
stand-ins its nodes keep (``TensorMeta``), the Rust backward applies of the hottest formulas
(``rust_apply``), and what is off its common path: forward-AD tangents, the copies an in-place
op saves, ``Tensor[]`` edges and views."""

from ... import _core
from ..._ops import ops as _ops
from .. import _tensor_meta as meta
from .. import forward_ad as fwad
from ..grad_mode import _no_grad_guard
from ..graph import gradient_edge
from ..views import record_view

__all__ = ["_Args", "record_view_of", "collect_lists", "tangents_of", "clone_originals",
           "push_tangents", "NO_EDGE", "TensorMeta", "tensor_meta", "rust_apply"]

NO_EDGE = (None, 0)


class _Args:
    """The saved arguments of one call, by schema name (unpacked for one backward)."""

    def __init__(self, values):
        self.__dict__ = values


def record_view_of(spec, out, args, kwargs):
    """See Note in ``views.py``: how to rebuild this view from its root base."""
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
    tangents = [_tangent_of(values[p]) for p in spec.diff_pos]
    if all(t is None for t in tangents):
        return None
    if spec.formula.forward is None:
        raise NotImplementedError(
            f"Trying to use forward AD with {spec.op_name} that does not support it because it "
            "has not been implemented yet.")
    return tangents


def clone_originals(spec, values):
    """In-place ops whose formula needs the input: save a copy of it before it changes. The copy
    keeps the input's history (as torch's ``original_self``), so a double backward reaches it."""
    return {p: values[p].clone() for p in spec.clone_before}


def _tangent_of(v):
    if isinstance(v, (list, tuple)):
        ts = [fwad.get_tangent(t) for t in v]
        return None if all(t is None for t in ts) else ts
    return fwad.get_tangent(v) if v is not None else None


def push_tangents(formula, out, values, names, tangents, originals):
    args = dict(zip(names, values))
    for p, v in (originals or {}).items():
        args[names[p]] = v
    args["result"] = out
    # Tangents are computed without recording, unless a tangent itself requires grad
    # (then the jvp must be backward-differentiable, as in torch).
    if any(meta.is_tensor(t) and meta.requires_grad(t) for t in _flat(tangents)):
        result = formula.forward(tangents, _Args(args))
    else:
        with _no_grad_guard():
            result = formula.forward(tangents, _Args(args))
    outs = out if isinstance(out, (tuple, list)) else (out,)
    res = result if isinstance(result, (tuple, list)) else (result,)
    for o, t in zip(outs, res):
        if t is not None and meta.is_tensor(o):
            if meta.shape(t) != meta.shape(o):  # the tangent of a broadcast input: expand it, as the primal was
                t = t.expand(*meta.shape(o))
            fwad.set_tangent(o, t)


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
    "mul": (("self", "other"), lambda: (_ops.aten.mul.Tensor, _ops.aten.mul.Scalar)),
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
}


def rust_apply(formula, save_names, fallback, saved_tensor):
    """The ``_NodeApply`` of ``formula.rust_apply`` for a node saving ``save_names``, falling
    back to the Python apply ``fallback``; ``saved_tensor`` is the ``SavedTensor`` class."""
    reads, ops = _RUST_APPLY[formula.rust_apply]
    # These read every saved value by position.
    exact = formula.rust_apply in ("mul", "mm", "addmm", "mul_result", "tanh", "sigmoid", "relu")
    if save_names[:len(reads)] != reads or (exact and save_names != reads):
        raise ValueError(f"{formula.name}: the Rust apply {formula.rust_apply!r} reads the saved "
                         f"values {reads}, but the node saves {save_names}")
    return _core._NodeApply(formula.rust_apply, fallback, ops(), saved_tensor)
