"""The built-in ``aten`` operator library: schemas from PyTorch, numpy kernels.

Every operator is defined through ``KernelLibrary("aten", "DEF")`` with its schema
verbatim from native_functions.yaml and gets a kernel for each numpy-backed
backend (CPU, the PrivateUse1 test backend, CUDA through cupy's numpy
protocols) plus a Meta kernel, or — for compositions of other operators — one
CompositeImplicitAutograd kernel. The op table below is data: one row per
operator (schema name, kernel, meta kernel, kind); registration is a loop.

Each packet (``aten::add`` with its overloads) is defined, and its kernels
registered, on its first use (Note [Operators defined on first use],
src/python/lazy.rs): import hands the core the packet names and a definer.
"""

import threading
import warnings

from .. import _core

from .._registration import KernelLibrary
from . import composite_nn, extra_ops, factory, indexing, index_ops, linalg, linalg_ops, math_ops, meta, reduce_ops, misc_ops, nn_ops, out_variants, trig_ops
from . import pointwise
from . import reduction, return_types, shape, sorting, tags, unary
from .schemas import SCHEMAS as _BASE_SCHEMAS

SCHEMAS = _BASE_SCHEMAS + extra_ops.SCHEMAS + math_ops.SCHEMAS + reduce_ops.SCHEMAS + linalg_ops.SCHEMAS + index_ops.SCHEMAS + trig_ops.SCHEMAS + out_variants.SCHEMAS

__all__ = ["LIB", "OP_NAMES", "OP_TABLE", "BACKENDS", "COMPOSITE_OPS", "on_define", "return_types"]

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
OP_NAMES = tuple(s.split("(")[0] for s in SCHEMAS)


def _packet_of(name):
    """``aten::add`` for ``add.Tensor``."""
    return "aten::" + name.partition(".")[0]


# Schemas by packet, in table order: sorted into definition order when the packet is defined.
_SCHEMAS_OF: dict = {}
for _schema in SCHEMAS:
    _SCHEMAS_OF.setdefault(_packet_of(_schema[:_schema.index("(")]), []).append(_schema)
del _schema
tags.attach(["aten::" + n.removesuffix(".default") for n in OP_NAMES])

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


def _entries():
    """``(name, kernel, kind)`` of every operator, kind None for a kernel of every backend (``_kind`` tells
    which when its packet is defined, and the meta kernel is made then)."""
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
    rows = [(name, kernel, None) for name, kernel in kernels.items()]  # kind: ``_kind`` at definition
    rows += [(name, kernel, "composite") for name, kernel in composite.items()]
    rows += [(name, kernel, "explicit") for name, kernel in explicit.items()]
    return rows


# Operator entries by packet.
_ENTRIES_OF: dict = {}
for _entry in _entries():
    _ENTRIES_OF.setdefault(_packet_of(_entry[0]), []).append(_entry)
del _entry

# The operators whose one kernel is CompositeImplicitAutograd (autograd records what they call).
COMPOSITE_OPS = frozenset("aten::" + name for entries in _ENTRIES_OF.values()
                          for name, _, kind in entries if kind == "composite")


def _op_row(name, kernel, kind):
    """An ``OP_TABLE`` row."""
    kind = kind or _kind(name)
    meta_kernel = None if kind in ("composite", "explicit") else _meta_for(name, kind, kernel)
    return name, kernel, meta_kernel, kind


def __getattr__(name):
    """``OP_TABLE``: ``(name, kernel, meta kernel, kind)`` of every operator (kind is view / inplace /
    pointwise / reduction / ... / composite / explicit), built on first read."""
    if name != "OP_TABLE":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    table = tuple(_op_row(*entry) for entries in _ENTRIES_OF.values() for entry in entries)
    globals()["OP_TABLE"] = table
    return table


def _kernel_rows(table_rows):
    """``(name, key, kernel, with_keyset)`` for every kernel of ``table_rows`` (``OP_TABLE`` rows)."""
    rows = []
    for name, kernel, meta_kernel, kind in table_rows:
        if kind == "composite":
            rows.append((name, "CompositeImplicitAutograd", kernel, False))
        elif kind == "explicit":  # out= overloads: one kernel for every backend and Meta (see out_variants)
            rows += [(name, key, kernel, False) for key in BACKENDS + ("Meta",)]
        else:
            rows += [(name, key, kernel, False) for key in BACKENDS]
            rows.append((name, "Meta", meta_kernel, False))
    return rows


# Packets not defined yet (Note [Operators defined on first use]); _LOCK guards it and the hooks.
_PENDING = dict.fromkeys(_SCHEMAS_OF)
_LOCK = threading.RLock()
# Callables ``hook(names)`` of the layers above (derivative kernels, ...): run with the overload
# names (``aten::add.Tensor``, ``aten::neg``) of each packet once its built-in kernels are registered.
_HOOKS: list = []
_DEFINED: list = []  # overload names defined so far, for hooks installed later


def _define(packet):
    """Define ``packet`` (``aten::name``) and register its kernels, unless that was done already
    (or is being done by this thread: the registrations below come back here)."""
    with _LOCK:
        if packet not in _PENDING:
            return
        del _PENDING[packet]
        try:
            # One core call each (Note [Bulk registration], src/registry/bulk.rs).
            names = LIB.define_many(sorted(_SCHEMAS_OF[packet], key=_order), forget=False)
        except BaseException:
            _PENDING[packet] = None  # all or nothing, so nothing is defined: a later use tries again
            raise
        try:
            _register(packet)
            _DEFINED.extend(names)
            for hook in _HOOKS:
                hook(names)
        finally:
            _core._defined_lazily(packet)


def _register(packet):
    """The one place the built-in kernels are registered: one core call for a packet's rows.
    Kernels registered later at the same keys (faster ones) override these as any ``impl`` does."""
    LIB.impl_many(_kernel_rows(_op_row(*entry) for entry in _ENTRIES_OF.get(packet, ())))


def on_define(hook):
    """Call ``hook(names)`` with the overload names of every built-in packet once it is defined
    (now, for the packets defined already). Registration time only."""
    with _LOCK:
        _HOOKS.append(hook)
        if _DEFINED:
            hook(list(_DEFINED))


_core._defer_definitions(list(_SCHEMAS_OF), _define)

# Rust CPU kernels over the Python ones, registered as each packet is defined.
from . import fast  # noqa: E402

on_define(fast.register)
