"""Derivatives of the softmax internals and the fused CPU attention (derivatives.yaml rows:
_safe_softmax, _softmax_backward_data, _log_softmax_backward_data,
_scaled_dot_product_flash_attention_for_cpu). The softmax rows are built from differentiable
ops (``create_graph=True`` works); the fused attention's gradient is its backward kernel's."""

from .. import _tensor_meta as meta
from ._helpers import A
from .registry import Formula as F
from ..._exports import public_dir


def _safe_softmax(grads, a, n):
    return (A._softmax_backward_data.default(grads[0], a.result, a.dim, meta.dtype(a.self)),)


def _softmax_backward_data(grads, a, n):
    """r = y * (go - sum(go * y)): d/d go = y * (G - sum(G * y)); d/d y = G * (go - sum(go * y)) - go * sum(G * y)."""
    g, go, y, dim = grads[0], a.grad_output, a.output, a.dim
    ggo = A._softmax_backward_data.default(g, y, dim, a.input_dtype) if n[0] else None
    gy = None
    if n[1]:
        s = A.sum.dim_IntList(A.mul.Tensor(go, y), [dim], True)
        t = A.sum.dim_IntList(A.mul.Tensor(g, y), [dim], True)
        gy = A.sub.Tensor(A.mul.Tensor(g, A.sub.Tensor(go, s)), A.mul.Tensor(go, t))
    return (ggo, gy)


def _log_softmax_backward_data(grads, a, n):
    """r = go - exp(y) * sum(go): d/d go = G - sum(G * exp(y)); d/d y = -G * exp(y) * sum(go)."""
    g, go, y, dim = grads[0], a.grad_output, a.output, a.dim
    p = A.exp.default(y)
    ggo = A.sub.Tensor(g, A.sum.dim_IntList(A.mul.Tensor(g, p), [dim], True)) if n[0] else None
    gy = A.neg.default(A.mul.Tensor(A.mul.Tensor(g, p), A.sum.dim_IntList(go, [dim], True))) if n[1] else None
    return (ggo, gy)


def _flash(grads, a, n):
    g = grads[0]
    if g is None:
        return (None, None, None)
    dq, dk, dv = A._scaled_dot_product_flash_attention_for_cpu_backward.default(
        g, a.query, a.key, a.value, a.result[0], a.result[1], a.dropout_p, a.is_causal, attn_mask=a.attn_mask,
        scale=a.scale)
    return (dq if n[0] else None, dk if n[1] else None, dv if n[2] else None)


def _safe_softmax_jvp(t, a):
    y = a.result
    ty = A.mul.Tensor(t[0], y)
    return A.sub.Tensor(ty, A.mul.Tensor(y, A.sum.dim_IntList(ty, [a.dim], True)))


def _softmax_backward_data_jvp(t, a):
    """dr = dy * (go - s) + y * (dgo - ds), s = sum(go * y), ds = sum(dgo * y + go * dy)."""
    go, y, dim = a.grad_output, a.output, a.dim
    tgo = A.zeros_like.default(go) if t[0] is None else t[0]
    ty = A.zeros_like.default(y) if t[1] is None else t[1]
    s = A.sum.dim_IntList(A.mul.Tensor(go, y), [dim], True)
    ds = A.sum.dim_IntList(A.add.Tensor(A.mul.Tensor(tgo, y), A.mul.Tensor(go, ty)), [dim], True)
    return A.add.Tensor(A.mul.Tensor(ty, A.sub.Tensor(go, s)), A.mul.Tensor(y, A.sub.Tensor(tgo, ds)))


def _log_softmax_backward_data_jvp(t, a):
    """dr = dgo - exp(y) * (dy * sum(go) + sum(dgo))."""
    go, y, dim = a.grad_output, a.output, a.dim
    tgo = A.zeros_like.default(go) if t[0] is None else t[0]
    ty = A.zeros_like.default(y) if t[1] is None else t[1]
    p = A.exp.default(y)
    inner = A.add.Tensor(A.mul.Tensor(ty, A.sum.dim_IntList(go, [dim], True)), A.sum.dim_IntList(tgo, [dim], True))
    return A.sub.Tensor(tgo, A.mul.Tensor(p, inner))


FORMULAS = {
    "aten::_safe_softmax": F("SafeSoftmaxBackward0", ("self",), _safe_softmax, save=("result",),
                             forward=_safe_softmax_jvp),
    "aten::_softmax_backward_data": F("SoftmaxBackwardDataBackward0", ("grad_output", "output"),
                                      _softmax_backward_data, save=("grad_output", "output"),
                                      forward=_softmax_backward_data_jvp),
    "aten::_log_softmax_backward_data": F("LogSoftmaxBackwardDataBackward0", ("grad_output", "output"),
                                          _log_softmax_backward_data, save=("grad_output", "output"),
                                          forward=_log_softmax_backward_data_jvp),
    "aten::_scaled_dot_product_flash_attention_for_cpu": F(
        "ScaledDotProductFlashAttentionForCpuBackward0", ("query", "key", "value"), _flash,
        save=("query", "key", "value", "attn_mask", "result"), outputs=(True, False)),
}

__dir__ = public_dir(globals())
