"""Forward-mode AD: dual tensors carry a tangent through every operation.

Example::

    >>> import opyard.autograd.forward_ad as fwAD
    >>> x, v = opyard.randn(3), opyard.ones(3)
    >>> with fwAD.dual_level():
    ...     y = fwAD.make_dual(x, v).sin()
    ...     jvp = fwAD.unpack_dual(y).tangent   # == x.cos() * v

Note [Forward AD dispatch]: while a dual level is active, this thread
*includes* the autograd keys, so every operator call reaches its autograd
kernel (the derivative table's or the autograd fallback), which pushes the
tangents of its inputs through the op's forward formula. Outside a level no
call pays anything for forward AD. Under ``no_grad`` tangents still propagate
(as torch): see Note [Grad mode under forward AD] in ``grad_mode.py``.

Note [Forward AD levels]: ``dual_level()`` opens one level, as torch's (a
second one raises torch's "Nested forward mode AD is not supported"), but
``opyard.func.jvp`` nests: each call opens a level of its own (``push_level``),
numbered by the transform that owns it (see Note [Transform levels] in
``transform_levels.py``). A tensor keeps one tangent per level
(``_fw_grad`` is ``{level: tangent}``). An operator pushes tangents level by
level, *outermost first*, and computes a level's tangent with that level and
every level inside it hidden (``visible`` is then the next level out): the
formula's own operations carry the outer levels' tangents (so an outer ``jvp``
differentiates an inner one's tangent: ``jacfwd(jacfwd(f))``), never their own
(no perturbation confusion), and the output already has its outer tangents when
an inner level's formula reads it (``result``). A formula also records a
backward graph when one of its inputs requires grad, so reverse mode
differentiates tangents (``grad`` of a ``jvp``).

Views: the tangent of a view is the same view of its base's tangent; an
in-place operation writes its new tangent into the tangent the tensor already
has (or into the view of its base's tangent, made zero when the base had
none), so every view and its base stay consistent, as torch's.
"""

import itertools
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)
import weakref
from collections import namedtuple

from .. import _core
from ..dispatcher import AUTOGRAD_KEYS
from . import _tensor_meta as meta
from . import grad_mode as _grad_mode

__all__ = ["dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual",
           "UnpackedDualTensor"]


class _State:
    """The active forward-AD levels (outermost first) and the one visible to operators.

    ``level`` is the innermost *visible* level (None: no forward AD); the autograd
    kernels read only it to know whether to push tangents. ``tensors`` maps a
    level to weak references of the tensors that got a tangent in it (cleared
    when the level ends)."""

    def __init__(self):
        self.level = None
        self.levels = []
        self.tensors = {}
        self.user = False
        self.guard = None
        self.lock = _thread.allocate_lock()


_state = _State()
_user_levels = itertools.count()

UnpackedDualTensor = namedtuple("UnpackedDualTensor", ["primal", "tangent"])
UnpackedDualTensor.__doc__ = "What ``unpack_dual`` returns: the primal view and its tangent (or None)."

_NESTED = "Nested forward mode AD is not supported at the moment"


def _open(level):
    if not _state.levels:
        _core._set_forward_ad_active(True)  # Function kernels called from Rust take the general path
        _grad_mode.enter_forward_ad_level()
        _state.guard = _core._KeyGuard(include=AUTOGRAD_KEYS)
        _state.guard.__enter__()
    _state.levels.append(level)
    _state.tensors[level] = []
    _state.level = level


def _close(level):
    for ref in _state.tensors.pop(level, ()):
        t = ref()
        if t is not None:
            grads = t._fw_grad
            if grads is not None:
                grads.pop(level, None)
                if not grads:
                    t._fw_grad = None
    _state.levels.remove(level)
    _state.level = _state.levels[-1] if _state.levels else None
    if not _state.levels:
        _state.guard.__exit__(None, None, None)
        _state.guard = None
        _grad_mode.exit_forward_ad_level()
        _core._set_forward_ad_active(False)


def enter_dual_level():
    """Start the forward-AD level (only one level at a time); returns its index, 0."""
    with _state.lock:
        if _state.levels:
            raise RuntimeError(_NESTED)
        _state.user = True
        _open(0)
        return 0


def exit_dual_level(*, level=None):
    """End the level: every tangent set inside it is cleared."""
    with _state.lock:
        if not _state.user and level is None:
            raise RuntimeError("Dual level must be a positive number.")
        if not _state.user or (level is not None and level != 0):
            raise RuntimeError("Trying to exit a forward AD level that was not the last one that "
                               "was created. This is not supported.")
        _close(0)
        _state.user = False


class dual_level:
    """Context manager for a forward-AD level: ``with dual_level(): ...``."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False


def push_level(level):
    """Open forward level ``level`` for a ``jvp`` transform (they nest; a ``dual_level()`` does not
    mix with them, as torch's). See Note [Forward AD levels]."""
    with _state.lock:
        if _state.user:
            raise RuntimeError(_NESTED)
        _open(level)


def pop_level(level):
    """Close ``level`` (and clear its tangents), which ``push_level`` opened."""
    with _state.lock:
        _close(level)


class hidden:
    """Hide ``level`` and every level inside it while a tangent of ``level`` is computed
    (Note [Forward AD levels]); restores the visible level on exit."""

    __slots__ = ("level", "saved")

    def __init__(self, level):
        self.level = level

    def __enter__(self):
        self.saved = _state.level
        levels = _state.levels
        i = levels.index(self.level)
        _state.level = levels[i - 1] if i else None

    def __exit__(self, *exc):
        _state.level = self.saved
        return False


def visible_levels():
    """The levels an operator pushes tangents for, outermost first (Note [Forward AD levels])."""
    levels = _state.levels
    top = _state.level
    if top is None:
        return ()
    if levels[-1] == top:
        return levels
    return levels[:levels.index(top) + 1]


def _check_level(what):
    if _state.level is None:
        raise RuntimeError(f"Trying to {what} for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")


def tangent_at(t, level):
    """The tangent of ``t`` at ``level``, or ``None``; a view without one of its own reads the same
    view of its base's tangent."""
    grads = t._fw_grad
    if grads is not None:
        tangent = grads.get(level)
        if tangent is not None:
            return tangent
    base = t._base
    if base is not None:
        grads = base._fw_grad
        if grads is not None:
            base_tangent = grads.get(level)
            fn = meta.view_fn_of(t) if base_tangent is not None else None
            if fn is not None:
                with hidden(level):
                    if getattr(fn, "row_major", False) and not base_tangent.is_contiguous():
                        # The view's geometry is the replay: the base's tangent must be laid out as
                        # the base (torch gives a tangent its primal's layout).
                        base_tangent = base_tangent.contiguous()
                        _store(base, level, base_tangent)
                    tangent = fn(base_tangent)
                _store(t, level, tangent)
                return tangent
    return None


def _store(t, level, tangent):
    grads = t._fw_grad
    if grads is None:
        t._fw_grad = {level: tangent}
    else:
        grads[level] = tangent
    _state.tensors[level].append(weakref.ref(t))


def set_tangent(t, tangent, level=None):
    """Attach ``tangent`` to ``t`` at ``level`` (default: the visible one), for the op formulas."""
    _store(t, _state.level if level is None else level, tangent)


def set_inplace_tangent(t, tangent, level):
    """``t`` was modified in place and its new tangent is ``tangent``: write it into the tangent
    ``t`` (or its base) already has, so views stay views of their base's tangent."""
    current = tangent_at(t, level)
    if current is None:
        base = t._base
        if base is not None and meta.view_fn_of(t) is not None:
            with hidden(level):
                base_tangent = meta.zeros_like(base) if tangent.dtype == base.dtype else \
                    meta.zeros(meta.shape(base), tangent.dtype)
            _store(base, level, base_tangent)
            current = tangent_at(t, level)
    if current is None or current is tangent or meta.shape(current) != meta.shape(tangent):
        _store(t, level, tangent)
        return
    with hidden(level):
        current.copy_(tangent)


def get_tangent(t):
    """The tangent of ``t`` at the visible level, or ``None``."""
    level = _state.level
    if level is None or not meta.is_tensor(t):
        return None
    return tangent_at(t, level)


def make_dual(tensor, tangent, *, level=None):
    """A view of ``tensor`` carrying ``tangent`` (same shape) at the active level."""
    _check_level("create a dual Tensor")
    if not meta.is_tensor(tensor) or not meta.is_tensor(tangent):
        raise TypeError("make_dual: expected tensor and tangent to be Tensors, got "
                        f"{type(tensor).__name__} and {type(tangent).__name__}")
    if not meta.is_floating(tensor):
        raise ValueError(f"Expected primal to be floating point or complex, but got: "
                         f"{meta.dtype(tensor)}")
    if not meta.is_floating(tangent):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: "
                         f"{meta.dtype(tangent)}")
    if meta.shape(tensor) != meta.shape(tangent):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original "
            f"Tensor, this is not supported. Tensor is of size {list(meta.shape(tensor))} while the "
            f"given forward gradient is of size {list(meta.shape(tangent))}.")
    level = _state.level
    with hidden(level):  # the alias keeps the tangents of the outer levels
        dual = meta.differentiable_alias(tensor)
    _store(dual, level, tangent)
    return dual


def unpack_dual(tensor, *, level=None):
    """``(primal, tangent)`` of ``tensor``; ``tangent`` is None when it carries none."""
    if _state.level is None or not meta.is_tensor(tensor):
        return UnpackedDualTensor(tensor, None)
    level = _state.level
    tangent = tangent_at(tensor, level)
    if tangent is None:
        return UnpackedDualTensor(tensor, None)
    with hidden(level):
        primal = meta.differentiable_alias(tensor)
    return UnpackedDualTensor(primal, tangent)


# ``Function.apply`` runs above the ``Batched`` key, so its inputs and outputs may be batched
# tensors, whose tangents live on their physical tensors: ``opyard.func`` (a higher layer) reads and
# attaches them (``Hooks.batched_tangent(t, level)``, ``Hooks.set_batched_tangent(t, tangent,
# level)``; ``NotImplemented`` for a tensor that is not batched).


def _tangent_of(a, level):
    if meta.is_tensor(a):
        got = _core._hooks().batched_tangent(a, level)
        if got is not NotImplemented:
            return got
    return tangent_at(a, level) if meta.is_tensor(a) else None


def _attach(o, t, level):
    if _core._hooks().set_batched_tangent(o, t, level) is NotImplemented:
        _store(o, level, t)


class _JvpCtx:
    """The ctx ``jvp`` sees: ``saved_tensors`` are what ``save_for_forward`` saved (torch's), the rest
    is the Function's ctx."""

    __slots__ = ("_ctx",)

    def __init__(self, ctx):
        object.__setattr__(self, "_ctx", ctx)

    @property
    def saved_tensors(self):
        return tuple(self._ctx.saved_for_forward or ())

    def __getattr__(self, name):
        return getattr(self._ctx, name)

    def __setattr__(self, name, value):
        setattr(self._ctx, name, value)


def function_jvp(cls, ctx, args, output):
    """Run ``cls.jvp`` for an ``autograd.Function`` call with tangent inputs, once per visible level
    that has one (outermost first, Note [Forward AD levels])."""
    for level in visible_levels():
        tangents = [_tangent_of(a, level) for a in args]
        if all(t is None for t in tangents):
            continue
        with hidden(level):
            _function_jvp_at(cls, ctx, args, output, tangents, level)


def _function_jvp_at(cls, ctx, args, output, tangents, level):
    if ctx.materialize_grads:
        tangents = [meta.zeros_like(a) if t is None and meta.is_tensor(a) else t
                    for a, t in zip(args, tangents)]
    out_tangents = cls.jvp(_JvpCtx(ctx), *tangents)
    outs = output if isinstance(output, tuple) else (output,)
    if not isinstance(out_tangents, tuple):
        out_tangents = (out_tangents,)
    if len(out_tangents) != len(outs):
        raise RuntimeError(f"{cls.__name__}.jvp returned an incorrect number of forward gradients "
                           f"(expected {len(outs)}, got {len(out_tangents)})")
    for o, t in zip(outs, out_tangents):
        if t is not None and meta.is_tensor(o):
            if meta.shape(t) != meta.shape(o):
                raise RuntimeError(
                    f"{cls.__name__}.jvp returned a tangent of size {list(meta.shape(t))} for an "
                    f"output of size {list(meta.shape(o))}")
            _attach(o, t, level)

from .._exports import public_dir

__dir__ = public_dir(globals())
