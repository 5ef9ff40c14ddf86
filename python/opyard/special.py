"""``opyard.special``: torch.special's functions, each the ``aten::special_<name>`` operator packet
itself (no Python frame of ours on the call; overloads such as ``xlog1py(2.0, x)`` are picked by
the packet).

Example::

    >>> opyard.special.ndtr(opyard.tensor([0.0]))
    tensor([0.5000])

The Bessel, gamma and error-function families need scipy (``pip install scipy``) for the
functions numpy has no equivalent of (see ``opyard._aten._special_functions``).
"""

from ._ops import ops

__all__ = [
    "airy_ai", "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "chebyshev_polynomial_t", "chebyshev_polynomial_u",
    "chebyshev_polynomial_v", "chebyshev_polynomial_w", "digamma", "entr", "erf", "erfc", "erfcx", "erfinv", "exp2",
    "expit", "expm1", "gammainc", "gammaincc", "gammaln", "hermite_polynomial_h", "hermite_polynomial_he", "i0", "i0e",
    "i1", "i1e", "laguerre_polynomial_l", "legendre_polynomial_p", "log1p", "log_ndtr", "log_softmax", "logit",
    "logsumexp", "modified_bessel_i0", "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
    "multigammaln", "ndtr", "ndtri", "polygamma", "psi", "round", "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "sinc", "softmax", "spherical_bessel_j0",
    "xlog1py", "xlogy", "zeta",
]

for _name in __all__:
    globals()[_name] = getattr(ops.aten, "special_" + _name)
del _name
