"""``infer_schema``: a function schema from Python type hints (torch's mapping).

The table of supported parameter types is torch's ``get_supported_param_types``:
each base type with its ``Optional``, ``list``/``Sequence`` (``T[]``),
``Sequence[Optional[T]]`` (``T?[]``) and ``Optional[Sequence[T]]`` (``T[]?``)
forms where torch allows them. ``list[T]`` (PEP 585), ``collections.abc.Sequence``
and ``T | None`` are accepted as the same types as their ``typing`` spellings.
A scalar is torch's ``Union[int, float, bool]`` (any order, or ``int | float | bool``);
``numbers.Number`` is accepted as the same type (torch 2.15 refuses it; older
extension code spells it so).
"""

import collections.abc
import inspect
import numbers
import types
import typing

from .. import _core, _dtype, _tensor

__all__ = ["infer_schema", "supported_param_types", "tuple_to_list", "SUPPORTED_RETURN_NAMES"]

# (python type, schema type, T[] variant, T?[] variant, T[]? variant) — torch's table.
_BASES = None
_PARAM_TYPES = None
_RETURN_TYPES = None
SUPPORTED_RETURN_NAMES = "Tensor, list[Tensor], int, float, bool, Number, None and tuples of those"


def _bases():
    global _BASES
    if _BASES is None:
        _BASES = [
            (_tensor.Tensor, "Tensor", True, True, True),
            (int, "SymInt", True, False, True),
            (float, "float", True, False, True),
            (bool, "bool", True, False, True),
            (str, "str", False, False, False),
            (_SCALAR, "Scalar", True, False, False),
            (_dtype.dtype, "ScalarType", False, False, False),
            (_core.device, "Device", False, False, False),
            (_tensor.device, "Device", False, False, False),  # opyard.device, the public spelling
        ]
    return _BASES


def supported_param_types():
    """``{python annotation: schema type}`` in torch's ``typing`` spellings."""
    global _PARAM_TYPES
    if _PARAM_TYPES is None:
        table = {}
        for base, name, list_base, optional_base_list, optional_list_base in _bases():
            table[base] = name
            table[typing.Optional[base]] = name + "?"
            for seq in (typing.Sequence, typing.List):
                if list_base:
                    table[seq[base]] = name + "[]"
                if optional_base_list:
                    table[seq[typing.Optional[base]]] = name + "?[]"
                if optional_list_base:
                    table[typing.Optional[seq[base]]] = name + "[]?"
                if optional_base_list and optional_list_base:
                    table[typing.Optional[seq[typing.Optional[base]]]] = name + "?[]?"
        _PARAM_TYPES = table
    return _PARAM_TYPES


def _return_types():
    global _RETURN_TYPES
    if _RETURN_TYPES is None:
        _RETURN_TYPES = {_tensor.Tensor: "Tensor", typing.List[_tensor.Tensor]: "Tensor[]", int: "SymInt",
                         float: "float", bool: "bool", _SCALAR: "Scalar"}
    return _RETURN_TYPES


_SEQUENCES = (list, typing.List, typing.Sequence, collections.abc.Sequence)
# torch's ``torch.types.Number``: the annotation of a Scalar parameter or return.
_SCALAR = typing.Union[int, float, bool]
_SCALAR_MEMBERS = frozenset((int, float, bool))


def _normalize(t):
    """``list[T]``, ``collections.abc.Sequence[T]`` and ``T | None`` in torch's ``typing`` spelling."""
    if t is numbers.Number:
        return _SCALAR
    origin = typing.get_origin(t)
    args = typing.get_args(t)
    if origin in (typing.Union, types.UnionType):
        members = frozenset(args)
        if members == _SCALAR_MEMBERS:
            return _SCALAR
        if type(None) in members and members - {type(None)} == _SCALAR_MEMBERS:
            return typing.Optional[_SCALAR]
        if len(args) == 2 and type(None) in args:
            inner = args[0] if args[1] is type(None) else args[1]
            return typing.Optional[_normalize(inner)]
    if origin in _SEQUENCES and len(args) == 1:
        seq = typing.List if origin in (list, typing.List) else typing.Sequence
        return seq[_normalize(args[0])]
    return t


def _lookup(table, t):
    try:
        return table.get(_normalize(t))
    except TypeError:  # an unhashable annotation is simply unsupported
        return None


def _default_repr(value, error_fn, name):
    if value is None or isinstance(value, (int, float, bool)):
        return str(value)
    if isinstance(value, (str, _core.device)):
        return f'"{value}"'
    if isinstance(value, _dtype.dtype):
        return str(value)[len("opyard."):]
    error_fn(f"Parameter {name} has an unsupported default value type {type(value)}. "
             "Please file an issue on GitHub so we can prioritize this.")


def infer_schema(prototype_function, /, *, mutates_args, op_name=None, tags=()):
    """The schema of ``prototype_function`` from its type hints.

    ``mutates_args`` names the parameters the function writes to (``"unknown"``:
    every Tensor parameter); they get alias annotations ``Tensor(a{index}!)``.
    ``tags`` (a ``Tag`` or a sequence of them) may hold ``Tag.inplace`` (the first
    argument is mutated and returned: ``-> Tensor(a0!)``) or ``Tag.out`` (the
    mutated keyword-only Tensors are returned), as torch infers them.

    Example::

        >>> def foo_impl(x: opyard.Tensor, n: int = 2) -> opyard.Tensor: ...
        >>> infer_schema(foo_impl, op_name="foo", mutates_args={})
        'foo(Tensor x, SymInt n=2) -> Tensor'
    """
    def error_fn(what):
        raise ValueError(f"infer_schema(func): {what} Got func with signature {inspect.signature(prototype_function)})")

    is_inplace, is_out = _kind_tags(tags)
    if isinstance(mutates_args, str):
        if mutates_args != "unknown":
            raise ValueError("mutates_args must either be a sequence of the names of the arguments that are "
                             "mutated or the string 'unknown'. ")
    else:
        mutates_args = tuple(mutates_args)  # any iterable of names, read once (an iterator too)
    hints = _resolved_hints(prototype_function, error_fn)
    table = supported_param_types()
    params, seen, saw_kwarg_only = [], set(), False
    first_positional = None  # (name, schema type, alias) of the first positional parameter
    out_aliases, out_names = [], []
    for idx, (name, kind, annotation, default) in enumerate(_parameters(prototype_function)):
        if kind not in (_POSITIONAL_OR_KEYWORD, _KEYWORD_ONLY):
            error_fn("We do not support positional-only args, varargs, or varkwargs.")
        if kind == _KEYWORD_ONLY and not saw_kwarg_only:
            params.append("*")
            saw_kwarg_only = True
        if annotation is _EMPTY:
            error_fn(f"Parameter {name} must have a type annotation.")
        schema_type = _lookup(table, hints.get(name, annotation))
        if schema_type is None:
            _unsupported(name, annotation, hints.get(name, annotation), table, error_fn)
        if kind == _POSITIONAL_OR_KEYWORD and first_positional is None:
            first_positional = (name, schema_type, f"a{idx}")
        mutated = False
        if mutates_args == "unknown":
            if schema_type.startswith("Tensor"):
                schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor'):]}"
                mutated = True
        elif name in mutates_args:
            if not schema_type.startswith("Tensor"):
                error_fn(f"Parameter {name} is in mutable_args but only Tensors or collections of "
                         "Tensors can be mutated")
            schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor'):]}"
            mutated = True
        if is_out and mutated:
            if kind != _KEYWORD_ONLY:
                error_fn("opyard.Tag.out requires mutable arguments to be keyword-only.")
            if schema_type != f"Tensor(a{idx}!)":
                error_fn("opyard.Tag.out only supports mutable keyword-only Tensor arguments.")
            out_aliases.append(f"a{idx}")
            out_names.append(name)
        seen.add(name)
        if default is _EMPTY:
            params.append(f"{schema_type} {name}")
        else:
            params.append(f"{schema_type} {name}={_default_repr(default, error_fn, name)}")
    if mutates_args != "unknown":
        not_seen = set(mutates_args) - seen
        if not_seen:
            error_fn(f"{not_seen} in mutates_args were not found in the custom op's signature. "
                     "mutates_args should contain the names of all args that the custom op mutates, "
                     "or just the string 'unknown' if you don't know.")
    if is_inplace:
        _check_inplace(first_positional, mutates_args, error_fn)
    if is_out and not out_aliases:
        error_fn("opyard.Tag.out requires at least one mutable keyword-only Tensor argument.")
    returned = hints.get("return", _return_annotation(prototype_function))
    if is_out:
        ret = _out_return(returned, out_aliases, out_names, error_fn)
    else:
        ret = _parse_return(returned, error_fn)
    if is_inplace:
        if ret != "Tensor":
            error_fn("opyard.Tag.inplace requires the return annotation to be opyard.Tensor.")
        ret = f"Tensor({first_positional[2]}!)"
    prefix = op_name if op_name is not None else ""
    return f"{prefix}({', '.join(params)}) -> {ret}"


def _kind_tags(tags):
    """``(is_inplace, is_out)`` from infer_schema's ``tags`` (a Tag, a sequence of Tags or None)."""
    if tags is None or tags == ():  # the common case, without the import
        return False, False
    from .._ops import Tag

    if isinstance(tags, Tag):
        tags = (tags,)
    elif not isinstance(tags, (list, tuple, set, frozenset)):
        raise TypeError(f"infer_schema(tags=...): expected an opyard.Tag or a sequence of them, got {tags!r}")
    is_inplace, is_out = Tag.inplace in tags, Tag.out in tags
    if is_inplace and is_out:
        raise AssertionError("opyard.Tag.inplace and opyard.Tag.out are mutually exclusive")
    return is_inplace, is_out


def _check_inplace(first_positional, mutates_args, error_fn):
    if first_positional is None:
        error_fn("opyard.Tag.inplace requires a positional Tensor argument.")
    name, schema_type, _ = first_positional
    if schema_type != "Tensor":
        error_fn("opyard.Tag.inplace requires the first positional argument to be a Tensor.")
    if isinstance(mutates_args, str) or set(mutates_args) != {name}:
        error_fn("opyard.Tag.inplace requires mutates_args to contain exactly "
                 f"the first positional argument, got {mutates_args}.")


def _out_return(annotation, aliases, names, error_fn):
    if len(aliases) == 1:
        matches = annotation is _tensor.Tensor
    else:
        matches = (typing.get_origin(annotation) is tuple
                   and typing.get_args(annotation) == (_tensor.Tensor,) * len(aliases))
    if not matches:
        error_fn("opyard.Tag.out requires the return annotation to match the "
                 f"mutable keyword-only Tensor arguments {tuple(names)}.")
    returns = [f"Tensor({a}!)" for a in aliases]
    return returns[0] if len(returns) == 1 else f"({', '.join(returns)})"


_EMPTY = inspect.Parameter.empty
_POSITIONAL_OR_KEYWORD = inspect.Parameter.POSITIONAL_OR_KEYWORD
_KEYWORD_ONLY = inspect.Parameter.KEYWORD_ONLY
_CO_VARARGS, _CO_VARKEYWORDS = inspect.CO_VARARGS, inspect.CO_VARKEYWORDS


def _is_plain_function(fn):
    return (isinstance(fn, types.FunctionType) and "__wrapped__" not in fn.__dict__
            and "__signature__" not in fn.__dict__)


def _parameters(fn):
    """``(name, kind, annotation, default)`` per parameter: ``inspect.signature``'s answer, read
    straight off the code object for plain functions (5x faster: registration cost)."""
    if not _is_plain_function(fn):
        return [(p.name, p.kind, p.annotation, p.default) for p in inspect.signature(fn).parameters.values()]
    code = fn.__code__
    ann = fn.__annotations__
    n_pos, n_kw = code.co_argcount, code.co_kwonlyargcount
    names = code.co_varnames
    defaults = fn.__defaults__ or ()
    kwdefaults = fn.__kwdefaults__ or {}
    first_default = n_pos - len(defaults)
    out = []
    for i in range(n_pos):
        kind = inspect.Parameter.POSITIONAL_ONLY if i < code.co_posonlyargcount else _POSITIONAL_OR_KEYWORD
        out.append((names[i], kind, ann.get(names[i], _EMPTY),
                    defaults[i - first_default] if i >= first_default else _EMPTY))
    extra = n_pos + n_kw
    if code.co_flags & _CO_VARARGS:
        out.append((names[extra], inspect.Parameter.VAR_POSITIONAL, _EMPTY, _EMPTY))
        extra += 1
    for name in names[n_pos:n_pos + n_kw]:
        out.append((name, _KEYWORD_ONLY, ann.get(name, _EMPTY), kwdefaults.get(name, _EMPTY)))
    if code.co_flags & _CO_VARKEYWORDS:
        out.append((names[extra], inspect.Parameter.VAR_KEYWORD, _EMPTY, _EMPTY))
    return out


def _return_annotation(fn):
    if _is_plain_function(fn):
        return fn.__annotations__.get("return", _EMPTY)
    return inspect.signature(fn).return_annotation


def _resolved_hints(fn, error_fn):
    """Annotations with string forms (``from __future__ import annotations``, or a forward reference
    inside a generic: ``list["MyTensor"]``) evaluated in the function's namespace."""
    raw = getattr(fn, "__annotations__", {})
    if not any(_has_forward_ref(v) for v in raw.values()):
        return dict(raw)
    namespace = {"Tensor": _tensor.Tensor, "device": _tensor.device, "dtype": _dtype.dtype,
                 "Optional": typing.Optional, "List": typing.List, "Sequence": typing.Sequence,
                 "Union": typing.Union, "Number": numbers.Number,
                 # string annotations may spell ``opyard.Tensor`` (``Hooks.facade``: never imported here)
                 "opyard": getattr(_core._hooks(None), "facade", None)}
    namespace.update(getattr(fn, "__globals__", {}))
    return {key: _evaluated(value, namespace, error_fn) for key, value in raw.items()}


def _has_forward_ref(t):
    if isinstance(t, str):
        return True
    return any(_has_forward_ref(a) for a in typing.get_args(t) if a is not Ellipsis)


def _evaluated(value, namespace, error_fn):
    """``value`` with every string in it evaluated, as torch's ``unstringify_type``: a generic around
    one is rebuilt as ``GenericAlias(origin, args)`` (so ``list["MyTensor"]`` resolves, while a
    ``typing.Optional`` around one stays unsupported, as in torch; a ``typing.ForwardRef`` is not read)."""
    if isinstance(value, str):
        try:
            return eval(value, namespace)  # noqa: S307 - annotations are the user's own code
        except NameError as e:
            error_fn(f"Unsupported type annotation {value}. It is not a type. ({e}). If you are using "
                     "'from __future__ import annotations', note that annotations are evaluated lazily as "
                     "strings; make sure all types referenced in annotations are importable at module "
                     "scope, not only inside a local function.")
        except Exception as e:
            error_fn(f"Unsupported type annotation {value}. It is not a type. ({type(e).__name__}: {e})")
    args = typing.get_args(value)
    if not args or not any(_has_forward_ref(a) for a in args if a is not Ellipsis):
        return value
    inner = tuple(a if a is Ellipsis else _evaluated(a, namespace, error_fn) for a in args)
    origin = typing.get_origin(value)
    if origin in (typing.Union, types.UnionType):
        return value  # torch's GenericAlias(Union, ...) is no type it supports: refused as written
    return types.GenericAlias(origin, inner)


def _unsupported(name, written, annotation, table, error_fn):
    valid = ", ".join(_type_name(t) for t in table)
    if typing.get_origin(annotation) is tuple:
        as_list = tuple_to_list(annotation)
        example = f"For example, {as_list}.\n\n" if _lookup(table, as_list) is not None else "\n\n"
        error_fn(f"Parameter {name} has unsupported type {written}. We do not support Tuple inputs in "
                 f"schema. As a workaround, please try to use List instead. {example}"
                 f"The valid types are: {valid}.")
    error_fn(f"Parameter {name} has unsupported type {written}. The valid types are: {valid}.")


def tuple_to_list(tuple_type):
    """The ``list[...]`` spelling of a ``tuple[...]`` annotation (torch's ``tuple_to_list``): ``tuple``
    and ``Tuple`` give ``list``, ``tuple[int]`` and ``tuple[int, ...]`` give ``list[int]``, and
    ``tuple[int, float]`` gives ``list[Union[int, float]]``."""
    args = typing.get_args(tuple_type)
    if not args:
        return list
    if len(args) == 1 or (len(args) == 2 and args[1] is Ellipsis):
        return list[args[0]]
    return list[typing.Union[args]]


def _type_name(t):
    text = t.__qualname__ if isinstance(t, type) else str(t)
    for long, short in (("typing.", ""), ("opyard._tensor.", ""), ("opyard._dtype.", ""), ("numbers.", ""),
                        ("opyard.device", "device")):
        text = text.replace(long, short)
    return text


def _parse_return(annotation, error_fn):
    if annotation is None or annotation is type(None):
        return "()"
    if annotation is inspect.Parameter.empty:
        error_fn("No return type annotation was provided. Please add one.")
    table = _return_types()
    if typing.get_origin(annotation) is not tuple:
        name = _lookup(table, annotation)
        if name is None:
            error_fn(f"Return has unsupported type {annotation}. The valid types are: "
                     f"{SUPPORTED_RETURN_NAMES}.")
        return name
    names = [_lookup(table, a) for a in typing.get_args(annotation)]
    if any(n is None for n in names):
        error_fn(f"Return has unsupported type {annotation}. The valid types are: {SUPPORTED_RETURN_NAMES}.")
    # torch writes a one-element tuple as ``((T))``, which the parser keeps apart from ``T``.
    inner = ", ".join(names) if len(names) != 1 else f"({names[0]})"
    return "(" + inner + ")"
