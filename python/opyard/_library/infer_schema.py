"""``infer_schema``: a function schema from Python type hints (torch's mapping)."""

import inspect
import numbers
import typing
from collections.abc import Sequence

__all__ = ["infer_schema"]


def _base_map():
    import opyard

    return {
        opyard.Tensor: "Tensor", int: "SymInt", float: "float", bool: "bool", str: "str",
        numbers.Number: "Scalar", opyard.dtype: "ScalarType", opyard.device: "Device",
    }


def _is_optional(t):
    args = typing.get_args(t)
    return typing.get_origin(t) is typing.Union and len(args) == 2 and type(None) in args


def _schema_type(t, where):
    base = _base_map()
    if t in base:
        return base[t]
    if _is_optional(t):
        inner = [a for a in typing.get_args(t) if a is not type(None)][0]
        return _schema_type(inner, where) + "?"
    origin = typing.get_origin(t)
    if origin in (list, Sequence, typing.List, typing.Sequence) or t in (list,):
        args = typing.get_args(t)
        if not args:
            raise ValueError(f"infer_schema(func): {where} has unsupported type {t}: a list annotation "
                             "needs its element type, e.g. list[Tensor]")
        return _schema_type(args[0], where) + "[]"
    raise ValueError(
        f"infer_schema(func): {where} has unsupported type {t}. We support Tensor, "
        "Optional[Tensor], Sequence[Tensor], int, float, bool, str, Number, opyard.dtype, "
        "opyard.device and their Optional/list forms."
    )


def _default_text(v, where):
    if v is None:
        return "None"
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    raise ValueError(f"infer_schema(func): {where} has an unsupported default value {v!r}; "
                     "defaults may be None, bool, int, float or str")


def _return_type(t, sig):
    import opyard

    if t is None or t is type(None):
        return "()"
    if t is inspect.Signature.empty:
        raise ValueError(f"infer_schema(func): No return type annotation was provided. Please add one. "
                         f"Got func with signature {sig}")
    origin = typing.get_origin(t)
    if origin is tuple:
        return "(" + ", ".join(_schema_type(a, "return") for a in typing.get_args(t)) + ")"
    if t is opyard.Tensor or origin in (list, Sequence) or t in _base_map():
        return _schema_type(t, "return")
    raise ValueError(f"infer_schema(func): Return has unsupported type {t}. The valid types are "
                     "Tensor, tuple[Tensor, ...], list[Tensor], int, float, bool and None.")


def infer_schema(prototype_function, /, *, mutates_args, op_name=None):
    """The schema of ``prototype_function`` from its annotations: ``(Tensor x, SymInt n) -> Tensor``.

    ``mutates_args`` names the Tensor parameters written to (``"unknown"``: all of them);
    they get alias annotations ``Tensor(a0!)``. ``op_name`` prefixes the schema.
    """
    sig = inspect.signature(prototype_function, eval_str=True)
    params, seen_kw, tensor_params = [], False, []
    write_names = _mutated_names(sig, mutates_args)
    alias_idx = 0
    for name, p in sig.parameters.items():
        where = f"Parameter {name}"
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise ValueError(f"infer_schema(func): We do not support positional-only args, varargs, or "
                             f"varkwargs. Got func with signature {sig}")
        if p.annotation is p.empty:
            raise ValueError(f"infer_schema(func): Parameter {name} must have a type annotation. "
                             f"Got func with signature {sig}")
        ty = _schema_type(p.annotation, where)
        if ty.startswith("Tensor"):
            tensor_params.append(name)
        if name in write_names:
            if not ty.startswith("Tensor"):
                raise ValueError(f"infer_schema(func): Parameter {name} is in mutates_args but is not a "
                                 f"Tensor (it is {ty}); only Tensor arguments can be mutated")
            ty = ty.replace("Tensor", f"Tensor(a{alias_idx}!)", 1)
            alias_idx += 1
        if p.kind == p.KEYWORD_ONLY and not seen_kw:
            params.append("*")
            seen_kw = True
        text = f"{ty} {name}"
        if p.default is not p.empty:
            text += "=" + _default_text(p.default, where)
        params.append(text)
    if mutates_args != "unknown":
        unknown = set(write_names) - set(sig.parameters)
        if unknown:
            raise ValueError(f"infer_schema(func): mutates_args contains {sorted(unknown)}, which are not "
                             f"parameters of the function {sig}")
    ret = _return_type(sig.return_annotation, sig)
    schema = f"({', '.join(params)}) -> {ret}"
    return f"{op_name}{schema}" if op_name else schema


def _mutated_names(sig, mutates_args):
    if mutates_args == "unknown":
        import opyard

        return [n for n, p in sig.parameters.items()
                if p.annotation is not p.empty and _schema_type(p.annotation, n).startswith("Tensor")
                and "[]" not in _schema_type(p.annotation, n)]
    if isinstance(mutates_args, str):
        raise ValueError(f"mutates_args must be an iterable of parameter names or 'unknown', got the "
                         f"string {mutates_args!r}; did you mean ({mutates_args!r},)?")
    return list(mutates_args)
