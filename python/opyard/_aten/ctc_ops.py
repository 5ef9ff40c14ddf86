"""The connectionist temporal classification loss, as torch structures it: the kernels
``_ctc_loss`` (negative log likelihood and the forward variables ``log_alpha``) and
``_ctc_loss_backward`` (the gradient torch's ``CtcLossBackward0`` returns), and the composition
``ctc_loss`` (reduction over the batch, ``zero_infinity``).

The recursions of Graves et al. (2006) run over time in log space, vectorized over the batch
and the extended-label positions (``2 * target_length + 1`` of them)."""

import numpy as np

from .. import _dtype as D
from .common import A, _make_meta, out
from .nn_common import not_implemented

__all__ = ["COMPOSITE", "DATA_DEPENDENT", "KERNELS", "META_KERNELS", "SCHEMAS"]

SCHEMAS = (
    "_ctc_loss(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)",
    "_ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, bool zero_infinity=False) -> (Tensor, Tensor)",
    "_ctc_loss_backward(Tensor grad, Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor",
    "_ctc_loss_backward.Tensor(Tensor grad, Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, Tensor neg_log_likelihood, Tensor log_alpha, int blank, bool zero_infinity=False) -> Tensor",
    "ctc_loss.IntList(Tensor log_probs, Tensor targets, int[] input_lengths, int[] target_lengths, int blank=0, int reduction=Mean, bool zero_infinity=False) -> Tensor",
    "ctc_loss.Tensor(Tensor log_probs, Tensor targets, Tensor input_lengths, Tensor target_lengths, int blank=0, int reduction=Mean, bool zero_infinity=False) -> Tensor",
)

_WHERE = "(while checking arguments for ctc_loss_allocate_outputs)"
_NEG_INF = -np.inf


def _lengths(v):
    if hasattr(v, "_data"):
        return [int(x) for x in np.asarray(v._data).reshape(-1)]
    return [int(x) for x in v]


class _Problem:
    """The checked arguments of one call: log-probabilities (T, N, C) in float64, the extended
    labels (N, S) with blanks between and around the targets, and the lengths."""

    def __init__(self, log_probs, targets, input_lengths, target_lengths, blank):
        if log_probs.dtype not in (D.float32, D.float64):
            raise not_implemented("ctc_loss_cpu", log_probs.dtype)
        if log_probs.dim() != 3:
            raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional tensor for "
                               f"argument #1 'log_probs' {_WHERE}")
        lp = log_probs._data
        steps, batch, labels = lp.shape
        if not 0 <= blank < labels:
            raise RuntimeError("blank must be in label range")
        il, tl = _lengths(input_lengths), _lengths(target_lengths)
        if len(il) != batch:
            raise RuntimeError("input_lengths must be of size batch_size")
        if len(tl) != batch:
            raise RuntimeError("target_lengths must be of size batch_size")
        tg = np.asarray(targets._data).astype(np.int64)
        if tg.ndim == 1:  # targets of all examples one after another
            offsets = np.concatenate([[0], np.cumsum(tl)[:-1]]).astype(np.int64) if batch else np.zeros(0, np.int64)
            if tg.shape[0] != sum(tl):
                raise RuntimeError(f"Expected tensor to have size {sum(tl)} at dimension 0, but got size "
                                   f"{tg.shape[0]} for argument #2 'targets' {_WHERE}")
        for name, values in (("target_lengths", tl), ("input_lengths", il)):
            for v in values:
                if v < 0:
                    raise RuntimeError(f"Expected {name} to have value at least 0, but got value {v} {_WHERE}")
        max_target = max(tl, default=0)
        if tg.ndim != 1 and (tg.ndim < 2 or tg.shape[1] < max_target):
            raise RuntimeError(f"Expected tensor to have size at least {max_target} at dimension 1, but got size "
                               f"{tg.shape[1] if tg.ndim > 1 else 0} for argument #2 'targets' {_WHERE}")
        for v in il:
            if v > steps:
                raise RuntimeError(f"Expected input_lengths to have value at most {steps}, but got value {v} {_WHERE}")
        self.steps, self.batch, self.labels, self.blank = steps, batch, labels, blank
        self.il, self.tl = np.asarray(il, np.int64), np.asarray(tl, np.int64)
        self.width = 2 * max_target + 1
        # Extended labels: blank, l1, blank, l2, ..., blank (positions past 2 * L + 1 are unused).
        ext = np.full((batch, self.width), blank, np.int64)
        for b in range(batch):
            row = tg[offsets[b]:offsets[b] + tl[b]] if tg.ndim == 1 else tg[b, :tl[b]]
            ext[b, 1:2 * tl[b]:2] = row
        self.ext = ext
        s = np.arange(self.width)
        self.valid = s[None, :] < (2 * self.tl[:, None] + 1)
        previous = np.concatenate([np.full((batch, 2), -1), ext[:, :-2]], axis=1)[:, :self.width]
        self.skip = (s[None, :] % 2 == 1) & (s[None, :] >= 2) & (ext != previous)
        self.lp = lp.astype(np.float64)
        # log-probabilities of the extended labels: (T, N, S)
        self.lp_ext = np.take_along_axis(self.lp, np.broadcast_to(ext[None], (steps, batch, self.width)), axis=2)


def _logsumexp3(a, b, c):
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == _NEG_INF, 0, m)
    return np.log(np.exp(a - m) + np.exp(b - m) + np.exp(c - m)) + m


def _shift(x, k):
    """``x`` moved ``k`` positions up the last axis, -inf filled."""
    r = np.full_like(x, _NEG_INF)
    r[..., k:] = x[..., :-k] if k else x
    return r


def _alpha(p):
    """The forward variables (N, T, S) and each example's negative log likelihood."""
    la = np.full((p.batch, p.steps, p.width), _NEG_INF)
    if p.steps:
        la[:, 0, 0] = p.lp_ext[0, :, 0]
        la[:, 0, 1:2] = np.where((p.tl > 0)[:, None], p.lp_ext[0, :, 1:2], _NEG_INF) if p.width > 1 else 0
    for t in range(1, p.steps):
        prev = la[:, t - 1]
        step = _logsumexp3(prev, _shift(prev, 1), np.where(p.skip, _shift(prev, 2), _NEG_INF)) + p.lp_ext[t]
        live = p.valid & (t < p.il)[:, None]
        la[:, t] = np.where(live, step, _NEG_INF)
    # -log of the sum of the last two forward variables at each example's last step (the last one
    # alone for an empty target); an empty input explains only an empty target.
    rows = np.arange(p.batch)
    last = np.maximum(p.il - 1, 0)
    l1 = la[rows, last, 2 * p.tl] if p.steps else np.full(p.batch, _NEG_INF)
    l2 = np.where(p.tl > 0, la[rows, last, np.maximum(2 * p.tl - 1, 0)], _NEG_INF) if p.steps else l1
    m = np.maximum(l1, l2)
    m = np.where(m == _NEG_INF, 0, m)
    with np.errstate(divide="ignore"):
        nll = -(np.log(np.exp(l1 - m) + np.exp(l2 - m)) + m)
    nll = np.where(p.il == 0, np.where(p.tl == 0, -0.0, np.inf), nll)
    return la, nll


def ctc_loss_kernel(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    p = _Problem(log_probs, targets, input_lengths, target_lengths, blank)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        la, nll = _alpha(p)
    dt = log_probs._data.dtype
    return out(nll.astype(dt), log_probs), out(la.astype(dt), log_probs)


def ctc_loss_backward_kernel(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood, log_alpha,
                             blank, zero_infinity=False):
    """torch's gradient: ``(exp(lp) - exp(log(sum of alpha * beta over the positions of each
    label) + nll - lp)) * grad`` (the gradient of the loss through a log_softmax, as torch
    returns it), zero past each input's length and for infinite losses with ``zero_infinity``."""
    p = _Problem(log_probs, targets, input_lengths, target_lengths, blank)
    la = log_alpha._data.astype(np.float64)
    nll = neg_log_likelihood._data.astype(np.float64)
    T, N, C = p.steps, p.batch, p.labels
    collected = np.full((T, N, C), _NEG_INF)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        lb = np.full((N, T, p.width), _NEG_INF)
        ends = p.il - 1
        rows = np.arange(N)
        has = p.il > 0
        lb[rows[has], ends[has], 2 * p.tl[has]] = p.lp_ext[ends[has], rows[has], 2 * p.tl[has]]
        with_target = has & (p.tl > 0)
        lb[rows[with_target], ends[with_target], 2 * p.tl[with_target] - 1] = \
            p.lp_ext[ends[with_target], rows[with_target], 2 * p.tl[with_target] - 1]
        for t in range(T - 2, -1, -1):
            nxt = lb[:, t + 1]
            down1 = np.full_like(nxt, _NEG_INF)
            down1[:, :-1] = nxt[:, 1:]
            down2 = np.full_like(nxt, _NEG_INF)
            down2[:, :-2] = nxt[:, 2:]
            skip2 = np.zeros_like(p.skip)
            skip2[:, :-2] = p.skip[:, 2:]
            step = _logsumexp3(nxt, down1, np.where(skip2, down2, _NEG_INF)) + p.lp_ext[t]
            live = p.valid & (t < p.il - 1)[:, None]
            lb[:, t] = np.where(live, step, lb[:, t])
        # log sum over positions s of each label c of alpha[t, s] + beta[t, s]
        ab = np.where(p.valid[:, None, :], la + lb, _NEG_INF)  # (N, T, S)
        b_idx, t_idx, s_idx = np.nonzero(np.broadcast_to(p.valid[:, None, :], ab.shape))
        np.logaddexp.at(collected, (t_idx, b_idx, p.ext[b_idx, s_idx]), ab[b_idx, t_idx, s_idx])
        gr = grad._data.astype(np.float64).reshape(-1)
        g = (np.exp(p.lp) - np.exp(collected + nll[None, :, None] - p.lp)) * gr[None, :, None]
    t_idx = np.arange(T)[:, None]
    g = np.where(t_idx < p.il[None, :], g.transpose(2, 0, 1), 0).transpose(1, 2, 0)
    if zero_infinity:
        g = np.where(np.isinf(nll)[None, :, None], 0, g)
    return out(g.astype(log_probs._data.dtype), log_probs)


def ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    """torch's ``ctc_loss``: an unbatched input gets a batch of one; the per-example losses are
    divided by the target lengths and averaged (mean), summed, or returned."""
    batched = log_probs.dim() == 3
    lp = log_probs if batched else A.unsqueeze(log_probs, 1)
    tg = targets if targets.dtype is D.int64 else A._to_copy(targets, dtype=D.int64)
    res = A._ctc_loss(lp, tg, input_lengths, target_lengths, blank, zero_infinity)[0]
    if zero_infinity:
        res = A.where__self(A.eq__Scalar(res, float("inf")), A.zeros([], dtype=res.dtype, device=res.device), res)
    if reduction == 1:
        return A.mean(A.div__Tensor(res, _lengths_tensor(target_lengths, res)))
    if reduction == 2:
        return A.sum(res)
    return res if batched else A.squeeze__dim(res, 0)


def _lengths_tensor(target_lengths, like):
    """The target lengths (at least 1) as a tensor like ``like`` (torch's ``at::tensor(...).clamp_min(1)``)."""
    values = _lengths(target_lengths)
    if like.device.type == "meta":
        return _make_meta((len(values),), like.dtype)
    return out(np.maximum(np.asarray(values, dtype=like._data.dtype), 1), like)


def ctc_loss_tensor(log_probs, targets, input_lengths, target_lengths, blank=0, reduction=1, zero_infinity=False):
    for name, t in (("input_lengths", input_lengths), ("target_lengths", target_lengths)):
        if t.dtype.is_floating_point or t.dtype.is_complex or t.dtype is D.bool:
            raise RuntimeError(f"{name} must be integral")
        if t.device.type == "meta":
            raise NotImplementedError(
                "aten::ctc_loss.Tensor: the result depends on the input data, which meta tensors do not have (the "
                f"{name} values); pass the lengths as lists of ints")
    return ctc_loss(log_probs, targets, _lengths(input_lengths), _lengths(target_lengths), blank, reduction,
                    zero_infinity)


KERNELS = {
    "_ctc_loss": ctc_loss_kernel, "_ctc_loss.Tensor": ctc_loss_kernel,
    "_ctc_loss_backward": ctc_loss_backward_kernel, "_ctc_loss_backward.Tensor": ctc_loss_backward_kernel,
}
COMPOSITE = {"ctc_loss.IntList": ctc_loss, "ctc_loss.Tensor": ctc_loss_tensor}


def meta_ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, zero_infinity=False):
    """With the lengths as ints the shapes are known: (N,) and (N, T, 2 * max target length + 1)."""
    if log_probs.dim() != 3:
        raise RuntimeError(f"Expected 3-dimensional tensor, but got {log_probs.dim()}-dimensional tensor for "
                           f"argument #1 'log_probs' {_WHERE}")
    steps, batch = log_probs.shape[0], log_probs.shape[1]
    width = 2 * max(_lengths(target_lengths), default=0) + 1
    return _make_meta((batch,), log_probs.dtype), _make_meta((batch, steps, width), log_probs.dtype)


def meta_ctc_loss_backward(grad, log_probs, *args, **kwargs):
    return _make_meta(tuple(log_probs.shape), log_probs.dtype)


META_KERNELS = {"_ctc_loss": meta_ctc_loss, "_ctc_loss_backward": meta_ctc_loss_backward,
                "_ctc_loss_backward.Tensor": meta_ctc_loss_backward}
# The width of ``log_alpha`` is the largest target length, data of the lengths tensor.
DATA_DEPENDENT = {"_ctc_loss.Tensor"}
