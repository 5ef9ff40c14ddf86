"""``opyard.Tensor``: a numpy array that lives in the dispatcher.

Note [Tensor layout]: a tensor is a ``_core.TensorBase``, which holds all of
its state: the key set the dispatcher reads (``_keyset``), ``_data`` (a numpy
array), ``_dev``, ``_base``, the autograd fields and the version counter, each
a struct member that reads and writes like a ``__slots__`` slot (see Note
[Tensor slots] in ``src/python/tensor/slots.rs``). ``Tensor`` adds behaviour,
not state: a plain tensor has no ``__dict__`` (a user's subclass gets one, as
Python gives every subclass without ``__slots__``). Meta tensors hold a
zero-stride broadcast array: shape and dtype without memory. ``dtype``,
``shape``, ``ndim`` and ``device`` are answered in Rust from the array's header
(no dictionary lookup; ``shape`` reuses its ``Size`` while the sizes do not
change). Views share their root's version counter (``_vc``), created on first
use.
"""

import numpy as np

from . import _core
from . import _dtype as D
from . import _function_protocol as _fp
from ._keys import BACKEND_OF_DEVICE, DispatchKey, DispatchKeySet

__all__ = ["Tensor", "Size", "is_tensor", "device", "memory_format", "contiguous_format", "preserve_format",
           "channels_last", "channels_last_3d",
           "layout", "strided", "sparse_coo", "sparse_csr", "sparse_csc", "sparse_bsr", "sparse_bsc", "jagged"]

_new = _core.TensorBase.__new__
_make_tensor = _core._make_tensor
_share_state = _core._share_state

CPU = _core._CPU_DEVICE  # every tensor's default ``_dev``: ``dev is CPU`` tests are exact
META = _core.device("meta")
CPU_KEYS = DispatchKeySet(DispatchKey.CPU).raw()
_AUTOGRAD_SET = DispatchKeySet(DispatchKey.Autograd)
_AUTOGRAD_KEYS = _AUTOGRAD_SET.raw()


_BACKEND_BITS = {name: DispatchKeySet(key).raw() for name, key in BACKEND_OF_DEVICE.items()}
_PRIVATEUSE1_BITS = _BACKEND_BITS["privateuseone"]


def device_keys(dev):
    """The backend key bits of a device (a renamed PrivateUse1 backend is PrivateUse1)."""
    return _BACKEND_BITS.get(dev.type, _PRIVATEUSE1_BITS)


class Size(tuple):
    """A tensor's shape: a tuple that prints as ``opyard.Size([2, 3])``."""

    __slots__ = ()

    def __repr__(self):
        return f"opyard.Size({list(self)})"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, i):
        out = tuple.__getitem__(self, i)
        return Size(out) if isinstance(i, slice) else out


# memory formats live in their own module; re-exported here, where code has always found them
from ._memory_format import (
    channels_last, channels_last_3d, contiguous_format, is_memory_format_strides, memory_format, preserve_format)


class layout:
    """A tensor's memory layout (``torch.layout``); opyard tensors are all ``opyard.strided``."""

    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return f"opyard.{self.name}"

    def __reduce__(self):
        return self.name


strided = layout("strided")
# torch's other layouts: opyard's tensors are strided, but code names these (``t.layout == opyard.sparse_coo``)
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
sparse_csc = layout("sparse_csc")
sparse_bsr = layout("sparse_bsr")
sparse_bsc = layout("sparse_bsc")
_mkldnn = layout("_mkldnn")
jagged = layout("jagged")
# A `Layout` argument also takes an int, torch's code of a layout: its position here (torch's enum order).
LAYOUTS = (strided, sparse_coo, sparse_csr, _mkldnn, sparse_csc, sparse_bsr, sparse_bsc, jagged)


def _make(arr, dev=None):
    """A new tensor around ``arr`` (cpu unless ``dev`` says otherwise). The fast constructor."""
    if dev is None or dev is CPU:
        return _make_tensor(Tensor, arr, CPU_KEYS)
    return _make_tensor(Tensor, arr, device_keys(dev), dev)


def _make_meta(shape, dt, strides=None, offset=0):
    """A meta tensor: shape, dtype and strides (contiguous unless given), no memory."""
    t = _make_tensor(Tensor, np.broadcast_to(_ZERO[dt.np], tuple(int(s) for s in shape)), _META_KEYS, META)
    if strides is not None:
        t._meta_strides = tuple(strides)
    if offset:
        t._meta_offset = offset
    return t


_META_KEYS = DispatchKeySet(DispatchKey.Meta).raw()
# One read-only zero per dtype: a meta tensor's ``_data`` broadcasts it (see Note [Tensor layout]).
def _read_only_zero(d):
    z = np.zeros((), dtype=d.np)
    z.flags.writeable = False
    return z


_ZERO = D.by_np(_read_only_zero)


def _make_view(arr, base):
    """A tensor viewing ``base``'s memory: shares its version counter and records its base."""
    cls = type(base)
    if cls is not Tensor:
        # ``_keep_subclass``: True keeps the base's class for views; a class names the views' class.
        keep = getattr(cls, "_keep_subclass", None)
        cls = keep if isinstance(keep, type) else cls if keep else Tensor
    keys = base._keyset
    t = _make_tensor(cls, arr, keys, base._dev)
    root = base._base if base._base is not None else base
    t._base = root
    t._vc = vc = root._counter()
    # Made with nothing recording unless an autograd kernel now records it (Note [View history] in
    # src/python/autograd/view_history.rs): a view of a tensor that requires grad is of kind 1, "made in
    # no_grad mode" (it requires grad too, with no history and no AccumulateGrad of its own); a view of
    # one without history is of the default kind 0, and follows a history its base gains later.
    t._view_meta = vc.value << 2 | (1 if keys & _AUTOGRAD_KEYS else 0)
    return t


def _make_detached(arr, base):
    """``base.detach()``: a tensor over ``base``'s memory sharing its version counter, but no view of
    it for autograd (no ``_base``, as torch's detach: an in-place change of it is no in-place change
    of a view of ``base``)."""
    cls = type(base)
    if cls is not Tensor:
        keep = getattr(cls, "_keep_subclass", None)
        cls = keep if isinstance(keep, type) else cls if keep else Tensor
    t = _make_tensor(cls, arr, base._keyset & ~_AUTOGRAD_KEYS, base._dev)
    root = base._base if base._base is not None else base
    t._vc = root._counter()
    return t


def _retype(t, cls):
    """A new ``cls`` object with ``t``'s state (data, version counter, autograd fields and, when
    both have one, its ``__dict__``): what ``t.__class__ = cls`` did while every tensor had a dict."""
    out = _new(cls)
    _share_state(out, t)
    d = getattr(t, "__dict__", None)
    if d:
        out.__dict__.update(d)
    return out


def contiguous_strides(shape):
    """Row-major strides (in elements) of ``shape``."""
    strides, acc = [], 1
    for s in reversed(shape):
        strides.append(acc)
        acc *= max(int(s), 1)
    return tuple(reversed(strides))


def is_contiguous_strides(shape, strides):
    """torch's contiguity: row-major strides, ignoring dimensions of size 1; empty is contiguous."""
    acc = 1
    for size, st in zip(reversed(shape), reversed(strides)):
        if size == 0:
            return True
        if size != 1:
            if st != acc:
                return False
            acc *= size
    return True


def _on_meta(t):
    """Whether ``t`` is on the meta device, read from its field (a subclass may answer ``is_meta``
    through ``__torch_dispatch__``)."""
    return t._dev is META or t._dev.type == "meta"


def _no_data_error(t, what):
    if t._keyset & _PYTHON_BITS:
        # torch's texts for a tensor whose operators go to ``__torch_dispatch__``
        if what == "tolist":
            return RuntimeError(f".tolist() is not supported for tensor subclasses, got {type(t).__name__}")
        if what == "numpy":
            return RuntimeError(".numpy() is not supported for tensor subclasses.")
        return RuntimeError(
            f"{type(t).__name__}.{what}: this tensor was made by Tensor._make_wrapper_subclass and "
            f"holds no data of its own; read the tensors it wraps (in {type(t).__name__}."
            "__torch_dispatch__ or its own accessors) instead"
        )
    return _meta_error(what)


def _meta_error(what):
    return RuntimeError(
        f"Tensor.{what}: meta tensors hold no data (they only carry shape, dtype and device); "
        "move real data with .to('cpu') on a non-meta tensor, or use a cpu tensor"
    )


class Tensor(_core.TensorBase):
    """A numpy-backed tensor whose operations go through the dispatcher."""

    # All state lives in TensorBase (see Note [Tensor layout]): no instance dict, and weak
    # references are TensorBase's own.
    __slots__ = ()

    __array_priority__ = 1000

    def __init__(self, *args, **kwargs):
        # torch's legacy constructor (``Tensor([1, 2])``, ``SubTensor(2, 3)``, ``SubTensor(t)``):
        # see ``_legacy_init``. An object already made whole by a ``__new__`` (a wrapper or
        # ``_make_subclass`` tensor) ignores the arguments, as torch does.
        if not hasattr(self, "_data"):
            _legacy_init(self, args, kwargs)

    # --- the two protocols (see opyard.overrides, opyard.utils.python_dispatch) ---
    # Both spellings of each protocol are one classmethod object, so a subclass's
    # ``super().__opyard_function__(...)`` and ``super().__torch_function__(...)`` reach the same
    # default; ``Tensor.__init_subclass__`` gives a subclass's own method both names as well.
    #: Run ``func`` with subclass overrides off and return Tensors as ``cls`` (torch's default):
    #: subclasses that override the protocol call ``super().__torch_function__(func, types, args,
    #: kwargs)`` for it (calling ``func`` directly would recurse).
    __torch_function__ = __opyard_function__ = classmethod(_fp.tensor_torch_function)
    #: Run ``func`` below the ``Python`` key (torch's ``_disabled_torch_dispatch_impl``): what
    #: ``super().__torch_dispatch__(func, types, args, kwargs)`` does in a subclass. A class that
    #: inherits it takes no part in the dispatch protocol.
    __torch_dispatch__ = __opyard_dispatch__ = classmethod(_fp.tensor_torch_dispatch)
    #: Whether instances carry the ``Python`` key (set per subclass by ``__init_subclass__``).
    _opyard_python_key = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _fp.normalize_spellings(cls)
        # ``opyard.overrides`` routes the subclass's Python-level methods through the protocol;
        # the package's own subclasses made while it imports need none.
        hooks = _core._hooks(None)
        if hooks is not None:
            hooks.tensor_subclass(cls)

    as_subclass = _fp.as_subclass

    # --- metadata (``shape``, ``dtype``, ``device``, ``ndim``: TensorBase) ----
    @property
    def is_meta(self):
        return self._dev is META or self._dev.type == "meta"

    @property
    def is_cuda(self):
        return self._dev.type == "cuda"

    @property
    def is_cpu(self):
        return self._dev is CPU or self._dev.type == "cpu"

    def get_device(self):
        """The device index (torch's: -1 for cpu and meta tensors)."""
        dev = self._dev
        return -1 if dev.type in ("cpu", "meta") else (dev.index or 0)

    def dim(self):
        return self._data.ndim

    ndimension = dim

    def size(self, dim=None):
        if dim is None:
            return Size(self._data.shape)
        return self._data.shape[_wrap_dim(dim, self._data.ndim)]

    def stride(self, dim=None):
        if self._meta_strides is not None:
            st = self._meta_strides
        elif _on_meta(self):
            st = contiguous_strides(self._data.shape)
        else:
            item = self._data.itemsize
            st = tuple(s // item for s in self._data.strides)
        return st if dim is None else st[_wrap_dim(dim, len(st))]

    def storage_offset(self):
        if _on_meta(self) or self._meta_strides is not None:
            return self._meta_offset
        if self._base is None:
            return 0
        root = self._base._data
        start = self._data.__array_interface__["data"][0] - root.__array_interface__["data"][0]
        return start // self._data.itemsize

    def data_ptr(self):
        """The address of the first element; 0 for a tensor without memory (meta, fake, empty)."""
        d = self._data
        if _on_meta(self) or self._meta_strides is not None or d.size == 0:
            return 0
        iface = getattr(d, "__array_interface__", None) or d.__cuda_array_interface__
        return iface["data"][0]

    def _is_view(self):
        """Whether this tensor views another's memory through a view op (``_base`` is set)."""
        return self._base is not None

    def numel(self):
        return self._data.size

    nelement = numel

    def element_size(self):
        return self._data.itemsize

    @property
    def itemsize(self):
        return self._data.itemsize

    @property
    def nbytes(self):
        return self._data.size * self._data.itemsize

    @property
    def layout(self):
        return strided

    def is_contiguous(self, memory_format=None):
        if memory_format is not None and memory_format.name.startswith("channels_last"):
            return is_memory_format_strides(self._data.shape, Tensor.stride(self), memory_format)
        if _on_meta(self) or self._meta_strides is not None:
            return is_contiguous_strides(self._data.shape, Tensor.stride(self))
        return self._data.flags.c_contiguous

    def is_floating_point(self):
        # ml_dtypes' bfloat16 and most float8 types have numpy kind "V": ask the dtype.
        return D.FROM_NP[self._data.dtype].is_floating_point

    def is_complex(self):
        return self._data.dtype.kind == "c"

    def is_conj(self):
        """Whether the conjugate bit is set: opyard conjugates eagerly (``conj`` computes), never."""
        return False

    def is_neg(self):
        """Whether the negative bit is set: opyard has none, never."""
        return False

    @property
    def is_nested(self):
        """False: opyard has no nested (jagged) tensors (torch's ``Tensor.is_nested``)."""
        return False

    def type(self, dtype=None):
        if dtype is not None:
            return self.to(dtype)
        return f"opyard.{D.LEGACY_NAMES[self.dtype.name]}Tensor"

    # --- autograd (``requires_grad``, ``is_leaf``, ``grad``, ``grad_fn``, ``_version``: TensorBase) ---
    @property
    def data(self):
        """The same data without autograd history (torch's ``variable_data``): not a view, with a
        version counter of its own, so in-place changes through it stay invisible to autograd's
        checks. A ``__torch_dispatch__`` subclass sees it as ``aten.detach``."""
        out = self.detach()
        out._base = None
        out._view_fn = None
        out._vc = None  # a fresh counter on first use
        return out

    @data.setter
    def data(self, other):
        self._data = other._data

    # --- data access ----------------------------------------------------
    def numpy(self, force=False):
        """The data as a numpy array (shared memory when possible)."""
        if self.is_meta or self._keyset & _PYTHON_BITS:
            raise _no_data_error(self, "numpy")
        if not force and self.requires_grad and not _core._is_excluded(_AUTOGRAD_SET):
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. "
                               "Use tensor.detach().numpy() instead.")
        if self._dev.type == "cuda" and not force:
            raise TypeError("can't convert cuda tensor to numpy. Use Tensor.cpu() to copy the "
                            "tensor to host memory first.")
        data = self._data
        return data.get() if hasattr(data, "get") else data

    def __array__(self, dtype=None, copy=None):
        if self.is_meta or self._keyset & _PYTHON_BITS:
            raise _no_data_error(self, "__array__")
        arr = self._data.get() if hasattr(self._data, "get") else self._data
        return arr if dtype is None else arr.astype(dtype)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        """numpy's hook for a ufunc's result when a tensor took part (``np.sin(t)``, and
        ``t + ndarray``, which the tensor leaves to ``ndarray.__radd__``): a tensor sharing the
        result's memory, as torch returns (a bool result as uint8, as torch does)."""
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        D.from_np(array.dtype)
        return _make(array)

    def item(self):
        if self._keyset & _PYTHON_BITS or _core._is_included(_PYTHON_KEY):
            # torch's ``aten._local_scalar_dense``, which the ``__torch_dispatch__`` handler (or a
            # dispatch mode, which puts the key in the thread's set) answers
            return _core._find_op("aten::_local_scalar_dense")(self)
        if self.is_meta:
            raise _no_data_error(self, "item")
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        return self._data.reshape(()).item()

    def tolist(self):
        if self.is_meta or self._keyset & _PYTHON_BITS:
            raise _no_data_error(self, "tolist")
        return self._data.tolist()

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError(f"Boolean value of Tensor with {'no' if self._data.size == 0 else 'more than one'} "
                               "values is ambiguous")
        return bool(self.item())

    def __float__(self):
        return float(self.item())

    def __int__(self):
        return int(self.item())

    def __index__(self):
        if self.is_floating_point() or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __complex__(self):
        return complex(self.item())

    __hash__ = object.__hash__

    def __dlpack__(self, stream=None):
        if self.is_meta or self._keyset & _PYTHON_BITS:
            raise _no_data_error(self, "__dlpack__")
        return self._data.__dlpack__()

    def __dlpack_device__(self):
        return self._data.__dlpack_device__()

    def __repr__(self, *, tensor_contents=None):
        """torch's ``repr``; ``tensor_contents`` replaces the values, which is how a wrapper
        subclass prints the tensor it holds: ``super().__repr__(tensor_contents=f"{self.elem}")``
        gives ``LoggingTensor(tensor([1.]))``."""
        if tensor_contents is None and self._keyset & _PYTHON_BITS and self._meta_strides is not None:
            return (f"{type(self).__name__}(size={list(self._data.shape)}, dtype={self.dtype}, "
                    f"device='{self._dev}')")
        from ._format import format_tensor

        text = format_tensor(self, tensor_contents)
        cls = type(self)
        if cls is not Tensor and not _fp.is_plain_type(cls) and text.startswith("tensor("):
            # torch names the subclass and indents continuation lines to match
            name = cls.__name__
            text = name + text[6:].replace("\n       ", "\n" + " " * (len(name) + 1))
        return text

    # Pickling and copying (``__reduce_ex__``, ``__copy__``, ``__deepcopy__``) are bound by
    # ``_pickle.install``: see Note [Tensor pickling] there.


def _legacy_init(self, args, kwargs):
    """torch's ``Tensor(...)`` / ``Subclass(...)``: no argument, an empty tensor; ints or a
    ``Size``, an uninitialized tensor of those sizes; a tensor, a view of it (``_base``, shared
    data and version counter); other data, a copy in the default dtype. ``device=`` as torch."""
    device_arg = kwargs.pop("device", None)
    if kwargs:
        raise TypeError(f"new() received an invalid combination of arguments - got unexpected keyword "
                        f"argument '{next(iter(kwargs))}'")
    if len(args) == 1 and isinstance(args[0], _core.TensorBase):
        if device_arg is not None:
            raise TypeError("new(): a tensor argument takes no device (use .to(device))")
        raw = _fp.raw_subclass_tensor(args[0], "alias", type(self))
        _share_state(self, raw)
        self._keyset = raw._keyset | _PYTHON_BITS if _fp.has_torch_dispatch(type(self)) else \
            raw._keyset & ~_PYTHON_BITS
        return
    if any(isinstance(a, _core.TensorBase) for a in args):
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)})")
    dt = D.get_default_dtype()
    sizes = args[0] if len(args) == 1 and isinstance(args[0], Size) else args or (0,)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in sizes):
        src = _make(np.empty(tuple(sizes), dt.np))
        if device_arg is not None:
            src = src.to(device_arg)
    else:
        data = args[0]
        if len(args) > 1:
            raise TypeError(f"new() received an invalid combination of arguments - got "
                            f"({', '.join(type(a).__name__ for a in args)})")
        if isinstance(data, str):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        if not isinstance(data, (list, tuple, np.ndarray)) and not hasattr(data, "__len__"):
            raise TypeError(f"new(): data must be a sequence (got {type(data).__name__})")
        src = _core._hooks().tensor_from_data(data, dtype=dt, device=device_arg)  # ``opyard.tensor``
    self._data = src._data
    self._keyset = src._keyset | _PYTHON_BITS if _fp.has_torch_dispatch(type(self)) else src._keyset
    if src._dev is not CPU:
        self._dev = src._dev


class _DeviceMeta(type):
    """``opyard.device``'s type: a call makes a ``_core.device`` (the object every tensor
    reports), after asking an active ``TorchFunctionMode`` (torch lets a mode override device
    construction: ``func`` is ``opyard.device``); ``isinstance`` accepts every device."""

    def __call__(cls, *args, **kwargs):
        if _core._function_state() & _fp.MODE and not _core._function_state() & _fp.ALL_OFF:
            out = _core._handle_function_protocol(cls, (), args, kwargs)
            if out is not NotImplemented:
                return out
        if "device" in kwargs:  # torch's ``device(device=...)`` spelling of the one argument
            kwargs["type"] = kwargs.pop("device")
        return _core.device(*args, **kwargs)

    def __instancecheck__(cls, obj):
        return isinstance(obj, _core.device)

    def __subclasscheck__(cls, sub):
        return isinstance(sub, type) and issubclass(sub, _core.device)


class device(metaclass=_DeviceMeta):
    """A device: a type (``"cpu"``, ``"cuda"``, ``"meta"``, the PrivateUse1 backend's name) and an
    optional index, as ``torch.device``: ``opyard.device("cuda", 0)``, ``opyard.device("cpu")``.
    Instances are ``_core.device`` objects (``type``, ``index``, comparable and hashable)."""

    __slots__ = ()


device.__module__ = "opyard"


def _device_reduce(self):
    return device, (self.type, self.index)


# Pickled by value through the public name: ``_core.device`` is ``opyard.device`` by name, and
# pickle looks the class up by that name.
_core.device.__reduce__ = _device_reduce


_PYTHON_BITS = DispatchKeySet(DispatchKey.Python).raw()
_PYTHON_KEY = DispatchKeySet(DispatchKey.Python)
def _wrap_dim(dim, ndim):
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim + n if dim < 0 else dim


_fp.register_plain_tensor_type(Tensor)


def is_tensor(obj):
    """True for opyard tensors (``torch.is_tensor``)."""
    return isinstance(obj, Tensor)
