"""Metadata that a ``__torch_dispatch__`` subclass answers itself.

``Tensor._make_wrapper_subclass`` and ``Tensor._make_subclass`` take torch's options
``dispatch_sizes_strides_policy="sizes"|"strides"``, ``dispatch_device=True`` and
``dispatch_layout=True``. A tensor made with one of them asks its class's
``__torch_dispatch__`` for that metadata, through the operators torch uses:

=================================  =============================================================
``"strides"``                      ``stride()`` (``aten.sym_stride.default``), ``is_contiguous()``
                                   (``aten.is_contiguous.default`` / ``.memory_format``)
``"sizes"``                        the above, and ``size()``/``shape`` (``aten.sym_size.default``),
                                   ``dim()``/``ndim``/``len()`` (``aten.dim.default``),
                                   ``numel()`` (``aten.sym_numel.default``), ``storage_offset()``
                                   (``aten.sym_storage_offset.default``)
``dispatch_device``                ``device``, ``is_cpu``, ``is_cuda``, ``is_meta``, ``get_device()``
                                   (``prim.device.default``)
``dispatch_layout``                ``layout`` (``prim.layout.default``)
=================================  =============================================================

A handler returning ``None`` for a size, stride, numel, offset or contiguity query keeps the
metadata the tensor was made with (torch's default); ``dim``, ``device`` and ``layout`` must be
answered. Which queries a tensor routes is a bit set in its ``_python_meta`` field; the
accessors are installed on its class when the first such tensor is made, and read the field,
so plain tensors and other subclasses keep their accessors untouched.
"""

from . import _core
from . import _dtype as D  # noqa: F401  (dtypes load before the operators below are defined)
from ._ops import Tag, ops
from ._registration import KernelLibrary
from ._tensor import Size, Tensor, is_contiguous_strides, strided

__all__ = ["SIZES", "STRIDES", "DEVICE", "LAYOUT", "policy_bits", "set_policy", "display_name", "NONE_ANSWERS"]

SIZES, STRIDES, DEVICE, LAYOUT = 1, 2, 4, 8


def policy_bits(sizes_strides_policy, dispatch_device, dispatch_layout):
    """The ``_python_meta`` bits of these options (torch's checks and messages)."""
    bits = 0
    if sizes_strides_policy is not None:
        if sizes_strides_policy == "sizes":
            bits |= SIZES | STRIDES
        elif sizes_strides_policy == "strides":
            bits |= STRIDES
        else:
            raise ValueError(f"Unknown sizes_strides_policy: {sizes_strides_policy}; expected 'strides' or 'sizes'")
    if dispatch_device:
        bits |= DEVICE
    if dispatch_layout:
        bits |= LAYOUT
    return bits


def set_policy(t, sizes_strides_policy, dispatch_device, dispatch_layout):
    """Route ``t``'s metadata queries that these options name through its class's handler."""
    bits = policy_bits(sizes_strides_policy, dispatch_device, dispatch_layout)
    if bits:
        _install(type(t))
        t._python_meta = bits
    return t


# --- the operators the queries go through ----------------------------------------------------------
# Their kernels answer from the metadata the tensor was made with: what runs when a handler
# passes the call on below the ``Python`` key (``super().__torch_dispatch__``, ``no_dispatch()``).

def _stored_sizes(self):
    return Size(_core.TensorBase.shape.__get__(self))


def _stored_strides(self):
    return Tensor.stride(self)


def _stored_contiguous(self, memory_format=None):
    return Tensor.is_contiguous(self, memory_format)


def _dim_of(self, dim):
    shape = _core.TensorBase.shape.__get__(self)
    n = max(len(shape), 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def _scalar(self):
    data = self._data
    if data.size != 1:
        raise RuntimeError(f"a Tensor with {data.size} elements cannot be converted to Scalar")
    return data.reshape(()).item()


def _non_overlapping_and_dense(self):
    shape, strides = _stored_sizes(self), _stored_strides(self)
    dims = sorted((st, sz) for sz, st in zip(shape, strides) if sz != 1)
    expected = 1
    for st, sz in dims:
        if st != expected:
            return False
        expected *= sz
    return True


def _strides_like(self, memory_format):
    return Tensor.is_contiguous(self, memory_format) if memory_format.name.startswith("channels_last") \
        else is_contiguous_strides(_stored_sizes(self), _stored_strides(self))


_ATEN = {
    "sym_size(Tensor self) -> SymInt[]": ("sym_size", _stored_sizes),
    "sym_size.int(Tensor self, int dim) -> SymInt": ("sym_size.int", lambda self, dim: _stored_sizes(self)[_dim_of(self, dim)]),
    "sym_stride(Tensor self) -> SymInt[]": ("sym_stride", _stored_strides),
    "sym_stride.int(Tensor self, int dim) -> SymInt":
        ("sym_stride.int", lambda self, dim: _stored_strides(self)[_dim_of(self, dim)]),
    "sym_numel(Tensor self) -> SymInt": ("sym_numel", lambda self: _stored_sizes(self).numel()),
    "sym_storage_offset(Tensor self) -> SymInt": ("sym_storage_offset", lambda self: Tensor.storage_offset(self)),
    "dim(Tensor self) -> int": ("dim", lambda self: len(_stored_sizes(self))),
    "is_contiguous(Tensor self) -> bool": ("is_contiguous", _stored_contiguous),
    "is_contiguous.memory_format(Tensor self, MemoryFormat memory_format) -> bool":
        ("is_contiguous.memory_format", _stored_contiguous),
    "sym_is_contiguous(Tensor self, MemoryFormat memory_format=contiguous_format) -> SymBool":
        ("sym_is_contiguous", _stored_contiguous),
    "is_strides_like_format(Tensor self, MemoryFormat memory_format) -> bool":
        ("is_strides_like_format", _strides_like),
    "is_non_overlapping_and_dense(Tensor self) -> bool":
        ("is_non_overlapping_and_dense", _non_overlapping_and_dense),
    # ``Tensor.item()`` of a ``__torch_dispatch__`` tensor asks its handler through this one.
    "_local_scalar_dense(Tensor self) -> Scalar": ("_local_scalar_dense", lambda self: _scalar(self)),
}
_PRIM = {
    "device(Tensor a) -> Device": ("device", lambda a: a._dev),
    "layout(Tensor a) -> Layout": ("layout", lambda a: strided),
}


def _set_source(self, source):
    """``self.set_(source)``: ``self`` takes ``source``'s memory, sizes and strides (torch's
    ``set_.source_Tensor``), so each sees the other's writes."""
    self._data = source._data
    self._meta_strides = source._meta_strides
    self._meta_offset = source._meta_offset
    self._bump_version()
    return self


def _set_empty(self):
    """``self.set_()``: ``self`` becomes an empty tensor of its dtype and device."""
    self._data = self._data[(slice(0, 0),) * 0].reshape(-1)[:0]
    self._meta_strides = None if self._meta_strides is None else (1,)
    self._meta_offset = 0
    self._bump_version()
    return self


# ``set_`` is a metadata change as well (torch tags it ``inplace_view``): a ``__torch_dispatch__``
# subclass sees it (``x.set_(y)`` on a ``_make_subclass`` tensor).
_ATEN_SET = {
    "set_.source_Tensor(Tensor(a!) self, Tensor source) -> Tensor(a!)": ("set_.source_Tensor", _set_source),
    "set_(Tensor(a!) self) -> Tensor(a!)": ("set_", _set_empty),
}


def _define(ns, table, tags=()):
    lib = KernelLibrary(ns, "FRAGMENT")
    # An operator of the built-in table (``_local_scalar_dense``) is its own, defined there on first
    # use: asking for it here (``_find_op``) would define its packet with ``import opyard``.
    mine = {schema: row for schema, row in table.items()
            if not _core._is_pending(f"{ns}::{row[0].partition('.')[0]}") and _core._find_op(f"{ns}::{row[0]}") is None}
    if mine:  # one core call each (Note [Bulk registration], src/registry/bulk.rs)
        lib.define_many(list(mine), tags=tags)
        lib.impl_many([(name, "CompositeExplicitAutograd", kernel, False) for name, kernel in mine.values()])
    return lib


# Kept for the life of the module: destroying them would undefine the operators.
_LIBS = (_define("aten", _ATEN), _define("prim", _PRIM),
         _define("aten", _ATEN_SET, tags=(Tag.inplace, Tag.inplace_view)))
Tensor.set_ = ops.aten.set_


def _op(name):
    return _core._find_op(name)


_SYM_SIZE, _SYM_STRIDE, _SYM_NUMEL = _op("aten::sym_size"), _op("aten::sym_stride"), _op("aten::sym_numel")
_SYM_OFFSET, _DIM = _op("aten::sym_storage_offset"), _op("aten::dim")
_IS_CONTIGUOUS, _IS_CONTIGUOUS_FORMAT = _op("aten::is_contiguous"), _op("aten::is_contiguous.memory_format")
_DEVICE, _LAYOUT = _op("prim::device"), _op("prim::layout")

#: How torch names these operators in "Multiple dispatch failed for '...'" (it calls the packet).
_DISPLAY = {op: "opyard.ops." + op.name().replace("::", ".").split(".")[0] + "." + op.name().split("::")[1].split(".")[0]
            for op in (_SYM_SIZE, _SYM_STRIDE, _SYM_NUMEL, _SYM_OFFSET, _DIM, _IS_CONTIGUOUS,
                       _IS_CONTIGUOUS_FORMAT, _DEVICE, _LAYOUT)}


def _must_answer(what, expected):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"{what} returned invalid type NoneType, expected {expected}")
    return refuse


#: operator -> what a handler's ``None`` means for it (the Python key's fallback reads this): the
#: metadata the tensor was made with, as torch's defaults, or torch's error where an answer is due.
NONE_ANSWERS = {
    _SYM_SIZE: _stored_sizes, _SYM_STRIDE: _stored_strides, _SYM_NUMEL: lambda self: _stored_sizes(self).numel(),
    _SYM_OFFSET: lambda self: Tensor.storage_offset(self), _IS_CONTIGUOUS: _stored_contiguous,
    _IS_CONTIGUOUS_FORMAT: _stored_contiguous, _DIM: _must_answer("dim", "int"),
    _DEVICE: _must_answer("device", "Device"), _LAYOUT: _must_answer("layout", "Layout"),
}


def display_name(op):
    """``op`` as torch names it in a dispatch failure: ``opyard.ops.aten.sym_size`` for the metadata
    operators (torch calls their packets), ``opyard._ops.aten.neg.default`` for the others."""
    return _DISPLAY.get(op) or f"{op.__module__}.{op.__name__}"


def _required(op, value, what, expected):
    if value is None:
        raise RuntimeError(f"{what} returned invalid type NoneType, expected {expected}")
    return value


# --- the accessors, per query ---------------------------------------------------------------------

def _dim(self):
    return int(_required(_DIM, _DIM(self), "dim", "int"))


def _sizes(self):
    out = _SYM_SIZE(self)
    return _stored_sizes(self) if out is None else Size(out)


def _strides(self):
    out = _SYM_STRIDE(self)
    return _stored_strides(self) if out is None else tuple(out)


def _wrap(self, dim, ndim):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


def _make_accessors():
    """name -> (bit, function of (prev, self, *args)): ``prev`` is the class's accessor before."""

    def size(prev, self, dim=None):
        if dim is None:
            return _sizes(self)
        d = _wrap(self, dim, _dim(self))  # torch asks ``dim`` first, then the sizes
        return _sizes(self)[d]

    def stride(prev, self, dim=None):
        st = _strides(self)
        return st if dim is None else st[_wrap(self, dim, len(st))]

    def is_contiguous(prev, self, memory_format=None):
        out = _IS_CONTIGUOUS(self) if memory_format is None else _IS_CONTIGUOUS_FORMAT(self, memory_format)
        return _stored_contiguous(self, memory_format) if out is None else bool(out)

    def numel(prev, self):
        out = _SYM_NUMEL(self)
        return _stored_sizes(self).numel() if out is None else int(out)

    def storage_offset(prev, self):
        out = _SYM_OFFSET(self)
        return Tensor.storage_offset(self) if out is None else int(out)

    def length(prev, self):
        if _dim(self) == 0:
            raise TypeError("len() of a 0-d tensor")
        return _sizes(self)[0]

    def device(prev, self):
        return _required(_DEVICE, _DEVICE(self), "device", "Device")

    def layout(prev, self):
        return _required(_LAYOUT, _LAYOUT(self), "layout", "Layout")

    def device_type(kind):
        return lambda prev, self: device(prev, self).type == kind

    def get_device(prev, self):
        dev = device(prev, self)
        return -1 if dev.type in ("cpu", "meta") else (dev.index or 0)

    methods = {
        "size": (SIZES, size), "stride": (STRIDES, stride), "is_contiguous": (STRIDES, is_contiguous),
        "dim": (SIZES, lambda prev, self: _dim(self)), "ndimension": (SIZES, lambda prev, self: _dim(self)),
        "numel": (SIZES, numel), "nelement": (SIZES, numel), "storage_offset": (SIZES, storage_offset),
        "__len__": (SIZES, length), "get_device": (DEVICE, get_device),
    }
    properties = {
        "shape": (SIZES, lambda prev, self: _sizes(self)), "ndim": (SIZES, lambda prev, self: _dim(self)),
        "device": (DEVICE, device), "layout": (LAYOUT, layout), "is_cpu": (DEVICE, device_type("cpu")),
        "is_cuda": (DEVICE, device_type("cuda")), "is_meta": (DEVICE, device_type("meta")),
    }
    return methods, properties


_METHODS, _PROPERTIES = _make_accessors()


def _lookup(cls, name):
    """The attribute ``name`` as ``cls`` defines or inherits it (the descriptor itself)."""
    for klass in cls.__mro__:
        if name in klass.__dict__:
            return klass.__dict__[name]
    return None


def _method(name, bit, custom, prev):
    def method(self, *args, **kwargs):
        if self._python_meta & bit:
            return custom(prev, self, *args, **kwargs)
        return prev(self, *args, **kwargs)

    method.__name__, method.__qualname__ = name, f"Tensor.{name}"
    method.__doc__ = getattr(prev, "__doc__", None)
    return method


class _Property:
    """A metadata property answered by the handler for tensors whose ``_python_meta`` has ``bit``."""

    __slots__ = ("name", "bit", "custom", "prev")

    def __init__(self, name, bit, custom, prev):
        self.name, self.bit, self.custom, self.prev = name, bit, custom, prev

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        if obj._python_meta & self.bit:
            return self.custom(self.prev, obj)
        return self.prev.__get__(obj, cls)

    def __set__(self, obj, value):
        setter = getattr(self.prev, "__set__", None)
        if setter is None:
            raise AttributeError(f"property '{self.name}' of '{type(obj).__name__}' object has no setter")
        setter(obj, value)


def _install(cls):
    """Give ``cls`` the routing accessors (once; a name ``cls`` defines itself is left alone)."""
    if "_opyard_meta_routed" in cls.__dict__:
        return
    for name, (bit, custom) in _METHODS.items():
        if name not in cls.__dict__:
            setattr(cls, name, _method(name, bit, custom, _lookup(cls, name)))
    for name, (bit, custom) in _PROPERTIES.items():
        if name not in cls.__dict__:
            setattr(cls, name, _Property(name, bit, custom, _lookup(cls, name)))
    cls._opyard_meta_routed = True
