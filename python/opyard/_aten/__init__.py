"""The built-in ``aten`` operator library: schemas from PyTorch, numpy kernels.

Every operator is defined through ``KernelLibrary("aten", "DEF")`` with its schema
verbatim from native_functions.yaml and gets a kernel for each numpy-backed
backend (CPU, the PrivateUse1 test backend, CUDA through cupy's numpy
protocols) plus a Meta kernel, or — for compositions of other operators — one
CompositeImplicitAutograd kernel. The op table below is data: one row per
operator (schema name, kernel, meta kernel, kind); registration is a loop.
"""

import warnings

from .._registration import KernelLibrary
from . import composite_nn, extra_ops, factory, indexing, index_ops, linalg, linalg_ops, math_ops, meta, reduce_ops, misc_ops, nn_ops, out_variants, trig_ops
from . import pointwise
from . import reduction, return_types, shape, sorting, tags, unary
from .schemas import SCHEMAS as _BASE_SCHEMAS

SCHEMAS = _BASE_SCHEMAS + extra_ops.SCHEMAS + math_ops.SCHEMAS + reduce_ops.SCHEMAS + linalg_ops.SCHEMAS + index_ops.SCHEMAS + trig_ops.SCHEMAS + out_variants.SCHEMAS

__all__ = ["LIB", "OP_NAMES", "OP_TABLE", "BACKENDS", "COMPOSITE_OPS", "return_types"]

# torch produces inf/nan silently; numpy warns from the frame that called the ufunc, i.e. from
# these kernels. Scoped to this package's modules, so users' own numpy code still warns.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"opyard\._aten\.")


def _order(schema):
    """Definition order: by operator name, then Note [Overload order]: a packet tries overloads
    in definition order, so overloads taking tensors come before their Scalar twins (torch's
    order): ``a + b`` binds ``add.Tensor`` at once, and a tensor is never first offered to a
    ``Scalar`` parameter."""
    name, _, overload = schema[:schema.index("(")].partition(".")
    if overload == "out" or overload.endswith("_out"):
        return name, 4  # ``out=`` overloads last: a call without ``out`` never pays a failed binding for them
    tensorish = "Tensor" in overload or overload in ("other", "self", "src")
    return name, 2 * ("Scalar" in overload) + (not tensorish)


LIB = KernelLibrary("aten", "DEF")
# One core call for every definition (Note [Bulk registration], src/registry/bulk.rs).
LIB.define_many(sorted(SCHEMAS, key=_order))
OP_NAMES = tuple(s.split("(")[0] for s in SCHEMAS)
tags.attach(LIB._defined)

BACKENDS = ("CPU", "PrivateUse1", "CUDA")

_VIEWS = {"view", "reshape", "t", "transpose.int", "permute", "expand", "unsqueeze", "squeeze",
          "squeeze.dim", "squeeze.dims", "select.int", "slice.Tensor", "alias", "detach", "split.Tensor",
          "chunk", "narrow", "unbind.int", "diagonal", "movedim.int", "unflatten.int", "split_with_sizes",
          "split.sizes"} | index_ops.VIEWS
_REDUCTIONS = {"sum", "sum.dim_IntList", "mean", "mean.dim", "prod", "prod.dim_int", "amax", "amin", "max", "min",
               "max.dim", "min.dim", "argmax", "argmin", "var.correction", "std.correction",
               "softmax.int", "log_softmax.int", "_softmax", "_log_softmax", "cumsum", "any", "all",
               "any.dim", "all.dim", "sort", "argsort", "argsort.stable", "sort.stable", "kthvalue",
               "cumprod", "count_nonzero"} | reduce_ops.REDUCTIONS
_LIKE = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "new_empty",
         "new_zeros", "new_ones", "new_full"}
_DATA_DEPENDENT = {"nonzero", "allclose"} | sorting.DATA_DEPENDENT | misc_ops.DATA_DEPENDENT
# Meta kernels written by hand (the derived strategies cannot express them).
_OWN_META = {**misc_ops.META_KERNELS, "one_hot": meta.one_hot, **linalg_ops.META_KERNELS,
             **index_ops.META_KERNELS}
_META_AWARE = {"_to_copy", "numel"}  # their CPU kernel handles meta inputs itself
_POINTWISE = (set(pointwise.KERNELS) | set(unary.KERNELS) | {"erf", "gelu", "hardtanh", "elu", "softplus",
              "exp2", "round.decimals", "fmod.Tensor", "fmod.Scalar"} | extra_ops.POINTWISE | math_ops.POINTWISE | trig_ops.POINTWISE) - _DATA_DEPENDENT


def _kind(name):
    if name in factory.META_KERNELS:
        return "factory"
    if name in _OWN_META:
        return "own_meta"
    if name in _VIEWS:
        return "view"
    if name in _META_AWARE:
        return "meta_aware"
    if name.split(".")[0].endswith("_"):
        return "inplace"
    for kind, names in (("reduction", _REDUCTIONS), ("like", _LIKE), ("data_dependent", _DATA_DEPENDENT),
                        ("pointwise", _POINTWISE)):
        if name in names:
            return kind
    return "topk" if name == "topk" else "proxy"


def _meta_for(name, kind, kernel):
    if kind == "factory":
        return factory.META_KERNELS[name]
    if kind == "meta_aware":
        return kernel
    if kind == "own_meta":
        return _OWN_META[name]
    return getattr(meta, kind)(kernel, "aten::" + name)


def _table():
    kernels = {}
    for table in (pointwise.KERNELS, unary.KERNELS, reduction.KERNELS, shape.KERNELS, linalg.KERNELS,
                  indexing.KERNELS, factory.KERNELS, sorting.KERNELS, nn_ops.KERNELS, misc_ops.KERNELS,
                  extra_ops.KERNELS, math_ops.KERNELS, reduce_ops.KERNELS,
                  linalg_ops.KERNELS, index_ops.KERNELS, trig_ops.KERNELS):
        kernels.update(table)
    composite = {**shape.COMPOSITE, **linalg.COMPOSITE, **composite_nn.COMPOSITE, **misc_ops.COMPOSITE,
                 **extra_ops.COMPOSITE, **reduce_ops.COMPOSITE,
                 **linalg_ops.COMPOSITE, **index_ops.COMPOSITE}
    explicit = out_variants.EXPLICIT
    missing = set(OP_NAMES) - set(kernels) - set(composite) - set(explicit)
    if missing:
        raise RuntimeError(f"aten: operators defined without kernels: {sorted(missing)}")
    rows = []
    for name, kernel in kernels.items():
        kind = _kind(name)
        rows.append((name, kernel, _meta_for(name, kind, kernel), kind))
    rows += [(name, kernel, None, "composite") for name, kernel in composite.items()]
    rows += [(name, kernel, None, "explicit") for name, kernel in explicit.items()]
    return tuple(rows)


# (name, kernel, meta kernel, kind): kind is view / inplace / pointwise / reduction / ... / composite.
OP_TABLE = _table()


# The operators whose one kernel is CompositeImplicitAutograd (autograd records what they call).
COMPOSITE_OPS = frozenset("aten::" + name for name, _, _, kind in OP_TABLE if kind == "composite")


def _kernel_rows():
    """``(name, key, kernel, with_keyset)`` for every kernel of ``OP_TABLE``."""
    rows = []
    for name, kernel, meta_kernel, kind in OP_TABLE:
        if kind == "composite":
            rows.append((name, "CompositeImplicitAutograd", kernel, False))
        elif kind == "explicit":  # out= overloads: one kernel for every backend and Meta (see out_variants)
            rows += [(name, key, kernel, False) for key in BACKENDS + ("Meta",)]
        else:
            rows += [(name, key, kernel, False) for key in BACKENDS]
            rows.append((name, "Meta", meta_kernel, False))
    return rows


def _register():
    """The one place the built-in kernels are registered: one core call for the whole table, which
    computes each operator's dispatch table once (Note [Bulk registration], src/registry/bulk.rs).
    Kernels registered later at the same keys (faster ones) override these as any ``impl`` does."""
    LIB.impl_many(_kernel_rows())


_register()

from . import fast  # noqa: E402,F401  (Rust CPU kernels over the Python ones registered above)
