"""``out=`` overloads (``mm.out``, ``add.out``, ...): the functional op, then torch's rules for
writing into ``out``.

One kernel per overload, registered at CompositeExplicitAutograd: it calls the functional
overload through the dispatcher (so every backend, Meta and fake tensors work), then checks
``out``'s device and dtype, resizes it as torch does (silently when it is empty, with torch's
deprecation warning otherwise) and copies the result in. ``opyard.add(a, b, out=c)`` reaches
these overloads because only they have an ``out`` parameter.
"""

import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import _ZERO
from ..dispatcher import DispatchKey, DispatchKeySet
from ._index import OUT as _DECLARED
from ._index import packet_rows as _packet_rows
from .common import _OVERLAP, A, Tensor, _expanded, writable_alias

__all__ = ["SCHEMAS", "EXPLICIT", "OUT_OPS"]

# (out overload schema verbatim from native_functions.yaml, functional overload, exact dtype?)
# "exact" ops (matrix products) require out's dtype to equal the result's, as torch's do; "input"
# ones (amax, amin) require it to equal the input's, with torch's other message; the others
# accept any dtype the result can be cast to (c10::canCast).
_TABLE = (
    ("mm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", "mm", True),
    ("bmm.out(Tensor self, Tensor mat2, *, Tensor(a!) out) -> Tensor(a!)", "bmm", True),
    ("matmul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "matmul", True),
    ("add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "add.Tensor", False),
    ("sub.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)", "sub.Tensor", False),
    ("mul.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "mul.Tensor", False),
    ("div.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "div.Tensor", False),
    ("maximum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "maximum", False),
    ("minimum.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "minimum", False),
    ("pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)", "pow.Tensor_Scalar", False),
    ("clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)", "clamp", False),
    ("where.self_out(Tensor condition, Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "where.self", False),
    ("exp.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "exp", False),
    ("neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "neg", False),
    ("abs.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "abs", False),
    ("sqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "sqrt", False),
    ("rsqrt.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "rsqrt", False),
    ("sigmoid.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "sigmoid", False),
    ("tanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "tanh", False),
    ("floor.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "floor", False),
    ("round.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", "round", False),
    ("eq.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "eq.Tensor", False),
    ("lt.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)", "lt.Tensor", False),
    ("sum.IntList_out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", "sum.dim_IntList", False),
    ("mean.out(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", "mean.dim", False),
    ("amax.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", "amax", "input"),
    ("argmax.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)", "argmax", True),
    ("cumsum.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)", "cumsum", False),
    ("softmax.int_out(Tensor self, int dim, ScalarType? dtype=None, *, Tensor(a!) out) -> Tensor(a!)", "softmax.int", False),
    ("cat.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", "cat", False),
    ("stack.out(Tensor[] tensors, int dim=0, *, Tensor(a!) out) -> Tensor(a!)", "stack", False),
    # math, reductions, indexing and linear algebra (exact: torch's kernels require out's dtype)
    ('sgn.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "sgn", False),
    ('copysign.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "copysign.Tensor", False),
    ('ceil.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "ceil", False),
    ('clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)', "clamp_max", False),
    ('clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)', "clamp_min", False),
    ('cos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "cos", False),
    ('cumprod.out(Tensor self, int dim, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)', "cumprod", False),
    ('frac.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "frac", False),
    ('index_copy.out(Tensor self, int dim, Tensor index, Tensor source, *, Tensor(a!) out) -> Tensor(a!)', "index_copy", True),
    ('kron.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "kron", True),
    ('nan_to_num.out(Tensor self, float? nan=None, float? posinf=None, float? neginf=None, *, Tensor(a!) out) -> Tensor(a!)', "nan_to_num", False),
    ('log.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "log", False),
    ('logaddexp.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "logaddexp", False),
    ('xlogy.OutTensor(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "xlogy.Tensor", False),
    ('logsumexp.out(Tensor self, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)', "logsumexp", False),
    ('matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)', "matrix_power", True),
    ('nanmean.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)', "nanmean", False),
    ('sin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "sin", False),
    ('sinc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "sinc", False),
    ('nansum.out(Tensor self, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)', "nansum", False),
    ('prod.int_out(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)', "prod.dim_int", False),
    ('trunc.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "trunc", False),
    ('heaviside.out(Tensor self, Tensor values, *, Tensor(a!) out) -> Tensor(a!)', "heaviside", False),
    ('scatter_reduce.two_out(Tensor self, int dim, Tensor index, Tensor src, str reduce, *, bool include_self=True, Tensor(a!) out) -> Tensor(a!)', "scatter_reduce.two", True),
    ('cross.out(Tensor self, Tensor other, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)', "cross", False),
    ('triu.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)', "triu", False),
    ('tril.out(Tensor self, SymInt diagonal=0, *, Tensor(a!) out) -> Tensor(a!)', "tril", False),
    ('take.out(Tensor self, Tensor index, *, Tensor(a!) out) -> Tensor(a!)', "take", True),
    ('take_along_dim.out(Tensor self, Tensor indices, int? dim=None, *, Tensor(a!) out) -> Tensor(a!)', "take_along_dim", True),
    ('index_select.out(Tensor self, int dim, Tensor index, *, Tensor(a!) out) -> Tensor(a!)', "index_select", True),
    ('gather.out(Tensor self, int dim, Tensor index, *, bool sparse_grad=False, Tensor(a!) out) -> Tensor(a!)', "gather", True),
    ('sign.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "sign", False),
    ('atan2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "atan2", False),
    ('lerp.Scalar_out(Tensor self, Tensor end, Scalar weight, *, Tensor(a!) out) -> Tensor(a!)', "lerp.Scalar", False),
    ('lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)', "lerp.Tensor", False),
    ('hypot.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "hypot", False),
    ('linalg_cholesky.out(Tensor self, *, bool upper=False, Tensor(a!) out) -> Tensor(a!)', "linalg_cholesky", True),
    ('linalg_cross.out(Tensor self, Tensor other, *, int dim=-1, Tensor(a!) out) -> Tensor(a!)', "linalg_cross", False),
    ('linalg_det.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)', "linalg_det", True),
    ('linalg_inv.out(Tensor A, *, Tensor(a!) out) -> Tensor(a!)', "linalg_inv", True),
    ('outer.out(Tensor self, Tensor vec2, *, Tensor(a!) out) -> Tensor(a!)', "outer", True),
    ('linalg_solve.out(Tensor A, Tensor B, *, bool left=True, Tensor(a!) out) -> Tensor(a!)', "linalg_solve", True),
    ('argmin.out(Tensor self, int? dim=None, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)', "argmin", True),
    ('erf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "erf", False),
    ('exp2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "exp2", False),
    ('expm1.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "expm1", False),
    ('log10.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "log10", False),
    ('log1p.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "log1p", False),
    ('log2.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "log2", False),
    ('amin.out(Tensor self, int[1] dim=[], bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)', "amin", "input"),
    ('reciprocal.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "reciprocal", False),
    ('square.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "square", False),
    ('std.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)', "std.correction", False),
    ('tan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "tan", False),
    ('var.correction_out(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False, Tensor(a!) out) -> Tensor(a!)', "var.correction", False),
    ('norm.out(Tensor self, Scalar? p, int[1] dim, bool keepdim=False, *, Tensor(a!) out) -> Tensor(a!)', "norm.ScalarOpt_dim", False),
    ('scatter.src_out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)', "scatter.src", True),
    ('scatter.value_out(Tensor self, int dim, Tensor index, Scalar value, *, Tensor(a!) out) -> Tensor(a!)', "scatter.value", True),
    ('scatter_add.out(Tensor self, int dim, Tensor index, Tensor src, *, Tensor(a!) out) -> Tensor(a!)', "scatter_add", True),
    ('cholesky.out(Tensor self, bool upper=False, *, Tensor(a!) out) -> Tensor(a!)', "cholesky", True),
    ('fmod.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)', "fmod.Scalar", False),
    ('fmod.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "fmod.Tensor", False),
    ('remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "remainder.Tensor", False),
    ('max.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "max.other", False),
    ('min.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "min.other", False),
    ('max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "max", False),
    ('min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "min", False),
    ('argsort.stable_out(Tensor self, *, bool stable, int dim=-1, bool descending=False, Tensor(a!) out) -> Tensor(a!)', "argsort.stable", True),
    ('inverse.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "inverse", True),
    ('linalg_vector_norm.out(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, ScalarType? dtype=None, Tensor(a!) out) -> Tensor(a!)', "linalg_vector_norm", True),
    ('linalg_matrix_power.out(Tensor self, int n, *, Tensor(a!) out) -> Tensor(a!)', "linalg_matrix_power", True),
    ('asin.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "asin", False),
    ('acos.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "acos", False),
    ('atan.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "atan", False),
    ('sinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "sinh", False),
    ('cosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "cosh", False),
    ('asinh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "asinh", False),
    ('acosh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "acosh", False),
    ('atanh.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "atanh", False),
    ('deg2rad.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "deg2rad", False),
    ('rad2deg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "rad2deg", False),
    ('logit.out(Tensor self, float? eps=None, *, Tensor(a!) out) -> Tensor(a!)', "logit", False),
    ('signbit.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "signbit", False),
    ('fmax.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "fmax", False),
    ('fmin.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)', "fmin", False),
    ('isposinf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "isposinf", False),
    ('isneginf.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)', "isneginf", False),
)
SCHEMAS = tuple(row[0] for row in _TABLE)
_FAKE_BIT = DispatchKeySet(DispatchKey.Fake).raw()


def _can_cast(src, dst):
    """c10::canCast: no complex -> real, no floating -> integral, no non-bool -> bool."""
    if src._cat > dst._cat:
        return False
    return not (dst is D.bool and src is not D.bool)


def _c_name(d):
    """How torch's checks print a dtype (``float``, ``double``, ``c10::BFloat16``...)."""
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int",
            "float16": "c10::Half", "bfloat16": "c10::BFloat16", "bool": "bool"}.get(d.name, d.name)


def _check(op_name, result, out, exact):
    if out._dev != result._dev:
        raise RuntimeError(f"Attempting to copy from device {result._dev} to device {out._dev}, but "
                           f"cross-device copies are not allowed! ({op_name} with out=)")
    rdt, odt = result.dtype, out.dtype
    if exact == "input" and rdt is not odt:  # the result has the input's dtype
        raise RuntimeError(f"Expected the dtype for input and out to match, but got {D.legacy_name(rdt)} for "
                           f"input's dtype and {D.legacy_name(odt)} for out's dtype.")
    if exact and rdt is not odt:
        raise RuntimeError(f"Expected out tensor to have dtype {_c_name(rdt)}, but got {_c_name(odt)} "
                           f"instead ({op_name})")
    if not _can_cast(rdt, odt):
        raise RuntimeError(f"result type {D.legacy_name(rdt)} can't be cast to the desired output type "
                           f"{D.legacy_name(odt)}")


def _has_data(t):
    """Meta and fake tensors carry only metadata: ``out=`` changes their shape, never data."""
    return not (t.is_meta or t._keyset & _FAKE_BIT)


def _resize(op_name, out, shape, warn=True):
    """torch's ``resize_output``: an empty ``out`` is resized silently, a non-empty one warns (unless
    ``warn`` is False: the kernels that resize ``out`` as ``resize_`` does)."""
    x = out._data
    if x.shape == shape:
        return
    if x.size and warn:
        warnings.warn(
            f"An output with one or more elements was resized since it had shape {list(x.shape)}, which "
            f"does not match the required output shape {list(shape)}. This behavior is deprecated, and "
            "in a future release outputs will not be resized unless they have zero elements. You can "
            f"explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
            f"t.resize_(0). ({op_name})", UserWarning, stacklevel=3)
    root = out._base if out._base is not None else out
    if root._fixed_storage or out._fixed_storage:
        # torch keeps such memory and refuses to grow it (resize_ of a from_numpy tensor).
        offset = out.storage_offset() if out._base is not None else 0
        if (offset + int(np.prod(shape))) * x.itemsize > root._data.nbytes:
            raise RuntimeError("Trying to resize storage that is not resizable")
    if not _has_data(out):
        out._data = np.broadcast_to(_ZERO[x.dtype], shape)
        out._meta_strides = None
    else:
        out._data = np.empty(shape, dtype=x.dtype) if not hasattr(x, "get") else x.__class__(shape, x.dtype)


def write_out(op_name, result, out, exact=False, overlap="after", warn_resize=True):
    """Copy ``result`` into ``out`` with torch's checks; bump ``out``'s version; return ``out``.
    ``overlap``: when torch refuses an ``out`` whose elements share memory (an expanded view):
    ``"first"`` before anything else (its pointwise ops, ``index_select``), ``"after"`` unless it
    was resized (most ops), None never (its reductions write it as it is)."""
    if not isinstance(out, Tensor):
        raise TypeError(f"{op_name}: argument 'out' must be Tensor, not {type(out).__name__}")
    if overlap == "first" and _has_data(out) and _expanded(out._data):
        raise RuntimeError(_OVERLAP)
    _check(op_name, result, out, exact)
    _resize(op_name, out, result._data.shape, warn_resize)
    if overlap and _has_data(out) and _expanded(out._data):  # not resized: still overlapping
        raise RuntimeError(_OVERLAP)
    sym = result._sym_shape
    if sym is not None or out._sym_shape is not None:  # symbolic sizes travel with the shape
        out._sym_shape = sym
    if _has_data(out):
        r = result._data
        dst = out._data
        if not dst.flags.writeable and overlap is None:  # torch's reductions write an expanded out as it is
            dst = writable_alias(dst)
            if dst is None:
                dst = out._data
        dst[...] = r if r.dtype == dst.dtype else r.astype(dst.dtype)
    out._bump_version()
    return out


# When a functional's out= form checks the written-to tensor for internal overlap (write_out): by the
# functional's kind (its rows in the index), or as listed here.
_OVERLAP_BY_KIND = {"pointwise": "first", "reduction": None}
_OVERLAP_LISTED = {"index_select": "first", "sum.dim_IntList": None, "mean.dim": None, "amax": None,
                   "amin": None, "argmax": None, "argmin": None, "prod.dim_int": None, "nansum": None,
                   "nanmean": None, "logsumexp": None}


def _overlap_check(functional):
    if functional in _OVERLAP_LISTED:
        return _OVERLAP_LISTED[functional]
    check = "after"
    for name, _, _, kind, _ in _packet_rows("aten::" + functional.partition(".")[0]):
        if name == functional and kind in _OVERLAP_BY_KIND:
            check = _OVERLAP_BY_KIND[kind]  # the last row of the name decides, as a table built in order
    return check


def _kernel(schema, functional, exact):
    name = schema.split("(")[0]
    op_name = "aten::" + name
    attr = functional.replace(".", "__")
    overlap = _overlap_check(functional)

    def kernel(*args, out, **kwargs):
        return write_out(op_name, getattr(A, attr)(*args, **kwargs), out, exact, overlap)
    kernel.__name__ = name.replace(".", "_")
    return name, kernel


# Overloads writing several outputs (``sort(..., out=(values, indices))`` binds them by name).
_MULTI = (
    ("cummax.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "cummax"),
    ("cummin.out(Tensor self, int dim, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "cummin"),
    ("kthvalue.values(Tensor self, SymInt k, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "kthvalue"),
    ("aminmax.out(Tensor self, *, int? dim=None, bool keepdim=False, Tensor(a!) min, Tensor(b!) max) -> (Tensor(a!) min, Tensor(b!) max)", "aminmax"),
    ("max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)", "max.dim"),
    ("min.dim_min(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) min, Tensor(b!) min_indices) -> (Tensor(a!) values, Tensor(b!) indices)", "min.dim"),
    ("median.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "median.dim"),
    ("nanmedian.dim_values(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "nanmedian.dim"),
    ("histogram.bins_tensor_out(Tensor self, Tensor bins, *, Tensor? weight=None, bool density=False, Tensor(a!) hist, Tensor(b!) bin_edges) -> (Tensor(a!) hist, Tensor(b!) bin_edges)", "histogram.bins_tensor"),
    ("histogram.bin_ct_out(Tensor self, int bins=100, *, float[]? range=None, Tensor? weight=None, bool density=False, Tensor(a!) hist, Tensor(b!) bin_edges) -> (Tensor(a!) hist, Tensor(b!) bin_edges)", "histogram.bin_ct"),
    ("mode.values(Tensor self, int dim=-1, bool keepdim=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "mode"),
    ("sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "sort"),
    ("topk.values(Tensor self, SymInt k, int dim=-1, bool largest=True, bool sorted=True, *, Tensor(a!) values, Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)", "topk"),
    ("linalg_qr.out(Tensor A, str mode='reduced', *, Tensor(a!) Q, Tensor(b!) R) -> (Tensor(a!) Q, Tensor(b!) R)", "linalg_qr"),
    ("linalg_svd.U(Tensor A, bool full_matrices=True, *, str? driver=None, Tensor(a!) U, Tensor(b!) S, Tensor(c!) Vh) -> (Tensor(a!) U, Tensor(b!) S, Tensor(c!) Vh)", "linalg_svd"),
    ("linalg_eigh.eigvals(Tensor self, str UPLO=\"L\", *, Tensor(a!) eigvals, Tensor(b!) eigvecs) -> (Tensor(a!) eigenvalues, Tensor(b!) eigenvectors)", "linalg_eigh"),
)
SCHEMAS = SCHEMAS + tuple(row[0] for row in _MULTI)


def _multi_kernel(schema, functional):
    name = schema.split("(")[0]
    op_name = "aten::" + name
    attr = functional.replace(".", "__")
    params = schema[schema.index("(") + 1: schema.index(") -> ")].split(", ")
    names = [p.split()[-1] for p in params if "!)" in p]

    def kernel(*args, **kwargs):
        outs = [kwargs.pop(n) for n in names]
        result = getattr(A, attr)(*args, **kwargs)
        written = [write_out(op_name, r, o, True) for r, o in zip(result, outs)]
        return type(result)(written) if type(result) is not tuple else tuple(written)
    kernel.__name__ = name.replace(".", "_")
    return name, kernel


# ``out=`` overloads declared beside their functional operator (``OpTable.op(..., out=...)``): from
# the index, so that no kernel module loads for them.
SCHEMAS = SCHEMAS + tuple(row[0] for row in _DECLARED)

# The overload names, in SCHEMAS order (the derivative table reads them at import).
OUT_OPS = tuple(dict.fromkeys(s[:s.index("(")] for s in SCHEMAS))


class _Kernels(dict):
    """``{overload name: kernel}`` of every OUT_OPS name, each kernel built on its first read (when its
    packet is defined), so neither import nor a packet's first use builds the others."""

    def __init__(self):
        super().__init__()
        self._rows = {row[0].split("(")[0]: (_kernel, row) for row in _TABLE}
        self._rows.update({row[0].split("(")[0]: (_multi_kernel, row) for row in _MULTI})
        self._rows.update({row[0].split("(")[0]: (_kernel, row) for row in _DECLARED})

    def __missing__(self, name):
        build, row = self._rows[name]  # KeyError for a name that is not an out= overload
        return self.setdefault(name, build(*row)[1])  # a racing thread's kernel is dropped

    def __iter__(self):
        return iter(self._rows)

    def __len__(self):
        return len(self._rows)

    def __contains__(self, name):
        return name in self._rows

    def keys(self):
        return self._rows.keys()

    def items(self):
        return ((name, self[name]) for name in self._rows)

    def values(self):
        return (self[name] for name in self._rows)


EXPLICIT = _Kernels()
