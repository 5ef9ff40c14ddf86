"""Checks shared by the view kernel tests (``aten/test_cpu_kernels_views.py``,
``tensor/test_indexing_ints_and_slices.py``)."""

import numpy as np
import opyard


def _addr(a):
    """The address of an array's first byte."""
    return a.__array_interface__["data"][0]


def _inputs(dt=np.float32):
    """A contiguous tensor, a transposed view, an offset strided view and a read-only expand."""
    root = opyard.from_numpy((np.arange(24) % 7).astype(dt).reshape(2, 3, 4))
    return {
        "contiguous": root,
        "transposed": root.permute([2, 0, 1]),
        "offset": root[1:, :, 1::2],
        "expanded": opyard.from_numpy(np.arange(4).astype(dt)).expand(2, 3, 4),
    }


def same_as_python(name, got, want, x):
    """``got`` (the Rust kernel's) is ``want`` (the Python kernel's) viewing ``x``."""
    g, w = got.numpy(), want.numpy()
    assert type(got) is type(want) is opyard.Tensor
    assert g.dtype == w.dtype and g.shape == w.shape and g.strides == w.strides, name
    assert np.array_equal(g, w) and g.flags.writeable == w.flags.writeable
    root = x._base if x._base is not None else x
    if want._base is None:  # reshape's copy
        assert got._base is None and not np.shares_memory(g, x.numpy()) and g.flags.c_contiguous
        return
    assert _addr(g) == _addr(w)
    assert got._base is root and want._base is root
    assert got._keyset == want._keyset and got.device == want.device
    assert got.stride() == want.stride() and got.storage_offset() == want.storage_offset()
    v = got._version
    root._counter().bump()  # what every in-place op on the root does
    assert got._version == v + 1
