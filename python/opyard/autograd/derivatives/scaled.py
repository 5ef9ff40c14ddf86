"""Derivatives of the ops that add a scaled term to ``self`` (``_aten/scaled_ops.py``; ``addmm``'s
row is in ``reductions.py``): derivatives.yaml's rows, conjugated as torch's (``maybe_multiply``:
a factor of 1 is not multiplied in; a zero ``beta`` still gives ``self`` a zero gradient).
"""

from ._helpers import A, cj, div, lin, mul, neg
from .math import fit
from .registry import Formula as F
from ..._exports import public_dir


def _times(g, factor):
    """torch's ``maybe_multiply``: ``g * factor``, unless the factor is 1."""
    return g if factor == 1 and not isinstance(factor, bool) else A.mul.Scalar(g, factor)


def _mT(x):
    return A.transpose.int(x, -2, -1)


def _addmv(grads, a, n):
    g = grads[0]
    return (_times(g, cj(a.beta)) if n[0] else None,
            _times(A.outer.default(g, cj(a.vec)), cj(a.alpha)) if n[1] else None,
            _times(A.mv.default(cj(A.t.default(a.mat)), g), cj(a.alpha)) if n[2] else None)


def _addmv_fw(t, a):
    return fit(lin(None if t[0] is None else _times(t[0], a.beta),
                   None if t[1] is None else _times(A.mv.default(t[1], a.vec), a.alpha),
                   None if t[2] is None else _times(A.mv.default(a.mat, t[2]), a.alpha)), a.result)


def _addr(grads, a, n):
    g = grads[0]
    return (_times(g, cj(a.beta)) if n[0] else None,
            _times(A.mv.default(g, cj(a.vec2)), cj(a.alpha)) if n[1] else None,
            _times(A.mv.default(A.t.default(g), cj(a.vec1)), cj(a.alpha)) if n[2] else None)


def _addr_fw(t, a):
    return fit(lin(None if t[0] is None else _times(t[0], a.beta),
                   None if t[1] is None else _times(A.outer.default(t[1], a.vec2), a.alpha),
                   None if t[2] is None else _times(A.outer.default(a.vec1, t[2]), a.alpha)), a.result)


def _addbmm(grads, a, n):
    g = grads[0]
    b1, b2 = a.batch1, a.batch2
    gb = A.expand.default(A.unsqueeze.default(g, 0), [b1.shape[0], b1.shape[1], b2.shape[2]]) \
        if n[1] or n[2] else None
    return (_times(g, cj(a.beta)) if n[0] else None,
            _times(A.bmm.default(gb, cj(_mT(b2))), cj(a.alpha)) if n[1] else None,
            _times(A.bmm.default(cj(_mT(b1)), gb), cj(a.alpha)) if n[2] else None)


def _addbmm_fw(t, a):
    return fit(lin(None if t[0] is None else _times(t[0], a.beta),
                   None if t[1] is None else _times(A.sum.dim_IntList(A.bmm.default(t[1], a.batch2), [0]), a.alpha),
                   None if t[2] is None else _times(A.sum.dim_IntList(A.bmm.default(a.batch1, t[2]), [0]), a.alpha)),
               a.result)


def _baddbmm(grads, a, n):
    g = grads[0]
    return (_times(g, cj(a.beta)) if n[0] else None,
            _times(A.bmm.default(g, cj(_mT(a.batch2))), cj(a.alpha)) if n[1] else None,
            _times(A.bmm.default(cj(_mT(a.batch1)), g), cj(a.alpha)) if n[2] else None)


def _baddbmm_fw(t, a):
    return fit(lin(None if t[0] is None else _times(t[0], a.beta),
                   None if t[1] is None else _times(A.bmm.default(t[1], a.batch2), a.alpha),
                   None if t[2] is None else _times(A.bmm.default(a.batch1, t[2]), a.alpha)), a.result)


def _addcmul(grads, a, n):
    g = grads[0]
    return (g if n[0] else None,
            mul(g, cj(_times(a.tensor2, a.value))) if n[1] else None,
            mul(g, cj(_times(a.tensor1, a.value))) if n[2] else None)


def _addcmul_fw(t, a):
    return fit(lin(t[0], None if t[1] is None else mul(t[1], _times(a.tensor2, a.value)),
                   None if t[2] is None else mul(t[2], _times(a.tensor1, a.value))), a.result)


def _addcdiv(grads, a, n):
    g = grads[0]
    t1, t2, v = a.tensor1, a.tensor2, a.value
    return (g if n[0] else None,
            mul(g, cj(_times(A.reciprocal.default(t2), v))) if n[1] else None,
            neg(mul(g, cj(div(_times(t1, v), mul(t2, t2))))) if n[2] else None)


def _addcdiv_fw(t, a):
    t1, t2, v = a.tensor1, a.tensor2, a.value
    return fit(lin(t[0], None if t[1] is None else div(_times(t[1], v), t2),
                   None if t[2] is None else neg(div(mul(_times(t[2], v), t1), mul(t2, t2)))), a.result)


FORMULAS = {
    "aten::addmv": F("AddmvBackward0", ("self", "mat", "vec"), _addmv, save=("mat", "vec"), forward=_addmv_fw),
    "aten::addr": F("AddrBackward0", ("self", "vec1", "vec2"), _addr, save=("vec1", "vec2"), forward=_addr_fw),
    "aten::addbmm": F("AddbmmBackward0", ("self", "batch1", "batch2"), _addbmm, save=("batch1", "batch2"),
                      forward=_addbmm_fw),
    "aten::baddbmm": F("BaddbmmBackward0", ("self", "batch1", "batch2"), _baddbmm, save=("batch1", "batch2"),
                       forward=_baddbmm_fw),
    "aten::addcmul": F("AddcmulBackward0", ("self", "tensor1", "tensor2"), _addcmul, save=("tensor1", "tensor2"),
                       forward=_addcmul_fw),
    "aten::addcdiv": F("AddcdivBackward0", ("self", "tensor1", "tensor2"), _addcdiv, save=("tensor1", "tensor2"),
                       forward=_addcdiv_fw),
}


__dir__ = public_dir(globals())
