"""``register_autograd``: one Autograd-key kernel built on ``autograd.Function``.

The kernel fills the defaults the dispatcher dropped back in (``setup_context``
sees every input), then runs ``Function.apply``: the forward calls the op below
autograd (``apply`` runs it under no-grad, which excludes the autograd keys),
and exactly one graph node records the call.
"""

__all__ = ["install_autograd"]


def _check_functional(schema, display):
    if schema.is_mutable or any(r.alias_info is not None and r.alias_info.is_write for r in schema.returns):
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
            args = args + tuple(kwargs.get(name, default) for name, default in pos[len(args):])
        return args, {name: kwargs.get(name, default) for name, default in kw}
    return fill, bool(kw)


def install_autograd(lib, overload, backward, setup_context, display):
    """Register ``backward``/``setup_context`` for ``overload`` at ``lib``'s Autograd key."""
    from ..autograd import Function

    schema = overload._schema
    _check_functional(schema, display)
    if not callable(backward):
        raise TypeError(f"register_autograd({display}): expected backward to be a function, got {backward!r}")
    if setup_context is not None and not callable(setup_context):
        raise TypeError(f"register_autograd({display}): expected setup_context to be a function or None, "
                        f"got {setup_context!r}")
    fill, has_kwonly = _filler(schema)
    check = _alias_checker(overload)
    if has_kwonly:
        fn_cls = _with_kwonly(Function, overload, backward, setup_context, check)
    else:
        fn_cls = _positional(Function, overload, backward, setup_context, check)
    apply = fn_cls.apply

    if has_kwonly:
        def autograd_kernel(*args, **kwargs):
            args, kwonly = fill(args, kwargs)
            return apply(*args, kwonly)
    else:
        def autograd_kernel(*args, **kwargs):
            return apply(*fill(args, kwargs)[0])
    autograd_kernel.__qualname__ = f"autograd<{overload.name()}>"
    lib.impl(overload, autograd_kernel, "Autograd", allow_override=True)


def _alias_checker(overload):
    from .custom_op import OPDEFS, check_aliasing

    op_def = OPDEFS.get(overload.name().split(".")[0])
    if op_def is None or not op_def._check_alias:
        return None
    return lambda args, kwargs, out: check_aliasing(op_def, args, kwargs, out)


def _positional(Function, overload, backward, setup_context, check):
    def forward(*args):
        out = overload(*args)
        if check is not None:
            check(args, {}, out)
        return out

    def setup(ctx, inputs, output):
        if setup_context is not None:
            setup_context(ctx, inputs, output)

    return type(overload.__name__.split(".")[0], (Function,), {
        "forward": staticmethod(forward), "setup_context": staticmethod(setup),
        "backward": staticmethod(backward)})


def _with_kwonly(Function, overload, backward, setup_context, check):
    """The kwarg-only inputs travel as one trailing argument (torch's metadata argument)."""
    def forward(*args):
        kwonly = args[-1]
        out = overload(*args[:-1], **kwonly)
        if check is not None:
            check(args[:-1], kwonly, out)
        return out

    def setup(ctx, inputs, output):
        if setup_context is not None:
            setup_context(ctx, inputs[:-1], inputs[-1], output)

    def _backward(ctx, *grads):
        full = ctx.needs_input_grad
        ctx.needs_input_grad = full[:-1]
        try:
            result = backward(ctx, *grads)
        finally:
            ctx.needs_input_grad = full
        return (*result, None) if isinstance(result, tuple) else (result, None)

    return type(overload.__name__.split(".")[0], (Function,), {
        "forward": staticmethod(forward), "setup_context": staticmethod(setup),
        "backward": staticmethod(_backward)})
