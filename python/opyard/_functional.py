"""Functional forms (``opyard.add``, ...) and Tensor methods: the operator packets themselves.

A packet binds like a function when stored on a class, so ``x.sin()`` and
``opyard.sin(x)`` are one dispatcher call with no Python frame of ours.
"""

import builtins as _builtins
from collections.abc import Sequence as _Sequence

import numpy as np

from . import _core
from . import _dtype as D
from ._core import device as Device
from ._ops import ops
from ._aten._index import FUNCTIONS as _TORCH_FUNCTIONS
from ._aten._index import METHODS as _TORCH_METHODS
from ._factories import __all__ as _FACTORY_NAMES
from ._factories import tensor as _tensor_factory
from ._memory_format import channels_last, channels_last_3d, is_strides_like_format, preserve_format
from ._tensor import Size, Tensor
from ._surface import __all__ as _SURFACE_NAMES

_A = ops.aten

# Note [Public forms of the built-in operators]: a built-in packet is ``opyard.<name>`` and
# ``Tensor.<name>`` when torch has that form (``_aten/variants.txt``, torch's own answer): ``make gen``
# writes both lists into ``_aten/_index.py`` from the declared operators, so a new operator needs no
# line here. Python-level definitions (the factories, ``einsum``, ``norm``, the methods ``install``
# sets) win over a packet of the same name.
# Names opyard had before its forms followed torch's (torch has these in nn.functional, or not at
# all), kept so that code written against opyard keeps working.
_KEPT_FUNCTIONS = ("gelu", "hardtanh", "linear", "one_hot", "scaled_dot_product_attention", "silu")
_KEPT_METHODS = ("alias", "bucketize", "cat", "constant_pad_nd", "dropout", "embedding", "gelu", "hardtanh", "isin",
                 "layer_norm", "linear", "one_hot", "rms_norm", "rsub", "scaled_dot_product_attention",
                 "searchsorted", "silu", "stack", "std_mean", "var_mean")
_VARARGS = ("atleast_1d", "atleast_2d", "atleast_3d", "broadcast_tensors", "broadcast_shapes", "meshgrid",
             "block_diag", "cartesian_prod")
_PYTHON_LEVEL = frozenset(_FACTORY_NAMES) | frozenset(_SURFACE_NAMES) | {"einsum", "norm", "cdist", "tensordot", "stft", "istft", "nonzero", "unique",
                                             "unique_consecutive", *_VARARGS}
_PACKETS = tuple(n for n in _TORCH_FUNCTIONS + _KEPT_FUNCTIONS if n not in _PYTHON_LEVEL)

__all__ = list(_PACKETS) + [
    "concat", "concatenate", "negative", "absolute", "true_divide", "multiply", "subtract", "divide", "is_tensor",
    "promote_types", "result_type", "is_floating_point", "einsum", "norm", "channels_last", "channels_last_3d",
    "cdist", "tensordot", "lu", "stft", "istft", "nonzero", "unique", "unique_consecutive",
    "_segment_reduce", "unravel_index", *_VARARGS]

# Python's number types, taken before the packets below bind ``complex`` (torch.complex) here.
_NUMBERS = (bool, int, float, complex)

globals().update(zip(_PACKETS, _A._bind(_PACKETS)))

# The packets whose operators return ``Tensor[]`` (every such public form; a test derives the list
# from the schemas): their public forms return tuples, as torch's bindings do, while
# ``ops.aten.<name>`` keeps the operator's list (Note [Tensor lists as tuples], dispatch/packet.rs).
_TUPLE_RESULTS = ("_histogramdd_bin_edges", "chunk", "dsplit", "gradient", "histogramdd", "hsplit", "split", "split_copy",
                  "split_with_sizes", "split_with_sizes_copy", "tensor_split", "unbind", "unbind_copy",
                  "unsafe_chunk", "unsafe_split", "unsafe_split_with_sizes", "vsplit")
_TUPLE_FORMS = {name: _core._tuple_packet(packet) for name, packet in zip(_TUPLE_RESULTS, _A._bind(_TUPLE_RESULTS))}
globals().update((name, form) for name, form in _TUPLE_FORMS.items() if name in globals())

concat = concatenate = cat
negative = neg
absolute = abs
true_divide = divide = div
multiply = mul
subtract = sub
promote_types = D.promote_types
_segment_reduce = segment_reduce  # torch's older name of it


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(t):
    return t.is_floating_point()


def einsum(equation, *operands):
    """``opyard.einsum("ij,jk->ik", a, b)`` (operands may also come as one list)."""
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = operands[0]
    return _A.einsum.default(equation, list(operands))


def nonzero(input, *, out=None, as_tuple=False):
    """``opyard.nonzero`` / ``Tensor.nonzero`` (torch's Python binding): the ``[n, ndim]`` index
    matrix, or with ``as_tuple`` one index vector per dimension (a scalar counts as one)."""
    if not as_tuple:
        return _A.nonzero.default(input) if out is None else _A.nonzero.out(input, out=out)
    idx = _A.nonzero.default(input.reshape(1) if input.dim() == 0 else input)
    return tuple(_A.unbind.int(_A.t.default(idx), 0))


def _unique_result(output, inverse, counts, return_inverse, return_counts):
    if return_inverse and return_counts:
        return output, inverse, counts
    if return_inverse:
        return output, inverse
    if return_counts:
        return output, counts
    return output


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):
    """The distinct elements of ``input`` (or its distinct slices along ``dim``), sorted; with the
    index of each element's value (``return_inverse``) and each value's count (``return_counts``)
    (torch's Python-level function: ``_unique2`` or ``unique_dim``)."""
    if dim is None:
        output, inverse, counts = _A._unique2.default(input, sorted, return_inverse, return_counts)
    else:
        output, inverse, counts = _A.unique_dim.default(input, dim, sorted, return_inverse, return_counts)
    return _unique_result(output, inverse, counts, return_inverse, return_counts)


def unique_consecutive(input, return_inverse=False, return_counts=False, dim=None):
    """``input`` with every run of equal consecutive elements (or slices along ``dim``) kept once."""
    output, inverse, counts = _A.unique_consecutive.default(input, return_inverse, return_counts, dim)
    return _unique_result(output, inverse, counts, return_inverse, return_counts)


def norm(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """``opyard.norm`` / ``Tensor.norm`` (torch's Python-level function): ``"fro"`` (over at most two
    dims) and numbers are vector norms over ``dim`` (all elements when None); another string
    (``"nuc"``) is a matrix norm over the two dims."""
    dims = None if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    if isinstance(p, str):
        if p == "fro" and (dims is None or len(dims) <= 2):
            r = _A.linalg_vector_norm.default(input, 2, dims, keepdim, dtype=dtype)
        else:
            r = _A.linalg_matrix_norm.str_ord(input, p, dims if dims is not None else list(range(input.dim())),
                                              keepdim, dtype=dtype)
    else:
        r = _A.linalg_vector_norm.default(input, 2.0 if p is None else p, dims, keepdim, dtype=dtype)
    return r if out is None else out.copy_(r)


def tensordot(a, b, dims=2, out=None):
    """Contract the last ``dims`` dims of ``a`` with the first ``dims`` of ``b`` (or the dims listed
    as ``([dims of a], [dims of b])``)."""
    if isinstance(dims, Tensor):
        dims = dims.tolist() if dims.numel() > 1 else int(dims.item())
    if isinstance(dims, (list, tuple)):
        if len(dims) != 2:
            raise RuntimeError("tensordot expects dims to be a pair of dimension lists or an integer")
        dims_a, dims_b = dims
        dims_a = [dims_a] if isinstance(dims_a, int) else list(dims_a)
        dims_b = [dims_b] if isinstance(dims_b, int) else list(dims_b)
    else:
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > _builtins.min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    r = _A.tensordot.default(a, b, dims_a, dims_b)
    return r if out is None else out.copy_(r)


def lu(A, pivot=True, get_infos=False, out=None):
    """torch.lu (deprecated there for ``linalg.lu_factor``): ``(LU, pivots)``, and the ``infos`` too
    when ``get_infos`` (then singular inputs are not errors)."""
    result = _A._lu_with_info.default(A, pivot, not get_infos)
    r = tuple(result) if get_infos else (result[0], result[1])
    if out is not None:
        for o, x in zip(out, r):
            o.copy_(x)
        return out
    return r


def stft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
         normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """The short-time Fourier transform (torch.stft): with ``center``, the signal is padded by
    ``n_fft // 2`` on both sides (``pad_mode``) first."""
    return _A.stft.center(input, n_fft, hop_length, win_length, window, center, pad_mode, normalized, onesided,
                          return_complex, align_to_window)


def istft(input, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None,
          length=None, return_complex=False):
    """The inverse short-time Fourier transform (torch.istft)."""
    return _A.istft.default(input, n_fft, hop_length, win_length, window, center, normalized, onesided, length,
                            return_complex)


_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": None, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """The p-norm distance between each row of ``x1`` (..., P, M) and of ``x2`` (..., R, M):
    (..., P, R). ``compute_mode`` picks the matrix-product form of the euclidean distance (faster,
    less exact): always, never, or beyond 25 rows (torch's modes; torch's Python-level function)."""
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    return _A.cdist.default(x1, x2, p, _CDIST_MODES[compute_mode])


# Note [Variadic forms]: torch's ``atleast_1d(a, b)``, ``meshgrid(a, b, indexing=...)``,
# ``broadcast_tensors(a, b)``, ``block_diag(a, b)``, ``cartesian_prod(a, b)`` take their tensors as
# separate arguments (or one list) and call the ``Tensor[]`` operator: Python functions in torch too.

def _at_least(op, tensors):
    if len(tensors) == 1:
        tensors = tensors[0]
    if isinstance(tensors, Tensor):
        return op.default(tensors)
    return tuple(op.Sequence(list(tensors)))


def atleast_1d(*tensors):
    """``tensors`` with at least one dimension: a tensor for one argument, else a tuple."""
    return _at_least(_A.atleast_1d, tensors)


def atleast_2d(*tensors):
    """``tensors`` with at least two dimensions: a tensor for one argument, else a tuple."""
    return _at_least(_A.atleast_2d, tensors)


def atleast_3d(*tensors):
    """``tensors`` with at least three dimensions: a tensor for one argument, else a tuple."""
    return _at_least(_A.atleast_3d, tensors)


def broadcast_tensors(*tensors):
    """Views of ``tensors`` expanded to their common broadcast shape (a tuple)."""
    return tuple(_A.broadcast_tensors.default(list(tensors)))


def broadcast_shapes(*shapes):
    """The shape ``shapes`` (ints or sequences of ints) broadcast to, as ``opyard.Size``, without
    making tensors."""
    shapes = [(s,) if isinstance(s, int) else s for s in shapes if s is not None]
    for shape in shapes:
        if not isinstance(shape, _Sequence):  # torch reads any sequence (a str too: its sizes then fail to compare)
            raise RuntimeError(f"Input shapes should be of type ints, a tuple of ints, or a list of ints, got {shape}")
    common = [1] * _builtins.max((len(s) for s in shapes), default=0)
    for i, shape in enumerate(shapes):
        for idx in range(-1, -1 - len(shape), -1):
            if shape[idx] == common[idx]:
                continue
            if common[idx] == 1:
                if shape[idx] < 0:
                    raise ValueError("Attempting to broadcast a dimension with negative length!")
                common[idx] = shape[idx]
            elif shape[idx] != 1:
                raise RuntimeError(f"Attempting to broadcast a dimension of length {shape[idx]} at {idx}! Mismatching "
                                   f"argument at index {i} had {tuple(shape)}; but expected shape should be "
                                   f"broadcastable to {common}")
    for i, size in enumerate(common):
        if isinstance(size, float):  # torch.Size's own refusal
            raise TypeError(f"opyard.Size() takes an iterable of 'int' (item {i} is 'float')")
    return Size(common)


def unravel_index(indices, shape):
    """The coordinates in a tensor of ``shape`` of the flat (row-major) ``indices``: a tuple of one
    int64 tensor per dimension, each of ``indices``' shape. Indices wrap modulo the size (as torch)."""
    if indices.dtype.is_complex or indices.dtype.is_floating_point or indices.dtype is D.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if isinstance(shape, int):
        shape = (shape,)
    elif isinstance(shape, _Sequence):
        for dim in shape:
            if not isinstance(dim, int):
                raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(dim)}")
    else:
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    shape = tuple(int(d) for d in shape)
    if _builtins.any(d < 0 for d in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    coefs = [1] * len(shape)  # the row-major stride of each dimension
    for i in range(len(shape) - 2, -1, -1):
        coefs[i] = coefs[i + 1] * shape[i + 1]
    device = indices.device
    steps = _A.floor_divide.default(_A.unsqueeze.default(indices, -1), _int64_tensor(coefs, device))
    return tuple(_A.unbind.int(_A.remainder.Tensor(steps, _int64_tensor(list(shape), device)), -1))


def _int64_tensor(values, device):
    return _tensor_factory(values, dtype=D.int64, device=device)


def meshgrid(*tensors, indexing=None):
    """Coordinate grids of 0-d/1-d ``tensors``: ``indexing="ij"`` (matrix, the default) or ``"xy"``
    (Cartesian); views of the inputs, as a tuple."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    if indexing is None:
        return tuple(_A.meshgrid.default(list(tensors)))
    return tuple(_A.meshgrid.indexing(list(tensors), indexing=indexing))


def block_diag(*tensors):
    """A block-diagonal matrix of ``tensors`` (each 0-d, 1-d or 2-d)."""
    return _A.block_diag.default(list(tensors))


def cartesian_prod(*tensors):
    """The Cartesian product of 1-d ``tensors``: one row per combination."""
    return _A.cartesian_prod.default(list(tensors))


def result_type(a, b):
    from ._aten.common import tensor_result_dtype

    return tensor_result_dtype(a, b)


_METHOD_PACKETS = _TORCH_METHODS + _KEPT_METHODS

_DUNDERS = {
    "__add__": "add", "__radd__": "add", "__sub__": "sub", "__rsub__": "rsub", "__mul__": "mul",
    "__rmul__": "mul", "__truediv__": "div", "__pow__": "pow", "__matmul__": "matmul",
    "__eq__": "eq", "__ne__": "ne", "__lt__": "lt",
    "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__iadd__": "add_", "__isub__": "sub_",
    "__imul__": "mul_", "__itruediv__": "div_", "__ipow__": "pow_",
    "__floordiv__": "floor_divide", "__mod__": "remainder", "__imod__": "remainder_",
    "__and__": "bitwise_and", "__or__": "bitwise_or", "__xor__": "bitwise_xor",
    "__rand__": "bitwise_and", "__ror__": "bitwise_or", "__rxor__": "bitwise_xor",
    "__iand__": "bitwise_and_", "__ior__": "bitwise_or_", "__ixor__": "bitwise_xor_",
    "__lshift__": "bitwise_left_shift", "__rshift__": "bitwise_right_shift",
}
_UNARY_DUNDERS = {"__neg__": "neg", "__abs__": "abs", "__invert__": "bitwise_not"}

# Note [Operator dunders]: a binary dunder is the operator form of its packet (Note [Operator
# protocol], src/python/dispatch/operator_protocol.rs): when the other operand's type fits no overload it
# returns NotImplemented, so Python tries the other operand's reflected method and then raises its
# own "unsupported operand type(s)". Calling the packet itself (``opyard.add``, ``t.add``) still
# raises ArgumentError. The reflected helpers below take the same decision through operator forms
# (``_operator(name, 0)`` forms are called with the other operand first).
_OPERATOR_FORMS: dict = {}  # (packet name, position of the other operand) -> operator form


def _operator(name, other=1):
    key = (name, other)
    if key not in _OPERATOR_FORMS:
        _OPERATOR_FORMS[key] = _core._operator_packet(getattr(_A, name), other)
    return _OPERATOR_FORMS[key]


def _binop(form, rname, a, b):
    """``a <op> b`` as Python evaluates it, with ``form`` as ``a``'s method: the reflected method
    of ``b``'s type runs when ``form`` returns NotImplemented (how torch's ``reciprocal(self) *
    other`` reaches ``numpy.ndarray.__rmul__``)."""
    out = form(a, b)
    if out is NotImplemented and type(b) is not type(a):
        reflected = getattr(type(b), rname, None)
        if reflected is not None:
            try:
                return reflected(b, a)
            except TypeError:  # ``"s" * t`` asks the tensor for an index: torch's wrapper catches it
                return NotImplemented
    return out


def _fill_for(self, other, at_least=None):
    """``other`` (a Python number) as a tensor shaped like ``self`` in the dtype torch promotes the
    pair to (``at_least`` raises it); NotImplemented when ``other`` is no number."""
    if isinstance(other, np.generic):
        other = other.item()  # as the binder takes it: Note [Numpy scalars] (src/python/dispatch/binder/convert.rs)
    if not isinstance(other, _NUMBERS):
        fill = _operator("full_like")(self, other)  # a SymInt fills; anything else is NotImplemented
        if fill is NotImplemented:
            return fill
    dt = result_type(self, other)
    if at_least is not None:
        dt = D.promote_types(dt, at_least)
    return _A.full_like(self, other, dtype=dt)


def _rtruediv(self, other):
    if self.is_floating_point():
        return _binop(_operator("mul"), "__rmul__", _A.reciprocal(self), other)
    if isinstance(other, Tensor):
        return _A.div(other, self)
    fill = _fill_for(self, other, D.get_default_dtype())
    return fill if fill is NotImplemented else _A.div(fill, self)


def _rpow(self, other):
    return _operator("pow", 0)(other, self)


def _reflected_via_fill(name):
    """``other <op> self`` for ops without a Scalar-first overload: ``other`` as a tensor like
    ``self`` (a tensor ``other`` is used as it is)."""
    op = getattr(_A, name)

    def reflected(self, other):
        if isinstance(other, Tensor):
            return op(other, self)
        fill = _fill_for(self, other)
        return fill if fill is NotImplemented else op(fill, self)

    return reflected


_rfloordiv = _reflected_via_fill("floor_divide")
def _rmod(self, other):
    return _operator("remainder", 0)(other, self)
_rlshift = _reflected_via_fill("bitwise_left_shift")
_rrshift = _reflected_via_fill("bitwise_right_shift")


def _rmatmul(self, other):
    return _operator("matmul", 0)(other, self)


def _pos(self):
    return self


def _to(self, *args, dtype=None, device=None, non_blocking=False, copy=False, memory_format=None):
    """torch's three signatures: ``to(dtype, non_blocking, copy)``, ``to(device, dtype, non_blocking,
    copy)`` and ``to(other, non_blocking, copy)``, each with keyword ``memory_format``."""
    if memory_format is None and not copy and dtype is None and device is None and len(args) == 1 \
            and args[0].__class__ is D.dtype:
        # ``to(dtype)``, the common call: what the general parsing below decides for it.
        return self if args[0] is self.dtype else _A._to_copy(self, dtype=args[0], device=None)
    n_flags = 0  # trailing bools: (non_blocking[, copy]); a CPU copy has nothing to overlap with
    while n_flags < len(args) and args[len(args) - 1 - n_flags].__class__ is bool:
        n_flags += 1
    if n_flags:
        if n_flags > 2:
            raise TypeError(f"to() received an invalid combination of arguments: {args!r}")
        if n_flags == 2:
            copy = args[-1]
        args = args[:len(args) - n_flags]
    for a in args:
        if a is None:  # to(None, dtype): no device given
            continue
        if isinstance(a, D.dtype):
            dtype = a
        elif isinstance(a, (str, Device)):
            device = a
        elif isinstance(a, Tensor):
            dtype, device = a.dtype, a.device
        else:
            raise TypeError(f"to() received an invalid combination of arguments: {a!r}")
    if device is not None and not isinstance(device, Device):
        device = Device(device)
    same_dtype = dtype is None or dtype is self.dtype
    same_device = device is None or device == self._dev
    if same_dtype and same_device and not copy:
        r = self
    else:
        r = _A._to_copy(self, dtype=dtype, device=device)
    if memory_format is None or memory_format is preserve_format:
        return r
    # torch: a tensor whose strides already look like the requested layout is returned as is
    looks_like = is_strides_like_format(tuple(r.shape), r.stride(), memory_format) if \
        memory_format.name.startswith("channels_last") else r.is_contiguous()
    return r if looks_like and (r is not self or not copy) else _A.clone(r, memory_format=memory_format)


def _caster(dt):
    """``Tensor.float()`` and its kin: ``to(dt)``, with torch's keyword-only ``memory_format``."""
    def cast(self, *, memory_format=None):
        if memory_format is None:
            # ``_to(self, dt)`` without its argument parsing: the same ``_to_copy`` call, or ``self``.
            return self if self.dtype is dt else _A._to_copy(self, dtype=dt, device=None)
        return _to(self, dt, memory_format=memory_format)
    return cast


def _type_as(self, other):
    return _to(self, other.dtype)


def _cpu(self):
    return _to(self, "cpu")


def _cuda(self, device=None):
    return _to(self, "cuda" if device is None else Device("cuda", device) if isinstance(device, int) else device)


def _T(self):
    return _A.permute(self, list(range(self.dim() - 1, -1, -1)))


def _mT(self):
    return _A.transpose(self, -2, -1)


def _mH(self):
    if self.dim() < 2:
        raise RuntimeError(f"tensor.mH is only supported on matrices or batches of matrices. Got {self.dim()}-D "
                           "tensor.")
    return _A.adjoint(self)


def _H(self):
    n = self.dim()
    if n not in (0, 2):
        raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {n}-D tensor."
                           + (" For batches of matrices, consider using tensor.mH" if n > 2 else ""))
    return self if n == 0 else _A.adjoint(self)


def _real(self):
    return _A.real(self)


def _set_real(self, value):
    """``t.real = v``: ``v`` copied into the real parts (``t`` itself when it is real)."""
    part = _A.real(self)
    part.copy_(value) if isinstance(value, Tensor) else part.fill_(value)


def _imag(self):
    return _A.imag(self)


def _set_imag(self, value):
    """``t.imag = v``: ``v`` copied into the imaginary parts (a real tensor has none: torch's error)."""
    part = _A.imag(self)
    part.copy_(value) if isinstance(value, Tensor) else part.fill_(value)


def _sizes(args):
    return list(args[0]) if len(args) == 1 and isinstance(args[0], (list, tuple)) else list(args)


class _Default:
    """``aten::<name>.default``, looked up on the first call (not at import: the op is defined on
    first use) and then read from this holder, so a sized method costs one frame."""

    __slots__ = ("name", "op")

    def __init__(self, name):
        self.name, self.op = name, None

    def get(self):
        self.op = getattr(_A, self.name).default
        return self.op


_VIEW, _RESHAPE, _EXPAND, _PERMUTE = (_Default(n) for n in ("view", "reshape", "expand", "permute"))


def _view(self, *shape, dtype=None):
    if dtype is not None or (len(shape) == 1 and isinstance(shape[0], D.dtype)):
        return _A.view.dtype(self, dtype if dtype is not None else shape[0])
    op = _VIEW.op or _VIEW.get()
    return op(self, list(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else list(shape))


def _reshape(self, *shape):
    op = _RESHAPE.op or _RESHAPE.get()
    return op(self, list(shape[0]) if len(shape) == 1 and isinstance(shape[0], (list, tuple)) else list(shape))


def _expand(self, *sizes, implicit=False):
    op = _EXPAND.op or _EXPAND.get()
    return op(self, list(sizes[0]) if len(sizes) == 1 and isinstance(sizes[0], (list, tuple)) else list(sizes))


def _permute(self, *dims):
    op = _PERMUTE.op or _PERMUTE.get()
    return op(self, list(dims[0]) if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else list(dims))


def _sized(name):
    holder = _Default(name)  # defined on the first call, not at import

    def method(self, *size, **kwargs):
        return (holder.op or holder.get())(self, _sizes(size), **kwargs)
    return method


def _repeat(self, *sizes):
    return _A.repeat.default(self, _sizes(sizes))


def _flip(self, *dims):
    return _A.flip.default(self, _sizes(dims))


def install():
    """Bind the operator packets and the Python-level helpers onto ``Tensor``."""
    for name, packet in zip(_METHOD_PACKETS, _A._bind(_METHOD_PACKETS)):
        if name != "numel":
            setattr(Tensor, name, _TUPLE_FORMS.get(name, packet))
    for dunder, name in _DUNDERS.items():
        setattr(Tensor, dunder, _operator(name))
    for dunder, name in _UNARY_DUNDERS.items():
        setattr(Tensor, dunder, getattr(_A, name))
    Tensor.__rtruediv__ = _rtruediv
    Tensor.__rpow__ = _rpow
    Tensor.__rmatmul__ = _rmatmul
    Tensor.__rlshift__ = _rlshift
    Tensor.__rrshift__ = _rrshift
    # Python 2's names, which torch keeps as aliases.
    Tensor.__div__, Tensor.__rdiv__, Tensor.__idiv__ = Tensor.__truediv__, _rtruediv, Tensor.__itruediv__
    Tensor.__pos__ = _pos
    Tensor.__hash__ = object.__hash__
    Tensor.to = _to
    Tensor.norm = norm
    Tensor.lu = lu
    Tensor.stft = stft
    Tensor.istft = istft
    Tensor.nonzero = nonzero
    Tensor.unique = unique
    Tensor.unique_consecutive = unique_consecutive
    Tensor.cpu = _cpu
    Tensor.cuda = _cuda
    Tensor.type_as = _type_as
    Tensor.repeat = _repeat
    Tensor.flip = _flip
    Tensor.__rfloordiv__ = _rfloordiv
    Tensor.__rmod__ = _rmod
    # torch's alias methods: the same operators under their numpy-style names.
    for alias, name in (("true_divide", "div"), ("true_divide_", "div_"), ("divide", "div"), ("divide_", "div_"),
                        ("multiply", "mul"), ("multiply_", "mul_"), ("subtract", "sub"), ("subtract_", "sub_"),
                        ("negative", "neg"), ("negative_", "neg_"), ("absolute", "abs"), ("absolute_", "abs_")):
        if not hasattr(Tensor, alias) and hasattr(Tensor, name):
            setattr(Tensor, alias, getattr(Tensor, name))
    # Sizes as varargs or one list, in Rust; the Python methods decide every other call. They carry
    # torch's names (what a ``__torch_function__`` override logs as ``func.__name__``).
    for name, fn in (("view", _view), ("reshape", _reshape), ("expand", _expand), ("permute", _permute)):
        fn.__name__, fn.__qualname__ = name, f"Tensor.{name}"
        setattr(Tensor, name, _core._SizesMethod(getattr(_A, name), fn) if _core.FAST_PATHS else fn)
    for name in ("new_empty", "new_zeros", "new_ones", "tile", "sum_to_size", "resize_"):
        setattr(Tensor, name, _sized(name))
    Tensor.T = property(_T)
    Tensor.mT = property(_mT)
    Tensor.mH = property(_mH)
    Tensor.H = property(_H)
    Tensor.real = property(_real, _set_real)
    Tensor.imag = property(_imag, _set_imag)
    for name, dt in (("float", D.float32), ("double", D.float64), ("half", D.float16),
                     ("long", D.int64), ("int", D.int32), ("short", D.int16), ("bool", D.bool),
                     ("byte", D.uint8), ("char", D.int8), ("bfloat16", D.bfloat16),
                     ("cfloat", D.complex64), ("cdouble", D.complex128)):
        setattr(Tensor, name, _caster(dt))
    from ._indexing import getitem, setitem

    for name, fn in (("__getitem__", getitem), ("__setitem__", setitem)):
        fn.__name__, fn.__qualname__ = name, f"Tensor.{name}"
        setattr(Tensor, name, fn)


install()
