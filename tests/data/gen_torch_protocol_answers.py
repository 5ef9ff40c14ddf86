"""Record torch 2.15's answers for the subclass and dispatch protocol tests.

Run with a Python that has torch (``make protocol-expect``); it writes
``torch_protocol_answers.json`` next to this file. The tests only read the JSON.

Sections:

- ``metadata_policy``: for a ``_make_wrapper_subclass`` / ``_make_subclass`` tensor made with
  ``dispatch_sizes_strides_policy="sizes"|"strides"``, ``dispatch_device=True`` or
  ``dispatch_layout=True``, and a handler that answers ``None``, fixed values or
  ``NotImplemented``: what each metadata query returns (or raises) and which operators the
  handler saw;
- ``needs_input_grad``: what ``register_autograd``'s ``setup_context`` and ``backward`` see in
  ``ctx.needs_input_grad`` for several schemas and calls;
- ``subclass_construction``: views, leaves and history of ``_make_subclass``, ``as_subclass`` and
  the legacy ``Subclass(tensor)`` constructor;
- ``errors``: exception types and messages of the protocol's misuses;
- ``vmap_rule_levels``: what a ``register_vmap`` rule is told (batch size, which arguments are
  batched, their logical shapes) at each level of nested vmaps.
"""

import json
import os
import sys

import torch
from torch.library import Library
from torch.overrides import TorchFunctionMode
from torch.utils._python_dispatch import TorchDispatchMode

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_protocol_answers.json")


def describe(value):
    """A JSON form both libraries' answers reduce to."""
    if isinstance(value, torch.Size) or (isinstance(value, tuple) and all(isinstance(v, int) for v in value)):
        return {"sizes": list(value)}
    if isinstance(value, torch.device):
        return {"device": str(value)}
    if isinstance(value, torch.layout):
        return {"layout": str(value).replace("torch.", "")}
    if isinstance(value, (bool, int, float)):
        return value
    return repr(value)


def outcome(fn):
    try:
        return {"value": describe(fn())}
    except Exception as e:  # noqa: BLE001 -- the answer is the exception
        return {"error": type(e).__name__, "message": str(e).split("\n")[0]}


# --- metadata routed through __torch_dispatch__ ------------------------------------------------

POLICIES = {
    "sizes": {"dispatch_sizes_strides_policy": "sizes"},
    "strides": {"dispatch_sizes_strides_policy": "strides"},
    "device": {"dispatch_device": True},
    "layout": {"dispatch_layout": True},
}
VALUES = {
    "aten.sym_size.default": (5, 3), "aten.sym_stride.default": (4, 2), "aten.dim.default": 2,
    "aten.sym_numel.default": 15, "aten.is_contiguous.default": False,
    "aten.is_contiguous.memory_format": True, "aten.sym_storage_offset.default": 7,
    "prim.device.default": torch.device("meta"), "prim.layout.default": torch.strided,
}
QUERIES = {
    "size()": lambda e: e.size(), "size(1)": lambda e: e.size(1), "size(-1)": lambda e: e.size(-1),
    "shape": lambda e: e.shape, "stride()": lambda e: e.stride(), "stride(0)": lambda e: e.stride(0),
    "dim()": lambda e: e.dim(), "ndim": lambda e: e.ndim, "numel()": lambda e: e.numel(),
    "nelement()": lambda e: e.nelement(), "len()": lambda e: len(e),
    "is_contiguous()": lambda e: e.is_contiguous(),
    "is_contiguous(channels_last)": lambda e: e.is_contiguous(memory_format=torch.channels_last),
    "storage_offset()": lambda e: e.storage_offset(), "device": lambda e: e.device,
    "layout": lambda e: e.layout, "is_cpu": lambda e: e.is_cpu, "is_meta": lambda e: e.is_meta,
    "get_device()": lambda e: e.get_device(), "dtype": lambda e: e.dtype is torch.float32,
}


def metadata_policy():
    out = {}
    calls = []
    for maker in ("wrapper", "make_subclass"):
        for policy, options in POLICIES.items():
            for handler in ("none", "values", "notimpl"):
                class E(torch.Tensor):
                    @staticmethod
                    def __new__(cls, data):
                        if maker == "wrapper":
                            return torch.Tensor._make_wrapper_subclass(
                                cls, data.size(), strides=data.stride(), dtype=data.dtype, device=data.device,
                                **options)
                        return torch.Tensor._make_subclass(cls, data, False, **options)

                    @classmethod
                    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                        calls.append(str(func))
                        if handler == "none":
                            return None
                        if handler == "values" and str(func) in VALUES:
                            return VALUES[str(func)]
                        return NotImplemented

                e = E(torch.randn(2, 3))
                for name, query in QUERIES.items():
                    calls.clear()
                    answer = outcome(lambda: query(e))
                    answer["calls"] = list(calls)
                    out[f"{maker}|{policy}|{handler}|{name}"] = answer
    return out


# --- register_autograd's needs_input_grad ------------------------------------------------------

NEEDS_CASES = {
    "defaulted_float_not_passed": ("f(Tensor x, Tensor y, float z=2.0) -> Tensor", "op(x, y)"),
    "defaulted_float_passed": ("f(Tensor x, Tensor y, float z=2.0) -> Tensor", "op(x, y, 3.0)"),
    "kwarg_only_not_passed": ("f(Tensor x, Tensor y, *, float z=2.0) -> Tensor", "op(x, y)"),
    "kwarg_only_passed": ("f(Tensor x, Tensor y, *, float z=2.0) -> Tensor", "op(x, y, z=3.0)"),
    "optional_tensor_not_passed": ("f(Tensor x, Tensor? y=None, float z=2.0) -> Tensor", "op(x)"),
    "two_defaults_passed": ("f(Tensor x, Tensor y, float z=2.0, float w=1.0) -> Tensor", "op(x, y, 2.0, 5.0)"),
    "tensor_list": ("f(Tensor x, Tensor[] ys, float z=2.0) -> Tensor", "op(x, [y, x])"),
    "second_requires_grad": ("f(Tensor x, Tensor y) -> Tensor", "op(y, x)"),
}


def needs_input_grad():
    out = {}
    for i, (case, (schema, call)) in enumerate(NEEDS_CASES.items()):
        ns = f"protocol_needs_{i}"
        lib = Library(ns, "DEF")
        name = schema.split("(")[0]
        lib.define(schema)
        lib.impl(name, lambda *args, **kwargs: args[0].clone(), "CompositeExplicitAutograd")
        op = getattr(getattr(torch.ops, ns), name).default
        seen = {}

        def setup_context(ctx, inputs, output, keyword_only_inputs=None, seen=seen):
            seen["setup"] = list(ctx.needs_input_grad)

        def backward(ctx, grad, seen=seen):
            needs = ctx.needs_input_grad
            seen["backward"] = [list(n) if isinstance(n, list) else n for n in needs]
            return tuple([grad if needs[0] is True else None]
                         + [[None] * len(n) if isinstance(n, list) else None for n in needs[1:]])

        torch.library.register_autograd(op, backward, setup_context=setup_context, lib=lib)
        x = torch.randn(2, requires_grad=True)
        y = torch.randn(2)
        eval(call, {"op": op, "x": x, "y": y}).sum().backward()
        out[case] = {"schema": schema, "call": call, **seen}
        lib._destroy()
    return out


# --- how subclasses are made from tensors ------------------------------------------------------

def subclass_construction():
    class S(torch.Tensor):
        pass

    def facts(make, requires_grad):
        x = torch.randn(2, requires_grad=requires_grad)
        s = make(x)
        answer = {"type_is_S": type(s) is S, "base_is_input": s._base is x, "is_view": s._is_view(),
                  "is_leaf": s.is_leaf, "requires_grad": s.requires_grad,
                  "grad_fn": None if s.grad_fn is None else type(s.grad_fn).__name__}
        before = x._version
        with torch.no_grad():
            s.add_(1)
        answer["shares_version"] = x._version == before + 1
        return answer

    makers = {
        "make_subclass": lambda x: torch.Tensor._make_subclass(S, x),
        "make_subclass_require_grad": lambda x: torch.Tensor._make_subclass(S, x.detach(), True),
        "as_subclass": lambda x: x.as_subclass(S),
        "legacy_constructor": lambda x: S(x),
    }
    return {f"{name}|{rg}": facts(make, rg) for name, make in makers.items() for rg in (False, True)}


# --- misuse --------------------------------------------------------------------------------------

def errors():
    class S(torch.Tensor):
        pass

    class NoHandler(torch.Tensor):
        pass

    class W(torch.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    class ClassDispatchMode(TorchDispatchMode):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    class ClassFunctionMode(TorchFunctionMode):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    x = torch.randn(2)

    def in_mode(mode):
        def run():
            with mode():
                return x + x
        return run

    cases = {
        "make_subclass_not_a_type": lambda: torch.Tensor._make_subclass(3, x),
        "make_subclass_not_a_tensor_class": lambda: torch.Tensor._make_subclass(int, x),
        "make_subclass_data_not_a_tensor": lambda: torch.Tensor._make_subclass(S, [1.0]),
        "make_subclass_int_requires_grad": lambda: torch.Tensor._make_subclass(S, torch.arange(2), True),
        "make_subclass_bad_policy": lambda: torch.Tensor._make_subclass(S, x, dispatch_sizes_strides_policy="bad"),
        "as_subclass_not_a_tensor_class": lambda: x.as_subclass(int),
        "wrapper_without_handler": lambda: torch.Tensor._make_wrapper_subclass(NoHandler, (2,)),
        "wrapper_not_a_type": lambda: torch.Tensor._make_wrapper_subclass(3, (2,)),
        "wrapper_size_not_ints": lambda: torch.Tensor._make_wrapper_subclass(W, 3),
        "wrapper_strides_mismatch": lambda: torch.Tensor._make_wrapper_subclass(W, (2, 3), (1,)),
        "wrapper_bad_policy": lambda: torch.Tensor._make_wrapper_subclass(W, (2,), dispatch_sizes_strides_policy="x"),
        "wrapper_int_requires_grad": lambda: torch.Tensor._make_wrapper_subclass(W, (2,), dtype=torch.int64,
                                                                                 requires_grad=True),
        "dispatch_mode_classmethod": in_mode(ClassDispatchMode),
        "function_mode_classmethod": in_mode(ClassFunctionMode),
        "all_handlers_not_implemented": lambda: torch.Tensor._make_wrapper_subclass(W, (2,)).neg(),
    }
    return {name: outcome(fn) for name, fn in cases.items()}


# --- what a register_vmap rule is told at each level of nested vmaps -----------------------------

#: name -> the call, as source evaluated with ``vmap``, ``g`` (a custom op ``g(x, y)`` whose rule
#: records what it is told) and inputs ``a`` (2, 5), ``b`` (3, 5), ``c`` (2, 3, 5).
VMAP_LEVEL_CASES = {
    "outer_a_inner_b": "vmap(lambda aa: vmap(lambda bb: g(aa, bb))(b))(a)",
    "outer_b_inner_a": "vmap(lambda bb: vmap(lambda aa: g(aa, bb))(a))(b)",
    "both_levels_one_tensor": "vmap(vmap(lambda t: g(t, t)))(c)",
    "inner_only_batched": "vmap(lambda aa: vmap(lambda t: g(t, b[0]))(c[0]))(a)",
    "outer_in_dims_1": "vmap(lambda bb: vmap(lambda aa: g(aa, bb))(a), in_dims=1)(b.T)",
    "inner_in_dims_1": "vmap(lambda aa: vmap(lambda bb: g(aa, bb), in_dims=1)(b.T))(a)",
    "three_levels": "vmap(lambda cc: vmap(lambda aa: vmap(lambda bb: g(aa + cc[0, 0], bb))(b))(a))(c)",
}


def vmap_rule_levels():
    """Per case, the rule's calls in order: batch size, ``in_dims``, and each argument's shape with
    its batch dim removed (the logical shape at that level; where the batch dim sits physically
    is the library's choice, ``in_dims`` says where)."""
    seen = []

    @torch.library.custom_op("protocol_vmap_levels::g", mutates_args=())
    def g(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        return x * y

    def rule(info, in_dims, x, y):
        logical = [list(t.shape[:d]) + list(t.shape[d + 1:]) if d is not None else list(t.shape)
                   for t, d in zip((x, y), in_dims)]
        seen.append({"batch_size": info.batch_size, "batched": [d is not None for d in in_dims],
                     "logical_shapes": logical})
        xs = x.movedim(in_dims[0], 0) if in_dims[0] is not None else x.expand(info.batch_size, *x.shape)
        ys = y.movedim(in_dims[1], 0) if in_dims[1] is not None else y.expand(info.batch_size, *y.shape)
        return g(xs, ys), 0

    g.register_vmap(rule)
    torch.manual_seed(0)
    env = {"vmap": torch.vmap, "g": g, "a": torch.randn(2, 5), "b": torch.randn(3, 5),
           "c": torch.randn(2, 3, 5)}
    out = {}
    for name, call in VMAP_LEVEL_CASES.items():
        seen.clear()
        result = eval(call, env)
        out[name] = {"call": call, "calls": list(seen), "shape": list(result.shape)}
    return out


def main():
    answers = {
        "torch": torch.__version__,
        "metadata_policy": metadata_policy(),
        "needs_input_grad": needs_input_grad(),
        "subclass_construction": subclass_construction(),
        "errors": errors(),
        "vmap_rule_levels": vmap_rule_levels(),
    }
    with open(OUT, "w") as f:
        json.dump(answers, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
