"""``nn.functional.multi_head_attention_forward``: torch's multi-head attention in Python over
the built-in operators (input projections, optional key/value biases and zero attention, the
masks folded into one additive mask, scaled dot products per head, output projection)."""

import math
import warnings

from .. import _dtype as D
from .._ops import ops

__all__ = ["multi_head_attention_forward"]

_A = ops.aten


def _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads):
    """Whether the call is batched (3-d query), or torch's AssertionError for mismatched ranks."""
    if query.dim() == 3:
        if key.dim() != 3 or value.dim() != 3:
            raise AssertionError(f"For batched (3-D) `query`, expected `key` and `value` to be 3-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 2:
            raise AssertionError(f"For batched (3-D) `query`, expected `key_padding_mask` to be `None` or 2-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None and attn_mask.dim() not in (2, 3):
            raise AssertionError(f"For batched (3-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                 f"found {attn_mask.dim()}-D tensor instead")
        return True
    if query.dim() == 2:
        if key.dim() != 2 or value.dim() != 2:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key` and `value` to be 2-D but found "
                                 f"{key.dim()}-D and {value.dim()}-D tensors respectively")
        if key_padding_mask is not None and key_padding_mask.dim() != 1:
            raise AssertionError(f"For unbatched (2-D) `query`, expected `key_padding_mask` to be `None` or 1-D but "
                                 f"found {key_padding_mask.dim()}-D tensor instead")
        if attn_mask is not None:
            if attn_mask.dim() not in (2, 3):
                raise AssertionError(f"For unbatched (2-D) `query`, expected `attn_mask` to be `None`, 2-D or 3-D "
                                     f"but found {attn_mask.dim()}-D tensor instead")
            expected = (num_heads, query.shape[0], key.shape[0])
            if attn_mask.dim() == 3 and tuple(attn_mask.shape) != expected:
                raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got {attn_mask.shape}")
        return False
    raise AssertionError(f"query should be unbatched 2D or batched 3D tensor but received {query.dim()}-D query tensor")


def _additive(mask, name, other_dtype, other_name, target, check_other=True):
    """A boolean mask as an additive float mask (-inf where True), as torch's ``_canonical_mask``."""
    if mask is None:
        return None
    if mask.dtype is not D.bool and not mask.dtype.is_floating_point:
        raise AssertionError(f"only bool and floating types of {name} are supported")
    if check_other and other_dtype is not None and mask.dtype is not other_dtype:
        warnings.warn(f"Support for mismatched {name} and {other_name} is deprecated. Use same type for both "
                      "instead.", stacklevel=3)
    if not mask.dtype.is_floating_point:
        mask = _A.masked_fill_.Scalar(_A.zeros_like.default(mask, dtype=target), mask, -math.inf)
    return mask


def _project_packed(q, k, v, w, b):
    """The query, key and value projections with one (3E, E) weight."""
    E = q.shape[-1]
    if k is v:
        if q is k:
            proj = _A.linear.default(q, w, b)
            proj = _A.contiguous.default(_A.squeeze.dim(_A.transpose.int(
                _A.unsqueeze.default(_A.unflatten.int(proj, -1, [3, E]), 0), 0, -2), -2))
            return proj[0], proj[1], proj[2]
        w_q, w_kv = _A.split_with_sizes.default(w, [E, 2 * E])
        b_q, b_kv = (None, None) if b is None else _A.split_with_sizes.default(b, [E, 2 * E])
        kv = _A.linear.default(k, w_kv, b_kv)
        kv = _A.contiguous.default(_A.squeeze.dim(_A.transpose.int(
            _A.unsqueeze.default(_A.unflatten.int(kv, -1, [2, E]), 0), 0, -2), -2))
        return _A.linear.default(q, w_q, b_q), kv[0], kv[1]
    w_q, w_k, w_v = _A.chunk.default(w, 3)
    b_q, b_k, b_v = (None, None, None) if b is None else _A.chunk.default(b, 3)
    return _A.linear.default(q, w_q, b_q), _A.linear.default(k, w_k, b_k), _A.linear.default(v, w_v, b_v)


def _project_separate(q, k, v, w_q, w_k, w_v, b_q, b_k, b_v):
    Eq, Ek, Ev = q.shape[-1], k.shape[-1], v.shape[-1]
    for what, w, shape in (("query", w_q, (Eq, Eq)), ("key", w_k, (Eq, Ek)), ("value", w_v, (Eq, Ev))):
        if tuple(w.shape) != shape:
            raise AssertionError(f"expecting {what} weights shape of {shape}, but got {w.shape}")
    for what, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and tuple(bias.shape) != (Eq,):
            raise AssertionError(f"expecting {what} bias shape of {(Eq,)}, but got {bias.shape}")
    return _A.linear.default(q, w_q, b_q), _A.linear.default(k, w_k, b_k), _A.linear.default(v, w_v, b_v)


def _pad_last(mask):
    return None if mask is None else _A.constant_pad_nd.default(mask, [0, 1], 0)


def multi_head_attention_forward(query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias,
                                 bias_k, bias_v, add_zero_attn, dropout_p, out_proj_weight, out_proj_bias,
                                 training=True, key_padding_mask=None, need_weights=True, attn_mask=None,
                                 use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None,
                                 v_proj_weight=None, static_k=None, static_v=None, average_attn_weights=True,
                                 is_causal=False):
    """Multi-head attention of (L, N, E) queries over (S, N, E) keys and values (or unbatched
    (L, E) / (S, E)): ``(attn_output, attn_weights or None)``."""
    batched = _shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = (_A.unsqueeze.default(t, 1) for t in (query, key, value))
        if key_padding_mask is not None:
            key_padding_mask = _A.unsqueeze.default(key_padding_mask, 0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask = _additive(key_padding_mask, "key_padding_mask",
                                 attn_mask.dtype if attn_mask is not None else None, "attn_mask", query.dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the Transformer module "
                           "method `generate_square_subsequent_mask` to create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        attn_mask = None  # the causal hint stands in for the mask
    else:
        attn_mask = _additive(attn_mask, "attn_mask", None, "", query.dtype, check_other=False)
        if key_padding_mask is not None:
            is_causal = False
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    if use_separate_proj_weight:
        if tuple(key.shape[:2]) != tuple(value.shape[:2]):
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match value's "
                                 f"{value.shape[:2]}")
        for name, w in (("q", q_proj_weight), ("k", k_proj_weight), ("v", v_proj_weight)):
            if w is None:
                raise AssertionError(f"use_separate_proj_weight is True but {name}_proj_weight is None")
        b_q, b_k, b_v = (None, None, None) if in_proj_bias is None else _A.chunk.default(in_proj_bias, 3)
        q, k, v = _project_separate(query, key, value, q_proj_weight, k_proj_weight, v_proj_weight, b_q, b_k, b_v)
    else:
        if tuple(key.shape) != tuple(value.shape):
            raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        q, k, v = _project_packed(query, key, value, in_proj_weight, in_proj_bias)
    src_len = key.shape[0]
    if attn_mask is not None:
        if attn_mask.dim() == 2:
            if tuple(attn_mask.shape) != (tgt_len, src_len):
                raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(tgt_len, src_len)}.")
            attn_mask = _A.unsqueeze.default(attn_mask, 0)
        elif attn_mask.dim() == 3:
            if tuple(attn_mask.shape) != (bsz * num_heads, tgt_len, src_len):
                raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should be "
                                   f"{(bsz * num_heads, tgt_len, src_len)}.")
        else:
            raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")
    if bias_k is not None and bias_v is not None:
        if static_k is not None:
            raise AssertionError("bias cannot be added to static key.")
        if static_v is not None:
            raise AssertionError("bias cannot be added to static value.")
        k = _A.cat.default([k, _A.repeat.default(bias_k, [1, bsz, 1])])
        v = _A.cat.default([v, _A.repeat.default(bias_v, [1, bsz, 1])])
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)
    elif bias_k is not None:
        raise AssertionError("bias_k is set but bias_v is None")
    elif bias_v is not None:
        raise AssertionError("bias_v is set but bias_k is None")
    q = _A.transpose.int(_A.view.default(q, [tgt_len, bsz * num_heads, head_dim]), 0, 1)
    k = _heads(k, static_k, "k", bsz, num_heads, head_dim)
    v = _heads(v, static_v, "v", bsz, num_heads, head_dim)
    if add_zero_attn:
        zeros = [bsz * num_heads, 1, head_dim]
        k = _A.cat.default([k, _A.zeros.default(zeros, dtype=k.dtype, device=k.device)], 1)
        v = _A.cat.default([v, _A.zeros.default(zeros, dtype=v.dtype, device=v.device)], 1)
        attn_mask, key_padding_mask = _pad_last(attn_mask), _pad_last(key_padding_mask)
    src_len = k.shape[1]
    if key_padding_mask is not None:
        if key_padding_mask.shape[0] != bsz:
            raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got {key_padding_mask.shape[0]}")
        if key_padding_mask.shape[1] != src_len:
            raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                                 f"{key_padding_mask.shape[1]}")
        key_padding_mask = _A.reshape.default(_A.expand.default(
            _A.view.default(key_padding_mask, [bsz, 1, 1, src_len]), [-1, num_heads, -1, -1]),
            [bsz * num_heads, 1, src_len])
        attn_mask = key_padding_mask if attn_mask is None else _A.add.Tensor(attn_mask, key_padding_mask)
    if not training:
        dropout_p = 0.0
    if need_weights:
        E = q.shape[-1]
        q_scaled = _A.mul.Scalar(q, math.sqrt(1.0 / float(E)))
        if is_causal and attn_mask is None:
            raise AssertionError("FIXME: is_causal not implemented for need_weights")
        kt = _A.transpose.int(k, -2, -1)
        weights = _A.baddbmm.default(attn_mask, q_scaled, kt) if attn_mask is not None else \
            _A.bmm.default(q_scaled, kt)
        weights = _A.softmax.int(weights, -1)
        if dropout_p > 0.0:
            weights = _A.dropout.default(weights, dropout_p, True)
        output = _A.reshape.default(_A.transpose.int(_A.bmm.default(weights, v), 0, 1), [tgt_len * bsz, embed_dim])
        output = _A.linear.default(output, out_proj_weight, out_proj_bias)
        output = _A.view.default(output, [tgt_len, bsz, output.shape[1]])
        weights = _A.view.default(weights, [bsz, num_heads, tgt_len, src_len])
        if average_attn_weights:
            weights = _A.mean.dim(weights, [1])
        if not batched:
            output, weights = _A.squeeze.dim(output, 1), _A.squeeze.dim(weights, 0)
        return output, weights
    if attn_mask is not None:
        if attn_mask.shape[0] == 1 and attn_mask.dim() == 3:
            attn_mask = _A.unsqueeze.default(attn_mask, 0)
        else:
            attn_mask = _A.view.default(attn_mask, [bsz, num_heads, -1, src_len])
    q = _A.view.default(q, [bsz, num_heads, tgt_len, head_dim])
    k = _A.view.default(k, [bsz, num_heads, src_len, head_dim])
    v = _A.view.default(v, [bsz, num_heads, src_len, head_dim])
    output = _A.scaled_dot_product_attention.default(q, k, v, attn_mask, dropout_p, is_causal)
    output = _A.reshape.default(_A.permute.default(output, [2, 0, 1, 3]), [bsz * tgt_len, embed_dim])
    output = _A.linear.default(output, out_proj_weight, out_proj_bias)
    output = _A.view.default(output, [tgt_len, bsz, output.shape[1]])
    return (output if batched else _A.squeeze.dim(output, 1)), None


def _heads(t, static, name, bsz, num_heads, head_dim):
    """(S, N, E) projections as (N * heads, S, head_dim), or the given static ones (checked)."""
    if static is None:
        return _A.transpose.int(_A.view.default(t, [t.shape[0], bsz * num_heads, head_dim]), 0, 1)
    if static.shape[0] != bsz * num_heads:
        raise AssertionError(f"expecting static_{name}.size(0) of {bsz * num_heads}, but got {static.shape[0]}")
    if static.shape[2] != head_dim:
        raise AssertionError(f"expecting static_{name}.size(2) of {head_dim}, but got {static.shape[2]}")
    return static
