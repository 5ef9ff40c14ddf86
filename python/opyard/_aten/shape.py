"""Views and shape operators. Views share memory and record their base."""

import numpy as np

from .. import _core
from .. import _dtype as D
from .._memory_format import check_memory_format_rank, contiguous_format, preserve_format
from .._memory_format import memory_format as _MemoryFormat
from .factory import laid_out
from .._tensor import _make_detached
from .common import A, Tensor, _make_meta, _make_view, _no_repeats, _wrap_dim, check_same_device, out, \
    tensor_result_dtype

__all__ = ["KERNELS", "COMPOSITE"]


def _shape_arg(size, numel):
    size = [int(s) for s in size]
    if size.count(-1) > 1:
        raise RuntimeError("only one dimension can be inferred")
    if -1 in size:
        known = int(np.prod([s for s in size if s != -1])) if len(size) > 1 else 1
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{size}' is invalid for input of size {numel}")
        size[size.index(-1)] = numel // known
    if int(np.prod(size)) != numel:
        raise RuntimeError(f"shape '{size}' is invalid for input of size {numel}")
    return tuple(size)


def _viewed(x, shape):
    """``x`` with ``shape`` without copying its data, or None when that needs a copy. numpy 2.1's
    ``reshape(copy=False)``: setting ``.shape``, which older numpy (and cupy) offer, is deprecated.
    A meta probe answers from its metadata (``meta._ProbeArray.view_as_shape``)."""
    if type(x) is np.ndarray:
        if _RESHAPE_NO_COPY:
            try:
                return x.reshape(shape, copy=False)
            except ValueError:
                return None
    else:
        view_as_shape = getattr(x, "view_as_shape", None)
        if view_as_shape is not None:
            return view_as_shape(shape)
    arr = x.view()
    try:
        arr.shape = shape
    except AttributeError:
        return None
    return arr


_RESHAPE_NO_COPY = tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1)


def view(self, size):
    x = self._data
    shape = _shape_arg(size, x.size)
    arr = _viewed(x, shape)
    if arr is None:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one dimension "
            "spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    return _make_view(arr, self)


def reshape(self, shape):
    x = self._data
    target = _shape_arg(shape, x.size)
    arr = _viewed(x, target)
    if arr is not None:
        return _make_view(arr, self)
    if self._dev.type == "meta":  # no data to copy (see Note [Meta strategies])
        return _make_meta(target, self.dtype)
    return out(np.reshape(x, target).copy(), self)


def t(self):
    if self._data.ndim > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
    return _make_view(self._data.T, self)


def transpose(self, dim0, dim1):
    n = self._data.ndim
    d0, d1 = _wrap_dim(dim0, n), _wrap_dim(dim1, n)
    if n == 0:  # a 0-d tensor's dims 0 and -1 name its one pseudo-dimension: the view is itself
        return _make_view(self._data[...], self)
    return _make_view(np.swapaxes(self._data, d0, d1), self)


def permute(self, dims):
    n = self._data.ndim
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                           f"the length of the desired ordering of dimensions i.e. input.dim() = {n} is not "
                           f"equal to len(dims) = {len(dims)}")
    axes = [_wrap_dim(d, n) for d in dims]
    if len(set(axes)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _make_view(np.transpose(self._data, axes), self)


def expand_error(shape, target):
    """torch's error for expanding ``shape`` to ``target`` (it names the last dimension that differs),
    or None when the sizes agree."""
    lead = len(target) - len(shape)
    for i, (s, t) in reversed(list(enumerate(zip(shape, target[lead:])))):
        if s != t and s != 1:
            return RuntimeError(f"The expanded size of the tensor ({t}) must match the existing size ({s}) at "
                                f"non-singleton dimension {i + lead}.  Target sizes: {list(target)}.  "
                                f"Tensor sizes: {list(shape)}")
    return None


def expand(self, size, *, implicit=False):
    x = self._data
    size = list(size)
    if len(size) < x.ndim:
        raise RuntimeError(f"expand(opyard.{self.dtype.name}{{{list(x.shape)}}}, size={size}): the number of "
                           f"sizes provided ({len(size)}) must be greater or equal to the number of "
                           f"dimensions in the tensor ({x.ndim})")
    lead = len(size) - x.ndim
    target = [x.shape[i - lead] if s == -1 else s for i, s in enumerate(size)]
    try:
        arr = np.broadcast_to(x, target)
    except ValueError:
        raise (expand_error(list(x.shape), size) or RuntimeError(
            f"The expanded size of the tensor ({target}) must match the existing size ({list(x.shape)})")) from None
    if type(arr) is np.ndarray and 1 in target:
        arr = _lead_strides(arr, x, lead)
    return _make_view(arr, self)


def _lead_strides(arr, x, lead):
    """torch's strides for an expand with new leading dimensions (``inferExpandGeometry``): the old
    dimensions keep ``x``'s strides (expanded ones 0, as numpy), a new dimension of size 1 takes the
    extent of the one after it (size x stride; 0 for a 0-d input's last), other new ones 0. The same memory as ``arr``."""
    strides = [0] * lead + [0 if n != m else st for n, m, st in zip(arr.shape[lead:], x.shape, x.strides)]
    for i in range(lead - 1, -1, -1):
        if arr.shape[i] == 1:
            strides[i] = arr.shape[i + 1] * strides[i + 1] if i + 1 < arr.ndim else 0
    return np.lib.stride_tricks.as_strided(arr, arr.shape, strides, writeable=arr.flags.writeable)


def unsqueeze(self, dim):
    d = _wrap_dim(dim, self._data.ndim + 1)
    return _make_view(np.expand_dims(self._data, d), self)


def squeeze(self):
    return _make_view(np.squeeze(self._data), self)


def squeeze_dim(self, dim):
    x = self._data
    if x.ndim == 0:
        return _make_view(x[...], self)
    d = _wrap_dim(dim, x.ndim)
    return _make_view(np.squeeze(x, d) if x.shape[d] == 1 else x[...], self)


def squeeze_dims(self, dim):
    x = self._data
    if x.ndim == 0:
        return _make_view(x[...], self)
    dims = {_wrap_dim(d, x.ndim) for d in dim}
    axes = tuple(d for d in sorted(dims) if x.shape[d] == 1)
    return _make_view(np.squeeze(x, axes) if axes else x[...], self)


def movedim(self, source, destination):
    n = self._data.ndim
    src, dst = _wrap_dim(source, n), _wrap_dim(destination, n)
    if n == 0:  # dim 0 / -1 of the one element: nothing moves
        return _make_view(self._data, self)
    return _make_view(np.moveaxis(self._data, src, dst), self)


def movedim_intlist(self, source, destination):
    source, destination = list(source), list(destination)
    if len(source) != len(destination):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({source} dims) should contain the "
                           f"same number of dims as destination ({destination} dims)")
    n = self._data.ndim
    src = [_wrap_dim(d, n) for d in source]
    dst = [_wrap_dim(d, n) for d in destination]
    for given, wrapped, name in ((source, src, "source"), (destination, dst, "destination")):
        if len(set(wrapped)) != len(wrapped):
            raise RuntimeError(f"movedim: repeated dim in `{name}` ({given})")
    if n == 0:
        return _make_view(self._data, self)
    return _make_view(np.moveaxis(self._data, src, dst), self)


def unflatten(self, dim, sizes):
    # A composite of ``view``, as torch's (so its history is a ViewBackward0).
    shape = list(self.shape)
    d = _wrap_dim(dim, len(shape))
    if not shape:  # torch's wording: the dim check of its view, wrapped in unflatten's own error
        raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {d} but tensor has no "
                           "dimensions")
    sizes = list(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    try:
        inner = _shape_arg(sizes, shape[d])
    except RuntimeError:
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} "
                           f"({shape[d]}) in the input tensor") from None
    return A.view(self, shape[:d] + list(inner) + shape[d + 1:])


_REVERSED = slice(None, None, -1)


def flip(self, dims):
    n = self._data.ndim
    axes = [_wrap_dim(d, n) for d in dims]
    _no_repeats(axes)
    if n == 0:  # one element: dim 0 / -1 flips nothing (torch), where numpy has no axis to flip
        return out(self._data.copy(), self)
    key = [slice(None)] * n  # np.flip's own indexing, without its frames
    for a in axes:
        key[a] = _REVERSED
    return out(self._data[tuple(key)].copy(), self)


def repeat(self, repeats):
    x = self._data
    repeats = [int(r) for r in repeats]
    if len(repeats) < x.ndim:
        raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions "
                           "of tensor (aten::repeat)")
    if any(r < 0 for r in repeats):
        raise RuntimeError(f"Trying to create tensor with negative dimension: {repeats} (aten::repeat)")
    return out(np.tile(x.reshape((1,) * (len(repeats) - x.ndim) + x.shape), repeats), self)


def _tri(fn, name):
    def kernel(self, diagonal=0):
        if self._data.ndim < 2:
            raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions (aten::{name})")
        return out(fn(self._data, diagonal), self)
    kernel.__name__ = name
    return kernel


def select(self, dim, index):
    x = self._data
    if not x.ndim:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(x.shape)} at dimension {d}")
    i = index + size if index < 0 else index
    # Slice then drop the axis: integer indexing would return a numpy scalar, not a view.
    key = [slice(None)] * d + [slice(i, i + 1)]
    return _make_view(np.squeeze(x[tuple(key)], axis=d), self)


def slice_(self, dim=0, start=None, end=None, step=1):
    x = self._data
    if step <= 0:
        raise RuntimeError("slice step must be positive")
    d = _wrap_dim(dim, x.ndim)
    key = [slice(None)] * d + [slice(start, end, step)]
    return _make_view(x[tuple(key)], self)


def alias(self):
    return _make_view(self._data[...], self)


def detach(self):
    return _make_detached(self._data[...], self)


def clone(self, *, memory_format=None):
    """A copy; ``preserve_format`` (the default) keeps the layout of a dense input, as numpy's order K;
    ``channels_last`` lays it out as NHWC."""
    if memory_format is not None and memory_format.name.startswith("channels_last"):
        arr = laid_out(lambda s: np.empty(s, self._data.dtype), self._data.shape, memory_format)
        arr[...] = self._data
        return out(arr, self)
    x = self._data
    keep = memory_format is not contiguous_format and not x.flags.c_contiguous and _dense(x)
    return out(np.array(x, copy=True, order="K" if keep else "C"), self)


def _dense(x):
    """Whether ``x`` is non-overlapping and dense (torch's test for keeping strides in ``clone``):
    its dims, by stride, each step over exactly the dims inside them. An expanded or gappy array is
    copied row-major instead, as torch does (numpy's order K would lay an expanded row out by column)."""
    dims = sorted((abs(st), n) for st, n in zip(x.strides, x.shape) if n != 1)
    step = x.itemsize
    for st, n in dims:
        if st != step:
            return False
        step *= n
    return True


def _joined(tensors):
    """The arrays of ``tensors`` in their promoted dtype (``cat``/``stack``): the arrays themselves
    when they share one dtype (the common call: promotion gives it back, no cast to make)."""
    arrays = [t._data for t in tensors]
    first = arrays[0].dtype
    for a in arrays:
        if a.dtype != first:
            dt = tensor_result_dtype(*tensors).np
            return [a.astype(dt, copy=False) for a in arrays]
    return arrays


def cat(tensors, dim=0):
    if not tensors:
        raise ValueError("opyard.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if not t._data.ndim:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    check_same_device("aten::cat", *tensors)
    arrays = [a for a in _joined(tensors) if not (a.ndim == 1 and a.size == 0)]
    if not arrays:
        return out(np.zeros(0, dtype=tensor_result_dtype(*tensors).np), tensors[0])
    d = _wrap_dim(dim, arrays[0].ndim)
    try:
        return out(np.concatenate(arrays, axis=d), tensors[0])
    except ValueError as e:
        raise RuntimeError(f"torch.cat(): Sizes of tensors must match except in dimension {d}: {e}") from None


def stack(tensors, dim=0):
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    shapes = {t._data.shape for t in tensors}
    if len(shapes) > 1:
        raise RuntimeError(f"stack expects each tensor to be equal size, but got {sorted(shapes)}")
    check_same_device("aten::stack", *tensors)
    arrays = _joined(tensors)
    d = _wrap_dim(dim, arrays[0].ndim + 1)
    key = (slice(None),) * d + (None,)  # np.stack's own steps (a new axis each, then concatenate)
    return out(np.concatenate([a[key] for a in arrays], axis=d), tensors[0])


def split(self, split_size, dim=0):
    x = self._data
    if not x.ndim:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, x.ndim)
    n = x.shape[d]
    if split_size <= 0 and n > 0:
        raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}")
    bounds = [0, *range(split_size, n, split_size), n] if split_size else [0, n]
    # np.split's pieces (its swapaxes and slices make the very arrays ``slice`` makes), each made by
    # ``slice``'s kernel (Note [Piece kernels])
    return [_SLICE(self, d, a, b, 1) for a, b in zip(bounds, bounds[1:])]


def chunk(self, chunks, dim=0):
    # A composite of ``split``, as torch's (its outputs' history is a SplitBackward0).
    if not self._data.ndim:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: %d" % chunks)
    shape = self.shape
    size = shape[_wrap_dim(dim, len(shape))]
    return A.split__Tensor(self, max(-(-size // chunks), 1), dim)


def narrow(self, dim, start, length):
    x = self._data
    if x.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if length < 0:
        raise RuntimeError("narrow(): length must be non-negative.")
    d = _wrap_dim(dim, x.ndim)
    size = x.shape[d]
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_(self, d, start, start + length)


def unbind(self, dim=0):
    d = _wrap_dim(dim, self._data.ndim)
    if not self._data.ndim:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    return [_SELECT(self, d, i) for i in range(self._data.shape[d])]  # Note [Piece kernels]


def diagonal(self, offset=0, dim1=0, dim2=1):
    n = self._data.ndim
    d1, d2 = _wrap_dim(dim1, n), _wrap_dim(dim2, n)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    d = np.diagonal(self._data, offset, d1, d2)
    if self._data.flags.writeable:
        d.flags.writeable = True  # numpy hands out a read-only diagonal; torch's is writable
    return _make_view(d, self)


# Note [Piece kernels]: ``split`` and ``unbind`` make their pieces with ``slice``'s and ``select``'s
# CPU kernels: the Rust ones when the fast paths are on (the same views as the Python kernels, made
# without a frame each: Note [Shape views as numpy makes them], src/python/kernels_py/view_shape.rs),
# which hand any other input (a meta probe, a subclass) to the Python kernels.
_SELECT, _SLICE = ((_core.RustKernel("select.int", select), _core.RustKernel("slice.Tensor", slice_))
                   if _core.FAST_PATHS else (select, slice_))

KERNELS = {
    "narrow": narrow, "unbind.int": unbind, "diagonal": diagonal,
    "view": view, "reshape": reshape, "t": t, "transpose.int": transpose, "permute": permute,
    "expand": expand, "unsqueeze": unsqueeze, "squeeze": squeeze, "squeeze.dim": squeeze_dim,
    "select.int": select, "slice.Tensor": slice_, "alias": alias, "detach": detach, "clone": clone,
    "cat": cat, "stack": stack, "split.Tensor": split, "squeeze.dims": squeeze_dims,
    "movedim.int": movedim, "movedim.intlist": movedim_intlist, "flip": flip, "repeat": repeat,
    "triu": _tri(np.triu, "triu"), "tril": _tri(np.tril, "tril"),
}




def expand_as(self, other):
    return A.expand(self, list(other.shape))


def view_as(self, other):
    return A.view(self, list(other.shape))


def flatten(self, start_dim=0, end_dim=-1):
    if start_dim == 0 and end_dim == -1 and type(self) is Tensor and self._data.ndim > 1:
        # The common call on a plain tensor (a subclass may have symbolic sizes): every dim into one,
        # of the product of their sizes, numpy's ``size``.
        return A.reshape(self, [self._data.size])
    n = self.dim()
    if n == 0:
        return A.reshape(self, [1])
    s, e = _wrap_dim(start_dim, n), _wrap_dim(end_dim, n)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return self
    shape = list(self.shape)
    size = 1
    for d in shape[s:e + 1]:
        size = size * d  # symbolic sizes stay symbolic (s75 * s96)
    return A.reshape(self, shape[:s] + [size] + shape[e + 1:])


def narrow_tensor(self, dim, start, length):
    """``narrow`` with its start given as a 0-dim integral tensor (its value read)."""
    if start.dim() != 0 or start.dtype.is_floating_point or start.dtype.is_complex or start.dtype is D.bool:
        raise RuntimeError("start must be an 0-dim integral Tensor.")
    return A.narrow(self, dim, int(A._local_scalar_dense(start)), length)


def contiguous(self, *, memory_format=0):
    if memory_format == 0 and type(self) is Tensor and self._meta_strides is None and self._data.flags.c_contiguous:
        # The common call, on a plain row-major tensor: itself. Its array's flag is the answer of
        # ``is_contiguous`` (which a subclass may answer otherwise), without the method's frame.
        return self
    fmt = memory_format if isinstance(memory_format, _MemoryFormat) else contiguous_format
    if fmt is contiguous_format or fmt is preserve_format:
        return self if self.is_contiguous() else A.clone(self, memory_format=contiguous_format)
    check_memory_format_rank(fmt, self.dim())
    return self if self.is_contiguous(memory_format=fmt) else A.clone(self, memory_format=fmt)


# Compositions of other operators (CompositeImplicitAutograd: autograd comes from the parts).
# Operators whose result views ``self`` (their Meta kernels view too).
VIEWS = {"view", "reshape", "t", "transpose.int", "permute", "expand", "unsqueeze", "squeeze", "squeeze.dim",
         "squeeze.dims", "select.int", "slice.Tensor", "alias", "detach", "split.Tensor", "narrow",
         "unbind.int", "diagonal", "movedim.int", "movedim.intlist"}
COMPOSITE = {"expand_as": expand_as, "view_as": view_as, "flatten.using_ints": flatten,
             "contiguous": contiguous, "chunk": chunk, "unflatten.int": unflatten, "narrow.Tensor": narrow_tensor}
