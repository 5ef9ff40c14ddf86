"""Meta kernels: shape, dtype, strides and device of the result, without data.

Note [Meta strategies]: a meta tensor's ``_data`` is a zero-stride broadcast of
one read-only zero (see Note [Tensor layout]); its strides and storage offset
live in ``_meta_strides`` / ``_meta_offset``. Each kind of operator derives
its Meta kernel from its CPU kernel:
- views run the CPU kernel on a *probe*: a numpy array with the meta tensor's
  real strides over a one-element buffer. numpy view operations only touch
  metadata, so the probe's result carries the view's exact shape, strides and
  offset, which move onto a new meta view of the input. The probe never leaves
  this module and its data is never read (``reshape`` does not copy on meta, and
  the no-copy test of ``view``/``reshape`` runs on its metadata: ``_ProbeArray``);
- pointwise ops run on small stand-ins (every size capped at 2, the input's
  stride order kept), which give torch's result dtype and numpy's output
  layout; the shape is the broadcast of the real shapes;
- reductions run on stand-ins whose dimension i has size i + 2, so the sizes
  that survive name the dimensions they came from;
- everything else runs on zero-filled stand-ins of the real shape and layout;
  only the result's metadata is kept;
- in-place ops check on stand-ins, then return ``self`` with its version bumped;
- ops whose output shape depends on data (``nonzero``) or that return data
  (``allclose``) refuse meta tensors.
"""

import numpy as np
from numpy.lib.stride_tricks import as_strided

from .. import _dtype as D
from .._tensor import _META_KEYS, META, Size, Tensor, _make, _make_detached, _make_meta, _make_view, _new, _ZERO
from .._tensor import is_contiguous_strides
from . import return_types as RT
from .common import broadcast_shape, check_same_device
from .factory import format_strides, like_format

__all__ = ["pointwise", "inplace", "reduction", "view", "proxy", "like", "data_dependent", "topk", "one_hot"]

_BUFFERS = D.by_np(lambda d: np.zeros(1, dtype=d.np))


def _tensors(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (x for x in a if isinstance(x, Tensor))


def _zeros_in_layout(shape, strides, np_dtype):
    """Zeros of ``shape`` whose dimensions are laid out in the order of ``strides``."""
    n = len(shape)
    if n < 2 or is_contiguous_strides(shape, strides):
        return np.zeros(shape, dtype=np_dtype)
    order = sorted(range(n), key=lambda i: -strides[i])  # outermost first; ties keep their order
    return np.zeros([shape[i] for i in order], dtype=np_dtype).transpose(np.argsort(order))


def _stand_in(x, shape_fn):
    if isinstance(x, Tensor):
        shape = shape_fn(x._data.shape)
        strides = x.stride() if len(shape) == x._data.ndim else ()
        return _make(_zeros_in_layout(shape, strides, x._data.dtype))
    if isinstance(x, (list, tuple)) and any(isinstance(e, Tensor) for e in x):
        return type(x)(_stand_in(e, shape_fn) for e in x)
    return x


def _call_on(kernel, args, kwargs, shape_fn):
    a = [_stand_in(x, shape_fn) for x in args]
    k = {n: _stand_in(v, shape_fn) for n, v in kwargs.items()}
    return kernel(*a, **k)


def _elem_strides(arr):
    item = arr.itemsize
    return tuple(s // item for s in arr.strides)


def _to_meta(result):
    """A result computed on stand-ins, as meta tensors with the same metadata."""
    if isinstance(result, Tensor):
        a = result._data
        return _make_meta(a.shape, D.FROM_NP[a.dtype], _elem_strides(a))
    if isinstance(result, (list, tuple)):
        return type(result)(_to_meta(r) for r in result)
    return result


def _dense_strides(like, shape):
    """Dense strides for ``shape`` with the dimension order of the array ``like`` (None: row-major)."""
    n = len(shape)
    order = sorted(range(n), key=lambda i: -like.strides[i])
    if order == list(range(n)):
        return None
    strides, acc = [0] * n, 1
    for i in reversed(order):
        strides[i] = acc
        acc *= max(shape[i], 1)
    return strides


def _mini(shape):
    return tuple(min(s, 2) for s in shape)


def pointwise(kernel, name):
    def meta(*args, **kwargs):
        ts = list(_tensors(args, kwargs))
        check_same_device(name, *ts)
        shape = broadcast_shape(name, *(t._data.shape for t in ts))
        r = _call_on(kernel, args, kwargs, _mini)
        if isinstance(r, Tensor):
            return _make_meta(shape, D.FROM_NP[r._data.dtype], _dense_strides(r._data, shape))
        return r
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


# The in-place ops whose meta kernel torch writes in Python (``meta_binop_inplace``): their
# broadcast error prints the shapes as Python does (``torch.Size([3])``, ``(2, 3)``).
_PYTHON_META_BROADCAST = frozenset(
    f"aten::{op}{overload}" for op in ("add_", "sub_", "mul_", "div_") for overload in (".Tensor", ".Scalar")
) | frozenset({"aten::logical_and_", "aten::logical_or_", "aten::logical_xor_"})


def inplace(kernel, name):
    """In-place ops: the checks of ``kernel`` on stand-ins, then ``self`` with its version bumped."""
    python_meta = name in _PYTHON_META_BROADCAST

    def meta(self, *args, **kwargs):
        check_same_device(name, self, *_tensors(args, kwargs))
        if python_meta and args and isinstance(args[0], Tensor):
            _check_inplace_broadcast(self._data.shape, args[0]._data.shape)
        _call_on(kernel, (self,) + args, kwargs, lambda s: s)
        self._bump_version()
        return self
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def _check_inplace_broadcast(shape, other):
    try:
        both = np.broadcast_shapes(shape, other)
    except ValueError:
        return  # not broadcastable at all: the kernel's own error
    if both != tuple(shape):
        raise RuntimeError(f"output with shape {Size(shape)!r} doesn't match the broadcast shape {both}")


def reduction(kernel, name):
    def meta(self, *args, **kwargs):
        shape = self._data.shape
        # Dimension i of the stand-in has size i + 2: surviving sizes name their dimension.
        r = _call_on(kernel, (self,) + args, kwargs, lambda s: tuple(i + 2 for i in range(len(s))))

        def fix(t):
            if not isinstance(t, Tensor):
                return t
            real = tuple(shape[s - 2] if s >= 2 else 1 for s in t._data.shape)
            return _make_meta(real, D.FROM_NP[t._data.dtype])
        if isinstance(r, tuple):
            return type(r)(fix(t) for t in r)
        return fix(r)
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def _viewable(shape, strides, target):
    """Whether ``target`` (same element count) is a view of ``shape``/``strides`` without a copy:
    torch's ``computeStride`` test, which numpy's no-copy reshape also applies. Each run of
    dimensions that are contiguous with each other must be split or merged exactly."""
    if 0 in shape or not shape:
        return True
    view_d, chunk, tensor_n, view_n = len(target) - 1, strides[-1], 1, 1
    for d in range(len(shape) - 1, -1, -1):
        tensor_n *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and strides[d - 1] != tensor_n * chunk):
            while view_d >= 0 and (view_n < tensor_n or target[view_d] == 1):
                view_n *= target[view_d]
                view_d -= 1
            if view_n != tensor_n:
                return False
            if d > 0:
                chunk, tensor_n, view_n = strides[d - 1], 1, 1
    return view_d == -1


class _ProbeArray(np.ndarray):
    """The probe's array. numpy's no-copy reshape (the CPU ``view``/``reshape`` kernels' test)
    reshapes *with a copy* when no view exists and only then refuses: on a probe that copy would
    read its whole extent from a one-element buffer (garbage, or a crash for large shapes). Here
    the test comes first, on the metadata: the kernels call ``view_as_shape`` (``shape._viewed``)."""

    __slots__ = ()

    def view_as_shape(self, target):
        """This array viewed with shape ``target``, or None when no view exists (nothing is read)."""
        target = tuple(target)
        if not _viewable(self.shape, [s // self.itemsize for s in self.strides], target):
            return None
        return np.ndarray.reshape(self, target)  # a view exists: numpy makes it without copying


def _probe(t):
    """A tensor over a one-element buffer with ``t``'s shape and strides: metadata only, never read."""
    a = t._data
    item = a.itemsize
    arr = as_strided(_BUFFERS[a.dtype], a.shape, [s * item for s in t.stride()], writeable=False)
    arr = arr.view(_ProbeArray)
    p = _new(Tensor)
    p._data = arr
    p._dev = META
    p._keyset = _META_KEYS
    return p


def _address(arr):
    return arr.__array_interface__["data"][0]


def view(kernel, name):
    """Views: the CPU kernel on a probe (see Note [Meta strategies])."""
    def meta(self, *args, **kwargs):
        probe = _probe(self)
        start = _address(probe._data)
        offset = self.storage_offset()

        def conv(v):
            if not isinstance(v, Tensor):
                return v
            a = v._data
            if v._base is probe:
                m = _make_view(np.broadcast_to(_ZERO[a.dtype], a.shape), self)
            elif v._base is None and v is not probe and _over(a, probe._data):
                # ``detach``: the probe's memory, no view of it for autograd; its strides are the probe's
                m = _make_detached(np.broadcast_to(_ZERO[a.dtype], a.shape), self)
            else:
                return v  # not over the probe (e.g. reshape that had to copy): already meta
            m._meta_strides = _elem_strides(a)
            m._meta_offset = offset + (_address(a) - start) // a.itemsize
            return m
        r = kernel(probe, *args, **kwargs)
        return type(r)(conv(v) for v in r) if isinstance(r, (list, tuple)) else conv(r)
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def _over(a, probe_data):
    """Whether array ``a`` is a view of the probe's array (of its memory, not a copy)."""
    return a.base is probe_data or (probe_data.base is not None and a.base is probe_data.base)


def proxy(kernel, name):
    def meta(*args, **kwargs):
        check_same_device(name, *_tensors(args, kwargs))
        return _to_meta(_call_on(kernel, args, kwargs, lambda s: s))
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def topk(kernel, name):
    """``topk``: the input's shape with ``k`` along ``dim``; values and int64 indices."""
    def meta(self, k, dim=-1, largest=True, sorted=True):
        shape = list(self._data.shape)
        if shape:
            d = dim + len(shape) if dim < 0 else dim
            if not 0 <= k <= shape[d]:
                raise RuntimeError(f"selected index k out of range ({name}: k={k}, dimension {d} has size "
                                   f"{shape[d]})")
            shape[d] = k
        return RT.topk((_make_meta(shape, self.dtype), _make_meta(shape, D.int64)))
    meta.__name__ = "meta_topk"
    return meta


def like(kernel, name):
    """``*_like`` / ``new_*``: the requested (or the input's) shape and dtype, on the meta device."""
    creates_new_shape = name.startswith("aten::new_")

    def meta(self, *args, dtype=None, **kwargs):
        shape = args[0] if creates_new_shape else self._data.shape
        strides = None if creates_new_shape else \
            format_strides(tuple(shape), like_format(self, kwargs.get("memory_format")))
        return _make_meta(tuple(int(s) for s in shape), dtype if dtype is not None else D.FROM_NP[self._data.dtype],
                          strides)
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def data_dependent(kernel, name):
    def meta(*args, **kwargs):
        raise NotImplementedError(
            f"{name}: the result depends on the input data, which meta tensors do not have; "
            "under FakeTensorMode register a fake impl (ctx.new_dynamic_size() for data-dependent sizes)"
        )
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def one_hot(self, num_classes=-1):
    """``one_hot``: known only when ``num_classes`` is given (otherwise it depends on the data)."""
    if num_classes == -1:
        raise NotImplementedError(
            "aten::one_hot: with num_classes=-1 the result depends on the input data, which meta tensors "
            "do not have; pass num_classes explicitly")
    if self.dtype is not D.int64:
        raise RuntimeError("one_hot is only applicable to index tensor of type LongTensor.")
    return _make_meta(tuple(self._data.shape) + (int(num_classes),), D.int64)


# The hand-written Meta kernels of this module (the others are derived by kind).
META_KERNELS = {"one_hot": one_hot}
