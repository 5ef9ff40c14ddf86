"""Distances, similarities and bag embeddings as torch structures them. Kernels (numpy):
``_cdist_forward``, ``_euclidean_dist``, ``_pdist_forward``, ``_trilinear``, ``_embedding_bag``
(and ``_embedding_bag_forward_only``), its backward kernels ``_embedding_bag_backward``,
``_embedding_bag_dense_backward`` and ``_embedding_bag_per_sample_weights_backward``,
``embedding_renorm_``. Compositions
(CompositeImplicitAutograd): ``cdist``, ``pdist``, ``cosine_similarity``, ``bilinear``,
``embedding_bag``. Derivatives: ``autograd/derivatives/distances.py``."""

import numpy as np

from .. import _core
from .. import _dtype as D
from ..dispatcher import AUTOGRAD_KEYS
from .common import A, broadcast_shape, out, tensor_result_dtype
from .nn_common import not_implemented, opmath

__all__ = ["COMPOSITE", "KERNELS", "SCHEMAS", "pairwise_norm"]

SCHEMAS = (
    "cdist(Tensor x1, Tensor x2, float p=2, int? compute_mode=None) -> Tensor",
    "_cdist_forward(Tensor x1, Tensor x2, float p, int? compute_mode) -> Tensor",
    "_euclidean_dist(Tensor x1, Tensor x2) -> Tensor",
    "pdist(Tensor self, float p=2) -> Tensor",
    "_pdist_forward(Tensor self, float p=2) -> Tensor",
    "cosine_similarity(Tensor x1, Tensor x2, int dim=1, float eps=1e-08) -> Tensor",
    "bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor",
    "_trilinear(Tensor i1, Tensor i2, Tensor i3, int[] expand1, int[] expand2, int[] expand3, int[] sumdim, int unroll_dim=1) -> Tensor",
    "embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False) -> (Tensor, Tensor, Tensor, Tensor)",
    "embedding_bag.padding_idx(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, bool include_last_offset, int? padding_idx) -> (Tensor, Tensor, Tensor, Tensor)",
    "_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
    "_embedding_bag_forward_only(Tensor weight, Tensor indices, Tensor offsets, bool scale_grad_by_freq=False, int mode=0, bool sparse=False, Tensor? per_sample_weights=None, bool include_last_offset=False, int padding_idx=-1) -> (Tensor, Tensor, Tensor, Tensor)",
    "_embedding_bag_backward(Tensor grad, Tensor indices, Tensor offsets, Tensor offset2bag, Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int mode, bool sparse, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor",
    "_embedding_bag_dense_backward(Tensor grad, Tensor indices, Tensor offset2bag, Tensor bag_size, Tensor maximum_indices, SymInt num_weights, bool scale_grad_by_freq, int mode, Tensor? per_sample_weights, int padding_idx=-1) -> Tensor",
    "_embedding_bag_per_sample_weights_backward(Tensor grad, Tensor weight, Tensor indices, Tensor offsets, Tensor offset2bag, int mode, int padding_idx=-1) -> Tensor",
    "embedding_renorm_(Tensor(a!) self, Tensor indices, float max_norm, float norm_type) -> Tensor(a!)",
)


# --- distances --------------------------------------------------------------------------------


def pairwise_norm(diff, p, axis=-1):
    """The p-norm of ``diff`` along ``axis`` (p = 0 counts the non-zeros, p = inf is the maximum)."""
    a = np.abs(diff)
    if p == 0:
        return (a != 0).sum(axis=axis).astype(diff.dtype)
    if p == np.inf:
        return a.max(axis=axis, initial=0)
    if p == 1:
        return a.sum(axis=axis)
    if p == 2:
        return np.sqrt((a * a).sum(axis=axis))
    return (a ** p).sum(axis=axis) ** (1.0 / p)


_CHUNK = 1 << 22  # elements of one block of differences


def _cdist_blocks(a, b, p):
    """The (..., P, R) p-norm distances of the rows of ``a`` (..., P, M) and ``b`` (..., R, M),
    block of rows by block of rows (each block's differences at most ``_CHUNK`` elements)."""
    rows = max(1, _CHUNK // max(1, int(np.prod(b.shape[:-2], dtype=np.int64)) * b.shape[-2] * b.shape[-1]))
    parts = [pairwise_norm(a[..., i:i + rows, None, :] - b[..., None, :, :], p)
             for i in range(0, a.shape[-2], rows)]
    return np.concatenate(parts, axis=-2)


def _cdist_checks(x1, x2, p):
    if x1.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X1 got: {x1.dim()}D")
    if x2.dim() < 2:
        raise RuntimeError(f"cdist only supports at least 2D tensors, X2 got: {x2.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    for name, t in (("X1", x1), ("X2", x2)):
        if not t.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {D.legacy_name(t.dtype)}")
    if p < 0:
        raise RuntimeError("cdist only supports non-negative p values")


def _uses_mm(x1, x2, p, compute_mode):
    """torch's choice of the matrix-product form of the euclidean distance (Note [cdist relies
    on cdist_impl redispatching])."""
    mode = 0 if compute_mode is None else compute_mode
    return p == 2 and (mode == 1 or (mode == 0 and (x1.shape[-2] > 25 or x2.shape[-2] > 25)))


def _euclid_mm(a, b):
    """``sqrt(clamp(|a|^2 - 2 a.b + |b|^2, 0))`` as torch's ``_euclidean_dist`` computes it."""
    an = (a * a).sum(-1, keepdims=True)
    bn = (b * b).sum(-1, keepdims=True)
    a_ = np.concatenate([-2 * a, an, np.ones_like(an)], -1)
    b_ = np.concatenate([b, np.ones_like(bn), bn], -1)
    return np.sqrt(np.maximum(a_ @ np.swapaxes(b_, -1, -2), 0))


def cdist_forward(x1, x2, p, compute_mode):
    _cdist_checks(x1, x2, p)
    if compute_mode is not None and compute_mode not in (0, 1, 2):
        raise RuntimeError(f"possible modes: 0, 1, 2, but was: {compute_mode}")
    if x1.dtype not in (D.float32, D.float64):
        raise not_implemented("cdist", x1.dtype)
    if x2.dtype is not x1.dtype:
        raise RuntimeError(f"expected scalar type {D.legacy_name(x1.dtype)} but found {D.legacy_name(x2.dtype)}")
    a, b = x1._data, x2._data
    batch = broadcast_shape("cdist", a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    if a.size == 0 or b.size == 0:
        r = np.zeros(batch + (a.shape[-2], b.shape[-2]), a.dtype)
    elif _uses_mm(x1, x2, p, compute_mode):
        r = _euclid_mm(a.astype(np.float64), b.astype(np.float64))
    else:
        r = _cdist_blocks(a, b, p)
    return out(np.asarray(r).astype(a.dtype), x1)


def euclidean_dist(x1, x2):
    a, b = x1._data, x2._data
    return out(_euclid_mm(opmath(a), opmath(b)).astype(a.dtype), x1)


def cdist(x1, x2, p=2.0, compute_mode=None):
    _cdist_checks(x1, x2, p)
    if x1.numel() == 0 or x2.numel() == 0 or not _uses_mm(x1, x2, p, compute_mode):
        return A._cdist_forward(x1, x2, p, compute_mode)
    batch = list(broadcast_shape("cdist", tuple(x1.shape[:-2]), tuple(x2.shape[:-2])))
    e1 = A.expand(x1, batch + list(x1.shape[-2:]))
    e2 = A.expand(x2, batch + list(x2.shape[-2:]))
    return A.view(A._euclidean_dist(e1, e2), batch + [x1.shape[-2], x2.shape[-2]])


def pdist_forward(self, p=2.0):
    x = self._data
    n = x.shape[0]
    i, j = np.triu_indices(n, 1)
    step = max(1, _CHUNK // max(1, x.shape[1]))
    r = np.concatenate([pairwise_norm(x[i[k:k + step]] - x[j[k:k + step]], p) for k in range(0, i.size, step)]) \
        if i.size else np.zeros(0, x.dtype)
    return out(np.asarray(r).astype(x.dtype), self)


def pdist(self, p=2.0):
    if self.dim() != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {self.dim()}D")
    if not self.dtype.is_floating_point:
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    return A._pdist_forward(A.contiguous(self), p)


def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """torch's composition: each input divided by its norm (clamped to ``eps`` without recording
    the clamp, so the gradient flows as through the norm), then the product summed."""
    common = tensor_result_dtype(x1, x2)
    if not common.is_floating_point:
        raise RuntimeError(f"expected common dtype to be floating point, yet common dtype is "
                           f"{D.legacy_name(common)}")
    a = x1 if x1.dtype.is_floating_point or x1.dtype.is_complex else A._to_copy(x1, dtype=common)
    b = x2 if x2.dtype.is_floating_point or x2.dtype.is_complex else A._to_copy(x2, dtype=common)
    shape = list(broadcast_shape("cosine_similarity", tuple(a.shape), tuple(b.shape)))
    if list(a.shape) != shape:
        a = A.expand(a, shape)
    if list(b.shape) != shape:
        b = A.expand(b, shape)
    na = A.clone(A.linalg_vector_norm(a, 2, [dim], True))
    nb = A.clone(A.linalg_vector_norm(b, 2, [dim], True))
    with _core._KeyGuard(exclude=AUTOGRAD_KEYS):
        A.clamp_min_(na, eps)
        A.clamp_min_(nb, eps)
    return A.sum__dim_IntList(A.mul__Tensor(A.div__Tensor(a, na), A.div__Tensor(b, nb)), [dim])


# --- bilinear ---------------------------------------------------------------------------------


def trilinear(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """``sum over sumdim of i1' * i2' * i3'``, each input with size-1 dims inserted at its
    ``expand`` positions (the summed dims leave the result): one einsum."""
    ndim = i1.dim() + len(expand1)
    letters = "abcdefghijklmnopqrstuvwxyz"[:ndim]

    def spec(t, expand):
        return "".join(letters[d] for d in range(ndim) if d not in set(expand))
    keep = "".join(letters[d] for d in range(ndim) if d not in set(sumdim))
    subs = f"{spec(i1, expand1)},{spec(i2, expand2)},{spec(i3, expand3)}->{keep}"
    dt = tensor_result_dtype(i1, i2, i3)
    arrays = [opmath(t._data.astype(dt.np, copy=False)) for t in (i1, i2, i3)]
    r = np.einsum(subs, *arrays, optimize=True)
    return out(np.asarray(r).astype(dt.np), i1)


def bilinear(input1, input2, weight, bias=None):
    dts = [input1.dtype, input2.dtype, weight.dtype] + ([bias.dtype] if bias is not None else [])
    if any(d is not dts[0] for d in dts):
        names = ["input1", "input2", "weight", "bias"]
        described = ", ".join(f"{n}: {_c_name(d)}" for n, d in zip(names, dts))
        raise RuntimeError(f"All tensors must have the same dtype, got {described}")
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1.shape[i] != input2.shape[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: got {input1.shape[i]} "
                               f"and {input2.shape[i]}")
    if input1.shape[-1] != weight.shape[1]:
        raise RuntimeError(f"bilinear(): input1 size does not match weight size: got {input1.shape[-1]} but expected "
                           f"{weight.shape[1]}")
    if input2.shape[-1] != weight.shape[2]:
        raise RuntimeError(f"bilinear(): input2 size does not match weight size: got {input2.shape[-1]} but expected "
                           f"{weight.shape[2]}")
    if bias is not None and bias.shape[0] != weight.shape[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got {bias.shape[0]} but expected "
                           f"{weight.shape[0]}")
    size = list(input1.shape[:-1]) + [weight.shape[0]]
    flat1 = A.reshape(input1, [-1, input1.shape[-1]])
    flat2 = A.reshape(input2, [-1, input2.shape[-1]])
    output = A.reshape(A._trilinear(flat1, weight, flat2, [1, 3], [0], [1, 2], [2, 3]), size)
    return A.add__Tensor(output, bias) if bias is not None else output


def _c_name(dt):
    """torch's C++ name of a dtype in dtype messages (``float``, ``double``, ``c10::BFloat16``)."""
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "bfloat16": "c10::BFloat16",
            "int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char",
            "uint8": "unsigned char", "bool": "bool"}.get(dt.name, dt.name)


# --- embedding bags ---------------------------------------------------------------------------


def _bags(indices, offsets, include_last_offset):
    """``(bag of each index position, number of bags, positions past the last bag)``."""
    n = indices.size
    offs = offsets.astype(np.int64)
    starts = offs[:-1] if include_last_offset else offs
    bags = starts.size
    if offs.size and offs[0] != 0:
        raise RuntimeError(f"offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from "
                           f"position 0. However, got {int(offs[0])}")
    if offs.size and offs[-1] > n:
        raise RuntimeError(f"offsets[-1] can not be greater than input's length {n} but got offsets[-1] of "
                           f"{int(offs[-1])}")
    if offs.size > 1 and np.any(np.diff(offs) < 0):
        raise RuntimeError("Expected i < index_size to be true, but got false. (embedding_bag: offsets must be "
                           "non-decreasing)")
    pos = np.arange(n)
    bag = np.searchsorted(starts, pos, side="right") - 1 if bags else np.full(n, -1)
    end = offs[-1] if include_last_offset and offs.size else n
    return bag, bags, pos >= end


def _segments(ufunc, get, n, starts, counts, fill, dtype):
    """``ufunc`` reduced, in order, over each bag's contiguous run of the ``n`` values ``get(i)``
    (``fill`` for an empty bag): for short bags one vectorized step per position of a bag, else
    numpy's reduceat."""
    result = np.full((counts.size,) + get(starts[:0]).shape[1:], fill, dtype)
    if not starts.size:
        return result
    sizes = counts[counts > 0]
    longest = int(sizes.max())
    if longest > 64:
        result[counts > 0] = ufunc.reduceat(get(np.arange(n)), starts, axis=0)
        return result
    part = get(starts)
    for k in range(1, longest):
        live = sizes > k
        if live.all():
            ufunc(part, get(starts + k), out=part)
        else:
            part[live] = ufunc(part[live], get(starts[live] + k))
    result[counts > 0] = part
    return result


def embedding_bag_kernel(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                         per_sample_weights=None, include_last_offset=False, padding_idx=-1):
    _index_checks(indices)
    if not weight.dtype.is_floating_point:
        raise RuntimeError(f"Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                           f"Half, BFloat16, Float, Double; but got torch.{D.legacy_name(weight.dtype)}Tensor instead "
                           "(while checking arguments for embedding_bag)")
    if per_sample_weights is not None and mode != 0:
        raise RuntimeError("embedding_bag: per_sample_weights only supported with mode='sum'")
    w = weight._data
    idx = indices._data.reshape(-1).astype(np.int64)
    if idx.size and (idx.min() < 0 or idx.max() >= w.shape[0]):
        raise RuntimeError(f"Expected i < index_size to be true, but got false. (embedding_bag: index "
                           f"{int(idx[(idx < 0) | (idx >= w.shape[0])][0])} is out of range for {w.shape[0]} "
                           "embeddings)")
    bag, bags, past = _bags(idx, offsets._data.reshape(-1), include_last_offset)
    use = ~past & (idx != padding_idx) & (bag >= 0)
    acc = opmath(w)
    # The used positions of a bag are contiguous (offsets never decrease): one segment each.
    where = np.nonzero(use)[0]
    used = idx[where]
    counts = np.bincount(bag[where], minlength=bags)[:bags]
    starts = (np.cumsum(counts) - counts)[counts > 0]
    if per_sample_weights is None:
        def rows(i):
            return np.take(acc, used[i], axis=0)
    else:
        psw = opmath(per_sample_weights._data.reshape(-1))[where].astype(acc.dtype)[:, None]

        def rows(i):
            return np.take(acc, used[i], axis=0) * psw[i]
    itype = indices._data.dtype
    if mode == 2:
        result = _segments(np.maximum, rows, used.size, starts, counts, 0, acc.dtype)
        # the first position of each bag holding its maximum, per feature
        best = np.repeat(result[counts > 0], counts[counts > 0], axis=0)

        def first_hit(i):
            return np.where(rows(i) == best[i], where[i][:, None], idx.size)
        first = _segments(np.minimum, first_hit, used.size, starts, counts, idx.size, np.int64)
        max_indices = np.where(first < idx.size, idx[np.minimum(first, max(idx.size - 1, 0))] if idx.size else 0, 0)
    else:
        result = _segments(np.add, rows, used.size, starts, counts, 0, acc.dtype)
        if mode == 1:
            result = result / np.maximum(counts, 1)[:, None]
    offset2bag = np.where(bag >= 0, bag, 0)
    bag_size = counts
    if mode == 0:  # torch's sum kernel fills only what its backward reads
        bag_size = np.zeros(bags, np.int64)
        max_out = np.zeros(bags, np.int64)
        if padding_idx < 0 and per_sample_weights is None:
            offset2bag = np.zeros(0, np.int64)
    elif mode == 1:
        max_out = counts
    else:
        max_out = max_indices
    return (out(result.astype(w.dtype), weight), out(offset2bag.astype(itype), weight),
            out(bag_size.astype(itype), weight), out(np.asarray(max_out).astype(itype), weight))


def embedding_bag(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False, per_sample_weights=None,
                  include_last_offset=False, padding_idx=None):
    """torch's ``embedding_bag``: ``padding_idx`` wrapped into the weight's rows, then ``_embedding_bag``."""
    pad = -1
    if padding_idx is not None:
        rows = weight.shape[0]
        if not -rows <= padding_idx < rows:
            raise RuntimeError(f"padding_idx must be within the number of embeddings, -{rows} through {rows - 1}, "
                               f"but got {padding_idx}")
        pad = padding_idx + rows if padding_idx < 0 else padding_idx
    return A._embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                            include_last_offset, pad)


def embedding_bag_padding_idx(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                              include_last_offset, padding_idx):
    return embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                         include_last_offset, padding_idx)


def embedding_bag_plain(weight, indices, offsets, scale_grad_by_freq=False, mode=0, sparse=False,
                        per_sample_weights=None, include_last_offset=False):
    return embedding_bag(weight, indices, offsets, scale_grad_by_freq, mode, sparse, per_sample_weights,
                         include_last_offset, None)


def _bag_of(idx, offsets, offset2bag):
    """The bag of each index position: the forward's ``offset2bag``, or, where the forward left it
    empty (a sum without per-sample weights or padding), torch's ``make_offset2bag`` of the offsets."""
    o2b = offset2bag._data.reshape(-1).astype(np.int64)
    if idx.size and not o2b.size:
        o2b = np.searchsorted(offsets._data.reshape(-1).astype(np.int64), np.arange(idx.size), side="right") - 1
    return o2b


def _used(idx, o2b, bags, padding_idx):
    """The index positions with a bag that are not padding."""
    if o2b.size < idx.size:
        raise IndexError("index out of range in self")
    o2b = o2b[:idx.size]
    return np.flatnonzero((idx != padding_idx) & (o2b >= 0) & (o2b < bags)), o2b


def _sorted_runs(keys):
    """``(order, sorted keys, run starts, run lengths)``: a stable sort of ``keys`` and its runs of
    equal keys."""
    order = np.argsort(keys, kind="stable")
    sk = keys[order]
    starts = np.flatnonzero(np.concatenate([[True], sk[1:] != sk[:-1]])) if sk.size else np.zeros(0, np.int64)
    return order, sk, starts, np.diff(np.append(starts, sk.size))


def _scatter_rows(result, keys, rows):
    """``result[keys[i]] += rows(i)`` for every position i, each row's terms added in position
    order (the rows in key order, as torch's kernel walks the sorted indices)."""
    order, sk, starts, counts = _sorted_runs(keys)
    if starts.size:
        result[sk[starts]] = _segments(np.add, lambda i: rows(order[i]), sk.size, starts, counts, 0, result.dtype)


def _dense_backward(grad, idx, o2b, bag_size, maximum_indices, num_weights, scale_grad_by_freq, mode,
                    per_sample_weights, padding_idx):
    g = grad._data
    dt = g.dtype
    dim = g.shape[1]
    result = np.zeros((num_weights, dim), dt)
    if mode == 2:  # each bag's gradient, per feature, to the row that was maximal
        sizes = bag_size._data.reshape(-1)
        keep = np.flatnonzero(sizes)
        rows = maximum_indices._data.reshape(sizes.size, -1)[keep].astype(np.int64)
        vals = g[keep].reshape(-1, 1)
        _scatter_rows(result.reshape(-1, 1), (rows * dim + np.arange(dim)).reshape(-1), lambda i: vals[i])
        return result
    if per_sample_weights is not None and mode != 0:  # torch: an internal assert
        raise RuntimeError("embedding_bag_backward: per_sample_weights only supported for mode='sum'")
    pos, o2b = _used(idx, o2b, g.shape[0], padding_idx)
    keys, bags = idx[pos], o2b[pos]
    coeff = np.ones(pos.size, np.float64)
    if per_sample_weights is not None:
        coeff = opmath(per_sample_weights._data.reshape(-1))[pos].astype(np.float64)
    if scale_grad_by_freq:
        coeff = coeff / np.bincount(idx[(idx >= 0) & (idx < num_weights)], minlength=num_weights)[keys]
    if mode == 1:
        sizes = bag_size._data.reshape(-1)[bags]
        coeff = coeff / np.where(sizes != 0, sizes, 1)
    acc = opmath(g)
    coeff = coeff.astype(acc.dtype)[:, None]
    _scatter_rows(result, keys, lambda i: (np.take(acc, bags[i], axis=0) * coeff[i]).astype(dt, copy=False))
    return result


def _index_checks(indices):
    if indices.dtype not in (D.int64, D.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{D.legacy_name(indices.dtype)}Tensor instead (while checking "
                           "arguments for embedding_bag)")


def embedding_bag_backward(grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights,
                           scale_grad_by_freq, mode, sparse, per_sample_weights=None, padding_idx=-1):
    """The weight's gradient of ``_embedding_bag`` (dense, also for ``sparse=True``: opyard has no
    sparse tensors): the bags of the positions recovered from the offsets if the forward left
    ``offset2bag`` empty, then ``_embedding_bag_dense_backward``."""
    _index_checks(indices)
    idx = indices._data.reshape(-1).astype(np.int64)
    o2b = _bag_of(idx, offsets, offset2bag)
    return out(_dense_backward(grad, idx, o2b, bag_size, maximum_indices, num_weights, scale_grad_by_freq, mode,
                               per_sample_weights, padding_idx), grad)


def embedding_bag_dense_backward(grad, indices, offset2bag, bag_size, maximum_indices, num_weights,
                                 scale_grad_by_freq, mode, per_sample_weights=None, padding_idx=-1):
    """The weight's gradient: each used index position adds its bag's gradient (times its
    per-sample weight, over its bag's size for a mean, over its index's count with
    ``scale_grad_by_freq``) into its row, each row's terms in position order."""
    idx = indices._data.reshape(-1).astype(np.int64)
    return out(_dense_backward(grad, idx, offset2bag._data.reshape(-1).astype(np.int64), bag_size, maximum_indices,
                               num_weights, scale_grad_by_freq, mode, per_sample_weights, padding_idx), grad)


def embedding_bag_per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, mode, padding_idx=-1):
    """Each used position's gradient: its bag's gradient dotted with its weight row."""
    if mode != 0:
        raise RuntimeError("embedding_bag_backward: per_sample_weights only supported for mode='sum'")
    idx = indices._data.reshape(-1).astype(np.int64)
    g = grad._data
    pos, o2b = _used(idx, _bag_of(idx, offsets, offset2bag), g.shape[0], padding_idx)
    acc = opmath(g)
    result = np.zeros(idx.size, acc.dtype)
    rows = np.take(opmath(weight._data), idx[pos], axis=0).astype(acc.dtype)
    result[pos] = (np.take(acc, o2b[pos], axis=0) * rows).sum(axis=1)
    return out(result.astype(g.dtype), grad)


def embedding_renorm_(self, indices, max_norm, norm_type):
    """Rows of ``self`` listed in ``indices`` whose ``norm_type``-norm exceeds ``max_norm`` scaled
    to ``max_norm`` (``max_norm / (norm + 1e-7)``), in place."""
    w = self._data
    rows = np.unique(indices._data.reshape(-1).astype(np.int64))
    if rows.size:
        norms = pairwise_norm(opmath(w[rows]).astype(np.float64), norm_type)
        scale = np.where(norms > max_norm, max_norm / (norms + 1e-7), 1.0)
        w[rows] = (opmath(w[rows]) * scale[:, None]).astype(w.dtype)
        self._bump_version()
    return self


KERNELS = {
    "_cdist_forward": cdist_forward, "_euclidean_dist": euclidean_dist, "_pdist_forward": pdist_forward,
    "_trilinear": trilinear, "_embedding_bag": embedding_bag_kernel,
    "_embedding_bag_forward_only": embedding_bag_kernel, "embedding_renorm_": embedding_renorm_,
    "_embedding_bag_backward": embedding_bag_backward, "_embedding_bag_dense_backward": embedding_bag_dense_backward,
    "_embedding_bag_per_sample_weights_backward": embedding_bag_per_sample_weights_backward,
}
COMPOSITE = {
    "cdist": cdist, "pdist": pdist, "cosine_similarity": cosine_similarity, "bilinear": bilinear,
    "embedding_bag": embedding_bag_plain, "embedding_bag.padding_idx": embedding_bag_padding_idx,
}
