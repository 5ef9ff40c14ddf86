"""What a trace records for a call: the operator, or what its composition calls (torch's rule).

torch's ``make_fx`` sees operators below autograd, so an operator whose CPU autograd entry is its
CompositeImplicitAutograd kernel is never seen: the trace records what that kernel calls. opyard's
trace sits above autograd (the ``Tracer`` key), so ``decomposition(op)`` answers, per operator,
what torch's trace would see:

- ``None``: record the call (a kernel of its own, in torch as here);
- ``CALL_COMPOSITE``: run the operator's own CompositeImplicitAutograd kernel under the trace, which
  records the calls it makes;
- a function: the composition torch's CompositeImplicitAutograd kernel makes, for the operators
  torch composes and opyard runs as one kernel (``reshape``, ``softmax.int``, ``narrow``, ...).
  Each is written from torch's C++ composition and checked against torch's traces
  (``tests/fx/test_make_fx_against_torch.py``).

An operator composite here that torch runs as a kernel of its own (``RECORDED``) is recorded, as
torch records it. Which operators torch composes is data (``tests/data/torch_make_fx.json``, from
torch's dispatch tables); a test keeps ``RECORDED`` and ``COMPOSED`` equal to what it says.
"""

from .. import _dtype as D
from .._memory_format import contiguous_format, preserve_format
from .._ops import ops, registered_keys

__all__ = ["decomposition", "composition", "CALL_COMPOSITE", "RECORDED", "COMPOSED"]

A = ops.aten
CALL_COMPOSITE = object()

# CompositeImplicitAutograd here, a kernel of its own in torch.
RECORDED = frozenset((
    "aten::embedding", "aten::logsumexp", "aten::norm.Scalar", "aten::norm.ScalarOpt_dim", "aten::copy",
    "aten::fill.Scalar", "aten::fill.Tensor", "aten::take", "aten::unsafe_split.Tensor",
    "aten::unsafe_split_with_sizes", "aten::block_diag", "aten::diag_embed", "aten::rot90", "aten::alias_copy",
    "aten::as_strided_copy", "aten::diagonal_copy", "aten::expand_copy", "aten::narrow_copy", "aten::permute_copy",
    "aten::select_copy.int", "aten::slice_copy.Tensor", "aten::squeeze_copy", "aten::squeeze_copy.dim",
    "aten::squeeze_copy.dims", "aten::t_copy", "aten::transpose_copy.int", "aten::unsqueeze_copy",
    "aten::unfold_copy", "aten::view_copy", "aten::view_copy.dtype", "aten::detach_copy", "aten::split_copy.Tensor",
    "aten::split_with_sizes_copy", "aten::unbind_copy.int", "aten::slice_scatter", "aten::select_scatter",
    "aten::diagonal_scatter", "aten::as_strided_scatter", "aten::cholesky", "aten::logspace.out",
    "aten::logspace.Tensor_Tensor_out", "aten::logspace.Tensor_Scalar_out", "aten::logspace.Scalar_Tensor_out",
    "aten::var_mean.correction", "aten::std_mean.correction", "aten::hann_window", "aten::hann_window.periodic",
    "aten::hamming_window", "aten::hamming_window.periodic", "aten::blackman_window",
    "aten::blackman_window.periodic", "aten::bartlett_window", "aten::bartlett_window.periodic",
    "aten::kaiser_window", "aten::kaiser_window.periodic", "aten::hamming_window.periodic_alpha",
    "aten::hamming_window.periodic_alpha_beta", "aten::kaiser_window.beta", "aten::native_channel_shuffle",
    "aten::affine_grid_generator",
))


def _wrap(dim, n):
    n = max(n, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def _view_strides(shape, stride, target):
    """The strides of ``target`` seen over memory laid out as ``shape``/``stride`` without a copy, or
    None when that needs one (torch's ``computeStride``)."""
    if not shape:
        return [1] * len(target)
    numel = 1
    for s in shape:
        numel *= s
    if numel == 0:
        if list(shape) == list(target):
            return list(stride)
        out = [0] * len(target)
        for d in reversed(range(len(target))):
            out[d] = 1 if d == len(target) - 1 else max(target[d + 1], 1) * out[d + 1]
        return out
    out = [0] * len(target)
    view_d = len(target) - 1
    chunk = stride[-1]
    tensor_numel = view_numel = 1
    for d in reversed(range(len(shape))):
        tensor_numel *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and stride[d - 1] != tensor_numel * chunk):
            while view_d >= 0 and (view_numel < tensor_numel or target[view_d] == 1):
                out[view_d] = view_numel * chunk
                view_numel *= target[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                chunk = stride[d - 1]
                tensor_numel = view_numel = 1
    return out if view_d == -1 else None


def _strides_allow(x, shape):
    """Whether ``x`` can be seen with ``shape`` without a copy: a question of its metadata only (no
    operator call, which a trace or a dispatch mode would see)."""
    return _view_strides(list(x.shape), list(x.stride()), list(shape)) is not None


def _reshape(x, shape):
    shape = list(shape)
    if x.is_contiguous():
        return A.view.default(x, shape)
    numel = x.numel()
    if -1 in shape:
        known = 1
        for s in shape:
            if s != -1:
                known *= s
        shape[shape.index(-1)] = numel // known if known else 0
    if _strides_allow(x, shape):
        return A.view.default(x, shape)
    return A._unsafe_view.default(A.clone.default(x, memory_format=contiguous_format), shape)


def _softmax_with(kernel):
    def compose(x, dim, dtype=None):
        if dtype is not None and dtype != x.dtype:
            x = A._to_copy.default(x, dtype=dtype, layout=x.layout, device=x.device)
        return kernel(x, dim, False)
    return compose


def _narrow(x, dim, start, length):
    size = x.shape[_wrap(dim, x.dim())]
    if start < 0:
        start += size
    return A.slice.Tensor(x, dim, start, start + length)


def _movedim_order(n, source, destination):
    src = [_wrap(d, n) for d in source]
    dst = [_wrap(d, n) for d in destination]
    order = [-1] * n
    for s, d in zip(src, dst):
        order[d] = s
    rest = iter(d for d in range(n) if d not in src)
    return [o if o != -1 else next(rest) for o in order]


def _movedim(x, source, destination):
    if isinstance(source, int):
        source, destination = [source], [destination]
    return A.permute.default(x, _movedim_order(x.dim(), source, destination))


def _scalar_tensor(value, like):
    from .._functional import result_type

    return A.scalar_tensor.default(value, dtype=result_type(like, value), layout=like.layout, device=like.device)


def _where_scalar_other(condition, x, other):
    return A.where.self(condition, x, _scalar_tensor(other, x))


def _where_scalar_self(condition, x, other):
    return A.where.self(condition, _scalar_tensor(x, other), other)


def _argsort(x, dim=-1, descending=False):
    return A.sort.default(x, dim, descending)[1]


def _argsort_stable(x, *, stable, dim=-1, descending=False):
    return A.sort.stable(x, stable=stable, dim=dim, descending=descending)[1]


def _outer(a, b):
    return A.mul.Tensor(A.reshape.default(a, [a.shape[0], 1]), b)


def _isfinite(x):
    if not (x.is_floating_point() or x.is_complex()):
        return A.ones_like.default(x, dtype=D.bool, memory_format=preserve_format)
    return _finite(x)


def _finite(x):
    """``(x == x) * (x.abs() != inf)``, its right operand made first (the order torch's compiled
    expression makes them in)."""
    not_inf = A.ne.Scalar(A.abs.default(x), float("inf"))
    return A.mul.Tensor(A.eq.Tensor(x, x), not_inf)


def _isclose(x, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    close = A.eq.Tensor(x, other)
    if equal_nan and (x.is_floating_point() or x.is_complex()):
        close = A.bitwise_or_.Tensor(close, A.bitwise_and.Tensor(A.isnan.default(x), A.isnan.default(other)))
    allowed = A.add.Scalar(A.abs.default(A.mul.Scalar(other, rtol)), atol)
    actual = A.abs.default(A.sub.Tensor(x, other))
    finite = _finite(actual)
    return A.bitwise_or_.Tensor(close, A.bitwise_and_.Tensor(finite, A.le.Tensor(actual, allowed)))


def _repeat_interleave_int(x, repeats, dim=None, *, output_size=None):
    if dim is None:
        x = A.flatten.using_ints(x)
        dim = 0
    dim = _wrap(dim, x.dim())
    shape = list(x.shape)
    expanded = shape[:dim + 1] + [repeats] + shape[dim + 1:]
    out = A.expand.default(A.unsqueeze.default(x, dim + 1), expanded)
    shape[dim] *= repeats
    return A.reshape.default(A.clone.default(out, memory_format=contiguous_format), shape)


def _nanmean(x, dim=None, keepdim=False, *, dtype=None):
    counted = A.sum.dim_IntList(A.logical_not_.default(A.ne.Tensor(*([A.alias.default(x)] * 2))), dim, keepdim)
    return A.div.Tensor(A.nansum.default(x, dim, keepdim, dtype=dtype) if dtype is not None
                        else _nansum(x, dim, keepdim), counted)


def _nansum(x, dim, keepdim):
    if dim is None and not keepdim:
        return A.nansum.default(x)
    return A.nansum.default(x, dim, keepdim)


def _square(x):
    return A.pow.Tensor_Scalar(x, 2)


def _square_(x):
    return A.pow_.Scalar(x, 2)


COMPOSED = {
    "aten::reshape": _reshape,
    "aten::softmax.int": _softmax_with(lambda x, dim, half: A._softmax.default(x, dim, half)),
    "aten::log_softmax.int": _softmax_with(lambda x, dim, half: A._log_softmax.default(x, dim, half)),
    "aten::narrow": _narrow,
    "aten::movedim.int": _movedim,
    "aten::movedim.intlist": _movedim,
    "aten::max.other": lambda x, other: A.maximum.default(x, other),
    "aten::min.other": lambda x, other: A.minimum.default(x, other),
    "aten::where.ScalarOther": _where_scalar_other,
    "aten::where.ScalarSelf": _where_scalar_self,
    "aten::argsort": _argsort,
    "aten::argsort.stable": _argsort_stable,
    "aten::argwhere": lambda x: A.nonzero.default(x),
    "aten::outer": _outer,
    "aten::isfinite": _isfinite,
    "aten::isclose": _isclose,
    "aten::repeat_interleave.self_int": _repeat_interleave_int,
    "aten::split.sizes": lambda x, split_size, dim=0: A.split_with_sizes.default(x, split_size, dim),
    "aten::square": _square,
    "aten::square_": _square_,
    "aten::nanmean": _nanmean,
}


def composition(op):
    """torch's composition of ``op`` when torch composes it and opyard runs it as one kernel, else
    None: what a ``__torch_dispatch__`` handler sees in place of ``op`` (torch's handlers sit below
    its CompositeImplicitAutograd kernels)."""
    return COMPOSED.get(op.name())


def decomposition(op):
    """What a trace does with a call of ``op`` (module docstring); cached on first use per operator."""
    name = op.name()
    found = _SEEN.get(name, _MISSING)
    if found is not _MISSING and found[0] is op:
        return found[1]
    answer = COMPOSED.get(name)
    if answer is None and name not in RECORDED:
        keys = registered_keys(name)
        # torch's table: the CompositeImplicitAutograd kernel serves autograd only when no kernel of
        # the backend or of autograd is registered beside it.
        if "CompositeImplicitAutograd" in keys and not keys & _OWN_KERNEL_KEYS:
            answer = CALL_COMPOSITE
    _SEEN[name] = (op, answer)
    return answer


_OWN_KERNEL_KEYS = frozenset(("CPU", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional",
                             "Autograd", "AutogradCPU"))
_MISSING = object()
_SEEN = {}
