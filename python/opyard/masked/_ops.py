"""The masked reductions and normalizations of ``opyard.masked`` as composites of the built-in operators.

Each function first replaces the masked-out elements of its input by the identity of the operation
(``_combine_input_and_mask``: ``where(mask, input, identity)``, the mask broadcast to the input),
then calls the plain operator, so autograd, vmap and fake tensors follow from the operators'.
Result dtypes, identities and errors are torch.masked's (strided layout; sparse inputs are not
tensors opyard has).
"""

from __future__ import annotations

import builtins

from .._dtype import bool as _bool
from .._dtype import float32 as _float32
from .._dtype import iinfo as _iinfo
from .._dtype import int64 as _int64
from .._factories import scalar_tensor as _scalar_tensor
from .._ops import ops

__all__ = [
    "amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "log_softmax", "logaddexp", "logsumexp", "mean",
    "median", "norm", "normalize", "prod", "softmax", "softmin", "std", "sum", "var",
]

_A = ops.aten

# Integer (and bool) inputs of sum and prod accumulate in int64 unless ``dtype=`` says otherwise.
_PROMOTED_TO_INT64 = frozenset(("uint8", "bool", "int8", "int16", "int32"))


def _dtype_name(dtype):
    return str(dtype).removeprefix("opyard.")


def _scalar(value, like):
    """A 0-d tensor of ``like``'s dtype and device holding ``value``."""
    return _scalar_tensor(value, dtype=like.dtype, device=like.device)


def _reduction_identity(op_name, input, *args):
    """The value that leaves the reduction ``op_name`` unchanged, as a 0-d tensor of ``input``'s
    dtype, or None where it is undefined (mean, var, std)."""
    dtype = input.dtype
    floating = dtype.is_floating_point
    integral = dtype.is_signed or _dtype_name(dtype) == "uint8"
    if op_name in ("sum", "cumsum"):
        return _scalar(0, input)
    if op_name in ("prod", "cumprod"):
        return _scalar(1, input)
    if op_name in ("amax", "argmax", "logaddexp"):
        if floating:
            return _scalar(float("-inf"), input)
        if integral:
            return _scalar(_iinfo(dtype).min, input)
    elif op_name == "logsumexp":
        if floating:
            return _scalar(float("-inf"), input)
        if dtype.is_complex:
            return _scalar(complex(float("-inf"), 0.0), input)
        if integral:
            return _scalar(_iinfo(dtype).min, input)
    elif op_name in ("amin", "argmin"):
        if floating:
            return _scalar(float("inf"), input)
        if integral:
            return _scalar(_iinfo(dtype).max, input)
    elif op_name == "mean":
        return None  # the mean of the masked-in elements: no value leaves it unchanged
    elif op_name == "norm":
        ord = args[0] if args else 2
        if ord == float("-inf"):
            if not floating:
                raise AssertionError(f"input must be floating point, got {dtype}")
            return _scalar(float("inf"), input)
        return _scalar(0, input)
    elif op_name == "median":
        # nanmedian skips nan: it is the identity of the median as computed here
        dt = dtype if floating else _float32
        return _scalar_tensor(float("nan"), dtype=dt, device=input.device)
    elif op_name in ("var", "std"):
        return None
    raise NotImplementedError(f"identity of {op_name} on {dtype} input")


def _canonical_dim(dim, ndim):
    """``dim`` as a sorted tuple of non-negative dims (``None`` and ``()`` are every dim)."""
    if dim == ():
        dim = None
    if dim is None:
        return tuple(range(ndim))
    ndim = max(ndim, 1)
    dims = []
    for d in ((dim,) if isinstance(dim, int) else dim):
        if d in dims:
            raise RuntimeError(f"dim={d} appears multiple times in the list of dims")
        if d >= ndim or d < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {d})")
        dims.append(d % ndim)
    return tuple(sorted(dims))


def _any(input, dims, keepdim):
    r = input
    for d in reversed(dims):
        r = _A.any.dim(r, d, keepdim)
    return r


def _input_mask(input, mask):
    """``mask`` as a bool tensor of ``input``'s shape (broadcast; never more dims than the input)."""
    if mask is None:
        raise ValueError("_input_mask requires explicit mask")
    if mask.shape != input.shape:
        if mask.ndim > input.ndim:
            raise IndexError("_input_mask expected broadcastable mask (got mask dimensionality higher than of the input)")
        mask = _A.expand.default(_A.clone.default(mask), list(input.shape))
    return mask.to(dtype=_bool)


def _combine_input_and_mask(op_name, input, mask, *args):
    """``input`` with its masked-out elements replaced by the identity of ``op_name``."""
    if mask is None:
        return input
    canonical = _input_mask(input, mask)
    fill = _reduction_identity(op_name, input, *args)
    return _A.where.self(canonical, input, fill)


def _sum_prod_dtype(input, dtype):
    if dtype is not None:
        return dtype
    return _int64 if _dtype_name(input.dtype) in _PROMOTED_TO_INT64 else input.dtype


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = _sum_prod_dtype(input, dtype)
    dims = _canonical_dim(dim, input.ndim)
    mask_input = _combine_input_and_mask("sum", input, mask)
    return _A.sum.dim_IntList(mask_input, list(dims), builtins.bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    dtype = _sum_prod_dtype(input, dtype)
    dims = _canonical_dim(dim, input.ndim)
    result = _combine_input_and_mask("prod", input, mask).to(dtype=dtype)
    for d in reversed(dims):
        result = _A.prod.dim_int(result, d, builtins.bool(keepdim))
    return result


def cumsum(input, dim, *, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    d = _canonical_dim(dim, input.ndim)[0]
    mask_input = _combine_input_and_mask("sum", input, mask)
    return _A.cumsum.default(mask_input, d, dtype=dtype).to(dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    d = _canonical_dim(dim, input.ndim)[0]
    mask_input = _combine_input_and_mask("prod", input, mask)
    return _A.cumprod.default(mask_input, d, dtype=dtype).to(dtype=dtype)


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("amax", input, mask)
    dims = _canonical_dim(dim, mask_input.ndim)
    return _A.amax.default(mask_input, list(dims), builtins.bool(keepdim)).to(dtype=dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("amin", input, mask)
    dims = _canonical_dim(dim, mask_input.ndim)
    return _A.amin.default(mask_input, list(dims), builtins.bool(keepdim)).to(dtype=dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("argmax", input, mask)
    return _A.argmax.default(mask_input, dim, builtins.bool(keepdim)).to(dtype=dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("argmin", input, mask)
    return _A.argmin.default(mask_input, dim, builtins.bool(keepdim)).to(dtype=dtype)


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    source = "Optional"
    if dtype is None:
        dtype = input.dtype
        source = "Input"
    if not (dtype.is_floating_point or dtype.is_complex):
        raise ValueError(f"mean(): Could not infer output dtype. {source} dtype must be either "
                         f"a floating point or complex dtype. Got: {dtype}")
    if mask is None:
        ones = _A.ones.default(list(input.shape), dtype=_int64, device=input.device)
        count = sum(ones, dim, keepdim=keepdim)
        total = sum(input, dim, keepdim=keepdim, dtype=dtype)
    else:
        inmask = _input_mask(input, mask)
        count = inmask.sum(dim=dim, keepdim=builtins.bool(keepdim))
        total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=inmask)
    return _A.div.Tensor(total, count)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    d = _canonical_dim(dim, input.ndim)[0]
    is_float = input.dtype.is_floating_point
    if not is_float:
        input = input.to(dtype=_float32)
    mask_input = _combine_input_and_mask("median", input, mask)
    output = _A.nanmedian.dim(mask_input, d, keepdim)[0]
    if is_float:
        return output
    if not _A.any.default(_A.isnan.default(output)).item():
        return output.to(dtype=dtype)
    raise ValueError("masked median expects no fully masked out rows if dtype is not floating point")


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    dims = _canonical_dim(dim, input.ndim)
    mask_input = _combine_input_and_mask("logsumexp", input, mask)
    return _A.logsumexp.default(mask_input, list(dims), keepdim).to(dtype=dtype)


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    """``logaddexp(input, other)`` with the masked-out elements of each (``input_mask``,
    ``other_mask``) taken as ``-inf``."""
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("logaddexp", input, input_mask)
    mask_other = _combine_input_and_mask("logaddexp", other, other_mask)
    return _A.logaddexp.default(mask_input, mask_other).to(dtype=dtype)


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("norm", input, mask, ord)
    dims = _canonical_dim(dim, input.ndim)
    return _A.linalg_vector_norm.default(mask_input, ord, list(dims), builtins.bool(keepdim), dtype=dtype)


def _std_var(input, dim, unbiased, *, correction_opt, keepdim, dtype, mask, take_sqrt):
    if unbiased is not None and correction_opt is not None:
        raise AssertionError("Only one of unbiased and correction may be given")
    correction = 1.0
    if unbiased is not None:
        correction = 1.0 if unbiased else 0.0
    if correction_opt is not None:
        correction = float(correction_opt)
    if dtype is None:
        dtype = input.dtype
        if not (dtype.is_floating_point or dtype.is_complex):
            dtype = _float32
    compute_dtype = dtype
    if not (compute_dtype.is_floating_point or compute_dtype.is_complex):
        compute_dtype = _float32
    if mask is None:
        ones = _A.ones.default(list(input.shape), dtype=_int64, device=input.device)
        count = sum(ones, dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype)
        inmask = None
    else:
        inmask = _input_mask(input, mask)
        count = inmask.sum(dim=dim, keepdim=True)
        sample_total = sum(input, dim, keepdim=True, dtype=dtype, mask=inmask)
    sample_mean = _A.div.Tensor(sample_total, count)
    x = _A.sub.Tensor(input, sample_mean)
    total = sum(_A.mul.Tensor(x, _A.conj.default(x)), dim, keepdim=keepdim, dtype=compute_dtype, mask=inmask)
    if not keepdim:
        count = _A.reshape.default(count, list(total.shape))
    if correction != 0:
        real_dtype = compute_dtype.to_real() if compute_dtype.is_complex else compute_dtype
        count = _A.sub.Scalar(count.to(real_dtype), correction)
        count = _A.maximum.default(count, _A.zeros.default([], dtype=count.dtype, device=count.device))
    output = _A.div.Tensor(total, count).to(dtype=dtype)
    if take_sqrt:
        output = _A.sqrt.default(output)
    return output


def var(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    return _std_var(input, dim, unbiased, correction_opt=correction, keepdim=keepdim, dtype=dtype, mask=mask,
                    take_sqrt=False)


def std(input, dim=None, unbiased=None, *, correction=None, keepdim=False, dtype=None, mask=None):
    return _std_var(input, dim, unbiased, correction_opt=correction, keepdim=keepdim, dtype=dtype, mask=mask,
                    take_sqrt=True)


def _masked_softmax(op, fill_with, negate, input, dim, dtype, mask):
    """``op`` along ``dim`` of ``input`` with the masked-out elements set to ``fill_with``'s identity."""
    d = _canonical_dim(dim, input.ndim)[0]
    mask_input = _combine_input_and_mask(fill_with, input, mask)
    if negate:
        mask_input = _A.neg.default(mask_input)
    return op(mask_input, d, input.dtype if dtype is None else dtype)


def softmax(input, dim, *, dtype=None, mask=None):
    return _masked_softmax(_A.softmax.int, "amax", False, input, dim, dtype, mask)


def log_softmax(input, dim, *, dtype=None, mask=None):
    return _masked_softmax(_A.log_softmax.int, "amax", False, input, dim, dtype, mask)


def softmin(input, dim, *, dtype=None, mask=None):
    return _masked_softmax(_A.softmax.int, "amin", True, input, dim, dtype, mask)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    if dtype is None:
        dtype = input.dtype
    mask_input = _combine_input_and_mask("sum", input, mask)
    nrm = norm(input, ord, dim, keepdim=True, dtype=dtype, mask=mask)
    denom = _A.maximum.default(nrm, _A.full.default([], eps, dtype=nrm.dtype, device=nrm.device))
    return _A.div.Tensor(mask_input, denom)
