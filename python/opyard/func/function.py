"""``autograd.Function`` under ``opyard.func`` transforms, with torch's rules.

Note [Functions under transforms]: while a transform runs, ``Function.apply``
(its general path: the Rust ``apply`` sees the transform's keys in the thread's
set, see ``transform_active`` in ``src/python/function.rs``) comes here:

- the Function must define ``setup_context`` (``forward`` without ctx);
- under a ``grad``/``jvp`` level (the innermost level) it is applied as usual
  on the autograd tape, as torch's generated single-level Function, whose
  nodes are named ``<Name>GeneratedBackward``; its ``jvp`` staticmethod serves
  ``func.jvp`` (``forward_ad.function_jvp``);
- under a ``vmap`` level it needs a ``vmap`` staticmethod, called with the
  physical arguments and their batch dims, whose ``(outputs, out_dims)`` are
  checked and wrapped (an output that *is* an argument comes back as that
  argument, torch's identity rule), or ``generate_vmap_rule = True``: then a
  ``Vmapped<Name>`` Function is applied to the physical arguments one level
  down, whose ``forward``, ``setup_context``, ``backward`` and ``jvp`` run the
  original ones under a vmap of the same batch (``_vmapify``), saved tensors
  keeping their batch dims, gradients reduced to their inputs' batching.
  Arguments batched at no level leave the rule out and the Function is applied
  one level down. "One level down" pops the vmap level for the call (torch's
  ``interpreter.lower()``).
"""

import functools

from .._tensor import Tensor
from ..autograd import transform_levels as levels
from ..autograd.function import Function, apply_plain
from ..utils._pytree import broadcast_prefix, tree_flatten, tree_unflatten
from .batched import BatchedTensor, _state, layer_of, move_dim, pop_layer, push_layer, wrap
from .custom import VmapInfo
from .rules.common import level_of

__all__ = ["function_apply", "restore_vmap"]

_DOCS = "For more details, please see https://pytorch.org/docs/main/notes/extending.func.html"


class _Lowered:
    """The body runs one level down: ``level`` (the innermost) is off the stack meanwhile."""

    __slots__ = ("level",)

    def __init__(self, level):
        self.level = level

    def __enter__(self):
        ls = levels.levels()
        assert ls and ls[-1] is self.level
        ls.pop()

    def __exit__(self, *exc):
        levels.levels().append(self.level)
        return False


def _bind(cls, args, kwargs):
    if cls._signature is None:
        return tuple(args)
    bound = cls._signature.bind(*args, **kwargs)  # Python's own TypeError texts, as torch
    bound.apply_defaults()
    return bound.args


def function_apply(cls, args, kwargs):
    """``cls.apply(*args, **kwargs)`` while a transform runs (Note [Functions under transforms])."""
    if cls._setup_context_defined:
        args = _bind(cls, args, kwargs)
    else:
        raise RuntimeError("In order to use an autograd.Function with functorch transforms (vmap, grad, jvp, jacrev, "
                           f"...), it must override the setup_context staticmethod. {_DOCS}")
    top = levels.levels()[-1]
    if top.kind is levels.VMAP:
        return _apply_vmap(top, cls, args, kwargs)
    if kwargs:
        name = "grad" if top.kind is levels.GRAD else "jvp"
        raise TypeError(f"custom_function_call_{name}() got an unexpected keyword argument '{next(iter(kwargs))}'")
    # Autograd records on physical tensors: arguments batched by an outer vmap take that vmap's
    # rule first, so the node (of a Vmapped Function) holds physical tensors and a batched backward.
    batched = level_of(tree_flatten(args)[0])
    if batched:
        return _apply_vmap(layer_of(batched), cls, args, {})
    return apply_plain(cls, args, cls._generated_backward_cls)


def _has_vmap_rule(cls):
    return cls.vmap is not Function.vmap


def _unwrap(flat, level):
    phys, dims = [], []
    for x in flat:
        if x.__class__ is BatchedTensor and x._level == level:
            phys.append(x._value)
            dims.append(0)
        else:
            phys.append(x)
            dims.append(None)
    return phys, dims


def _apply_vmap(layer, cls, args, kwargs):
    if any(isinstance(v, Tensor) for v in tree_flatten(kwargs)[0]):
        raise NotImplementedError("Run vmap on autograd.Function with kwarg-only Tensor args. Please do not pass "
                                  f"kwarg-only Tensors to autograd.Function. Got: {kwargs}")
    name = cls.__name__
    if cls.generate_vmap_rule:
        if _has_vmap_rule(cls):
            raise RuntimeError(f"You tried to vmap over {name}, but it has both generate_vmap_rule=True and an "
                               "overridden vmap staticmethod. Please set generate_vmap_rule=False or delete the "
                               f"overridden vmap staticmethod to avoid ambiguity. {_DOCS}")
        return _apply_generated(layer, cls, args)
    if not _has_vmap_rule(cls):
        raise RuntimeError(f"You tried to vmap over {name}, but it does not have vmap support. Please override and "
                           f"implement the vmap staticmethod or set generate_vmap_rule=True. {_DOCS}")
    flat, spec = tree_flatten(args)
    phys, dims = _unwrap(flat, layer.level)
    if all(d is None for d in dims):
        with _Lowered(layer):
            return cls.apply(*args)
    in_dims = tree_unflatten(dims, spec)
    info = VmapInfo(layer.batch_size, layer.randomness)
    if levels.levels()[-1] is not layer:
        # An autodiff level runs inside this vmap: the node records the rule's physical outputs, and
        # its backward (and jvp) run the Function's own under a vmap of this batch.
        rule = functools.partial(_checked_rule, cls, info, kwargs)
        return _apply_generated(layer, cls, args, rule)
    with _Lowered(layer):
        output, flat_dims, out_spec = _checked_rule(cls, info, kwargs, in_dims, *tree_unflatten(phys, spec))
    return tree_unflatten([_identity_or(o, phys, flat, lambda o, d=d: o if d is None else
                                        wrap(move_dim(o, d, 0), layer.level))
                           for o, d in zip(tree_flatten(output)[0], flat_dims)], out_spec)


def _checked_rule(cls, info, kwargs, in_dims, *args):
    """``cls.vmap(info, in_dims, *args)`` with torch's checks: ``(output, flat out_dims, output spec)``."""
    result = cls.vmap(info, in_dims, *args, **kwargs)
    base = ("Expected the vmap staticmethod to have two returns, an output and out_dims with pytree structure "
            "compatible with the output. ")
    if not isinstance(result, tuple):
        kind = "<class 'opyard.Tensor'>" if isinstance(result, Tensor) else str(type(result))
        raise RuntimeError(base + f"Got a {kind} instead")
    if len(result) != 2:
        raise RuntimeError(base + f"Got {len(result)} returns instead")
    output, out_dims = result
    out_spec = tree_flatten(output)[1]
    flat_dims = broadcast_prefix(out_dims, out_spec)
    if flat_dims is None:
        raise RuntimeError("The autograd.Function's vmap staticmethod returned an incompatible (output, out_dims) "
                           f"tuple. Expected out_dims={out_dims} to be compatible with the structure of `output`. "
                           f"out_dims has structure {tree_flatten(out_dims)[1]} but output has structure {out_spec}. "
                           f"{_DOCS}")
    return output, flat_dims, out_spec


def _identity_or(o, phys, originals, wrap_fn):
    """torch's ``wrap_outputs_maintaining_identity``: an output that is an (unwrapped) argument comes
    back as the argument itself."""
    if not isinstance(o, Tensor):
        return o
    for p, orig in zip(phys, originals):
        if p is o:
            return orig
    return wrap_fn(o)


# --- generate_vmap_rule ----------------------------------------------------------------------------
def restore_vmap(fn, in_dims, batch_size, randomness):
    """``fn`` run under a new vmap of ``batch_size`` over arguments batched at ``in_dims`` (0 or None,
    a prefix of the arguments' structure); returns ``(outputs, out_dims)`` with the outputs physical
    and ``out_dims`` 0 (batched) or None per output, in the outputs' structure."""
    def run(*args):
        flat, spec = tree_flatten(args)
        dims = broadcast_prefix(in_dims, spec)
        layer = push_layer(batch_size, randomness, getattr(fn, "__name__", "fn"))
        try:
            with _state.vmap_mode:
                out = fn(*tree_unflatten([x if d is None or x is None else wrap(move_dim(x, d, 0), layer.level)
                                          for x, d in zip(flat, dims)], spec))
                flat_out, out_spec = tree_flatten(out)
                values, out_dims = [], []
                for o in flat_out:
                    if o.__class__ is BatchedTensor and o._level == layer.level:
                        values.append(o._value)
                        out_dims.append(0)
                    else:
                        values.append(o)
                        out_dims.append(None)
                return tree_unflatten(values, out_spec), tree_unflatten(out_dims, out_spec)
        finally:
            pop_layer(layer)
    return run


def _apply_generated(layer, cls, args, rule=None):
    flat, spec = tree_flatten(args)
    phys, dims = _unwrap(flat, layer.level)
    in_dims = tree_unflatten(dims, spec)
    vmapped = _vmapify(cls, in_dims, layer.batch_size, layer.randomness, rule)
    if levels.levels()[-1] is layer:
        with _Lowered(layer):
            outputs = vmapped.apply(*tree_unflatten(phys, spec))
    else:
        outputs = vmapped.apply(*tree_unflatten(phys, spec))
    outputs, out_dims = _split_out_dims(outputs)
    flat_out, out_spec = tree_flatten(outputs)
    flat_dims = broadcast_prefix(out_dims, out_spec)
    return tree_unflatten([o if d is None or not isinstance(o, Tensor) else wrap(move_dim(o, d, 0), layer.level)
                           for o, d in zip(flat_out, flat_dims)], out_spec)


def _split_out_dims(outputs):
    """A Vmapped forward returns ``(*outputs, out_dims)`` (one output: ``(output, out_dim)``)."""
    out_dims = outputs[-1]
    if isinstance(out_dims, tuple):
        return outputs[:-1], out_dims
    return outputs[0], out_dims


class _WrappedCtx:
    """A ctx seen through a vmap: attribute reads and writes go to the real ctx."""

    _reserved = ("_inner",)

    def __init__(self, ctx):
        object.__setattr__(self, "_inner", ctx)

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def __setattr__(self, name, value):
        if name in type(self)._reserved:
            object.__setattr__(self, name, value)
        else:
            setattr(self._inner, name, value)


class _SavingCtx(_WrappedCtx):
    """``setup_context`` under the generated vmap: saved tensors are stored physical, their batch dims
    (0 or None) remembered for ``backward``/``jvp``."""

    _reserved = ("_inner", "_level", "bdims", "fw_bdims")

    def __init__(self, ctx, level):
        super().__init__(ctx)
        object.__setattr__(self, "_level", level)
        object.__setattr__(self, "bdims", ())
        object.__setattr__(self, "fw_bdims", ())

    def _unwrap(self, tensors):
        phys, dims = [], []
        for t in tensors:
            if t.__class__ is BatchedTensor and t._level == self._level:
                phys.append(t._value)
                dims.append(0)
            else:
                phys.append(t)
                dims.append(None)
        return phys, tuple(dims)

    def save_for_backward(self, *tensors):
        phys, dims = self._unwrap(tensors)
        self._inner.save_for_backward(*phys)
        object.__setattr__(self, "bdims", dims)

    def save_for_forward(self, *tensors):
        phys, dims = self._unwrap(tensors)
        self._inner.save_for_forward(*phys)
        object.__setattr__(self, "fw_bdims", dims)

    def mark_dirty(self, *tensors):
        # torch's generated rule marks the batched tensors, which are never among the physical outputs of
        # the Vmapped Function, so its output check always fails: the same refusal, without the input warning.
        raise RuntimeError("Some elements marked as dirty during the forward method were not returned as output. "
                           "The inputs that are modified inplace must all be outputs of the Function.")


class _SavedCtx(_WrappedCtx):
    """The ctx ``backward``/``jvp`` see under the generated vmap: ``saved_tensors`` are the batched ones."""

    _reserved = ("_inner", "saved_tensors")

    def __init__(self, ctx, saved):
        super().__init__(ctx)
        object.__setattr__(self, "saved_tensors", tuple(saved))


def _sum_to(t, shape, skip=0):
    """``t`` summed to ``shape`` past its first ``skip`` dims (torch's ``sum_to_size`` per example: the
    leading extra dims summed away, the dims broadcast from size 1 summed keeping them)."""
    lead = t.dim() - skip - len(shape)
    if lead > 0:
        t = t.sum(tuple(range(skip, skip + lead)))
    dims = tuple(skip + i for i, (n, m) in enumerate(zip(t.shape[skip:], shape)) if m == 1 and n != 1)
    return t.sum(dims, keepdim=True) if dims else t


def _reduce(grad, grad_dim, input_dim, batch_size, shape):
    """A gradient (or tangent) computed under the generated vmap, batched at ``grad_dim``, brought to
    the batching of what it belongs to (its batch dim at ``input_dim``, torch's ``reductify``) and
    summed to ``shape`` (the per-example shape) where it came back broadcast."""
    if grad is None:
        return None
    if grad_dim is not None and input_dim is None:
        grad = grad.sum(grad_dim)
        grad_dim = None
    if input_dim is None:
        if shape is not None and tuple(grad.shape) != tuple(shape):
            grad = _sum_to(grad, tuple(shape))
        return grad
    if grad_dim is None:
        grad = grad.unsqueeze(0).expand((batch_size,) + tuple(grad.shape))
    elif grad_dim != 0:
        grad = move_dim(grad, grad_dim, 0)
    if shape is not None and tuple(grad.shape[1:]) != tuple(shape):
        grad = _sum_to(grad, tuple(shape), skip=1)
    return grad if input_dim == 0 else move_dim(grad, 0, input_dim)


def _vmapify(cls, in_dims, batch_size, randomness, rule=None):
    """``Vmapped<Name>``: ``cls`` with every staticmethod run under a vmap of ``batch_size`` (``forward``:
    ``rule``, the Function's checked vmap staticmethod, when given)."""
    flat_in_dims = tree_flatten(in_dims)[0]

    def forward(*operands):
        if rule is not None:
            outputs, flat_dims, out_spec = rule(in_dims, *operands)
            flat = [o if d in (None, 0) or not isinstance(o, Tensor) else move_dim(o, d, 0)
                    for o, d in zip(tree_flatten(outputs)[0], flat_dims)]
            outputs = tree_unflatten(flat, out_spec)
            out_dims = tree_unflatten([None if d is None else 0 for d in flat_dims], out_spec)
        else:
            outputs, out_dims = restore_vmap(cls.forward, in_dims, batch_size, randomness)(*operands)
        if isinstance(outputs, Tensor):
            return outputs, out_dims
        return (*outputs, out_dims)

    def setup_context(ctx, inputs, outputs):
        outputs, out_dims = _split_out_dims(outputs)
        state = {}

        def inner(inputs, outputs):
            saving = _SavingCtx(ctx, levels.levels()[-1].level)
            cls.setup_context(saving, inputs, outputs)
            state["bdims"] = saving.bdims
            state["fw_bdims"] = saving.fw_bdims
            state["shapes"] = tuple(tuple(i.shape) if isinstance(i, Tensor) else None for i in inputs)

        restore_vmap(inner, (in_dims, out_dims), batch_size, randomness)(inputs, outputs)
        ctx._pt_vmap_state = (state, out_dims)

    def backward(ctx, *grad_outputs):
        state, out_dims = ctx._pt_vmap_state
        grads = grad_outputs[:-1]
        dims = out_dims if isinstance(out_dims, tuple) else (out_dims,)
        grad_dims = tuple(d if g is not None else None for g, d in zip(grads, dims))

        def run(inputs):
            saved, gs = inputs
            return cls.backward(_SavedCtx(ctx, saved), *gs)

        grad_ins, grad_ins_dims = restore_vmap(run, ((state["bdims"], grad_dims),), batch_size,
                                               randomness)((ctx.saved_tensors, grads))
        single = not isinstance(grad_ins, tuple)
        grad_ins = (grad_ins,) if single else grad_ins
        grad_ins_dims = (grad_ins_dims,) if single else grad_ins_dims
        return tuple(_reduce(g, gd, d, batch_size, shape)
                     for g, gd, d, shape in zip(grad_ins, grad_ins_dims, flat_in_dims, state["shapes"]))

    def jvp(ctx, *tangents):
        state, out_dims = ctx._pt_vmap_state
        tangent_dims = tuple(None if t is None else d for t, d in zip(tangents, flat_in_dims))

        def run(saved, ts):
            return cls.jvp(_SavedCtx(ctx, saved), *ts)

        # jvp sees what setup_context gave save_for_forward (torch's ctx.saved_tensors in jvp).
        out_t, out_t_dims = restore_vmap(run, (state["fw_bdims"], tangent_dims), batch_size,
                                         randomness)(ctx.saved_tensors, tangents)
        single = not isinstance(out_t, tuple)
        out_t = (out_t,) if single else out_t
        out_t_dims = (out_t_dims,) if single else out_t_dims
        dims = out_dims if isinstance(out_dims, tuple) else (out_dims,)
        result = tuple(_reduce(t, td, d, batch_size, None) for t, td, d in zip(out_t, out_t_dims, dims))
        return (*result, None)

    generated = type(f"Vmapped{cls.__name__}", (Function,), {
        "forward": staticmethod(forward), "backward": staticmethod(backward), "jvp": staticmethod(jvp),
        "setup_context": staticmethod(setup_context), "generate_vmap_rule": True})
    return generated



from .._exports import public_dir

__dir__ = public_dir(globals())
