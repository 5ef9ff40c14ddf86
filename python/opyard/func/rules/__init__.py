"""The batching rules of the built-in operators, installed at the ``Batched`` key.

Each rule is the op's ``Batched`` kernel, specialised for that op at import
(the overloads it calls are resolved then), so a call on a batched tensor costs
one Python kernel and one physical op call: no table lookup per call. Ops
without a rule reach the boxed fallback (``fallback.loop_fallback``). Random
ops also get a ``VmapMode`` kernel for the randomness policy. Registered
through ``_core`` directly (the pattern of the other subsystems' fallbacks):
these registrations live as long as the process.
"""

import importlib

from ... import _core
from ..._aten import OP_TABLE
from ..._provenance import caller_site
from . import pointwise
from ._index import MODULES
from .common import aten
from .fallback import batched_fallback
from .misc import vmap_mode_kernel

__all__ = ["RULES", "RANDOM_OPS", "install"]

_SITE = caller_site()

# Note [Batching rule modules]: a rule module holds ``RULES`` (overload name -> ``factory(op)``, the
# rule of that op) and may hold ``RANDOM_OPS`` (overload name -> index of its size argument, or
# None: the op also gets a VmapMode kernel for the randomness policy). ``_index.MODULES`` names the
# modules that do; ``make gen`` rewrites it (``opyard._gen``), so a new module needs no line here. An
# operator with a rule in two modules is an error when the rules are installed.
_MODULES = tuple(importlib.import_module(f".{name}", __name__) for name in MODULES)


def _rule_table():
    """name -> factory(op) for every built-in op with a batching rule: by kind (pointwise, in-place,
    ``*_like``), then each module's ``RULES`` (which win)."""
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
            op = aten(name)
            # An in-place op that is not pointwise (it takes a dim or an index): its out-of-place
            # form (its own rule, or the per-example fallback), written back into ``self``.
            if any(a.name in ("dim", "index") for a in op._schema.arguments):
                table[name] = pointwise.inplace_via_functional
            else:
                table[name] = pointwise.inplace_rule
        elif kind == "like":
            table[name] = pointwise.unary_rule
    owner = {}
    for module in _MODULES:
        for name, factory in getattr(module, "RULES", {}).items():
            if name in owner:
                raise RuntimeError(f"aten::{name} has a batching rule in {owner[name]} and in {module.__name__}: "
                                   "every operator has one")
            owner[name] = module.__name__
            table[name] = factory
    return table


RULES = _rule_table()
RANDOM_OPS = {name: index for module in _MODULES for name, index in getattr(module, "RANDOM_OPS", {}).items()}


_RUST_RULES = (pointwise.unary_rule, pointwise.pointwise_rule)


def install():
    lib = _core._new_library("_", "IMPL", None, _SITE)
    _core._fallback(lib, "Batched", batched_fallback, with_keyset=False, fallthrough=False, provenance=_SITE)
    aten_lib = _core._new_library("aten", "IMPL", None, _SITE)
    for name, factory in RULES.items():
        op = aten(name)
        kernel = factory(op)
        if _core.FAST_PATHS and factory in _RUST_RULES:
            # The pointwise rules in Rust, this one as their general path (Note [Pointwise batching in
            # Rust], src/python/batched/pointwise.rs).
            kernel = _core._BatchedPointwise(op, kernel, unary=factory is pointwise.unary_rule)
        _core._impl(aten_lib, name, "Batched", kernel, with_keyset=False, fallthrough=False,
                    allow_override=True, provenance=_SITE)
    for name, size_index in RANDOM_OPS.items():
        _core._impl(aten_lib, name, "VmapMode", vmap_mode_kernel(aten(name), size_index), with_keyset=False,
                    fallthrough=False, allow_override=True, provenance=_SITE)
    return lib, aten_lib


_LIBS = install()

from ..._exports import public_dir

__dir__ = public_dir(globals())
