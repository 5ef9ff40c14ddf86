"""Derivatives of the normalization kernels (derivatives.yaml rows: native_batch_norm and its
``_native_batch_norm_legit`` / ``_batch_norm_with_update`` / ``_batch_norm_no_update`` forms,
native_group_norm, native_layer_norm).

The statistics are recomputed from the saved input with differentiable ops, so a backward run
with ``create_graph=True`` differentiates them too (torch's ``batchnorm_double_backward``).
float16/bfloat16 data is differentiated in float32 and each gradient rounded to its input's
dtype, as torch's backward kernels compute."""

from ... import _dtype as D
from .. import _tensor_meta as meta
from .. import forward_ad as fwAD
from ..._aten.norm_ops import layer_norm_stats
from ..._keys import DispatchKey, DispatchKeySet
from ..grad_mode import is_grad_enabled
from ._helpers import A
from .registry import Formula as F
from ..._exports import public_dir

_REDUCED = (D.float16, D.bfloat16)


def _wide(t):
    """``t`` in float32 when it is float16/bfloat16 (the compute dtype), else itself."""
    if t is not None and meta.dtype(t) in _REDUCED:
        return A._to_copy.default(t, dtype=D.float32)
    return t


def _as(t, like):
    """``t`` in ``like``'s dtype (the gradient of an input has the input's dtype)."""
    if t is None or meta.dtype(t) == meta.dtype(like):
        return t
    return A._to_copy.default(t, dtype=meta.dtype(like))


def _stats(x, dims, eps):
    """``(x - mean, rstd)`` over ``dims`` (kept), from differentiable ops."""
    xc = A.sub.Tensor(x, A.mean.dim(x, dims, True))
    var = A.mean.dim(A.mul.Tensor(xc, xc), dims, True)
    return xc, A.rsqrt.default(A.add.Scalar(var, eps))


def _normalized_grad(gy, xhat, rstd, dims):
    """The input gradient through ``xhat = (x - mean(x)) * rstd`` over ``dims``:
    ``rstd * (gy - mean(gy) - xhat * mean(gy * xhat))``."""
    centered = A.sub.Tensor(gy, A.mean.dim(gy, dims, True))
    proj = A.mul.Tensor(xhat, A.mean.dim(A.mul.Tensor(gy, xhat), dims, True))
    return A.mul.Tensor(rstd, A.sub.Tensor(centered, proj))


def _normalized_jvp(xhat, rstd, tx, dims):
    """The tangent of ``xhat = (x - mean) * rstd`` over ``dims``:
    ``rstd * (tx - mean(tx) - xhat * mean(xhat * tx))``."""
    return _normalized_grad(tx, xhat, rstd, dims)


def _affine_jvp(dxhat, xhat, t_w, t_b, w, shape):
    """``dy = dxhat * w + xhat * dw + db`` with the per-channel parameters viewed as ``shape``."""
    dy = dxhat if w is None else A.mul.Tensor(dxhat, _view(_wide(w), shape))
    if t_w is not None:
        dy = A.add.Tensor(dy, A.mul.Tensor(xhat, _view(_wide(t_w), shape)))
    if t_b is not None:
        dy = A.add.Tensor(dy, _view(_wide(t_b), shape))
    return dy


def _view(t, shape):
    return A.view.default(t, shape) if shape is not None else t


# --- batch norm ------------------------------------------------------------------------------


def _batch_norm_backward(grads, a, n, training, running_mean=None, running_var=None):
    g = grads[0]
    if g is None:
        return (None,) * len(n)
    x, w = _wide(a.input), a.weight
    nd = len(meta.shape(x))
    channels = meta.shape(x)[1] if nd > 1 else 0
    dims = [0] + list(range(2, nd))
    shape = [1, channels] + [1] * (nd - 2)
    gw32 = _wide(g)
    if training:
        xc, rstd = _stats(x, dims, a.eps)
    else:
        mean = A.view.default(_wide(running_mean), shape)
        var = A.view.default(_wide(running_var), shape)
        xc, rstd = A.sub.Tensor(x, mean), A.rsqrt.default(A.add.Scalar(var, a.eps))
    xhat = A.mul.Tensor(xc, rstd)
    gx = gw = gb = None
    if n[0]:
        gy = gw32 if w is None else A.mul.Tensor(gw32, A.view.default(_wide(w), shape))
        gx = _as(_normalized_grad(gy, xhat, rstd, dims) if training else A.mul.Tensor(gy, rstd), a.input)
    if len(n) > 1 and n[1]:
        gw = _as(A.sum.dim_IntList(A.mul.Tensor(gw32, xhat), dims, False), w)
    if len(n) > 2 and n[2]:
        gb = _as(A.sum.dim_IntList(gw32, dims, False), a.bias)
    return (gx, gw, gb)


def _batch_norm_jvp(t, a, training, running_mean=None, running_var=None, outputs=3):
    x = _wide(a.input)
    nd = len(meta.shape(x))
    channels = meta.shape(x)[1] if nd > 1 else 0
    dims = [0] + list(range(2, nd))
    shape = [1, channels] + [1] * (nd - 2)
    if training:
        xc, rstd = _stats(x, dims, a.eps)
    else:
        xc = A.sub.Tensor(x, A.view.default(_wide(running_mean), shape))
        rstd = A.rsqrt.default(A.add.Scalar(A.view.default(_wide(running_var), shape), a.eps))
    xhat = A.mul.Tensor(xc, rstd)
    tx = A.zeros_like.default(x) if t[0] is None else _wide(t[0])
    dxhat = _normalized_jvp(xhat, rstd, tx, dims) if training else A.mul.Tensor(tx, rstd)
    dy = _as(_affine_jvp(dxhat, xhat, t[1], t[2], a.weight, shape), a.input)
    return (dy,) + (None,) * (outputs - 1)


def _native_batch_norm(grads, a, n):
    return _batch_norm_backward(grads, a, n, a.training, a.running_mean, a.running_var)


def _no_stats(grads, a, n):
    return _batch_norm_backward(grads, a, n, True)


def _no_training(grads, a, n):
    return _batch_norm_backward(grads, a, n, False, a.running_mean, a.running_var)


def _with_update(grads, a, n):
    return _batch_norm_backward(grads, a, n, True)


def _no_update(grads, a, n):
    # Without running statistics the batch's own are used (torch's eval-mode fallback raises first).
    return _batch_norm_backward(grads, a, n, a.running_mean is None, a.running_mean, a.running_var)


_BN = ("input", "weight", "bias")
_OUT1 = (True, False, False)


def _bn_forward(kind):
    def forward(t, a):
        if kind == "native":
            return _batch_norm_jvp(t, a, a.training, a.running_mean, a.running_var)
        if kind == "no_stats":
            return _batch_norm_jvp(t, a, True)
        if kind == "no_training":
            return _batch_norm_jvp(t, a, False, a.running_mean, a.running_var)
        if kind == "with_update":
            return _batch_norm_jvp(t, a, True, outputs=4)
        return _batch_norm_jvp(t, a, a.running_mean is None, a.running_mean, a.running_var, outputs=4)
    return forward


# --- group norm ------------------------------------------------------------------------------


def _group_norm(grads, a, n):
    """Gradients of ``(y, mean, rstd)``: the mean and rstd outputs are differentiable in torch."""
    gy, gmean, grstd = grads
    x = _wide(a.input)
    N, C, group = int(a.N), int(a.C), a.group
    count = (C // group) * int(a.HxW)
    xg = A.reshape.default(x, [N, group, count])
    xc, rstd = _stats(xg, [2], a.eps)
    xhat = A.mul.Tensor(xc, rstd)
    per_channel = [N, C, int(a.HxW)]
    gx = gw = gb = None
    if gy is not None:
        g = A.reshape.default(_wide(gy), per_channel)
        if n[1]:
            gw = A.sum.dim_IntList(A.mul.Tensor(g, A.reshape.default(xhat, per_channel)), [0, 2], False)
            gw = _as(gw, a.weight)
        if n[2]:
            gb = _as(A.sum.dim_IntList(g, [0, 2], False), a.bias)
        if n[0]:
            if a.weight is not None:
                g = A.mul.Tensor(g, A.view.default(_wide(a.weight), [1, C, 1]))
            gx = _normalized_grad(A.reshape.default(g, [N, group, count]), xhat, rstd, [2])
    if n[0] and gmean is not None:
        part = A.div.Scalar(A.unsqueeze.default(_wide(gmean), 2), count)
        gx = part if gx is None else A.add.Tensor(gx, part)
    if n[0] and grstd is not None and count:
        # d rstd / dx = -rstd^3 (x - mean) / count
        scale = A.mul.Scalar(A.pow.Tensor_Scalar(rstd, 3), -1.0 / count)
        part = A.mul.Tensor(A.mul.Tensor(A.unsqueeze.default(_wide(grstd), 2), scale), xc)
        gx = part if gx is None else A.add.Tensor(gx, part)
    if gx is not None:
        gx = _as(A.reshape.default(A.expand.default(gx, meta.shape(xg)), list(meta.shape(a.input))), a.input)
    return (gx, gw, gb)


def _group_norm_jvp(t, a):
    """Tangents of ``(y, mean, rstd)``: ``dmean = mean(dx)``, ``drstd = -rstd^2 * mean(xhat * dx)``."""
    x = _wide(a.input)
    N, C, group = int(a.N), int(a.C), a.group
    count = (C // group) * int(a.HxW)
    xg = A.reshape.default(x, [N, group, count])
    xc, rstd = _stats(xg, [2], a.eps)
    xhat = A.mul.Tensor(xc, rstd)
    tx = A.reshape.default(A.zeros_like.default(x) if t[0] is None else _wide(t[0]), [N, group, count])
    dxhat = A.reshape.default(_normalized_jvp(xhat, rstd, tx, [2]), [N, C, int(a.HxW)])
    dy = _affine_jvp(dxhat, A.reshape.default(xhat, [N, C, int(a.HxW)]), t[1], t[2], a.weight, [1, C, 1])
    dy = _as(A.reshape.default(dy, list(meta.shape(a.input))), a.input)
    dmean = A.mean.dim(tx, [2], False)
    drstd = A.neg.default(A.mul.Tensor(A.mul.Tensor(A.squeeze.dim(rstd, 2), A.squeeze.dim(rstd, 2)),
                                       A.mean.dim(A.mul.Tensor(xhat, tx), [2], False)))
    return dy, _as(dmean, a.result[1]), _as(drstd, a.result[2])


# --- layer norm ------------------------------------------------------------------------------


# The key bits of a plain CPU tensor, with or without autograd: the tensors the fused backward op
# takes here. Others (vmap's batched tensors, subclasses, other devices) keep the composition, which
# their rules and kernels already handle.
_PLAIN_CPU = DispatchKeySet([DispatchKey.CPU, DispatchKey.AutogradCPU, DispatchKey.ADInplaceOrView]).raw()


def _plain_cpu(t):
    """Whether ``t`` is absent or a plain CPU tensor without a forward-mode tangent."""
    return t is None or (not t._keyset & ~_PLAIN_CPU and fwAD.get_tangent(t) is None)


def _layer_norm(grads, a, n):
    """NativeLayerNormBackward0 as torch's: the ``native_layer_norm_backward`` kernel (fused, in Rust) on
    the forward's saved statistics (``result1``/``result2``, as torch saves them: not ``y``, which the
    caller may change in place), or with grad mode on (``create_graph=True``), a tangent on its inputs
    (forward mode over this backward) or inputs that are not plain CPU tensors (vmap's batched
    tensors) the composition below, which is differentiable (``native_layer_norm_backward`` has no
    derivative here)."""
    g = grads[0]
    if g is None:
        return (None, None, None)
    if not is_grad_enabled() and all(_plain_cpu(t) for t in (g, a.input, a.weight)):
        # The forward's statistics, saved as torch saves them (result1, result2); where they were not
        # (a graph recorded otherwise), the statistics pass alone, bit for bit the forward's.
        saved = a.result if isinstance(a.result, (list, tuple)) else None
        if saved is not None and len(saved) == 3 and saved[1] is not None and saved[2] is not None:
            mean, rstd = saved[1], saved[2]
        else:
            stats = layer_norm_stats(a.input, a.normalized_shape, a.eps)
            if stats is None:
                _, mean, rstd = A.native_layer_norm.default(a.input, a.normalized_shape, None, None, a.eps)
            else:
                mean, rstd = stats
        mask = [bool(n[0]), bool(n[1]) and a.weight is not None, bool(n[2]) and a.bias is not None]
        return A.native_layer_norm_backward.default(g, a.input, a.normalized_shape, mean, rstd, a.weight,
                                                    a.bias, mask)
    x = _wide(a.input)
    nd = len(meta.shape(x))
    axis = nd - len(a.normalized_shape)
    dims = list(range(axis, nd))
    lead = list(range(axis))
    xc, rstd = _stats(x, dims, a.eps)
    xhat = A.mul.Tensor(xc, rstd)
    g32 = _wide(g)
    gx = gw = gb = None
    if n[1]:
        gw = _as(A.sum.dim_IntList(A.mul.Tensor(g32, xhat), lead, False) if lead else A.mul.Tensor(g32, xhat),
                 a.weight)
    if n[2]:
        gb = _as(A.sum.dim_IntList(g32, lead, False) if lead else g32, a.bias)
    if n[0]:
        gy = g32 if a.weight is None else A.mul.Tensor(g32, _wide(a.weight))
        gx = _as(_normalized_grad(gy, xhat, rstd, dims), a.input)
    return (gx, gw, gb)


def _layer_norm_jvp(t, a):
    x = _wide(a.input)
    nd = len(meta.shape(x))
    dims = list(range(nd - len(a.normalized_shape), nd))
    xc, rstd = _stats(x, dims, a.eps)
    xhat = A.mul.Tensor(xc, rstd)
    tx = A.zeros_like.default(x) if t[0] is None else _wide(t[0])
    dy = _affine_jvp(_normalized_jvp(xhat, rstd, tx, dims), xhat, t[1], t[2], a.weight, None)
    return (_as(dy, a.input), None, None)


# --- repeat (instance_norm repeats its parameters per example) ----------------------------------


def _repeat(grads, a, n):
    """Each input element's gradient is the sum over its copies: view the gradient as
    ``(r0, s0, r1, s1, ...)`` and sum the repeat axes."""
    g = grads[0]
    shape = list(meta.shape(a.self))
    repeats = [int(r) for r in a.repeats]
    shape = [1] * (len(repeats) - len(shape)) + shape
    if not all(repeats) or not all(shape):
        return (A.new_zeros.default(g, list(meta.shape(a.self))),)
    split = [d for pair in zip(repeats, shape) for d in pair]
    summed = A.sum.dim_IntList(A.reshape.default(g, split), list(range(0, len(split), 2)), False)
    return (A.reshape.default(summed, list(meta.shape(a.self))),)


FORMULAS = {
    "aten::repeat": F("RepeatBackward0", ("self",), _repeat,
                      forward=lambda t, a: A.repeat.default(t[0], a.repeats)),
    "aten::native_batch_norm": F("NativeBatchNormBackward0", _BN, _native_batch_norm,
                                 save=("input", "weight", "running_mean", "running_var"), outputs=_OUT1,
                                 forward=_bn_forward("native")),
    "aten::_native_batch_norm_legit": F("NativeBatchNormLegitBackward0", _BN, _native_batch_norm,
                                        save=("input", "weight", "running_mean", "running_var"), outputs=_OUT1,
                                        forward=_bn_forward("native")),
    "aten::_native_batch_norm_legit.no_stats": F("NativeBatchNormLegitBackward1", _BN, _no_stats,
                                                 save=("input", "weight"), outputs=_OUT1,
                                                 forward=_bn_forward("no_stats")),
    "aten::_native_batch_norm_legit_no_training": F(
        "NativeBatchNormLegitNoTrainingBackward0", _BN, _no_training,
        save=("input", "weight", "running_mean", "running_var"), outputs=_OUT1, forward=_bn_forward("no_training")),
    "aten::_batch_norm_with_update": F("BatchNormWithUpdateBackward0", _BN, _with_update, save=("input", "weight"),
                                       outputs=_OUT1 + (False,), forward=_bn_forward("with_update")),
    "aten::_batch_norm_no_update": F("BatchNormNoUpdateBackward0", _BN, _no_update,
                                     save=("input", "weight", "running_mean", "running_var"),
                                     outputs=_OUT1 + (False,), forward=_bn_forward("no_update")),
    "aten::native_group_norm": F("NativeGroupNormBackward0", _BN, _group_norm, save=("input", "weight"),
                                 forward=_group_norm_jvp),
    "aten::native_layer_norm": F("NativeLayerNormBackward0", _BN, _layer_norm,
                                 save=("input", "weight", "bias", "result"), saved_outputs=(1, 2),
                                 outputs=_OUT1, forward=_layer_norm_jvp),
}

__dir__ = public_dir(globals())
