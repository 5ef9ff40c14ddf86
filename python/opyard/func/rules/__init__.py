"""The batching rules of the built-in operators, installed at the ``Batched`` key.

Each rule is the op's ``Batched`` kernel, specialised for that op at import
(the overloads it calls are resolved then), so a call on a batched tensor costs
one Python kernel and one physical op call: no table lookup per call. Ops
without a rule reach the boxed fallback (``fallback.loop_fallback``). Random
ops also get a ``VmapMode`` kernel for the randomness policy. Registered
through ``_core`` directly (the pattern of the other subsystems' fallbacks):
these registrations live as long as the process.
"""

import functools

from ... import _core
from ..._aten import OP_TABLE
from ..._provenance import caller_site
from . import dims, linalg, misc, pointwise, shape
from .common import aten
from .fallback import batched_fallback

__all__ = ["RULES", "install"]

_SITE = caller_site()


def _rule_table():
    """name -> factory(op) for every built-in op with a batching rule."""
    table = {}
    for name, _, _, kind in OP_TABLE:
        if kind == "pointwise":
            op = aten(name)
            tensors = [a for a in op._schema.arguments if a.real_type.startswith("Tensor")]
            if len(tensors) == 1 and op._schema.arguments[0].real_type == "Tensor":
                table[name] = pointwise.unary_rule
            else:
                table[name] = pointwise.pointwise_rule
        elif kind == "inplace":
            table[name] = pointwise.inplace_rule
        elif kind == "like":
            table[name] = _like_rule(name)
    for name, spec in dims.DIM_SPECS.items():
        table[name] = functools.partial(_dim_rule, spec=spec)
    for name, target in dims.ALL_DIMS.items():
        table[name] = functools.partial(_all_dims_rule, target=target)
    table.update({
        "prod": lambda op: dims.flat_rule(op, "prod.dim_int"),
        "any": lambda op: dims.flat_rule(op, "any.dim"), "all": lambda op: dims.flat_rule(op, "all.dim"),
        "argmax": dims.arg_reduce_rule, "argmin": dims.arg_reduce_rule,
        "where.self": lambda op: pointwise.pointwise_rule(op, skip=(0,)),
        "where.ScalarOther": lambda op: pointwise.pointwise_rule(op, skip=(0,)),
        "where.ScalarSelf": lambda op: pointwise.pointwise_rule(op, skip=(0,)),
        "as_strided": shape.as_strided_rule, "view": shape.size_rule, "reshape": shape.size_rule, "expand": shape.expand_rule, "t": shape.t_rule,
        "squeeze": shape.squeeze_all_rule, "cat": shape.cat_rule, "stack": shape.stack_rule,
        "repeat": shape.repeat_rule, "flatten.using_ints": shape.flatten_rule,
        "view_as": lambda op: shape.as_rule(op, "view"), "expand_as": lambda op: shape.as_rule(op, "expand"),
        "alias": pointwise.unary_rule, "detach": pointwise.unary_rule, "clone": shape.clone_rule,
        "contiguous": shape.contiguous_rule, "_to_copy": pointwise.unary_rule,
        "triu": misc.matrix_rule, "tril": misc.matrix_rule,
        "matmul": linalg.matmul_rule, "mm": linalg.product_rule, "bmm": linalg.product_rule,
        "mv": linalg.product_rule, "dot": linalg.product_rule, "outer": linalg.outer_rule,
        "addmm": linalg.addmm_rule, "linear": linalg.linear_rule,
        "new_empty": misc.new_rule, "new_zeros": misc.new_rule, "new_ones": misc.new_rule,
        "new_full": misc.new_rule, "numel": misc.numel_rule,
        "nonzero": misc.refuse_rule, "allclose": misc.refuse_rule,
        "gather": misc.gather_rule, "index_select": misc.index_select_rule, "index.Tensor": misc.index_rule,
        "scatter.src": misc.scatter_rule, "scatter.value": misc.scatter_rule, "scatter_add": misc.scatter_rule,
        "scatter_.src": lambda op: misc.scatter_rule(op, inplace=True),
        "scatter_.value": lambda op: misc.scatter_rule(op, inplace=True),
        "masked_fill.Scalar": misc.masked_fill_rule, "masked_fill.Tensor": misc.masked_fill_rule,
        "masked_fill_.Scalar": lambda op: misc.masked_fill_rule(op, inplace=True),
        "masked_fill_.Tensor": lambda op: misc.masked_fill_rule(op, inplace=True),
        "einsum": misc.einsum_rule,
        "rand_like": misc.random_like_rule, "randn_like": misc.random_like_rule,
        "uniform_": misc.random_inplace_rule, "normal_": misc.random_inplace_rule,
    })
    table["index_put"] = misc.index_put_rule
    table["index_put_"] = functools.partial(misc.index_put_rule, inplace=True)
    return table


def _dim_rule(op, spec):
    return dims.dim_rule(op, spec)


def _all_dims_rule(op, target):
    return dims.all_dims_rule(op, target)


def _like_rule(name):
    """``zeros_like(x)`` & co. act per example like a unary op; ``new_*`` take a size."""
    return misc.new_rule if name.startswith("new_") else pointwise.unary_rule


RULES = _rule_table()


def install():
    lib = _core._new_library("_", "IMPL", None, _SITE)
    _core._fallback(lib, "Batched", batched_fallback, with_keyset=False, fallthrough=False, provenance=_SITE)
    aten_lib = _core._new_library("aten", "IMPL", None, _SITE)
    for name, factory in RULES.items():
        op = aten(name)
        _core._impl(aten_lib, name, "Batched", factory(op), with_keyset=False, fallthrough=False,
                    allow_override=True, provenance=_SITE)
    for name, size_index in misc.RANDOM_OPS.items():
        _core._impl(aten_lib, name, "VmapMode", misc.vmap_mode_kernel(aten(name), size_index), with_keyset=False,
                    fallthrough=False, allow_override=True, provenance=_SITE)
    return lib, aten_lib


_LIBS = install()

from ..._exports import public_dir

__dir__ = public_dir(globals())
