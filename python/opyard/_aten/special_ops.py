"""Special functions: the gamma family (digamma, lgamma, polygamma, mvlgamma, igamma/igammac, the
Hurwitz zeta), the error-function family (erfc, erfinv, erfcx, ndtr, ndtri, log_ndtr), Bessel and
Airy functions, the modified Bessel functions, the orthogonal polynomials, entr and xlog1py, and the
``special_*`` names torch defines as other operators (``special_psi`` is ``digamma``, ...).

The numbers come from ``_special_functions`` (Note [Special functions]); this module gives them
torch's operator semantics. A kernel computes in the input's floating dtype: integral and bool
inputs in the default dtype, half and bfloat16 in float32 rounded once at the end (torch widens
them to float), and refuses the dtypes torch's CPU kernel has no instance for with its
NotImplementedError (``"bessel_j0_cpu" not implemented for 'Half'``).
"""

import math

import numpy as np

from .. import _dtype as D
from . import _special_functions as SF
from ._declare import OpTable
from .common import A, INEXACT, Tensor, broadcast_error, check_same_device, out, tensor_result_dtype
from .scalars import operand

__all__ = ["OPS"]

OPS = OpTable()

_FLOAT32 = np.dtype(np.float32)
_STANDARD = frozenset((np.dtype(np.float32), np.dtype(np.float64)))


def _refuse(cpu_name, dtype):
    raise NotImplementedError(f"\"{cpu_name}\" not implemented for '{D.legacy_name(dtype)}'")


def _compute_dtype(dt, cpu_name, reduced):
    """The numpy dtype a kernel computes a floating result of dtype ``dt`` in (float32 for half and
    bfloat16 when torch's kernel takes them), or torch's refusal."""
    np_dt = dt.np
    if np_dt in _STANDARD:
        return np_dt
    if reduced and dt in (D.float16, D.bfloat16):
        return _FLOAT32
    _refuse(cpu_name, dt)


def _float_dtype(*items):
    """torch's result dtype of a floating pointwise op: the promoted dtype, integral and bool in the
    default floating dtype."""
    dt = tensor_result_dtype(*items)
    return dt if dt._cat >= 2 else D.get_default_dtype()


def unary(fn, cpu_name, reduced=True):
    """A kernel of ``fn`` (numpy array -> array) over one tensor (see the module note); ``cpu_name``
    is the kernel name torch's dtype refusals give, ``reduced`` whether it takes half and bfloat16."""
    def kernel(self):
        x = self._data
        dt = D.FROM_NP[x.dtype] if x.dtype in INEXACT else D.get_default_dtype()
        work = _compute_dtype(dt, cpu_name, reduced)
        with np.errstate(all="ignore"):
            r = np.asarray(fn(x.astype(work, copy=False)))
        return out(r.astype(dt.np, copy=False), self)
    kernel.__name__ = cpu_name.split('"')[0].replace("_cpu", "").replace("_vml", "")
    return kernel


def _arrays(a, b, dt, work, op_name):
    """``a`` and ``b`` (tensors or Python numbers) as ``work`` arrays broadcast to one shape, each
    converted to ``dt`` first as torch's (``scalars.operand``: a number meeting half data is rounded)."""
    xs = []
    cdt = D.FROM_NP[np.dtype(work)]
    for v in (a, b):
        if isinstance(v, Tensor) and v._data.dtype == work:
            xs.append(v._data)
        else:
            xs.append(np.asarray(operand(v, dt, cdt), dtype=work))
    try:
        return np.broadcast_arrays(*xs)
    except ValueError:
        raise broadcast_error(op_name, a, b) from None


def binary(fn, cpu_name, op_name, reduced=True, with_dtype=False):
    """A kernel of ``fn`` (two numpy arrays -> array) with torch's floating binary promotion: either
    argument may be a Python number (the ``self_scalar``/``other_scalar`` overloads). ``with_dtype``:
    ``fn`` also takes the result's numpy dtype (a kernel rounding an intermediate to it)."""
    def kernel(self, other):
        check_same_device(op_name, self, other)
        dt = _float_dtype(self, other)
        if dt._cat == 3:
            _refuse(cpu_name, dt)
        work = _compute_dtype(dt, cpu_name, reduced)
        x, y = _arrays(self, other, dt, work, op_name)
        with np.errstate(all="ignore"):
            r = np.asarray(fn(x, y, dt.np) if with_dtype else fn(x, y))
        ref = self if isinstance(self, Tensor) else other
        return out(r.astype(dt.np, copy=False), ref)
    kernel.__name__ = op_name.split("::")[-1].replace(".", "_")
    return kernel


def _scipy(name, op):
    """The scipy.special function ``name`` as an array function (scipy loaded on first call)."""
    def fn(x):
        return getattr(SF.scipy_special(op), name)(x)
    fn.__name__ = name
    return fn


def _out(name, args="Tensor self"):
    return f"{name}.out({args}, *, Tensor(a!) out) -> Tensor(a!)"


# ---------------------------------------------------------------------------------------------
# One-argument functions with their own kernels

# (operator, argument name, array function, torch's CPU kernel name, takes half/bfloat16, in-place?)
_UNARY = (
    ("digamma", "self", SF.digamma, "digamma", True, True),
    ("lgamma", "self", SF.lgamma, "lgamma_vml_cpu", True, True),
    ("erfc", "self", _scipy("erfc", "aten::erfc"), "erfc_vml_cpu", True, True),
    ("erfinv", "self", _scipy("erfinv", "aten::erfinv"), "erfinv_vml_cpu", True, True),
    ("i0", "self", _scipy("i0", "aten::i0"), "i0_vml_cpu", True, True),
    ("special_i0e", "self", _scipy("i0e", "aten::special_i0e"), "i0e_cpu", True, False),
    ("special_i1", "self", _scipy("i1", "aten::special_i1"), "i1_cpu", True, False),
    ("special_i1e", "self", _scipy("i1e", "aten::special_i1e"), "i1e_cpu", True, False),
    ("special_entr", "self", SF.entr, "entr_cpu", True, False),
    ("special_erfcx", "self", _scipy("erfcx", "aten::special_erfcx"), "erfcx_cpu", False, False),
    ("special_ndtri", "self", _scipy("ndtri", "aten::special_ndtri"), "ndtri_cpu", False, False),
    ("special_log_ndtr", "self", SF.log_ndtr, "log_ndtr_cpu", False, False),
    ("special_airy_ai", "x", SF.airy_ai, "airy_ai_cpu", False, False),
    ("special_bessel_j0", "self", SF.bessel_j0, "bessel_j0_cpu", False, False),
    ("special_bessel_j1", "self", SF.bessel_j1, "bessel_j1_cpu", False, False),
    ("special_bessel_y0", "self", SF.bessel_y0, "bessel_y0_cpu", False, False),
    ("special_bessel_y1", "self", SF.bessel_y1, "bessel_y1_cpu", False, False),
    ("special_modified_bessel_i0", "self", _scipy("i0", "aten::special_modified_bessel_i0"),
     "modified_bessel_i0_cpu", False, False),
    ("special_modified_bessel_i1", "self", _scipy("i1", "aten::special_modified_bessel_i1"),
     "modified_bessel_i1_cpu", False, False),
    ("special_modified_bessel_k0", "self", _scipy("k0", "aten::special_modified_bessel_k0"),
     "modified_bessel_k0_cpu", False, False),
    ("special_modified_bessel_k1", "self", _scipy("k1", "aten::special_modified_bessel_k1"),
     "modified_bessel_k1_cpu", False, False),
    ("special_scaled_modified_bessel_k0", "x", _scipy("k0e", "aten::special_scaled_modified_bessel_k0"),
     "scaled_modified_bessel_k0_cpu", False, False),
    ("special_scaled_modified_bessel_k1", "x", _scipy("k1e", "aten::special_scaled_modified_bessel_k1"),
     "scaled_modified_bessel_k1_cpu", False, False),
    ("special_spherical_bessel_j0", "x", SF.spherical_bessel_j0, "spherical_bessel_j0_cpu", False, False),
)

for _name, _arg, _fn, _cpu, _reduced, _inplace in _UNARY:
    OPS.op(f"{_name}(Tensor {_arg}) -> Tensor", kind="pointwise",
           inplace=f"{_name}_(Tensor(a!) self) -> Tensor(a!)" if _inplace else None,
           out=_out(_name, f"Tensor {_arg}"))(unary(_fn, _cpu, _reduced))


# ---------------------------------------------------------------------------------------------
# polygamma and the multivariate log-gamma


def _polygamma_array(n):
    def fn(x):
        if n >= 2:
            return SF.polygamma(n, x, math.lgamma)
        return SF.polygamma(n, x, None)
    return fn


@OPS.op("polygamma(int n, Tensor self) -> Tensor", kind="pointwise",
        out="polygamma.out(int n, Tensor self, *, Tensor(a!) out) -> Tensor(a!)")
def polygamma(n, self):
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    return unary(_polygamma_array(n), "polygamma" if n >= 2 else ("digamma" if n == 0 else "trigamma"))(self)


@OPS.op("polygamma_(Tensor(a!) self, int n) -> Tensor(a!)", kind="inplace")
def polygamma_(self, n):
    from .common import inplace_result

    return inplace_result(self, polygamma(n, self)._data, "aten::polygamma_")


@OPS.op("mvlgamma(Tensor self, int p) -> Tensor", kind="pointwise",
        inplace="mvlgamma_(Tensor(a!) self, int p) -> Tensor(a!)",
        out="mvlgamma.out(Tensor self, int p, *, Tensor(a!) out) -> Tensor(a!)")
def mvlgamma(self, p):
    """``log Gamma_p(x) = p (p - 1) / 4 log(pi) + sum_{j < p} lgamma(x - j / 2)`` (torch's sum over
    the offsets ``-p/2 + 1/2, ..., 0``; no check of the domain: below ``(p - 1) / 2`` it is inf or
    nan, as torch's)."""
    x = self._data
    if x.dtype.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    dt = D.FROM_NP[x.dtype] if x.dtype in INEXACT else D.get_default_dtype()
    if dt._cat == 3:
        _refuse("arange_cpu", dt)
    work = _compute_dtype(dt, "lgamma_vml_cpu", True)
    offsets = np.arange(-p / 2 + 0.5, 0.5, 0.5, dtype=work)
    with np.errstate(all="ignore"):
        r = SF.lgamma(x.astype(work, copy=False)[..., None] + offsets).sum(-1) \
            + work.type(p * (p - 1) * math.log(math.pi) / 4)
    return out(np.asarray(r).astype(dt.np, copy=False), self)


# ---------------------------------------------------------------------------------------------
# Two-argument functions


def _no_integers(kernel, cpu_name):
    """``kernel`` of an op whose CPU kernel takes floating dtypes only (igamma, logaddexp2): integral
    and bool arguments are refused, not promoted."""
    def checked(self, other):
        dt = tensor_result_dtype(self, other)
        if dt._cat < 2:
            _refuse(cpu_name, dt)
        return kernel(self, other)
    checked.__name__ = kernel.__name__
    return checked


for _name, _fn in (("igamma", SF.igamma), ("igammac", SF.igammac)):
    OPS.op(f"{_name}(Tensor self, Tensor other) -> Tensor", kind="pointwise",
           inplace=f"{_name}_(Tensor(a!) self, Tensor other) -> Tensor(a!)",
           out=_out(_name, "Tensor self, Tensor other"))(
        _no_integers(binary(_fn, f"{_name}_cpu", f"aten::{_name}"), f"{_name}_cpu"))

_XLOG1PY = binary(SF.xlog1py, "xlog1py_cpu", "aten::special_xlog1py", with_dtype=True)
_ZETA = binary(SF.zeta, "zeta_cpu", "aten::special_zeta", reduced=False)


def _scalar_overloads(name, kernel, first, second):
    """``name``'s three overloads (two tensors, a Python number for the first or the second
    argument) and their ``out=`` forms, all on ``kernel``."""
    both = f"Tensor {first}, Tensor {second}"
    OPS.op(f"{name}({both}) -> Tensor", kind="pointwise", out=_out(name, both))(kernel)
    for overload, args in ((f"{first}_scalar", f"Scalar {first}, Tensor {second}"),
                           (f"{second}_scalar", f"Tensor {first}, Scalar {second}")):
        OPS.op(f"{name}.{overload}({args}) -> Tensor", kind="pointwise",
               out=f"{name}.{overload}_out({args}, *, Tensor(a!) out) -> Tensor(a!)")(kernel)


_scalar_overloads("special_xlog1py", _XLOG1PY, "self", "other")
_scalar_overloads("special_zeta", _ZETA, "self", "other")
for _name in SF.POLYNOMIALS:
    _scalar_overloads(f"special_{_name}", binary(
        lambda x, n, _p=_name: SF.polynomial(_p, x, n), f"{_name}_cpu", f"aten::special_{_name}", reduced=False),
        "x", "n")


# ---------------------------------------------------------------------------------------------
# special_* names torch defines as other operators (CompositeImplicitAutograd: autograd and the
# batching rule are those of the operator they call)


def _alias(schema, call, out=None):
    """Declare ``schema`` as the CompositeImplicitAutograd kernel ``call``; ``out`` (default: the
    ``.out`` form of a one-overload name) its ``out=`` schema, or "" for none."""
    name = schema[:schema.index("(")]
    if out is None:
        out = _out(name, schema[schema.index("(") + 1:schema.index(")")])
    call.__name__ = name.replace(".", "_")
    OPS.op(schema, kind="composite", out=out or None)(call)


_alias("special_psi(Tensor self) -> Tensor", lambda self: A.digamma(self))
_alias("special_digamma(Tensor self) -> Tensor", lambda self: A.digamma(self))
_alias("special_gammaln(Tensor self) -> Tensor", lambda self: A.lgamma(self))
_alias("special_erf(Tensor self) -> Tensor", lambda self: A.erf(self))
_alias("special_erfc(Tensor self) -> Tensor", lambda self: A.erfc(self))
_alias("special_erfinv(Tensor self) -> Tensor", lambda self: A.erfinv(self))
_alias("special_i0(Tensor self) -> Tensor", lambda self: A.i0(self))
_alias("special_expit(Tensor self) -> Tensor", lambda self: A.sigmoid(self))
_alias("special_exp2(Tensor self) -> Tensor", lambda self: A.exp2(self))
_alias("special_expm1(Tensor self) -> Tensor", lambda self: A.expm1(self))
_alias("special_log1p(Tensor self) -> Tensor", lambda self: A.log1p(self))
_alias("special_sinc(Tensor self) -> Tensor", lambda self: A.sinc(self))
_alias("special_logit(Tensor self, float? eps=None) -> Tensor", lambda self, eps=None: A.logit(self, eps))
_alias("special_round(Tensor self, *, int decimals=0) -> Tensor",
       lambda self, *, decimals=0: A.round__decimals(self, decimals=decimals),
       "special_round.out(Tensor self, *, int decimals=0, Tensor(a!) out) -> Tensor(a!)")
_alias("special_xlogy(Tensor self, Tensor other) -> Tensor", lambda self, other: A.xlogy__Tensor(self, other))
_alias("special_xlogy.self_scalar(Scalar self, Tensor other) -> Tensor",
       lambda self, other: A.xlogy__Scalar_Self(self, other),
       "special_xlogy.self_scalar_out(Scalar self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
_alias("special_xlogy.other_scalar(Tensor self, Scalar other) -> Tensor",
       lambda self, other: A.xlogy__Scalar_Other(self, other),
       "special_xlogy.other_scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)")
_alias("special_log_softmax(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
       lambda self, dim, *, dtype=None: A.log_softmax__int(self, dim, dtype), "")
_alias("special_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
       lambda self, dim, dtype=None: A.softmax__int(self, dim, dtype), "")
_alias("special_logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
       lambda self, dim, keepdim=False: A.logsumexp(self, dim, keepdim))
_alias("special_gammainc(Tensor self, Tensor other) -> Tensor", lambda self, other: A.igamma(self, other))
_alias("special_gammaincc(Tensor self, Tensor other) -> Tensor", lambda self, other: A.igammac(self, other))
_alias("special_polygamma(int n, Tensor self) -> Tensor", lambda n, self: A.polygamma(n, self))
_alias("special_multigammaln(Tensor self, int p) -> Tensor", lambda self, p: A.mvlgamma(self, p))


def _ndtr(self):
    """The standard normal distribution function ``(1 + erf(x / sqrt(2))) / 2``, composed as torch's."""
    return A.mul__Scalar(A.add__Scalar(A.erf(A.mul__Scalar(self, math.sqrt(0.5))), 1), 0.5)


_alias("special_ndtr(Tensor self) -> Tensor", _ndtr)
