"""In-place operations on views: torch's ``CopySlices`` and view-history regeneration.

A differentiable view op records, on its output, how to rebuild the view
from its base (``_view_fn``, composed along a chain of views; ``_base`` is the
root base, as set by the Tensor's view kernels). When an in-place op then
modifies the view:

- the base gets a ``CopySlices`` node: its gradient is the incoming base
  gradient, except on the viewed region, which is replaced by what the
  in-place op's node computes from that region;
- the view's history is regenerated as "a view of the new base"
  (``AsStridedBackward0``), so later uses of the view flow into
  ``CopySlices`` too.

Every other view of the same base sees the change when its ``grad_fn`` is
next read: its memory's version moved on, so its history is regenerated the
same way on top of the base's current history (``regenerate_view_history``),
or refused for a view made in ``no_grad`` mode or by an op returning several
views, as torch refuses (See Note [View history] in
src/python/autograd/view_history.rs).

Example::

    >>> x = opyard.zeros(4, requires_grad=True)
    >>> y = x * 1
    >>> y[1:3].mul_(5)        # y's grad_fn becomes CopySlices
"""

import numpy as np

from .._dtype import int64
from .._exports import public_dir
from .._memory_format import contiguous_format
from .._ops import ops
from . import _tensor_meta as meta
from .graph import Node, gradient_edge, next_sequence_nr, set_history

__all__ = ["CopySlices", "record_view", "mark_multi_output", "rebase_view_history",
           "regenerate_view_history"]

DEFAULT, MULTI_OUTPUT = meta.VIEW_DEFAULT, meta.VIEW_MULTI_OUTPUT


def record_view(out, base_arg, replay):
    """Remember how ``out`` (a view of ``base_arg``) is rebuilt from its root base, and that its
    history is current (a view of a view made in no_grad mode or by a multi-output op is one too)."""
    parent = base_arg._view_fn
    out._view_fn = replay if parent is None else (lambda b: replay(parent(b)))
    parent_meta = base_arg._view_meta
    out._view_meta = out._version << 2 | (parent_meta & 3 if parent_meta is not None else DEFAULT)


def mark_multi_output(outs):
    """The views among ``outs`` are outputs of one op returning several views."""
    for t in outs:
        if getattr(t, "_base", None) is not None:
            t._view_meta = t._version << 2 | MULTI_OUTPUT


def regenerate_view_history(view):
    """The ``grad_fn`` of view ``view`` whose memory changed since its history was made: a view of its
    base's current history (``AsStridedBackward0``), or torch's error (See Note [View history])."""
    base = view._base
    old = view._grad_fn
    if base is None:  # no view any more (a transform's leaf): nothing to regenerate
        view._view_meta = None
        return old
    err = meta.view_refusal(view, direct=False)
    if err is not None:
        raise err
    kind = view._view_meta & 3
    if (old is None and not meta.requires_grad(base)) or (kind == meta.VIEW_NO_GRAD and old is not None):
        # Nothing to regenerate from, or no view for autograd (See ``view_refusal``).
        view._view_meta = view._version << 2 | kind
        return None
    node = AsStridedBackward0(gradient_edge(base), meta.shape(base), meta.shape(view), meta.view_fn_of(view))
    node._sequence_nr = next_sequence_nr()
    meta.move_retains_grad(view, node, 0)
    set_history(view, node, 0)
    view._view_meta = view._version << 2 | kind
    return node


class CopySlices(Node):
    """Gradient of a base whose view was modified in place by ``fn``."""

    def __init__(self, base_edge, base_shape, view_fn, fn):
        super().__init__((base_edge,) + tuple(fn.next_functions[1:]), (base_shape,))
        self.view_fn = view_fn
        self.fn = fn

    def apply(self, grads):
        grad = grads[0]
        if grad is None:
            return (None,) * len(self.next_functions)
        # Grad mode is what the engine set (on under create_graph): a double backward
        # differentiates these ops, the in-place ones through a CopySlices of their own.
        # Row-major, as the base a view without a replay of its own was taken from (``view_fn_of``:
        # its geometry in the base's memory is the replay); torch lays the result out as the base.
        result = grad.clone(memory_format=contiguous_format)
        region = self.view_fn(result)
        res = self.fn.apply([region.clone()] + [None] * (len(self.fn._out_shapes) - 1))
        if res[0] is not None:
            if getattr(res[0], "_level", None) != getattr(result, "_level", None):
                # Under vmap the view's gradient may vary over examples the base's does not (its
                # saved tensors are batched): the base's gradient takes that batching first (adding
                # an exact zero per example), so the write into its view is an ordinary batched one.
                result = result + meta.zeros_like(res[0]).sum()
                region = self.view_fn(result)
            region.copy_(res[0])
        else:
            region.zero_()
        return (result,) + tuple(res[1:])

    def release_variables(self):
        self._released = True
        self.fn.release_variables()


class AsStridedBackward0(Node):
    """History of a view regenerated after its base changed: scatter into the base's shape."""

    def __init__(self, base_edge, base_shape, view_shape, view_fn):
        super().__init__((base_edge,), (view_shape,))
        self.base_shape = base_shape
        self.view_fn = view_fn
        self._sources = False  # not yet known; then None, or the index map of an overlapping view

    def apply(self, grads):
        g = grads[0]
        sources = self._overlap_sources()
        if sources is not None:
            # Several elements of the view share one of the base (expand, unfold, as_strided):
            # their gradients add up there, as in torch's as_strided_backward.
            flat = meta.zeros((int(np.prod(self.base_shape, dtype=np.int64)),), g.dtype)
            out = ops.aten.index_add.default(flat, 0, sources, ops.aten.reshape.default(g, [-1]))
            return (ops.aten.reshape.default(out, list(self.base_shape)),)
        out = meta.zeros(self.base_shape, g.dtype)
        if getattr(g, "_level", None) is not None:  # batched under vmap: so is the base's gradient
            out = out + meta.zeros_like(g).sum()
        self.view_fn(out).copy_(g)  # differentiable in g under create_graph, as in CopySlices
        return (out,)

    def _overlap_sources(self):
        """For a view whose elements overlap in the base's memory: the flat base index of each
        element of the view (row-major), else None. Made once."""
        if self._sources is False:
            n = int(np.prod(self.base_shape, dtype=np.int64))
            index = ops.aten.arange.default(n, dtype=int64)
            replayed = self.view_fn(ops.aten.reshape.default(index, list(self.base_shape)))
            data = replayed._data
            flat = np.ascontiguousarray(data.get() if hasattr(data, "get") else data).reshape(-1)  # cupy: host
            self._sources = (None if np.unique(flat).size == flat.size
                             else ops.aten.reshape.default(replayed, [-1]).contiguous())
        return self._sources


def rebase_view_history(view, node, output_nr):
    """``view`` (whose root base is ``view._base``) was modified in place by ``node``."""
    base = view._base
    view_fn = view._view_fn
    if view_fn is None:
        # A view the autograd kernels did not create (e.g. from numpy): treat it as a tensor.
        set_history(view, node, output_nr)
        return
    copy = CopySlices(gradient_edge(base), meta.shape(base), view_fn, node)
    copy._sequence_nr = next_sequence_nr()
    meta.move_retains_grad(base, copy, 0)
    set_history(base, copy, 0)
    regenerated = AsStridedBackward0((copy, 0), meta.shape(base), meta.shape(view), view_fn)
    regenerated._sequence_nr = next_sequence_nr()
    meta.move_retains_grad(view, regenerated, 0)
    set_history(view, regenerated, 0)
    kind = view._view_meta & 3 if view._view_meta is not None else DEFAULT
    view._view_meta = view._version << 2 | kind  # current: See Note [View history]


# _tensor_meta.rebase_history hands in-place ops on views to this module (see there).

__dir__ = public_dir(globals())
