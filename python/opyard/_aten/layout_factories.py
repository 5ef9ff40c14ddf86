"""Factories of index lists and laid-out tensors: ``tril_indices`` / ``triu_indices`` (the
coordinates of a matrix's lower or upper triangle, row by row) and ``empty_permuted`` (an
uninitialized tensor whose dimensions are laid out in memory in a given order)."""

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .factory import _device, _new

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op


def _triangle(name, lower, row, col, offset, dtype, device, meta):
    if row < 0:
        raise RuntimeError(f"row must be non-negative, got{row}")
    if col < 0:
        raise RuntimeError(f"col must be non-negative, got{col}")
    dt = dtype if dtype is not None else D.int64
    if dt not in (D.int64, D.int32):
        raise NotImplementedError(f"\"{name}\" not implemented for '{D.legacy_name(dt)}'")
    # Per row r: columns [0, r + offset] (lower) or [r + offset, col) (upper), clipped to the matrix.
    r = np.arange(row)
    counts = np.clip(r + offset + 1, 0, col) if lower else col - np.clip(r + offset, 0, col)
    n = int(counts.sum())
    if meta or _device(device).type == "meta":
        return _make_meta((2, n), dt)
    if lower:
        rows, cols = np.tril_indices(row, offset, col)
    else:
        rows, cols = np.triu_indices(row, offset, col)
    return _new(np.stack([rows, cols]).astype(dt.np), device)


def _tril(meta):
    def kernel(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
        """The (2, N) coordinates of the lower triangle (on and below diagonal ``offset``), row by row."""
        return _triangle("tril_indices", True, row, col, offset, dtype, device, meta)
    return kernel


def _triu(meta):
    def kernel(row, col, offset=0, *, dtype=None, layout=None, device=None, pin_memory=None):
        """The (2, N) coordinates of the upper triangle (on and above diagonal ``offset``), row by row."""
        return _triangle("triu_indices", False, row, col, offset, dtype, device, meta)
    return kernel


_op("tril_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None) -> Tensor", meta=_tril(True))(_tril(False))
_op("triu_indices(int row, int col, int offset=0, *, ScalarType? dtype=long, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None) -> Tensor", meta=_triu(True))(_triu(False))


def _physical_order(size, physical_layout):
    """torch's checks of ``empty_permuted``'s layout: a permutation of the dimensions."""
    n = len(size)
    if len(physical_layout) != n:
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {n} is not equal to len(physical_layout) = {len(physical_layout)}")
    seen = set()
    for i, d in enumerate(physical_layout):
        if not 0 <= d < n:
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and {n - 1}, but got {d} at index "
                               f"{i}).  NB: negative dims not currently supported; file an issue if you want it.")
        if d in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(d)
    return [int(d) for d in physical_layout]


def _permuted_strides(size, order):
    """Strides of ``size`` laid out outermost-first in ``order``."""
    strides = [0] * len(size)
    step = 1
    for d in reversed(order):
        strides[d] = step
        step *= max(int(size[d]), 1)
    return strides


def _empty_permuted(meta):
    def kernel(size, physical_layout, *, dtype=None, layout=None, device=None, pin_memory=None):
        """An uninitialized tensor of ``size`` whose dimensions lie in memory in the order
        ``physical_layout`` (outermost first): ``empty_permuted((2, 3, 4), (2, 0, 1))`` has strides (3, 1, 6)."""
        size = [int(s) for s in size]
        order = _physical_order(size, physical_layout)
        dt = dtype if dtype is not None else D.get_default_dtype()
        if meta or _device(device).type == "meta":
            return _make_meta(size, dt, _permuted_strides(size, order))
        physical = np.empty([size[d] for d in order], dtype=dt.np)
        return _new(np.transpose(physical, np.argsort(order)), device)
    return kernel


_op("empty_permuted(SymInt[] size, int[] physical_layout, *, ScalarType? dtype=None, Layout? layout=None, "
    "Device? device=None, bool? pin_memory=None) -> Tensor", meta=_empty_permuted(True))(_empty_permuted(False))
