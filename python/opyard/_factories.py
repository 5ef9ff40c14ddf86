"""Public tensor constructors: ``tensor``, ``zeros``, ``randn``, ... (torch's signatures)."""

import numbers

import numpy as np

from . import _dtype as D
from . import _core
from ._aten.factory import manual_seed, require_floating as _require_floating
from ._aten.scalars import checked as _checked
from ._aten.switches import DEFAULT as _DEFAULT
from ._core import device as Device
from ._ops import ops
from . import _tensor
from ._tensor import CPU, Tensor, _make, _make_meta

__all__ = [
    "tensor", "as_tensor", "from_numpy", "from_dlpack", "zeros", "ones", "empty", "full", "eye",
    "arange", "linspace", "logspace", "rand", "randn", "randint", "zeros_like", "ones_like", "empty_like",
    "full_like", "rand_like", "randn_like", "randint_like", "empty_permuted", "tril_indices", "triu_indices", "manual_seed", "scalar_tensor", "empty_strided",
    "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window", "randperm",
]

_aten = ops.aten
_D_INT64 = D.int64


def _infer_dtype(data):
    """torch's dtype inference from Python data: bool, int64, default float, complex."""
    cat = -1
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Tensor):
            return x.dtype
        elif isinstance(x, bool):
            cat = max(cat, 0)
        elif isinstance(x, numbers.Integral):
            cat = max(cat, 1)
        elif isinstance(x, numbers.Real):
            cat = max(cat, 2)
        elif isinstance(x, numbers.Complex):
            cat = max(cat, 3)
        else:
            raise TypeError(f"Could not infer dtype of {type(x).__name__}")
    default = D.get_default_dtype()
    return (D.bool, D.int64, default, default.to_complex())[cat if cat >= 0 else 2]


_NUMBER_CATS = {bool: 0, int: 1, float: 2, complex: 3}  # ``_infer_dtype``'s categories
_NUMBERS = frozenset(_NUMBER_CATS)
_SEQUENCES = frozenset((list, tuple))


def _numbers_dtype(data):
    """``_infer_dtype(data)`` when ``data`` is a Python number (bool, int, float or complex, exactly)
    or lists and tuples of them nested evenly (the common data), found by one type test per element
    at C speed; None for any other data (tensors or numpy scalars in it, ragged nesting, ...), which
    the general path reads element by element."""
    items, kinds = (data,), {type(data)}
    while kinds and kinds <= _SEQUENCES:  # one nesting level per turn: the types of its elements
        items = items[0] if len(items) == 1 else [x for seq in items for x in seq]
        kinds = set(map(type, items))
    if not kinds <= _NUMBERS:
        return None
    cat = max([_NUMBER_CATS[k] for k in kinds], default=-1)
    default = D.get_default_dtype()
    return (D.bool, D.int64, default, default.to_complex())[cat if cat >= 0 else 2]


def _finish(t, requires_grad):
    if requires_grad:
        if not (t.is_floating_point() or t.is_complex()):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t.requires_grad = True  # the attribute, not requires_grad_(): factories work inside transforms
    return t


def _place(arr, device):
    if device is None:
        return _make(arr)
    dev = device if isinstance(device, Device) else Device(device)
    if dev.type == "meta":
        return _make_meta(arr.shape, D.FROM_NP[arr.dtype])
    if dev.type == "cuda":
        from .cuda import to_device_array

        arr = to_device_array(arr, dev)
    return _make(arr, None if dev.type == "cpu" and dev.index is None else dev)


# Note [lift_fresh]: under a FakeTensorMode, the tensors ``tensor``/``as_tensor`` make
# from data become fake, as torch's aten::lift_fresh does: ``opyard.fake`` (a higher
# layer) converts them, through ``Hooks.lift_fresh``.
def _lift_fresh(t):
    return t if _core._fake_mode() is None else _core._hooks().lift_fresh(t)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new tensor copying ``data`` (nested lists, numbers, numpy arrays or tensors)."""
    if dtype is not None:
        D.expect_dtype(dtype, "tensor", "dtype")
    if isinstance(data, Tensor):
        dt = dtype or data.dtype
        arr = np.array(data.numpy(force=True), dtype=dt.np, order="C", copy=True)
    elif isinstance(data, np.ndarray):
        dt = dtype or D.from_np(data.dtype)
        arr = np.array(data, dtype=dt.np, order="C", copy=True)
    else:
        dt = dtype if dtype is not None else _numbers_dtype(data)
        if dt is None or (dtype is not None and isinstance(data, (list, tuple))):
            # not plain numbers, or a sequence that may hold tensors: those read, the types inferred
            if isinstance(data, (list, tuple)) and any(isinstance(x, Tensor) for x in _flat(data)):
                data = _to_py(data)
            dt = dtype or _infer_dtype(data)
        arr = _from_python(data, dt, inferred=dtype is None)
    t = _finish(_place(arr, device if device is not None else _DEFAULT.device), requires_grad)
    return _lift_fresh(t)


def _from_python(data, dt, inferred):
    """numpy's array of Python data, with torch's errors for overflow and ragged nesting."""
    try:
        return np.asarray(np.array(data, dtype=dt.np), order="C")
    except OverflowError:
        if inferred:
            raise ValueError("Overflow when unpacking long long: tensor() infers int64 for Python "
                             "ints, which holds -2**63 to 2**63-1") from None
        raise RuntimeError(f"value cannot be converted to type {dt.name} without overflow") from None
    except ValueError:
        ragged = _ragged(data, 0)
        if ragged is None:
            raise
        raise ValueError(ragged) from None


def _ragged(data, dim):
    """torch's message for nested sequences of unequal lengths (None when they are even)."""
    if not isinstance(data, (list, tuple)) or not data:
        return None
    lengths = [len(x) if isinstance(x, (list, tuple)) else None for x in data]
    for got in lengths:
        if got != lengths[0]:
            return (f"expected sequence of length {lengths[0]} at dim {dim + 1} "
                    f"(got {'a scalar' if got is None else got})")
    for x in data:
        found = _ragged(x, dim + 1)
        if found is not None:
            return found
    return None


def _flat(x):
    for e in x:
        if isinstance(e, (list, tuple)):
            yield from _flat(e)
        else:
            yield e


def _to_py(x):
    if isinstance(x, (list, tuple)):
        return [_to_py(e) for e in x]
    return x.item() if isinstance(x, Tensor) else x


def scalar_tensor(value, *, dtype=None, layout=None, device=None, pin_memory=None, requires_grad=False):
    """A 0-d tensor of ``value``: of the default floating dtype unless ``dtype`` says otherwise
    (``scalar_tensor(1)`` is float32, as torch); the value converted by torch's Scalar rules."""
    D.expect_dtype(dtype, "scalar_tensor", "dtype")
    dt = D.get_default_dtype() if dtype is None else dtype
    if isinstance(value, Tensor):
        value = value.item()
    if type(value) is complex and not dt.is_complex:
        raise RuntimeError(f"value cannot be converted to type {D.c_type_name(dt)} without overflow")
    return tensor(_checked(value, dt), dtype=dt, device=device if device is not None else _DEFAULT.device, requires_grad=requires_grad)


def as_tensor(data, dtype=None, device=None):
    """``data`` as a tensor, sharing memory with a tensor or numpy array when possible."""
    D.expect_dtype(dtype, "as_tensor", "dtype")
    if isinstance(data, Tensor):
        return data if dtype in (None, data.dtype) and device is None else data.to(dtype=dtype, device=device if device is not None else _DEFAULT.device)
    if isinstance(data, np.ndarray) and (dtype is None or D.from_np(data.dtype) is dtype) and device is None:
        return _lift_fresh(_foreign(data))
    return tensor(data, dtype=dtype, device=device if device is not None else _DEFAULT.device)


def from_numpy(arr):
    """A tensor sharing memory with the numpy array ``arr``."""
    if not isinstance(arr, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(arr).__name__})")
    D.from_np(arr.dtype)
    return _foreign(arr)


def from_dlpack(ext):
    """A tensor sharing memory with any DLPack-capable array (``__dlpack__``)."""
    if isinstance(ext, Tensor):
        return ext
    return _foreign(np.from_dlpack(ext))


def _foreign(arr):
    """A tensor around memory opyard did not allocate: as torch's storage of such memory, it cannot
    grow (an ``out=`` that needs more room raises)."""
    t = _make(arr)
    t._fixed_storage = True
    return t


def _size_args(size):
    if len(size) == 1 and isinstance(size[0], (list, tuple)):
        return list(size[0])
    return list(size)


def _expect_layout(layout, api):
    """torch's argument check of ``layout=`` (None and ``opyard.strided`` pass); opyard's tensors are
    all strided, so another layout is refused by name rather than ignored."""
    if layout is None or layout is _tensor.strided:
        return
    if not isinstance(layout, _tensor.layout):
        kind = type(layout)
        shown = f"opyard.{kind.__name__}" if kind.__module__.startswith("opyard") else kind.__name__
        raise TypeError(f"{api}(): argument 'layout' must be opyard.layout, not {shown}")
    raise NotImplementedError(f"{api}(): layout={layout!r} is not supported: opyard tensors are strided "
                              "(opyard.strided)")


# Note [Keywords left out]: the dispatcher binds a keyword given as None as one left out (a
# ``__torch_dispatch__`` mode sees neither), and parsing keywords is most of its cost for a small
# factory: the constructors leave out the ones that are None.

# Note [Factory overloads on first call]: a factory looks its overload up on its first call, not at
# import, so that ``import opyard`` defines none of the built-in packets (Note [Operators defined on
# first use], src/python/dispatch/lazy.rs); later calls pay one test of the closure cell.

def _factory(name, overload="default", sampler=None):
    op = None  # ``aten::<name>.<overload>`` from the first call on
    drawn = None  # ``aten::<name>.generator`` (the samplers), from the first call with a generator on

    def make(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False,
             **memory_format):  # only ``empty`` takes memory_format: the op's binding refuses it elsewhere
        nonlocal op, drawn
        if dtype is not None:  # (None always passes these checks: the common call skips their frames)
            D.expect_dtype(dtype, name, "dtype")
        if layout is not None:
            _expect_layout(layout, name)
        if sampler is not None:
            if dtype is not None:
                _require_floating(name, sampler, dtype)
            generator = memory_format.pop("generator", None)
            if generator is not None:  # torch's ``<name>.generator`` overload
                if drawn is None:
                    drawn = getattr(_aten, name).generator
                return _finish(drawn(_size_args(size), generator=generator, dtype=dtype, device=device if device is not None else _DEFAULT.device),
                               requires_grad)
        if op is None:
            op = getattr(getattr(_aten, name), overload)
        # The hottest constructors: the common call in as few frames as it takes (``_size_args``,
        # ``_options`` and ``_finish`` inline; a tenth of its cost)
        if device is None:
            device = _DEFAULT.device
        sizes = list(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple)) else list(size)
        if dtype is None and device is None and not memory_format:
            t = op(sizes)  # Note [Keywords left out]
        else:
            t = op(sizes, dtype=dtype, device=device, **memory_format)
        return _finish(t, requires_grad) if requires_grad else t
    make.__name__ = name
    return make


zeros = _factory("zeros")
ones = _factory("ones")
empty = _factory("empty", "memory_format")
rand = _factory("rand", sampler="check_uniform_bounds")
randn = _factory("randn", sampler="normal_kernel_cpu")
zeros.__doc__ = "A tensor of zeros: ``opyard.zeros(2, 3, dtype=opyard.float64)``."
ones.__doc__ = "A tensor of ones."
empty.__doc__ = "An uninitialized tensor."
rand.__doc__ = "Uniform samples in [0, 1) (see ``manual_seed``)."
randn.__doc__ = "Standard normal samples (see ``manual_seed``)."


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """An uninitialized tensor of ``size`` laid out with ``stride``: ``opyard.empty_strided((2, 3), (1, 2))``."""
    D.expect_dtype(dtype, "empty_strided", "dtype")
    return _finish(_aten.empty_strided.default(list(size), list(stride), dtype=dtype, device=device if device is not None else _DEFAULT.device), requires_grad)


def _options(dtype, device):
    """The ``dtype=``/``device=`` keywords of a factory's op call, the None ones left out (Note
    [Keywords left out]); ``device`` defaults to ``set_default_device``'s."""
    if device is None:
        device = _DEFAULT.device
    if dtype is None:
        return _NO_OPTIONS if device is None else {"device": device}
    return {"dtype": dtype} if device is None else {"dtype": dtype, "device": device}


_NO_OPTIONS = {}  # (read only: ``**`` copies it)


def full(size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    if dtype is not None:
        D.expect_dtype(dtype, "full", "dtype")
    if layout is not None:
        _expect_layout(layout, "full")
    t = _aten.full.default(list(size), fill_value, **_options(dtype, device))
    return _finish(t, requires_grad)


def eye(n, m=None, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    if dtype is not None:
        D.expect_dtype(dtype, "eye", "dtype")
    if layout is not None:
        _expect_layout(layout, "eye")
    options = _options(dtype, device)
    t = _aten.eye.default(n, **options) if m is None else _aten.eye.m(n, m, **options)
    return _finish(t, requires_grad)


def arange(start, end=None, step=1, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    if dtype is not None:
        D.expect_dtype(dtype, "arange", "dtype")
    if layout is not None:
        _expect_layout(layout, "arange")
    options = _options(dtype, device)
    if end is None:
        t = _aten.arange.default(start, **options)
    else:
        t = _aten.arange.start_step(start, end, step, **options)
    return _finish(t, requires_grad)


def linspace(start, end, steps, *, dtype=None, device=None, requires_grad=False, layout=None):
    """``steps`` evenly spaced values from ``start`` to ``end``, both included."""
    if dtype is not None:
        D.expect_dtype(dtype, "linspace", "dtype")
    if layout is not None:
        _expect_layout(layout, "linspace")
    t = _aten.linspace(start, end, steps, **_options(dtype, device))
    return _finish(t, requires_grad)


def logspace(start, end, steps, base=10.0, *, dtype=None, layout=None, device=None, requires_grad=False,
             pin_memory=False, out=None):
    """``steps`` powers of ``base`` with exponents evenly spaced from ``start`` to ``end``, both
    included: ``opyard.logspace(0, 2, 3)`` is ``[1., 10., 100.]``."""
    D.expect_dtype(dtype, "logspace", "dtype")
    if out is not None:
        return _aten.logspace(start, end, steps, base, out=out)
    return _finish(_aten.logspace(start, end, steps, base, **_options(dtype, device)), requires_grad)


def randint(low, high=None, size=None, *, generator=None, dtype=None, device=None, requires_grad=False,
            layout=None, pin_memory=False):
    """Uniform integers in ``[low, high)`` of ``size`` (``randint(high, size)`` or ``randint(low, high,
    size)``), int64 unless ``dtype`` says otherwise, drawn from ``generator`` (or the default one)."""
    D.expect_dtype(dtype, "randint", "dtype")
    if layout is not None:
        _expect_layout(layout, "randint")
    if size is None:
        if high is None:
            raise TypeError("randint() missing 1 required positional argument: 'size'")
        low, high, size = 0, low, high
    size = list(size)
    if generator is None and low == 0:  # the common case: one draw in [0, high)
        r = _aten.randint.default(high, size, **_options(dtype, device))
    elif generator is None:
        r = _aten.randint.low(low, high, size, **_options(dtype, device))
    else:
        r = _aten.randint.low_generator(low, high, size, generator=generator, dtype=dtype, device=device if device is not None else _DEFAULT.device)
    return _finish(r, requires_grad)


def _with_requires_grad(name):
    """``opyard.<name>``: the packet ``aten::<name>`` (its overloads chosen by the arguments), with
    torch's ``requires_grad=`` keyword."""
    def make(*args, requires_grad=False, **kwargs):
        if kwargs.get("device") is None and _DEFAULT.device is not None:
            kwargs["device"] = _DEFAULT.device
        return _finish(getattr(_aten, name)(*args, **kwargs), requires_grad)
    make.__name__ = make.__qualname__ = name
    return make


hann_window, hamming_window, blackman_window, bartlett_window, kaiser_window, randperm = (
    _with_requires_grad(n) for n in ("hann_window", "hamming_window", "blackman_window", "bartlett_window",
                                     "kaiser_window", "randperm"))


def add_offset(t, low):
    return _aten.add.Scalar(t, low)


def _like(name, sampler=None):
    op = None  # ``aten::<name>.default`` from the first call on (Note [Factory overloads on first call])

    def make(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None, **kw):
        nonlocal op
        if dtype is not None:
            D.expect_dtype(dtype, name, "dtype")
        if layout is not None:
            _expect_layout(layout, name)
        if sampler is not None and isinstance(input, Tensor):
            _require_floating(name, sampler, dtype or input.dtype)
        fmt = {} if memory_format is None else {"memory_format": memory_format}
        if kw:  # ``generator=``, the samplers' only other keyword (torch's ``<name>.generator`` overload)
            generator = kw.pop("generator", None)
            if kw or sampler is None:
                raise TypeError(f"{name}() got an unexpected keyword argument '{next(iter(kw or {'generator': 0}))}'")
            if generator is not None:
                return _finish(getattr(_aten, name).generator(input, generator=generator, dtype=dtype, device=device,
                                                              **fmt), requires_grad)
        if op is None:
            op = getattr(_aten, name).default
        if dtype is None and device is None and memory_format is None:
            t = op(input)  # Note [Keywords left out]
        else:
            t = op(input, dtype=dtype, device=device, **fmt)
        return _finish(t, requires_grad)
    make.__name__ = name
    return make


zeros_like = _like("zeros_like")
ones_like = _like("ones_like")
empty_like = _like("empty_like")
rand_like = _like("rand_like", "check_uniform_bounds")
randn_like = _like("randn_like", "normal_kernel_cpu")


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (2, N) coordinates of the lower triangle of a ``row`` x ``col`` matrix (on and below diagonal
    ``offset``), row by row; int64 unless ``dtype`` (int32) says otherwise."""
    if layout is not None:
        _expect_layout(layout, "tril_indices")
    return _aten.tril_indices.default(row, col, offset, dtype=_D_INT64 if dtype is None else dtype, device=device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (2, N) coordinates of the upper triangle of a ``row`` x ``col`` matrix (on and above diagonal
    ``offset``), row by row; int64 unless ``dtype`` (int32) says otherwise."""
    if layout is not None:
        _expect_layout(layout, "triu_indices")
    return _aten.triu_indices.default(row, col, offset, dtype=_D_INT64 if dtype is None else dtype, device=device)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """An uninitialized tensor of ``size`` whose dimensions lie in memory in the order ``physical_layout``
    (outermost first)."""
    D.expect_dtype(dtype, "empty_permuted", "dtype")
    if layout is not None:
        _expect_layout(layout, "empty_permuted")
    return _finish(_aten.empty_permuted.default(list(size), list(physical_layout), dtype=dtype, device=device),
                   requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None, generator=None):
    """Uniform integers in ``[low, high)`` in a tensor like ``input`` (``randint_like(x, high)`` or
    ``randint_like(x, low, high)``; ``high`` may be a 0-d tensor)."""
    D.expect_dtype(dtype, "randint_like", "dtype")
    if layout is not None:
        _expect_layout(layout, "randint_like")
    fmt = {} if memory_format is None else {"memory_format": memory_format}
    if generator is not None:  # the packet binds the ``*generator`` overloads
        fmt["generator"] = generator
    if high is None:
        r = _aten.randint_like(input, low, dtype=dtype, device=device, **fmt)
    elif generator is None:
        r = _aten.randint_like.low_dtype(input, low, high, dtype=dtype, device=device, **fmt)
    else:
        r = _aten.randint_like.low_generator_dtype(input, low, high, dtype=dtype, device=device, **fmt)
    return _finish(r, requires_grad)


def full_like(input, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, memory_format=None):
    if dtype is not None:
        D.expect_dtype(dtype, "full_like", "dtype")
    if layout is not None:
        _expect_layout(layout, "full_like")
    if dtype is None and device is None and memory_format is None:
        t = _aten.full_like.default(input, fill_value)  # Note [Keywords left out]
    else:
        fmt = {} if memory_format is None else {"memory_format": memory_format}
        t = _aten.full_like.default(input, fill_value, dtype=dtype, device=device, **fmt)
    return _finish(t, requires_grad)


_ = CPU

# The legacy constructor ``Tensor(data)`` copies what ``tensor(data)`` builds (see _tensor.py).
