"""Derivatives of the complex parts (``_aten/complex_views.py``): derivatives.yaml's rows for
``view_as_real``/``view_as_complex`` (the gradient viewed back), ``_conj``/``_conj_physical`` (the
conjugate of the gradient) and torch's ``angle_backward``. ``real``, ``imag``, ``conj``,
``conj_physical``, ``resolve_conj`` and ``resolve_neg`` are composites: autograd records what they call.

The gradient of a complex tensor is its conjugate Wirtinger derivative (torch's convention)."""

from ._helpers import A, div, mul
from .registry import Formula as F
from ..._exports import public_dir


def _view_as_real(grads, a, n):
    return (A.view_as_complex.default(A.contiguous.default(grads[0])),)


def _view_as_complex(grads, a, n):
    return (A.view_as_real.default(A.contiguous.default(grads[0])),)


def _conj(grads, a, n):
    return (A.conj.default(grads[0]),)


def _conj_physical(grads, a, n):
    return (A.conj_physical.default(grads[0]),)


def _angle(grads, a, n):
    """torch's ``angle_backward``: 0 for a real input; for a complex one
    ``grad * self / |self|**2 * i``, 0 where ``self`` is 0."""
    g, x = grads[0], a.self
    if not x.dtype.is_complex:
        return (A.zeros_like.default(x),)
    r = A.mul.Scalar(div(mul(g, x), A.pow.Tensor_Scalar(A.abs.default(x), 2)), 1j)
    return (A.where.self(A.eq.Scalar(x, 0), A.zeros_like.default(r), r),)


def _angle_fw(t, a):
    """The tangent of ``atan2(imag, real)``: ``Re(conj(x) i t) / |x|**2``, written as torch's
    ``angle``'s forward row (0 for a real input)."""
    x = a.self
    if not x.dtype.is_complex:
        return A.zeros_like.default(a.result)
    num = A.sub.Tensor(mul(A.real.default(x), A.imag.default(t[0])), mul(A.imag.default(x), A.real.default(t[0])))
    return div(num, A.pow.Tensor_Scalar(A.abs.default(x), 2))


FORMULAS = {
    "aten::view_as_real": F("ViewAsRealBackward0", ("self",), _view_as_real,
                            forward=lambda t, a: A.view_as_real.default(t[0])),
    "aten::view_as_complex": F("ViewAsComplexBackward0", ("self",), _view_as_complex,
                               forward=lambda t, a: A.view_as_complex.default(A.contiguous.default(t[0])), complex=True),
    "aten::_conj": F("ConjBackward0", ("self",), _conj, forward=lambda t, a: A._conj.default(t[0]), complex=True),
    "aten::_conj_physical": F("ConjPhysicalBackward0", ("self",), _conj_physical,
                              forward=lambda t, a: A._conj_physical.default(t[0]), complex=True),
    "aten::conj_physical_": F("ConjPhysicalBackward1", ("self",), _conj_physical,
                              forward=lambda t, a: A.conj_physical.default(t[0]), complex=True),
    "aten::angle": F("AngleBackward0", ("self",), _angle, save=("self",), forward=_angle_fw),
}


__dir__ = public_dir(globals())
