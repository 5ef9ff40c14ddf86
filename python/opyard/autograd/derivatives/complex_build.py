"""Derivatives of ``complex`` and ``polar`` (``_aten/complex_build.py``): derivatives.yaml's rows and
torch's ``polar_backward``, in Python. The gradient of a complex output is its conjugate Wirtinger
derivative (torch's convention), so ``complex``'s parts take the real and imaginary parts of it."""

from ._helpers import A, mul
from .math import fit
from .registry import Formula as F
from ..._exports import public_dir


def _complex(grads, a, n):
    g = grads[0]
    return (A.real.default(g) if n[0] else None, A.imag.default(g) if n[1] else None)


def _complex_fw(t, a):
    re = A.zeros_like.default(a.result) if t[0] is None else fit(t[0], a.result)
    im = A.zeros_like.default(a.result) if t[1] is None else fit(t[1], a.result)
    return A.complex.default(A.real.default(re) if re.dtype.is_complex else re,
                             A.real.default(im) if im.dtype.is_complex else im)


def _polar(grads, a, n):
    """``abs``: ``Re(conj(grad) sgn(result))``; ``angle``: ``Re(conj(grad) i result)``."""
    g = A.conj_physical.default(grads[0])
    r = a.result
    gabs = A.real.default(mul(g, A.sgn.default(r))) if n[0] else None
    gangle = A.real.default(mul(g, A.mul.Scalar(r, 1j))) if n[1] else None
    return gabs, gangle


def _polar_fw(t, a):
    """``t_abs e^(i angle) + i result t_angle``."""
    terms = []
    if t[0] is not None:
        terms.append(mul(A.polar.default(A.ones_like.default(a.abs), a.angle), t[0]))
    if t[1] is not None:
        terms.append(mul(A.mul.Scalar(a.result, 1j), t[1]))
    r = terms[0] if len(terms) == 1 else A.add.Tensor(terms[0], terms[1])
    return fit(r, a.result)


FORMULAS = {
    "aten::complex": F("ComplexBackward0", ("real", "imag"), _complex, forward=_complex_fw, complex=True),
    "aten::polar": F("PolarBackward0", ("abs", "angle"), _polar, save=("result",), forward=_polar_fw, complex=True),
}


__dir__ = public_dir(globals())
