"""Joining, splitting, broadcasting and copying shapes: the operators torch composes of views,
``cat`` and ``clone`` (CompositeImplicitAutograd in torch, or functional copies of a view).

Each is composed here of the operators it calls in torch, so autograd, vmap, Meta and fake tensors
follow from theirs: ``atleast_{1,2,3}d``, ``hstack``/``vstack``/``dstack``/``column_stack``,
``hsplit``/``vsplit``/``dsplit``, ``broadcast_to``/``broadcast_tensors``, ``meshgrid``,
``cartesian_prod``, ``combinations``, ``block_diag``, ``diag``/``diagflat``/``diag_embed``,
``rot90``/``fliplr``/``flipud``, ``ravel``, ``reshape_as``, ``sum_to_size``, ``unsafe_split``/
``unsafe_chunk``, the ``*_copy`` forms of the views (a view, then a contiguous copy) and the
``*_scatter`` operators (``self`` copied, ``src`` written into the view).

Example::

    >>> opyard.hstack([opyard.ones(2), opyard.zeros(3)]).shape
    opyard.Size([5])
    >>> opyard.ops.aten.slice_scatter(opyard.zeros(3, 2), opyard.ones(1, 2), 0, 1, 2)
    tensor([[0., 0.],
            [1., 1.],
            [0., 0.]])
"""

import itertools
import warnings

import numpy as np

from .. import _dtype as D
from .._memory_format import contiguous_format
from .._tensor import _wrap_dim
from ._declare import OpTable
from .common import A, out

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op


def _copy(t):
    """A contiguous copy: what every ``*_copy`` operator returns."""
    return A.clone(t, memory_format=contiguous_format)


# --- at least n dimensions ------------------------------------------------------------------------

def _at_least(t, n):
    d = t.dim()
    if d >= n:
        return t
    if d == 0:
        return A.reshape(t, [1] * n)
    if n == 2:
        return A.unsqueeze(t, 0)
    return A.unsqueeze(A.unsqueeze(t, 0), -1) if d == 1 else A.unsqueeze(t, -1)  # n == 3


@_op("atleast_1d(Tensor self) -> Tensor", kind="composite")
def atleast_1d(self):
    return _at_least(self, 1)


@_op("atleast_1d.Sequence(Tensor[] tensors) -> Tensor[]", kind="composite")
def atleast_1d_sequence(tensors):
    return [_at_least(t, 1) for t in tensors]


@_op("atleast_2d(Tensor self) -> Tensor", kind="composite")
def atleast_2d(self):
    return _at_least(self, 2)


@_op("atleast_2d.Sequence(Tensor[] tensors) -> Tensor[]", kind="composite")
def atleast_2d_sequence(tensors):
    return [_at_least(t, 2) for t in tensors]


@_op("atleast_3d(Tensor self) -> Tensor", kind="composite")
def atleast_3d(self):
    return _at_least(self, 3)


@_op("atleast_3d.Sequence(Tensor[] tensors) -> Tensor[]", kind="composite")
def atleast_3d_sequence(tensors):
    return [_at_least(t, 3) for t in tensors]


# --- stacking -------------------------------------------------------------------------------------

def _non_empty(tensors, name):
    if len(tensors) == 0:
        raise RuntimeError(f"{name} expects a non-empty TensorList")


@_op("hstack(Tensor[] tensors) -> Tensor", kind="composite",
     out="hstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)")
def hstack(tensors):
    _non_empty(tensors, "hstack")
    ts = [_at_least(t, 1) for t in tensors]
    return A.cat(ts, 0 if ts[0].dim() == 1 else 1)


@_op("vstack(Tensor[] tensors) -> Tensor", kind="composite",
     out="vstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)")
def vstack(tensors):
    _non_empty(tensors, "vstack")
    return A.cat([_at_least(t, 2) for t in tensors], 0)


@_op("dstack(Tensor[] tensors) -> Tensor", kind="composite",
     out="dstack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)")
def dstack(tensors):
    _non_empty(tensors, "dstack")
    return A.cat([_at_least(t, 3) for t in tensors], 2)


@_op("column_stack(Tensor[] tensors) -> Tensor", kind="composite",
     out="column_stack.out(Tensor[] tensors, *, Tensor(a!) out) -> Tensor(a!)")
def column_stack(tensors):
    _non_empty(tensors, "column_stack")
    return A.cat([A.reshape(t, [t.numel(), 1]) if t.dim() <= 1 else t for t in tensors], 1)


# --- splitting ------------------------------------------------------------------------------------

def _split_dim(self, name, at_least, dim):
    if self.dim() < at_least:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {at_least} dimension, but got a tensor "
                           f"with {self.dim()} dimensions!")
    return dim


def _split_sections(self, sections, name, dim):
    size = self.shape[dim]
    if sections == 0 or size % sections:
        raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the dimension "
                           f"{size} is not divisible by the split_size {sections}!")
    return A.tensor_split__sections(self, sections, dim)


@_op("hsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", kind="composite")
def hsplit_int(self, sections):
    dim = _split_dim(self, "hsplit", 1, 0 if self.dim() == 1 else 1)
    return _split_sections(self, sections, "hsplit", dim)


@_op("hsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", kind="composite")
def hsplit_array(self, indices):
    dim = _split_dim(self, "hsplit", 1, 0 if self.dim() == 1 else 1)
    return A.tensor_split__indices(self, indices, dim)


@_op("vsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", kind="composite")
def vsplit_int(self, sections):
    return _split_sections(self, sections, "vsplit", _split_dim(self, "vsplit", 2, 0))


@_op("vsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", kind="composite")
def vsplit_array(self, indices):
    return A.tensor_split__indices(self, indices, _split_dim(self, "vsplit", 2, 0))


@_op("dsplit.int(Tensor(a -> *) self, int sections) -> Tensor(a)[]", kind="composite")
def dsplit_int(self, sections):
    return _split_sections(self, sections, "dsplit", _split_dim(self, "dsplit", 3, 2))


@_op("dsplit.array(Tensor(a -> *) self, int[] indices) -> Tensor(a)[]", kind="composite")
def dsplit_array(self, indices):
    return A.tensor_split__indices(self, indices, _split_dim(self, "dsplit", 3, 2))


# torch's unsafe_split/unsafe_chunk return the pieces of ``self``'s memory without view tracking
# (the caller promises not to write into them); here they are the tracked views ``split`` returns:
# the same memory and strides, and an in-place write into one stays correct for autograd. Unlike
# split's, they may be modified in place (torch's are no views for autograd): they forget being
# outputs of an op returning several views (Note [View history] in src/python/autograd/view_history.rs).
@_op("unsafe_split.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]", kind="composite")
def unsafe_split(self, split_size, dim=0):
    return _writable_pieces(A.split__Tensor(self, split_size, dim))


@_op("unsafe_split_with_sizes(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]", kind="composite")
def unsafe_split_with_sizes(self, split_sizes, dim=0):
    return _writable_pieces(A.split_with_sizes(self, split_sizes, dim))


def _writable_pieces(pieces):
    for p in pieces:
        p._view_meta = None
    return pieces


@_op("unsafe_chunk(Tensor self, int chunks, int dim=0) -> Tensor[]", kind="composite")
def unsafe_chunk(self, chunks, dim=0):
    return _writable_pieces(A.chunk(self, chunks, dim))


# --- broadcasting ---------------------------------------------------------------------------------

@_op("broadcast_to(Tensor(a) self, SymInt[] size) -> Tensor(a)", kind="composite")
def broadcast_to(self, size):
    return A.expand(self, size)


def broadcast_shape(shapes):
    """The shape ``shapes`` broadcast to, with torch's message naming the first mismatch."""
    ndim = max((len(s) for s in shapes), default=0)
    result = [1] * ndim
    for s in shapes:
        for i, n in enumerate(reversed(s)):
            j = ndim - 1 - i
            if result[j] == 1:
                result[j] = n
            elif n != 1 and n != result[j]:
                raise RuntimeError(f"The size of tensor a ({result[j]}) must match the size of tensor b ({n}) at "
                                   f"non-singleton dimension {j}")
    return result


@_op("broadcast_tensors(Tensor[] tensors) -> Tensor[]", kind="composite")
def broadcast_tensors(tensors):
    shape = broadcast_shape([list(t.shape) for t in tensors])
    return [A.expand(t, shape) for t in tensors]


# --- grids and products ---------------------------------------------------------------------------

def _meshgrid(tensors, indexing):
    if len(tensors) == 0:
        raise RuntimeError("meshgrid expects a non-empty TensorList")
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    for t in tensors:
        if t.dim() > 1:
            raise RuntimeError(f"torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: "
                               f"tensor of shape {list(t.shape)}")
    first = tensors[0]
    for t in tensors[1:]:
        if t.dtype is not first.dtype:
            raise RuntimeError("meshgrid expects all tensors to have the same dtype")
        if t.device != first.device:
            raise RuntimeError("meshgrid expects all tensors to have the same device")
    ts = list(tensors)
    swap = indexing == "xy" and len(ts) >= 2
    if swap:
        ts[0], ts[1] = ts[1], ts[0]
    shape = [t.numel() for t in ts]
    grids = []
    for i, t in enumerate(ts):
        view = [1] * len(ts)
        view[i] = -1
        grids.append(A.expand(A.view(t, view), shape))
    if swap:  # the grids of (y, x, ...) in "ij" order are those of "xy", the first two swapped back
        grids[0], grids[1] = grids[1], grids[0]
    return grids


@_op("meshgrid(Tensor[] tensors) -> Tensor[]", kind="composite")
def meshgrid(tensors):
    warnings.warn("meshgrid: in an upcoming release, it will be required to pass the indexing argument.",
                  UserWarning, stacklevel=2)
    return _meshgrid(tensors, "ij")


@_op("meshgrid.indexing(Tensor[] tensors, *, str indexing) -> Tensor[]", kind="composite")
def meshgrid_indexing(tensors, *, indexing):
    return _meshgrid(tensors, indexing)


def _check_vector(t):
    if t.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(t.shape)}")


@_op("cartesian_prod(Tensor[] tensors) -> Tensor", kind="composite")
def cartesian_prod(tensors):
    for t in tensors:
        _check_vector(t)
    if len(tensors) == 1:
        return tensors[0]
    grids = _meshgrid(tensors, "ij")
    return A.stack([A.reshape(g, [-1]) for g in grids], 1)


@_op("combinations(Tensor self, int r=2, bool with_replacement=False) -> Tensor", kind="composite")
def combinations(self, r=2, with_replacement=False):
    _check_vector(self)
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return A.new_empty(self, [0])
    n = self.shape[0]
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = np.array(list(pick(range(n), r)), dtype=np.int64).reshape(-1, r)
    flat = A.index_select(self, 0, _index_tensor(rows.reshape(-1), self))
    return A.reshape(flat, [rows.shape[0], r])


def _index_tensor(values, like):
    """An int64 index tensor of ``values`` on ``like``'s device."""
    return out(np.ascontiguousarray(values, dtype=np.int64), like)


@_op("block_diag(Tensor[] tensors) -> Tensor", kind="composite")
def block_diag(tensors):
    mats = []
    for i, t in enumerate(tensors):
        if t.dim() > 2:
            raise RuntimeError(f"torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {i} has "
                               f"{t.dim()} dimensions")
        mats.append(A.reshape(t, [1, t.numel()]) if t.dim() <= 1 else t)
    if not mats:
        return A.zeros([1, 0])
    dtype = mats[0].dtype
    for m in mats[1:]:
        dtype = D.promote_types(dtype, m.dtype)
    cols = sum(m.shape[1] for m in mats)
    device = mats[0].device
    rows, c = [], 0
    for m in mats:  # each block's rows: zeros, the block, zeros (no write into a shared buffer)
        h, w = m.shape
        m = m if m.dtype is dtype else A._to_copy(m, dtype=dtype)
        parts = [A.zeros([h, c], dtype=dtype, device=device), m,
                 A.zeros([h, cols - c - w], dtype=dtype, device=device)]
        rows.append(A.cat(parts, 1))
        c += w
    return A.cat(rows, 0)


# --- diagonals ------------------------------------------------------------------------------------

@_op("diag_embed(Tensor self, int offset=0, int dim1=-2, int dim2=-1) -> Tensor", kind="composite")
def diag_embed(self, offset=0, dim1=-2, dim2=-1):
    ndim = self.dim() + 1
    d1, d2 = _wrap_dim(dim1, ndim), _wrap_dim(dim2, ndim)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    n = self.shape[-1] + abs(offset) if self.dim() else abs(offset) + 1
    shape = list(self.shape[:-1])
    lo, hi = sorted((d1, d2))
    shape.insert(lo, n)
    shape.insert(hi, n)
    zeros = A.zeros(shape, dtype=self.dtype, device=self.device)
    return A.diagonal_scatter(zeros, self, offset, d1, d2)


@_op("diag(Tensor self, int diagonal=0) -> Tensor", kind="composite",
     out="diag.out(Tensor self, int diagonal=0, *, Tensor(a!) out) -> Tensor(a!)")
def diag(self, diagonal=0):
    """torch's composition: ``diag_embed`` of a vector, ``diagonal_copy`` of a matrix."""
    if self.dim() == 1:
        return A.diag_embed(self, diagonal)
    if self.dim() == 2:
        return A.diagonal_copy(self, diagonal)
    raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {self.dim()}D")


@_op("diagflat(Tensor self, int offset=0) -> Tensor", kind="composite")
def diagflat(self, offset=0):
    return A.diag_embed(A.reshape(self, [-1]), offset)


# --- flips and rotations --------------------------------------------------------------------------

@_op("fliplr(Tensor self) -> Tensor", kind="composite")
def fliplr(self):
    if self.dim() < 2:
        raise RuntimeError("Input must be >= 2-d.")
    return A.flip(self, [1])


@_op("flipud(Tensor self) -> Tensor", kind="composite")
def flipud(self):
    if self.dim() < 1:
        raise RuntimeError("Input must be >= 1-d.")
    return A.flip(self, [0])


@_op("rot90(Tensor self, int k=1, int[] dims=[0,1]) -> Tensor", kind="composite")
def rot90(self, k=1, dims=(0, 1)):
    dims = list(dims)
    if len(dims) != 2:
        raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
    if self.dim() < 2:
        raise RuntimeError(f"expected total dims >= 2, but got total dims = {self.dim()}")
    d0, d1 = _wrap_dim(dims[0], self.dim()), _wrap_dim(dims[1], self.dim())
    if d0 == d1:
        raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {d0} and dim1 = {d1}")
    k %= 4
    if k == 1:
        return _copy(A.transpose__int(A.flip(self, [d1]), d0, d1))
    if k == 2:
        return A.flip(self, [d0, d1])
    if k == 3:
        return _copy(A.transpose__int(A.flip(self, [d0]), d0, d1))
    return _copy(self)


# --- reshaping ------------------------------------------------------------------------------------

@_op("ravel(Tensor(a) self) -> Tensor(a)", kind="composite")
def ravel(self):
    """A view of a contiguous tensor, else a copy (torch: ``contiguous().view(-1)``)."""
    return A.view(A.contiguous(self), [-1])


@_op("reshape_as(Tensor(a) self, Tensor other) -> Tensor(a)", kind="composite")
def reshape_as(self, other):
    return A.reshape(self, list(other.shape))


@_op("sum_to_size(Tensor self, SymInt[] size) -> Tensor", kind="composite")
def sum_to_size(self, size):
    size = [int(s) for s in size]
    shape = list(self.shape)
    if not size:  # torch's sum_to of a 0-d target: the sum, a new tensor
        return A.sum(self)
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != n for s, n in zip(size, shape[lead:])):
        raise RuntimeError(f"size {{{size}}} is not expandable to size {{{shape}}}.")
    dims = list(range(lead)) + [lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1]
    if not dims:
        return self
    summed = A.sum__dim_IntList(self, dims, True)
    return A.reshape(summed, size) if lead else summed


# --- functional copies of the views ---------------------------------------------------------------

def _copy_of(view):
    def copy_kernel(self, *args, **kwargs):
        return _copy(view(self, *args, **kwargs))
    return copy_kernel


def _copies_of(view):
    def copy_kernel(self, *args, **kwargs):
        return [_copy(p) for p in view(self, *args, **kwargs)]
    return copy_kernel


_COPIES = (
    ("alias_copy(Tensor self) -> Tensor", lambda s: A.alias(s)),
    ("as_strided_copy(Tensor self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor",
     lambda s, size, stride, storage_offset=None: A.as_strided(s, size, stride, storage_offset)),
    ("diagonal_copy(Tensor self, int offset=0, int dim1=0, int dim2=1) -> Tensor",
     lambda s, offset=0, dim1=0, dim2=1: A.diagonal(s, offset, dim1, dim2)),
    ("expand_copy(Tensor self, SymInt[] size, *, bool implicit=False) -> Tensor",
     lambda s, size, *, implicit=False: A.expand(s, size, implicit=implicit)),
    ("narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor",
     lambda s, dim, start, length: A.narrow(s, dim, start, length)),
    ("permute_copy(Tensor self, int[] dims) -> Tensor", lambda s, dims: A.permute(s, dims)),
    ("select_copy.int(Tensor self, int dim, SymInt index) -> Tensor",
     lambda s, dim, index: A.select__int(s, dim, index)),
    ("slice_copy.Tensor(Tensor self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor",
     lambda s, dim=0, start=None, end=None, step=1: A.slice__Tensor(s, dim, start, end, step)),
    ("squeeze_copy(Tensor self) -> Tensor", lambda s: A.squeeze(s)),
    ("squeeze_copy.dim(Tensor self, int dim) -> Tensor", lambda s, dim: A.squeeze__dim(s, dim)),
    ("squeeze_copy.dims(Tensor self, int[] dim) -> Tensor", lambda s, dim: A.squeeze__dims(s, dim)),
    ("t_copy(Tensor self) -> Tensor", lambda s: A.t(s)),
    ("transpose_copy.int(Tensor self, int dim0, int dim1) -> Tensor",
     lambda s, dim0, dim1: A.transpose__int(s, dim0, dim1)),
    ("unsqueeze_copy(Tensor self, int dim) -> Tensor", lambda s, dim: A.unsqueeze(s, dim)),
    ("unfold_copy(Tensor self, int dimension, int size, int step) -> Tensor",
     lambda s, dimension, size, step: A.unfold(s, dimension, size, step)),
    ("view_copy(Tensor self, SymInt[] size) -> Tensor", lambda s, size: A.view(s, size)),
    ("view_copy.dtype(Tensor self, ScalarType dtype) -> Tensor", lambda s, dtype: A.view__dtype(s, dtype)),
    ("detach_copy(Tensor self) -> Tensor", lambda s: A.detach(s)),
)
_LIST_COPIES = (
    ("split_copy.Tensor(Tensor self, SymInt split_size, int dim=0) -> Tensor[]",
     lambda s, split_size, dim=0: A.split__Tensor(s, split_size, dim)),
    ("split_with_sizes_copy(Tensor self, SymInt[] split_sizes, int dim=0) -> Tensor[]",
     lambda s, split_sizes, dim=0: A.split_with_sizes(s, split_sizes, dim)),
    ("unbind_copy.int(Tensor self, int dim=0) -> Tensor[]", lambda s, dim=0: A.unbind__int(s, dim)),
)
for _schema, _view in _COPIES:
    _op(_schema, kind="composite")(_copy_of(_view))
for _schema, _view in _LIST_COPIES:
    _op(_schema, kind="composite")(_copies_of(_view))


# --- scatters: self with src written into one of its views ----------------------------------------

def _scatter(self, src, view):
    """``self`` copied, ``src`` written into ``view`` of the copy (torch's ``*_scatter``): the shape
    check in torch's words, the values through ``copy_`` so autograd sees both inputs."""
    result = _copy(self)
    target = view(result)
    if list(target.shape) != list(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(target.shape)}")
    A.copy_(target, src)
    return result


@_op("slice_scatter(Tensor self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) "
     "-> Tensor", kind="composite")
def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
    return _scatter(self, src, lambda r: A.slice__Tensor(r, dim, start, end, step))


@_op("select_scatter(Tensor self, Tensor src, int dim, SymInt index) -> Tensor", kind="composite")
def select_scatter(self, src, dim, index):
    return _scatter(self, src, lambda r: A.select__int(r, dim, index))


@_op("diagonal_scatter(Tensor self, Tensor src, int offset=0, int dim1=0, int dim2=1) -> Tensor",
     kind="composite")
def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
    return _scatter(self, src, lambda r: A.diagonal(r, offset, dim1, dim2))


@_op("as_strided_scatter(Tensor self, Tensor src, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) "
     "-> Tensor", kind="composite")
def as_strided_scatter(self, src, size, stride, storage_offset=None):
    """``self`` with ``src`` written at the elements ``as_strided(size, stride, storage_offset)``
    addresses in a contiguous copy of ``self``: an ``index_put`` at those (data-independent)
    positions, so gradients and vmap follow from ``index_put``'s."""
    base = _copy(self)
    target = A.as_strided(base, size, stride, storage_offset)  # torch's bounds and size checks
    if list(target.shape) != list(src.shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = {list(src.shape)}, "
                           f"slice size = {list(target.shape)}")
    numel = base.numel()
    if not numel or not src.numel():
        return base
    positions = np.lib.stride_tricks.as_strided(
        np.arange(numel, dtype=np.int64)[storage_offset or 0:], [int(s) for s in size],
        [int(s) * 8 for s in stride], writeable=False)
    if src.dtype is not self.dtype:
        src = A._to_copy(src, dtype=self.dtype)
    flat = A.index_put(A.reshape(base, [-1]), [_index_tensor(positions.reshape(-1), self)], A.reshape(src, [-1]))
    return A.reshape(flat, list(self.shape))
