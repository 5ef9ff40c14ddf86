"""Logging of the operators a computation reaches, one line per call (torch's
``torch.testing._internal.logging_tensor``).

``LoggingTensor`` wraps a tensor in a wrapper subclass whose ``__torch_dispatch__`` runs each call on
the wrapped tensors and logs it; ``LoggingTensorMode`` logs every call under it; ``capture_logs``
collects the lines::

    >>> with capture_logs() as logs:
    ...     x = LoggingTensor(opyard.ones(1))
    ...     log_input("x", x)
    ...     y = x * x
    >>> logs
    ['$0: f32[1] = input(\\'x\\')', '$1: f32[1] = opyard._ops.aten.mul.Tensor($0, $0)']

A line is ``<results> = <operator>(<arguments>)``: tensors are ``$<n>`` (numbered in order of first
appearance, with ``: <dtype>[<sizes>]`` on results), anything else its ``repr``.
"""

import contextlib
import functools
import itertools
import logging
import traceback

from ... import Tensor
from ...overrides import enable_reentrant_dispatch
from ...utils._dtype_abbrs import dtype_abbrs
from ...utils._python_dispatch import TorchDispatchMode
from ...utils._pytree import tree_map
from ...utils.weak import WeakTensorKeyDictionary

__all__ = ["LoggingTensor", "LoggingTensorMode", "LoggingTensorReentrant", "LoggingTensorHandler", "log_input",
           "capture_logs", "capture_logs_with_logging_tensor_mode", "GatherTraceback"]

logger = logging.getLogger("LoggingTensor")


def _log(func_name, args, kwargs, rs):
    logger.info(func_name, extra={"lt_args": args, "lt_kwargs": kwargs, "lt_rs": rs})


def _name_of(func):
    return f"{func.__module__}.{func.__name__}"


class LoggingTensor(Tensor):
    """A wrapper subclass holding ``elem``: every operator call on it runs on ``elem`` and is logged.

    ``requires_grad=True`` makes the wrapper require grad (``elem`` is then detached), so that autograd
    runs above the logging and the backward's calls are logged too."""

    __slots__ = ["elem"]

    context = contextlib.nullcontext

    @staticmethod
    def __new__(cls, elem, *args, **kwargs):
        r = Tensor._make_wrapper_subclass(
            cls, elem.size(), strides=elem.stride(), storage_offset=elem.storage_offset(), dtype=elem.dtype,
            layout=elem.layout, device=elem.device, requires_grad=kwargs.get("requires_grad", False))
        r.elem = elem.detach() if r.requires_grad else elem
        return r

    def __repr__(self):
        return super().__repr__(tensor_contents=f"{self.elem}")

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}

        def unwrap(e):
            return e.elem if isinstance(e, cls) else e

        def wrap(e):
            return cls(e) if isinstance(e, Tensor) else e

        with cls.context():
            rs = tree_map(wrap, func(*tree_map(unwrap, args), **tree_map(unwrap, kwargs)))
        _log(_name_of(func), args, kwargs, rs)
        return rs


class LoggingTensorMode(TorchDispatchMode):
    """Logs every operator call made under it (on any tensors)."""

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        rs = func(*args, **kwargs)
        _log(_name_of(func), args, kwargs, rs)
        return rs


class LoggingTensorReentrant(LoggingTensor):
    """A ``LoggingTensor`` whose calls on ``elem`` dispatch again from the top (autograd included)."""

    context = enable_reentrant_dispatch


class LoggingTensorHandler(logging.Handler):
    """Formats the log records of the calls into ``log_list``."""

    def __init__(self, log_list, use_shortid_for_all_tensors, with_type, tracebacks_list):
        super().__init__()
        self.log_list = log_list
        self.use_shortid_for_all_tensors = use_shortid_for_all_tensors
        self.tracebacks_list = tracebacks_list
        self.memo = WeakTensorKeyDictionary()
        self.next_id = 0
        self.with_type = with_type

    def _shortid(self, t):
        if t not in self.memo:
            self.memo[t] = self.next_id
            self.next_id += 1
        return self.memo[t]

    def _fmt(self, a, with_type=False):
        if isinstance(a, Tensor if self.use_shortid_for_all_tensors else LoggingTensor):
            kind = ""
            if with_type and self.with_type:
                kind = f": {dtype_abbrs[a.dtype]}[{', '.join(map(str, a.shape))}]"
            return f"${self._shortid(a)}{kind}"
        return repr(a)

    def emit(self, record):
        fmt_args = ", ".join(itertools.chain(
            (str(tree_map(self._fmt, a)) for a in record.lt_args),
            (f"{k}={tree_map(self._fmt, v)}" for k, v in record.lt_kwargs.items())))
        fmt_rets = tree_map(functools.partial(self._fmt, with_type=True), record.lt_rs)
        self.log_list.append(f"{fmt_rets} = {record.msg}({fmt_args})")
        if self.tracebacks_list is not None:
            self.tracebacks_list.append(getattr(record, "traceback", None))


def log_input(name, var):
    """Log ``var`` as the input named ``name`` (it gets its ``$<n>`` first)."""
    _log("input", (name,), {}, var)


class GatherTraceback(logging.Filter):
    """Attaches the Python stack of each logged call to its record (``python_tb=True``); opyard has no
    TorchScript or C++ frames to add."""

    def __init__(self, python=True, script=True, cpp=False):
        super().__init__()
        self.python, self.script, self.cpp = python, script, cpp

    def filter(self, record):
        record.traceback = "".join(traceback.format_stack()) if self.python else ""
        return True


@contextlib.contextmanager
def capture_logs(is_mode=False, python_tb=False, script_tb=False, cpp_tb=False):
    """Collect the logged lines into the list it yields (and the tracebacks, when asked for, as a
    second list). ``is_mode``: every tensor gets a ``$<n>``, not only ``LoggingTensor``s."""
    collect_traceback = python_tb or script_tb or cpp_tb
    log_list, tracebacks_list = [], []
    handler = LoggingTensorHandler(log_list, with_type=True, use_shortid_for_all_tensors=is_mode,
                                   tracebacks_list=tracebacks_list if collect_traceback else None)
    gather = GatherTraceback(python=python_tb, script=script_tb, cpp=cpp_tb) if collect_traceback else None
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    if gather is not None:
        logger.addFilter(gather)
    try:
        yield (log_list, tracebacks_list) if collect_traceback else log_list
    finally:
        logger.removeHandler(handler)
        if gather is not None:
            logger.removeFilter(gather)


@contextlib.contextmanager
def capture_logs_with_logging_tensor_mode(python_tb=False, script_tb=False, cpp_tb=False):
    """``capture_logs`` of every call under a ``LoggingTensorMode``."""
    with LoggingTensorMode(), capture_logs(True, python_tb, script_tb, cpp_tb) as logs:
        yield logs
