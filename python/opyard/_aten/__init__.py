"""The built-in ``aten`` operator library: schemas from PyTorch, numpy kernels.

Every operator is defined through ``Library("aten", "DEF")`` with its schema
verbatim from native_functions.yaml, gets a CPU kernel (also serving the
numpy-backed PrivateUse1 backend) and a Meta kernel, or — for compositions of
other operators — one CompositeImplicitAutograd kernel. Registration is a
loop over the tables below; see Note [Meta strategies] for the Meta kernels.
"""

from ..library import Library
from . import factory, indexing, linalg, meta, pointwise, reduction, shape
from .schemas import SCHEMAS

__all__ = ["LIB", "OP_NAMES"]

LIB = Library("aten", "DEF")
for _schema in SCHEMAS:
    LIB.define(_schema)
OP_NAMES = tuple(s.split("(")[0] for s in SCHEMAS)

_VIEWS = {"view", "reshape", "t", "transpose.int", "permute", "expand", "unsqueeze", "squeeze",
          "squeeze.dim", "select.int", "slice.Tensor", "alias", "detach", "split.Tensor", "chunk",
          "narrow", "unbind.int", "diagonal"}
_REDUCTIONS = {"sum", "sum.dim_IntList", "mean", "mean.dim", "prod", "amax", "amin", "max", "min",
               "max.dim", "min.dim", "argmax", "argmin", "var.correction", "std.correction",
               "softmax.int", "log_softmax.int", "_softmax", "_log_softmax", "cumsum"}
_LIKE = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "new_empty",
         "new_zeros", "new_ones", "new_full"}


def _meta_for(name, kernel):
    if name in factory.META_KERNELS:
        return factory.META_KERNELS[name]
    if name in _VIEWS:
        return meta.view(kernel, "aten::" + name)
    if name in _REDUCTIONS:
        return meta.reduction(kernel, "aten::" + name)
    if name in _LIKE:
        return meta.like(kernel, "aten::" + name)
    if name == "nonzero":
        return meta.data_dependent(kernel, "aten::nonzero")
    if name in pointwise.KERNELS and name not in ("allclose", "copy_", "fill_.Scalar", "zero_"):
        base = name.split(".")[0]
        wrap = meta.inplace if base.endswith("_") else meta.pointwise
        return wrap(kernel, "aten::" + name)
    return meta.proxy(kernel, "aten::" + name)


def _register():
    kernels = {}
    for table in (pointwise.KERNELS, reduction.KERNELS, shape.KERNELS, linalg.KERNELS,
                  indexing.KERNELS, factory.KERNELS):
        kernels.update(table)
    composite = {**shape.COMPOSITE, **linalg.COMPOSITE}
    missing = set(OP_NAMES) - set(kernels) - set(composite)
    if missing:
        raise RuntimeError(f"aten: operators defined without kernels: {sorted(missing)}")
    for name, kernel in kernels.items():
        LIB.impl(name, kernel, "CPU")
        LIB.impl(name, kernel, "PrivateUse1")
        LIB.impl(name, _meta_for(name, kernel), "Meta")
    for name, kernel in composite.items():
        LIB.impl(name, kernel, "CompositeImplicitAutograd")


_register()
