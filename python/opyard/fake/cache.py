"""What ``FakeTensorMode`` caches of an op's outputs, and when.

Note [Fake dispatch cache]: like torch's FakeTensor cache, the metadata of a
functional op's outputs is memoized per (op, argument metadata); a hit builds
the outputs directly instead of running the Meta kernel. Calls whose arguments
are fake tensors of the thread's mode, scalars and int lists are keyed and
served by the core's ``FakeFallback`` (See Note [Fake dispatch cache in Rust]
in ``src/python/fake/cache.rs``) before any Python code runs; on a miss it
asks ``mode._miss``, which answers with ``entry_of``. Other calls (keywords,
real tensors, symbolic sizes, tensor lists) reach ``mode.fake_fallback``,
which keys them here with ``call_key`` in ``CACHE``. One policy for both:
``cacheable`` (functional ops without a fake impl) and ``entry_of`` (plain
fake outputs, not views, no symbols). An entry holds layouts (shared
zero-stride arrays, devices), never a call's tensors. What was cached is
forgotten when an op gains or loses a fake impl (``forget``).
"""

from .._library.fake_impl import FAKE_IMPLS
from .._tensor import Tensor, _new, device_keys
from .data_dependent import RULES
from .symbolic import SymInt
from .tensor import FAKE_BIT, FakeTensor

__all__ = ["CACHE", "cacheable", "call_key", "entry_of", "fake_impl_of", "forget", "from_entry"]

CACHE: dict = {}  # call key -> entry (see entry_of), for the calls the core does not key
_UNCACHEABLE = object()
# An output that depends on the data is never cached, whatever this call's ShapeEnv allowed.
_DATA_TAGS = frozenset({"dynamic_output_shape", "data_dependent_output"})
_functional: dict = {}  # op -> whether its outputs may be cached (no mutation, no aliasing, no fake impl)
_impls: dict = {}  # op -> (its fake impl or None, its name)


def cacheable(op):
    """Whether ``op``'s outputs may be cached: functional (no mutation, no aliased output, some
    output), without a fake impl (which may make data-dependent sizes, or count its calls) and
    not data-dependent."""
    hit = _functional.get(op)
    if hit is None:
        schema = op._schema
        hit = (not schema.is_mutable and all(r.alias_info is None for r in schema.returns)
               and bool(schema.returns) and op.name() not in FAKE_IMPLS and op.name() not in RULES
               and not any(t.name in _DATA_TAGS for t in op.tags))
        _functional[op] = hit
    return hit


def _arg_key(a):
    if isinstance(a, Tensor):
        if a._sym_shape is not None if isinstance(a, FakeTensor) else False:
            return _UNCACHEABLE
        return (a._data.shape, a._data.dtype, a._dev, a._meta_strides, a._meta_offset, a._keyset)
    if isinstance(a, (list, tuple)):
        out = tuple(_arg_key(e) for e in a)
        return _UNCACHEABLE if _UNCACHEABLE in out else (type(a), out)
    if isinstance(a, SymInt):
        return _UNCACHEABLE
    return (a.__class__, a)


def call_key(op, args, kwargs):
    """The key of a call (op, per argument its metadata or value), or None if it has none."""
    key = [op]
    for a in args:
        k = _arg_key(a)
        if k is _UNCACHEABLE:
            return None
        key.append(k)
    for name, v in kwargs.items():
        k = _arg_key(v)
        if k is _UNCACHEABLE:
            return None
        key.append((name, k))
    key = tuple(key)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def entry_of(out):
    """What the cache keeps of an output: per tensor its array (shared) and layout."""
    if isinstance(out, FakeTensor) and out._sym_shape is None and out._base is None:
        return (out._data, out._dev, out._meta_strides, out._meta_offset, device_keys(out._dev) | FAKE_BIT)
    if isinstance(out, tuple) and out and all(isinstance(o, FakeTensor) for o in out):
        entries = tuple(entry_of(o) for o in out)
        return None if None in entries else entries
    return None


def from_entry(entry, mode):
    """New fake tensors in ``mode`` with the layouts of ``entry``."""
    if entry[0].__class__ is tuple:
        return tuple(from_entry(e, mode) for e in entry)
    data, dev, strides, offset, keys = entry
    t = _new(FakeTensor)
    t._data = data
    t._dev = dev
    t._keyset = keys
    t.fake_mode = mode
    if strides is not None:
        t._meta_strides = strides
    if offset:
        t._meta_offset = offset
    return t


def fake_impl_of(op):
    """``(fake impl or None, name)`` of ``op``, memoized until ``forget``."""
    known = _impls.get(op)
    if known is None:
        name = op.name()
        known = _impls[op] = (FAKE_IMPLS.get(name), name)
    return known


def forget():
    """Drop every cached verdict and entry (an op gained or lost its fake impl)."""
    _functional.clear()
    _impls.clear()
    CACHE.clear()


from .._exports import public_dir

__dir__ = public_dir(globals())
