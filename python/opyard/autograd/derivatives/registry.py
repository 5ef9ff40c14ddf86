"""One generic autograd kernel for every op of the derivative table.

A :class:`Formula` is data: the node name (``MulBackward0``), the
differentiable arguments, what to save, a backward function and (optional)
a forward-mode function. :func:`make_kernel` turns an operator and its
formula into the kernel registered at the ``Autograd`` key: it binds the
call's arguments to the schema once, redispatches below autograd, and, when
an input requires grad, records one node whose ``next_functions`` follow the
differentiable arguments (a ``Tensor[]`` argument contributes one edge per
element).

Backward functions are called as ``backward(grads, a, needs)``: ``grads``
the output gradients (one per output), ``a`` the saved arguments by schema
name (``a.self``, ``a.other``, ``a.alpha``, ``a.result``; tensors that are
not saved are :class:`TensorMeta` stand-ins with shape and dtype),
``needs`` one bool per differentiable argument. They return one gradient
(or list, for ``Tensor[]``) per differentiable argument. Broadcast inputs
get their gradient summed back to shape by the engine (see engine._validate).
"""

from ... import _core
from ...dispatcher import AUTOGRAD_KEYS, after_autograd_keyset
from .. import _tensor_meta as meta
from .. import forward_ad as fwad
from ..graph import Node, SavedTensor, gradient_edge, next_sequence_nr, set_history

__all__ = ["Formula", "TensorMeta", "make_kernel", "BuiltinNode"]

_KeyGuard = _core._KeyGuard
_AFTER = after_autograd_keyset


class Formula:
    """Derivative data of one operator overload."""

    __slots__ = ("name", "diff", "save", "backward", "forward")

    def __init__(self, name, diff, backward, save=(), forward=None):
        self.name = name
        self.diff = tuple(diff)
        self.save = tuple(save)
        self.backward = backward
        self.forward = forward


class TensorMeta:
    """Shape/dtype of an input tensor the formula does not need the values of."""

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


class _Args:
    """The saved arguments of one call, by schema name (unpacked for one backward)."""

    def __init__(self, values):
        self.__dict__.update(values)


class BuiltinNode(Node):
    """A node of a built-in op; subclasses set ``formula`` and ``_arity`` (edges per diff arg)."""

    formula = None

    def apply(self, grads):
        f = self.formula
        values = {}
        released = self._released
        for name, v in self._saved.items():
            if isinstance(v, SavedTensor):
                v = v.unpack(released)
            elif isinstance(v, list) and v and isinstance(v[0], SavedTensor):
                v = [s.unpack(released) for s in v]
            values[name] = v
        if all(g is None for g in grads):
            return (None,) * len(self.next_functions)
        result = f.backward(grads, _Args(values), self._needs)
        if self._flat:
            return result
        flat = []
        for r, n in zip(result, self._arity):
            if n is None:
                flat.append(r)
            else:
                flat.extend(r if r is not None else (None,) * n)
        return flat

    def release_variables(self):
        self._released = True
        for name, v in self._saved.items():
            if isinstance(v, SavedTensor):
                v.tensor = None
            elif isinstance(v, list):
                for s in v:
                    if isinstance(s, SavedTensor):
                        s.tensor = None


def _binder(schema):
    """A function mapping a call's (args, kwargs) to the full argument list in schema order."""
    arguments = schema.arguments
    names = [a.name for a in arguments]
    defaults = [a.default_value for a in arguments]
    index = {n: i for i, n in enumerate(names)}

    def bind(args, kwargs):
        values = list(args) + defaults[len(args):]
        for k, v in kwargs.items():
            values[index[k]] = v
        return values

    return names, bind


def make_kernel(op, formula):
    """The Autograd kernel of ``op`` (``with_keyset=True`` convention) from its formula."""
    schema = op._schema
    names, bind = _binder(schema)
    diff_pos = tuple(names.index(n) for n in formula.diff)
    mutated = tuple(i for i, a in enumerate(schema.arguments)
                    if a.alias_info is not None and a.alias_info.is_write)
    save = formula.save
    save_pos = {n: names.index(n) for n in save if n != "result"}
    save_result = "result" in save
    clone_before = tuple(p for n, p in save_pos.items() if p in mutated)
    node_cls = type(formula.name, (BuiltinNode,), {"formula": formula, "__module__": __name__})
    op_name = op.name()
    exclude = AUTOGRAD_KEYS

    def kernel(keyset, *args, **kwargs):
        values = bind(args, kwargs)
        needs = []
        edges = []
        arity = []
        any_grad = False
        grad_on = not _core._is_excluded(exclude)
        for p in diff_pos:
            v = values[p]
            if isinstance(v, (list, tuple)):
                flags = [grad_on and meta.is_tensor(t) and meta.requires_grad(t) for t in v]
                edges.extend(gradient_edge(t) if f else (None, 0) for t, f in zip(v, flags))
                arity.append(len(v))
                needs.append(any(flags))
            else:
                flag = grad_on and v is not None and meta.requires_grad(v)
                edges.append(gradient_edge(v) if flag else (None, 0))
                arity.append(None)
                needs.append(flag)
            any_grad = any_grad or needs[-1]
        for p in mutated:
            if grad_on:
                meta.check_inplace(values[p])
        tangents = None
        if fwad._state.level is not None:
            tangents = [_tangent_of(values[p]) for p in diff_pos]
            if all(t is None for t in tangents):
                tangents = None
            elif formula.forward is None:
                raise NotImplementedError(
                    f"Trying to use forward AD with {op_name} that does not support it because it "
                    "has not been implemented yet.")
        originals = {}
        if (any_grad or tangents) and clone_before:
            with _KeyGuard(exclude=exclude):
                for p in clone_before:
                    originals[p] = values[p].clone()
        with _KeyGuard(exclude=exclude):
            out = op.redispatch(keyset & _AFTER, *args, **kwargs)
        if any_grad:
            _record(node_cls, formula, out, values, names, tuple(needs), tuple(edges), arity,
                    save_pos, save_result, originals, mutated)
        if tangents is not None:
            _push_tangents(formula, out, values, names, tangents, originals, mutated)
        return out

    kernel.__name__ = f"autograd_{op_name.replace('::', '_').replace('.', '_')}"
    kernel.__qualname__ = kernel.__name__
    return kernel


def _tangent_of(v):
    if isinstance(v, (list, tuple)):
        ts = [fwad.get_tangent(t) for t in v]
        return None if all(t is None for t in ts) else ts
    return fwad.get_tangent(v) if v is not None else None


def _record(node_cls, formula, out, values, names, needs, edges, arity, save_pos, save_result,
            originals, mutated):
    node = node_cls()
    node.next_functions = edges
    node._needs = needs
    node._arity = arity
    node._flat = all(a is None for a in arity)
    node._sequence_nr = next_sequence_nr()
    outs = out if isinstance(out, tuple) else (out,)
    node._out_shapes = tuple(meta.shape(o) if meta.is_tensor(o) else () for o in outs)
    saved = {}
    name = formula.name
    for i, n in enumerate(names):
        v = originals.get(i, values[i])
        if n in save_pos:
            if isinstance(v, (list, tuple)):
                saved[n] = [SavedTensor(t) for t in v]
            else:
                saved[n] = SavedTensor(v) if v is not None else None
        elif meta.is_tensor(v):
            saved[n] = TensorMeta(v)
        elif isinstance(v, (list, tuple)) and v and meta.is_tensor(v[0]):
            saved[n] = [TensorMeta(t) for t in v]
        else:
            saved[n] = v
    for i, o in enumerate(outs):
        if meta.is_tensor(o) and meta.is_differentiable_dtype(o):
            meta.rebase_history(o, node, i) if _is_mutated(o, values, mutated) \
                else set_history(o, node, i)
    if save_result:
        saved["result"] = SavedTensor(out, True, name, 0) if not isinstance(out, tuple) \
            else [SavedTensor(o, True, name, i) for i, o in enumerate(outs)]
    node._saved = saved
    return node


def _is_mutated(o, values, mutated):
    for p in mutated:
        if values[p] is o:
            return True
    return False


def _push_tangents(formula, out, values, names, tangents, originals, mutated):
    args = dict(zip(names, values))
    for p, v in originals.items():
        args[names[p]] = v
    args["result"] = out
    with _KeyGuard(exclude=AUTOGRAD_KEYS) if not any(
            meta.is_tensor(t) and meta.requires_grad(t) for t in tangents) else _nullguard():
        result = formula.forward(tangents, _Args(args))
    outs = out if isinstance(out, tuple) else (out,)
    res = result if isinstance(result, tuple) else (result,)
    for o, t in zip(outs, res):
        if t is not None and meta.is_tensor(o):
            fwad.set_tangent(o, t)


class _nullguard:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False
