"""Loss operators as torch structures them. Kernels (numpy; ``int reduction``: 0 none, 1 mean,
2 sum): ``binary_cross_entropy``, ``binary_cross_entropy_with_logits``, ``nll_loss_forward``,
``nll_loss2d_forward``, ``smooth_l1_loss``, ``mse_loss``, ``huber_loss``, ``soft_margin_loss``,
``multi_margin_loss``, ``multilabel_margin_loss_forward`` and ``_ctc_loss`` (``ctc_ops.py``).
Compositions (CompositeImplicitAutograd in torch): ``cross_entropy_loss``, ``nll_loss``,
``nll_loss_nd``, ``nll_loss2d``, ``kl_div``, ``l1_loss``, ``poisson_nll_loss``,
``hinge_embedding_loss``, ``margin_ranking_loss``, ``cosine_embedding_loss``,
``multilabel_margin_loss``, ``triplet_margin_loss`` and ``pairwise_distance``.

Elementwise losses of float16/bfloat16 data are computed in float32, rounded to the input's
dtype, then reduced (torch reduces the rounded loss tensor). Derivatives:
``autograd/derivatives/losses.py``."""

import math

import numpy as np

from .. import _core
from .. import _dtype as D
from .common import A, broadcast_shape, out
from .nn_common import not_implemented, opmath

__all__ = ["COMPOSITE", "KERNELS", "SCHEMAS", "apply_reduction"]

SCHEMAS = (
    "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean) -> Tensor",
    "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? weight=None, Tensor? pos_weight=None, int reduction=Mean) -> Tensor",
    "nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> (Tensor output, Tensor total_weight)",
    "nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, SymInt ignore_index) -> (Tensor output, Tensor total_weight)",
    "nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor",
    "nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor",
    "nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100) -> Tensor",
    "cross_entropy_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=Mean, SymInt ignore_index=-100, float label_smoothing=0.0) -> Tensor",
    "kl_div(Tensor self, Tensor target, int reduction=Mean, *, bool log_target=False) -> Tensor",
    "l1_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor",
    "smooth_l1_loss(Tensor self, Tensor target, int reduction=Mean, float beta=1.0) -> Tensor",
    "mse_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor",
    "huber_loss(Tensor self, Tensor target, int reduction=Mean, float delta=1.0) -> Tensor",
    "soft_margin_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor",
    "poisson_nll_loss(Tensor input, Tensor target, bool log_input, bool full, float eps, int reduction) -> Tensor",
    "hinge_embedding_loss(Tensor self, Tensor target, float margin=1.0, int reduction=Mean) -> Tensor",
    "margin_ranking_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, int reduction=Mean) -> Tensor",
    "cosine_embedding_loss(Tensor input1, Tensor input2, Tensor target, float margin=0.0, int reduction=Mean) -> Tensor",
    "multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, Tensor? weight=None, int reduction=Mean) -> Tensor",
    "multilabel_margin_loss(Tensor self, Tensor target, int reduction=Mean) -> Tensor",
    "multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> (Tensor output, Tensor is_target)",
    "triplet_margin_loss(Tensor anchor, Tensor positive, Tensor negative, float margin=1.0, float p=2, float eps=1e-06, bool swap=False, int reduction=Mean) -> Tensor",
    "pairwise_distance(Tensor x1, Tensor x2, float p=2, float eps=1e-06, bool keepdim=False) -> Tensor",
)


# The dtypes of the losses' fast paths (float data computed in its own type: no rounding steps).
_FLOATS = frozenset({np.dtype(np.float32), np.dtype(np.float64)})
_F32 = np.dtype(np.float32)
_I64 = np.dtype(np.int64)


# --- shared -----------------------------------------------------------------------------------


def _reduce(loss, reduction, like):
    """The elementwise ``loss`` (compute dtype) rounded to ``like``'s dtype, then reduced as torch's
    ``apply_loss_reduction`` (the mean of no elements is nan)."""
    rounded = loss.astype(like._data.dtype, copy=False)
    if reduction == 0:
        return out(rounded, like)
    wide = opmath(rounded)
    with np.errstate(invalid="ignore", divide="ignore"):
        total = wide.sum(dtype=np.float64 if wide.dtype == np.float32 else wide.dtype)
        r = total / rounded.size if reduction == 1 else total
    return out(np.asarray(r).astype(like._data.dtype), like)


def apply_reduction(loss, reduction):
    """torch's ``apply_loss_reduction`` over a loss tensor (the compositions' last step)."""
    if reduction == 1:
        return A.mean(loss)
    if reduction == 2:
        return A.sum(loss)
    return loss


def _floating(t, kernel_name):
    if not t.dtype.is_floating_point:
        raise not_implemented(kernel_name, t.dtype)


def _pair(op_name, self, target):
    """``self`` and ``target`` data broadcast to ``self``'s shape (torch's TensorIterator with the
    output shaped like the input), in the compute dtype."""
    x, t = self._data, target._data
    shape = broadcast_shape(op_name, x.shape, t.shape)
    if shape != x.shape:
        raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape {list(shape)}")
    if target.dtype is not self.dtype and target.dtype.is_floating_point and self.dtype.is_floating_point:
        raise RuntimeError(f"Found dtype {D.legacy_name(target.dtype)} but expected {D.legacy_name(self.dtype)}")
    return opmath(x), opmath(np.broadcast_to(t, x.shape)).astype(opmath(x).dtype, copy=False)


def _weight_of(weight, shape, op_name):
    if weight is None:
        return None
    w = weight._data
    s = broadcast_shape(op_name, shape, w.shape)
    if s != shape:
        raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape {list(s)}")
    return opmath(np.broadcast_to(w, shape))


# --- elementwise losses -----------------------------------------------------------------------


def binary_cross_entropy(self, target, weight=None, reduction=1):
    _floating(self, "binary_cross_entropy")
    x, t = _pair("binary_cross_entropy", self, target)
    if x.size and (np.any(x < 0) or np.any(x > 1)):
        raise RuntimeError("all elements of input should be between 0 and 1")
    with np.errstate(divide="ignore", invalid="ignore"):
        loss = -(t * np.maximum(np.log(x), -100) + (1 - t) * np.maximum(np.log1p(-x), -100))
    w = _weight_of(weight, x.shape, "binary_cross_entropy")
    if w is not None:
        loss = loss * w
    return _reduce(loss, reduction, self)


def _stepwise(dtype):
    """Rounding to ``dtype`` after each step, for the losses torch composes of ops (each op of a
    float16/bfloat16 tensor computes in float32 and rounds its result)."""
    if dtype in (np.float16, D.bfloat16.np):
        return lambda v: np.asarray(v).astype(dtype).astype(np.float32)
    return lambda v: v


def binary_cross_entropy_with_logits(self, target, weight=None, pos_weight=None, reduction=1):
    """torch's composition (CompositeExplicitAutograd): ``(1 - t) * x - (1 + (pw - 1) * t) * log_sigmoid(x)``,
    each step rounded to the input's dtype."""
    _floating(self, "log_sigmoid_cpu")
    x, t = _pair("binary_cross_entropy_with_logits", self, target)
    r = _stepwise(self._data.dtype)
    with np.errstate(over="ignore"):
        log_sig = r(np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x))))
    if pos_weight is not None:
        pw = opmath(pos_weight._data)
        log_weight = r(r(r(pw - 1) * t) + 1)
        shape = np.broadcast_shapes(x.shape, log_weight.shape)
        if shape != x.shape:
            raise RuntimeError(f"output with shape {list(x.shape)} doesn't match the broadcast shape {list(shape)}")
        loss = r(r(r(1 - t) * x) - r(log_weight * log_sig))
    else:
        loss = r(r(r(1 - t) * x) - log_sig)
    w = _weight_of(weight, x.shape, "binary_cross_entropy_with_logits")
    if w is not None:
        loss = r(loss * w)
    return _reduce(loss, reduction, self)


def smooth_l1_loss(self, target, reduction=1, beta=1.0):
    if beta < 0:
        raise RuntimeError("smooth_l1_loss does not support negative values for beta.")
    _floating(self, "smooth_l1_cpu")
    x, t = _broadcast_pair(self, target, "smooth_l1_loss")
    if self._data.dtype == np.float16:
        # torch's float16 kernel works in the half type: beta and every step rounded to it (its
        # bfloat16 kernel computes in float32, as below).
        r = _stepwise(np.float16)
        b, z = r(beta), r(np.abs(x - t))
        loss = z if beta == 0 else np.where(z < b, r(r(0.5 * z * z) / b), r(z - 0.5 * b))
        return _reduce(loss, reduction, _like(self, target, loss.shape))
    z = np.abs(x - t)
    loss = z if beta == 0 else np.where(z < beta, 0.5 * z * z / (beta or 1), z - 0.5 * beta)
    return _reduce(loss, reduction, _like(self, target, loss.shape))


def _sum_loss(loss, reduction):
    """``_reduce``'s mean (``reduction`` 1) or sum of the non-empty float32/float64 ``loss`` in its
    dtype: its numpy steps without ``errstate`` (a division by a nonzero count cannot divide by zero,
    nor make a nan of numbers)."""
    total = np.add.reduce(loss, None, np.float64 if loss.dtype == _F32 else loss.dtype)
    return np.asarray(total / loss.size if reduction == 1 else total, loss.dtype)


def mse_loss(self, target, reduction=1):
    """``(self - target) ** 2`` in the promoted dtype of the two (torch's TensorIterator)."""
    x, t = self._data, target._data
    if type(x) is np.ndarray and type(t) is np.ndarray and x.dtype in _FLOATS and x.dtype == t.dtype \
            and x.shape == t.shape and x.size and x.flags.c_contiguous and t.flags.c_contiguous:
        # the common call: the steps below without the copies, the broadcast and the roundings
        loss = np.square(x - t)
        return out(loss if reduction == 0 else _sum_loss(loss, reduction), self)
    dt = D.promote_types(self.dtype, target.dtype)
    if not dt.is_floating_point:
        raise not_implemented("mse_cpu", dt)
    shape = broadcast_shape("mse_loss", self._data.shape, target._data.shape)
    x = opmath(np.broadcast_to(self._data, shape).astype(dt.np))
    t = opmath(np.broadcast_to(target._data, shape).astype(dt.np))
    r = _stepwise(dt.np)  # torch's kernel rounds the difference, then its square, to the dtype
    loss = r(np.square(r(x - t)))
    return _reduce(loss, reduction, out(np.empty(shape, dt.np), self))


def huber_loss(self, target, reduction=1, delta=1.0):
    if delta <= 0:
        raise RuntimeError("huber_loss does not support non-positive values for delta.")
    _floating(self, "huber_cpu")
    x, t = _broadcast_pair(self, target, "huber_loss")
    if self._data.dtype == D.bfloat16.np:
        # torch's bfloat16 kernel works in bfloat16: delta and every step rounded to it (its float16
        # kernel computes in float32, as below).
        r = _stepwise(D.bfloat16.np)
        d, z = r(delta), r(np.abs(x - t))
        loss = np.where(z < d, r(0.5 * r(z * z)), r(d * r(z - 0.5 * d)))
        return _reduce(loss, reduction, _like(self, target, loss.shape))
    z = np.abs(x - t)
    loss = np.where(z < delta, 0.5 * z * z, delta * (z - 0.5 * delta))
    return _reduce(loss, reduction, _like(self, target, loss.shape))


def soft_margin_loss(self, target, reduction=1):
    x, t = _broadcast_pair(self, target, "soft_margin_loss")
    if not self.dtype.is_floating_point:
        rdt = D.promote_types(self.dtype, D.get_default_dtype())
        raise RuntimeError(f"result type {D.legacy_name(rdt)} can't be cast to the desired output type "
                           f"{D.legacy_name(self.dtype)}")
    r = _stepwise(self._data.dtype)  # torch composes it of ops: -x * t, exp, log1p, each rounded
    with np.errstate(over="ignore"):
        loss = r(np.log1p(r(np.exp(r(-x * t)))))
    return _reduce(loss, reduction, _like(self, target, loss.shape))


def _broadcast_pair(self, target, op_name):
    """``self`` and ``target`` broadcast together (these losses' TensorIterator has no fixed output)."""
    shape = broadcast_shape(op_name, self._data.shape, target._data.shape)
    x = opmath(np.broadcast_to(self._data, shape))
    t = np.broadcast_to(target._data, shape)
    return x, t.astype(x.dtype, copy=False) if t.dtype != x.dtype else t


def _like(self, target, shape):
    """A stand-in of ``self``'s dtype and device with the broadcast ``shape`` (for ``_reduce``)."""
    if tuple(self._data.shape) == tuple(shape):
        return self
    return out(np.empty(shape, self._data.dtype), self)


# --- nll ---------------------------------------------------------------------------------------


def _target_dtype(target):
    if target.dtype not in (D.int64, D.uint8):
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got {D.legacy_name(target.dtype)}")


def _class_weights(weight, n_classes, self):
    if weight is None:
        return np.ones(n_classes, opmath(self._data).dtype)
    if weight.numel() != n_classes:
        raise RuntimeError(f"weight tensor should be defined either for all {n_classes} classes or no classes but got "
                           f"weight tensor of shape: {list(weight.shape)}")
    if weight.dtype is not self.dtype:
        raise RuntimeError(f"expected scalar type {D.legacy_name(self.dtype)} but found "
                           f"{D.legacy_name(weight.dtype)}")
    return opmath(weight._data.reshape(-1))


def _nll(x, t, w, reduction, ignore_index, self, class_axis):
    """``x``: log-probabilities with classes along ``class_axis``; ``t``: targets (the other
    dims). Returns (output, total_weight) tensors."""
    n_classes = x.shape[class_axis]
    t = t.astype(np.int64)
    ignored = t == ignore_index
    bad = (~ignored) & ((t < 0) | (t >= n_classes))
    if bad.any():
        raise IndexError(f"Target {int(t[bad].reshape(-1)[0])} is out of bounds.")
    safe = np.where(ignored, 0, t)
    picked = np.take_along_axis(np.moveaxis(x, class_axis, -1), safe[..., None], axis=-1)[..., 0]
    tw = np.where(ignored, 0, w[safe]).astype(x.dtype)
    loss = -picked * tw
    dt = self._data.dtype
    if reduction == 0:
        return out(loss.astype(dt), self), out(np.zeros((), dt), self)
    total_weight = tw.sum(dtype=np.float64)
    total = loss.sum(dtype=np.float64)
    with np.errstate(invalid="ignore", divide="ignore"):
        value = total / total_weight if reduction == 1 else total
    return out(np.asarray(value).astype(dt), self), out(np.asarray(total_weight).astype(dt), self)


def _nll_unweighted(x, t, reduction, ignore_index, self):
    """``_nll`` of the common call: (N, C) float32/float64 log-probabilities ``x`` (N > 0), int64
    targets ``t``, no class weights. When every target is a class (none out of bounds, none ignored)
    each weight is 1, so the loss is ``-picked * 1`` and the total weight N: ``_nll``'s values without
    its masks; else None. The picking is the Rust gather's (which checks the bounds)."""
    n, c = x.shape
    if 0 <= ignore_index < c:
        return None
    try:
        picked = _core._select_gather(x, 1, t.reshape(n, 1))
    except RuntimeError:  # a target out of bounds, or ignored: ``_nll`` sorts them out
        return None
    if picked is None:  # data the Rust gather does not take (or the fast paths off)
        return None
    loss = np.negative(picked.reshape(n))
    dt = x.dtype
    if reduction == 0:
        loss *= 1.0  # ``_nll``'s product by the weight, 1, which quiets a signalling nan (as the sum does)
        return out(loss, self), out(np.zeros((), dt), self)
    total = np.add.reduce(loss, None, np.float64)
    value = total / float(n) if reduction == 1 else total  # a nonzero count: no errstate to ask
    return out(np.asarray(value, dt), self), out(np.asarray(float(n), dt), self)


def nll_loss_forward(self, target, weight, reduction, ignore_index):
    x, t = self._data, target._data
    if weight is None and type(x) is np.ndarray and type(t) is np.ndarray and x.ndim == 2 and x.shape[0] \
            and t.shape == x.shape[:1] and x.dtype in _FLOATS and t.dtype == _I64:
        r = _nll_unweighted(x, t, reduction, ignore_index, self)  # the common call, which the checks pass
        if r is not None:
            return r
    if not self.dtype.is_floating_point:
        raise not_implemented("nll_loss_out_frame", self.dtype)
    x = self._data
    if x.ndim not in (1, 2):
        raise RuntimeError("input tensor should be 1D or 2D")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if x.ndim == 2 and (target.dim() != 1 or target.shape[0] != x.shape[0]) or x.ndim == 1 and target.dim() != 0 \
            and target.numel() != 1:
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)}, target: {list(target.shape)})")
    _target_dtype(target)
    w = _class_weights(weight, x.shape[-1], self)
    t = target._data.reshape(x.shape[:1] if x.ndim == 2 else ())
    return _nll(opmath(x), t, w, reduction, ignore_index, self, x.ndim - 1)


def nll_loss2d_forward(self, target, weight, reduction, ignore_index):
    if not self.dtype.is_floating_point:
        raise not_implemented("nll_loss2d_forward_out_frame", self.dtype)
    x = self._data
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got targets of dimension: "
                           f"{target.dim()}")
    if x.ndim != 4:
        raise RuntimeError(f"only batches of spatial inputs supported (4D tensors), but got input of dimension: "
                           f"{x.ndim}")
    if (x.shape[0],) + x.shape[2:] != tuple(target.shape):
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)} , target: {list(target.shape)}")
    _target_dtype(target)
    w = _class_weights(weight, x.shape[1], self)
    return _nll(opmath(x), target._data, w, reduction, ignore_index, self, 1)


# --- margin losses ----------------------------------------------------------------------------


def _non_empty_2d(x):
    if not (x.ndim <= 1 and x.size > 0 or x.ndim == 2 and x.shape[1] > 0):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(x.shape)}")


def multi_margin_loss(self, target, p=1, margin=1, weight=None, reduction=1):
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented("multi_margin_loss_cpu_kernel", self.dtype)
    x = self._data
    _non_empty_2d(x)
    n = x.shape[0] if x.ndim == 2 else 1
    dim = x.shape[-1] if x.ndim else 1
    if not (target.dim() <= 1 and target.numel() == n):
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to the number of input "
                           f"samples (batch size). Expected target size [{n}], but got {list(target.shape)}. Input "
                           f"has shape {list(x.shape)}.")
    if target.dtype is not D.int64:
        raise RuntimeError(f"expected scalar type Long but found {D.legacy_name(target.dtype)}")
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    if weight is not None and weight.numel() != dim:
        raise RuntimeError(f"inconsistent weight size, expected {dim} but got {list(weight.shape)}")
    t = target._data.reshape(n)
    if np.any((t < 0) | (t >= dim)):
        raise RuntimeError("target out of range")
    xs = opmath(x.reshape(n, dim))
    chosen = np.take_along_axis(xs, t[:, None], axis=1)
    z = np.maximum(margin - chosen + xs, 0)
    if p == 2:
        z = z * z
    if weight is not None:
        z = z * opmath(weight._data.reshape(-1))[t][:, None]
    z[np.arange(n), t] = 0
    loss = z.sum(axis=1) / dim
    if reduction == 0:
        return out(loss.reshape(x.shape[:-1]).astype(x.dtype), self)
    return _reduce(loss, reduction, out(np.empty(loss.shape, x.dtype), self))


def _multilabel_targets(target, x):
    """``(is_target, count)`` of each sample: the classes its row of ``target`` lists before the first
    negative entry, and how often each is listed (torch sums over the list, repeats included)."""
    t = target._data.reshape(-1, x.shape[-1] if x.ndim else 1)
    valid = np.cumprod(t >= 0, axis=1).astype(bool)
    if np.any(valid & (t >= t.shape[1])):
        raise RuntimeError("argument #2 'target' is out of range")
    count = np.zeros(t.shape, np.int64)
    rows, cols = np.nonzero(valid)
    np.add.at(count, (rows, t[rows, cols]), 1)
    return count > 0, count


def multilabel_margin_loss_forward(self, target, reduction):
    if self.dtype not in (D.float32, D.float64):
        raise not_implemented("multilabel_margin_loss_forward_out_frame", self.dtype)
    x = self._data
    _non_empty_2d(x)
    if tuple(target.shape) != tuple(x.shape) or (x.ndim == 0 and target.dim() != 0):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(x.shape)}")
    if target.dtype is not D.int64:
        raise RuntimeError(f"expected scalar type Long but found {D.legacy_name(target.dtype)}")
    dim = x.shape[-1] if x.ndim else 1
    xs = opmath(x.reshape(-1, dim))
    is_target, count = _multilabel_targets(target, x)
    # sum over the listed targets j and the classes k not listed of max(0, 1 - (x_j - x_k)), over dim
    margins = np.maximum(1 - (xs[:, :, None] - xs[:, None, :]), 0)
    pairs = count[:, :, None] * ~is_target[:, None, :]
    loss = (margins * pairs).sum(axis=(1, 2)) / dim
    mask = out(is_target.reshape(x.shape).astype(x.dtype), self)
    if reduction == 0:
        return out(loss.reshape(x.shape[:-1] if x.ndim == 2 else ()).astype(x.dtype), self), mask
    return _reduce(loss, reduction, out(np.empty(loss.shape, x.dtype), self)), mask


# --- compositions -----------------------------------------------------------------------------


def nll_loss(self, target, weight=None, reduction=1, ignore_index=-100):
    return A.nll_loss_forward(self, target, weight, reduction, ignore_index)[0]


def nll_loss2d(self, target, weight=None, reduction=1, ignore_index=-100):
    return A.nll_loss2d_forward(self, target, weight, reduction, ignore_index)[0]


def nll_loss_nd(self, target, weight=None, reduction=1, ignore_index=-100):
    """torch's ``nll_loss_nd``: 1-D/2-D inputs to ``nll_loss``, 4-D to ``nll_loss2d``, others
    folded to 4-D (N, C, 1, -1)."""
    if self.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {self.dim()})")
    if self.dim() != 1 and self.shape[0] != (target.shape[0] if target.dim() else 1):
        raise ValueError(f"Expected input batch_size ({self.shape[0]}) to match target batch_size "
                         f"({target.shape[0] if target.dim() else 1}).")
    if self.dim() in (1, 2):
        return A.nll_loss(self, target, weight, reduction, ignore_index)
    if self.dim() == 4:
        return A.nll_loss2d(self, target, weight, reduction, ignore_index)
    n, c = self.shape[0], self.shape[1]
    out_size = [n] + list(self.shape[2:])
    if list(target.shape[1:]) != list(self.shape[2:]):
        raise RuntimeError(f"Expected target size {out_size}, got {list(target.shape)}")
    inp, tgt = A.contiguous(self), A.contiguous(target)
    inp = A.view(inp, [n, c, 1, -1] if inp.numel() else [n, c, 0, 0])
    tgt = A.view(tgt, [n, 1, -1] if tgt.numel() else [n, 0, 0])
    result = A.nll_loss2d(inp, tgt, weight, reduction, ignore_index)
    return result if reduction != 0 else A.view(result, out_size)


def _class_broadcast(weight, ndim, class_dim):
    """The class weights shaped to broadcast along ``class_dim`` of a ``ndim``-d input."""
    if ndim <= 1:
        return weight
    shape = [1] * ndim
    shape[class_dim] = weight.shape[0]
    return A.view(weight, shape)


def cross_entropy_loss(self, target, weight=None, reduction=1, ignore_index=-100, label_smoothing=0.0):
    """torch's ``cross_entropy_loss``: class probabilities when the target has the input's shape,
    else class indices (with label smoothing blended in)."""
    class_dim = 0 if self.dim() == 1 else 1
    if list(self.shape) == list(target.shape):
        if not target.dtype.is_floating_point:
            raise RuntimeError(f"Expected floating point type for target with class probabilities, got "
                               f"{D.legacy_name(target.dtype)}")
        if ignore_index >= 0:
            raise RuntimeError("ignore_index is not supported for floating point target")
        return _cross_entropy_probs(self, target, weight, reduction, label_smoothing, class_dim)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
        return _cross_entropy_smoothed(self, target, weight, reduction, ignore_index, label_smoothing, class_dim)
    return A.nll_loss_nd(A._log_softmax(self, class_dim, False), target, weight, reduction, ignore_index)


def _cross_entropy_probs(self, target, weight, reduction, label_smoothing, class_dim):
    n_classes = self.shape[class_dim]
    if weight is not None and (weight.dim() != 1 or weight.numel() != n_classes):
        raise RuntimeError(f"cross_entropy: weight tensor should be defined either for all {n_classes} classes or no "
                           f"classes but got weight tensor of shape: {list(weight.shape)}")
    logp = A._log_softmax(self, class_dim, False)
    if label_smoothing > 0.0:
        if label_smoothing > 1.0:
            raise RuntimeError(f"label_smoothing must be between 0.0 and 1.0. Got: {label_smoothing:g}")
        target = A.add__Scalar(A.mul__Scalar(target, 1 - label_smoothing), label_smoothing / n_classes)
    terms = A.mul__Tensor(logp, target)
    if weight is not None:
        terms = A.mul__Tensor(terms, _class_broadcast(weight, logp.dim(), class_dim))
    if reduction == 1:
        total = A.neg(A.sum(terms))
        if logp.numel() == 0:
            return A.fill_(total, math.nan)
        return A.div__Scalar(total, logp.numel() // n_classes)
    if reduction == 2:
        return A.neg(A.sum(terms))
    return A.neg(A.sum__dim_IntList(terms, [class_dim]))


def _cross_entropy_smoothed(self, target, weight, reduction, ignore_index, label_smoothing, class_dim):
    logp = A._log_softmax(self, class_dim, False)
    nll = A.nll_loss_nd(logp, target, weight, reduction, ignore_index)
    n_classes = logp.shape[class_dim]
    if weight is not None:
        smooth = A.neg(A.sum__dim_IntList(A.mul__Tensor(logp, _class_broadcast(weight, logp.dim(), class_dim)),
                                          [class_dim]))
    else:
        smooth = A.neg(A.sum__dim_IntList(logp, [class_dim]))
    ignore = A.eq__Scalar(target, ignore_index)
    smooth = A.masked_fill__Scalar(smooth, ignore, 0.0)
    if reduction == 1:
        if weight is not None:
            # the weights of the kept targets (index 0 stands in for the ignored ones, then masked)
            safe = A.masked_fill__Scalar(target, ignore, 0)
            picked = A.view(A.gather(weight, 0, A.reshape(safe, [-1])), list(safe.shape))
            ret = A.div__Tensor(A.sum(smooth), A.sum(A.masked_fill__Scalar(picked, ignore, 0)))
        else:
            ret = A.div__Tensor(A.sum(smooth), A.sum(A.logical_not(ignore)))
    elif reduction == 2:
        ret = A.sum(smooth)
    else:
        ret = smooth
    return A.add__Tensor(A.mul__Scalar(nll, 1 - label_smoothing), A.mul__Scalar(ret, label_smoothing / n_classes))


def kl_div(self, target, reduction=1, *, log_target=False):
    if not (self.dtype.is_floating_point or self.dtype.is_complex) or \
            not (target.dtype.is_floating_point or target.dtype.is_complex):
        raise RuntimeError("kl_div: Integral inputs not supported.")
    if log_target:
        loss = A.mul__Tensor(A.exp(target), A.sub__Tensor(target, self))
    else:
        loss = A.sub__Tensor(A.xlogy__Tensor(target, target), A.mul__Tensor(target, self))
    return apply_reduction(loss, reduction)


def l1_loss(self, target, reduction=1):
    return apply_reduction(A.abs(A.sub__Tensor(self, target)), reduction)


def poisson_nll_loss(input, target, log_input, full, eps, reduction):
    if log_input:
        loss = A.sub__Tensor(A.exp(input), A.mul__Tensor(target, input))
    else:
        loss = A.sub__Tensor(input, A.mul__Tensor(target, A.log(A.add__Scalar(input, eps))))
    if full:
        stirling = A.add__Tensor(A.sub__Tensor(A.mul__Tensor(target, A.log(target)), target),
                                 A.mul__Scalar(A.log(A.mul__Scalar(target, 2 * math.pi)), 0.5))
        loss = A.add__Tensor(loss, A.masked_fill__Scalar(stirling, A.le__Scalar(target, 1), 0))
    return apply_reduction(loss, reduction)


def hinge_embedding_loss(self, target, margin=1.0, reduction=1):
    zeros = A.zeros_like(self)
    margin_clamp = A.clamp_min(A.rsub__Scalar(self, margin), 0)
    output_margin = A.where__self(A.ne__Scalar(target, 1), margin_clamp, zeros)
    output_self = A.where__self(A.ne__Scalar(target, -1), self, zeros)
    return apply_reduction(A.add__Tensor(output_margin, output_self), reduction)


def margin_ranking_loss(input1, input2, target, margin=0.0, reduction=1):
    diff = A.sub__Tensor(input1, input2)
    output = A.clamp_min(A.add__Scalar(A.mul__Tensor(A.neg(target), diff), margin), 0)
    return apply_reduction(output, reduction)


# torch's EPSILON of cosine_embedding_loss: 1e-12 as a float.
_COS_EPS = float(np.float32(1e-12))


def cosine_embedding_loss(input1, input2, target, margin=0.0, reduction=1):
    targ_dim = target.dim()
    if targ_dim not in (0, 1):
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if targ_dim == 1 and not (input1.dim() == 2 and input2.dim() == 2):
        raise RuntimeError(f"1D target tensor expects 2D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    if targ_dim == 0 and not (input1.dim() == 1 and input2.dim() == 1):
        raise RuntimeError(f"0D target tensor expects 1D input tensors, but found inputs with sizes "
                           f"{list(input1.shape)} and {list(input2.shape)}.")
    prod_sum = A.sum__dim_IntList(A.mul__Tensor(input1, input2), [targ_dim])
    mag1 = A.add__Scalar(A.sum__dim_IntList(A.mul__Tensor(input1, input1), [targ_dim]), _COS_EPS)
    mag2 = A.add__Scalar(A.sum__dim_IntList(A.mul__Tensor(input2, input2), [targ_dim]), _COS_EPS)
    cos = A.div__Tensor(prod_sum, A.sqrt(A.mul__Tensor(mag1, mag2)))
    zeros = A.zeros_like(cos)
    pos = A.rsub__Scalar(cos, 1)
    neg = A.clamp_min(A.sub__Scalar(cos, margin), 0)
    output = A.add__Tensor(A.where__self(A.eq__Scalar(target, 1), pos, zeros),
                           A.where__self(A.eq__Scalar(target, -1), neg, zeros))
    return apply_reduction(output, reduction)


def multilabel_margin_loss(self, target, reduction=1):
    return A.multilabel_margin_loss_forward(self, target, reduction)[0]


def pairwise_distance(x1, x2, p=2.0, eps=1e-06, keepdim=False):
    """``norm(x1 - x2 + eps, p)`` over the last dimension."""
    output_dim = max(x1.dim(), x2.dim())
    return A.norm__ScalarOpt_dim(A.add__Scalar(A.sub__Tensor(x1, x2), eps), p, [output_dim - 1], keepdim)


def triplet_margin_loss(anchor, positive, negative, margin=1.0, p=2.0, eps=1e-06, swap=False, reduction=1):
    dims = (anchor.dim(), positive.dim(), negative.dim())
    if not dims[0] == dims[1] == dims[2]:
        raise RuntimeError(f"The anchor, positive, and negative tensors are expected to have the same number of "
                           f"dimensions, but got: anchor {dims[0]}D, positive {dims[1]}D, and negative {dims[2]}D "
                           "inputs")
    dist_pos = A.pairwise_distance(anchor, positive, p, eps)
    dist_neg = A.pairwise_distance(anchor, negative, p, eps)
    if swap:
        dist_neg = A.minimum(dist_neg, A.pairwise_distance(positive, negative, p, eps))
    output = A.clamp_min(A.sub__Tensor(A.add__Scalar(dist_pos, margin), dist_neg), 0)
    return apply_reduction(output, reduction)


KERNELS = {
    "binary_cross_entropy": binary_cross_entropy,
    "binary_cross_entropy_with_logits": binary_cross_entropy_with_logits,
    "nll_loss_forward": nll_loss_forward, "nll_loss2d_forward": nll_loss2d_forward,
    "smooth_l1_loss": smooth_l1_loss, "mse_loss": mse_loss, "huber_loss": huber_loss, "soft_margin_loss": soft_margin_loss,
    "multi_margin_loss": multi_margin_loss, "multilabel_margin_loss_forward": multilabel_margin_loss_forward,
}
COMPOSITE = {
    "nll_loss": nll_loss, "nll_loss2d": nll_loss2d, "nll_loss_nd": nll_loss_nd,
    "cross_entropy_loss": cross_entropy_loss, "kl_div": kl_div, "l1_loss": l1_loss,
    "poisson_nll_loss": poisson_nll_loss, "hinge_embedding_loss": hinge_embedding_loss,
    "margin_ranking_loss": margin_ranking_loss, "cosine_embedding_loss": cosine_embedding_loss,
    "multilabel_margin_loss": multilabel_margin_loss, "pairwise_distance": pairwise_distance,
    "triplet_margin_loss": triplet_margin_loss,
}
