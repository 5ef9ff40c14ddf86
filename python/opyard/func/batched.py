"""``BatchedTensor``: one example's view of a batch, carried by the ``Batched`` key.

Note [Batched tensor layout]: inside ``vmap`` each mapped input becomes a
``BatchedTensor`` over a *physical* tensor ``_value`` whose batch dimension is
dimension 0 (moved there once, on entry), tagged with the ``_level`` of the
vmap that made it. Its ``_keyset`` is the physical key set plus ``Batched``,
so every operator on it reaches a ``Batched`` kernel (a batching rule) before
autograd or a backend. ``_data`` is ``_value._data[0]``: a numpy view with the
*logical* shape, dtype and strides, so the metadata accessors of ``Tensor``
(``shape``, ``dim``, ``stride``, ``dtype``, type promotion over 0-dim tensors)
answer for the logical tensor at no cost. Kernels never see a batched tensor
(rules unwrap first), and the data accessors below refuse, as torch's do.

Nested vmaps nest wrappers: the physical tensor of a level-2 tensor may itself
be a level-1 ``BatchedTensor``. A rule unwraps only the innermost level of its
call; running the op on the physical tensors re-enters the ``Batched`` kernel
for the next level out, until only plain tensors remain.
"""

import threading

import numpy as np

from .. import _core
from .._function_protocol import _disabled_torch_function_impl, register_plain_tensor_type
from .._ops import resolve
from .._tensor import CPU, Tensor
from ..autograd import transform_levels as _levels
from ..autograd.tensor_methods import IN_TRANSFORM
from ..autograd.transform_levels import GRAD, VMAP, TransformLevel
from ..dispatcher import DispatchKey, DispatchKeySet

__all__ = ["debug_unwrap", 
    "BATCHED_BIT",
    "BatchedTensor",
    "LegacyVmapLevel",
    "VmapLevel",
    "current_layer",
    "is_batched",
    "layers",
    "pop_layer",
    "push_layer",
    "wrap",
    "wrap_general",
]

BATCHED_BIT = DispatchKeySet(DispatchKey.Batched).raw()
_permute = resolve("aten::permute")
_new = _core.TensorBase.__new__


class BatchedTensor(Tensor):
    """A logical tensor inside ``vmap``: ``_value`` holds every example along dimension 0."""

    # ``_value`` (the physical tensor) and ``_level`` are fields of ``TensorBase`` (Note [Batched
    # tensors in Rust], src/python/batched/mod.rs): Rust makes and reads batched tensors directly.
    __slots__ = ()
    # Internal to vmap, as FakeTensor to fake mode: plain to ``__torch_function__`` (torch's
    # BatchedTensor is a C++ TensorImpl the protocol never sees).
    __torch_function__ = _disabled_torch_function_impl

    def __repr__(self):
        return f"BatchedTensor(lvl={self._level}, bdim=0, value=\n    {self._value!r}\n)"

    def item(self):
        raise RuntimeError(
            "vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over calling "
            ".item() on a Tensor, please try to rewrite what you're doing with other operations. If error is "
            "occurring somewhere inside opyard internals, please file a bug report.")

    def __bool__(self):
        raise RuntimeError(
            "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow. "
            "We don't support that yet, please rewrite it without branching on tensor values "
            "(for example with opyard.where).")

    def _no_data(self, what):
        # torch's text (its batched tensor has no storage of its own) for every read of the data.
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def numpy(self, force=False):
        self._no_data("numpy")

    def tolist(self):
        self._no_data("tolist")

    def __array__(self, dtype=None, copy=None):
        self._no_data("__array__")

    def __float__(self):
        self.item()

    __int__ = __index__ = __complex__ = __float__

    def __iter__(self):
        n = self.shape[0] if self.dim() else 0
        if not self.dim():
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(n))

    def _physical(self):
        """The plain tensor under every level of batching (where autograd records)."""
        t = self._value
        while t.__class__ is BatchedTensor:
            t = t._value
        return t

    def _adopt_view(self, out):
        """An in-place view op (``squeeze_``...): this batched tensor becomes ``out``, the view the
        out-of-place op made (its rule ran on the physical tensor)."""
        self._value = out._value
        self._data = out._data
        self._keyset = out._keyset

    @property
    def data(self):
        raise RuntimeError("accessing `data` under vmap transform is not allowed")

    @data.setter
    def data(self, other):
        raise RuntimeError("mutating directly with `.data` under vmap transform is not allowed.")

    @property
    def requires_grad(self):
        # As torch's: inside vmap a tensor has a history only at a reverse level inside this vmap
        # (``vmap(grad(f))``); the graph of the physical tensor belongs to the levels outside.
        if not self._value.requires_grad:
            return False
        for lv in _stack.levels:
            if lv.kind is GRAD and lv.level > self._level or lv.level == self._level and lv.legacy:
                return True  # (torch's legacy vmap of autograd.functional keeps the flag)
        return False

    @requires_grad.setter
    def requires_grad(self, flag):
        # torch sets the flag on its batched wrapper, which vmap drops on the way out: the physical
        # tensor (the caller's) is left alone, and so is it here.
        if not isinstance(flag, bool):
            raise TypeError(f"requires_grad must be a bool, got {type(flag).__name__}")

    def requires_grad_(self, requires_grad=True):
        if _levels.active():
            raise RuntimeError(IN_TRANSFORM)
        # Inside autograd.functional's vectorized pass only (torch's legacy vmap): the physical tensor.
        self._value.requires_grad_(requires_grad)
        self._keyset = self._value._keyset | BATCHED_BIT
        return self


register_plain_tensor_type(BatchedTensor)


def wrap_general(value, level):
    """A ``BatchedTensor`` at ``level`` over ``value`` (batch dimension 0): ``wrap``'s general path."""
    t = _new(BatchedTensor)
    t._value = value
    t._level = level
    d = value._data
    try:
        t._data = d[0]
    except IndexError:  # an empty batch: the logical metadata still comes from a (0-size) array
        t._data = np.empty(d.shape[1:], d.dtype)
    t._keyset = value._keyset | BATCHED_BIT
    if value._dev is not CPU:
        t._dev = value._dev
    return t


# The fast constructor: ``_core._wrap_batched`` (one call, the logical view made through numpy's C
# API), which hands an empty batch or non-numpy storage to ``wrap_general``; ``wrap_general`` itself
# with the fast paths off (Note [Fast paths and general paths]).
wrap = _core._wrap_batched if _core.FAST_PATHS else wrap_general


def move_dim(t, src, dst):
    """``t`` with dim ``src`` moved to ``dst`` (a ``permute``: differentiable, a view)."""
    n = t.dim()
    if not -n <= src < n or not -n <= dst < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got "
                         f"{src if not -n <= src < n else dst})")
    src, dst = src % n, dst % n
    if src == dst:
        return t
    order = [d for d in range(n) if d != src]
    order.insert(dst, src)
    return _permute(t, order)


def is_batched(x):
    return x.__class__ is BatchedTensor


# --- the vmap levels of this thread ---------------------------------------------------------------
class VmapLevel(TransformLevel):
    """One active ``vmap``: its level, batch size and randomness mode (see Note [Transform levels])."""

    __slots__ = ("batch_size", "info", "name", "randomness")
    kind = VMAP

    def __init__(self, level, batch_size, randomness, name):
        self.info = None  # the VmapInfo given to register_vmap rules, made on first use
        self.level = level
        self.batch_size = batch_size
        self.randomness = randomness
        self.name = name


class LegacyVmapLevel(VmapLevel):
    """The vmap ``autograd.functional`` vectorizes with (torch's legacy ``_vmap``): batching as any
    vmap, but not a transform for ``requires_grad_`` and ``Function``'s rules."""

    __slots__ = ()
    legacy = True


Layer = VmapLevel
_VMAP_MODE = DispatchKeySet(DispatchKey.VmapMode)


class _State(threading.local):
    def __init__(self):
        # The guard that includes ``VmapMode`` for a vmap call: one per thread, reused (it keeps a
        # stack of the key sets it replaced, so nested vmaps may enter it again), as making one
        # costs as much as entering it.
        self.vmap_mode = _core._KeyGuard(include=_VMAP_MODE)


_state = _State()
# This thread's transform levels (all kinds, outermost first): ``_stack.levels``.
_stack = _levels._tls


def layers():
    """The active vmap levels of this thread, outermost first."""
    return [lv for lv in _stack.levels if lv.kind is VMAP]


def current_layer():
    """The innermost active vmap level, or None."""
    for lv in reversed(_stack.levels):
        if lv.kind is VMAP:
            return lv
    return None


def layer_of(level):
    for lv in _stack.levels:
        if lv.level == level:
            return lv
    raise RuntimeError(
        f"vmap: a BatchedTensor of level {level} was used outside the vmap that created it; a tensor "
        "created inside a vmapped function must be returned from it, not stored and used later")


# Levels are unique per transform call, not depths: a batched tensor that escaped an earlier vmap
# is never taken for a batch of the current one (rules then fail loudly: see ``layer_of``). They
# increase with nesting, so the innermost active level is always the largest.
_level_numbers = _levels.NUMBERS  # ``next()`` of it inline: vmap pays a level on every call


def push_layer(batch_size, randomness, name, cls=VmapLevel):
    ls = _stack.levels
    # One call of the class (its __init__ stores the slots): cheaper than __new__ and five setattrs.
    layer = cls(next(_level_numbers), batch_size, randomness, name)
    ls.append(layer)
    return layer


def pop_layer(layer):
    _levels.pop(layer)


def debug_unwrap(tensor, *, recurse=True):
    """The tensor a ``vmap`` batched tensor wraps (its physical tensor, the batch dim included; all levels
    with ``recurse``), ``tensor`` itself when it is not batched (torch.func's). Grad transforms add no
    wrapper here (their leaves are tensors of their own), so they have nothing to unwrap.

    For debugging only: using the result inside the transformed function is undefined, as in torch."""
    while tensor.__class__ is BatchedTensor:
        tensor = tensor._value
        if not recurse:
            break
    return tensor

from .._exports import public_dir

__dir__ = public_dir(globals())
