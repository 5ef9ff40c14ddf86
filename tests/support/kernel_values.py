"""Values and checks shared by the tests of the Rust CPU kernels (``aten/test_cpu_kernels_*.py``)."""

import numpy as np
import opyard

DTYPES = [np.float32, np.float64, np.int32, np.int64]
FLOATS = [np.float32, np.float64]
BINARY = ["add.Tensor", "sub.Tensor", "mul.Tensor", "div.Tensor"]
SCALAR = ["add.Scalar", "sub.Scalar", "mul.Scalar", "div.Scalar"]
INPLACE = ["add_.Tensor", "sub_.Tensor", "mul_.Tensor"]

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 1e-45, 3.4e38, -3.4e38, 1e308, 2.5e-7]
SPECIAL_INTS = {np.int32: [0, 1, -1, 7, -7, 2**31 - 1, -2**31, 46341],
                np.int64: [0, 1, -1, 7, -7, 2**63 - 1, -2**63, 3037000500]}


def values(dt):
    """Every special value of ``dt``, paired with every other one (two flat arrays)."""
    v = np.array(SPECIAL_INTS.get(dt, SPECIAL_FLOATS)).astype(dt)
    return np.repeat(v, len(v)), np.tile(v, len(v))


def same(got, want):
    """Bit-identical tensors: dtype, shape and bytes (nan payloads included)."""
    assert type(got) is opyard.Tensor
    g, w = got.numpy(), want.numpy()
    assert g.dtype == w.dtype and g.shape == w.shape
    assert g.tobytes() == w.tobytes(), (g, w)


def tensor(a):
    return opyard.from_numpy(np.ascontiguousarray(a))


def same_view(got, want, base):
    """``got`` is the view ``want`` is: dtype, shape, strides, memory, base and keys."""
    g, w = got.numpy(), want.numpy()
    assert type(got) is opyard.Tensor and g.dtype == w.dtype and g.shape == w.shape
    assert g.strides == w.strides and g.flags.writeable == w.flags.writeable is False
    assert np.array_equal(g, w) and (g.size == 0 or np.shares_memory(g, base.numpy()))
    root = base._base if base._base is not None else base
    assert got._base is root and want._base is root
    assert got._keyset == want._keyset and got.device == want.device


def as_test_dtype(v, dtype):
    """Float test values ``v`` in ``dtype``: for an integer dtype rounded into [-50, 50] (nan 0, inf
    +-9), for bool ``v > 0``, else cast as numpy casts (without its warnings)."""
    kind = np.dtype(dtype).kind
    if kind in "iu":
        v = np.nan_to_num(v, nan=0.0, posinf=9.0, neginf=-9.0).clip(-50, 50).round()
    elif kind == "b":
        v = v > 0
    with np.errstate(all="ignore"):
        return v.astype(dtype)
