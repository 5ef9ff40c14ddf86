"""``make gen``: write every generated index of the package, or say which are stale.

usage: python -m opyard._gen [--check]

The package reads these indexes at import so that the modules they describe load on first use:

- ``_aten/_index.py``: the built-in operators' declared schemas, ``out=`` rows, where each kernel
  lives, its kind, and which packets are ``opyard.<name>`` / ``Tensor.<name>`` (``_aten/_table.py``).
- ``autograd/derivatives/_index.py``: which formula module holds each derivative, and the operators
  whose outputs are never differentiable (``autograd/derivatives/_derive.py``).
- ``func/rules/_index.py``: the modules holding batching rules (``rule_modules`` below).

The first two derivations import the modules they read; the rule modules are read as source,
because importing ``opyard.func`` installs every rule, which reads the built-in operator table,
and ``make gen`` must work while that table's index is the stale one it is about to rewrite.
Nothing here runs when ``opyard`` is imported.
``--check`` writes nothing and exits 1 naming the stale files (``tests/package/test_generated_indexes.py``
runs the same check).
"""

import ast
import os
import sys

from ._aten import _table
from .autograd.derivatives import _derive as _derivatives

__all__ = ["sources", "stale", "main", "rule_modules", "rules_index_source", "RULES_INDEX"]

_RULES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "func", "rules")
RULES_INDEX = os.path.join(_RULES, "_index.py")


def _assigns_a_rule_table(path):
    """Whether the module at ``path`` assigns ``RULES`` or ``RANDOM_OPS`` at its top level."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, ast.AnnAssign) else []
        if any(isinstance(t, ast.Name) and t.id in ("RULES", "RANDOM_OPS") for t in targets):
            return True
    return False


def rule_modules():
    """The modules of ``func/rules`` holding batching rules (Note [Batching rule modules]), by name."""
    names = sorted(f[:-3] for f in os.listdir(_RULES) if f.endswith(".py") and not f.startswith("_"))
    return tuple(n for n in names if _assigns_a_rule_table(os.path.join(_RULES, n + ".py")))


def rules_index_source():
    """The text of ``func/rules/_index.py`` for the rule modules as they are."""
    return ('"""Written by ``make gen`` (do not edit; ``tests/package/test_generated_indexes.py`` checks it):\n'
            'the modules holding batching rules (Note [Batching rule modules], ``__init__.py``; derived by\n'
            '``opyard._gen.rule_modules``)."""\n\n'
            f"MODULES = {rule_modules()!r}\n")


def sources():
    """``{path: the text it should hold}`` for every generated index."""
    return {
        _table.PATH: _table.index_source(),
        _derivatives.PATH: _derivatives.index_source(),
        RULES_INDEX: rules_index_source(),
    }


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def stale():
    """The generated indexes whose text is not what the modules derive, by path."""
    return [path for path, text in sources().items() if _read(path) != text]


def main(argv):
    check = "--check" in argv
    root = os.path.dirname(os.path.abspath(__file__))
    if check:
        out = stale()
        for path in out:
            print(f"stale: {os.path.relpath(path, root)} (run `make gen`)")
        return 1 if out else 0
    for path, text in sources().items():
        if _read(path) != text:
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            print(f"wrote {os.path.relpath(path, root)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
