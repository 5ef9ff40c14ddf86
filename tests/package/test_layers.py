"""The package's Python layers point one way (README "Layout"): no module imports a higher
layer, not even inside a function (``import opyard`` or ``from opyard import X`` is an import of
the facade), and no two modules import each other, directly or around a circle. Imports are
read with ``ast``, so the check sees deferred imports too.

``LAYERS`` is the map; a new module must be placed in it (the test says so).
"""

import ast
import os
import textwrap

import pytest

PACKAGE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "python", "opyard")

# Lower number = lower layer. A module's layer is that of its longest listed prefix.
LAYERS = {
    "_core": 0,
    # tensor: the Tensor type, dtypes, keys, pickling, devices
    "_dtype": 1, "_tensor": 1, "_format": 1, "_provenance": 1, "cuda": 1, "_keys": 1, "_memory_format": 1,
    "_pickle": 1, "_reducers": 1, "utils._pytree": 1, "_exports": 1, "_function_protocol": 1,
    "_html": 1,
    # built-in ops and the dispatcher's Python side
    "_ops": 2, "_op_pickle": 2, "dispatcher": 2, "_registration": 2, "_aten": 2, "_factories": 2,
    "_functional": 2, "_indexing": 2, "_fallbacks": 2, "linalg": 2, "fft": 2, "_lowrank": 2, "_wrapper_subclass": 2,
    "special": 2, "signal": 2, "types": 2, "masked": 2,
    "_metadata_dispatch": 2, "_torch_dispatch_rules": 2, "_surface": 2, "random": 2,
    "autograd": 3, "_tensor_methods": 3,
    "_library": 4,
    "fake": 5, "fx": 5, "func": 5, "amp": 5, "overrides": 5, "_override_listing": 5, "utils": 5,
    "_opcheck": 6, "library": 6, "nn": 6, "optim": 6, "viz": 6,
    # the facade and torch's private spellings of public homes
    "__init__": 7, "__main__": 7, "_gen": 7, "_hooks": 7, "_C": 7, "_compat": 7, "_custom_ops": 7,
    "_prims_common": 7,
    "_python_dispatcher": 7, "_subclasses": 7, "version": 7, "fx.experimental": 7,
    "utils._python_dispatch": 7, "utils._mode_utils": 7, "_install_as_torch": 7,
    "_decomp": 7, "_inductor": 7, "_custom_op": 7, "testing": 7,
}


def layer_of(module, layers):
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in layers:
            return layers[key]
    return None


def _modules(root, package):
    """``{dotted name relative to the package: path}``; the package's own ``__init__`` is ``__init__``."""
    found = {}
    for dirpath, _, files in os.walk(root):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
                name = rel[: -len(".__init__")] if rel.endswith(".__init__") else rel
                found[name] = path
    return found


def _targets(module, path, package, known=()):
    """``(imported module as written, line, deferred)`` for every import of the package in ``path``.

    A name imported from the package itself that is not one of its ``known`` modules (``import opyard``,
    ``from opyard import Tensor``) is an import of the facade, ``__init__``: running it needs the
    whole package, so a deferred one inside a lower layer is as much an upward dependency as any."""

    def of_root(name):
        return name if name in known else "__init__"

    is_pkg = path.endswith("__init__.py")
    here = [] if module == "__init__" else module.split(".")
    tree = ast.parse(open(path, encoding="utf-8").read(), path)
    out = []

    def visit(node, deferred):
        for child in ast.iter_child_nodes(node):
            inner = deferred or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.ImportFrom) and child.level:
                base = here if is_pkg else here[:-1]
                base = base[: len(base) - (child.level - 1)]
                if child.module:
                    out.append((".".join(base + [child.module]), child.lineno, deferred))
                elif base:  # ``from . import a, b``: each name may be a submodule
                    out.extend((".".join(base + [a.name]), child.lineno, deferred) for a in child.names)
                else:
                    out.extend((of_root(a.name), child.lineno, deferred) for a in child.names)
            elif isinstance(child, ast.ImportFrom) and child.module:
                if child.module == package or child.module.startswith(package + "."):
                    sub = child.module[len(package) + 1:]
                    names = [sub] if sub else [of_root(a.name) for a in child.names]
                    out.extend((n, child.lineno, deferred) for n in names)
            elif isinstance(child, ast.Import):
                for a in child.names:
                    if a.name == package:
                        out.append(("__init__", child.lineno, deferred))
                    elif a.name.startswith(package + "."):
                        out.append((a.name[len(package) + 1:], child.lineno, deferred))
            visit(child, inner)

    visit(tree, False)
    return out


def check(root, layers, package="opyard"):
    """``(upward imports, cycles, modules without a layer)`` of the package at ``root``."""
    mods = _modules(root, package)

    def resolve(target):
        while target and target not in mods:
            target = target.rpartition(".")[0]
        return target or None

    edges, ups = {}, []
    for mod, path in sorted(mods.items()):
        for written, line, deferred in _targets(mod, path, package, {*mods, "_core"}):
            target = resolve(written) or ("_core" if written.startswith("_core") else None)
            if target is None or target == mod:
                continue
            edges.setdefault(mod, set()).add(target)
            lm, lt = layer_of(mod, layers), layer_of(target, layers)
            if lm is not None and lt is not None and lt > lm:
                where = os.path.relpath(path, root)
                ups.append(f"{where}:{line}: {mod} (layer {lm}) imports {target} (layer {lt})"
                           + (" [deferred]" if deferred else ""))
    unplaced = sorted(m for m in mods if layer_of(m, layers) is None)
    return ups, _cycles(edges), unplaced


def _cycles(edges):
    """Strongly connected components of more than one module (iterative Tarjan)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = 0
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


# --- the package -------------------------------------------------------------------------------

def test_every_module_has_a_layer():
    _, _, unplaced = check(PACKAGE, LAYERS)
    assert not unplaced, f"place these modules in tests/package/test_layers.py LAYERS: {unplaced}"


def test_no_import_goes_up_a_layer():
    ups, _, _ = check(PACKAGE, LAYERS)
    assert not ups, ("a lower layer imports a higher one (register through _registration, or let the "
                     "higher layer install a hook at import):\n" + "\n".join(ups))


def test_no_import_cycles():
    _, cycles, _ = check(PACKAGE, LAYERS)
    assert not cycles, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in cycles)


# --- the checker on synthetic trees ------------------------------------------------------------

SYNTHETIC_LAYERS = {"low": 0, "mid": 1, "high": 2, "__init__": 3}


def _tree(tmp_path, files):
    root = tmp_path / "pkg"
    for name, text in {"__init__.py": "", **files}.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return str(root)


def test_clean_tree_passes(tmp_path):
    root = _tree(tmp_path, {"low.py": "import os\n", "mid.py": "from . import low\n",
                            "high.py": "from pkg.mid import x\nfrom .low import y\n"})
    assert check(root, SYNTHETIC_LAYERS, "pkg") == ([], [], [])


@pytest.mark.parametrize("text, expected", [
    ("from .high import f\n", "low.py:1: low (layer 0) imports high (layer 2)"),
    ("from . import mid\n", "low.py:1: low (layer 0) imports mid (layer 1)"),
    ("import pkg.high\n", "low.py:1: low (layer 0) imports high (layer 2)"),
    ("from pkg import high\n", "low.py:1: low (layer 0) imports high (layer 2)"),
    ("def f():\n    from .high import g\n    return g\n", "low.py:2: low (layer 0) imports high (layer 2) [deferred]"),
    ("class C:\n    def m(self):\n        from pkg.mid import h\n",
     "low.py:3: low (layer 0) imports mid (layer 1) [deferred]"),
    # the package itself is the facade, whatever is taken from it
    ("import pkg\n", "low.py:1: low (layer 0) imports __init__ (layer 3)"),
    ("def f():\n    import pkg\n    return pkg.high\n", "low.py:2: low (layer 0) imports __init__ (layer 3) [deferred]"),
    ("def f():\n    from pkg import thing\n", "low.py:2: low (layer 0) imports __init__ (layer 3) [deferred]"),
    ("def f():\n    import pkg as p\n", "low.py:2: low (layer 0) imports __init__ (layer 3) [deferred]"),
    ("from . import thing\n", "low.py:1: low (layer 0) imports __init__ (layer 3)"),
])
def test_upward_import_fails(tmp_path, text, expected):
    root = _tree(tmp_path, {"low.py": text, "mid.py": "", "high.py": ""})
    ups, cycles, _ = check(root, SYNTHETIC_LAYERS, "pkg")
    assert ups == [expected]


def test_facade_import_from_subpackage_is_upward(tmp_path):
    root = _tree(tmp_path, {"mid/__init__.py": "", "mid/inner.py": "def f():\n    from .. import thing\n",
                            "high.py": "", "low.py": ""})
    ups, _, _ = check(root, SYNTHETIC_LAYERS, "pkg")
    assert ups == [f"mid{os.sep}inner.py:2: mid.inner (layer 1) imports __init__ (layer 3) [deferred]"]


def test_names_of_submodules_from_the_package_are_not_the_facade(tmp_path):
    root = _tree(tmp_path, {"low.py": "", "mid.py": "import pkg.low\nfrom pkg import low\nfrom . import low as l\n",
                            "high.py": "def f():\n    from pkg import mid, low\n"})
    assert check(root, SYNTHETIC_LAYERS, "pkg") == ([], [], [])


def test_upward_import_from_subpackage(tmp_path):
    root = _tree(tmp_path, {"mid/__init__.py": "", "mid/inner.py": "from ..high import f\n", "high.py": "",
                            "low.py": ""})
    ups, _, _ = check(root, SYNTHETIC_LAYERS, "pkg")
    assert ups == [f"mid{os.sep}inner.py:1: mid.inner (layer 1) imports high (layer 2)"]


def test_cycle_within_a_layer_fails(tmp_path):
    root = _tree(tmp_path, {"mid/__init__.py": "from .a import x\n", "mid/a.py": "from .b import y\n",
                            "mid/b.py": "def f():\n    from . import a\n", "low.py": "", "high.py": ""})
    ups, cycles, _ = check(root, SYNTHETIC_LAYERS, "pkg")
    assert ups == []
    assert cycles == [["mid.a", "mid.b"]]


def test_unplaced_module_is_reported(tmp_path):
    root = _tree(tmp_path, {"low.py": "", "stray.py": "from . import low\n"})
    assert check(root, SYNTHETIC_LAYERS, "pkg")[2] == ["stray"]
