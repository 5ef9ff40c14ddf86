"""``register_autograd``: one Autograd-key kernel built on ``autograd.Function``."""

from .. import _core
from ..dispatcher import AUTOGRAD_KEYS

__all__ = ["install_autograd"]


def _filler(schema):
    """A function mapping the kernel's (args, kwargs) to every input in schema order, defaults filled."""
    params = [(a.name, a.kwarg_only, a.default_value, a.has_default_value) for a in schema.arguments]
    positional = [p for p in params if not p[1]]
    kwonly = [p for p in params if p[1]]

    def fill(args, kwargs):
        values = list(args)
        for name, _, default, _ in positional[len(args):]:
            values.append(kwargs.get(name, default))
        for name, _, default, _ in kwonly:
            values.append(kwargs.get(name, default))
        return tuple(values)
    return fill, len(positional), [p[0] for p in kwonly]


def install_autograd(lib, overload, backward, setup_context):
    """Register ``backward``/``setup_context`` for ``overload`` at the Autograd key of ``lib``."""
    from ..autograd import Function

    schema = overload._schema
    name = overload.name()
    if schema.is_mutable:
        raise RuntimeError(
            f"register_autograd({name}): the op mutates some of its inputs, which register_autograd "
            "does not support; write a custom autograd.Function around an out-of-place op instead")
    if not callable(backward):
        raise TypeError(f"register_autograd({name}): expected backward to be a function, got {backward!r}")
    fill, n_pos, kw_names = _filler(schema)
    exclude = AUTOGRAD_KEYS

    def call_below(inputs):
        args = inputs[:n_pos]
        kwargs = dict(zip(kw_names, inputs[n_pos:]))
        with _core._KeyGuard(exclude=exclude):
            return overload(*args, **kwargs)

    def forward(*inputs):
        return call_below(inputs)

    def setup(ctx, inputs, output):
        if setup_context is not None:
            setup_context(ctx, inputs, output)

    def _backward(ctx, *grads):
        result = backward(ctx, *grads)
        return result if isinstance(result, tuple) else (result,)

    fn_cls = type(f"{overload.__name__.split('.')[0]}", (Function,), {
        "forward": staticmethod(forward),
        "setup_context": staticmethod(setup),
        "backward": staticmethod(_backward),
    })

    def autograd_kernel(*args, **kwargs):
        return fn_cls.apply(*fill(args, kwargs))
    autograd_kernel.__qualname__ = f"autograd<{name}>"
    lib.impl(overload, autograd_kernel, "Autograd", allow_override=True)
