"""How the derivative table's index is derived from the formula modules, and its text.

The derivative table loads a formula module when an operator with a formula in it is first
differentiated (Note [Formula modules on first use], ``__init__.py``); what registration needs
before that, each module's operators and the operators whose outputs are never differentiable,
is read from ``_index.py``, which this module derives by importing every formula module of the
package: a module with ``FORMULAS`` (overload name -> ``Formula``) or ``NON_DIFFERENTIABLE``
(overload names) takes part, in name order. ``make gen`` rewrites the index;
``tests/package/test_generated_indexes.py`` fails when it is stale.
"""

import importlib
import os

from ..._aten import _table
from ..._aten._table import names_literal

__all__ = ["formula_modules", "by_module", "non_differentiable", "plan", "index_source", "PATH"]

_HERE = os.path.dirname(os.path.abspath(__file__))
PATH = os.path.join(_HERE, "_index.py")


def _m(name):
    return importlib.import_module(f"{__package__}.{name}")


def formula_modules():
    """The modules of the derivative table, by name."""
    names = sorted(f[:-3] for f in os.listdir(_HERE) if f.endswith(".py") and not f.startswith("_"))
    return tuple(n for n in names if hasattr(_m(n), "FORMULAS") or hasattr(_m(n), "NON_DIFFERENTIABLE"))


def _owned(attr):
    """``{module: names}`` of ``attr`` over the formula modules; a name in two modules is an error."""
    owner, out = {}, {}
    for module in formula_modules():
        names = tuple(getattr(_m(module), attr, ()))
        for name in names:
            if name in owner:
                raise RuntimeError(f"{name} is in the {attr} of autograd/derivatives/{owner[name]}.py and of "
                                   f"{module}.py: every operator has one row")
            owner[name] = module
        if names:
            out[module] = names
    return out


def by_module():
    """``{module: its FORMULAS' overload names, sorted}``."""
    return {module: tuple(sorted(names)) for module, names in _owned("FORMULAS").items()}


def non_differentiable():
    """Every module's ``NON_DIFFERENTIABLE`` names, in module order."""
    return tuple(n for names in _owned("NON_DIFFERENTIABLE").values() for n in names)


def plan():
    """``(plan, missing)``: per built-in overload (``aten::add_.Tensor``), the Autograd kernels
    ``derivatives.register`` installs when its packet is defined, in order: the formula row it
    differentiates with (``"="`` for its own; an in-place overload uses its out-of-place row),
    ``"!non_differentiable"``, ``"!detach"`` or ``"!out"``; and the formula rows naming no
    built-in operator. Derived from the kernel modules' declarations (``_aten/_table.py``), not from
    ``_aten/_index.py``, which ``make gen`` may be about to rewrite."""
    from . import _DETACH_ENTRY, _NONDIFF_ENTRY, _OUT_ENTRY, _OWN_ROW, INPLACE_ALIASES, inplace_name

    names = _table.op_names()
    known = frozenset(_table.qualified(names))
    composite = frozenset("aten::" + row[0] for row in _table.rows(names) if row[3] == "composite")
    out_ops = tuple(dict.fromkeys(s[:s.index("(")] for s in _table._out_schemas()))
    formula_rows = [name for rows in by_module().values() for name in rows]
    out, missing = {}, []

    def add(name, entry):
        name = name.removesuffix(".default")
        if name in known:
            out.setdefault(name, []).append(entry)

    rows = [(name, name, name) for name in formula_rows]
    rows += [(alias, target, target) for alias, target in INPLACE_ALIASES.items()]
    row_names = frozenset(formula_rows)
    for name, formula_name, row in rows:
        for target in ((name, inplace_name(name)) if name == row else (name,)):
            if target != name and (target in INPLACE_ALIASES or target in row_names):
                continue  # mapped explicitly (pow_.Scalar is not pow.Scalar's in-place form), or its own row
            qualified = target.removesuffix(".default")
            if qualified not in known:
                if target == row:
                    missing.append(name)
                continue
            if qualified in composite:
                continue  # autograd records what a CompositeImplicitAutograd op calls (torch's rule)
            add(qualified, _OWN_ROW if formula_name == qualified else formula_name)
    for name in non_differentiable():
        add(name, _NONDIFF_ENTRY)
    add("aten::detach_", _DETACH_ENTRY)
    for name in out_ops:
        add("aten::" + name, _OUT_ENTRY)
    return {name: tuple(entries) for name, entries in out.items()}, tuple(missing)


def _plan_literal(table):
    body = "".join(f"    {name!r}: {entries!r},\n" for name, entries in table.items())
    return "{\n" + body + "}"


def index_source():
    """The text of ``_index.py`` for the formula modules as they are."""
    rows = "".join(f"    {module!r}: {names_literal(names, indent=8)},\n" for module, names in by_module().items())
    table, missing = plan()
    return (
        '"""Written by ``make gen`` (do not edit; ``tests/package/test_generated_indexes.py`` checks it):\n'
        "which formula module holds each operator's derivative, and the operators whose outputs are never\n"
        'differentiable (Note [Formula modules on first use], ``__init__.py``; ``_derive.py`` derives it)."""\n\n'
        "# module -> the overload names of its FORMULAS, sorted\n"
        "BY_MODULE = {\n" + rows + "}\n\n"
        "# derivatives.yaml's `output_differentiability: [False]` rows and the factories: their outputs\n"
        "# never require grad (each module's NON_DIFFERENTIABLE, in module order).\n"
        f"NON_DIFFERENTIABLE = {names_literal(non_differentiable())}\n\n"
        "# Per built-in overload, the Autograd kernels registered when its packet is defined, in order: the\n"
        '# formula row it uses ("=": its own), "!non_differentiable", "!detach" or "!out" (``_derive.plan``).\n'
        f"PLAN = {_plan_literal(table)}\n\n"
        "# Formula rows naming no built-in operator.\n"
        f"MISSING = {names_literal(missing)}\n")
