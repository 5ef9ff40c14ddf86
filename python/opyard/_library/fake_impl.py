"""Fake impls ("abstract impls") and the context ``get_ctx()`` returns inside one.

Each operator has a stack of fake impls, newest last, as torch's
``FakeImplHolder``: registering pushes one, and the ``Library`` it was
registered with takes it away again when destroyed, uncovering the previous
one. :data:`FAKE_IMPLS` mirrors the top of every stack for FakeTensorMode.
"""

import _thread  # threading's locks and ``local``, without loading threading (numpy does not)
import warnings

from .. import _core

__all__ = ["FAKE_IMPLS", "FakeImplCtx", "get_ctx", "run_fake_impl", "run_fake_impl_on_meta", "push_fake_impl",
           "drop_fake_impl", "fake_impl_source", "ctx_slot", "trivial_fake_impl", "is_builtin", "BUILTIN_NAMESPACES"]

# "ns::op.overload" -> the newest live fake impl (what FakeTensorMode runs).
FAKE_IMPLS = {}
# "ns::op.overload" -> [FakeImplEntry], oldest first.
_STACKS = {}
# Reentrant: a drop may run from a finalizer while this thread registers.
_lock = _thread.RLock()


def _changed():
    """FAKE_IMPLS changed: ``FakeTensorMode`` forgets what it cached (``Hooks.fake_impls_changed``;
    nothing is cached while the package imports)."""
    hooks = _core._hooks(None)
    if hooks is not None:
        hooks.fake_impls_changed()


class FakeImplEntry:
    """One registered fake impl and where it was registered (``file.py:12``)."""

    __slots__ = ("fn", "source")

    def __init__(self, fn, source):
        self.fn, self.source = fn, source


def push_fake_impl(name, fn, source):
    """Make ``fn`` the fake impl of ``name``; returns the entry to pass to :func:`drop_fake_impl`."""
    entry = FakeImplEntry(fn, source)
    with _lock:
        _STACKS.setdefault(name, []).append(entry)
        FAKE_IMPLS[name] = fn
    _changed()
    return entry


def drop_fake_impl(name, entry):
    """Remove ``entry`` (idempotent); the newest remaining fake impl of ``name`` takes over."""
    with _lock:
        stack = _STACKS.get(name, [])
        stack[:] = [e for e in stack if e is not entry]
        if stack:
            FAKE_IMPLS[name] = stack[-1].fn
        else:
            _STACKS.pop(name, None)
            FAKE_IMPLS.pop(name, None)
    _changed()


def fake_impl_source(name):
    """Where the current fake impl of ``name`` was registered (None if it has none)."""
    stack = _STACKS.get(name)
    return stack[-1].source if stack else None


class _State(_thread._local):
    ctx = None


_state = _State()
# The thread's slot ``get_ctx()`` reads: ``ctx_slot.ctx`` is None, a context, or
# ``(shape_env, op_name)`` (the context, made on first use). FakeTensorMode's fallback sets it
# around a fake impl itself, to call the impl with no frame in between (run_fake_impl does the same).
ctx_slot = _state


class FakeImplCtx:
    """What a fake impl may ask for: data-dependent sizes (``new_dynamic_size``)."""

    __slots__ = ("_op_name", "_shape_env")

    def __init__(self, shape_env, op_name):
        self._shape_env = shape_env
        self._op_name = op_name

    def new_dynamic_size(self, *, min=0, max=None):
        """A new symbolic size (``u0``, ``u1``...) for a data-dependent output dimension.

        Needs a ``FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True))``
        (``make_fx(..., tracing_mode="symbolic")`` creates one).
        """
        # ``opyard.fake.symbolic``'s types (a layer above): ``Hooks.symbolic_types``.
        SymInt, DynamicOutputShapeException = _core._hooks().symbolic_types()
        if self._shape_env is None or not self._shape_env.allow_dynamic_output_shape_ops:
            # torch's message is the overload, dotted ("ns.op.default"); ours adds the fix.
            ns, _, rest = self._op_name.partition("::")
            op, _, overload = rest.partition(".")
            raise DynamicOutputShapeException(
                f"{ns}.{op}.{overload or 'default'}: ctx.new_dynamic_size() needs a ShapeEnv that allows "
                "dynamic output shapes: use FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)) "
                "or make_fx(..., tracing_mode='symbolic')")
        if isinstance(min, SymInt) or isinstance(max, SymInt):
            raise ValueError(f"ctx.new_dynamic_size(min={min}, max={max}): expected min and max to be "
                             "statically known ints but got SymInt. This is not supported.")
        if min < 0:
            raise ValueError(f"ctx.new_dynamic_size(min={min}, ...): expected min to be greater than or "
                             "equal to 0: this API can only create non-negative sizes.")
        if max is not None and max < min:
            raise ValueError(f"Maximum value to constrain_as_size can't be less than the specified min "
                             f"value, received min={min} and max={max}")
        return self._shape_env.create_unbacked_symint(min=min, max=max)

    def create_unbacked_symint(self, *, min=2, max=None):
        """Deprecated spelling of :meth:`new_dynamic_size` (note its lower bound of 2, as in torch)."""
        warnings.warn("`create_unbacked_symint` is deprecated, please use `new_dynamic_size` instead",
                      FutureWarning, stacklevel=2)
        return self.new_dynamic_size(min=min, max=max)


class _NoCtxOnMeta:
    """Stands in for the context while a fake impl runs as the Meta kernel on meta tensors:
    those cannot have data-dependent sizes, so ``get_ctx()`` raises torch's message."""

    def __init__(self, op_name, source):
        self.message = (
            f"{op_name} ({source}): You're trying to run this operator with meta Tensors (as opposed to "
            "FakeTensors), but this operator may return an output Tensor with data-dependent shape. Meta "
            "Tensors don't support operators with outputs that have data-dependent shapes but FakeTensors do. "
            "If your operator does not return an output with data-dependent shape, make sure the FakeTensor "
            "and/or meta kernel does not call torch.library.get_ctx(). Otherwise, please use FakeTensors.")


def get_ctx():
    """The fake-impl context while a fake impl runs (see ``register_fake``); None elsewhere, as
    torch's (a fake impl run on meta tensors gets torch's error instead)."""
    ctx = _state.ctx
    if ctx.__class__ is tuple:  # (shape_env, op_name): made on first use, see run_fake_impl
        ctx = _state.ctx = FakeImplCtx(*ctx)
    if ctx is None:
        return None
    if isinstance(ctx, _NoCtxOnMeta):
        raise RuntimeError(ctx.message)
    return ctx


def _run_with(ctx, fn, args, kwargs):
    prev = _state.ctx
    _state.ctx = ctx
    try:
        return fn(*args, **kwargs)
    finally:
        _state.ctx = prev


def run_fake_impl(fn, op_name, shape_env, args, kwargs):
    """Run the fake impl ``fn`` under FakeTensorMode: ``get_ctx()`` works inside.

    Called for every fake-impl op under the mode, so it is one frame around ``fn`` and the
    context is built only if ``fn`` asks ``get_ctx()`` for it.
    """
    prev = _state.ctx
    _state.ctx = (shape_env, op_name)
    try:
        return fn(*args, **kwargs)
    finally:
        _state.ctx = prev


def run_fake_impl_on_meta(fn, op_name, args, kwargs):
    """Run ``fn`` as the Meta kernel on meta tensors: ``get_ctx()`` raises inside."""
    return _run_with(_NoCtxOnMeta(op_name, fake_impl_source(op_name)), fn, args, kwargs)


# --- the fake impl an operator needs none for ------------------------------------------------------

# torch's built-in namespaces: their operators may change their inputs' metadata, so nothing is
# derived for them (``torch._library.utils.is_builtin``).
BUILTIN_NAMESPACES = frozenset({"aten", "prim", "prims"})
_TRIVIAL = {}  # OpOverload -> its trivial fake impl, or None
_NONE_YET = object()


def is_builtin(op):
    """Whether ``op`` lives in one of torch's own namespaces (``aten``, ``prim``, ``prims``)."""
    return op.namespace in BUILTIN_NAMESPACES


def trivial_fake_impl(op):
    """The fake impl torch derives for ``op`` when none is registered, or None.

    As ``torch._library.utils.can_generate_trivial_fake_impl``: an operator tagged
    ``Tag.out`` returns its mutable keyword-only arguments (one, or a tuple of them in
    schema order), one tagged ``Tag.inplace`` its first argument, and a mutable operator
    returning nothing returns None (custom operators may not change their inputs'
    metadata, so the inputs already describe the result). Never for built-in operators.
    Computed once per operator.
    """
    hit = _TRIVIAL.get(op, _NONE_YET)
    if hit is _NONE_YET:
        hit = _TRIVIAL[op] = _trivial_for(op)
    return hit


def _trivial_for(op):
    if is_builtin(op):
        return None
    from .._ops import Tag

    schema = op._schema
    tags = op.tags
    if Tag.out in tags:
        names = tuple(a.name for a in schema.arguments
                      if a.kwarg_only and a.alias_info is not None and a.alias_info.is_write)
        if len(names) == 1:
            (only,) = names
            return lambda *args, **kwargs: kwargs[only]
        return lambda *args, **kwargs: tuple(kwargs[n] for n in names)
    if Tag.inplace in tags:
        return lambda *args, **kwargs: args[0]
    if schema.is_mutable and not schema.returns:
        return lambda *args, **kwargs: None
    return None
