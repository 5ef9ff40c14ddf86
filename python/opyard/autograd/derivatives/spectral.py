"""Derivatives of the Fourier transform kernels and of the complex views and conjugations.

The transforms are linear: the gradient of ``_fft_c2c`` is the transform the other way with the
same scaling; ``_fft_r2c`` (onesided) takes the gradient zero-padded to the full length back with
the inverse complex transform and keeps the real part; ``_fft_c2r`` takes it forward with ``r2c``
and doubles the entries that stand for two (every one but the first and, for an even length, the
last). As torch's ``fft_r2c_backward`` / ``fft_c2r_backward``.
"""

from ._helpers import A
from .registry import Formula as F
from ..._exports import public_dir


def _c2c(grads, a, n):
    return (A._fft_c2c.default(grads[0], a.dim, a.normalization, not a.forward),)


def _last_dim(a):
    d = a.dim[-1]
    return d + len(a.self.shape) if d < 0 else d


def _r2c(grads, a, n):
    g = grads[0]
    if a.onesided:
        last = _last_dim(a)
        full = a.self.shape[last]
        missing = full - g.shape[last]
        if missing > 0:
            shape = list(g.shape)
            shape[last] = missing
            g = A.cat.default([g, A.new_zeros.default(g, shape)], last)
    return (A.real.default(A._fft_c2c.default(g, a.dim, a.normalization, False)),)


def _r2c_fw(t, a):
    return A._fft_r2c.default(t[0], a.dim, a.normalization, a.onesided)


def _c2r(grads, a, n):
    g = A._fft_r2c.default(grads[0], a.dim, a.normalization, True)
    last = _last_dim(a)
    doubled = grads[0].shape[last] - g.shape[last]
    if doubled > 0:  # entries 1 .. doubled stand for themselves and their mirror
        size = g.shape[last]
        parts = [A.narrow.default(g, last, 0, 1), A.mul.Scalar(A.narrow.default(g, last, 1, doubled), 2)]
        if size > 1 + doubled:
            parts.append(A.narrow.default(g, last, 1 + doubled, size - 1 - doubled))
        g = A.cat.default(parts, last)
    return (g,)


FORMULAS = {
    "aten::_fft_c2c": F("FftC2CBackward0", ("self",), _c2c,
                        forward=lambda t, a: A._fft_c2c.default(t[0], a.dim, a.normalization, a.forward)),
    "aten::_fft_r2c": F("FftR2CBackward0", ("self",), _r2c, forward=_r2c_fw),
    "aten::_fft_c2r": F("FftC2RBackward0", ("self",), _c2r,
                        forward=lambda t, a: A._fft_c2r.default(t[0], a.dim, a.normalization, a.last_dim_size)),
    # the complex parts and conjugation: complex_views.py
}
# These formulas compute the conjugate Wirtinger derivative for complex inputs (torch's convention):
# complex results of these operators are differentiable (Note [Complex outputs]).
for _formula in FORMULAS.values():
    _formula.complex = True


__dir__ = public_dir(globals())
