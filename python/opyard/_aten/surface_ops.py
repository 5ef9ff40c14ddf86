"""Small operators of torch's top-level namespace and Tensor methods: the predicates ``is_nonzero``,
``is_same_size``, ``is_signed``, ``is_pinned``; ``range`` (torch's deprecated inclusive arange);
``vander``, ``chain_matmul``, ``frobenius_norm``, ``nuclear_norm``, ``negative_``,
``fill_diagonal_``, ``slice_inverse`` and ``pin_memory``.

Those torch builds from other operators (CompositeImplicitAutograd) are composites here too, so
autograd, vmap and fake tensors come from the operators they call; their deprecation warnings are
torch's (``chain_matmul``, ``frobenius_norm`` and ``nuclear_norm`` warn once per process, as torch's
``TORCH_WARN_ONCE``).
"""

import math

import numpy as np

from .. import _dtype as D
from .._ops import ops
from .._tensor import _make_meta
from ._declare import OpTable
from .common import A
from .factory import _new
from .switches import warn_once

__all__ = ["OPS"]

OPS = OpTable()
_op = OPS.op



def _warn_once(key, message):
    warn_once(key, message, stacklevel=5)


# --- predicates -------------------------------------------------------------------------------------

@_op("is_nonzero(Tensor self) -> bool", kind="composite")
def is_nonzero(self):
    """The truth of a one-element tensor (torch's ``Tensor.__bool__`` rule)."""
    n = self.numel()
    if n == 0:
        raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
    if n > 1:
        raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
    return bool(A._local_scalar_dense(self) != 0)


@_op("is_same_size(Tensor self, Tensor other) -> bool", kind="meta_aware")
def is_same_size(self, other):
    return tuple(self.shape) == tuple(other.shape)


@_op("is_signed(Tensor self) -> bool", kind="meta_aware")
def is_signed(self):
    """True for the signed integers, the floating and the complex types (not bool, not the uintN)."""
    dt = self.dtype
    return dt.is_floating_point or dt.is_complex or dt.name in ("int8", "int16", "int32", "int64")


@_op("is_pinned(Tensor self, Device? device=None) -> bool", kind="meta_aware")
def is_pinned(self, device=None):
    """False: opyard's memory is plain host memory, never page-locked for an accelerator."""
    return False


@_op("pin_memory(Tensor(a) self, Device? device=None) -> Tensor(a)", kind="meta_aware")
def pin_memory(self, device=None):
    """torch's refusal without an accelerator; opyard has no page-locked memory to pin into."""
    from ..cuda import _require

    _require()
    raise RuntimeError("pin_memory(): opyard has no page-locked host memory; the tensor is usable as it is")


# --- range --------------------------------------------------------------------------------------------

def _range_size(start, end, step):
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not all(math.isfinite(float(v)) for v in (start, end)):
        raise RuntimeError(f"unsupported range: {start} -> {end}")
    if (step > 0 and start > end) or (step < 0 and start < end):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    return int(math.floor((end - start) / step)) + 1


def _range(meta):
    def kernel(start, end, step=1, *, dtype=None, layout=None, device=None, pin_memory=None):
        dt = dtype if dtype is not None else D.get_default_dtype()
        n = _range_size(start, end, step)
        if meta:
            return _make_meta((n,), dt)
        # torch's CPU kernel: start + i * step in double (float types) or int64 (integer types)
        i = np.arange(n, dtype=np.float64 if dt.is_floating_point or dt.is_complex else np.int64)
        return _new((start + i * step).astype(dt.np), device)
    return kernel


_FACTORY = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor"
_op("range.step(Scalar start, Scalar end, Scalar step=1, *, " + _FACTORY, kind="factory", meta=_range(True))(
    _range(False))
_op("range(Scalar start, Scalar end, *, " + _FACTORY, kind="factory", meta=_range(True))(_range(False))


# --- compositions -------------------------------------------------------------------------------------

@_op("vander(Tensor x, int? N=None, bool increasing=False) -> Tensor", kind="composite")
def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of the 1-D ``x``: its powers ``x**(N-1) ... x**0`` per row (increasing:
    ``x**0 ... x**(N-1)``), as torch: a cumulative product of ``[1, x, x, ...]`` in
    ``promote_types(x.dtype, int64)``."""
    if x.dim() != 1:
        raise RuntimeError("x must be a one-dimensional tensor.")
    n = x.shape[0] if N is None else N
    if n < 0:
        raise RuntimeError("N must be non-negative.")
    dt = D.promote_types(x.dtype, D.int64)
    ones = A.ones([x.shape[0], min(n, 1)], dtype=dt, device=x.device)
    if n > 1:
        powers = A.expand(A.unsqueeze(A._to_copy(x, dtype=dt), 1), [x.shape[0], n - 1])
        result = A.cumprod(A.cat([ones, powers], 1), 1)
    else:
        result = ones
    return result if increasing else A.flip(result, [1])


@_op("chain_matmul(Tensor[] matrices) -> Tensor", kind="composite",
     out="chain_matmul.out(Tensor[] matrices, *, Tensor(a!) out) -> Tensor(a!)")
def chain_matmul(matrices):
    """The product of the matrices (torch's deprecated ``linalg.multi_dot``)."""
    _warn_once("chain_matmul", "opyard.chain_matmul is deprecated and will be removed in a future release. "
               "Use opyard.linalg.multi_dot instead, which accepts a list of two or more tensors rather than "
               "multiple parameters.")
    if len(matrices) == 0:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if len(matrices) == 1:
        return A.clone(matrices[0])
    return A.linalg_multi_dot(list(matrices))


@_op("frobenius_norm.dim(Tensor self, int[1] dim, bool keepdim=False) -> Tensor", kind="composite")
def frobenius_norm(self, dim, keepdim=False):
    """torch's deprecated ``linalg.vector_norm(self, 2, dim, keepdim)`` over at most two dimensions."""
    _warn_once("frobenius_norm", "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It "
               "will be removed in a future release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` "
               "instead")
    if len(dim) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dim)} dimensions instead.")
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise NotImplementedError(f"norm(): input dtype should be either floating point or complex. Got "
                                  f"{D.legacy_name(self.dtype)} instead.")
    wrapped = [d % self.dim() if self.dim() and -self.dim() <= d < self.dim() else d for d in dim]
    for i, d in enumerate(wrapped):
        if d in wrapped[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return A.linalg_vector_norm(self, 2.0, list(dim) if len(dim) else None, keepdim)


_NUC = ("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed in a future "
        "release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead")


@_op("nuclear_norm(Tensor self, bool keepdim=False) -> Tensor", kind="composite")
def nuclear_norm(self, keepdim=False):
    """torch's deprecated ``linalg.matrix_norm(self, 'nuc', (-2, -1), keepdim)``."""
    _warn_once("nuclear_norm", _NUC)
    return A.linalg_matrix_norm__str_ord(self, "nuc", [-2, -1], keepdim)


@_op("nuclear_norm.dim(Tensor self, int[2] dim, bool keepdim=False) -> Tensor", kind="composite")
def nuclear_norm_dim(self, dim, keepdim=False):
    _warn_once("nuclear_norm", _NUC)
    return A.linalg_matrix_norm__str_ord(self, "nuc", list(dim), keepdim)


@_op("negative_(Tensor(a!) self) -> Tensor(a!)", kind="composite")
def negative_(self):
    """``neg_`` (torch's alias)."""
    return A.neg_(self)


@_op("fill_diagonal_(Tensor(a!) self, Scalar fill_value, bool wrap=False) -> Tensor(a!)", kind="composite")
def fill_diagonal_(self, fill_value, wrap=False):
    """Fill the main diagonal (the elements whose indices are all equal); a tall matrix with ``wrap``
    restarts the diagonal every ``columns + 1`` rows, as torch's walk over a contiguous matrix does."""
    nd = self.dim()
    if nd < 2:
        raise RuntimeError("dimensions must larger than 1")
    shape = tuple(self.shape)
    if nd > 2 and any(s != shape[0] for s in shape):
        raise RuntimeError("all dimensions of input must be of equal length")
    _check_fill(fill_value, self)
    fill = ops.aten.fill_.Scalar
    if nd > 2:
        strides = self.stride()
        fill(A.as_strided(self, [shape[0]], [sum(strides)], self.storage_offset()), fill_value)
        return self
    # torch's row-major walk: the diagonal, and with ``wrap`` on a tall matrix the diagonal again
    # every ``columns + 1`` rows (a diagonal view of each block, so views' autograd applies)
    rows, cols = shape
    blocks = range(0, rows, cols + 1) if wrap and rows > cols + 1 else range(1)
    for start in blocks:
        fill(A.diagonal(A.slice__Tensor(self, 0, start, start + cols), 0, 0, 1), fill_value)
    return self


def _check_fill(value, like):
    """torch's check of a complex fill value for a real tensor."""
    if isinstance(value, complex) and not like.dtype.is_complex:
        raise RuntimeError(f"value cannot be converted to type {D.c_type_name(like.dtype)} without overflow")


def _meta_slice_inverse(self, src, dim=0, start=None, end=None, step=1):
    from .misc_ops import meta_as_strided

    return meta_as_strided(self, list(src.shape), list(src.stride()), src.storage_offset())


@_op("slice_inverse(Tensor(a) self, Tensor src, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) "
     "-> Tensor(a)", kind="view", meta=_meta_slice_inverse)
def slice_inverse(self, src, dim=0, start=None, end=None, step=1):
    """The inverse of ``slice``: ``self``'s memory seen with ``src``'s geometry (``src`` being the tensor
    ``self`` was sliced from, or one laid out like it); a view of ``self``. Its gradient is torch's:
    the slice of the gradient for ``self``, the rest of it for ``src``."""
    from .misc_ops import as_strided

    return as_strided(self, list(src.shape), list(src.stride()), src.storage_offset())
