"""The stack of function-transform levels of this thread (functorch's interpreter stack).

Note [Transform levels]: every call of a transform of ``opyard.func`` (``vmap``,
``grad``/``vjp``/``jacrev``, ``jvp``/``jacfwd``) pushes one *level* on this
thread's stack for the duration of the call, and pops it on the way out,
exceptions included. A level is a small record: its kind, its number (unique in
the process and increasing, so the innermost active level has the largest
number and a tensor tagged with a finished level is never mistaken for one of a
later call) and what its kind needs:

- ``vmap`` (``func.batched.VmapLevel``): batch size and randomness. Its tensors
  are ``BatchedTensor`` wrappers tagged with the level; an operator meets them at
  the ``Batched`` key, whose rule unwraps the innermost level among the arguments
  and calls the operator again on the physical tensors, which reaches the next
  level out (Note [Batched tensor layout]).
- ``jvp`` (``JvpLevel``): a forward-AD level of the same number in
  ``forward_ad``: tangents live on the physical tensors, one per level, and an
  operator's autograd kernel pushes them level by level (Note [Forward AD
  levels]).
- ``grad`` (``GradLevel``): the grad mode outside the call (restored for what
  the transform hands back), the differentiated leaves and the inputs it was
  given (for torch's in-place checks), and the sequence number that tells graph
  nodes recorded inside the call from those recorded before.

The two autodiff kinds do not wrap tensors: they run on the one autograd tape
of physical tensors (the Rust engine, at full speed), which is also what gives
torch's semantics for ``no_grad`` and ``detach`` inside a transform (they act
on every level, as torch's do). A reverse level makes fresh leaves of its inputs
(aliases of them when an outer level differentiates them, so gradients flow
out) and takes ``autograd.grad`` of the outputs with respect to those leaves,
building a graph only when something outside the call is differentiated (Note
[Reverse levels] in ``func/transforms.py``). Levels interleave freely: each
kind keys its state by the level number, and an operator consults each kind's
state in level order.

The stack lives here, below ``opyard.func``, because the autograd layer asks
it questions (``requires_grad_`` and ``retain_grad`` refuse inside a transform,
``Function.apply`` takes its transform path). The hot paths never read it:
a vmap call pushes and pops its record and enters the thread's ``VmapMode``
guard, an autodiff call its ``ADInplaceOrView`` one, and the Rust side reads
only those thread-local keys (``Function.apply``'s general path, the
captured-tensor check of in-place operators, Note [Captured tensors]).

Moving the batched tensor into Rust keeps this shape: the stack becomes a
thread-local vector of the same records (kind, number, per-kind state: batch
size and randomness; grad mode, sequence and creation marks, leaves, inputs;
forward level), a batched tensor keeps its level number and physical tensor,
a batching rule unwraps the largest number among its arguments and redispatches
(the number is all it needs of the record: ``layer_of`` for the batch size), and
the Python transforms push and pop through two calls. Nothing else reads the
records' Python objects.
"""

import itertools
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)

__all__ = ["GRAD", "JVP", "NUMBERS", "VMAP", "GradLevel", "JvpLevel", "TransformLevel", "active", "innermost",
           "innermost_autodiff", "levels", "new_number", "pop", "push"]

VMAP = "vmap"
GRAD = "grad"
JVP = "jvp"


class TransformLevel:
    """One active transform call. Subclasses set ``kind`` and their own fields."""

    __slots__ = ("level",)
    kind = None
    # A vmap of ``autograd.functional(vectorize=True)`` (torch's legacy ``_vmap``): not a transform
    # of ``opyard.func`` for the rules of ``active()`` (requires_grad_, Function).
    legacy = False


class _AutodiffLevel(TransformLevel):
    """What both autodiff kinds keep: ``mark``, the sequence number of the first graph node recorded
    in the call; ``dead``, the leaves of the reverse levels that ran and ended inside it (their
    graph is the call's own, not something outside it); ``birth``, the count of tensors made when
    the call began, and ``inputs``, the storage roots of what it was given (a tensor it may modify
    in place is one of those or was made inside it: ``func/inplace.py``)."""

    __slots__ = ("birth", "dead", "inputs", "mark")

    def add_inputs(self, roots):
        self.inputs.extend(roots)

    def finish(self):
        """The call ends: its leaves become dead leaves of the enclosing autodiff level."""
        for outer in reversed(_tls.levels):
            if outer.kind is not VMAP:
                outer.dead.extend(self.dead)
                outer.dead.extend(getattr(self, "leaves", ()))
                return


class GradLevel(_AutodiffLevel):
    """A reverse-mode transform call (``grad``, ``vjp``, ``jacrev``): see the Note above."""

    __slots__ = ("prev_grad", "leaves")
    kind = GRAD

    def __init__(self, level, prev_grad, mark, birth):
        self.level = level
        self.prev_grad = prev_grad
        self.mark = mark
        self.birth = birth
        self.dead = []
        self.leaves = []
        self.inputs = []


class JvpLevel(_AutodiffLevel):
    """A forward-mode transform call (``jvp``, ``jacfwd``): its forward-AD level has its number."""

    __slots__ = ()
    kind = JVP

    def __init__(self, level, mark, birth):
        self.level = level
        self.mark = mark
        self.birth = birth
        self.dead = []
        self.inputs = []


class _Stack(_thread._local):
    def __init__(self):
        self.levels = []


_tls = _Stack()
# The level numbers (process-wide, increasing); ``next(NUMBERS)`` is a fresh one.
NUMBERS = itertools.count(1)


def new_number():
    """A fresh level number (process-wide, increasing)."""
    return next(NUMBERS)


def levels():
    """This thread's active levels, outermost first (the list itself: read, do not modify)."""
    return _tls.levels


def active():
    """True while a transform of ``opyard.func`` runs on this thread."""
    for level in _tls.levels:
        if not level.legacy:
            return True
    return False


def push(level):
    _tls.levels.append(level)
    return level


def pop(level):
    ls = _tls.levels
    if ls and ls[-1] is level:
        ls.pop()
    elif level in ls:  # an exception unwound inner levels out of order: drop everything from ``level`` in
        del ls[ls.index(level):]


def innermost_autodiff():
    """The innermost active ``grad`` or ``jvp`` level, or None."""
    for level in reversed(_tls.levels):
        if level.kind is not VMAP:
            return level
    return None


def innermost(kind):
    """The innermost active level of ``kind``, or None."""
    for level in reversed(_tls.levels):
        if level.kind is kind:
            return level
    return None

from .._exports import public_dir

__dir__ = public_dir(globals())
