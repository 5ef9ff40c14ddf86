"""``opcheck``: test a custom op's registrations for the common mistakes."""

import numpy as np

from .._ops import resolve

__all__ = ["opcheck", "OpCheckError"]

DEFAULT_TESTS = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")


class OpCheckError(Exception):
    """An ``opcheck`` test failed; the message names the test."""


def _tensors(x):
    from .._tensor import Tensor

    if isinstance(x, Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for e in x:
            yield from _tensors(e)
    elif isinstance(x, dict):
        for e in x.values():
            yield from _tensors(e)


def _clone(x):
    from .._tensor import Tensor

    if isinstance(x, Tensor):
        c = x.detach().clone()
        if x.requires_grad:
            c.requires_grad_(True)
        return c
    if isinstance(x, (list, tuple)):
        return type(x)(_clone(e) for e in x)
    if isinstance(x, dict):
        return {k: _clone(v) for k, v in x.items()}
    return x


def _data(t):
    return t._data


def test_schema(op, args, kwargs, **_):
    """Undeclared mutation, undeclared aliasing of inputs, outputs aliasing each other."""
    schema = op._schema
    args, kwargs = _clone(args), _clone(kwargs)
    declared = set()
    for i, a in enumerate(schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            value = args[i] if i < len(args) else kwargs.get(a.name)
            declared.update(id(t) for t in _tensors(value))
    inputs = list(_tensors(args)) + list(_tensors(kwargs))
    before = [(t, np.array(_data(t), copy=True)) for t in inputs]
    out = op(*args, **kwargs)
    for t, old in before:
        if id(t) not in declared and not np.array_equal(_data(t), old, equal_nan=True):
            raise OpCheckError(f"test_schema: {op.name()} mutated an input that its schema does not mark as "
                               f"mutable ((a!)); declare it in mutates_args / the schema")
    outs = list(_tensors(out))
    view_returns = any(r.alias_info is not None for r in schema.returns)
    for o in outs:
        for t in inputs:
            if np.shares_memory(_data(o), _data(t)) and not view_returns and id(t) not in declared:
                raise OpCheckError(f"test_schema: {op.name()} returned a Tensor that aliases an input, "
                                   "which its schema does not declare; return a clone instead")
    for i, a in enumerate(outs):
        for b in outs[i + 1:]:
            if a is not b and _data(a).size and np.shares_memory(_data(a), _data(b)):
                raise OpCheckError(f"test_schema: {op.name()} returned outputs that alias each other")


def test_autograd_registration(op, args, kwargs, **_):
    """A call with grad-requiring inputs must reach an autograd formula."""
    from ..autograd.fallback import NotImplementedNode

    args, kwargs = _clone(args), _clone(kwargs)
    inputs = [t for t in list(_tensors(args)) + list(_tensors(kwargs)) if t.is_floating_point()]
    if not inputs or op._schema.is_mutable:
        return
    for t in inputs:
        if t.is_leaf:
            t.requires_grad_(True)
    out = op(*args, **kwargs)
    for o in _tensors(out):
        if isinstance(getattr(o, "grad_fn", None), NotImplementedNode):
            raise OpCheckError(
                f"test_autograd_registration: {op.name()} has no autograd formula but its inputs require "
                "grad; register one with opyard.library.register_autograd (or mark the op "
                "non-differentiable)")


def test_faketensor(op, args, kwargs, **_):
    """Fake outputs must match the real ones' shape, dtype and device (strides when static)."""
    from ..fake import FakeTensorMode

    real = op(*_clone(args), **_clone(kwargs))
    mode = FakeTensorMode()
    with mode:
        fake = op(*_fakeify(mode, args), **_fakeify(mode, kwargs))
    for r, f in zip(_tensors(real), _tensors(fake)):
        sym = getattr(f, "_sym_shape", None) is not None
        if (not sym and tuple(r.shape) != tuple(f.shape)) or r.dtype is not f.dtype or r.device != f.device:
            raise OpCheckError(
                f"test_faketensor: {op.name()}'s fake impl disagrees with its kernel: real "
                f"(shape={tuple(r.shape)}, dtype={r.dtype}, device={r.device}) vs fake "
                f"(shape={tuple(f.shape)}, dtype={f.dtype}, device={f.device})")


def _fakeify(mode, x):
    from .._tensor import Tensor

    if isinstance(x, Tensor):
        return mode.from_tensor(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_fakeify(mode, e) for e in x)
    if isinstance(x, dict):
        return {k: _fakeify(mode, v) for k, v in x.items()}
    return x


def test_aot_dispatch_dynamic(op, args, kwargs, rtol=None, atol=None, **_):
    """Trace with make_fx(tracing_mode="symbolic"), re-run on real inputs, compare with eager."""
    from ..fx import make_fx

    eager = op(*_clone(args), **_clone(kwargs))
    gm = make_fx(lambda *a: op(*a, **_clone(kwargs)), tracing_mode="symbolic")(*_clone(args))
    traced = gm(*_clone(args))
    for e, t in zip(_tensors(eager), _tensors(traced)):
        if tuple(e.shape) != tuple(t.shape) or not np.allclose(
                e.detach().numpy(), t.detach().numpy(), rtol=rtol or 1e-5, atol=atol or 1e-6, equal_nan=True):
            raise OpCheckError(f"test_aot_dispatch_dynamic: {op.name()} traced symbolically gives a different "
                               "result than eager")


_TESTS = {f.__name__: f for f in (test_schema, test_autograd_registration, test_faketensor,
                                  test_aot_dispatch_dynamic)}


def opcheck(op, args, kwargs=None, *, test_utils=DEFAULT_TESTS, raise_exception=True, rtol=None, atol=None):
    """Run ``test_utils`` on ``op(*args, **kwargs)``: ``{test: "SUCCESS" | exception}``."""
    overload = resolve(op)
    kwargs = kwargs or {}
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    results = {}
    for name in test_utils:
        if name not in _TESTS:
            raise ValueError(f"opcheck: unknown test {name!r}; expected some of {list(_TESTS)}")
        try:
            _TESTS[name](overload, args, kwargs, rtol=rtol, atol=atol)
            results[name] = "SUCCESS"
        except Exception as e:  # every failure is reported, the first one raised if asked
            err = e if isinstance(e, OpCheckError) else OpCheckError(f"{name}: {type(e).__name__}: {e}")
            if err is not e:
                err.__cause__ = e
            if raise_exception:
                raise err
            results[name] = err
    return results
