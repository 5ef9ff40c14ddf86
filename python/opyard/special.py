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

_A = ops.aten

airy_ai = _A.special_airy_ai
bessel_j0 = _A.special_bessel_j0
bessel_j1 = _A.special_bessel_j1
bessel_y0 = _A.special_bessel_y0
bessel_y1 = _A.special_bessel_y1
chebyshev_polynomial_t = _A.special_chebyshev_polynomial_t
chebyshev_polynomial_u = _A.special_chebyshev_polynomial_u
chebyshev_polynomial_v = _A.special_chebyshev_polynomial_v
chebyshev_polynomial_w = _A.special_chebyshev_polynomial_w
digamma = _A.special_digamma
entr = _A.special_entr
erf = _A.special_erf
erfc = _A.special_erfc
erfcx = _A.special_erfcx
erfinv = _A.special_erfinv
exp2 = _A.special_exp2
expit = _A.special_expit
expm1 = _A.special_expm1
gammainc = _A.special_gammainc
gammaincc = _A.special_gammaincc
gammaln = _A.special_gammaln
hermite_polynomial_h = _A.special_hermite_polynomial_h
hermite_polynomial_he = _A.special_hermite_polynomial_he
i0 = _A.special_i0
i0e = _A.special_i0e
i1 = _A.special_i1
i1e = _A.special_i1e
laguerre_polynomial_l = _A.special_laguerre_polynomial_l
legendre_polynomial_p = _A.special_legendre_polynomial_p
log1p = _A.special_log1p
log_ndtr = _A.special_log_ndtr
log_softmax = _A.special_log_softmax
logit = _A.special_logit
logsumexp = _A.special_logsumexp
modified_bessel_i0 = _A.special_modified_bessel_i0
modified_bessel_i1 = _A.special_modified_bessel_i1
modified_bessel_k0 = _A.special_modified_bessel_k0
modified_bessel_k1 = _A.special_modified_bessel_k1
multigammaln = _A.special_multigammaln
ndtr = _A.special_ndtr
ndtri = _A.special_ndtri
polygamma = _A.special_polygamma
psi = _A.special_psi
round = _A.special_round
scaled_modified_bessel_k0 = _A.special_scaled_modified_bessel_k0
scaled_modified_bessel_k1 = _A.special_scaled_modified_bessel_k1
shifted_chebyshev_polynomial_t = _A.special_shifted_chebyshev_polynomial_t
shifted_chebyshev_polynomial_u = _A.special_shifted_chebyshev_polynomial_u
shifted_chebyshev_polynomial_v = _A.special_shifted_chebyshev_polynomial_v
shifted_chebyshev_polynomial_w = _A.special_shifted_chebyshev_polynomial_w
sinc = _A.special_sinc
softmax = _A.special_softmax
spherical_bessel_j0 = _A.special_spherical_bessel_j0
xlog1py = _A.special_xlog1py
xlogy = _A.special_xlogy
zeta = _A.special_zeta
