"""Parts of the generic autograd kernel off its common path: forward-AD tangents, the
copies an in-place op saves, ``Tensor[]`` edges and views (See ``registry.py``)."""

from .. import _tensor_meta as meta
from .. import forward_ad as fwad
from ..grad_mode import _no_grad_guard
from ..graph import gradient_edge
from ..views import record_view

__all__ = ["_Args", "record_view_of", "collect_lists", "tangents_of", "clone_originals",
           "push_tangents", "NO_EDGE"]

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
    """In-place ops whose formula needs the input: save a copy of it before it changes."""
    with _no_grad_guard():
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
