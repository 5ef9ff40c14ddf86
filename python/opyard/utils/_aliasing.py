"""Aliasing of ``__torch_dispatch__`` results, read from the operator's schema.

Two users:

- the ``Python`` key's fallback: for a plain tensor a view kernel records the view (its ``_base``,
  a shared version counter); a handler's result skipped the kernels, so the fallback records it
  as torch's ``ADInplaceOrView`` key does above the handler: a view op's output becomes a view of
  its input, ``detach``'s output shares the version counter without being a view;
- ``return_and_correct_aliasing(func, args, kwargs, out)`` (torch's helper for wrapper
  subclasses): the same for the view outputs, the wrapper's own metadata updated for an
  ``inplace_view`` op (``t_``, ``squeeze_``, ...), and the mutated argument itself returned for an
  in-place or ``out=`` op.
"""

import numpy as np

from .. import _core
from .._ops import Tag
from .._tensor import _PYTHON_BITS, Tensor, _make_meta
from ..dispatcher import DispatchKey, DispatchKeySet

__all__ = ["alias_info", "record_views", "return_and_correct_aliasing", "QUIET"]

_PYTHON = DispatchKeySet([DispatchKey.Python, DispatchKey.PythonTLSSnapshot])
# Operators whose output shares the input's version counter but is not a view of it (torch's
# non-differentiable views: ``x.detach()._base`` is None).
_NOT_VIEWS = frozenset(("aten::detach", "aten::detach_"))


class AliasInfo:
    """What ``op``'s schema says about aliasing (torch's ``SchemaInfo``).

    ``views``: ``(argument index, return index)`` pairs where a return is a read-only alias of an
    argument; ``write_aliases``: per return, the alias set name of the argument it mutates and
    returns (None when no return is a mutable alias); ``inplace_view``: tagged ``inplace_view``."""

    __slots__ = ("views", "write_aliases", "inplace_view", "arg_names", "alias_args", "shares_only", "mutated")

    def __init__(self, op):
        schema = op._schema
        args, rets = schema.arguments, schema.returns

        def aliases(a):
            return set(a.alias_info.before_set) if a.alias_info is not None else set()

        def write(a):
            return a.alias_info is not None and a.alias_info.is_write

        self.views = tuple((i, j) for i, a in enumerate(args) for j, r in enumerate(rets)
                           if aliases(a) & aliases(r) and not write(a))
        writes = [next(iter(aliases(r))) if write(r) and aliases(r) else None for r in rets]
        self.write_aliases = tuple(writes) if any(w is not None for w in writes) else None
        if self.write_aliases is not None and None in self.write_aliases:
            raise RuntimeError(f"Unsupported schema: {schema}")
        self.inplace_view = Tag.inplace_view in op.tags
        self.arg_names = tuple(a.name for a in args)
        self.alias_args = {}
        for i, a in enumerate(args):
            for name in aliases(a):
                self.alias_args.setdefault(name, []).append(i)
        self.shares_only = op.name().split(".")[0] in _NOT_VIEWS
        self.mutated = tuple(i for i, a in enumerate(args) if write(a))


_INFO = {}
#: Operators whose handler results need no recording: no argument is mutated, no return aliases
#: one (the fallback skips ``record_views`` for them without a call).
QUIET = set()


def alias_info(op):
    """``op``'s ``AliasInfo``, computed once per operator."""
    info = _INFO.get(op)
    if info is None:
        info = _INFO[op] = AliasInfo(op)
        if not info.mutated and not info.views:
            QUIET.add(op)
    return info


def _arg(op, info, args, kwargs, index):
    if index < len(args):
        return args[index]
    name = info.arg_names[index]
    if kwargs and name in kwargs:
        return kwargs[name]
    raise RuntimeError(f"{op}: the argument '{name}' that a return aliases was not passed")


def _as_view(inp, out, shares_only):
    if not isinstance(inp, Tensor) or not isinstance(out, Tensor) or out is inp:
        return
    out._vc = inp._counter()
    if not shares_only and out._base is None:
        out._base = inp._base if inp._base is not None else inp


def _is_wrapper(t):
    """A tensor made by ``_make_wrapper_subclass``: no data of its own, so no kernel touches it."""
    return isinstance(t, Tensor) and bool(t._keyset & _PYTHON_BITS) and t._meta_strides is not None


def record_views(op, args, kwargs, result):
    """For the fallback, what torch's ``ADInplaceOrView`` key does around the handler: a wrapper
    argument an in-place op mutates gets its version bumped (kernels bump the tensors they
    write; a wrapper reaches none), and the handler's outputs of a view op become views of their
    input (see the module docs). A plain result came from a kernel, which recorded its view."""
    info = alias_info(op)
    for i in info.mutated:
        if i < len(args) or (kwargs and info.arg_names[i] in kwargs):
            arg = _arg(op, info, args, kwargs, i)
            for t in (arg if isinstance(arg, (list, tuple)) else (arg,)):
                if _is_wrapper(t):
                    t._bump_version()
    if not info.views:
        return
    outs = result if isinstance(result, (tuple, list)) and len(op._schema.returns) != 1 else (result,)
    for i, j in info.views:
        if j >= len(outs):
            continue
        inp = _arg(op, info, args, kwargs, i)
        for out in (outs[j] if isinstance(outs[j], (list, tuple)) else (outs[j],)):
            if isinstance(out, Tensor) and out._keyset & _PYTHON_BITS:
                _as_view(inp, out, info.shares_only)


def return_and_correct_aliasing(func, args, kwargs, out):
    """torch's helper for wrapper subclasses, called at the end of ``__torch_dispatch__``::

        return return_and_correct_aliasing(func, args, kwargs, out)

    For a view op, each output becomes a view of the input it aliases (shared version counter,
    ``_base``); for an ``inplace_view`` op (``t_``, ``unsqueeze_``...), the wrapper's own sizes and
    strides are updated by running ``func`` on it below the ``Python`` key; for an in-place or
    ``out=`` op, the mutated argument itself is returned, as the schema says."""
    info = alias_info(func)
    outs = out if isinstance(out, tuple) else (out,)
    for i, j in info.views:
        if j < len(outs):
            inp = _arg(func, info, args, kwargs, i)
            for o in (outs[j] if isinstance(outs[j], list) else (outs[j],)):
                if type(inp) is not type(o) and isinstance(o, Tensor) and isinstance(inp, Tensor):
                    raise AssertionError(f"Called {func} with input of type {type(inp)}\n"
                                         f"and output of type {type(o)}. But expected types to match.")
                _as_view(inp, o, info.shares_only)
    if info.inplace_view:
        mutated = [x for i, x in enumerate(args) if i < len(info.arg_names) and
                   func._schema.arguments[i].alias_info is not None and func._schema.arguments[i].alias_info.is_write]
        if len(mutated) != 1:
            raise AssertionError("expected exactly one mutated arg for inplace_view ops")
        _update_metadata(func, mutated[0], args, kwargs)
    if info.write_aliases is None:
        return out
    picked = [_arg(func, info, args, kwargs, _only(func, info, name)) for name in info.write_aliases]
    return picked[0] if len(picked) == 1 else type(out)(picked)


def _only(func, info, name):
    indices = info.alias_args.get(name, ())
    if len(indices) != 1:
        raise AssertionError("Expected exactly one argument index for the given output alias")
    return indices[0]


def _update_metadata(func, wrapper, args, kwargs):
    """Run the ``inplace_view`` op on a meta stand-in of the wrapper (its sizes, strides and
    offset) below the ``Python`` key, and keep what it leaves as the wrapper's metadata."""
    stand_in = _make_meta(Tensor.size(wrapper), wrapper.dtype, Tensor.stride(wrapper), Tensor.storage_offset(wrapper))
    with _core._KeyGuard(exclude=_PYTHON):
        func(*[stand_in if a is wrapper else a for a in args], **(kwargs or {}))
    wrapper._data = np.broadcast_to(np.zeros((), wrapper._data.dtype), tuple(stand_in.shape))
    wrapper._meta_strides = tuple(stand_in.stride())
    wrapper._meta_offset = stand_in.storage_offset()
