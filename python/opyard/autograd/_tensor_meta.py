"""The tensor facts autograd reads and writes, in one place.

Note [Tensor autograd fields]: ``opyard.Tensor`` carries its autograd state
in fields of ``_core.TensorBase`` (struct members that read and write like
``__slots__``; see Note [Tensor slots]), used by this package: ``_grad_fn`` and
``_output_nr`` (history), ``_grad_accumulator`` (weak ref to the leaf's
``AccumulateGrad``), ``_backward_hooks`` / ``_post_accumulate_hooks``,
``_fw_grad`` (forward-AD tangent), and ``grad``. ``requires_grad`` is the
``Autograd<backend>`` bit of the tensor's dispatch key set (DESIGN), which
is what routes its calls to the autograd kernels.
"""

import re
import sys
import weakref

import numpy as np

from .. import _core, _factories
from .._ops import ops
from .._keys import AUTOGRAD_OF_BACKEND
from ..dispatcher import AUTOGRAD_KEYS, DispatchKey

_TensorBase = _core.TensorBase

# Backend key bit -> its Autograd<backend> bit, in priority order (the core's table: every backend).
_AUTOGRAD_OF = {1 << int(backend): 1 << int(ag) for backend, ag in AUTOGRAD_OF_BACKEND.items()}
_AUTOGRAD_MASK = 0
for _bit in _AUTOGRAD_OF.values():
    _AUTOGRAD_MASK |= _bit
_AUTOGRAD_MASK |= 1 << int(DispatchKey.AutogradOther)
AUTOGRAD_MASK = _AUTOGRAD_MASK
def is_tensor(x):
    return isinstance(x, _TensorBase)


def requires_grad(t):
    return (t._keyset & _AUTOGRAD_MASK) != 0


_bit_cache = {}


def autograd_bit(keyset):
    """The ``Autograd<backend>`` bit matching the backend bits of ``keyset`` (cached)."""
    bit = _bit_cache.get(keyset)
    if bit is None:
        bit = _bit_cache[keyset] = _compute_autograd_bit(keyset)
    return bit


def _compute_autograd_bit(keyset):
    bit = 0
    for backend, ag in _AUTOGRAD_OF.items():
        if keyset & backend:
            bit = ag  # the highest backend wins, as in dispatch
    return bit or (1 << int(DispatchKey.AutogradOther))


def set_requires_grad_bit(t, flag):
    ks = t._keyset
    if flag:
        if not ks & _AUTOGRAD_MASK:
            t._keyset = ks | autograd_bit(ks)
    elif ks & _AUTOGRAD_MASK:
        t._keyset = ks & ~_AUTOGRAD_MASK


def shape(t):
    return tuple(t.shape)


def numel(t):
    n = 1
    for s in t.shape:
        n *= s
    return n


def dtype(t):
    return t.dtype


def dtype_name(t):
    return str(t.dtype).replace("opyard.", "")


def is_floating(t):
    return t.dtype.is_floating_point or getattr(t.dtype, "is_complex", False)


is_differentiable_dtype = is_floating


def version(t):
    return t._version


def type_string(t):
    """torch's legacy type name, e.g. ``opyard.FloatTensor``."""
    return t.type() if hasattr(t, "type") else f"opyard.{type(t).__name__}"


def size_repr(t):
    return f"opyard.Size({list(shape(t))})"


def add(a, b):
    """``a + b`` for two tensors, through the overload directly.

    Note [Explicit overloads]: the ``add`` packet (``a + b``) tries ``add.Scalar``
    first and builds an error message with ``repr`` of the tensor before it falls
    back to ``add.Tensor``, which costs ~50 us; autograd's own arithmetic names
    the overload.
    """
    return ops.aten.add.Tensor(a, b)


def _add_(a, b):
    return ops.aten.add_.Tensor(a, b)


def _below_autograd():
    return _core._KeyGuard(exclude=AUTOGRAD_KEYS)


def ones_like(t):
    with _below_autograd():
        return ops.aten.ones_like.default(t)


def zeros_like(t):
    with _below_autograd():
        return ops.aten.zeros_like.default(t)


def zeros(shape, dtype):
    return _factories.zeros(*shape, dtype=dtype) if shape else _factories.zeros((), dtype=dtype)


def to_numpy(t):
    return t.detach().numpy()


def from_numpy(arr, like=None, requires_grad=False):
    """A new tensor holding a copy of ``arr`` (in ``like``'s dtype when given)."""
    t = (_factories.tensor(np.array(arr), dtype=like.dtype) if like is not None
         else _factories.tensor(np.array(arr)))
    if requires_grad:
        t.requires_grad = True
    return t


def alias(t):
    """A new tensor object on the same data, without history (an input returned by forward)."""
    return t.detach()


def differentiable_alias(t):
    """A new tensor object on the same data whose gradient flows to ``t`` (``aten::alias``)."""
    return ops.aten.alias.default(t)


def accumulate_grad(var, g):
    """Add ``g`` into ``var.grad`` (torch's AccumulateGrad rules)."""
    cur = var._grad  # not .grad: no non-leaf warning for backward(inputs=[y])
    if g.dtype != var.dtype:  # torch's validate_outputs casts to the input's dtype
        g = ops.aten._to_copy.default(g, dtype=var.dtype)
    if _core._is_excluded(AUTOGRAD_KEYS):
        if cur is None:
            # Steal the gradient when nothing else can see it (torch: use_count check):
            # 3 references = the caller's local, this parameter, getrefcount's argument.
            # Views (e.g. an expanded ones) are copied so that .grad owns its memory.
            fresh = sys.getrefcount(g) <= 3 and getattr(g, "_base", None) is None
            var.grad = g if fresh else g.clone()
        else:
            _add_(cur, g)
    else:
        var.grad = g.clone() if cur is None and not requires_grad(g) else (g if cur is None else add(cur, g))


def retain_grad_update(t, g):
    """``retain_grad``: the non-leaf's ``.grad`` gets (a copy of) the incoming gradient."""
    cur = t.grad
    with _below_autograd() if not requires_grad(g) else _Null():
        t.grad = g.clone() if cur is None else add(cur, g)


class _Null:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False




def rebase_history(t, node, output_nr):
    """An in-place op made ``t`` output ``output_nr`` of ``node`` (views: see ``views.py``)."""
    if t._base is not None and view_fn_of(t) is not None:
        # ``views.rebase_view_history`` (``Hooks.rebase_view_history``: views builds on this module
        # and on ``graph``, which imports this one): an in-place op on a view rewrites its history.
        _core._hooks().rebase_view_history(t, node, output_nr)
        return
    _set_plain_history(t, node, output_nr)


def view_fn_of(t):
    """How to rebuild view ``t`` from its base (None when ``t`` is no view, or cannot say).

    A view made while nothing recorded (its base did not require grad, no forward AD) has no
    replay of its own: its geometry in the base's memory is the replay (torch's as_strided
    view_fn), when the base is laid out row-major as the gradient and tangent buffers the replay
    runs on are."""
    fn = t._view_fn
    if fn is not None:
        return fn
    base = t._base
    if base is None or not base.is_contiguous() or not is_differentiable_dtype(t):
        return None
    sizes, strides, offset = tuple(t.shape), t.stride(), t.storage_offset()
    fn = t._view_fn = lambda b: ops.aten.as_strided.default(b, sizes, strides, offset)
    fn.row_major = True  # replays only on a row-major buffer (forward_ad.tangent_at makes one)
    return fn


def _set_plain_history(t, node, output_nr):
    move_retains_grad(t, node, output_nr)
    t._grad_fn = node
    t._output_nr = output_nr
    set_requires_grad_bit(t, True)


def short_node_name(name):
    """``ExpBackward0`` -> ``Exp``, ``FnBackward`` -> ``Fn``: how torch's messages name a node."""
    return re.sub(r"Backward\d*$", "", name)


def move_retains_grad(t, node, output_nr):
    """``t.retain_grad()`` follows ``t`` to its new ``grad_fn`` after an in-place op, so ``.grad``
    is the gradient of the new version (torch moves its retains_grad hook the same way)."""
    if not t._retains_grad:
        return
    old = t._grad_fn
    if old is not None and old._retains_grad_hooks:
        old._retains_grad_hooks.pop(t._output_nr, None)
    hooks = node._retains_grad_hooks
    if hooks is None:
        hooks = node._retains_grad_hooks = {}
    hooks[output_nr] = weakref.ref(t)


def check_inplace(t):
    """torch's checks before ``t`` is modified in place while grad mode is on."""
    if t._view_meta is not None:  # a view made in no_grad mode or by a multi-output op refuses
        err = view_refusal(t, direct=True)
        if err is not None:
            raise err
    fn = t._grad_fn
    if (fn is not None and getattr(fn, "_forward_cls", None) is not None
            and getattr(t, "_base", None) is not None and not any(d is t for d in fn._dirty)):
        # A view output of a custom Function (checked here, not in apply: apply is hot).
        raise RuntimeError(
            f"Output {t._output_nr} of {short_node_name(fn.name())} is a view and is being modified "
            "inplace. This view was created inside a "
            "custom Function (or because an input was returned as-is) and the autograd logic to "
            "handle view+inplace would override the custom backward associated with the custom "
            "Function, leading to incorrect gradients. This behavior is forbidden. You can fix this "
            "by cloning the output of the custom Function.")
    if t._grad_fn is None and requires_grad(t):
        base = getattr(t, "_base", None)
        if base is not None:
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                               "in-place operation.")
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = getattr(t, "_base", None)
    if base is not None and base._grad_fn is None and requires_grad(base):
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an "
                           "in-place operation.")


# The kinds of ``_view_meta = version << 2 | kind`` (See Note [View history] in
# src/python/autograd/view_history.rs).
VIEW_DEFAULT, VIEW_NO_GRAD, VIEW_MULTI_OUTPUT = 0, 1, 2

_NO_GRAD_ADVICE = ("with grad mode enabled. Given that this use case is ambiguous and error-prone, it is "
                   "forbidden. You can clarify your code by moving both the view and the inplace either both "
                   "inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if "
                   "you want the inplace to be tracked).")
_MULTI_OUTPUT_ADVICE = ("This view is the output of a function that returns multiple views. Such functions do "
                        "not allow the output views to be modified inplace. You should replace the inplace "
                        "operation by an out-of-place one.")


def view_refusal(view, direct):
    """torch's error for view ``view`` made in no_grad mode or by a multi-output op, being modified in
    place (``direct``) or after its base or another view of it was; None for other views."""
    meta_ = view._view_meta
    kind = meta_ & 3 if meta_ is not None else VIEW_DEFAULT
    if kind == VIEW_DEFAULT:
        return None
    what = ("is being modified inplace" if direct
            else "its base or another view of its base has been modified inplace")
    fn = view._grad_fn
    if kind == VIEW_MULTI_OUTPUT:
        return RuntimeError(f"Output {view._output_nr} of {short_node_name(fn.name())} is a view and {what}. "
                            f"{_MULTI_OUTPUT_ADVICE}")
    if fn is not None and getattr(fn, "_forward_cls", None) is not None:
        # Made while nothing recorded, then given a history of its own (an output of a custom
        # Function, which has its own check): no view for autograd.
        return None
    if fn is not None:  # recorded as a view of a view made in no_grad mode
        return RuntimeError(f"Output {view._output_nr} of {short_node_name(fn.name())} is a view of a view which "
                            f"was created in no_grad mode and {what} {_NO_GRAD_ADVICE}")
    if not requires_grad(view._base):
        return None
    return RuntimeError(f"A view was created in no_grad mode and {what} {_NO_GRAD_ADVICE}")



def can_sum_to(shape_from, shape_to):
    """True when ``shape_to`` broadcasts to ``shape_from`` (so a gradient can be summed back)."""
    if len(shape_to) > len(shape_from):
        return False
    lead = len(shape_from) - len(shape_to)
    return all(t == 1 or t == f for f, t in zip(shape_from[lead:], shape_to))


def sum_to(g, target):
    """Sum ``g`` over the broadcast dimensions so that it has shape ``target``."""
    target = tuple(target)
    gshape = shape(g)
    lead = len(gshape) - len(target)
    dims = list(range(lead)) + [lead + i for i, t in enumerate(target) if t == 1 and gshape[lead + i] != 1]
    if dims:
        g = ops.aten.sum.dim_IntList(g, dims, True)
    if lead:
        g = ops.aten.reshape.default(g, list(target))
    return g
