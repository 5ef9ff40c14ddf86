"""Batching rules of factories (``new_*``), indexing ops (``index_select``, ``gather``, ``scatter``,
``index``, ``masked_fill``), ``einsum``, ``numel``, ops vmap refuses, and random ops.

Random ops consult the randomness mode of the vmap (torch's ``randomness=``):
"error" raises at the ``VmapMode`` key (which every call inside vmap carries),
"different" draws one sample per example, "same" draws one sample for all.
"""

import functools

from ... import _core
from ..._aten.common import Tensor
from ...dispatcher import DispatchKey, DispatchKeySet
from ..batched import BatchedTensor, current_layer, layers, wrap
from .common import aten, filled, level_of, materialize, pad_to, shift_dim
from .fallback import loop_fallback

__all__ = [
    "RANDOM_OPS",
    "RULES",
    "einsum_rule",
    "gather_rule",
    "index_put_rule",
    "index_rule",
    "index_select_rule",
    "masked_fill_rule",
    "matrix_rule",
    "new_rule",
    "numel_rule",
    "random_inplace_rule",
    "random_like_rule",
    "refuse_rule",
    "scatter_rule",
    "view_scatter_rule",
    "vmap_mode_kernel",
]

_select = aten("select.int")
_to_copy = aten("_to_copy")
_where = aten("where.self")
_full_like = aten("full_like")
_copy_ = aten("copy_")
_empty_like = aten("empty_like")


def new_rule(op):
    """``new_zeros(x, size)`` & co.: a batched tensor of logical ``size`` (so it can be written in place
    with batched values later, as torch's rule does)."""
    def rule(self, size, *args, **kwargs):
        value = self._value
        return wrap(op(value, (value.shape[0],) + tuple(size), *args, **kwargs), self._level)
    return rule


def numel_rule(op):
    def rule(self):
        return self._data.size
    return rule


def matrix_rule(op):
    """``triu`` / ``tril``: the op reads the last two dims, which batching leaves in place."""
    def rule(self, *args):
        if self._data.ndim < 2:
            raise RuntimeError(f"{op.name().split('::')[1]}: input tensor must have at least 2 dimensions")
        return wrap(op(self._value, *args), self._level)
    return rule


_REFUSED = {
    "aten::nonzero": "vmap: We do not support batching operators that can output dynamic shape. Attempted to vmap "
                     "over aten::nonzero. Compute with a mask instead (opyard.where), or call it outside vmap.",
    "aten::allclose": "vmap over opyard.allclose isn't supported yet: it returns a Python bool for the whole "
                      "tensor; compare with opyard.isclose(...) and reduce with .all() instead.",
}


def refuse_rule(op):
    message = _REFUSED[op.name()]

    def rule(*args, **kwargs):
        raise RuntimeError(message)
    return rule


def _both(a, b, level):
    """Physical (a, b) at ``level``, unbatched ones expanded to the batch."""
    pa = a._value if a.__class__ is BatchedTensor and a._level == level else materialize(a, level)
    pb = b._value if b.__class__ is BatchedTensor and b._level == level else materialize(b, level)
    return pa, pb


def gather_rule(op):
    def rule(self, dim, index, **kwargs):
        level = level_of((self, index))
        pself, pindex = _both(self, index, level)
        return wrap(op(pself, shift_dim(dim, self._data.ndim, "gather"), pindex, **kwargs), level)
    return rule


def scatter_rule(op, inplace=False):
    """``scatter`` / ``scatter_add`` (``src`` a tensor or a number); in place only into a batched ``self``."""
    def rule(self, dim, index, src, **kwargs):
        level = level_of((self, index, src))
        if inplace and not (self.__class__ is BatchedTensor and self._level == level):
            raise RuntimeError(f"vmap: {op.name()}(self, *extra_args) is not possible because `self` is not "
                               "vmapped over while `index` or `src` is. Please try to use out-of-place operators "
                               f"instead of {op.name()}.")
        pself, pindex = _both(self, index, level)
        if isinstance(src, Tensor):
            src = src._value if src.__class__ is BatchedTensor and src._level == level else materialize(src, level)
        out = op(pself, shift_dim(dim, self._data.ndim, "scatter"), pindex, src, **kwargs)
        return self if inplace else wrap(out, level)
    return rule


def view_scatter_rule(dim_names):
    """``slice_scatter`` / ``select_scatter`` / ``diagonal_scatter``: ``self`` and ``src`` batch first
    (an unbatched one expanded), the dims named ``dim_names`` moved past the batch dim: one call."""
    def factory(op):
        names = [a.name for a in op._schema.arguments]
        positions = [names.index(n) for n in dim_names]

        def rule(self, src, *args, **kwargs):
            level = level_of((self, src))
            pself, psrc = _both(self, src, level)
            full = filled((self, src) + args, max(positions), op) if not kwargs else [self, src, *args]
            for name, i in zip(dim_names, positions):
                if name in kwargs:
                    kwargs[name] = shift_dim(kwargs[name], self.dim(), op.name())
                elif i < len(full):
                    full[i] = shift_dim(full[i], self.dim(), op.name())
            return wrap(op(pself, psrc, *full[2:], **kwargs), level)
        return rule
    return factory


def index_select_rule(op):
    """``index_select``: a shared index is one physical call; per-example indices become a ``gather``."""
    gather = aten("gather")

    def rule(self, dim, index):
        level = level_of((self, index))
        ndim = self._data.ndim
        d = shift_dim(dim, ndim, "index_select")
        if not (index.__class__ is BatchedTensor and index._level == level):
            return wrap(op(self._value, d, index), level)
        pself = self._value if self.__class__ is BatchedTensor and self._level == level else materialize(self, level)
        pindex = index._value.reshape((index._value.shape[0], -1))
        shape = list(pself.shape)
        k = pindex.shape[1]
        view = [shape[0]] + [1] * ndim
        view[d] = k
        shape[d] = k
        return wrap(gather(pself, d, pindex.reshape(view).expand(shape)), level)
    return rule


_BOOL_MASK = ("vmap: We do not support batching operators that can support dynamic shape. Attempting to batch "
              "over indexing with a boolean mask.")


def _refuse_batched_masks(indices, level):
    """torch's refusal of a per-example boolean mask (each example would select another count)."""
    for i in indices:
        if i is not None and i.__class__ is BatchedTensor and i._level == level and i._data.dtype.kind == "b":
            raise RuntimeError(_BOOL_MASK)


def index_rule(op):
    """``x[idx]`` with tensor indices: a batched ``x`` and shared, adjacent indices is one call."""
    def rule(self, indices):
        level = level_of((self, indices))
        _refuse_batched_masks(indices, level)
        shared = not any(i.__class__ is BatchedTensor and i._level == level for i in indices if i is not None)
        if shared and _adjacent(indices) and self.__class__ is BatchedTensor and self._level == level:
            return wrap(op(self._value, [None] + list(indices)), level)
        return loop_fallback(op, self, indices)
    return rule


def _adjacent(indices):
    """Whether the tensor indices are consecutive: numpy then keeps their result dims in place, after
    the leading batch dim (separated ones would move to the front, ahead of it)."""
    positions = [j for j, i in enumerate(indices) if i is not None]
    return not positions or positions == list(range(positions[0], positions[-1] + 1))


def index_put_rule(op, inplace=False):
    """``x[idx] = v``: shared, adjacent indices into a batched ``x`` are one physical ``index_put``
    (``v`` padded to the rank of ``x[idx]``); per-example indices run per example."""
    def rule(self, indices, values, accumulate=False):
        level = level_of((self, indices, values))
        _refuse_batched_masks(indices, level)
        mine = self.__class__ is BatchedTensor and self._level == level
        if any(i.__class__ is BatchedTensor and i._level == level for i in indices if i is not None):
            return loop_fallback(op, self, indices, values, accumulate)
        if not _adjacent(indices):
            return loop_fallback(op, self, indices, values, accumulate)
        if not mine:
            if inplace:
                return loop_fallback(op, self, indices, values, accumulate)  # raises torch's in-place error
            pself = materialize(self, level)
        else:
            pself = self._value
        if values.__class__ is BatchedTensor and values._level == level:
            rank = _indexed_rank(self, indices)
            values = pad_to(values._value, values._data.ndim, rank)
        out = op(pself, [None] + list(indices), values, accumulate)
        return self if inplace else wrap(out, level)
    return rule


def _indexed_rank(self, indices):
    """The rank of ``self[indices]`` (logical), without computing it."""
    advanced = [i for i in indices if i is not None]
    block = max((i._data.ndim if i._data.dtype.kind != "b" else 1) for i in advanced) if advanced else 0
    consumed = sum(i._data.ndim if i._data.dtype.kind == "b" else 1 for i in advanced)
    return self._data.ndim - consumed + block


def masked_fill_rule(op, inplace=False):
    """``masked_fill`` as ``where(mask, value, self)`` in ``self``'s dtype, on the logical tensors."""
    def rule(self, mask, value):
        fill = value if isinstance(value, Tensor) else _full_like(self, value)
        out = _where(mask, _to_copy(fill, dtype=self.dtype) if fill.dtype is not self.dtype else fill, self)
        if inplace:
            return _copy_(self, out)
        return out if out.dtype is self.dtype else _to_copy(out, dtype=self.dtype)
    return rule


def einsum_rule(op):
    """``einsum``: each batched operand gets a fresh leading subscript, which leads the output too."""
    def rule(equation, tensors, **kwargs):
        level = level_of((tensors,))
        if "->" not in equation:
            return loop_fallback(op, equation, tensors, **kwargs)
        ins, result = equation.replace(" ", "").split("->")
        fresh = next(c for c in "ZYXWVUTSRQPONMLKJIHGFEDCBAzyxwvutsrqponmlkjihgfedcba" if c not in equation)
        subs, phys = [], []
        for s, t in zip(ins.split(","), tensors):
            if t.__class__ is BatchedTensor and t._level == level:
                subs.append(fresh + s)
                phys.append(t._value)
            else:
                subs.append(s)
                phys.append(t)
        return wrap(op(",".join(subs) + "->" + fresh + result, phys, **kwargs), level)
    return rule


# --- randomness ----------------------------------------------------------------------------------
_VMAP_MODE = DispatchKeySet(DispatchKey.VmapMode)
RANDOM_OPS = {"rand": 0, "randn": 0, "randint": 1, "rand_like": None, "randn_like": None,
              "uniform_": None, "normal_": None}  # name -> index of the size argument (factories)
_RANDOM_ERROR = ("vmap: called random operation while in randomness error mode. Please either use the 'same' or "
                 "'different' randomness flags on vmap or perform the randomness operation out of vmap")


def vmap_mode_kernel(op, size_index):
    """The ``VmapMode`` kernel of a random op: the randomness policy of the active vmaps."""
    def kernel(*args, **kwargs):
        active = layers()
        if any(layer.randomness == "error" for layer in active):
            raise RuntimeError(_RANDOM_ERROR)
        different = [layer for layer in active if layer.randomness == "different"]
        if size_index is None and different and active[-1].randomness == "different":
            self = args[0]
            if not (self.__class__ is BatchedTensor and self._level == active[-1].level):
                return _different_on_unbatched(op, active[-1], args, kwargs)
        with _core._KeyGuard(exclude=_VMAP_MODE):
            if size_index is None or not different:
                return op(*args, **kwargs)
            args = list(args)
            args[size_index] = tuple(layer.batch_size for layer in different) + tuple(args[size_index])
            out = op(*args, **kwargs)
        for layer in different:
            out = wrap(out, layer.level)
        return out
    kernel.__qualname__ = f"vmap_mode<{op.name()}>"
    return kernel


def _different_on_unbatched(op, layer, args, kwargs):
    """A random op on a tensor the innermost vmap does not map, with randomness="different"."""
    if op.name().endswith("_"):
        raise RuntimeError("vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will "
                           "appear like same randomness. Use an out-of-place op (e.g. rand_like) instead.")
    with _core._KeyGuard(exclude=_VMAP_MODE):
        out = op(materialize(args[0], layer.level), *args[1:], **kwargs)
    return wrap(out, layer.level)


def random_like_rule(op):
    def rule(self, **kwargs):
        layer = current_layer()
        if layer is not None and layer.randomness == "same":
            return op(_select(self._value, 0, 0), **kwargs)
        return wrap(op(self._value, **kwargs), self._level)
    return rule


def random_inplace_rule(op):
    def rule(self, *args, **kwargs):
        layer = current_layer()
        value = self._value
        if layer is not None and layer.randomness == "same":
            sample = op(_empty_like(_select(value, 0, 0)), *args, **kwargs)
            _copy_(value, sample)
        else:
            op(value, *args, **kwargs)
        return self
    return rule


# The batching rules of this module, by overload name (``rules/__init__`` installs them; the random
# ops also get ``vmap_mode_kernel`` at VmapMode, from ``RANDOM_OPS``).
RULES = {
    "triu": matrix_rule, "tril": matrix_rule,
    "new_empty": new_rule, "new_zeros": new_rule, "new_ones": new_rule, "new_full": new_rule, "numel": numel_rule,
    "nonzero": refuse_rule, "allclose": refuse_rule,
    "gather": gather_rule, "index_select": index_select_rule, "index.Tensor": index_rule,
    "scatter.src": scatter_rule, "scatter.value": scatter_rule, "scatter_add": scatter_rule,
    "scatter_.src": lambda op: scatter_rule(op, inplace=True),
    "scatter_.value": lambda op: scatter_rule(op, inplace=True),
    "masked_fill.Scalar": masked_fill_rule, "masked_fill.Tensor": masked_fill_rule,
    "masked_fill_.Scalar": lambda op: masked_fill_rule(op, inplace=True),
    "masked_fill_.Tensor": lambda op: masked_fill_rule(op, inplace=True),
    "einsum": einsum_rule,
    "slice_scatter": view_scatter_rule(("dim",)), "select_scatter": view_scatter_rule(("dim",)),
    "diagonal_scatter": view_scatter_rule(("dim1", "dim2")),
    "rand_like": random_like_rule, "randn_like": random_like_rule,
    "uniform_": random_inplace_rule, "normal_": random_inplace_rule,
    "index_put": index_put_rule, "index_put_": functools.partial(index_put_rule, inplace=True),
}

from ..._exports import public_dir

__dir__ = public_dir(globals())
