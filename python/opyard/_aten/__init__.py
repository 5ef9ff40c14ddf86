"""The built-in ``aten`` operator library: schemas from PyTorch, numpy kernels.

Every operator is defined through ``KernelLibrary("aten", "DEF")`` with its schema
verbatim from native_functions.yaml and gets a kernel for each numpy-backed
backend (CPU, the PrivateUse1 test backend, CUDA through cupy's numpy
protocols) plus a Meta kernel, or — for compositions of other operators — one
CompositeImplicitAutograd kernel. The op table is data: one row per operator
(schema name, kernel, meta kernel, kind), read from ``_index.py`` (Note [Kernel
modules on first use]); registration is a loop.

Each packet (``aten::add`` with its overloads) is defined, and its kernels
registered, on its first use (Note [Operators defined on first use],
src/python/dispatch/lazy.rs): import hands the core the packet names and a definer.
"""

import importlib
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)
import warnings

from .. import _core

from .._keys import BACKEND_OF_DEVICE, DispatchKey
from .._registration import KernelLibrary
from . import out_variants, return_types, tags
from . import _index
from ._index import PACKET_NAMES as _PACKET_NAMES
from ._index import SCHEMAS as _INDEXED_SCHEMAS
from .schemas import SCHEMAS as _BASE_SCHEMAS

# Note [Kernel modules on first use]: the kernel modules (pointwise, shape, linalg_ops, ...) load when
# a packet whose kernels they hold is first defined, not with ``import opyard``. What import needs of
# them, every operator's schema and, per operator row, the module and table holding its kernel, its
# kind and its meta kernel's table, is read from ``_index.py``, which ``_table.py`` derives from the
# modules' declarations (``_declare.py``; ``make gen`` rewrites it, tests/package/test_generated_indexes.py
# fails when it is stale). out_variants stays eager: the derivative table reads its ``OUT_OPS`` at import.
SCHEMAS = _BASE_SCHEMAS + _INDEXED_SCHEMAS + out_variants.SCHEMAS

__all__ = ["LIB", "OP_NAMES", "OP_TABLE", "QUALIFIED", "BACKENDS", "COMPOSITE_OPS", "on_define", "return_types"]

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

# The packet table is prebuilt (``_index.packet_schemas``, ``_index.packet_rows``: per packet, the
# positions of its schemas in SCHEMAS and its rows, decoded when it is defined), so import groups nothing.
# The operators' names are read when a built-in operator's tags are first asked for.
tags.attach(lambda: _index.QUALIFIED)

# The backends a device reaches, but Meta (which takes the meta kernels): the core's device table.
BACKENDS = tuple(key.name for key in BACKEND_OF_DEVICE.values() if key != DispatchKey.Meta)


def _module(name):
    """The kernel module ``opyard._aten.<name>``, imported on its first use."""
    return importlib.import_module(f"{__name__}.{name}")


def _lookup(module, path):
    """The mapping at ``path`` (``KERNELS``, ``OPS.KERNELS``) in kernel module ``module``."""
    obj = _module(module)
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def _op_row(name, module, table, kind, meta_table):
    """An ``OP_TABLE`` row ``(name, kernel, meta kernel, kind)`` from an index row: the meta kernel is
    the kernel itself when it handles meta inputs, a hand-written one (a ``META_KERNELS`` table,
    ``meta_table`` is ``module.path``), or one that ``meta`` derives from the kernel by kind."""
    kernel = _lookup(module, table)[name]
    if kind in ("composite", "explicit"):
        meta_kernel = None
    elif kind == "meta_aware":
        meta_kernel = kernel
    elif meta_table is not None:
        meta_kernel = _lookup(*meta_table.split(".", 1))[name]
    else:
        meta_kernel = getattr(_module("meta"), kind)(kernel, "aten::" + name)
    return name, kernel, meta_kernel, kind


def __getattr__(name):
    """``OP_TABLE``: ``(name, kernel, meta kernel, kind)`` of every operator (kind is view / inplace /
    pointwise / reduction / ... / composite / explicit), by packet; ``OP_NAMES``: every operator's
    name (``add.Tensor``) in SCHEMAS order; ``QUALIFIED``: every operator's qualified name
    (``aten::add.Tensor``), in the same order; ``COMPOSITE_OPS``: the operators whose one kernel is
    CompositeImplicitAutograd (autograd records what they call). Built on first read."""
    if name == "OP_TABLE":
        rows = _index.ROWS
        value = tuple(_op_row(*rows[i]) for found in _index.PACKET_ROWS.values() for i in found)
    elif name == "COMPOSITE_OPS":
        value = frozenset("aten::" + row[0] for row in _index.ROWS if row[3] == "composite")
    elif name == "OP_NAMES":
        value = tuple(s.split("(")[0] for s in SCHEMAS)
    elif name == "QUALIFIED":
        value = _index.QUALIFIED
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def _schemas_of(packet):
    """The schemas of ``packet`` (``aten::add``), in SCHEMAS order."""
    return [SCHEMAS[i] for i in _index.packet_schemas(packet)]


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
_PENDING = dict.fromkeys(_PACKET_NAMES)
_LOCK = _thread.RLock()
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
            # The kernels first (their modules load now), then the overloads and their kernels by one
            # core call each (Note [Bulk registration], src/registry/bulk.rs). The overloads join the
            # packet's list only at ``_defined_lazily`` below, once the hooks registered theirs too:
            # until then another thread calling the packet finds it empty and waits for this lock (Note
            # [Definitions published with their kernels], src/registry/bulk.rs).
            rows = _kernel_rows_of(packet)
            names = LIB.define_many(sorted(_schemas_of(packet), key=_order), forget=False)
        except BaseException:
            _PENDING[packet] = None  # all or nothing, so nothing is defined: a later use tries again
            raise
        try:
            LIB.impl_many(rows)
            _DEFINED.extend(names)
            for hook in _HOOKS:
                hook(names)
        finally:
            _core._defined_lazily(packet)


def _list_only(schema):
    """Whether every tensor argument of ``schema`` comes in a ``Tensor[]`` (``cat``, ``stack``): a call
    with an empty list has no tensor to dispatch on."""
    params = schema[schema.index("(") + 1:schema.index(") ->")]
    types = [p.strip().split(" ")[0] for p in params.split(", ") if p.strip() not in ("*", "")]
    return "Tensor[]" in types and not any(t.startswith("Tensor") and t != "Tensor[]" for t in types)


def _kernel_rows_of(packet):
    """The built-in kernels of ``packet``, as ``_define`` registers them with one core call: the one
    place they are listed. Kernels registered later at the same keys (faster ones) override these as
    any ``impl`` does. A backend kernel whose tensors all come in one list also serves calls without
    tensors (at CompositeExplicitAutograd, as torch's): its own check refuses an empty list with
    torch's error."""
    rows = _kernel_rows(_op_row(*row) for row in _index.packet_rows(packet))
    lists = {s[:s.index("(")] for s in _schemas_of(packet) if _list_only(s)}
    if lists:
        rows += [(name, "CompositeExplicitAutograd", kernel, False) for name, key, kernel, _ in rows
                 if key == "CPU" and name in lists]
    return rows


def on_define(hook):
    """Call ``hook(names)`` with the overload names of every built-in packet once it is defined
    (now, for the packets defined already). Registration time only."""
    with _LOCK:
        _HOOKS.append(hook)
        if _DEFINED:
            hook(list(_DEFINED))


_core._defer_definitions(list(_PACKET_NAMES), _define)

# Rust CPU kernels over the Python ones, registered as each packet is defined.
from . import fast  # noqa: E402

on_define(fast.register)

