"""Differentiable samples of the special functions, the number-representation ops and the complex
parts (the rows ``grad_samples`` merges): per overload a callable and float64 inputs (complex128 for
the complex parts) inside each function's domain, away from its poles and branch points."""

import numpy as np

import opyard

A = opyard.ops.aten
rng = np.random.default_rng(20)


def u(lo, hi, *shape):
    """float64 values drawn from ``[lo, hi)``, requiring grad."""
    return opyard.tensor(rng.uniform(lo, hi, shape), dtype=opyard.float64, requires_grad=True)


def c(*shape):
    """Complex values away from 0 as (real, imaginary) pairs in float64, requiring grad: gradcheck
    differentiates real inputs, and ``_complex_in`` views them as complex128."""
    mag, ang = rng.uniform(0.5, 2.0, shape), rng.uniform(-3.0, 3.0, shape)
    pairs = np.stack([mag * np.cos(ang), mag * np.sin(ang)], -1)
    return opyard.tensor(pairs, dtype=opyard.float64, requires_grad=True)


def _complex_in(fn):
    """``fn`` of the complex tensor whose parts are the sample's last dimension."""
    return lambda x: fn(A.view_as_complex.default(x))


def _fixed(lo, hi, *shape):
    return opyard.tensor(rng.uniform(lo, hi, shape), dtype=opyard.float64)


_S = _fixed(1.5, 3.0, 3)  # the shape parameter of igamma/igammac and zeta's exponent: not differentiable


def _real_view(fn):
    """``fn``'s complex result as reals (gradcheck compares real outputs)."""
    return lambda *xs: A.view_as_real.default(fn(*xs))


SPECIAL_SAMPLES = {
    # the gamma family
    "aten::lgamma": (lambda a: A.lgamma.default(a), (u(0.3, 4.0, 4),)),
    "aten::digamma": (lambda a: A.digamma.default(a), (u(0.3, 4.0, 4),)),
    "aten::polygamma": (lambda a: A.polygamma.default(2, a), (u(0.5, 3.0, 4),)),
    "aten::mvlgamma": (lambda a: A.mvlgamma.default(a, 3), (u(1.5, 4.0, 4),)),
    "aten::igamma": (lambda x: A.igamma.default(_S, x), (u(0.5, 3.0, 3),)),
    "aten::igammac": (lambda x: A.igammac.default(_S, x), (u(0.5, 3.0, 3),)),
    "aten::special_zeta": (lambda q: A.special_zeta.default(_S, q), (u(0.5, 3.0, 3),)),
    "aten::special_zeta.self_scalar": (lambda q: A.special_zeta.self_scalar(2.5, q), (u(0.5, 3.0, 3),)),
    # the error-function family
    "aten::erfc": (lambda a: A.erfc.default(a), (u(-2.0, 2.0, 4),)),
    "aten::erfinv": (lambda a: A.erfinv.default(a), (u(-0.9, 0.9, 4),)),
    "aten::special_erfcx": (lambda a: A.special_erfcx.default(a), (u(-2.0, 3.0, 4),)),
    "aten::special_ndtri": (lambda a: A.special_ndtri.default(a), (u(0.05, 0.95, 4),)),
    "aten::special_log_ndtr": (lambda a: A.special_log_ndtr.default(a), (u(-4.0, 3.0, 4),)),
    "aten::special_entr": (lambda a: A.special_entr.default(a), (u(0.2, 3.0, 4),)),
    "aten::special_xlog1py": (lambda a, b: A.special_xlog1py.default(a, b), (u(-2.0, 2.0, 3), u(-0.5, 2.0, 3))),
    "aten::special_xlog1py.self_scalar": (lambda b: A.special_xlog1py.self_scalar(1.5, b), (u(-0.5, 2.0, 3),)),
    "aten::special_xlog1py.other_scalar": (lambda a: A.special_xlog1py.other_scalar(a, 0.7), (u(-2.0, 2.0, 3),)),
    # the Bessel and modified Bessel functions
    "aten::i0": (lambda a: A.i0.default(a), (u(-3.0, 3.0, 4),)),
    "aten::special_i0e": (lambda a: A.special_i0e.default(a), (u(-3.0, 3.0, 4),)),
    "aten::special_i1": (lambda a: A.special_i1.default(a), (u(-3.0, 3.0, 4),)),
    "aten::special_i1e": (lambda a: A.special_i1e.default(a), (u(-3.0, 3.0, 4),)),
    "aten::special_bessel_j0": (lambda a: A.special_bessel_j0.default(a), (u(-6.0, 6.0, 4),)),
    "aten::special_bessel_j1": (lambda a: A.special_bessel_j1.default(a), (u(-6.0, 6.0, 4),)),
    "aten::special_bessel_y0": (lambda a: A.special_bessel_y0.default(a), (u(0.5, 6.0, 4),)),
    "aten::special_bessel_y1": (lambda a: A.special_bessel_y1.default(a), (u(0.5, 6.0, 4),)),
    "aten::special_modified_bessel_i0": (lambda a: A.special_modified_bessel_i0.default(a), (u(-3.0, 3.0, 4),)),
    "aten::special_modified_bessel_i1": (lambda a: A.special_modified_bessel_i1.default(a), (u(-3.0, 3.0, 4),)),
    "aten::special_modified_bessel_k0": (lambda a: A.special_modified_bessel_k0.default(a), (u(0.5, 4.0, 4),)),
    "aten::special_modified_bessel_k1": (lambda a: A.special_modified_bessel_k1.default(a), (u(0.5, 4.0, 4),)),
    # number representation
    "aten::ldexp.Tensor": (lambda a: A.ldexp.Tensor(a, opyard.tensor([1, -2, 3])), (u(-2.0, 2.0, 3),)),
    "aten::frexp.Tensor": (lambda a: A.frexp.Tensor(a)[0], (u(0.6, 0.9, 3),)),
    "aten::nextafter": (lambda a, b: A.nextafter.default(a, b), (u(-2.0, 2.0, 3), u(3.0, 4.0, 3))),
    # complex tensors: their parts, built from real ones, conjugated, their arguments
    "aten::complex": (_real_view(lambda a, b: A.complex.default(a, b)), (u(-2.0, 2.0, 3), u(-2.0, 2.0, 3))),
    "aten::polar": (_real_view(lambda a, b: A.polar.default(a, b)), (u(0.5, 2.0, 3), u(-3.0, 3.0, 3))),
    "aten::view_as_real": (_complex_in(lambda z: A.view_as_real.default(z)), (c(3),)),
    "aten::view_as_complex": (_real_view(lambda x: A.view_as_complex.default(x)), (u(-2.0, 2.0, 3, 2),)),
    "aten::_conj": (_complex_in(_real_view(lambda z: A._conj.default(z))), (c(3),)),
    "aten::_conj_physical": (_complex_in(_real_view(lambda z: A._conj_physical.default(z))), (c(3),)),
    "aten::angle": (_complex_in(lambda z: A.angle.default(z)), (c(4),)),
}

SPECIAL_INPLACE_SAMPLES = {
    "aten::conj_physical_": (_complex_in(_real_view(lambda z: A.clone.default(z).conj_physical_())), (c(3),)),
}

# derivatives.yaml's not_implemented rows (torch's node raises "the derivative for 'zeta' is not implemented.")
SPECIAL_NOT_IMPLEMENTED = {"aten::special_zeta.other_scalar"}
