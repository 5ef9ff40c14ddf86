"""Helpers shared by the numpy kernels: wrapping results, promotion, devices."""


import numpy as np

from .. import _dtype as D
from . import scalars
from .._tensor import CPU, CPU_KEYS, META, Tensor, _make, _make_meta, _make_view, _wrap_dim  # noqa: F401
from .._tensor import _make_tensor, device_keys

_ndarray = np.ndarray
_generic = np.generic

# numpy dtypes of floating and complex tensors. ml_dtypes' bfloat16 and float8 types have numpy
# kind "V", so "is it floating?" is asked of this set, not of ``dtype.kind``.
INEXACT = D.by_np(lambda d: d._cat >= 2, set())


def out(arr, ref):
    """Wrap a result array on ``ref``'s device (``ref`` is the first tensor argument).

    The constructor every kernel ends with, so it is written for speed: numpy
    scalars (what ufuncs return for 0-d inputs) become 0-d arrays; device arrays
    (cupy) pass through.
    """
    if type(arr) is not _ndarray:
        arr = as_array(arr)
    dev = ref._dev
    # One core call (``_make_tensor``) where ``Tensor.__new__`` and three attribute writes took
    # 48 ns more per kernel.
    if dev is CPU:
        return _make_tensor(Tensor, arr, CPU_KEYS)
    return _make_tensor(Tensor, arr, device_keys(dev), dev)


def as_array(x):
    """``x`` as an array of its own backend (numpy scalars and lists become numpy arrays)."""
    if isinstance(x, _generic):  # what ufuncs and reductions return for 0-d results
        return np.asarray(x)
    if isinstance(x, _ndarray) or hasattr(x, "__cuda_array_interface__"):
        return x
    return np.asarray(x)


try:  # numpy 2's error state: a context variable holding the flags ``np.errstate`` sets
    from numpy._core._multiarray_umath import _make_extobj
    from numpy._core._ufunc_config import _extobj_contextvar as _ERROR_STATE
except ImportError:  # numpy 1 keeps it elsewhere: the public context manager below
    _ERROR_STATE = None


def quietly(fn, *args):
    """``fn(*args)`` without numpy's floating-point warnings (torch gives inf and nan silently), for
    the kernels of small inputs: what ``np.errstate(all="ignore")`` does as a decorator (the same
    flags set for the call and reset after it), without its Python frames: 0.3 us a call where the
    decorator costs ~0.8 and the ``with`` statement ~1.4."""
    token = _ERROR_STATE.set(_make_extobj(all="ignore"))
    try:
        return fn(*args)
    finally:
        _ERROR_STATE.reset(token)


if _ERROR_STATE is None:
    @np.errstate(all="ignore")
    def quietly(fn, *args):  # noqa: F811 -- numpy 1's spelling of the same
        return fn(*args)


def np_dtype(dt):
    return None if dt is None else dt.np


def check_same_device(op_name, *tensors):
    """torch's error for arguments on different devices (a CPU + Meta call reaches the Meta
    kernel, a CPU + PrivateUse1 call the PrivateUse1 one: the kernel has to refuse it)."""
    first = None
    for t in tensors:
        if isinstance(t, Tensor):
            if first is None:
                first = t._dev
            elif t._dev != first:
                raise RuntimeError(
                    f"Expected all tensors to be on the same device, but found at least two devices, "
                    f"{first} and {t._dev}! (when checking arguments for {op_name})"
                )


def broadcast_shape(op_name, *shapes):
    """The broadcast of ``shapes``, or torch's error naming the first mismatching dimension."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise broadcast_error(op_name, *shapes) from None


def broadcast_error(op_name, *shapes):
    """torch's "The size of tensor a (3) must match the size of tensor b (4) ..." for two shapes."""
    shapes = [s._data.shape if isinstance(s, Tensor) else tuple(s) for s in shapes
              if isinstance(s, (Tensor, tuple, list))]
    for a, b in zip(shapes, shapes[1:]):
        n = max(len(a), len(b))
        for i in range(1, n + 1):
            da, db = (a[-i] if i <= len(a) else 1), (b[-i] if i <= len(b) else 1)
            if da != db and da != 1 and db != 1:
                return RuntimeError(f"The size of tensor a ({da}) must match the size of tensor b ({db}) "
                                    f"at non-singleton dimension {n - i} ({op_name})")
    return RuntimeError(f"shapes {[list(s) for s in shapes]} cannot be broadcast together ({op_name})")


def _promote_all(dtypes):
    r = None
    for d in dtypes:
        r = d if r is None else D.promote_types(r, d)
    return r


# The category of each Python number type (``_dtype._scalar_cat``), and a number of each: what
# ``tensor_result_dtype``'s common case reads where the general case builds each number's dtype.
_NUMBER_CATS = {bool: 0, int: 1, float: 2, complex: 3}
_OF_CAT = (False, 0, 0.0, 0j)


def tensor_result_dtype(*items):
    """torch's ``result_type`` over tensors and Python numbers (ATen's ResultTypeState): dimensioned
    tensors, then zero-dim tensors, then wrapped numbers, each weaker group only raising the
    category (``D.combine_categories``)."""
    # The common call (dimensioned tensors and Python numbers, ~0.5 us where the groups cost ~1.5):
    # the numbers' group is the wrapped dtype of their highest category (bool < int64 < the
    # default float < the default complex), and it changes the tensors' dtype only when of a
    # higher category.
    dt = None
    top = -1
    for x in items:
        if isinstance(x, Tensor):
            a = x._data
            if not a.ndim:
                return _grouped_result_dtype(items)
            d = D.FROM_NP[a.dtype]
            if dt is None:
                dt = d
            elif d is not dt:  # ``_promote_all``'s steps (``promote_types(d, d)`` is ``d``)
                try:
                    dt = D.promote_types(dt, d)
                except Exception:  # raised after checking every item: the general order
                    return _grouped_result_dtype(items)
        elif x is not None:
            cat = _NUMBER_CATS.get(type(x))
            if cat is None:  # a numpy scalar, a subclass: the general rules
                return _grouped_result_dtype(items)
            if cat > top:
                top = cat
    if dt is None:
        return _grouped_result_dtype(items)
    if top <= dt._cat:
        return dt
    return D.combine_categories(dt, D.wrapped_scalar_dtype(_OF_CAT[top]))


def _grouped_result_dtype(items):
    """``tensor_result_dtype`` by ATen's three groups, for any arguments."""
    dims, zeros, wrapped = [], [], []
    for x in items:
        if isinstance(x, Tensor):
            (dims if x._data.ndim else zeros).append(D.FROM_NP[x._data.dtype])
        elif x is not None:
            wrapped.append(D.wrapped_scalar_dtype(x))
    return D.combine_categories(_promote_all(dims),
                                D.combine_categories(_promote_all(zeros), _promote_all(wrapped)))


def data_as(x, dt):
    """``x``'s data in dtype ``dt`` (no copy when it already is); a Python number as an operand of a
    computation in ``dt`` (``scalars.wrapped``: an integer outside an integral ``dt`` wraps around)."""
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype == dt.np else a.astype(dt.np)
    return scalars.wrapped(x, dt)


def cast(arr, dt):
    return arr if arr.dtype == dt.np else arr.astype(dt.np)


def dims_arg(dim, ndim):
    """Normalize an ``int[1]? dim`` argument to a tuple of non-negative axes (None: all)."""
    if dim is None:
        return None
    if isinstance(dim, int):
        dim = [dim]
    if len(dim) == 0:
        return None
    axes = tuple(_wrap_dim(d, ndim) for d in dim)
    _no_repeats(axes)
    # A 0-d tensor takes dim 0 / -1 (torch treats it as one element): numpy's axes of it are ().
    return () if ndim == 0 else axes


def _no_repeats(axes):
    """torch's check on a list of wrapped dims: each once."""
    if len(set(axes)) != len(axes):
        seen = set()
        for a in axes:
            if a in seen:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
            seen.add(a)


def dims_list_arg(dim, ndim):
    """Normalize an ``int[]? dim`` argument whose empty list means *no* dim (``all.dims``,
    ``any.dims``): a tuple of non-negative axes, None for every dim."""
    if dim is None:
        return None
    axes = tuple(_wrap_dim(d, ndim) for d in dim)
    _no_repeats(axes)
    return () if ndim == 0 else axes


def inplace_result(self, result, op_name):
    """Write ``result`` into ``self`` (torch's cast and shape rules), bump its version, return ``self``."""
    x = self._data
    if type(result) is _ndarray and result.dtype is x.dtype and result.shape == x.shape and x.flags.writeable:
        # A kernel's result of ``self``'s dtype and shape (the common case): nothing to check.
        x[...] = result
        self._bump_version()
        return self
    dt = D.FROM_NP[x.dtype]
    rdt = D.FROM_NP.get(result.dtype, dt) if hasattr(result, "dtype") else dt
    if rdt._cat > dt._cat:
        raise RuntimeError(f"result type {_legacy(rdt)} can't be cast to the desired output type {_legacy(dt)}")
    shape = np.shape(result)
    if shape != x.shape and broadcast_shape(op_name, shape, x.shape) != x.shape:
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(shape, x.shape))} (in {op_name})")
    if not x.flags.writeable:
        raise read_only_error(op_name, x)
    x[...] = result
    self._bump_version()
    return self


# The rules for Python numbers meeting an element type live in ``scalars``; these names stay for the
# kernels written before it (``checked_fill`` is ``scalars.checked``).
checked_fill = scalars.checked
checked_fill_of = scalars.checked_of


_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single "
            "memory location. Please clone() the tensor before performing the operation.")


def _expanded(x):
    return any(st == 0 and n > 1 for st, n in zip(x.strides, x.shape))


def read_only_error(op_name, x):
    """The error for writing into a read-only array: torch's internal-overlap message for an
    expanded view (a 0 stride over more than one element), else the read-only buffer's own."""
    if _expanded(x):
        return RuntimeError(_OVERLAP)
    return RuntimeError(f"{op_name}: unsupported operation: the tensor's memory is read-only; clone() it first")


def writable_alias(x):
    """A writable array over the same memory as the read-only view ``x`` (an expanded view of a
    writable tensor), or None. Only for writes whose result does not depend on the order in which
    overlapping elements are written (``fill_``): torch allows those on expanded views. An array
    read-only for another reason (a read-only numpy array the user shared) stays so."""
    if not _expanded(x):
        return None
    root = x
    while isinstance(root.base, np.ndarray):
        root = root.base
    if not root.flags.writeable:
        return None
    offset = x.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    try:
        return np.ndarray(x.shape, x.dtype, buffer=root, offset=offset, strides=x.strides)
    except (TypeError, ValueError):  # a root that exports no contiguous buffer
        return None


def _legacy(dt):
    return D.LEGACY_NAMES[dt.name]


class _Aten:
    """``A.name__overload``: the overloads composite kernels call, each looked up once
    (``ops.aten.name.overload`` costs an attribute walk per call)."""

    def __getattr__(self, name):
        from .._ops import ops

        packet, _, overload = name.partition("__")
        op = getattr(getattr(ops.aten, packet), overload or "default")
        setattr(self, name, op)
        return op


A = _Aten()
