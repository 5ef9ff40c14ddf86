"""In-place operations inside ``grad``/``vjp``/``jvp`` calls: torch's refusal to mutate a captured tensor.

Note [Captured tensors]: a function under an autodiff transform may modify in
place what it was given (differentiated or not, and views of those) and what
it made, but not a tensor it captured from outside the call: torch refuses
("... would mutate a captured Tensor"), since the change would leak the
transform's values into a tensor of the caller. While an autodiff level is
active its call includes ``ADInplaceOrView`` on the thread; every in-place
aten operator (``op_(Tensor(a!) self, ...) -> Tensor(a!)``) has a kernel there
that checks ``self``'s storage root: made inside the innermost autodiff call
(its ``_birth`` is not below the call's count, Note [Transform levels]) or one
of the call's inputs (their physical tensors' roots). Every other operator
falls through that key, so the check costs nothing else; batched tensors reach
it through their batching rules, on their physical tensors.
"""

import threading

from .. import _core
from .._aten import OP_TABLE
from .._provenance import caller_site
from .._tensor import Tensor
from ..autograd import transform_levels as levels
from ..dispatcher import DispatchKey, DispatchKeySet
from .._ops import resolve
from ..utils._pytree import tree_flatten
from .batched import BatchedTensor

__all__ = ["ADINPLACE", "check_before_vmap", "inplace_guard", "input_roots", "install"]

ADINPLACE = DispatchKeySet(DispatchKey.ADInplaceOrView)
_SITE = caller_site()


class _Guards(threading.local):
    def __init__(self):
        # Reused: a guard keeps a stack of what it replaced, so nested calls may enter it again.
        self.inplace = _core._KeyGuard(include=ADINPLACE)


_guards = _Guards()


def inplace_guard():
    """This thread's guard including ``ADInplaceOrView`` for an autodiff call (Note [Captured tensors])."""
    return _guards.inplace


def _root(t):
    while t.__class__ is BatchedTensor:
        t = t._value
    base = t._base
    return base if base is not None else t


def input_roots(args, kwargs=None):
    """The storage roots of the tensors in ``args`` and ``kwargs`` (a transform's inputs, in any
    structure, batched ones unwrapped)."""
    out = []
    for a in args:
        if isinstance(a, Tensor):
            while a.__class__ is BatchedTensor:
                a = a._value
            base = a._base
            out.append(base if base is not None else a)
        elif a.__class__ in _CONTAINERS or isinstance(a, (tuple, list, dict)):
            out.extend(_root(x) for x in tree_flatten(a)[0] if isinstance(x, Tensor))
    if kwargs:
        out.extend(input_roots(kwargs.values()))
    return out


_CONTAINERS = (tuple, list, dict)


def _check(lv, t, name):
    root = _root(t)
    if root._birth >= lv.birth:
        return
    for r in lv.inputs:
        if r is root:
            return
    raise RuntimeError(f"During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to call "
                       f"in-place operation ({name}) that would mutate a captured Tensor. This is not supported; "
                       "please rewrite the function being transformed to explicitly accept the mutated Tensor(s) "
                       "as inputs.")


def check_before_vmap(self, level, name):
    """An in-place op's batching rule is about to refuse (``self`` not batched at ``level``): torch
    meets an autodiff call running inside that vmap first, whose captured-tensor check then speaks."""
    lv = levels.innermost_autodiff()
    if lv is not None and lv.level > level and isinstance(self, Tensor):
        _check(lv, self, name)


def _is_inplace(schema):
    """torch's ``isInplaceOp``: writes its first argument and returns it, aliasing nothing else."""
    args, rets = schema.arguments, schema.returns
    if not args or len(rets) != 1:
        return False
    first = args[0].alias_info
    if first is None or not first.is_write:
        return False
    if any(a.alias_info is not None for a in args[1:]):
        return False
    return rets[0].alias_info is not None and rets[0].alias_info.is_write


def _kernel(op):
    name = op.name()

    def kernel(keyset, self, *args, **kwargs):
        lv = levels.innermost_autodiff()
        if lv is not None and isinstance(self, Tensor):
            _check(lv, self, name)
        return op.redispatch(keyset - ADINPLACE, self, *args, **kwargs)
    kernel.__qualname__ = f"captured_check<{name}>"
    return kernel


def install():
    lib = _core._new_library("aten", "IMPL", None, _SITE)
    for name, *_ in OP_TABLE:
        op = resolve("aten::" + name)
        if _is_inplace(op._schema):
            _core._impl(lib, name, "ADInplaceOrView", _kernel(op), with_keyset=True, fallthrough=False,
                        allow_override=True, provenance=_SITE)
    return lib


_LIB = install()

from .._exports import public_dir

__dir__ = public_dir(globals())
