"""Batching rules of pointwise operators: unary, binary, ternary, comparisons, ``where``, in-place.

One call on the physical tensors serves the whole batch. Broadcasting: a
batched operand of lower logical rank gets size-1 dims after its batch dim
(``pad_to``), unbatched operands are left alone (they align on the right).
Type promotion: only a batched *0-dim* operand changes category (it becomes a
dimensioned tensor physically), so only then the logical result dtype is
computed and that operand cast to it.
"""

from ..._tensor import CPU
from ..batched import BATCHED_BIT, _new
from ..inplace import check_before_vmap
from .common import BatchedTensor, Tensor, aten, logical_dtype, pad_to, wrap
from .fallback import loop_fallback

__all__ = ["RULES", "inplace_rule", "inplace_via_functional", "pointwise_rule", "unary_rule"]


def unary_rule(op):
    """Ops whose only tensor argument is ``self``: reaching the rule means ``self`` is batched."""
    def rule(x, *args, **kwargs):
        return wrap(op(x._value, *args, **kwargs), x._level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def _physical(args, level, skip):
    """The op's arguments at ``level``: batched operands unwrapped and rank-padded."""
    rank = 0
    zero_dim = False
    dtypes = set()
    for a in args:
        if isinstance(a, Tensor):
            n = a._data.ndim
            rank = max(rank, n)
            dtypes.add(a._data.dtype)
            if n == 0 and a.__class__ is BatchedTensor and a._level == level:
                zero_dim = True
    dtype = None
    if zero_dim and len(dtypes) > 1:
        tensors = [a for i, a in enumerate(args) if i not in skip]
        dtype = logical_dtype(tensors)
    out = []
    for i, a in enumerate(args):
        if a.__class__ is BatchedTensor and a._level == level:
            v = a._value
            n = a._data.ndim
            if n < rank:
                v = pad_to(v, n, rank)
            if dtype is not None and n == 0 and i not in skip and v.dtype is not dtype:
                v = v.to(dtype)
            out.append(v)
        else:
            out.append(a)
    return out


def pointwise_rule(op, skip=()):
    """N-ary pointwise ops with broadcasting; ``skip``: argument indices outside type promotion
    (``where``'s condition)."""
    skip = frozenset(skip)
    _scalars = (int, float, bool)

    def rule(*args, **kwargs):
        if len(args) == 2:
            # The common calls first: ``r * 2`` and ``r + s`` with equal ranks and dtypes (nothing
            # to pad or promote: see the module note).
            a, b = args
            if a.__class__ is BatchedTensor:
                if b.__class__ in _scalars:
                    # ``wrap`` inlined (``r * 2`` is the commonest batched call).
                    out = op(a._value, b, **kwargs)
                    t = _new(BatchedTensor)
                    t._value = out
                    t._level = a._level
                    try:
                        t._data = out._data[0]
                    except IndexError:  # an empty batch
                        return wrap(out, a._level)
                    t._keyset = out._keyset | BATCHED_BIT
                    if out._dev is not CPU:
                        t._dev = out._dev
                    return t
                if (b.__class__ is BatchedTensor and a._level == b._level and a._data.ndim == b._data.ndim
                        and a._data.dtype is b._data.dtype):
                    return wrap(op(a._value, b._value, **kwargs), a._level)
        level = 0
        for a in args:
            if a.__class__ is BatchedTensor and a._level > level:
                level = a._level
        if level == 0:  # only a keyword argument is batched: rare, the per-example fallback serves it
            return loop_fallback(op, *args, **kwargs)
        return wrap(op(*_physical(args, level, skip), **kwargs), level)
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def _refuse_unbatched_self(op, name, self, args):
    """torch's error for an in-place op whose ``self`` is not batched at the level another operand is
    (one unbatched tensor cannot hold a different result per example); its text names the operand
    `other` whatever the schema calls it. Returns ``self``'s level (0 when it is not batched)."""
    level = self._level if self.__class__ is BatchedTensor else 0
    for a in args:
        if a.__class__ is BatchedTensor and a._level > level:
            check_before_vmap(self, a._level, op.name())
            raise RuntimeError(
                f"vmap: {name}(self, *extra_args) is not possible because there exists a Tensor `other` in "
                f"extra_args that has more elements than `self`. This happened due to `other` being vmapped "
                f"over but `self` not being vmapped over in a vmap. Please try to use out-of-place operators "
                f"instead of {name}. If said operator is being called inside the opyard framework, please "
                "file a bug report instead.")
    return level


def inplace_via_functional(op):
    """An in-place op that takes a dim or an index (``index_add_``, ``scatter_add_``, ``cumsum_``...):
    its out-of-place form on the batched arguments, copied into ``self`` (``copy_``'s rule refuses a
    batched result for an unbatched ``self``, with torch's text)."""
    name, _, overload = op.name().partition("::")[2].partition(".")
    functional = aten(name[:-1] + ("." + overload if overload else ""))
    copy_ = aten("copy_")

    def rule(self, *args, **kwargs):
        _refuse_unbatched_self(op, name, self, args)
        return copy_(self, functional(self, *args, **kwargs))
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


def inplace_rule(op):
    """In-place pointwise ops: ``self`` must be batched wherever another operand is (torch's error
    otherwise), since one unbatched tensor cannot hold a different result per example."""
    name = op.name().split(".")[0]

    def rule(self, *args, **kwargs):
        level = _refuse_unbatched_self(op, name, self, args)
        rank = self._data.ndim
        for a in args:
            if isinstance(a, Tensor) and a._data.ndim > rank:
                raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                                   f"{list(a.shape)} ({name})")
        phys = _physical((self,) + args, level, ())
        op(*phys, **kwargs)
        return self
    rule.__qualname__ = f"batch_rule<{op.name()}>"
    return rule


# The batching rules of this module beyond those of every pointwise, in-place and ``*_like`` kind
# (``rules/__init__`` gives those by kind), by overload name.
RULES = {
    "where.self": lambda op: pointwise_rule(op, skip=(0,)),
    "where.ScalarOther": lambda op: pointwise_rule(op, skip=(0,)),
    "where.ScalarSelf": lambda op: pointwise_rule(op, skip=(0,)),
    "alias": unary_rule, "detach": unary_rule, "_to_copy": unary_rule,
}
