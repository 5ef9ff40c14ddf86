"""``register_autograd``: one Autograd-key kernel built on ``autograd.Function``.

The kernel receives the arguments as the dispatcher passes them: positional
ones positionally, trailing defaults dropped, kwarg-only ones as keywords. As
in torch, the graph node's inputs are the arguments actually passed, so
``ctx.needs_input_grad`` has one entry per passed argument (a list of entries
for a ``Tensor[]``), while ``setup_context`` sees every schema input with the
defaults filled back in. ``backward`` may return one gradient per passed
argument or one per schema input (see :mod:`._autograd_grads`).

The forward calls the op below autograd (``Function.apply`` runs it under
no-grad, which excludes the autograd keys), and exactly one graph node records
the call. ``Tensor[]`` arguments and returns are flattened into the node's
inputs and outputs and regrouped for ``setup_context`` and ``backward``.

Kwarg-only arguments travel in a trailing metadata input, as in torch, unless
the schema has kwarg-only tensors (which torch refuses): then every passed
kwarg-only argument is a node input of its own, so those tensors get
gradients too.
"""

import warnings
from functools import partial

from .. import _core
from ._autograd_grads import GradSpec, regroup, split_needs, unflatten_grads

__all__ = ["install_autograd"]

_FunctionSpec = _core._FunctionSpec
_LIST_TYPES = ("Tensor[]", "Tensor?[]", "Tensor[]?", "Tensor?[]?")


def _is_functional(schema, allow_valid_view):
    """torch's ``is_functional_schema``: no mutation, at least one return, and no view unless
    ``allow_valid_view`` (custom ops) and it is one Tensor viewing the only Tensor input."""
    if schema.is_mutable:
        return False
    rets = schema.returns
    if any(r.alias_info is not None and not r.alias_info.is_write for r in rets):
        n_in = sum(a.real_type == "Tensor" for a in schema.arguments)
        n_out = sum(r.real_type == "Tensor" for r in rets)
        return allow_valid_view and n_in == 1 and n_out == 1
    return bool(rets)


def _check_functional(schema, display, allow_valid_view):
    if not _is_functional(schema, allow_valid_view):
        raise RuntimeError(
            f"Cannot register autograd formula for non-functional operator {display} with schema "
            f"{schema}. Please create a functional operator and register an autograd formula for that.")


def _filler(schema):
    """``fill(args, kwargs) -> (positional, kwarg_only)`` with every schema default put back."""
    pos = [(a.name, a.default_value) for a in schema.arguments if not a.kwarg_only]
    kw = [(a.name, a.default_value) for a in schema.arguments if a.kwarg_only]
    n_pos = len(pos)

    def fill(args, kwargs):
        if len(args) < n_pos:
            args = tuple(args) + tuple(kwargs.get(name, default) for name, default in pos[len(args):])
        return tuple(args), {name: kwargs.get(name, default) for name, default in kw}
    return fill


class _Call:
    """Per-call metadata: the trailing (non-tensor) input of the node.

    ``kwargs``: the kwarg-only arguments not carried as node inputs; ``names``: the kwarg-only
    arguments that are (after the positional ones); ``sizes``: per passed argument, -1 for one
    value or the length of a flattened ``Tensor[]`` (None when nothing was flattened);
    ``out_sizes``: the same for the outputs, set by the forward.
    """

    __slots__ = ("kwargs", "names", "sizes", "out_sizes", "out_tuple")

    def __init__(self, kwargs, names=(), sizes=None):
        self.kwargs, self.names, self.sizes = kwargs, names, sizes
        self.out_sizes = None
        self.out_tuple = False


_NO_CALL = _Call({})  # read-only stand-in when the node has no metadata input


def install_autograd(lib, overload, backward, setup_context, display):
    """Register ``backward``/``setup_context`` for ``overload`` at ``lib``'s Autograd key."""
    from ..autograd import Function
    from ._opdefs import OPDEFS

    schema = overload._schema
    _check_functional(schema, display, allow_valid_view=overload.name().split(".")[0] in OPDEFS)
    if not callable(backward):
        raise TypeError(f"register_autograd({display}): expected backward to be a function, got {backward!r}")
    if setup_context is not None and not callable(setup_context):
        raise TypeError(f"register_autograd({display}): expected setup_context to be a function or None, "
                        f"got {setup_context!r}")
    spec = GradSpec(schema, str(overload))
    fn_cls = type(overload.__name__.split(".")[0], (Function,), {
        "forward": staticmethod(_make_forward(overload, setup_context, spec)),
        "backward": staticmethod(_make_backward(backward, spec)), "_op_autograd": True})
    if spec.has_meta:
        kernel = _make_kernel(fn_cls.apply, schema, spec)
        kernel.__qualname__ = f"autograd<{overload.name()}>"
    elif not _core.FAST_PATHS:
        # The general path of the Rust op mode below: fn_cls's Python wrappers through ``apply``
        # (Note [Fast paths and general paths] in src/python/hooks.rs).
        apply = fn_cls.apply

        def kernel(*args):
            return apply(*args)
        kernel.__qualname__ = f"autograd<{overload.name()}>"
    else:
        # Positional arguments only: the node's inputs are exactly the passed arguments, and
        # the kernel is the Function's Rust apply in op mode, which calls the op, the aliasing
        # check, setup_context and backward itself (See Note [register_autograd in Rust] in
        # src/python/autograd/function/mod.rs). fn_cls's Python wrappers serve the general path.
        defaults = tuple(a.default_value for a in schema.arguments if not a.kwarg_only)
        kernel = _FunctionSpec(fn_cls, fn_cls._backward_cls, fn_cls.forward, None, 0,
                               f"autograd<{overload.name()}>", backward, op=overload,
                               op_check=_alias_checker(overload), op_setup=setup_context,
                               op_defaults=defaults,
                               op_unflatten=partial(unflatten_grads, spec, _NO_CALL))
    mine = lib.__dict__.setdefault("_opyard_autograd", set())
    if overload.name() in mine:
        # Replacing this library's own formula (torch's CustomOpDef just swaps its fields): no warning.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            lib.impl(overload, kernel, "Autograd", allow_override=True)
    else:
        lib.impl(overload, kernel, "Autograd", allow_override=True)
        mine.add(overload.name())


def _make_kernel(apply, schema, spec):
    """The Autograd kernel: the simplest shape that carries this schema's arguments."""
    list_pos = tuple(i for i, a in enumerate(schema.arguments)
                     if not a.kwarg_only and a.real_type in _LIST_TYPES)
    kw_names = tuple(a.name for a in schema.arguments if a.kwarg_only)
    if not list_pos and not spec.kw_inputs and not spec.ret_lists:
        def autograd_kernel(*args, **kwargs):
            return apply(*args, _Call(kwargs))
        return autograd_kernel
    list_kw = {a.name for a in schema.arguments if a.kwarg_only and a.real_type in _LIST_TYPES}

    def autograd_kernel(*args, **kwargs):
        flat, sizes = [], []
        for i, a in enumerate(args):
            _push(flat, sizes, a, i in list_pos)
        names = ()
        if spec.kw_inputs:
            names = tuple(n for n in kw_names if n in kwargs)
            for n in names:
                _push(flat, sizes, kwargs[n], n in list_kw)
            kwargs = {}
        call = _Call(kwargs, names, sizes)
        out = apply(*flat, call)
        return _regroup_outputs(out, call) if call.out_sizes is not None else out
    return autograd_kernel


def _push(flat, sizes, value, is_list):
    if is_list and isinstance(value, (list, tuple)):
        flat.extend(value)
        sizes.append(len(value))
    else:
        flat.append(value)
        sizes.append(-1)


def _regroup_outputs(out, call):
    items = regroup(out if isinstance(out, tuple) else (out,), call.out_sizes)
    return tuple(items) if call.out_tuple else items[0]


def _make_forward(overload, setup_context, spec):
    fill = _filler(overload._schema)
    check = _alias_checker(overload)
    kw_style = spec.has_kwarg_only
    if not spec.has_meta:
        return _plain_forward(overload, setup_context, fill, check)

    def forward(ctx, *inputs):
        call = ctx._opyard_call = inputs[-1]
        inputs = inputs[:-1]
        if call.sizes is not None:
            inputs = regroup(inputs, call.sizes)
        kwargs = call.kwargs
        if call.names:
            n = len(inputs) - len(call.names)
            kwargs = dict(zip(call.names, inputs[n:]))
            inputs = inputs[:n]
        out = overload(*inputs, **kwargs)
        if check is not None:
            check(inputs, kwargs, out)
        if setup_context is not None:
            full, full_kw = fill(inputs, kwargs)
            if kw_style:
                setup_context(ctx, full, full_kw, out)
            else:
                setup_context(ctx, full, out)
        if spec.ret_lists:
            return _flatten_outputs(out, call)
        return out
    return forward


def _plain_forward(overload, setup_context, fill, check):
    """The forward of a schema with positional arguments only and no lists (no metadata input).

    The kernel runs the same steps in Rust (op mode of ``_FunctionSpec``); this wrapper serves
    the general path (forward-mode AD) only."""
    if setup_context is None and check is None:
        def forward(ctx, *inputs):
            return overload(*inputs)
        return forward

    def forward(ctx, *inputs):
        out = overload(*inputs)
        if check is not None:
            check(inputs, None, out)
        if setup_context is not None:
            setup_context(ctx, fill(inputs, {})[0], out)
        return out
    return forward


def _flatten_outputs(out, call):
    call.out_tuple = isinstance(out, tuple)
    flat, sizes = [], []
    for o in out if call.out_tuple else (out,):
        _push(flat, sizes, o, isinstance(o, list))
    call.out_sizes = sizes
    return tuple(flat)


def _make_backward(backward, spec):
    has_meta = spec.has_meta

    def _backward(ctx, *grads):
        if not has_meta:
            result = backward(ctx, *grads)
            n_actual = len(ctx.needs_input_grad)
            if n_actual == 1 and not isinstance(result, (tuple, list)):
                return (result,)  # what unflatten_grads returns for one gradient of one input
            return unflatten_grads(spec, _NO_CALL, result, n_actual)
        call = ctx._opyard_call
        if call.out_sizes is not None:
            grads = regroup(grads, call.out_sizes)
        full = ctx.needs_input_grad
        ctx.needs_input_grad = split_needs(full[:-1], call)
        try:
            result = backward(ctx, *grads)
        finally:
            ctx.needs_input_grad = full
        n_actual = len(full) - 1 if call.sizes is None else len(call.sizes)
        return (*unflatten_grads(spec, call, result, n_actual), None)
    return _backward


def _alias_checker(overload):
    """``check(args, kwargs, out)``: ``aliasing.check_aliasing`` as it is now, bound to the op
    (a ``partial``: no frame of ours before the check's own)."""
    from . import aliasing
    from ._opdefs import OPDEFS

    op_def = OPDEFS.get(overload.name().split(".")[0])
    if op_def is None or not op_def._check_alias:
        return None
    return partial(aliasing.check_aliasing, op_def)
