"""``functionalize(func, *, remove="mutations" | "mutations_and_views")``: ``func`` with its mutations
(and, with the second mode, its views) replaced by out-of-place operators (torch.func's).

Note [Functional tensors]: each call wraps the tensor inputs as ``FunctionalTensor``s tagged with a
fresh level number. A wrapper carries the ``Functionalize`` key over its current *inner* value, and
the ``Functionalize`` kernel (a fallback for every operator) works on the inner values:

- an operator that mutates an argument (``add_``, ``copy_``, ``index_put_``, an ``out=`` form) runs
  its out-of-place form (``add``, ``copy``, ``index_put``, the functional overload) and the result
  becomes the argument's new inner value;
- the aliases of one input share a *storage* record (its base value and a generation count); a view
  remembers the view operators that made it from the base (its chain). Writing into a view writes
  the base through the inverse of each view (``slice_scatter``, ``select_scatter``, ``view``...), and
  an alias whose generation is behind is rebuilt from the base before it is read;
- a view operator keeps its view (``remove="mutations"``), or runs its ``<name>_copy`` form
  (``remove="mutations_and_views"``: nothing in the program aliases);
- any other operator runs on the inner values, and its tensor results are wrapped.

While the call runs ``Functionalize`` is in the thread's key set, so tensors made inside it (factory
functions) are wrapped too. At the end the outputs are unwrapped and each input that was written is
updated once with ``copy_`` (what ``make_fx(functionalize(f))`` records after the out-of-place
program). ``make_fx`` records what the kernel calls on the inner tensors, not the calls on wrappers.

Transforms: a wrapper takes only the keys of its inner value below ``Functionalize`` (backend, Fake,
Python). Under ``vmap`` the functional tensor wraps the physical one and the batched layers stay
outside it, so batching rules run first and the kernel sees physical tensors. An input that autograd
or forward AD differentiates enters through ``_ToFunctional`` (and results leave through
``_FromFunctional``): autograd, being above ``Functionalize``, then records on the functional tensors
(their views and version counters are the program's), the gradient flowing back to the input
through those Functions, and a write does not spoil what an earlier node saved (Note [Saved
functional tensors]). A backward pass that runs after the call unpacks what was saved as plain
tensors with the same history and tangents, so it computes with plain tensors, and a tensor from
outside the call (a captured parameter) gets a plain gradient; one that runs inside the call
(``functionalize(grad(f))``) computes with functional tensors.
"""

import functools
import threading

from .. import _core
from .._function_protocol import _disabled_torch_function_impl, register_plain_tensor_type
from .._ops import ops
from .._registration import KernelLibrary
from .._tensor import CPU, Tensor
from ..autograd import transform_levels as _levels
from ..autograd import _tensor_meta as _meta
from ..autograd import forward_ad as _fwad
from ..autograd.function import Function
from ..autograd.graph import _current_hooks, modified_message, saved_tensors_hooks, set_history
from ..dispatcher import DispatchKey, DispatchKeySet
from ..utils._pytree import tree_flatten, tree_unflatten
from .batched import BatchedTensor
from .batched import wrap as _wrap_batched

__all__ = ["FunctionalTensor", "functionalize"]

_FUNC = DispatchKeySet(DispatchKey.Functionalize)
FUNCTIONAL_BIT = _FUNC.raw()
# A wrapper keeps the keys of its inner value below ``Functionalize`` (backend, Fake, Python): the
# keys above it (autograd, Batched) act on the inner values, when the kernel calls the operator on them.
_BELOW = FUNCTIONAL_BIT - 1
_new = _core.TensorBase.__new__
_detach = ops.aten.detach.default
_make_tensor = _core._make_tensor
_CPU_KEYS = DispatchKeySet(DispatchKey.CPU)
_CPU_BITS = _CPU_KEYS.raw()
_A = ops.aten

_REMOVE_ERROR = (
    "functionalize(f, remove='mutations'): received invalid argument for remove={}. Valid options are:\n"
    "     remove='mutations': all inplace and out= operators will be removed from the program, and replaced "
    "with their out-of-place equivalents.\n"
    "     remove='mutations_and_views': In addition to the above, all aliasing operators {{view}} will be "
    "replaced with their non-aliasing counterparts, {{view}}_copy.\n")
_NON_FUNCTIONAL = ("mutating a non-functional tensor with a functional tensor is not allowed. Please ensure that "
                   "all of your inputs are wrapped inside of a functionalize() call.")


class _Storage:
    """What the aliases of one functional tensor share: the base's current value, a count of the
    writes into it, and whether views are copies (``remove="mutations_and_views"``)."""

    __slots__ = ("copies", "gen", "saves", "value")

    def __init__(self, value, copies):
        self.value = value
        self.gen = 0
        self.copies = copies
        self.saves = None  # what autograd saved of its tensors, until a write (Note [Saved functional tensors])


class FunctionalTensor(Tensor):
    """A tensor inside ``functionalize``: ``_inner`` is its current value (Note [Functional tensors])."""

    __slots__ = ("_chain", "_flevel", "_gen", "_inner", "_reshaped", "_storage")
    __torch_function__ = _disabled_torch_function_impl

    def __repr__(self):
        _sync(self)
        return f"FunctionalTensor(lvl={self._flevel}, value=\n    {self._inner!r}\n)"

    def _physical(self):
        # (for ``Tensor``'s in-place view methods: the history of a functional tensor is its own)
        return self

    def _adopt_view(self, out):
        """``squeeze_``/``unsqueeze_``/``transpose_``/``t_``: this tensor becomes ``out``, the view of
        itself the out-of-place op made (same storage, one more view in its chain); an input's own shape
        follows at the end of the call."""
        self._inner = out._inner
        self._storage = out._storage
        self._chain = out._chain
        self._gen = out._gen
        self._data = out._data
        self._keyset = out._keyset
        if self._base is not None:
            self._view_fn = out._view_fn
        if _meta.requires_grad(out):
            self._grad_fn = out._grad_fn
            self._output_nr = out._output_nr
        if self._reshaped is None:
            self._reshaped = []
        self._reshaped.append(out._chain[-1])

    def _current(self):
        _sync(self)
        return self._inner

    def numpy(self, force=False):
        return self._current().numpy(force)

    def tolist(self):
        return self._current().tolist()

    def item(self):
        return self._current().item()

    def __array__(self, dtype=None, copy=None):
        return self._current().__array__(dtype)

    def __bool__(self):
        return bool(self._current())

    def __float__(self):
        return float(self._current())

    def __int__(self):
        return int(self._current())

    def __index__(self):
        return self._current().__index__()

    def __complex__(self):
        return complex(self._current())

    def __format__(self, spec):
        return self._current().__format__(spec)


register_plain_tensor_type(FunctionalTensor)


def _wrap(inner, level, storage, chain=()):
    t = _new(FunctionalTensor)
    t._inner = inner
    t._flevel = level
    t._storage = storage
    t._chain = chain
    t._gen = storage.gen
    t._reshaped = None  # the in-place view operators applied to it (``unsqueeze_``, ``t_``...)
    t._data = inner._data
    t._keyset = (inner._keyset & _BELOW) | FUNCTIONAL_BIT
    if inner._dev is not CPU:
        t._dev = inner._dev
    return t


def _wrap_new(x, level, copies):
    """A tensor result of the program: a functional tensor with its own storage."""
    if isinstance(x, Tensor):
        return _wrap(x, level, _Storage(x, copies))
    if isinstance(x, (list, tuple)) and any(isinstance(e, Tensor) for e in x):
        return type(x)(_wrap_new(e, level, copies) for e in x)
    return x


def _set_inner(t, value):
    # ``_data`` stays: it is the tensor's geometry in its base (the values are the inner tensor's).
    t._inner = value
    t._keyset = (value._keyset & _BELOW) | FUNCTIONAL_BIT


def _sync(t):
    """Rebuild ``t`` from its base when the base was written since ``t`` was last read."""
    st = t._storage
    if t._gen != st.gen:
        _set_inner(t, _replay(t._chain, st.value))
        t._gen = st.gen


def _replay(chain, value):
    for op, rest, kwargs, index in chain:
        value = op(value, *rest, **kwargs)
        if index is not None:
            value = value[index]
    return value


# --- writing through views --------------------------------------------------------------------------------
def _arg(rest, kwargs, i, name, default):
    if i < len(rest):
        return rest[i]
    return kwargs.get(name, default)


def _split_start(sizes, index):
    return sum(sizes[:index])


def _inverse(name, base, new, rest, kwargs, index, copies):
    """``base`` with the view ``name(base, *rest)`` (element ``index`` of a multi-output view) replaced by
    ``new``: torch's view inverses."""
    view = _A.view_copy.default if copies else _A.view.default
    if name == "slice":
        return _A.slice_scatter.default(base, new, *rest, **kwargs)
    if name == "select":
        return _A.select_scatter.default(base, new, *rest, **kwargs)
    if name == "diagonal":
        return _A.diagonal_scatter.default(base, new, *rest, **kwargs)
    if name == "as_strided":
        return _A.as_strided_scatter.default(base, new, *rest, **kwargs)
    if name in ("view", "_unsafe_view", "reshape", "_reshape_alias", "squeeze", "flatten", "unflatten",
                "view_as"):
        if name == "view" and rest and not isinstance(rest[0], (list, tuple)) and not isinstance(rest[0], int):
            raise _no_inverse(name)  # view(dtype): a reinterpretation, not a reshape
        if not copies and not new.is_contiguous():
            # written through a transpose: back to the base's shape by a copy where a view cannot
            return _A.reshape.default(new, list(base.shape))
        return view(new, list(base.shape))
    if name == "unsqueeze":
        return (_A.squeeze_copy.dim if copies else _A.squeeze.dim)(new, _arg(rest, kwargs, 0, "dim", 0))
    if name in ("t", "transpose", "permute", "movedim"):
        if name == "t":
            return (_A.t_copy.default if copies else _A.t.default)(new)
        if name == "transpose":
            return (_A.transpose_copy.int if copies else _A.transpose.int)(new, *rest)
        dims = [d % base.dim() for d in _arg(rest, kwargs, 0, "dims", ())]
        inverse = sorted(range(len(dims)), key=dims.__getitem__)
        return (_A.permute_copy.default if copies else _A.permute.default)(new, inverse)
    if name in ("alias", "detach", "lift_fresh"):
        return new
    if name == "unbind":
        return _A.select_scatter.default(base, new, _arg(rest, kwargs, 0, "dim", 0), index)
    if name in ("split", "split_with_sizes", "chunk", "tensor_split"):
        dim = _arg(rest, kwargs, 1, "dim", 0)
        pieces = getattr(_A, name)(base, *rest, **kwargs) if not copies else \
            getattr(_A, name + "_copy")(base, *rest, **kwargs)
        start = _split_start([p.shape[dim] for p in pieces], index)
        return _A.slice_scatter.default(base, new, dim, start, start + new.shape[dim])
    raise _no_inverse(name)


def _no_inverse(name):
    return RuntimeError(f"functionalize: a write into a view made by aten::{name} cannot be written back into its "
                        "base (no inverse of that view is known); write into the base, or into a view made by "
                        "slicing, indexing, view/reshape, transpose/permute, diagonal or as_strided")


def _write(t, value):
    """``t`` now holds ``value``: its base is rewritten through the inverse of ``t``'s views."""
    st = t._storage
    if st.saves:
        _freeze_saves(st)
    chain = t._chain
    if chain:
        bases = [st.value]
        for op, rest, kwargs, index in chain[:-1]:
            bases.append(_replay(((op, rest, kwargs, index),), bases[-1]))
        new = value
        for (op, rest, kwargs, index), base in zip(reversed(chain), reversed(bases)):
            new = _inverse(_view_name(op), base, new, rest, kwargs, index, st.copies)
        st.value = new
    else:
        st.value = value
    st.gen += 1
    # A view is rebuilt from its new base (torch's regeneration): its value then has the view's layout.
    _set_inner(t, _replay(chain, st.value) if chain else value)
    t._gen = st.gen
    t._bump_version()


def _view_name(op):
    name = op._schema.name[len("aten::"):] if op._schema.name.startswith("aten::") else op._schema.name
    return name[:-len("_copy")] if name.endswith("_copy") else name


# --- what each operator is, found once per operator -------------------------------------------------------
_INFO = {}
_lock = threading.Lock()


class _OpInfo:
    """How the kernel treats one operator: ``mutated`` (names of the arguments it writes), ``functional``
    (its out-of-place form), ``outs`` (names of ``out=`` arguments, in order), ``view`` (aliasing
    result), ``view_copy`` (the ``<name>_copy`` form of a view operator)."""

    def __init__(self, schema):
        args = schema.arguments
        self.names = [a.name for a in args]
        self.mutated = [a.name for a in args if a.alias_info is not None and a.alias_info.is_write]
        self.outs = [a.name for a in args if a.kwarg_only and a.alias_info is not None and a.alias_info.is_write]
        self.functional = None
        self.view_copy = None
        returns = schema.returns
        self.view = (not self.mutated and bool(returns) and returns[0].alias_info is not None
                     and bool(args) and args[0].alias_info is not None)


def _info(op):
    info = _INFO.get(op)
    if info is not None:
        return info
    schema = op._schema
    info = _OpInfo(schema)
    ns, _, name = schema.name.partition("::")
    if info.mutated:
        info.functional = _functional_form(ns, name, schema, info)
    elif info.view:
        copy_packet = getattr(getattr(ops, ns), name + "_copy", None) if ns == "aten" else None
        overload = schema.overload_name or "default"
        info.view_copy = getattr(copy_packet, overload, None) if copy_packet is not None else None
    with _lock:
        _INFO[op] = info
    return info


def _packet(ns, name):
    try:
        return getattr(getattr(ops, ns), name)
    except (AttributeError, RuntimeError):
        return None


def _functional_form(ns, name, schema, info):
    """The out-of-place operator of a mutating one, or None: ``name_.o`` -> ``name.o``; ``name.out`` ->
    the overload of ``name`` taking the other arguments; ``zero_`` -> ``fill.Scalar`` (with 0)."""
    if name == "zero_":
        return _A.fill.Scalar
    if not info.outs and name.endswith("_") and info.mutated == [schema.arguments[0].name]:
        packet = _packet(ns, name[:-1])
        return getattr(packet, schema.overload_name or "default", None) if packet is not None else None
    if info.outs and info.mutated == info.outs:
        packet = _packet(ns, name)
        if packet is None:
            return None
        want = [(a.name, str(a.type)) for a in schema.arguments if a.name not in info.outs]
        for overload in packet.overloads():
            candidate = getattr(packet, overload)
            args = candidate._schema.arguments
            if [(a.name, str(a.type)) for a in args] == want and not candidate._schema.is_mutable:
                return candidate
    return None


# --- into and out of the program, differentiably -----------------------------------------------------
class _ToFunctional(Function):
    """An input that autograd or forward AD differentiates becomes a functional tensor through this
    Function, so that the autograd kernels inside the call record on functional tensors (what they
    meet first, being above ``Functionalize``) and the gradient reaches the input through it."""

    @staticmethod
    def forward(x, level, copies):
        return _wrap(x, level, _Storage(x, copies))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.level, ctx.copies = inputs[1], inputs[2]

    @staticmethod
    def backward(ctx, grad):
        # Through ``_FromFunctional`` when the gradient is differentiated itself (``create_graph``).
        return (None if grad is None else _leave(grad, ctx.level)), None, None

    @staticmethod
    def jvp(ctx, tangent, _level, _copies):
        # Functional as the primal, so the tangent formulas of in-place operators may write into it;
        # differentiably, as the tangent may be differentiated itself (``grad`` of a ``jvp``).
        return _enter(tangent, ctx.level, ctx.copies)

    @staticmethod
    def vmap(info, in_dims, x, level, copies):
        # A batched ``x`` (in_dims[0] == 0) gives a functional physical tensor, which vmap wraps: batched
        # layers stay outside the functional one, as ``_enter`` makes them.
        return _ToFunctional.apply(x, level, copies), in_dims[0]


class _FromFunctional(Function):
    """A result (or the final value of an input) leaving the program: its current inner value, with
    the gradient going back to the functional tensor."""

    @staticmethod
    def forward(t):
        _sync(t)
        return t._inner.view_as(t._inner)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.level, ctx.copies = inputs[0]._flevel, inputs[0]._storage.copies

    @staticmethod
    def backward(ctx, grad):
        # The backward of the program's operators runs on functional tensors (their saved values are),
        # so writes into gradient buffers are functional too.
        if grad is None or _functional_under(grad) is not None or not _running(ctx.level):
            return grad  # (after the call, writes into plain gradient buffers are plain: ``_mutate``)
        return _enter(grad, ctx.level, ctx.copies)

    @staticmethod
    def jvp(ctx, tangent):
        return _leave(tangent, ctx.level) if _functional_under(tangent) is not None else tangent

    @staticmethod
    def vmap(info, in_dims, t):
        return _FromFunctional.apply(t), in_dims[0]


def _differentiated(t):
    while t.__class__ is BatchedTensor:  # tangents and graphs live on the physical tensors
        t = t._value
    return t.requires_grad or bool(getattr(t, "_fw_grad", None))


def _enter(a, level, copies):
    """An input as the program sees it. Under ``vmap`` the functional tensor wraps the physical one and
    the batched layers are rebuilt over it, so autograd records on physical tensors as everywhere."""
    if not isinstance(a, Tensor):
        return a
    if a.__class__ is BatchedTensor:
        return _wrap_batched(_enter(a._value, level, copies), a._level)
    if _differentiated(a):
        return _ToFunctional.apply(a, level, copies)
    return _wrap(a, level, _Storage(a, copies))


def _functional_under(t):
    """The functional tensor ``t`` is, or that its batched layers wrap (None if there is none)."""
    while t.__class__ is BatchedTensor:
        t = t._value
    return t if t.__class__ is FunctionalTensor else None


def _leave(t, level):
    if t.__class__ is BatchedTensor:
        inner = _leave(t._value, level)
        return t if inner is t._value else _wrap_batched(inner, t._level)
    if t.__class__ is not FunctionalTensor or t._flevel != level:
        return t
    if _differentiated(t):
        return _FromFunctional.apply(t)
    _sync(t)
    return t._inner


# --- what autograd saves inside the program ----------------------------------------------------------------
# Note [Saved functional tensors]: autograd records on functional tensors (it is above ``Functionalize``),
# so an in-place operator of the program would, as in eager mode, change a tensor an earlier node saved
# and fail its version check. In the program a write makes a new value and leaves the old one as it was,
# so the pack hook of the call keeps the value a functional tensor had when saved: unpacking gives the
# tensor itself while nothing wrote into it, else a functional tensor of the value, history and tangents it
# had before the first write (``_freeze_saves``) (torch's
# functionalize under its grad transform differentiates the out-of-place program the same way). Other
# tensors keep eager's version check, or go to the hooks that were active around the call.
class _SavedHooks(saved_tensors_hooks):
    def __init__(self):
        self.outer = _current_hooks()
        super().__init__(self._pack, self._unpack)

    def _pack(self, t):
        f = _functional_under(t)
        if f is not None:
            record = [0, t, f, None]  # the state is frozen by the first write into its storage
            st = f._storage
            if st.saves is None:
                st.saves = [record]
            else:
                st.saves.append(record)
            return record
        if self.outer is not None:
            return (1, self.outer[1], self.outer[0](t))
        return (2, t, _meta.version(t))

    @staticmethod
    def _unpack(packed):
        kind = packed[0]
        if kind == 1:
            return packed[1](packed[2])
        t = packed[1]
        if kind == 2:
            if _meta.version(t) != packed[2]:
                raise RuntimeError(modified_message(t, packed[2], None))
            return t
        _, t, f, frozen = packed
        if frozen is None:
            inner, fn, output_nr, tangents = None, f._grad_fn, f._output_nr, f._fw_grad
            if tangents:
                tangents = [(lv, tw, None) for lv, tw in tangents.items()]
        else:
            inner, fn, output_nr, tangents = frozen
        if not _running(f._flevel):
            # A backward pass after the call: the plain value with the same history and tangents, so that
            # the pass computes with plain tensors (the gradients of tensors from outside are plain).
            if inner is None:
                _sync(f)
                inner = f._inner
            if fn is None and not tangents:
                return _wrap_under_as(t, f, inner)
            plain = _detach(inner)
            if fn is not None:
                set_history(plain, fn, output_nr)
            for lv, tw, value in tangents or ():
                if lv in _fwad._state.tensors:
                    _fwad.set_tangent(plain, _plain_tangent(tw, value, f._flevel), lv)
            return _wrap_under_as(t, f, plain)
        if frozen is None:
            return t
        saved = _wrap(inner, f._flevel, _Storage(inner, f._storage.copies))
        # The history and tangents it had when saved (a double backward, or forward AD over the backward,
        # differentiates through it).
        if fn is not None:
            set_history(saved, fn, output_nr)
        for lv, tw, value in tangents or ():
            if lv in _fwad._state.tensors:
                _fwad.set_tangent(saved, _snapshot(tw, value), lv)
        return _wrap_under_as(t, f, saved)


def _plain_tangent(tw, value, level):
    """A saved tangent as a plain tensor: through ``_FromFunctional`` while it is the value saved (its
    history kept), else the value saved."""
    f = _functional_under(tw)
    if f is None:
        return tw
    _sync(f)
    if value is None or f._inner is value:
        return _leave(tw, level)
    return _wrap_under_as(tw, f, value)


def _running(level):
    """Whether the functionalize call of ``level`` runs on this thread."""
    for lv, _ in _state.active:
        if lv == level:
            return True
    return False


def _freeze_saves(st):
    """A write is coming into ``st``: what autograd saved of its tensors keeps their state of now."""
    for record in st.saves:
        f = record[2]
        _sync(f)
        tangents = f._fw_grad
        if tangents:
            tangents = [(lv, tw, _current_value(tw)) for lv, tw in tangents.items()]
        record[3] = (f._inner, f._grad_fn, f._output_nr, tangents)
    st.saves = None


def _current_value(t):
    f = _functional_under(t)
    if f is None:
        return None
    _sync(f)
    return f._inner


def _snapshot(t, value):
    """``t`` as it was when its value was ``value`` (a functional tensor of that value if it changed)."""
    f = _functional_under(t)
    if f is None or f._inner is value:
        return t
    return _wrap_under_as(t, f, _wrap(value, f._flevel, _Storage(value, f._storage.copies)))


def _wrap_under_as(t, f, new):
    """``new`` in place of the functional tensor ``f`` under ``t``'s batched layers."""
    if t is f:
        return new
    return _wrap_batched(_wrap_under_as(t._value, f, new), t._level)


# --- the kernel --------------------------------------------------------------------------------------------
def _innermost(args, kwargs):
    level = None
    for a in args:
        if a.__class__ is FunctionalTensor:
            if level is None or a._flevel > level:
                level = a._flevel
        elif isinstance(a, (list, tuple)):
            for e in a:
                if e.__class__ is FunctionalTensor and (level is None or e._flevel > level):
                    level = e._flevel
    for a in kwargs.values():
        if a.__class__ is FunctionalTensor and (level is None or a._flevel > level):
            level = a._flevel
    return level


def _unwrap(x, level):
    if x.__class__ is FunctionalTensor and x._flevel == level:
        _sync(x)
        return x._inner
    if isinstance(x, (list, tuple)) and any(e.__class__ is FunctionalTensor for e in x):
        return type(x)(_unwrap(e, level) for e in x)
    return x


def _has_tensor(args, kwargs):
    for a in (*args, *kwargs.values()):
        if isinstance(a, Tensor) or isinstance(a, (list, tuple)) and any(isinstance(e, Tensor) for e in a):
            return True
    return False


def _functionalize_kernel(keyset, op, *args, **kwargs):
    level = _innermost(args, kwargs)
    if level is None:
        # No functional tensor: a factory function (its result is wrapped: the program's own tensor) or a
        # call on tensors from outside, which runs as it is.
        with _core._KeyGuard(exclude=_FUNC):
            out = op(*args, **kwargs)
        state = _state.active
        if state and not _has_tensor(args, kwargs):
            lv, copies = state[-1]
            return _wrap_new(out, lv, copies)
        return out
    info = _info(op)
    inner_args = [_unwrap(a, level) for a in args]
    inner_kwargs = {k: _unwrap(v, level) for k, v in kwargs.items()}
    copies = _copies(args, kwargs, level)
    if info.mutated:
        return _mutate(op, info, args, kwargs, inner_args, inner_kwargs, level)
    if info.view:
        fn = info.view_copy if copies and info.view_copy is not None else op
        out = fn(*inner_args, **inner_kwargs)
        base = args[0]
        if base.__class__ is not FunctionalTensor or base._flevel != level:
            return _wrap_new(out, level, copies)
        rest = tuple(inner_args[1:])
        data = _view_metadata(op, base, args[1:], kwargs)
        if isinstance(out, (list, tuple)):
            return type(out)(_as_view(_wrap(o, level, base._storage, base._chain + ((fn, rest, inner_kwargs, i),)),
                                      base, d) for i, (o, d) in enumerate(zip(out, data)))
        return _as_view(_wrap(out, level, base._storage, base._chain + ((fn, rest, inner_kwargs, None),)), base,
                        data)
    return _wrap_new(op(*inner_args, **inner_kwargs), level, copies)


def _as_view(t, base, data):
    """``t`` is a view of ``base`` for autograd and version counting, whatever its inner value is (a
    view, or a copy under ``remove="mutations_and_views"``), as torch's functional tensors keep the
    view relation of the program: its metadata array ``data`` views ``base``'s."""
    root = base._base if base._base is not None else base
    t._base = root
    t._vc = root._counter()
    t._data = data
    return t


def _view_metadata(op, base, rest, kwargs):
    """The arrays of ``op``'s views taken of ``base``'s metadata array (Note [Functional tensors]: a
    functional tensor's ``_data`` gives its geometry in its base, never its values)."""
    plain = _make_tensor(Tensor, base._data, _CPU_BITS, CPU)
    rest = tuple(_metadata_arg(a) for a in rest)
    out = op.redispatch(_CPU_KEYS, plain, *rest, **{k: _metadata_arg(v) for k, v in kwargs.items()})
    return [o._data for o in out] if isinstance(out, (list, tuple)) else out._data


def _metadata_arg(a):
    if a.__class__ is FunctionalTensor:
        return _make_tensor(Tensor, a._data, _CPU_BITS, CPU)
    return a


def _copies(args, kwargs, level):
    for a in (*args, *kwargs.values()):
        for e in (a if isinstance(a, (list, tuple)) else (a,)):
            if e.__class__ is FunctionalTensor and e._flevel == level:
                return e._storage.copies
    return False


def _mutate(op, info, args, kwargs, inner_args, inner_kwargs, level):
    targets = []
    for name in info.mutated:
        i = info.names.index(name)
        t = kwargs.get(name) if name in kwargs else (args[i] if i < len(args) else None)
        if t is None:
            continue
        if t.__class__ is not FunctionalTensor or t._flevel != level:
            if any(lv == level for lv, _ in _state.active):
                raise RuntimeError(_NON_FUNCTIONAL)
            # After the call (the backward of its operators writing gradient buffers): the write is
            # made into the plain tensor, with the current values of the functional ones.
            return op(*inner_args, **inner_kwargs)
        targets.append(t)
    fn = info.functional
    if fn is None:
        raise RuntimeError(f"functionalize: {op} writes into its argument(s) {', '.join(info.mutated)} and has no "
                           "out-of-place form to run instead; call the out-of-place operator in the function")
    if info.outs:
        call_kwargs = {k: v for k, v in inner_kwargs.items() if k not in info.outs}
        result = fn(*inner_args, **call_kwargs)
        values = result if isinstance(result, (list, tuple)) else (result,)
    elif op._schema.name == "aten::zero_":
        values = (fn(inner_args[0], 0),)
    else:
        values = (fn(*inner_args, **inner_kwargs),)
    for t, v in zip(targets, values):
        old = t._inner
        if v.dtype != old.dtype or v._dev is not old._dev:
            v = _A._to_copy.default(v, dtype=old.dtype, device=old._dev)
        _write(t, v)
    if info.outs:
        return targets[0] if len(targets) == 1 else tuple(targets)
    return targets[0]


_lib = KernelLibrary("_", "IMPL")
_lib.fallback(_functionalize_kernel, "Functionalize", with_keyset=True)


class _State(threading.local):
    def __init__(self):
        self.active = []  # (level, copies) of the functionalize calls running on this thread


_state = _State()


def functionalize(func, *, remove="mutations"):
    """``func`` run with its in-place and ``out=`` operators replaced by out-of-place ones (and, with
    ``remove="mutations_and_views"``, its views by copies); the inputs it writes are updated once at
    the end, so results and inputs equal those of ``func``. Example::

        >>> def f(x):
        ...     y = x.clone()
        ...     y.add_(1)
        ...     x.mul_(2)
        ...     return y
        >>> gm = make_fx(opyard.func.functionalize(f))(opyard.zeros(3))
        >>> [str(n.target) for n in gm.graph.nodes if n.op == "call_function"]
        ['aten.clone.default', 'aten.add.Scalar', 'aten.mul.Scalar', 'aten.copy_.default']
    """
    if remove == "mutations":
        copies = False
    elif remove == "mutations_and_views":
        copies = True
    else:
        raise RuntimeError(_REMOVE_ERROR.format(remove))

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        level = _levels.new_number()
        flat, spec = tree_flatten((args, kwargs))
        inputs = [_enter(a, level, copies) for a in flat]
        fargs, fkwargs = tree_unflatten(inputs, spec)
        active = _state.active
        active.append((level, copies))
        try:
            with _core._KeyGuard(include=_FUNC), _SavedHooks():
                out = func(*fargs, **fkwargs)
        finally:
            active.pop()
        flat_out, out_spec = tree_flatten(out)
        result = tree_unflatten([_leave(o, level) for o in flat_out], out_spec)
        for original, t in zip(flat, inputs):
            f = _functional_under(t) if isinstance(t, Tensor) else None
            if f is None or f._flevel != level:
                continue
            for view_op, rest, kw, _ in f._reshaped or ():
                # the input takes the shape the program gave it (``unsqueeze`` -> ``unsqueeze_``)
                getattr(original, _view_name(view_op) + "_")(*rest, **kw)
            if f._storage.gen:
                original.copy_(_leave(t, level))
        return result
    return wrapped


from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
