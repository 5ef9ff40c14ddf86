"""Helpers shared by the numpy kernels: wrapping results, promotion, devices."""

import numpy as np

from .. import _dtype as D
from .._tensor import CPU, META, Tensor, _make, _make_meta, _make_view, _wrap_dim  # noqa: F401

Tensor_ = Tensor


def out(arr, ref):
    """Wrap a numpy result on ``ref``'s device (``ref`` is the first tensor argument)."""
    if not isinstance(arr, np.ndarray):
        arr = np.asarray(arr)
    dev = ref._dev
    return _make(arr, None if dev is CPU else dev)


def np_dtype(dt):
    return None if dt is None else dt.np


def check_same_device(op_name, *tensors):
    """torch's error for arguments on different devices."""
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


def tensor_result_dtype(*items):
    """torch's promotion over tensors (dimensioned beat zero-dim) and Python scalars."""
    dims, zeros, scalars = [], [], []
    for x in items:
        if isinstance(x, Tensor):
            (dims if x._data.ndim else zeros).append(D.FROM_NP[x._data.dtype])
        elif x is not None:
            scalars.append(x)
    if dims:
        r = dims[0]
        for d in dims[1:]:
            r = D.promote_types(r, d)
        if zeros:
            z = zeros[0]
            for d in zeros[1:]:
                z = D.promote_types(z, d)
            if z._cat > r._cat:
                r = z
    elif zeros:
        r = zeros[0]
        for d in zeros[1:]:
            r = D.promote_types(r, d)
    else:
        return D.result_type([D.scalar_dtype(scalars[0])], scalars[1:])
    return D.result_type([r], scalars) if scalars else r


def data_as(x, dt):
    """``x``'s data in dtype ``dt`` (no copy when it already is); Python scalars pass through."""
    if isinstance(x, Tensor):
        a = x._data
        return a if a.dtype == dt.np else a.astype(dt.np)
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
    return tuple(_wrap_dim(d, ndim) for d in dim)


def inplace_result(self, result, op_name):
    """Write ``result`` into ``self`` (torch's cast rule), bump its version, return ``self``."""
    dt = D.FROM_NP[self._data.dtype]
    rdt = D.FROM_NP[np.asarray(result).dtype] if isinstance(result, np.ndarray) else dt
    if rdt._cat > dt._cat:
        raise RuntimeError(
            f"result type {_legacy(rdt)} can't be cast to the desired output type {_legacy(dt)} "
            f"(in {op_name})"
        )
    if not self._data.flags.writeable:
        raise RuntimeError(f"{op_name}: unsupported operation: the tensor is a read-only "
                           "(expanded or meta) view; clone() it first")
    self._data[...] = result
    self._bump_version()
    return self


def _legacy(dt):
    return {"float32": "Float", "float64": "Double", "int64": "Long", "int32": "Int", "bool": "Bool",
            "float16": "Half", "complex64": "ComplexFloat", "complex128": "ComplexDouble",
            "int16": "Short", "int8": "Char", "uint8": "Byte"}[dt.name]
