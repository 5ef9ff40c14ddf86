"""How the built-in operator table is derived from the kernel modules, and the writer of its index.

``opyard._aten`` does not import its kernel modules at import time: it reads ``_index.py``, which
names, for every operator row, the module and table holding its kernel, its kind and where its meta
kernel lives (Note [Kernel modules on first use], ``_aten/__init__.py``). This module is the
derivation that index records: it imports every kernel module and classifies each operator as the
table always did. ``tests/aten/test_kernel_index.py`` checks that the index says what this derives;
``python -m opyard._aten._table`` rewrites the index after a kernel module changes.
"""

import importlib
import os
import pprint

__all__ = ["KERNEL_MODULES", "COMPOSITE_MODULES", "SCHEMA_MODULES", "rows", "schemas", "op_names", "index_source"]

# Kernel modules with a ``KERNELS`` table, in merge order (a later module's kernel wins).
KERNEL_MODULES = ("pointwise", "unary", "reduction", "shape", "linalg", "indexing", "factory", "sorting",
                  "nn_ops", "misc_ops", "extra_ops", "math_ops", "reduce_ops", "linalg_ops", "index_ops",
                  "trig_ops")
# Modules with a ``COMPOSITE`` table (CompositeImplicitAutograd kernels), in merge order.
COMPOSITE_MODULES = ("shape", "linalg", "composite_nn", "misc_ops", "extra_ops", "reduce_ops", "linalg_ops",
                     "index_ops")
# Modules whose ``SCHEMAS`` extend schemas.py's, in table order (out_variants' are read from it at
# import: the derivative table imports it anyway).
SCHEMA_MODULES = ("extra_ops", "math_ops", "reduce_ops", "linalg_ops", "index_ops", "trig_ops")


def _m(name):
    return importlib.import_module(f"opyard._aten.{name}")


def schemas():
    """The schemas of ``SCHEMA_MODULES``, in table order."""
    return tuple(s for name in SCHEMA_MODULES for s in _m(name).SCHEMAS)


def _classifier():
    """``kind(name)`` and ``meta_source(name)`` over the kernel modules' sets."""
    m = _m
    own_meta = {}  # name -> module whose table holds the hand-written meta kernel (a later one wins)
    for module in ("misc_ops", "meta", "linalg_ops", "index_ops"):
        table = {"one_hot": None} if module == "meta" else m(module).META_KERNELS
        own_meta.update(dict.fromkeys(table, module))
    views = {"view", "reshape", "t", "transpose.int", "permute", "expand", "unsqueeze", "squeeze",
             "squeeze.dim", "squeeze.dims", "select.int", "slice.Tensor", "alias", "detach", "split.Tensor",
             "chunk", "narrow", "unbind.int", "diagonal", "movedim.int", "unflatten.int", "split_with_sizes",
             "split.sizes"} | m("index_ops").VIEWS
    reductions = {"sum", "sum.dim_IntList", "mean", "mean.dim", "prod", "prod.dim_int", "amax", "amin", "max",
                  "min", "max.dim", "min.dim", "argmax", "argmin", "var.correction", "std.correction",
                  "softmax.int", "log_softmax.int", "_softmax", "_log_softmax", "cumsum", "any", "all",
                  "any.dim", "all.dim", "sort", "argsort", "argsort.stable", "sort.stable", "kthvalue",
                  "cumprod", "count_nonzero"} | m("reduce_ops").REDUCTIONS
    like = {"zeros_like", "ones_like", "empty_like", "rand_like", "randn_like", "full_like", "new_empty",
            "new_zeros", "new_ones", "new_full"}
    data_dependent = {"nonzero", "allclose"} | m("sorting").DATA_DEPENDENT | m("misc_ops").DATA_DEPENDENT
    meta_aware = {"_to_copy", "numel"}  # their CPU kernel handles meta inputs itself
    pointwise = (set(m("pointwise").KERNELS) | set(m("unary").KERNELS)
                 | {"erf", "gelu", "hardtanh", "elu", "softplus", "exp2", "round.decimals", "fmod.Tensor",
                    "fmod.Scalar"}
                 | m("extra_ops").POINTWISE | m("math_ops").POINTWISE | m("trig_ops").POINTWISE) - data_dependent
    factory = m("factory").META_KERNELS

    def kind(name):
        if name in factory:
            return "factory"
        if name in own_meta:
            return "own_meta"
        if name in views:
            return "view"
        if name in meta_aware:
            return "meta_aware"
        if name.split(".")[0].endswith("_"):
            return "inplace"
        for k, names in (("reduction", reductions), ("like", like), ("data_dependent", data_dependent),
                         ("pointwise", pointwise)):
            if name in names:
                return k
        return "topk" if name == "topk" else "proxy"

    def meta_source(name, k):
        return {"factory": "factory", "own_meta": own_meta.get(name)}.get(k)

    return kind, meta_source


def rows(op_names):
    """``(name, module, table, kind, meta module or None)`` of every operator row, in table order:
    ``KERNELS`` rows (one per name, the last module's), then ``COMPOSITE`` rows, then out_variants'
    ``EXPLICIT`` rows. Raises if an operator of ``op_names`` has no kernel."""
    kernels, composite = {}, {}
    for module in KERNEL_MODULES:
        kernels.update(dict.fromkeys(_m(module).KERNELS, module))
    for module in COMPOSITE_MODULES:
        composite.update(dict.fromkeys(_m(module).COMPOSITE, module))
    explicit = dict.fromkeys(_m("out_variants").EXPLICIT, "out_variants")
    missing = set(op_names) - set(kernels) - set(composite) - set(explicit)
    if missing:
        raise RuntimeError(f"aten: operators defined without kernels: {sorted(missing)}")
    kind, meta_source = _classifier()
    out = []
    for name, module in kernels.items():
        k = kind(name)
        out.append((name, module, "KERNELS", k, meta_source(name, k)))
    out += [(name, module, "COMPOSITE", "composite", None) for name, module in composite.items()]
    out += [(name, module, "EXPLICIT", "explicit", None) for name, module in explicit.items()]
    return tuple(out)


def op_names():
    """Every built-in operator's name (``add.Tensor``), from the schema modules themselves."""
    every = _m("schemas").SCHEMAS + schemas() + _m("out_variants").SCHEMAS
    return tuple(s.split("(")[0] for s in every)


def index_source():
    """The text of ``_index.py`` for the kernel modules as they are."""
    return (
        '"""Written by ``python -m opyard._aten._table`` (do not edit; ``tests/aten/test_kernel_index.py`` checks it):\n'
        "the built-in operators' extra schemas and, per operator row, where its kernels live\n"
        '(Note [Kernel modules on first use], ``_aten/__init__.py``)."""\n\n'
        f"# The SCHEMAS of {', '.join(SCHEMA_MODULES)}, in table order.\n"
        f"SCHEMAS = {pprint.pformat(schemas(), width=118)}\n\n"
        "# (name, module, table, kind, meta kernel's module or None), in table order.\n"
        f"ROWS = {pprint.pformat(rows(op_names()), width=118)}\n")


if __name__ == "__main__":
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_index.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(index_source())
    print(f"wrote {path}")
