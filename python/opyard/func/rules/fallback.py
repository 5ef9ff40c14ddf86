"""The ``Batched`` fallback: ops without a batching rule run once per example, then stack.

Always correct, never fast: it warns once per operator, as torch does. Custom
operators without ``register_vmap`` land here too. Operators that mutate an
input write through per-example views of the physical tensor (so the
mutation is real) and must mutate a batched tensor, not an unbatched one.
"""

import warnings

from ..batched import BatchedTensor, wrap
from ..inplace import check_before_vmap
from .common import Tensor, aten, batch_size_at, level_of

__all__ = ["batched_fallback", "loop_fallback"]

_select = aten("select.int")
_stack = aten("stack")
_warned = set()


def _example(x, level, i):
    if x.__class__ is BatchedTensor and x._level == level:
        return _select(x._value, 0, i)
    if x.__class__ in (list, tuple):
        return x.__class__(_example(e, level, i) for e in x)
    return x


def _written(op):
    schema = op._schema
    return [(i, a.name) for i, a in enumerate(schema.arguments) if a.alias_info is not None and a.alias_info.is_write]


def _is_inplace(schema):
    """torch's ``isInplaceOp``: writes its first argument and returns it, aliasing nothing else."""
    args, rets = schema.arguments, schema.returns
    if not args or len(rets) != 1 or args[0].alias_info is None or not args[0].alias_info.is_write:
        return False
    if any(a.alias_info is not None for a in args[1:]):
        return False
    return rets[0].alias_info is not None and rets[0].alias_info.is_write


ISSUES_URL = "https://github.com/opyard/opyard/issues"


def _no_rule_message(name):
    """torch's warning, with what opyard's user can do about it: register a rule, or ask for one."""
    if name.startswith(("aten::", "prims::")):
        fix = f"Please file an issue at {ISSUES_URL} so that we can prioritize its implementation"
    else:
        fix = (f"Register one with opyard.library.register_vmap({name!r}, rule) (or the custom op's "
               ".register_vmap) to batch it")
    return (f"There is a performance drop because we have not yet implemented the batching rule for {name}: "
            f"it runs once per example and the results are stacked. {fix}.")


def loop_fallback(op, *args, **kwargs):
    """Run ``op`` per example of the innermost level among the arguments and stack the results."""
    level = level_of(args + tuple(kwargs.values()))
    name = op.name()
    schema = op._schema
    if name.startswith("aten::") and not _is_inplace(schema) and schema.is_mutable:
        # torch's fallback: a per-example loop cannot write an out= tensor (a view op without a rule
        # loops here, its results stacked: torch has rules for those).
        raise RuntimeError(f"Batching rule not implemented for {name}; the fallback path doesn't work on out= or "
                           "view ops.")
    if name not in _warned:
        _warned.add(name)
        warnings.warn(_no_rule_message(name), UserWarning, stacklevel=2)
    written = _written(op)
    for i, arg in written:
        value = args[i] if i < len(args) else kwargs.get(arg)
        if value is not None and not (value.__class__ is BatchedTensor and value._level == level):
            check_before_vmap(value, level, name)
            raise RuntimeError(
                f"vmap: {name}(self, *extra_args) is not possible because the tensor `{arg}` it writes to is not "
                "vmapped over while another argument is. Please try to use out-of-place operators instead "
                f"of {name}.")
    size = batch_size_at(level)
    if size == 0:
        raise RuntimeError(f"vmap: {name} has no batching rule, and the per-example fallback cannot run over a "
                           "batch of size 0")
    results = [op(*[_example(a, level, i) for a in args],
                  **{k: _example(v, level, i) for k, v in kwargs.items()}) for i in range(size)]
    if written and op._schema.returns and op._schema.returns[0].alias_info is not None:
        i, arg = written[0]
        return args[i] if i < len(args) else kwargs[arg]
    return _stack_results(name, results, level)


def _stack_results(name, results, level):
    first = results[0]
    if first is None:
        return None
    if isinstance(first, Tensor):
        return wrap(_stack(results, 0), level)
    if isinstance(first, (tuple, list)):  # return_types too: they are built from one sequence
        return first.__class__(_stack_results(name, [r[j] for r in results], level) for j in range(len(first)))
    raise RuntimeError(f"vmap: {name} returned a {type(first).__name__} per example; a batched result must be "
                       "a tensor (or tensors), so this operator cannot run inside vmap")


def batched_fallback(op, *args, **kwargs):
    """The boxed fallback registered at ``Batched``."""
    return loop_fallback(op, *args, **kwargs)

from ..._exports import public_dir

__dir__ = public_dir(globals())
