"""Writing values at places and reading them back: ``put``
(at flat indices), ``masked_scatter`` (a source's elements in order at the True places of a mask),
``_unsafe_masked_index`` / ``_unsafe_masked_index_put_accumulate`` (indexing that reads or writes only
where a mask is True, so masked-out indices may be out of range), ``nonzero_static`` (the nonzero
coordinates in a fixed number of rows), ``_chunk_cat`` (each tensor cut into equal, zero-padded
chunks, the chunks laid side by side) and ``hash_tensor`` (an xor of the elements' bit patterns).

As torch: ``put``, ``masked_scatter`` and the masked indexing ops are compositions of
other operators with their own derivative formulas (``PutBackward0``, ...); their
kernels call the operators below autograd, so the same kernel serves Meta tensors.
"""

import numpy as np

from .. import _dtype as D
from .._ops import ops
from .._tensor import _make_meta
from ._declare import OpTable
from .shape import expand as _expand_kernel
from .common import A, _wrap_dim, broadcast_shape, out, read_only_error

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op
_LEGACY = D.legacy_name
_REDUCED = frozenset(("float16", "bfloat16"))


# --- put -------------------------------------------------------------------------------------------

def _check_put(self, index, source):
    if index.dtype is not D.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_LEGACY(index.dtype)}")
    if source.dtype is not self.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{_LEGACY(self.dtype)} and source.dtype = {_LEGACY(source.dtype)}")
    if index.numel() != source.numel():
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source.numel()}, index.numel() = {index.numel()}")


def _put_values(arr, index, source, accumulate):
    """``arr`` (any layout) with ``source`` written (or added) at the flat, row-major ``index``."""
    n = arr.size
    idx = index.reshape(-1).astype(np.int64, copy=False)
    bad = (idx >= n) | (idx < -n)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {int(idx[np.argmax(bad)])} on a tensor of {n} "
                         "elements.")
    idx = np.where(idx < 0, idx + n, idx)
    flat = arr.reshape(-1).copy()
    src = source.reshape(-1)
    if accumulate:
        wide = np.float32 if D.FROM_NP[arr.dtype].name in _REDUCED else flat.dtype
        acc = flat.astype(wide)
        np.add.at(acc, idx, src.astype(wide))
        flat = acc.astype(arr.dtype)
    else:
        flat[idx] = src
    arr[...] = flat.reshape(arr.shape)


def _put_meta(self, index, source, accumulate=False):
    _check_put(self, index, source)
    return _make_meta(self.shape, self.dtype, _kept_strides(self))


def _kept_strides(self):
    """The strides ``clone`` keeps (torch's preserved layout): ``self``'s when dense, else contiguous."""
    strides = self.stride()
    order = sorted((st, n) for st, n in zip(strides, self.shape) if n != 1)
    step = 1
    for st, n in order:
        if st != step:
            return None
        step *= n
    return strides


@_op("put(Tensor self, Tensor index, Tensor source, bool accumulate=False) -> Tensor", meta=_put_meta)
def put(self, index, source, accumulate=False):
    """``self`` with ``source`` written at ``index``, ``self`` read as a 1-D tensor in row-major order
    (negative indices count from the end; ``accumulate`` adds, duplicates included)."""
    _check_put(self, index, source)
    r = A.clone(self)
    _put_values(r._data, index._data, source._data, accumulate)
    return r


@_op("put_(Tensor(a!) self, Tensor index, Tensor source, bool accumulate=False) -> Tensor(a!)")
def put_(self, index, source, accumulate=False):
    _check_put(self, index, source)
    arr = self._data
    if not arr.flags.writeable:
        raise read_only_error("aten::put_", arr)
    _put_values(arr, index._data, source._data, accumulate)
    self._bump_version()
    return self


# --- masked_scatter --------------------------------------------------------------------------------

def _check_masked_scatter(self, mask, source):
    if source.dtype is not self.dtype:
        raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                           f"{_LEGACY(self.dtype)} and {_LEGACY(source.dtype)}")
    if mask.dtype is not D.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_LEGACY(mask.dtype)}")


def _scatter_masked(arr, mask, source):
    """``arr`` with the first ``mask.sum()`` elements of ``source`` written at ``mask``'s True places."""
    count = int(np.count_nonzero(mask))
    if count > source.size:
        raise RuntimeError("Number of elements of source < number of ones in mask")
    arr[mask] = source.reshape(-1)[:count]


def _masked_scatter_meta(self, mask, source):
    shape = broadcast_shape("aten::masked_scatter", tuple(mask.shape), tuple(self.shape))
    _check_masked_scatter(self, mask, source)
    return _make_meta(shape, self.dtype, _kept_strides(self) if tuple(self.shape) == tuple(shape) else None)


@_op("masked_scatter(Tensor self, Tensor mask, Tensor source) -> Tensor", meta=_masked_scatter_meta)
def masked_scatter(self, mask, source):
    """``self`` (broadcast with ``mask``) with ``source``'s elements, in order, at ``mask``'s True places."""
    shape = list(broadcast_shape("aten::masked_scatter", tuple(mask.shape), tuple(self.shape)))
    _check_masked_scatter(self, mask, source)
    r = A.clone(self) if list(self.shape) == shape else A.clone(A.expand(self, shape))
    _scatter_masked(r._data, np.broadcast_to(mask._data, tuple(shape)), source._data)
    return r


@_op("masked_scatter_(Tensor(a!) self, Tensor mask, Tensor source) -> Tensor(a!)")
def masked_scatter_(self, mask, source):
    _check_masked_scatter(self, mask, source)
    m = _expand_kernel(mask, list(self.shape))  # torch's expand (and its error) of the mask to self
    arr = self._data
    if not arr.flags.writeable:
        raise read_only_error("aten::masked_scatter_", arr)
    _scatter_masked(arr, m._data, source._data)
    self._bump_version()
    return self


def _masked_scatter_backward_meta(grad_output, mask, sizes):
    return _make_meta([int(s) for s in sizes], grad_output.dtype)


@_op("masked_scatter_backward(Tensor grad_output, Tensor mask, SymInt[] sizes) -> Tensor",
     meta=_masked_scatter_backward_meta)
def masked_scatter_backward(grad_output, mask, sizes):
    """The gradient of ``masked_scatter``'s source: the gradient at the mask's places, in order,
    zero-padded to the source's size."""
    numel = int(np.prod([int(s) for s in sizes]))
    selected = A.masked_select(grad_output, mask)
    missing = numel - selected.numel()
    if missing > 0:
        selected = A.cat([selected, A.new_zeros(grad_output, [missing])], 0)
    return A.view(selected, [int(s) for s in sizes])


# --- masked indexing -------------------------------------------------------------------------------

def _clamped(self, indices):
    """``indices`` each clamped into its dimension (int64 or int32 only)."""
    out_ = []
    for index, size in zip(indices, self.shape):
        if index is None:
            out_.append(None)
            continue
        if index.dtype not in (D.int64, D.int32):
            raise RuntimeError(f"_unsafe_masked_index found unexpected index type {_LEGACY(index.dtype)}")
        out_.append(A.clamp(index, -size, size - 1))
    return out_ + list(indices[len(out_):])


@_op("_unsafe_masked_index(Tensor self, Tensor mask, Tensor?[] indices, Scalar fill) -> Tensor", kind="meta_aware")
def _unsafe_masked_index(self, mask, indices, fill):
    """``where(mask, self[indices], fill)``, where masked-out places never read ``self`` (their
    indices may be out of range)."""
    clamped = _clamped(self, indices)
    if self.numel() == 0:
        sizes = [1 if index is not None and size == 0 else size for index, size in zip(indices, self.shape)]
        sizes += list(self.shape[len(sizes):])
        return A.index__Tensor(A.new_full(self, sizes, fill), clamped)
    return A.masked_fill__Scalar(A.index__Tensor(self, clamped), A.logical_not(mask), fill)


@_op("_unsafe_masked_index_put_accumulate(Tensor self, Tensor mask, Tensor?[] indices, Tensor values) -> Tensor",
     kind="meta_aware")
def _unsafe_masked_index_put_accumulate(self, mask, indices, values):
    """``self`` with ``values`` added at ``indices`` where ``mask`` is True (masked-out indices may be
    out of range)."""
    masked = A.masked_fill__Scalar(values, A.logical_not(mask), 0)
    return A.index_put(self, _clamped(self, indices), masked, True)


# --- nonzero_static --------------------------------------------------------------------------------

def _nonzero_static_meta(self, *, size, fill_value=-1):
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    return _make_meta((size, self.dim()), D.int64)


@_op("nonzero_static(Tensor self, *, SymInt size, int fill_value=-1) -> Tensor", meta=_nonzero_static_meta,
     out="nonzero_static.out(Tensor self, *, SymInt size, int fill_value=-1, Tensor(a!) out) -> Tensor(a!)")
def nonzero_static(self, *, size, fill_value=-1):
    """The coordinates of the nonzero elements (row-major), one row each, in exactly ``size`` rows:
    cut short, or filled up with ``fill_value``."""
    if size < 0:
        raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
    coords = np.argwhere(self._data)
    r = np.full((size, self.dim()), fill_value, dtype=np.int64)
    k = min(size, len(coords))
    r[:k] = coords[:k]
    return out(r, self)


# --- _chunk_cat ------------------------------------------------------------------------------------

def _chunk_cat_dim(tensors, dim, num_chunks):
    """torch's checks of ``_chunk_cat``'s inputs; the wrapped ``dim``."""
    if len(tensors) == 0:
        raise RuntimeError("_chunk_cat expects a non-empty input tensor list")
    first = tensors[0]
    for t in tensors:
        if t.numel() == 0:
            raise RuntimeError("_chunk_cat expects non-empty tensor")
        if t.dtype is not first.dtype:
            raise RuntimeError("_chunk_cat expects all input tensors with the same dtype")
        if t.device != first.device:
            raise RuntimeError("_chunk_cat expects all inputs tensors on the same device")
    if len({t.dim() for t in tensors}) > 1 and dim < 0:
        raise RuntimeError("_chunk_cat expects non-negative dim when input tensors have different ndims")
    dim = _wrap_dim(dim, first.dim())
    if num_chunks < 1:
        raise RuntimeError("_chunk_cat expects positive num_chunks")
    for t in tensors:
        if dim >= t.dim():
            raise RuntimeError("_chunk_cat expects dim < ndim for all input tensors")
    lead = list(first.shape[:dim])
    for t in tensors:
        if list(t.shape[:dim]) != lead:
            raise RuntimeError("_chunk_cat expects same sizes of 0,...,dim-1 dimensions for all tensors")
    return dim


@_op("_chunk_cat(Tensor[] tensors, int dim, int num_chunks) -> Tensor", kind="meta_aware",
     out="_chunk_cat.out(Tensor[] tensors, int dim, int num_chunks, *, Tensor(a!) out) -> Tensor(a!)")
def _chunk_cat(tensors, dim, num_chunks):
    """Each tensor zero-padded along ``dim`` to a multiple of ``num_chunks``, viewed as
    ``(*leading, num_chunks, -1)``, and the views concatenated along ``dim + 1``."""
    dim = _chunk_cat_dim(tensors, dim, num_chunks)
    pieces = []
    for t in tensors:
        n = t.shape[dim]
        padded_n = -(-n // num_chunks) * num_chunks
        if padded_n != n:
            shape = list(t.shape)
            shape[dim] = padded_n
            p = A.new_zeros(t, shape)
            ops.aten.copy_.default(A.narrow(p, dim, 0, n), t)
            t = p
        pieces.append(A.reshape(t, list(t.shape[:dim]) + [num_chunks, -1]))
    return A.cat(pieces, dim + 1)


# --- hash_tensor -----------------------------------------------------------------------------------

def _hash_bits(arr, dt):
    """Each element's bit pattern as uint64: floating values as float64, integers as int64."""
    if dt.is_floating_point:
        return arr.astype(np.float64).view(np.uint64)
    if dt.name == "uint64":
        return arr
    return arr.astype(np.int64).view(np.uint64)


def _check_hash(self, dim, mode):
    if mode != 0:
        raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
    if self.dtype.is_complex:
        raise NotImplementedError(f"\"xor_sum_cpu\" not implemented for '{_LEGACY(self.dtype)}'")
    if self.numel() == 0 and not dim:
        raise RuntimeError("hash_tensor: Expected reduction dim to be specified for input.numel() == 0. Specify the "
                           "reduction dim with the 'dim' argument.")


def _hash_axes(self, dim):
    if isinstance(dim, int):
        dim = [dim]
    if not dim:
        return tuple(range(self.dim()))
    axes = tuple(_wrap_dim(d, self.dim()) for d in dim)
    return () if self.dim() == 0 else axes


def _hash_tensor_meta(self, dim=(), *, keepdim=False, mode=0):
    _check_hash(self, dim, mode)
    axes = _hash_axes(self, dim)
    shape = [1 if i in axes else s for i, s in enumerate(self.shape)] if keepdim else \
        [s for i, s in enumerate(self.shape) if i not in axes]
    return _make_meta(shape, D.uint64)


@_op("hash_tensor(Tensor self, int[1] dim=[], *, bool keepdim=False, int mode=0) -> Tensor", meta=_hash_tensor_meta,
     out="hash_tensor.out(Tensor self, int[1] dim=[], *, bool keepdim=False, int mode=0, Tensor(a!) out) -> "
         "Tensor(a!)")
def hash_tensor(self, dim=(), *, keepdim=False, mode=0):
    """The xor of the elements' bit patterns (uint64) over ``dim`` (every dim by default)."""
    _check_hash(self, dim, mode)
    axes = _hash_axes(self, dim)
    bits = _hash_bits(self._data, self.dtype)
    return out(np.bitwise_xor.reduce(bits, axis=axes, keepdims=keepdim).astype(np.uint64), self)
