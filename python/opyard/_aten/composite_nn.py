"""``nn.functional`` operators composed of other operators (CompositeImplicitAutograd, as in
torch): rms_norm, embedding, pad,
logsumexp. Autograd, Meta and fake tensors follow from the ops they call."""


import numpy as np

from .. import _core
from .. import _dtype as D
from .._keys import DispatchKey, DispatchKeySet
from .common import CPU_KEYS, A, out

__all__ = ["COMPOSITE"]


def rms_norm(input, normalized_shape, weight=None, eps=None):
    """torch's composition: float16/bfloat16 inputs are normalized in float32 (the weight applied
    there too) and the result rounded once; ``eps`` defaults to the compute dtype's epsilon."""
    normalized = [int(s) for s in normalized_shape]
    if not normalized:
        raise RuntimeError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least "
                           f"one element, but got normalized_shape = {normalized}")
    if weight is not None and list(weight.shape) != normalized:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{list(weight.shape)} and normalized_shape = {normalized}")
    shape = list(input.shape)
    n = len(normalized)
    if len(shape) < n or shape[len(shape) - n:] != normalized:
        raise RuntimeError(f"Given normalized_shape={normalized}, expected input with shape "
                           f"[*{', '.join(str(s) for s in normalized)}], but got input of size{shape}")
    if eps is None:  # the machine epsilon of the compute dtype (a complex one's real part)
        eps = D.finfo(D.float64 if input.dtype in (D.float64, D.complex128) else D.float32).eps
    if _fusable(input, weight):
        y = _fused_rms_norm(input, weight, n, eps)
        if y is not None:
            return y
    x = input
    if input.dtype in (D.float16, D.bfloat16):
        x = A._to_copy(input, dtype=D.float32)
    dims = list(range(len(shape) - 1, len(shape) - n - 1, -1))
    rstd = A.rsqrt(A.add__Scalar(A.mean__dim(A.pow__Tensor_Scalar(x, 2), dims, True), eps))
    y = A.mul__Tensor(x, rstd)
    if weight is not None:
        y = A.mul__Tensor(y, weight)
    return A._to_copy(y, dtype=input.dtype) if y.dtype is not input.dtype else y


_FUSED_DTYPES = (D.float32, D.float64, D.float16, D.bfloat16)
_AUTOGRAD_CPU = DispatchKeySet(DispatchKey.AutogradCPU)


def _fusable(input, weight):
    """Whether ``rms_norm`` may run as one kernel, not its composition: plain CPU tensors of one float
    dtype, nothing on this thread that must see the composed ops (a dispatch mode, fake tensors, vmap,
    forward AD, autocast: any key included on this thread) and no gradient to record."""
    if input._keyset != CPU_KEYS or input.dtype not in _FUSED_DTYPES:
        return False
    if weight is not None and (weight._keyset != CPU_KEYS or weight.dtype is not input.dtype):
        return False
    if not _core._local_keysets()[0].empty():
        return False
    needs_grad = input.requires_grad or (weight is not None and weight.requires_grad)
    return not needs_grad or _core._is_excluded(_AUTOGRAD_CPU)


def _fused_rms_norm(input, weight, n, eps):
    """The Rust kernel's ``rms_norm`` over the last ``n`` dims (statistics in float64, 16-bit data in
    float32, rounded once), or ``None`` when it declines."""
    x = input._data
    acc = np.float64 if x.dtype == np.float64 else np.float32
    cols = int(np.prod(x.shape[x.ndim - n:], dtype=np.int64))
    if cols == 0 or x.size == 0:
        return None
    flat = np.ascontiguousarray(x, dtype=acc).reshape(-1, cols)
    w = None if weight is None else np.ascontiguousarray(weight._data, dtype=acc).reshape(-1)
    r = _core._fused_norm(flat, cols, w, None, float(eps), False)
    if r is None:
        return None
    return out(r[0].reshape(x.shape).astype(x.dtype, copy=False), input)


def embedding(weight, indices, padding_idx=-1, scale_grad_by_freq=False, sparse=False):
    if indices.dtype not in (D.int64, D.int32):
        raise RuntimeError(f"Expected tensor for argument #1 'indices' to have one of the following scalar "
                           f"types: Long, Int; but got opyard.{D.legacy_name(indices.dtype)}Tensor instead "
                           f"(while checking arguments for embedding)")
    if weight.dim() != 2:
        raise RuntimeError(f"'weight' must be 2-D (aten::embedding: got {weight.dim()}-D)")
    if padding_idx >= 0:
        # torch's embedding_backward leaves the padding row without gradient: read that row
        # from a detached weight (same values, no edge back to ``weight``).
        rows = A.arange(weight.shape[0], dtype=D.int64, device=weight.device)
        is_pad = A.unsqueeze(A.eq__Scalar(rows, padding_idx), 1)
        weight = A.where__self(is_pad, A.detach(weight), weight)
    flat_idx = A.reshape(indices, [-1])
    flat = A.index_select(weight, 0, flat_idx)
    if scale_grad_by_freq:
        # Gradients divided by how often each index occurs in this batch: the forward value is
        # unchanged (y.detach() + 0 * ...), only the backward sees the scale.
        counts = A.sum__dim_IntList(A.eq__Tensor(A.unsqueeze(flat_idx, 1), A.unsqueeze(flat_idx, 0)), [1])
        scale = A.unsqueeze(A.reciprocal(A._to_copy(counts, dtype=flat.dtype)), 1)
        frozen = A.detach(flat)
        flat = A.add__Tensor(frozen, A.mul__Tensor(A.sub__Tensor(flat, frozen), scale))
    return A.view(flat, list(indices.shape) + [weight.shape[1]])


def pad(self, pad, mode="constant", value=None):
    if mode == "constant":
        return A.constant_pad_nd(self, pad, 0.0 if value is None else value)  # torch passes value_or(0.0)
    if value is not None and value != 0:
        raise RuntimeError(f"Padding mode \"{mode}\" doesn't take in value argument.")
    if mode not in ("reflect", "replicate", "circular"):
        raise NotImplementedError(f"Unrecognised padding mode {mode}")
    n = len(pad) // 2
    if len(pad) % 2 or n > 3 or n > self.dim():
        raise RuntimeError(f"Padding length should be divisible by 2 and at most 6 (3 dimensions), and "
                           f"at most twice the input's dimensions for mode {mode}, but got {len(pad)} for "
                           f"an input of {self.dim()} dimensions")
    y = self
    for i in range(n):
        d = self.dim() - 1 - i
        y = A.index_select(y, d, _pad_index(mode, d, int(pad[2 * i]), int(pad[2 * i + 1]), y, self))
    return y


def _pad_index(mode, d, before, after, like, input):
    """The source position of every output position along one padded dimension, built from
    ``arange`` so it also works on meta and fake tensors."""
    size = like.shape[d]
    if mode == "reflect" and (before >= size or after >= size):
        raise RuntimeError(f"Argument #4: Padding size should be less than the corresponding input "
                           f"dimension, but got: padding ({before}, {after}) at dimension {d} of input "
                           f"{list(input.shape)}")
    if mode == "circular":
        return _circular_index(before, after, size, like.device)
    j = A.arange__start(-before, size + after, dtype=D.int64, device=like.device)
    if mode == "replicate":
        return A.clamp(j, 0, size - 1)
    r = A.abs(j)
    return A.where__self(A.gt__Scalar(r, size - 1), A.rsub__Scalar(r, 2 * (size - 1)), r)


_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to a "
            "single memory location. Please clone() the tensor before performing the operation.")


def _circular_index(before, after, size, device):
    """torch's circular padding along one dimension: a negative pad crops first, and a positive pad
    wraps around what is left (``pad([0, 1, 2, 3, 4], (-1, 1))`` is ``[1, 2, 3, 4, 1]``). A pad past
    what is left would copy the padding onto itself: torch's overlap error."""
    if size + before + after < 0:
        raise RuntimeError("Negative padding value is resulting in an empty dimension")
    if before > size or after > size:
        raise RuntimeError("Padding value causes wrapping around more than once.")
    lo, kept = max(-before, 0), size - max(-before, 0) - max(-after, 0)
    left, right = max(before, 0), max(after, 0)
    if kept <= 0 or size + before + after == 0:
        if size + before + after:
            raise RuntimeError(_OVERLAP)
        return A.arange__start(0, 0, dtype=D.int64, device=device)
    if left > kept or right > kept:
        raise RuntimeError(_OVERLAP)
    j = A.arange__start(-left, kept + right, dtype=D.int64, device=device)
    return A.add__Scalar(A.remainder__Scalar(j, kept), lo)


def logsumexp(self, dim, keepdim=False):
    dims = list(dim) if not isinstance(dim, int) else [dim]
    if self.dtype._cat < 2:  # torch: integral and bool data in the default floating dtype
        self = A._to_copy(self, dtype=D.get_default_dtype())
    # complex data: the largest real part is the shift (torch's choice)
    m = A.amax(A.real(self) if self.dtype.is_complex else self, dims, True)
    finite = A.where__self(A.isinf(m), A.zeros_like(m), m)
    s = A.log(A.sum__dim_IntList(A.exp(A.sub__Tensor(self, finite)), dims, True))
    r = A.add__Tensor(s, finite)
    return r if keepdim else A.squeeze__dims(r, dims)


COMPOSITE = {
    "rms_norm": rms_norm, "embedding": embedding,
    "pad": pad, "logsumexp": logsumexp,
}
