"""Checks on what a ``__torch_dispatch__`` returns, against the operator's schema.

An override that returns the wrong kind of value would otherwise fail far
from the mistake (in autograd, or in the caller's next operator); the
``Python`` key's fallback checks the result's structure and tensor types
here and names the operator and the class.

Sizes and dtypes are checked only on request (``check_dispatch_results``):
torch checks neither, and a wrapper may legitimately hold a differently
shaped payload as long as its own metadata is right. When on, each returned
tensor is compared with what the operator's ``Meta`` kernel computes for
contiguous meta stand-ins of the arguments (the same cross-check torch's
``CrossRefFakeMode`` does with fake tensors), cached per (operator,
argument metadata) so a repeated call costs one dict lookup. Operators
whose output metadata depends on data (tagged ``data_dependent_output`` or
``dynamic_output_shape``), or that have no ``Meta`` kernel, are not checked.
"""

from .._tensor import Tensor, _make_meta
from .._ops import Tag
from ..dispatcher import DispatchKey, DispatchKeySet

__all__ = ["check_result", "check_dispatch_results", "handler_name"]

_META = DispatchKeySet(DispatchKey.Meta)
_DATA_DEPENDENT = (Tag.data_dependent_output, Tag.dynamic_output_shape)
_metadata_checks = [False]
_meta_results = {}  # (OpOverload, argument metadata) -> tuple of (size, dtype) or None per output
_UNCHECKABLE = ()
_MISSING = object()
_MAX_CACHED = 4096

_expected = {}  # OpOverload -> tuple of return kinds ("Tensor", "Tensor?", "Tensor[]", other)


# Types as the schema prints them -> as written in a schema (what the messages show).
_KIND_NAMES = {"Optional[Tensor]": "Tensor?", "List[Tensor]": "Tensor[]", "List[Optional[Tensor]]": "Tensor?[]"}


_ONE_TENSOR = ("Tensor",)


def _kinds(op):
    kinds = _expected.get(op)
    if kinds is None:
        kinds = tuple(_KIND_NAMES.get(str(r.type), str(r.type)) for r in op._schema.returns)
        # one object for the common schema, which ``check_result`` recognises by identity
        kinds = _expected[op] = _ONE_TENSOR if kinds == _ONE_TENSOR else kinds
    return kinds


def _cast_error(value, kind, who, op):
    return RuntimeError(f"Unable to cast {value} to {kind}: {who} returned it for {op}, whose schema returns "
                        f"{kind} there")


def _check(kind, value, who, op):
    """torch's conversion of one returned value: a Tensor or None (an undefined tensor) where the
    schema returns a Tensor, a list or tuple of Tensors for ``Tensor[]``; other kinds pass."""
    if kind in ("Tensor", "Tensor?"):
        if value is not None and not isinstance(value, Tensor):
            raise _cast_error(value, "Tensor", who, op)
    elif kind in ("Tensor[]", "Tensor?[]"):
        if not isinstance(value, (list, tuple)) or \
                not all(isinstance(v, Tensor) or (v is None and kind == "Tensor?[]") for v in value):
            raise RuntimeError(f"Unable to cast Python instance of type {type(value)} to {kind}: {who} returned "
                               f"{_describe(value)} for {op}")


def _describe(value):
    if isinstance(value, (list, tuple)):
        inner = ", ".join(type(v).__name__ for v in value[:4])
        return f"{type(value).__name__} of ({inner}{', ...' if len(value) > 4 else ''})"
    return type(value).__name__


def handler_name(owner):
    """How the messages name the handler of ``owner``: a subclass, a mode, or a name already."""
    if isinstance(owner, str):
        return owner
    cls = owner if isinstance(owner, type) else type(owner)
    return f"{cls.__name__}.__torch_dispatch__"


def check_result(op, result, who, args=(), kwargs=None):
    """``result`` if it converts to ``op``'s returns as torch converts it (None stands for an
    undefined tensor), else torch's error naming ``op`` and ``who`` (the handler's name, or its
    subclass or mode: see ``handler_name``)."""
    kinds = _expected.get(op) or _kinds(op)
    if kinds is _ONE_TENSOR and isinstance(result, Tensor) and not _metadata_checks[0]:
        return result  # the common answer, checked without a call
    who = handler_name(who)
    if len(kinds) == 1:
        _check(kinds[0], result, who, op)
    elif kinds:
        if not isinstance(result, (tuple, list)):
            raise TypeError(f"Object of type '{type(result).__name__}' is not an instance of 'sequence': {who} "
                            f"returned it for {op}, whose schema returns ({', '.join(kinds)})")
        if len(result) != len(kinds):
            raise RuntimeError(f"Expected {who} to return {len(kinds)} values for {op}, but it returned "
                               f"{len(result)}")
        for kind, value in zip(kinds, result):
            _check(kind, value, who, op)
    if _metadata_checks[0] and kinds:
        _check_metadata(op, result, who, len(kinds) == 1, args, kwargs)
    return result


def check_dispatch_results(enabled=True):
    """Also check the sizes and dtypes of what ``__torch_dispatch__`` returns (off by default,
    as in torch); returns the previous setting. A debugging aid: see the module docs."""
    previous = _metadata_checks[0]
    _metadata_checks[0] = bool(enabled)
    return previous


def _meta_key(value):
    """A hashable description of an argument's metadata (tensors by size and dtype)."""
    if isinstance(value, Tensor):
        return ("T", tuple(value.shape), value.dtype)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, *(_meta_key(v) for v in value))
    return value


def _stand_in(value):
    if isinstance(value, Tensor):
        return _make_meta(tuple(value.shape), value.dtype)
    if isinstance(value, (list, tuple)):
        return type(value)(_stand_in(v) for v in value)
    return value


def _flat_meta(value):
    if isinstance(value, Tensor):
        return (tuple(value.shape), value.dtype)
    if isinstance(value, (list, tuple)):
        return [_flat_meta(v) for v in value]
    return None


def _expected_meta(op, args, kwargs):
    """The outputs' (size, dtype) by the ``Meta`` kernel, or ``_UNCHECKABLE``."""
    try:
        key = (op, _meta_key(args),
               tuple((k, _meta_key(v)) for k, v in kwargs.items()) if kwargs else None)
        hash(key)
    except TypeError:  # an unhashable argument: compute without caching
        key = None
    else:
        found = _meta_results.get(key, _MISSING)
        if found is not _MISSING:
            return found
    if any(tag in _DATA_DEPENDENT for tag in op.tags):
        expected = _UNCHECKABLE
    else:
        out = _run_meta(op, args, kwargs)
        expected = _UNCHECKABLE if out is _UNCHECKABLE else _flat_meta(out)
    if key is not None:
        if len(_meta_results) >= _MAX_CACHED:
            _meta_results.clear()  # a program with ever-new shapes must not grow this forever
        _meta_results[key] = expected
    return expected


def _run_meta(op, args, kwargs):
    try:
        return op.redispatch(_META, *_stand_in(args), **({k: _stand_in(v) for k, v in kwargs.items()}
                                                         if kwargs else {}))
    except Exception:  # no Meta kernel, or one that needs data: nothing to compare with
        return _UNCHECKABLE


def _check_metadata(op, result, who, single, args, kwargs):
    expected = _expected_meta(op, args, kwargs)
    if expected is _UNCHECKABLE:
        return
    got = _flat_meta(result)
    if single:
        expected, got = [expected], [got]
    for i, (e, g) in enumerate(zip(expected, got)):
        if isinstance(e, list) and isinstance(g, list) and len(e) == len(g):
            pairs = zip(e, g)  # a Tensor[] output: element by element
        else:
            pairs = [(e, g)]
        for e, g in pairs:
            if not isinstance(e, tuple) or not isinstance(g, tuple) or e == g:
                continue  # an absent optional output, a non-tensor one, or a match
            where = "" if single else f" output {i}"
            raise RuntimeError(
                f"{who} returned{where} a tensor of size {list(g[0])} and dtype {g[1]} for {op}, "
                f"whose Meta kernel computes size {list(e[0])} and dtype {e[1]} for these arguments: "
                "return tensors whose metadata matches the operator's (check_dispatch_results(False) "
                "turns this check off)"
            )
