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

from ..._aten._table import names_literal

__all__ = ["formula_modules", "by_module", "non_differentiable", "index_source", "PATH"]

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


def index_source():
    """The text of ``_index.py`` for the formula modules as they are."""
    rows = "".join(f"    {module!r}: {names_literal(names, indent=8)},\n" for module, names in by_module().items())
    return (
        '"""Written by ``make gen`` (do not edit; ``tests/package/test_generated_indexes.py`` checks it):\n'
        "which formula module holds each operator's derivative, and the operators whose outputs are never\n"
        'differentiable (Note [Formula modules on first use], ``__init__.py``; ``_derive.py`` derives it)."""\n\n'
        "# module -> the overload names of its FORMULAS, sorted\n"
        "BY_MODULE = {\n" + rows + "}\n\n"
        "# derivatives.yaml's `output_differentiability: [False]` rows and the factories: their outputs\n"
        "# never require grad (each module's NON_DIFFERENTIABLE, in module order).\n"
        f"NON_DIFFERENTIABLE = {names_literal(non_differentiable())}\n")
