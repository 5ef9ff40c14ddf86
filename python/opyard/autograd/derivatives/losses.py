"""Derivatives of the loss kernels (derivatives.yaml rows: binary_cross_entropy,
binary_cross_entropy_with_logits, nll_loss_forward, nll_loss2d_forward, smooth_l1_loss,
huber_loss, soft_margin_loss, multi_margin_loss, multilabel_margin_loss_forward). Class weights
and targets torch does not differentiate are refused when they require grad, as in torch.
Gradients are built from differentiable ops (``create_graph=True`` works); a reduced loss
(``reduction`` 1 mean, 2 sum) spreads its one gradient over the elements."""

from .. import _tensor_meta as meta
from ._helpers import A
from .registry import Formula as F
from ..._exports import public_dir


def _numel(t):
    n = 1
    for s in meta.shape(t):
        n *= s
    return n


def _scaled(g, reduction, count):
    """The incoming gradient of a loss, divided by the element count for a mean."""
    return A.div.Scalar(g, count) if reduction == 1 and count else g


def _weighted(t, weight):
    return t if weight is None else A.mul.Tensor(t, weight)


def _bce(grads, a, n):
    g, x, t = grads[0], a.self, a.target
    g = _scaled(g, a.reduction, _numel(x))
    gx = gt = None
    if n[0]:
        denom = A.clamp_min.default(A.mul.Tensor(A.rsub.Scalar(x, 1), x), 1e-12)
        gx = _weighted(A.mul.Tensor(A.div.Tensor(A.sub.Tensor(x, t), denom), g), a.weight)
    if n[1]:
        gt = _weighted(A.mul.Tensor(A.neg.default(A.logit.default(x)), g), a.weight)
    return (gx, gt)


def _bce_logits(grads, a, n):
    g, x, t, pw = grads[0], a.self, a.target, a.pos_weight
    g = _scaled(g, a.reduction, _numel(x))
    gx = gt = None
    if n[0]:
        sig = A.sigmoid.default(x)
        if pw is None:
            d = A.sub.Tensor(sig, t)
        else:
            tp = A.mul.Tensor(pw, t)
            d = A.sub.Tensor(A.mul.Tensor(A.sub.Tensor(A.add.Scalar(tp, 1), t), sig), tp)
        gx = _weighted(A.mul.Tensor(d, g), a.weight)
    if n[1]:
        if pw is None:
            d = A.neg.default(x)
        else:
            d = A.sub.Tensor(A.log_sigmoid.default(A.neg.default(x)), A.mul.Tensor(pw, A.log_sigmoid.default(x)))
        gt = _weighted(A.mul.Tensor(d, g), a.weight)
    return (gx, gt)


def _nll(class_dim):
    """``NllLossBackward0`` / ``NllLoss2DBackward0``: ``-weight[target] * grad`` at each target's
    class (divided by the total weight for a mean), zero elsewhere and at ignored targets."""
    def backward(grads, a, n):
        g, x, t = grads[0], a.self, a.target
        shape = list(meta.shape(x))
        cdim = class_dim if len(shape) > 1 else 0
        classes = shape[cdim]
        ignored = A.eq.Scalar(t, a.ignore_index)
        safe = A.masked_fill.Scalar(t, ignored, 0)
        if a.weight is None:
            tw = A._to_copy.default(A.logical_not.default(ignored), dtype=meta.dtype(x))
        else:
            picked = A.view.default(A.index_select.default(a.weight, 0, A.reshape.default(safe, [-1])),
                                    list(meta.shape(t)))
            tw = A.masked_fill.Scalar(picked, ignored, 0)
        coeff = A.neg.default(tw)
        if a.reduction == 1:  # ignored targets stay at 0 even when every target is ignored (0 / 0)
            coeff = A.masked_fill.Scalar(A.div.Tensor(coeff, a.result[1]), ignored, 0)
        coeff = A.mul.Tensor(coeff, g)
        index_shape = list(meta.shape(t))
        index_shape.insert(cdim, 1)
        rng = [1] * len(shape)
        rng[cdim] = classes
        classes_t = A.view.default(A.arange.default(classes, dtype=meta.dtype(t), device=t.device), rng)
        onehot = A.eq.Tensor(classes_t, A.view.default(safe, index_shape))
        spread = A.unsqueeze.default(coeff, cdim) if len(shape) > 1 else coeff
        return (A.mul.Tensor(A._to_copy.default(onehot, dtype=meta.dtype(x)), spread),)
    return backward


def _smooth_l1(grads, a, n):
    g = _scaled(grads[0], a.reduction, _broadcast_numel(a))
    d = A.sub.Tensor(a.self, a.target)
    if a.beta == 0:
        slope = A.sign.default(d)
    else:
        slope = A.where.self(A.lt.Scalar(A.abs.default(d), a.beta), A.div.Scalar(d, a.beta), A.sign.default(d))
    gx = A.mul.Tensor(slope, g)
    return (gx if n[0] else None, A.neg.default(gx) if n[1] else None)


def _mse(grads, a, n):
    g = _scaled(grads[0], a.reduction, _broadcast_numel(a))
    gx = A.mul.Tensor(A.mul.Scalar(A.sub.Tensor(a.self, a.target), 2.0), g)
    return (gx if n[0] else None, A.neg.default(gx) if n[1] else None)


def _huber(grads, a, n):
    g = _scaled(grads[0], a.reduction, _broadcast_numel(a))
    d = A.sub.Tensor(a.self, a.target)
    gx = A.mul.Tensor(A.clamp.default(d, -a.delta, a.delta), g)
    return (gx if n[0] else None, A.neg.default(gx) if n[1] else None)


def _broadcast_numel(a):
    n = 1
    for s in _broadcast(meta.shape(a.self), meta.shape(a.target)):
        n *= s
    return n


def _broadcast(s1, s2):
    out = []
    for i in range(1, max(len(s1), len(s2)) + 1):
        d1 = s1[-i] if i <= len(s1) else 1
        d2 = s2[-i] if i <= len(s2) else 1
        out.append(d1 if d2 == 1 else d2)
    return tuple(reversed(out))


def _soft_margin(grads, a, n):
    g = _scaled(grads[0], a.reduction, _broadcast_numel(a))
    t = a.target
    d = A.div.Tensor(A.neg.default(t), A.add.Scalar(A.exp.default(A.mul.Tensor(t, a.self)), 1))
    return (A.mul.Tensor(d, g),)


def _multi_margin(grads, a, n):
    g, x, t = grads[0], a.self, a.target
    shape = list(meta.shape(x))
    rows = 1 if len(shape) < 2 else shape[0]
    dim = shape[-1] if shape else 1
    xs = A.reshape.default(x, [rows, dim])
    ts = A.reshape.default(t, [rows, 1])
    z = A.add.Scalar(A.sub.Tensor(xs, A.gather.default(xs, 1, ts)), a.margin)
    classes = A.view.default(A.arange.default(dim, dtype=meta.dtype(t), device=t.device), [1, dim])
    is_target = A.eq.Tensor(classes, ts)
    active = A.logical_and.default(A.gt.Scalar(z, 0), A.logical_not.default(is_target))
    c = A._to_copy.default(active, dtype=meta.dtype(x))
    if a.p == 2:
        c = A.mul.Tensor(c, A.mul.Scalar(z, 2.0))
    if a.weight is not None:
        c = A.mul.Tensor(c, A.unsqueeze.default(A.index_select.default(a.weight, 0, A.reshape.default(t, [-1])), 1))
    c = A.div.Scalar(c, dim)
    gx = A.sub.Tensor(c, A.mul.Tensor(A._to_copy.default(is_target, dtype=meta.dtype(x)),
                                      A.sum.dim_IntList(c, [1], True)))
    if a.reduction == 0:
        gx = A.mul.Tensor(gx, A.reshape.default(g, [rows, 1]))
    else:
        gx = A.mul.Tensor(gx, _scaled(g, a.reduction, rows))
    return (A.reshape.default(gx, shape),)


def _multilabel_margin(grads, a, n):
    g, x = grads[0], a.self
    shape = list(meta.shape(x))
    rows = 1 if len(shape) < 2 else shape[0]
    dim = shape[-1] if shape else 1
    xs = A.reshape.default(x, [rows, dim])
    is_t = A.reshape.default(a.result[1], [rows, dim])
    # how often each class is listed before the row's first negative entry (repeats count, as in torch)
    t = A.reshape.default(a.target, [rows, dim])
    listed = A.cumprod.default(A._to_copy.default(A.ge.Scalar(t, 0), dtype=meta.dtype(t)), 1)
    classes = A.view.default(A.arange.default(dim, dtype=meta.dtype(t), device=t.device), [1, 1, dim])
    hits = A.mul.Tensor(A.eq.Tensor(A.unsqueeze.default(t, 2), classes), A.unsqueeze.default(listed, 2))
    count = A._to_copy.default(A.sum.dim_IntList(hits, [1], False), dtype=meta.dtype(x))
    margins = A.rsub.Scalar(A.sub.Tensor(A.unsqueeze.default(xs, 2), A.unsqueeze.default(xs, 1)), 1)
    pairs = A.mul.Tensor(A.unsqueeze.default(count, 2), A.unsqueeze.default(A.rsub.Scalar(is_t, 1), 1))
    act = A.mul.Tensor(A._to_copy.default(A.gt.Scalar(margins, 0), dtype=meta.dtype(x)), pairs)
    gx = A.div.Scalar(A.sub.Tensor(A.sum.dim_IntList(act, [1], False), A.sum.dim_IntList(act, [2], False)), dim)
    if a.reduction == 0:
        gx = A.mul.Tensor(gx, A.reshape.default(g, [rows, 1]))
    else:
        gx = A.mul.Tensor(gx, _scaled(g, a.reduction, rows))
    return (A.reshape.default(gx, shape),)


def _elementwise_jvp(backward):
    """The tangent of an elementwise loss from its backward: the per-element derivatives (the
    backward of a unit gradient) times the tangents, summed as the loss reduces."""
    def forward(t, a):
        ones = A.ones_like.default(a.result)
        needs = [x is not None for x in t]
        parts = backward([ones], a, needs)
        total = None
        for d, tan in zip(parts, t):
            if d is not None and tan is not None:
                term = A.mul.Tensor(d, tan)
                total = term if total is None else A.add.Tensor(total, term)
        if total is None:
            return None
        return total if a.reduction == 0 else A.sum.default(total)
    return forward


def _nll_jvp(t, a):
    """``-weight[target] * tangent[target]`` (0 where ignored), reduced as the loss."""
    x, tgt, tx = a.self, a.target, t[0]
    shape = list(meta.shape(x))
    cdim = 1 if len(shape) > 1 else 0
    ignored = A.eq.Scalar(tgt, a.ignore_index)
    safe = A.masked_fill.Scalar(tgt, ignored, 0)
    picked = A.squeeze.dim(A.gather.default(tx, cdim, A.unsqueeze.default(safe, cdim)), cdim)
    if a.weight is None:
        tw = A._to_copy.default(A.logical_not.default(ignored), dtype=meta.dtype(x))
    else:
        tw = A.masked_fill.Scalar(A.view.default(A.index_select.default(a.weight, 0, A.reshape.default(safe, [-1])),
                                                 list(meta.shape(tgt))), ignored, 0)
    loss = A.neg.default(A.mul.Tensor(picked, tw))
    if a.reduction == 0:
        return (loss, None)
    total = A.sum.default(loss)
    return (A.div.Tensor(total, a.result[1]) if a.reduction == 1 else total, None)


def _ctc(backward_op):
    def backward(grads, a, n):
        return (backward_op(grads[0], a.log_probs, a.targets, a.input_lengths, a.target_lengths, a.result[0],
                            a.result[1], a.blank, a.zero_infinity),)
    return backward


FORMULAS = {
    "aten::binary_cross_entropy": F("BinaryCrossEntropyBackward0", ("self", "target"), _bce,
                                    save=("self", "target", "weight"), refuse=("weight",), forward=_elementwise_jvp(_bce)),
    "aten::binary_cross_entropy_with_logits": F(
        "BinaryCrossEntropyWithLogitsBackward0", ("self", "target"), _bce_logits,
        save=("self", "target", "weight", "pos_weight"), refuse=("weight", "pos_weight"),
        forward=_elementwise_jvp(_bce_logits)),
    "aten::nll_loss_forward": F("NllLossBackward0", ("self",), _nll(1), save=("target", "weight", "result"),
                                outputs=(True, False), refuse=("weight",), forward=_nll_jvp),
    "aten::nll_loss2d_forward": F("NllLoss2DBackward0", ("self",), _nll(1), save=("target", "weight", "result"),
                                  outputs=(True, False), refuse=("weight",), forward=_nll_jvp),
    "aten::smooth_l1_loss": F("SmoothL1LossBackward0", ("self", "target"), _smooth_l1, save=("self", "target"),
                              forward=_elementwise_jvp(_smooth_l1)),
    "aten::mse_loss": F("MseLossBackward0", ("self", "target"), _mse, save=("self", "target"),
                        forward=_elementwise_jvp(_mse)),
    "aten::huber_loss": F("HuberLossBackward0", ("self", "target"), _huber, save=("self", "target"),
                          forward=_elementwise_jvp(_huber)),
    "aten::soft_margin_loss": F("SoftMarginLossBackward0", ("self",), _soft_margin, save=("self", "target"),
                                refuse=("target",), forward=_elementwise_jvp(_soft_margin)),
    "aten::multi_margin_loss": F("MultiMarginLossBackward0", ("self",), _multi_margin, save=("self", "target", "weight"),
                                 refuse=("weight",)),
    "aten::_ctc_loss": F("CtcLossBackward0", ("log_probs",), _ctc(A._ctc_loss_backward.default),
                         save=("log_probs", "targets", "result"), outputs=(True, False)),
    "aten::_ctc_loss.Tensor": F("CtcLossBackward1", ("log_probs",), _ctc(A._ctc_loss_backward.Tensor),
                                save=("log_probs", "targets", "input_lengths", "target_lengths", "result"),
                                outputs=(True, False)),
    "aten::multilabel_margin_loss_forward": F("MultilabelMarginLossBackward0", ("self",), _multilabel_margin,
                                              save=("self", "target", "result"), outputs=(True, False)),
}

__dir__ = public_dir(globals())
