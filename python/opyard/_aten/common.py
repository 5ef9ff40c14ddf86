"""Helpers shared by the numpy kernels: wrapping results, promotion, devices."""

import math

import numpy as np

from .. import _dtype as D
from .._tensor import CPU, CPU_KEYS, META, Tensor, _make, _make_meta, _make_view, _wrap_dim  # noqa: F401
from .._tensor import _new, device_keys

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
    t = _new(Tensor)
    t._data = arr
    dev = ref._dev
    if dev is CPU:
        t._keyset = CPU_KEYS
    else:
        t._dev = dev
        t._keyset = device_keys(dev)
    return t


def as_array(x):
    """``x`` as an array of its own backend (numpy scalars and lists become numpy arrays)."""
    if isinstance(x, _generic):  # what ufuncs and reductions return for 0-d results
        return np.asarray(x)
    if isinstance(x, _ndarray) or hasattr(x, "__cuda_array_interface__"):
        return x
    return np.asarray(x)


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


def tensor_result_dtype(*items):
    """torch's ``result_type`` over tensors and Python numbers (ATen's ResultTypeState): dimensioned
    tensors, then zero-dim tensors, then wrapped numbers, each weaker group only raising the
    category (``D.combine_categories``)."""
    dims, zeros, wrapped = [], [], []
    for x in items:
        if isinstance(x, Tensor):
            (dims if x._data.ndim else zeros).append(D.FROM_NP[x._data.dtype])
        elif x is not None:
            wrapped.append(D.wrapped_scalar_dtype(x))
    return D.combine_categories(_promote_all(dims),
                                D.combine_categories(_promote_all(zeros), _promote_all(wrapped)))


def data_as(x, dt):
    """``x``'s data in dtype ``dt`` (no copy when it already is). Python numbers pass through, except
    integers outside an integral ``dt``, which wrap around as in torch (numpy would raise)."""
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype == dt.np else a.astype(dt.np)
    if dt._cat == 1 and type(x) is int:
        info = np.iinfo(dt.np)
        if not info.min <= x <= info.max:
            return np.asarray(x % (1 << (8 * dt.itemsize))).astype(dt.np)
    return x


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
    # A 0-d tensor takes dim 0 / -1 (torch treats it as one element): numpy's axes of it are ().
    return () if ndim == 0 else axes


def inplace_result(self, result, op_name):
    """Write ``result`` into ``self`` (torch's cast and shape rules), bump its version, return ``self``."""
    x = self._data
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


# torch's C++ element type names, as its "value cannot be converted to type int64_t" messages print them.
_C_TYPES = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t",
            "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t", "float32": "float",
            "float64": "double", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
# Per dtype name: (C type, category, lowest, highest) the values a fill checks against (for floating
# and complex types, the largest finite magnitude of one component), made once.
_FILL_RANGE = {}
for _n, _c in _C_TYPES.items():
    if not hasattr(np, _n):
        continue
    if _n[0] in "iu":
        _info = np.iinfo(getattr(np, _n))
        _FILL_RANGE[_n] = (_c, 1, int(_info.min), int(_info.max))
    else:
        _top = float(np.finfo(getattr(np, _n)).max)
        _FILL_RANGE[_n] = (_c, 3 if _n.startswith("complex") else 2, -_top, _top)
# bfloat16 is ml_dtypes', not numpy's: its largest finite value written out.
_FILL_RANGE["float16"] = ("c10::Half", 2, -65504.0, 65504.0)
_FILL_RANGE["bfloat16"] = ("c10::BFloat16", 2, -3.3895313892515355e38, 3.3895313892515355e38)


def checked_fill(value, dt):
    """torch's ``checked_convert`` of a Scalar to the element type of ``dt`` (``full``, ``fill_``):
    the value to store, or RuntimeError when ``dt`` cannot hold it. As in torch, bool takes
    anything, a floating type takes inf and nan but no finite value past its largest, and
    unsigned types take ints down to ``-max`` (wrapped)."""
    spec = _FILL_RANGE.get(dt.name)
    tv = type(value)
    if spec is None:
        return value
    name, cat, lo, hi = spec
    if tv is complex:
        if cat == 3:
            if any(math.isfinite(p) and abs(p) > hi for p in (value.real, value.imag)):
                raise _overflow(name)
            return value
        if value.imag != 0:
            raise _overflow(name)
        value, tv = value.real, float
    if cat == 1:
        if tv is float:
            if not math.isfinite(value) or not lo <= math.trunc(value) <= hi:
                raise _overflow(name)
        elif tv is int and not (lo or -hi) <= value <= hi:
            raise _overflow(name)
        elif tv is int and value < 0 and not lo:
            return value + hi + 1
    elif (tv is int or tv is float and math.isfinite(value)) and abs(value) > hi:
        raise _overflow(name)
    return value


def _overflow(c_type):
    return RuntimeError(f"value cannot be converted to type {c_type} without overflow")


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


def checked_fill_of(value, arr):
    """``checked_fill`` to the dtype of ``arr``, answering at once for the values every dtype holds
    (small non-negative ints, floats a half holds for a floating array): the common fills."""
    if (type(value) is int and 0 <= value <= 127
            or type(value) is float and arr.dtype.kind == "f" and -65504.0 <= value <= 65504.0):
        return value
    return checked_fill(value, D.FROM_NP[arr.dtype])
