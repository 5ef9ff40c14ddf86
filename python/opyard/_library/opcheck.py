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


def _written_tensors(schema, args, kwargs):
    ids = set()
    for i, a in enumerate(schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            value = args[i] if i < len(args) and not a.kwarg_only else kwargs.get(a.name)
            ids.update(id(t) for t in _tensors(value))
    return ids


def _shares(a, b):
    return a._data.size > 0 and b._data.size > 0 and np.shares_memory(a._data, b._data)


def test_schema(op, args, kwargs, **_):
    """Undeclared mutation (data or version counter), undeclared aliasing, outputs aliasing each other."""
    schema = op._schema
    args, kwargs = _clone(args), _clone(kwargs)
    declared = _written_tensors(schema, args, kwargs)
    inputs = list(_tensors(args)) + list(_tensors(kwargs))
    before = [(t, np.array(t._data, copy=True), t._version) for t in inputs]
    out = op(*args, **kwargs)
    for i, (t, old, version) in enumerate(before):
        if id(t) in declared:
            continue
        if t._version != version or not np.array_equal(t._data, old, equal_nan=True):
            raise OpCheckError(
                f"test_schema: {op.name()} mutated an input (argument {_arg_name(schema, args, kwargs, t)}) that "
                f"its schema {schema} does not mark as mutable; declare it in mutates_args (custom_op) or "
                "annotate it Tensor(a!) in the schema")
    outs = list(_tensors(out))
    view_returns = any(r.alias_info is not None for r in schema.returns)
    if not view_returns:
        for o in outs:
            for t in inputs:
                if id(t) not in declared and (o is t or _shares(o, t)):
                    raise OpCheckError(
                        f"test_schema: {op.name()} returned a Tensor that aliases an input (argument "
                        f"{_arg_name(schema, args, kwargs, t)}), which its schema {schema} does not "
                        "declare; this is not supported: please return a clone instead")
    for i, a in enumerate(outs):
        for b in outs[i + 1:]:
            if a is b or _shares(a, b):
                raise OpCheckError(f"test_schema: {op.name()} returned outputs that alias each other; "
                                   "please return clones")


def _arg_name(schema, args, kwargs, t):
    for i, a in enumerate(schema.arguments):
        value = args[i] if i < len(args) and not a.kwarg_only else kwargs.get(a.name)
        if any(x is t for x in _tensors(value)):
            return a.name
    return "?"


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
    """Fake outputs must match the real ones: shape, dtype, device, and strides when static."""
    from ..fake import FakeTensorMode

    real = op(*_clone(args), **_clone(kwargs))
    mode = FakeTensorMode()
    with mode:
        fake = op(*_fakeify(mode, args), **_fakeify(mode, kwargs))
    reals, fakes = list(_tensors(real)), list(_tensors(fake))
    if len(reals) != len(fakes):
        raise OpCheckError(f"test_faketensor: {op.name()} returned {len(reals)} tensors but its fake impl "
                           f"returned {len(fakes)}")
    for i, (r, f) in enumerate(zip(reals, fakes)):
        sym = getattr(f, "_sym_shape", None) is not None
        fields = [("dtype", r.dtype, f.dtype), ("device", r.device, f.device)]
        if not sym:
            fields += [("shape", tuple(r.shape), tuple(f.shape)), ("stride", r.stride(), f.stride())]
        for what, rv, fv in fields:
            if rv != fv:
                raise OpCheckError(
                    f"test_faketensor: {op.name()}'s fake impl disagrees with its kernel on output {i}: "
                    f"{what} {fv} (fake) vs {rv} (real); fix the fake impl registered with register_fake")


def _fakeify(mode, x):
    from .._tensor import Tensor

    if isinstance(x, Tensor):
        return mode.from_tensor(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_fakeify(mode, e) for e in x)
    if isinstance(x, dict):
        return {k: _fakeify(mode, v) for k, v in x.items()}
    return x


def _close(a, b, rtol, atol):
    return tuple(a.shape) == tuple(b.shape) and np.allclose(
        a.detach().numpy(), b.detach().numpy(), rtol=1e-5 if rtol is None else rtol,
        atol=1e-6 if atol is None else atol, equal_nan=True)


def _with_grad(x):
    """Clones; floating tensors require grad (to compare gradients)."""
    c = _clone(x)
    for t in _tensors(c):
        if t.is_floating_point() and t.is_leaf:
            t.requires_grad_(True)
    return c


def _grads(outs, inputs):
    from ..autograd import grad

    diff = [o for o in outs if o.requires_grad]
    wanted = [t for t in inputs if t.requires_grad]
    if not diff or not wanted:
        return []
    total = diff[0].sum()
    for o in diff[1:]:
        total = total + o.sum()
    return list(grad(total, wanted, allow_unused=True))


def test_aot_dispatch_dynamic(op, args, kwargs, rtol=None, atol=None, **_):
    """Trace with make_fx(tracing_mode="symbolic"), re-run the graph on real inputs, compare outputs
    (and gradients when the op is differentiable and has an autograd formula) with eager."""
    from ..fx import make_fx

    gm = make_fx(lambda *a: op(*a, **_clone(kwargs)), tracing_mode="symbolic")(*_clone(args))
    differentiable = not op._schema.is_mutable and _has_autograd_kernel(op)
    prep = _with_grad if differentiable else _clone
    eager_in, traced_in = prep(args), prep(args)
    eager = op(*eager_in, **_clone(kwargs))
    traced = gm(*traced_in)
    eager_outs, traced_outs = list(_tensors(eager)), list(_tensors(traced))
    if len(eager_outs) != len(traced_outs) or not all(
            _close(e, t, rtol, atol) for e, t in zip(eager_outs, traced_outs)):
        raise OpCheckError(f"test_aot_dispatch_dynamic: {op.name()} traced with make_fx(tracing_mode='symbolic') "
                           "and re-run gives a different result than eager")
    if differentiable:
        ge = _grads(eager_outs, list(_tensors(eager_in)))
        gt = _grads(traced_outs, list(_tensors(traced_in)))
        for a, b in zip(ge, gt):
            if (a is None) != (b is None) or (a is not None and not _close(a, b, rtol, atol)):
                raise OpCheckError(f"test_aot_dispatch_dynamic: {op.name()}'s gradients through the traced "
                                   "graph differ from eager")


def _has_autograd_kernel(op):
    from .. import _core

    rows = {key: reason for key, _, reason, _ in _core._table_entries(op.name())}
    return rows.get("AutogradCPU") in ("kernel", "autograd kernel")


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
            msg = str(e)
            msg = msg[len(name) + 2:] if msg.startswith(name + ": ") else msg
            err = OpCheckError(f"opcheck(op, ...): {name} failed with {msg} (scroll up for stack trace)")
            err.__cause__ = e
            if raise_exception:
                raise err
            results[name] = err
    return results
