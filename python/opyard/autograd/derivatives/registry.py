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

Note [Conditional saves]: as torch's generated code, a saved tensor that only
one input's gradient reads is saved only when that input needs a gradient
(``Formula.save_if``: saved name -> the differentiable argument whose gradient
reads it). ``x * t`` with only ``x`` requiring grad keeps ``t`` and not ``x``,
so changing ``x`` in place afterwards does not break the backward; the node
keeps the shape/dtype stand-in instead, and ``grad_fn._saved_self`` is None.
"""

import sys as _sys

from ... import _core
from .. import _tensor_meta as meta
from .. import forward_ad as fwad
from ..grad_mode import _no_grad_guard
from ..grad_mode import grad_off_in_forward_ad as _fw_off
from ..graph import Node, SavedTensor, gradient_edge, set_history
from ._kernel_parts import META as _META
from ._kernel_parts import SAVE as _SAVE
from ._kernel_parts import SAVE_IF as _SAVE_IF
from ._kernel_parts import VALUE as _VALUE
from ._kernel_parts import (
    TensorMeta,
    _Args,
    clone_originals,
    collect_lists,
    push_tangents,
    record_view_of,
    tangents_of,
    tensor_meta,
)
from ._kernel_parts import rust_apply as _rust_apply

__all__ = ["Formula", "TensorMeta", "make_kernel", "BuiltinNode"]



class Formula:
    """Derivative data of one operator overload."""

    __slots__ = ("name", "diff", "save", "backward", "forward", "node_apply", "rust_apply", "outputs", "refuse",
                 "save_if", "complex", "saved_outputs")

    def __init__(self, name, diff, backward, save=(), forward=None, node_apply=None, rust_apply=None,
                 outputs=None, refuse=(), save_if=None, complex=True, saved_outputs=None):
        self.name = name
        self.diff = tuple(diff)
        self.save = tuple(save)
        # See Note [Conditional saves]: {saved name: the differentiable argument that needs it}.
        self.save_if = dict(save_if or {})
        for n, d in self.save_if.items():
            if n not in self.save or d not in self.diff:
                raise ValueError(f"{name}: save_if[{n!r}] = {d!r} needs {n!r} saved and {d!r} differentiable")
        self.backward = backward
        self.forward = forward
        # Note [Direct node apply]: a hot formula may also give ``node_apply(node, grads)``,
        # the node's ``apply`` itself: it reads ``node._saved`` directly instead of building
        # the by-name arguments, and must compute exactly what ``backward`` computes.
        self.node_apply = node_apply
        # The hottest formulas also name their Rust apply (``_core._NodeApply``, see Note
        # [Rust node apply] in src/python/autograd/formulas/mod.rs): a kind of ``_kernel_parts._RUST_APPLY``. It
        # computes what ``backward`` computes and falls back to the Python apply.
        self.rust_apply = rust_apply
        # derivatives.yaml's ``output_differentiability`` of an op with several outputs: one bool
        # per output (None: every floating output is differentiable). The others never require grad.
        self.outputs = outputs
        # Tensor arguments derivatives.yaml marks ``non_differentiable``: torch refuses a call where
        # one requires grad ("is not differentiable with respect to argument ...").
        self.refuse = tuple(refuse)
        # Whether a complex result is differentiable: the formula computes the conjugate Wirtinger
        # derivative torch's does (Note [Complex outputs] in src/python/autograd/kernel/output.rs; the
        # default, as in torch: the formulas conjugate where torch's do, checked against torch's
        # recorded answers in tests/aten/test_op_rules.py). A formula that does not says
        # ``complex=False``: its complex results never require grad and ``backward`` refuses them.
        self.complex = complex
        # Of an op with several outputs that saves ``"result"``: the positions of the outputs kept
        # (None: all). torch's ``native_layer_norm`` keeps ``result1``/``result2`` (the statistics),
        # not ``result0``, which the caller may then change in place.
        self.saved_outputs = None if saved_outputs is None else frozenset(saved_outputs)
        if self.saved_outputs is not None and "result" not in self.save:
            raise ValueError(f"{name}: saved_outputs needs 'result' saved")


def _has_saved(v):
    """Whether ``v`` (a saved value) is a list holding ``SavedTensor``s (None where an output is not kept)."""
    return isinstance(v, list) and any(isinstance(s, SavedTensor) for s in v)


class BuiltinNode(Node):
    """A node of a built-in op; subclasses set ``formula`` and ``_save_names``.

    ``_saved`` holds the call's arguments in ``_save_names`` order (``SavedTensor``,
    shared ``TensorMeta`` or plain values). ``_arity`` (edges per differentiable
    argument) and ``_needs_list`` are set only for ops with ``Tensor[]`` arguments;
    otherwise ``needs`` is one bool per edge (``_edge_needs``)."""

    __init__ = object.__init__  # the fields are set by the kernel that records the node
    _forward_cls = None  # read by in-place checks: found here, not through __getattr__
    formula = None
    _save_names = ()
    _unpack = ()  # positions in ``_saved`` that may hold SavedTensors (or lists of them)
    _save_if_names = frozenset()  # saved only when an input needs them (Note [Conditional saves])
    _save_values = ()  # names of the non-tensor arguments kept (``alpha``, ``dim``...)
    _arity = None
    _needs_list = None

    def __getattr__(self, name):
        """torch's ``grad_fn._saved_<arg>``: a saved argument (tensors are unpacked, so a
        freed graph raises torch's message); arguments kept only as shape/dtype are not saved.
        ``grad_fn._raw_saved_<arg>``: the ``SavedTensor`` itself (``register_hooks``)."""
        if name.startswith("_raw_saved_") and name[11:] in self._save_names:
            v = self._saved[self._save_names.index(name[11:])]
            if isinstance(v, SavedTensor) or _has_saved(v):
                return v
        if name.startswith("_saved_") and name[7:] in self._save_names:
            v = self._saved[self._save_names.index(name[7:])]
            if isinstance(v, SavedTensor):
                return v.unpack(self._released)
            if _has_saved(v):
                return [s.unpack(self._released) if isinstance(s, SavedTensor) else s for s in v]
            if not isinstance(v, TensorMeta) and not (isinstance(v, list) and v and isinstance(v[0], TensorMeta)):
                return v
            if name[7:] in self._save_if_names:
                return None  # not needed by this node's gradients, so not saved (torch's None)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        # torch lists the saved values (``_saved_self``) and saved tensors (``_raw_saved_self``).
        names = self._save_names
        kept = [names[k] for k in self._unpack] + list(self._save_values)
        return sorted({*super().__dir__(), *(f"_saved_{n}" for n in kept), *(f"_raw_saved_{n}" for n in
                                                                            (names[k] for k in self._unpack))})

    def apply(self, grads):
        saved = self._saved
        if self._unpack:
            saved = list(saved)
            released = self._released
            for i in self._unpack:
                v = saved[i]
                if isinstance(v, SavedTensor):
                    saved[i] = v.unpack(released)
                elif _has_saved(v):
                    saved[i] = [s.unpack(released) if isinstance(s, SavedTensor) else s for s in v]
        for g in grads:
            if g is not None:
                break
        else:
            return (None,) * len(self.next_functions)
        args = _Args(dict(zip(self._save_names, saved)))
        if self._arity is None:
            return self.formula.backward(grads, args, self._edge_needs)
        result = self.formula.backward(grads, args, self._needs_list)
        flat = []
        for r, n in zip(result, self._arity):
            if n is None:
                flat.append(r)
            else:
                flat.extend(r if r is not None else (None,) * n)
        return flat


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


_NO_EDGE = (None, 0)
# A Python number in a Tensor argument (``x * 2`` calls ``mul.Tensor``; Note [Numbers as tensors] in
# src/python/dispatch/binder/mod.rs) is saved as the value it is.
_NUMBERS = (bool, int, float, complex)
_TensorBase = _core.TensorBase
_record_node = _core._record_node
_grad_accumulator = _core._grad_accumulator
_AG_MASK = meta.AUTOGRAD_MASK
_fw_state = fwad._state


def _is_tensor_type(t):
    return "Tensor" in str(t)


class _KernelSpec:
    """Everything about one (op, formula) pair that does not change between calls."""

    def __init__(self, op, formula, rust_apply=True):
        schema = op._schema
        self.names, self.bind = _binder(schema)
        names = self.names
        self.diff_pos = tuple(names.index(n) for n in formula.diff)
        self.list_diff = any(str(schema.arguments[p].type).startswith("List")
                             for p in self.diff_pos)
        self.mutated = tuple(i for i, a in enumerate(schema.arguments)
                             if a.alias_info is not None and a.alias_info.is_write)
        save_if = {} if self.list_diff else formula.save_if  # edges are per list element there

        def kind_of(n, a):
            if n in save_if and n != "result":
                return _SAVE_IF + formula.diff.index(save_if[n])
            return _SAVE if n in formula.save else (_META if _is_tensor_type(a.type) else _VALUE)
        self.saves = tuple((i, n, kind_of(n, a)) for i, (n, a) in enumerate(zip(names, schema.arguments)))
        self.save_result = "result" in formula.save
        returns = schema.returns
        # An in-place op's formula reads the input as it was (torch's ``original_self``): the
        # mutated arguments it returns are copied before the call. Other mutated arguments
        # (``rrelu_with_noise``'s noise) are saved as the op leaves them.
        returned = set()
        for r in returns:
            if r.alias_info is not None:
                returned |= set(r.alias_info.before_set)
        self.clone_before = tuple(
            i for i, n, kind in self.saves if (kind == _SAVE or kind >= _SAVE_IF) and i in self.mutated
            and returned & set(schema.arguments[i].alias_info.before_set))
        self.is_view = (len(returns) == 1 and returns[0].alias_info is not None
                        and not returns[0].alias_info.is_write)
        self.op = op
        save_names = tuple(n for _, n, _ in self.saves) + (("result",) if self.save_result else ())
        unpack = tuple(k for k, (_, _, kind) in enumerate(self.saves) if kind == _SAVE or kind >= _SAVE_IF)
        if self.save_result:
            unpack += (len(self.saves),)
        body = {"formula": formula, "_save_names": save_names, "_unpack": unpack, "__module__": __name__,
                "_save_if_names": frozenset(n for _, n, kind in self.saves if kind >= _SAVE_IF),
                "_save_values": tuple(n for _, n, kind in self.saves if kind == _VALUE)}
        if formula.node_apply is not None:  # See Note [Direct node apply]
            body["apply"] = formula.node_apply
        if formula.rust_apply is not None and rust_apply:
            body["apply"] = _rust_apply(formula, save_names, body.get("apply", BuiltinNode.apply),
                                        SavedTensor)
        self.node_cls = type(formula.name, (BuiltinNode,), body)
        self.formula = formula
        self.op_name = op.name()


def make_kernel(op, formula, *, rust=True, general=False):
    """The Autograd kernel of ``op`` (``with_keyset=True`` convention) from its formula.

    The kernel is only reached while grad mode is on (no_grad excludes the
    autograd keys) or a forward-AD level includes them. An op with no ``Tensor[]``
    differentiable argument (a view op too, and an in-place op on ``self`` with nothing
    to copy first) gets the Rust kernel (See Note [Autograd kernel in Rust] in
    src/python/autograd/kernel/mod.rs); ``rust=False`` gives the Python one instead. ``general=True``
    gives the general kernel, with the formula's Python apply on its node (what ``OPYARD_FASTPATH=0``
    registers: See Note [Fast paths and general paths] in src/python/hooks.rs).
    """
    spec = _KernelSpec(op, formula, rust_apply=not general)
    if formula.refuse:
        return _refusing(spec, make_kernel(op, _without_refuse(formula), rust=rust, general=general))
    bind = spec.bind
    diff_pos = spec.diff_pos
    mutated = spec.mutated
    call = op

    def kernel(keyset, *args, **kwargs):
        values = bind(args, kwargs)
        if spec.list_diff:
            needs, edges, arity = collect_lists(values, diff_pos)
        else:
            needs = []
            edges = []
            arity = None
            for p in diff_pos:
                v = values[p]
                if isinstance(v, _TensorBase) and v._keyset & _AG_MASK:
                    edges.append(gradient_edge(v))
                    needs.append(True)
                else:
                    edges.append(_NO_EDGE)
                    needs.append(False)
        any_grad = True in needs
        if _fw_off():
            any_grad = False  # See Note [Grad mode under forward AD]: tangents only
        else:
            for p in mutated:
                meta.check_inplace(values[p])
        tangents = tangents_of(spec, values) if _fw_state.level is not None else None
        originals = clone_originals(spec, values, None if tangents else edges) \
            if spec.clone_before and (any_grad or tangents) else None
        # Below autograd: with the autograd keys excluded, a plain call reaches the next
        # kernel (measured ~1.5 us cheaper than op.redispatch(keyset & after_autograd)).
        with _no_grad_guard():
            out = call(*args, **kwargs)
        if any_grad:
            _record(spec, out, values, needs, edges, arity, originals)
            if spec.is_view:
                record_view_of(spec, out, args, kwargs)
        if tangents is not None:
            push_tangents(spec, out, values, tangents, originals)
        return out

    kernel.__name__ = f"autograd_{spec.op_name.replace('::', '_').replace('.', '_')}"
    kernel.__qualname__ = kernel.__name__
    if general:
        return kernel
    if spec.list_diff or (mutated and not (rust and _simple_inplace(spec))):
        return kernel
    if rust:
        return _rust_plain_kernel(spec, kernel)
    plain = _plain_kernel(spec, kernel)
    plain.__name__ = plain.__qualname__ = kernel.__name__
    return plain


def _without_refuse(formula):
    return Formula(formula.name, formula.diff, formula.backward, formula.save, formula.forward, formula.node_apply,
                   formula.rust_apply, formula.outputs, complex=formula.complex)


def _refusing(spec, kernel):
    """``kernel`` behind torch's check of the arguments that are not differentiable."""
    checks = tuple((spec.names.index(n), n) for n in spec.formula.refuse)
    base = spec.op_name.split("::")[1].split(".")[0]

    def refusing(keyset, *args, **kwargs):
        values = spec.bind(args, kwargs)
        for i, name in checks:
            v = values[i]
            if isinstance(v, _TensorBase) and v._keyset & _AG_MASK:
                raise RuntimeError(f"The function '{base}' is not differentiable with respect to argument '{name}'. "
                                   "This input cannot have requires_grad True.")
        return kernel(keyset, *args, **kwargs)
    refusing.__name__ = refusing.__qualname__ = getattr(kernel, "__name__", "refusing")
    return refusing


def _simple_inplace(spec):
    """An op that modifies ``self`` in place and returns it, with nothing to copy before the change:
    the Rust kernel records it (See Note [In-place ops in the Rust kernel] in src/python/autograd/kernel/mod.rs)."""
    returns = spec.op._schema.returns
    return (spec.mutated == (0,) and not spec.clone_before and len(returns) == 1
            and returns[0].alias_info is not None and returns[0].alias_info.is_write)


def _rust_plain_kernel(spec, general):
    """``_plain_kernel``'s work in one Rust object (``_core._PlainAutogradKernel``)."""
    arguments = spec.op._schema.arguments
    if any(kind != _VALUE and ("[" in str(arguments[i].type) or "List" in str(arguments[i].type))
           for i, _, kind in spec.saves):
        # A Tensor[] argument to save: _record's lists.
        return general if spec.mutated else _plain_kernel(spec, general)
    # Save kinds for the core: 0 tensor, 1 meta, 2 value, 3 + k tensor when edge k is live.

    def record(out, values, edges):
        return _record(spec, out, values, None, edges, None, None)

    return _core._PlainAutogradKernel(
        spec.op, general, record, spec.node_cls, list(spec.diff_pos),
        [kind for _, _, kind in spec.saves], [a.default_value for a in arguments],
        [_sys.intern(n) for n in spec.names], spec.formula.name if spec.save_result else None,
        tensor_meta, SavedTensor, general.__name__, view=spec.is_view,
        inplace=bool(spec.mutated), complex=spec.formula.complex)


def _plain_kernel(spec, general):
    """The kernel of an op with no ``Tensor[]`` differentiable argument and no mutation, outside
    forward AD (which takes ``general``): nothing to check in place, no tangents, no copy to keep,
    and the edges of the tensors that require grad built inline (``gradient_edge`` without its
    requires-grad test, already made on the key set); a view op records its replay."""
    bind = spec.bind
    diff_pos = spec.diff_pos
    call = spec.op
    # The defaults of the trailing arguments a positional-only call leaves out, by count passed.
    defaults = [a.default_value for a in spec.op._schema.arguments]
    tails = tuple(tuple(defaults[k:]) for k in range(len(defaults) + 1))
    n_args = len(defaults)
    # Saved values without lists (a Tensor[] argument to keep) are made here, not in _record.
    arguments = spec.op._schema.arguments
    inline = not any(kind != _VALUE and ("[" in str(arguments[i].type) or "List" in str(arguments[i].type))
                     for i, _, kind in spec.saves)
    saves = tuple((i, kind) for i, _, kind in spec.saves)
    node_cls = spec.node_cls
    result_name = spec.formula.name if spec.save_result else None
    is_view = spec.is_view
    complex_ok = spec.formula.complex

    def kernel(keyset, *args, **kwargs):
        if _fw_state.level is not None:
            return general(keyset, *args, **kwargs)
        values = bind(args, kwargs) if kwargs or len(args) > n_args else args + tails[len(args)]
        edges = []
        any_grad = False
        for p in diff_pos:
            v = values[p]
            if isinstance(v, _TensorBase) and v._keyset & _AG_MASK:
                fn = v.grad_fn  # a stale view's history regenerated (Note [View history])
                edges.append((fn, v._output_nr) if fn is not None else (_grad_accumulator(v), 0))
                any_grad = True
            else:
                edges.append(_NO_EDGE)
        # See the general kernel: below autograd by excluding its keys.
        with _no_grad_guard():
            out = call(*args, **kwargs)
        if any_grad:
            if inline and isinstance(out, _TensorBase):
                _record_node(node_cls, edges, out, _saved_values(saves, values, out, result_name, edges), complex_ok)
            else:
                _record(spec, out, values, None, edges, None, None)
            if is_view:
                record_view_of(spec, out, args, kwargs)
        return out
    return kernel


def _saved_values(saves, values, out, result_name, edges):
    """``_record``'s saved values for one tensor output and no list arguments to save."""
    saved = []
    for i, kind in saves:
        v = values[i]
        if kind == _VALUE or v is None or type(v) in _NUMBERS:
            saved.append(v)
        elif kind == _META or (kind >= _SAVE_IF and edges[kind - _SAVE_IF][0] is None):
            saved.append(tensor_meta(v))
        else:
            saved.append(SavedTensor(v))
    if result_name is not None:
        saved.append(SavedTensor(out, True, result_name, 0))
    return saved


def _record(spec, out, values, needs, edges, arity, originals):
    saved = []
    for i, n, kind in spec.saves:
        v = values[i] if originals is None else originals.get(i, values[i])
        if kind >= _SAVE_IF:  # See Note [Conditional saves]
            kind = _SAVE if edges[kind - _SAVE_IF][0] is not None else _META
        if kind == _VALUE or v is None or type(v) in _NUMBERS:
            saved.append(v)
        elif kind == _META:
            saved.append(tensor_meta(v) if not isinstance(v, (list, tuple)) else [tensor_meta(t) for t in v])
        else:
            saved.append(SavedTensor(v) if not isinstance(v, (list, tuple)) else [SavedTensor(t) for t in v])
    if arity is None and not spec.mutated and isinstance(out, _TensorBase) and _core.FAST_PATHS:
        # The common case in one Rust call: node, edges, saved values, output 0's history.
        if spec.save_result:
            saved.append(SavedTensor(out, True, spec.formula.name, 0))
        return _record_node(spec.node_cls, edges, out, saved, spec.formula.complex)
    node = spec.node_cls()
    node.next_functions = edges
    if arity is not None:
        node._arity = arity
        node._needs_list = needs
    if isinstance(out, _TensorBase):
        node._out_shapes = (out.shape,)
        node._out_dtype = out.dtype  # See Note [Gradient dtypes] in src/python/autograd.rs
        if out.dtype.is_floating_point or (spec.formula.complex and out.dtype.is_complex):
            if spec.mutated and _is_mutated(out, values, spec.mutated):
                meta.rebase_history(out, node, 0)
            else:
                set_history(out, node, 0)
        if spec.save_result:
            saved.append(SavedTensor(out, True, spec.formula.name, 0))
    else:
        _record_tuple(spec, node, out, values, saved)
    node._saved = saved
    return node


def _record_tuple(spec, node, out, values, saved):
    node._out_shapes = tuple(meta.shape(o) if meta.is_tensor(o) else () for o in out)
    node._out_dtypes = tuple(o.dtype if meta.is_tensor(o) else None for o in out)
    differentiable = spec.formula.outputs
    for i, o in enumerate(out):
        if differentiable is not None and not differentiable[i]:
            continue
        if meta.is_tensor(o) and meta.is_differentiable_dtype(o):
            if _is_mutated(o, values, spec.mutated):
                meta.rebase_history(o, node, i)
            else:
                set_history(o, node, i)
    if spec.save_result:
        keep = spec.formula.saved_outputs
        saved.append([(SavedTensor(o, True, spec.formula.name, i) if meta.is_tensor(o) else o)
                      if keep is None or i in keep else None for i, o in enumerate(out)])


def _is_mutated(o, values, mutated):
    for p in mutated:
        if values[p] is o:
            return True
    return False
