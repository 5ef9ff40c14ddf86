"""The derivative table of the built-in ``aten`` ops and its registration.

``FORMULAS`` maps an overload name to its :class:`~.registry.Formula`;
adding a derivative is one row in a formula module (``pointwise.py``,
``math.py``, ..., or a new one) and ``make gen``, which rewrites the index
the table reads on first need (``_index.py``, derived by ``_derive.py``).
:func:`register` installs, on one ``Library("aten", "IMPL")``
kept alive by ``opyard.autograd``, the generic kernel for every row whose op
is defined, the same formula for the in-place variant (``add_.Tensor`` uses
``add.Tensor``'s row), and a pass-through kernel for the ops whose outputs
are never differentiable.
"""

import importlib as _importlib

from ... import _core
from ..._aten import on_define as _on_define
from ..._aten import out_variants as _out_variants
from ..._registration import KernelLibrary
from ..fallback import make_non_differentiable_kernel

# ``out=`` overloads of the built-in ops (their Autograd kernel refuses inputs that require grad).
OUT_OPS = _out_variants.OUT_OPS

__all__ = ["FORMULAS", "INPLACE_ALIASES", "NON_DIFFERENTIABLE", "Formula", "inplace_name", "register"]

# Note [Formula modules on first use]: the formula modules (a tenth of the package's bytecode) load
# when an operator with a formula in one of them is first differentiated: ``_index.BY_MODULE`` names
# each module's rows, which is all registration needs. ``FORMULAS`` (every row) loads them all.
_LOADED = {}  # module name -> its FORMULAS, forward formulas attached
_MODULE_OF = {}  # overload name -> the formula module holding its row, filled from the index on first need


def _table():
    """The generated index (``_index.py``): read when the first built-in packet is defined, not at
    import (its tables are a twentieth of what ``import opyard`` unmarshals)."""
    from . import _index
    return _index


def _module_of(name):
    if not _MODULE_OF:
        _MODULE_OF.update((row, module) for module, rows in _table().BY_MODULE.items() for row in rows)
    return _MODULE_OF[name]


def _module_formulas(module):
    formulas = _LOADED.get(module)
    if formulas is None:
        formulas = _importlib.import_module(f".{module}", __name__).FORMULAS
        _importlib.import_module(".forward_rows", __name__).attach(formulas)
        _LOADED[module] = formulas
    return formulas


def formula(name):
    """The :class:`~.registry.Formula` of overload ``name`` (``aten::add.Tensor``), its module loaded."""
    return _module_formulas(_module_of(name))[name]


def __getattr__(name):
    """``FORMULAS``: every row, in the table's order (the modules load now); ``Formula``: the row
    class (``registry``, which loads with the first formula kernel built, or now);
    ``NON_DIFFERENTIABLE``: the operators whose outputs never require grad (every formula module's
    ``NON_DIFFERENTIABLE``, by module)."""
    if name == "Formula":
        from .registry import Formula
        return Formula
    if name == "NON_DIFFERENTIABLE":
        return _table().NON_DIFFERENTIABLE
    if name != "FORMULAS":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    table = {}
    for module in _table().BY_MODULE:
        table.update(_module_formulas(module))
    globals()["FORMULAS"] = table
    return table


# The entries of ``_index.PLAN`` besides a formula row's name (``_derive.plan`` writes them).
_NONDIFF_ENTRY, _DETACH_ENTRY, _OUT_ENTRY, _OWN_ROW = "!non_differentiable", "!detach", "!out", "="

# In-place overloads whose name is not ``inplace_name`` of their out-of-place row.
INPLACE_ALIASES = {"aten::pow_.Scalar": "aten::pow.Tensor_Scalar"}


def _detach_kernel(op):
    """``detach_``: the tensor keeps its data and drops its history and ``requires_grad``."""
    from .. import _tensor_meta as meta
    from ..grad_mode import _no_grad_guard

    def kernel(keyset, self):
        if getattr(self, "_base", None) is not None and meta.requires_grad(self._base):
            raise RuntimeError("Can't detach views in-place. Use detach() instead.")
        with _no_grad_guard():
            op(self)
        self._grad_fn = None
        meta.set_requires_grad_bit(self, False)
        return self
    return kernel


def inplace_name(name):
    """``aten::add.Tensor`` -> ``aten::add_.Tensor``."""
    base, dot, overload = name.partition(".")
    return f"{base}_{dot}{overload}"


def _on_first_call(op, build):
    """The Autograd kernel of ``op``, built by ``build()`` on its first call.

    Note [Derivative kernels on first use]: building a formula's kernel (binding data from the
    schema, a node class) costs tens of microseconds, and most processes differentiate a few
    of the hundreds of built-in ops, so import registers this stand-in instead. Its first call
    builds the real kernel and puts it in the stand-in's own registration (same key, library
    and provenance; ``_core._replace_kernel``), so every later call reaches the real kernel
    with no frame of ours in between. Whoever still holds the stand-in (``get_kernel``, a
    racing thread) is forwarded to the one real kernel. The formula's module loads then too
    (Note [Formula modules on first use]).
    """
    real = None

    def kernel(keyset, *args, **kwargs):
        nonlocal real
        if real is None:
            built = build()
            _core._replace_kernel(op.name(), "Autograd", kernel, built, True)
            real = built
        return real(keyset, *args, **kwargs)

    return kernel


def _make_kernel(op, row, general):
    """The Autograd kernel of ``op`` running formula ``row`` (``registry``, with the modules it builds
    nodes from, loads with the first one: Note [Hooks resolved on first use], hooks.rs)."""
    from .registry import make_kernel
    return make_kernel(op, row, general=general)


def _out_kernel(op):
    """The Autograd kernel of an ``out=`` overload, built on its first call (``nn`` loads then)."""
    return _on_first_call(op, lambda: _importlib.import_module(".nn", __name__).make_out_kernel(op))


def register():
    """Register every derivative kernel; returns the library holding them.

    The built-in packets are defined on first use (Note [Operators defined on first use],
    src/python/dispatch/lazy.rs): each overload's Autograd kernels are planned by name in the
    generated ``_index.PLAN`` (``_derive.plan``: a formula row, also an in-place overload's
    out-of-place one, the pass-through of the non-differentiable ops, ``detach_``'s, the ``out=``
    overloads'), and the rows of a packet are registered by one core call once it is defined (Note
    [Bulk registration], src/registry/bulk.rs). The formula kernels are built on first call (Note
    [Derivative kernels on first use]).
    """
    lib = KernelLibrary("aten", "IMPL")
    # With OPYARD_FASTPATH=0, the general kernel (Note [Fast paths and general paths], hooks.rs).
    general = not _core.FAST_PATHS

    def build(name, entry, op):
        if entry == _OUT_ENTRY:
            return _out_kernel(op)
        if entry == _NONDIFF_ENTRY:
            return make_non_differentiable_kernel(op)
        if entry == _DETACH_ENTRY:
            return _detach_kernel(op)
        row = name if entry == _OWN_ROW else entry
        return _on_first_call(op, lambda: _make_kernel(op, formula(row), general))

    def register_defined(names):
        plan = _table().PLAN
        kernels = [(name, "Autograd", build(name, entry, _core._find_op(name)), True)
                   for name in names for entry in plan.get(name, ())]
        if kernels:
            lib.impl_many(kernels)

    _on_define(register_defined)
    return lib


def registered_ops():
    """The overloads differentiated with a formula row, in the plan's order."""
    return tuple(name for name, entries in _table().PLAN.items() if any(e[0] != "!" for e in entries))


def ops_without_formula():
    """The formula rows naming no built-in operator."""
    return _table().MISSING
