"""Subclasses, modes and Tensor-likes for the protocol tests, in the style of torch's own test
helpers: a logging wrapper subclass and a logging mode (logs ``$n: f32[2] = module.op($0, ...)``),
a wrapper holding two tensors, a direct (``_make_subclass``) subclass, and a Tensor-like that wraps
a tensor without subclassing it."""

import collections
import contextlib
import itertools

import opyard
from opyard.utils._pytree import tree_map, tree_map_only
from opyard.utils.python_dispatch import TorchDispatchMode, return_and_correct_aliasing

_ABBREV = {"float32": "f32", "float64": "f64", "int64": "i64", "int32": "i32", "bool": "b8", "float16": "f16"}


class Log:
    """The lines of one ``capture()`` block, naming tensors ``$0``, ``$1``... by first appearance."""

    def __init__(self):
        self.lines, self._ids, self._next = [], {}, itertools.count()

    def name(self, t):
        if id(t) not in self._ids:
            self._ids[id(t)] = (next(self._next), t)  # keep t alive so its id is not reused
        return f"${self._ids[id(t)][0]}"

    def fmt(self, value, typed=False):
        if isinstance(value, opyard.Tensor):
            name = self.name(value)
            if typed:
                name += f": {_ABBREV.get(value.dtype.name, value.dtype.name)}[{', '.join(map(str, value.shape))}]"
            return name
        if isinstance(value, (list, tuple)):
            inner = ", ".join(self.fmt(v, typed) for v in value)
            return f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
        return repr(value)

    def record(self, func, args, kwargs, out):
        shown = [self.fmt(a) for a in args] + [f"{k}={self.fmt(v)}" for k, v in (kwargs or {}).items()]
        self.lines.append(f"{self.fmt(out, typed=True)} = {func.__module__}.{func.__name__}({', '.join(shown)})")


_LOGS = []


@contextlib.contextmanager
def capture():
    log = Log()
    _LOGS.append(log)
    try:
        yield log.lines
    finally:
        _LOGS.remove(log)


def log_input(name, value):
    for log in _LOGS:
        log.lines.append(f"{log.fmt(value, typed=True)} = input({name!r})")


def _record(func, args, kwargs, out):
    for log in _LOGS:
        log.record(func, args, kwargs, out)


class LoggingTensor(opyard.Tensor):
    """A wrapper subclass: holds ``elem`` and logs every operator it sees."""

    __slots__ = ["elem"]
    context = contextlib.nullcontext

    @staticmethod
    def __new__(cls, elem, *args, **kwargs):
        r = opyard.Tensor._make_wrapper_subclass(
            cls, elem.size(), strides=elem.stride(), storage_offset=elem.storage_offset(), dtype=elem.dtype,
            layout=elem.layout, device=elem.device, requires_grad=kwargs.get("requires_grad", False))
        r.elem = elem.detach() if r.requires_grad else elem
        return r

    def __repr__(self):
        return super().__repr__(tensor_contents=f"{self.elem}")

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        def unwrap(e):
            return e.elem if isinstance(e, cls) else e

        def wrap(e):
            return cls(e) if isinstance(e, opyard.Tensor) else e

        with cls.context():
            out = tree_map(wrap, func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs or {})))
        _record(func, args, kwargs, out)
        return out


class LoggingTensorReentrant(LoggingTensor):
    """Runs the wrapped operators from the top of the dispatcher (autograd included)."""

    context = opyard.overrides.enable_reentrant_dispatch


class LoggingMode(TorchDispatchMode):
    """Logs every operator below autograd."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        _record(func, args, kwargs, out)
        return out


class TwoTensor(opyard.Tensor):
    """A traceable wrapper holding two tensors; every operator runs on both."""

    @staticmethod
    def __new__(cls, a, b, outer_size=None, outer_stride=None):
        return opyard.Tensor._make_wrapper_subclass(
            cls, a.size() if outer_size is None else outer_size,
            strides=a.stride() if outer_stride is None else outer_stride, storage_offset=a.storage_offset(),
            dtype=a.dtype, device=a.device, requires_grad=a.requires_grad)

    def __init__(self, a, b, outer_size=None, outer_stride=None):
        self.a, self.b = a, b

    def __repr__(self):
        return f"TwoTensor({self.a!r}, {self.b!r})"

    def __tensor_flatten__(self):
        return ["a", "b"], None

    @staticmethod
    def __tensor_unflatten__(inner, meta, outer_size, outer_stride):
        return TwoTensor(inner["a"], inner["b"], outer_size, outer_stride)

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out_a = func(*tree_map_only(TwoTensor, lambda x: x.a, args), **tree_map_only(TwoTensor, lambda x: x.a, kwargs))
        out_b = func(*tree_map_only(TwoTensor, lambda x: x.b, args), **tree_map_only(TwoTensor, lambda x: x.b, kwargs))
        out = tree_map(lambda x: x, out_a)
        if isinstance(out_a, opyard.Tensor):
            out = cls(out_a, out_b)
        elif isinstance(out_a, (list, tuple)):
            out = type(out_a)(cls(x, y) if isinstance(x, opyard.Tensor) else x for x, y in zip(out_a, out_b))
        return return_and_correct_aliasing(func, args, kwargs, out)


class DirectSubclass(opyard.Tensor):
    """A direct subclass (real data, ``_make_subclass``) that logs and defers to ``super()``."""

    seen = []

    @staticmethod
    def __new__(cls, elem):
        return opyard.Tensor._make_subclass(cls, elem, elem.requires_grad)

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(func)
        return super().__torch_dispatch__(func, types, args, kwargs)


class Wrapper:
    """A Tensor-like holding a tensor (not a subclass): reads and calls go through
    ``__torch_function__``, which unwraps, runs and wraps; it records what it was used for."""

    def __init__(self, data):
        self.__dict__["_data"] = data
        self.__dict__["used_attrs"] = set()
        self.__dict__["used_calls"] = set()

    def __getattr__(self, name):
        if name in self.__dict__:
            return self.__dict__[name]
        self.used_attrs.add(name)
        val = getattr(self._data, name)
        if not isinstance(val, opyard.device) and callable(val):
            c = getattr(type(self._data), name)
            if c is val:
                return lambda *a, **kw: wrap(self.__torch_function__(c, (Wrapper,), args=a, kwargs=kw))
            return lambda *a, **kw: wrap(self.__torch_function__(c, (Wrapper,), args=(self,) + a, kwargs=kw))
        return wrap(val)

    def __setattr__(self, name, value):
        if name in self.__dict__:
            self.__dict__[name] = value
        self.used_attrs.add(name)
        setattr(self._data, name, unwrap(value))

    def __getitem__(self, key):
        return wrap(self._data[unwrap(key)])

    def __setitem__(self, key, value):
        self._data[unwrap(key)] = unwrap(value)

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        mine = []
        for a in args:
            if isinstance(a, cls):
                mine.append(a)
            elif isinstance(a, collections.abc.Sequence):
                mine.extend(e for e in a if isinstance(e, cls))
        for a in mine:
            a.used_calls.add(func)
        return wrap(func(*unwrap(tuple(args)), **{k: unwrap(v) for k, v in kwargs.items()}))

    def __add__(self, other):
        return self.__torch_function__(opyard.add, (Wrapper,), (self, other))

    def __mul__(self, other):
        return self.__torch_function__(opyard.mul, (Wrapper,), (self, other))

    def __len__(self):
        return len(self._data)


def unwrap(v):
    if type(v) in (tuple, list):
        return type(v)(unwrap(e) for e in v)
    return v._data if isinstance(v, Wrapper) else v


def wrap(v):
    if type(v) in (tuple, list):
        return type(v)(wrap(e) for e in v)
    return Wrapper(v) if isinstance(v, opyard.Tensor) else v
