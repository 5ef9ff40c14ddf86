"""Attention and softmax internals as torch structures them on CPU. Kernels (numpy):
``_safe_softmax`` (rows that are all -inf give zeros), ``_softmax_backward_data``,
``_log_softmax_backward_data``, ``_scaled_dot_product_flash_attention_for_cpu`` and its
backward. Compositions: ``scaled_dot_product_attention`` (the fused kernel when torch's CPU
dispatch picks it: no dropout, 4-d inputs after a 3-d input gets a batch of one, equal head sizes,
non-empty sequences, unit last strides; else the math path) and
``_scaled_dot_product_attention_math``. Derivatives: ``autograd/derivatives/attention.py``."""

import math

import numpy as np

from .. import _dtype as D
from .common import A, _wrap_dim, out
from .nn_common import opmath

__all__ = ["COMPOSITE", "KERNELS", "SCHEMAS"]

SCHEMAS = (
    "_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
    "_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor",
    "_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) -> Tensor",
    "_scaled_dot_product_flash_attention_for_cpu(Tensor query, Tensor key, Tensor value, float dropout_p=0.0, bool is_causal=False, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor output, Tensor logsumexp)",
    "_scaled_dot_product_flash_attention_for_cpu_backward(Tensor grad_out, Tensor query, Tensor key, Tensor value, Tensor out, Tensor logsumexp, float dropout_p, bool is_causal, *, Tensor? attn_mask=None, float? scale=None) -> (Tensor grad_query, Tensor grad_key, Tensor grad_value)",
    "_scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, Tensor? dropout_mask=None, *, float? scale=None, bool enable_gqa=False) -> (Tensor, Tensor)",
)
# ``scaled_dot_product_attention``'s schema is in schemas.py; its kernel is here.


# --- softmax internals ------------------------------------------------------------------------


def _softmax_rows(x, axis):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    e = np.exp(x - m)
    return e / e.sum(axis=axis, keepdims=True)


def safe_softmax(self, dim, dtype=None):
    x = self._data if dtype is None else self._data.astype(dtype.np)
    dt = D.FROM_NP[x.dtype]
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f"\"softmax_lastdim_kernel_impl\" not implemented for '{D.legacy_name(dt)}'")
    if x.ndim == 0:
        return out(np.ones_like(x), self)
    axis = _wrap_dim(dim, x.ndim)
    if x.size == 0:
        return out(x.copy(), self)
    w = opmath(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = _softmax_rows(w, axis)
    masked = np.all(w == -np.inf, axis=axis, keepdims=True)
    return out(np.where(masked, 0, r).astype(x.dtype), self)


def _backward_dtypes(grad_output, output):
    if output.dtype is not grad_output.dtype:
        raise RuntimeError(f"expected scalar type {D.legacy_name(grad_output.dtype)} but found "
                           f"{D.legacy_name(output.dtype)}")


def softmax_backward_data(grad_output, output, dim, input_dtype):
    """``output * (grad - sum(grad * output, dim))``."""
    _backward_dtypes(grad_output, output)
    g, y = opmath(grad_output._data), opmath(output._data)
    if g.ndim == 0:
        return out(np.zeros_like(grad_output._data), grad_output)
    axis = _wrap_dim(dim, g.ndim)
    r = y * (g - (g * y).sum(axis=axis, keepdims=True))
    return out(r.astype(grad_output._data.dtype), grad_output)


def log_softmax_backward_data(grad_output, output, dim, input_dtype):
    """``grad - exp(output) * sum(grad, dim)``."""
    _backward_dtypes(grad_output, output)
    g, y = opmath(grad_output._data), opmath(output._data)
    if g.ndim == 0:
        return out(np.zeros_like(grad_output._data), grad_output)
    axis = _wrap_dim(dim, g.ndim)
    r = g - np.exp(y) * g.sum(axis=axis, keepdims=True)
    return out(r.astype(grad_output._data.dtype), grad_output)


# --- fused attention --------------------------------------------------------------------------

_FLASH = "scaled_dot_product_attention_flash_attention"
_FLASH_DTYPES = (D.float32, D.float64, D.bfloat16, D.float16)


def _flash_checks(query, key, value, dropout_p, attn_mask):
    if query.dtype not in _FLASH_DTYPES:
        raise RuntimeError(f"{_FLASH}: Expected data type in FP32, FP64, BF16, FP16, but got "
                           f"{D.legacy_name(query.dtype)} instead.")
    for t in (key, value):
        if t.dtype is not query.dtype:
            raise RuntimeError(f"expected scalar type {D.legacy_name(query.dtype)} but found {D.legacy_name(t.dtype)}")
    if not (query.dim() == key.dim() == value.dim() == 4):
        raise RuntimeError(f"{_FLASH}: Accept only 4 dims inputs shape of {{B, H, T, K}}")
    if dropout_p > 0.0:
        raise RuntimeError(f"{_FLASH}: Currently do not support dropout > 0")
    if not query.shape[3] == key.shape[3] == value.shape[3]:
        raise RuntimeError(f"{_FLASH}: Q/K/V should have the same head size")
    if attn_mask is not None and attn_mask.dtype is not query.dtype:
        raise RuntimeError(f"{_FLASH}: Attention mask is the same data type as query")


def _t(a):
    """The last two dims swapped, as a contiguous array (numpy's stacked matmul is fast on those)."""
    return np.ascontiguousarray(np.swapaxes(a, -1, -2))


def _flash_scores(query, key, is_causal, attn_mask, scale):
    """``(scores, factor)``: the (B, H, L, S) scores ``q k^T * scale`` in the compute dtype with the
    mask added and the causal (top-left) positions at -inf; key heads are shared by groups of
    query heads (grouped-query attention)."""
    q, k = opmath(query._data), opmath(key._data)
    heads = q.shape[1]
    if k.shape[1] != heads:
        k = np.repeat(k, heads // k.shape[1], axis=1)
    factor = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    s = np.matmul(np.ascontiguousarray(q), _t(k))
    s *= factor
    if attn_mask is not None:
        s = s + opmath(attn_mask._data)
    if is_causal:
        L, S = s.shape[-2], s.shape[-1]
        s += np.where(np.tril(np.ones((L, S), bool)), 0, -np.inf).astype(s.dtype)
    return s, factor


def _expand_heads(v, heads):
    return np.repeat(v, heads // v.shape[1], axis=1) if v.shape[1] != heads else v


def flash_attention_for_cpu(query, key, value, dropout_p=0.0, is_causal=False, *, attn_mask=None, scale=None):
    """``(softmax(q k^T * scale + mask) v, logsumexp of the scores)``; a row with every score at
    -inf gives zeros (and a logsumexp of 0), as torch's kernel."""
    _flash_checks(query, key, value, dropout_p, attn_mask)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        s, _ = _flash_scores(query, key, is_causal, attn_mask, scale)
        v = _expand_heads(opmath(value._data), s.shape[1])
        m = np.max(s, axis=-1, keepdims=True) if s.shape[-1] else np.full(s.shape[:-1] + (1,), -np.inf, s.dtype)
        dead = ~np.isfinite(m)
        if dead.any():
            m[dead] = 0
        s -= m
        np.exp(s, out=s)  # the probabilities, unnormalized, in place
        total = s.sum(axis=-1, keepdims=True)
        if dead.any():
            total[dead] = 1
        s /= total
        o = np.matmul(s, np.ascontiguousarray(v))
        lse = (np.log(total) + m)[..., 0]
        if dead.any():
            lse[dead[..., 0]] = 0
            o[np.broadcast_to(dead, o.shape[:-1] + (1,))[..., 0]] = 0
    dt = query._data.dtype
    lse_dt = np.float64 if dt == np.float64 else np.float32
    # torch lays the logsumexp out as (B, L, H) and returns its (B, H, L) view.
    lse_out = np.ascontiguousarray(np.swapaxes(lse.astype(lse_dt), 1, 2)).swapaxes(1, 2)
    return out(o.astype(dt), query), out(lse_out, query)


def flash_attention_for_cpu_backward(grad_out, query, key, value, out_, logsumexp, dropout_p, is_causal, *,
                                     attn_mask=None, scale=None):
    """The gradients of q, k, v from the softmax probabilities the logsumexp gives back:
    ``dV = P^T dO``, ``dS = P * (dO V^T - rowsum(dO * O))``, ``dQ = dS K * scale``, ``dK = dS^T Q * scale``
    (summed over the query heads that share a key head)."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        s, factor = _flash_scores(query, key, is_causal, attn_mask, scale)
        lse = opmath(logsumexp._data).astype(s.dtype)[..., None]
        s -= lse
        np.exp(s, out=s)  # the probabilities P (exp(-inf) = 0 where masked)
        p = s
        g = np.ascontiguousarray(opmath(grad_out._data))
        o = opmath(out_._data)
        q, k = np.ascontiguousarray(opmath(query._data)), opmath(key._data)
        groups = q.shape[1] // k.shape[1]
        kr, vr = _expand_heads(k, q.shape[1]), _expand_heads(opmath(value._data), q.shape[1])
        dv = np.matmul(_t(p), g)
        dp = np.matmul(g, _t(vr))
        dp -= (g * o).sum(axis=-1, keepdims=True)
        dp *= p  # dS
        dq = np.matmul(dp, np.ascontiguousarray(kr)) * factor
        dk = np.matmul(_t(dp), q) * factor
    if groups > 1:
        shape = dk.shape
        dk = dk.reshape(shape[0], shape[1] // groups, groups, *shape[2:]).sum(axis=2)
        dv = dv.reshape(shape[0], shape[1] // groups, groups, *dv.shape[2:]).sum(axis=2)
    dt = query._data.dtype
    return out(dq.astype(dt), query), out(dk.astype(dt), key), out(dv.astype(dt), value)


# --- compositions -----------------------------------------------------------------------------


def _bool_mask_to_float(mask, dtype):
    """torch's ``convert_boolean_attn_mask``: True keeps a position (0), False masks it (-inf)."""
    if mask is None or mask.dtype is not D.bool:
        return mask
    return A.where__self(A.logical_not(mask), A.full([], -math.inf, dtype=dtype, device=mask.device),
                         A.full([], 0.0, dtype=dtype, device=mask.device))


def _gqa(query, key, value, enable_gqa):
    if not enable_gqa or query.dim() < 3 or query.shape[-3] == key.shape[-3]:
        return key, value
    groups = query.shape[-3] // key.shape[-3]
    return _repeat_heads(key, groups), _repeat_heads(value, groups)


def _repeat_heads(t, groups):
    """``t.repeat_interleave(groups, -3)`` as torch decomposes it: each head repeated in place."""
    shape = list(t.shape)
    expanded = shape[:-2] + [groups] + shape[-2:]
    grown = A.expand(A.unsqueeze(t, -3), expanded)
    return A.reshape(grown, shape[:-3] + [shape[-3] * groups] + shape[-2:])  # a copy: torch's clone + view


def attention_math(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, dropout_mask=None, *,
                   scale=None, enable_gqa=False):
    """torch's ``_scaled_dot_product_attention_math``: float16/bfloat16 in float32, q and k each
    scaled by sqrt(scale), the causal mask top-left aligned, ``_safe_softmax``, dropout."""
    origin = query.dtype
    if origin in (D.float16, D.bfloat16):
        query, key, value = (A._to_copy(t, dtype=D.float32) for t in (query, key, value))
    negative = scale is not None and scale < 0
    base = 1.0 / math.sqrt(query.shape[-1]) if scale is None else abs(scale)
    factor = math.sqrt(base)
    q = A.mul__Scalar(query, -factor if negative else factor)
    mask = attn_mask
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
        L, S = query.shape[-2], key.shape[-2]
        mask = _bool_mask_to_float(A.tril(A.ones([L, S], dtype=D.bool, device=query.device)), q.dtype)
    key, value = _gqa(q, key, value, enable_gqa)
    attn = A.matmul(q, A.mul__Scalar(A.transpose__int(key, -2, -1), factor))
    if mask is not None:
        attn = A.add__Tensor(attn, mask)
    attn = A._safe_softmax(attn, -1)
    if dropout_p > 0.0:
        if dropout_mask is not None:
            attn = A.masked_fill__Scalar(attn, A.logical_not(dropout_mask), 0.0)
            output = A.matmul(attn, A.mul__Scalar(value, 1.0 / (1 - dropout_p)))
            return A._to_copy(output, dtype=origin), A._to_copy(attn, dtype=origin)
        attn = A.dropout(attn, dropout_p, True)
    return A._to_copy(A.matmul(attn, value), dtype=origin), A._to_copy(attn, dtype=origin)


def _sdpa_checks(query, key, value, attn_mask):
    if not (query.dtype is key.dtype is value.dtype):
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got query.dtype: "
                           f"{query.dtype} key.dtype: {key.dtype} and value.dtype: {value.dtype} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: "
                           f"{query.dim()} key.dim: {key.dim()} and value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask.dtype is not D.bool and attn_mask.dtype is not query.dtype:
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query dtype, but got "
                           f"attn_mask.dtype: {attn_mask.dtype} and  query.dtype: {query.dtype} instead.")


def _flash_applies(query, key, value, attn_mask, dropout_p):
    """torch's CPU gates of the fused kernel (``use_flash_attention_cpp``)."""
    if dropout_p != 0.0 or not (query.dim() == key.dim() == value.dim() == 4):
        return False
    if query.dtype not in _FLASH_DTYPES:
        return False
    if not query.shape[-1] == key.shape[-1] == value.shape[-1]:
        return False
    if query.shape[-2] == 0 or key.shape[-2] == 0:
        return False
    if query.shape[0] != key.shape[0] or key.shape[0] != value.shape[0]:
        return False
    if query.shape[1] % key.shape[1] or key.shape[1] != value.shape[1]:
        return False
    if attn_mask is not None and attn_mask.dim() not in (2, 4):
        return False
    return all(t.stride()[-1] == 1 or t.shape[-1] == 1 for t in (query, key, value))


def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None,
                                 enable_gqa=False):
    _sdpa_checks(query, key, value, attn_mask)
    batched = query.dim() == 3 and key.dim() == 3 and value.dim() == 3
    if batched:  # torch gives 3-d inputs a batch of one
        query, key, value = (A.unsqueeze(t, 0) for t in (query, key, value))
    if is_causal and attn_mask is not None:
        raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not be set when is_causal=True")
    if _flash_applies(query, key, value, attn_mask, dropout_p) and (enable_gqa or query.shape[1] == key.shape[1]):
        mask = _bool_mask_to_float(attn_mask, query.dtype)
        result = A._scaled_dot_product_flash_attention_for_cpu(query, key, value, dropout_p, is_causal, attn_mask=mask,
                                                               scale=scale)[0]
    else:
        mask = _bool_mask_to_float(attn_mask, query.dtype)
        result = A._scaled_dot_product_attention_math(query, key, value, mask, dropout_p, is_causal, None,
                                                      scale=scale, enable_gqa=enable_gqa)[0]
    return A.squeeze__dim(result, 0) if batched else result


KERNELS = {
    "_safe_softmax": safe_softmax, "_softmax_backward_data": softmax_backward_data,
    "_log_softmax_backward_data": log_softmax_backward_data,
    "_scaled_dot_product_flash_attention_for_cpu": flash_attention_for_cpu,
    "_scaled_dot_product_flash_attention_for_cpu_backward": flash_attention_for_cpu_backward,
}
COMPOSITE = {
    "scaled_dot_product_attention": scaled_dot_product_attention, "_scaled_dot_product_attention_math": attention_math,
}
