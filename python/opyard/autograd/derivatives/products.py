"""Derivatives of ``vdot`` and of the BLAS-style updates ``addr``, ``addmv``, ``addbmm``, ``baddbmm`` (torch's
formulas: ``self`` gets ``beta * grad``, the factors the product's gradients times ``alpha``,
conjugated for complex tensors), and of ``unfold_backward`` (an ``unfold`` of the gradient)."""

from ._helpers import A, lin, mul
from .factorizations import mh
from .registry import Formula as F
from ..._exports import public_dir


def _conj(x):
    return A.conj.default(x) if x.dtype.is_complex else x


def _scaled(g, s):
    """``g * conj(s)`` (torch's ``maybe_multiply``: no multiply for 1)."""
    if s == 1:
        return g
    return A.mul.Scalar(g, s.conjugate() if isinstance(s, complex) else s)


def _vdot(grads, a, n):
    g = grads[0]
    return (mul(_conj(g), a.other) if n[0] else None, mul(g, a.self) if n[1] else None)


def _vdot_fw(t, a):
    return lin(None if t[0] is None else A.vdot.default(t[0], a.other),
               None if t[1] is None else A.vdot.default(a.self, t[1]))


def _addr(grads, a, n):
    g = grads[0]
    gself = _scaled(g, a.beta) if n[0] else None
    g1 = _scaled(A.mv.default(g, _conj(a.vec2)), a.alpha) if n[1] else None
    g2 = _scaled(A.mv.default(A.t.default(g), _conj(a.vec1)), a.alpha) if n[2] else None
    return (gself, g1, g2)


def _addmv(grads, a, n):
    g = grads[0]
    gself = _scaled(g, a.beta) if n[0] else None
    gmat = _scaled(A.outer.default(g, _conj(a.vec)), a.alpha) if n[1] else None
    gvec = _scaled(A.mv.default(mh(a.mat), g), a.alpha) if n[2] else None
    return (gself, gmat, gvec)


def _addbmm(grads, a, n):
    g = grads[0]
    b1, b2 = a.batch1, a.batch2
    gself = _scaled(g, a.beta) if n[0] else None
    ge = A.expand.default(A.unsqueeze.default(g, 0), [b1.shape[0], b1.shape[1], b2.shape[2]])
    g1 = _scaled(A.bmm.default(ge, mh(b2)), a.alpha) if n[1] else None
    g2 = _scaled(A.bmm.default(mh(b1), ge), a.alpha) if n[2] else None
    return (gself, g1, g2)


def _baddbmm(grads, a, n):
    g = grads[0]
    gself = _scaled(g, a.beta) if n[0] else None
    g1 = _scaled(A.bmm.default(g, mh(a.batch2)), a.alpha) if n[1] else None
    g2 = _scaled(A.bmm.default(mh(a.batch1), g), a.alpha) if n[2] else None
    return (gself, g1, g2)


def _scale_t(t, s):
    return None if t is None else (t if s == 1 else A.mul.Scalar(t, s))


def _addr_fw(t, a):
    prod = lin(None if t[1] is None else A.outer.default(t[1], a.vec2),
               None if t[2] is None else A.outer.default(a.vec1, t[2]))
    return lin(_scale_t(t[0], a.beta), _scale_t(prod, a.alpha))


def _addmv_fw(t, a):
    prod = lin(None if t[1] is None else A.mv.default(t[1], a.vec), None if t[2] is None else A.mv.default(a.mat, t[2]))
    return lin(_scale_t(t[0], a.beta), _scale_t(prod, a.alpha))


def _baddbmm_fw(t, a):
    prod = lin(None if t[1] is None else A.bmm.default(t[1], a.batch2),
               None if t[2] is None else A.bmm.default(a.batch1, t[2]))
    return lin(_scale_t(t[0], a.beta), _scale_t(prod, a.alpha))


def _addbmm_fw(t, a):
    def total(x, y):
        return A.sum.dim_IntList(A.bmm.default(x, y), [0], False)
    prod = lin(None if t[1] is None else total(t[1], a.batch2), None if t[2] is None else total(a.batch1, t[2]))
    return lin(_scale_t(t[0], a.beta), _scale_t(prod, a.alpha))


FORMULAS = {
    "aten::vdot": F("VdotBackward0", ("self", "other"), _vdot, save=("self", "other"), forward=_vdot_fw),
    "aten::addr": F("AddrBackward0", ("self", "vec1", "vec2"), _addr, save=("vec1", "vec2"), forward=_addr_fw),
    "aten::addmv": F("AddmvBackward0", ("self", "mat", "vec"), _addmv, save=("mat", "vec"), forward=_addmv_fw),
    "aten::addbmm": F("AddbmmBackward0", ("self", "batch1", "batch2"), _addbmm, save=("batch1", "batch2"),
                      forward=_addbmm_fw),
    "aten::baddbmm": F("BaddbmmBackward0", ("self", "batch1", "batch2"), _baddbmm, save=("batch1", "batch2"),
                       forward=_baddbmm_fw),
    "aten::unfold_backward": F("UnfoldBackwardBackward0", ("grad_in",),
                               lambda g, a, n: (A.unfold.default(g[0], a.dim, a.size, a.step),),
                               forward=lambda t, a: A.unfold_backward.default(t[0], a.input_sizes, a.dim, a.size,
                                                                              a.step)),
}


__dir__ = public_dir(globals())
