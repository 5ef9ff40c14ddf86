"""How the built-in operator table is derived from the kernel modules, and the writer of its index.

``opyard._aten`` does not import its kernel modules at import time: it reads ``_index.py``, which
names, for every operator row, the module and table holding its kernel, its kind and where its meta
kernel lives, and which packets are ``opyard.<name>`` and ``Tensor.<name>`` (Note [Kernel modules
on first use], ``_aten/__init__.py``). This module is the derivation that index records: it imports
every module of the package that declares operators and reads their tables. ``make gen`` rewrites
the index (``python -m opyard._gen``); ``tests/package/test_generated_indexes.py`` fails when it is
stale.

A kernel module declares operators with an ``OpTable`` (``_declare.py``: one declaration per
operator) or with module-level tables of the same names: ``SCHEMAS`` (verbatim from
native_functions.yaml), ``KERNELS`` (numpy kernels, one per backend), ``COMPOSITE``
(CompositeImplicitAutograd kernels), ``META_KERNELS`` (hand-written Meta kernels), ``OUT`` (``out=``
rows), ``KINDS`` (name -> kind) and the kind sets ``VIEWS``, ``REDUCTIONS``, ``LIKE``,
``DATA_DEPENDENT`` and ``POINTWISE``. Every operator is declared in exactly one module.
"""

import importlib
import os
import pprint

__all__ = ["declaring_modules", "rows", "schemas", "out_rows", "op_names", "exposed", "index_source", "names_literal",
           "packets", "packet_rows", "qualified", "PATH"]

_HERE = os.path.dirname(os.path.abspath(__file__))
# Modules with tables of other roles: the base schemas (read at import) and the ``out=`` kernels.
_NOT_DECLARING = ("schemas", "out_variants")
_TABLES = ("SCHEMAS", "KERNELS", "COMPOSITE", "META_KERNELS", "OUT", "KINDS")
_KIND_SETS = (("VIEWS", "view"), ("REDUCTIONS", "reduction"), ("LIKE", "like"),
              ("DATA_DEPENDENT", "data_dependent"), ("POINTWISE", "pointwise"))


def _m(name):
    return importlib.import_module(f"opyard._aten.{name}")


def declaring_modules():
    """The modules of ``_aten`` that declare operators, by name (the order of the index)."""
    names = sorted(f[:-3] for f in os.listdir(_HERE)
                   if f.endswith(".py") and not f.startswith("_") and f[:-3] not in _NOT_DECLARING)
    return tuple(n for n in names
                 if any(hasattr(_m(n), t) for t in _TABLES + ("OPS",) + tuple(s for s, _ in _KIND_SETS)))


def _tables(module):
    """``{table: (path, contents)}`` of one module: its own tables, then its ``OPS`` table's."""
    mod = _m(module)
    out = {}
    for t in _TABLES + tuple(s for s, _ in _KIND_SETS):
        if hasattr(mod, t):
            out.setdefault(t, []).append((t, getattr(mod, t)))
        ops = getattr(mod, "OPS", None)
        if ops is not None and hasattr(ops, t):
            out.setdefault(t, []).append(("OPS." + t, getattr(ops, t)))
    return out


def _entries(table):
    """``(module, path, key)`` for every key of ``table`` across the declaring modules, in order."""
    for module in declaring_modules():
        for path, contents in _tables(module).get(table, ()):
            for key in contents:
                yield module, path, key


def schemas():
    """The schemas the declaring modules hold, in index order (module, then declaration)."""
    return tuple(s for _, _, s in _entries("SCHEMAS"))


def out_rows():
    """``(out= schema, functional overload, exact dtype?)`` rows the declaring modules hold."""
    return tuple(tuple(row) for _, _, row in _entries("OUT"))


def _owners(table):
    """``name -> (module, path)`` over ``table``; an operator declared in two modules is an error."""
    owner = {}
    for module, path, name in _entries(table):
        if name in owner:
            raise RuntimeError(f"aten::{name} is declared in _aten/{owner[name][0]}.py and in _aten/{module}.py: "
                               "every operator has one declaration")
        owner[name] = (module, path)
    return owner


def _classifier():
    """``kind(name)`` and ``meta_table(name)`` over the declaring modules' tables."""
    kinds = {name: _resolve(module, path)[name] for name, (module, path) in _owners("KINDS").items()}
    metas = {name: f"{module}.{path}" for name, (module, path) in _owners("META_KERNELS").items()}
    sets = {kind: {name for _, _, name in _entries(table)} for table, kind in _KIND_SETS}

    def kind(name):
        if name in kinds:
            return kinds[name]
        if name in metas:
            return "own_meta"
        if name in sets["view"]:
            return "view"
        if name.split(".")[0].endswith("_"):
            return "inplace"
        for k in ("reduction", "like", "data_dependent", "pointwise"):
            if name in sets[k]:
                return k
        return "proxy"

    def meta_table(name, k):
        if k in ("factory", "own_meta"):
            if name not in metas:
                raise RuntimeError(f"aten::{name} is of kind {k!r} but no META_KERNELS table holds its Meta kernel")
            return metas[name]
        return None

    return kind, meta_table


def _resolve(module, path):
    obj = _m(module)
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def rows(names):
    """``(name, module, table, kind, meta table or None)`` of every operator row, in index order:
    ``KERNELS`` rows, then ``COMPOSITE`` rows, then the ``out=`` rows (``out_variants.EXPLICIT``
    makes their kernels). ``table`` is the path of the mapping in ``module``
    (``KERNELS``, ``OPS.KERNELS``, ...), the meta table ``module.path``. Raises if an operator of
    ``names`` has no kernel or one is declared twice."""
    kernels, composite = _owners("KERNELS"), _owners("COMPOSITE")
    both = set(kernels) & set(composite)
    if both:
        raise RuntimeError(f"aten: operators with both a kernel and a composite kernel: {sorted(both)}")
    explicit = {s.split("(")[0] for s in _out_schemas()}
    missing = set(names) - set(kernels) - set(composite) - explicit
    if missing:
        raise RuntimeError(f"aten: operators defined without kernels: {sorted(missing)}")
    kind, meta_table = _classifier()
    out = []
    for name, (module, path) in kernels.items():
        k = kind(name)
        out.append((name, module, path, k, meta_table(name, k)))
    out += [(name, module, path, "composite", None) for name, (module, path) in composite.items()]
    out += [(s.split("(")[0], "out_variants", "EXPLICIT", "explicit", None) for s in _out_schemas()]
    return tuple(out)


def _out_schemas():
    """The ``out=`` schemas in ``out_variants.SCHEMAS`` order: its own rows, then the declared ones."""
    ov = _m("out_variants")
    return tuple(row[0] for row in ov._TABLE) + tuple(row[0] for row in ov._MULTI) + tuple(r[0] for r in out_rows())


def op_names():
    """Every built-in operator's name (``add.Tensor``): the base schemas, the declared ones and the
    ``out=`` overloads."""
    return tuple(s.split("(")[0] for s in _m("schemas").SCHEMAS + schemas() + _out_schemas())


def _group(keys):
    """``{packet: (positions in keys, ...)}`` for ``keys`` (operator names), packets in order of first
    appearance: the grouping import would otherwise compute from every name."""
    out = {}
    for i, name in enumerate(keys):
        out.setdefault("aten::" + name.partition(".")[0], []).append(i)
    return {packet: tuple(found) for packet, found in out.items()}


def packets(names):
    """``{packet: positions of its schemas in names}``, ``names`` being ``op_names()`` (the order of
    ``_aten.SCHEMAS``). A packet's positions are in torch's order of its overloads
    (``overload_order.txt``), the order its definition and a call of it try them; overloads torch
    does not have follow in declaration order."""
    order = _overload_order()
    out = {}
    for packet, found in _group(names).items():
        rank = order.get(packet.split("::")[1])
        if rank is not None:
            def key(i, rank=rank):
                overload = names[i].partition(".")[2] or "default"
                return rank.get(overload, len(rank)), i
            found = tuple(sorted(found, key=key))
        out[packet] = found
    return out


# The packets whose public forms (``x.var(0)``, ``opyard.std_mean(x)``) are the packet itself while
# torch's Python bindings try their overloads in another order than ``torch.ops.aten.<name>`` does:
# the bindings' order wins, since that is how these are called (``x.var()`` is ``var.correction``,
# ``x.var(0)`` is ``var.dim``, as in torch).
_PUBLIC_ORDER = {name: ("dim", "correction", "default") for name in ("var", "std", "var_mean", "std_mean")}


def _overload_order():
    """``{packet: {overload: rank}}`` from ``overload_order.txt`` and ``_PUBLIC_ORDER``."""
    found = {}
    with open(os.path.join(_HERE, "overload_order.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                packet, _, overloads = line.partition(":")
                found[packet.strip()] = {o: r for r, o in enumerate(overloads.split())}
    for packet, overloads in _PUBLIC_ORDER.items():
        found[packet] = {o: r for r, o in enumerate(overloads)}
    return found


def packet_rows(table_rows):
    """``{packet: positions of its rows in table_rows}``, ``table_rows`` being ``rows(...)``."""
    return _group(row[0] for row in table_rows)


def qualified(names):
    """``aten::name[.overload]`` of every operator of ``names``, ``.default`` dropped (the names the
    tags and the derivative table know)."""
    return tuple("aten::" + n.removesuffix(".default") for n in names)


def _variants():
    """``(torch's function names, torch's method names)`` from ``variants.txt``."""
    found = {}
    with open(os.path.join(_HERE, "variants.txt"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                form, _, names = line.partition(":")
                found[form.strip()] = set(names.split())
    return found["function"], found["method"]


def exposed(names):
    """``(functions, methods)``: the packets of ``names`` torch has as ``torch.<packet>`` and as
    ``Tensor.<packet>``, sorted."""
    packets = {n.split(".")[0] for n in names}
    functions, methods = _variants()
    return tuple(sorted(packets & functions)), tuple(sorted(packets & methods))


def names_literal(names, indent=4):
    """``names`` as a tuple literal, one per line (a new name is a one-line change of the file)."""
    body = "".join(f"{' ' * indent}{n!r},\n" for n in names)
    return f"(\n{body}{' ' * (indent - 4)})"


def _lines(items, what):
    """``items`` (strings) as the body of a triple-quoted literal, one per line."""
    for item in items:
        if not item or "\n" in item or "\\" in item or '"""' in item or item.endswith('"'):
            raise RuntimeError(f"aten index: {what} {item!r} cannot be written one per line")
    return "\n".join(items)


def _fields(values, what):
    """``values`` as one line of space-separated fields (``None`` written ``-``)."""
    out = []
    for v in values:
        v = "-" if v is None else str(v)
        if not v or " " in v or "\n" in v or "|" in v:
            raise RuntimeError(f"aten index: {what} field {v!r} cannot be written")
        out.append(v)
    return " ".join(out)


# Note [Packed operator index]: a tuple of 1,300 tuples and two dicts of 850 tuples cost ~0.5 ms to
# unmarshal and build at import, most of it objects no import reads. So the index holds its tables
# as strings, one packet a line (a string unmarshals as one copy, and splitting it is one C call):
# the positions of its schemas, then its rows with their positions in ROWS. It decodes only what is
# asked: a packet's line when the packet is first defined (``packet_schemas``, ``packet_rows``); the
# whole tables (``ROWS``, ``PACKETS``, ``PACKET_ROWS``) on first read of those names. The decoder is
# fixed text, written after the tables.
_DECODER = '''
# --- decoding (fixed text written by ``_table.py``, Note [Packed operator index]) ---

PACKET_NAMES = tuple(_PACKET_NAMES.split("\\n"))
_cache = {}  # the packets' lines by name, made on first read (a racing thread makes an equal one)


def _lines():
    found = _cache.get("lines")
    if found is None:
        found = _cache["lines"] = dict(zip(PACKET_NAMES, _PACKETS.split("\\n")))
    return found


def _rows_of(line):
    """``[(position in ROWS, row), ...]`` of a packet's line."""
    rows = line.partition("|")[2]
    return [(int(fields[0]), tuple(None if f == "-" else f for f in fields[1:]))
            for fields in (row.split(" ") for row in rows.split(";"))] if rows else []


def packet_schemas(packet):
    """The positions of ``packet``'s schemas in ``_aten.SCHEMAS`` (``()`` for an unknown packet)."""
    line = _lines().get(packet)
    return () if line is None else tuple(map(int, line.partition("|")[0].split()))


def packet_rows(packet):
    """The rows of ``packet`` (``ROWS`` entries), in index order (``()`` for an unknown packet)."""
    line = _lines().get(packet)
    return () if line is None else tuple(row for _, row in _rows_of(line))


def __getattr__(name):
    """``QUALIFIED``, ``ROWS``, ``PACKETS`` and ``PACKET_ROWS`` as whole tables, decoded on first read."""
    if name == "QUALIFIED":  # read when a built-in operator's tags are first asked for
        value = globals()[name] = tuple(_QUALIFIED.split("\\n"))
        return value
    lines = _lines()
    if name == "ROWS":
        value = tuple(row for _, row in sorted(r for p in PACKET_NAMES for r in _rows_of(lines[p])))
    elif name == "PACKETS":
        value = {p: packet_schemas(p) for p in PACKET_NAMES}
    elif name == "PACKET_ROWS":
        found = [(p, tuple(i for i, _ in _rows_of(lines[p]))) for p in PACKET_NAMES]
        value = dict(sorted(((p, rows) for p, rows in found if rows), key=lambda item: item[1][0]))
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
'''


def index_source():
    """The text of ``_index.py`` for the kernel modules as they are (Note [Packed operator index])."""
    names = op_names()
    table_rows = rows(names)
    functions, methods = exposed(names)
    by_packet, by_packet_rows = packets(names), packet_rows(table_rows)
    if not set(by_packet_rows) <= set(by_packet):
        raise RuntimeError(f"aten index: rows of packets without schemas: {set(by_packet_rows) - set(by_packet)}")
    firsts = [found[0] for found in by_packet_rows.values()]
    if firsts != sorted(firsts):  # the decoder orders PACKET_ROWS by first row
        raise RuntimeError("aten index: PACKET_ROWS is not in the order of its first rows")
    row_lines = [_fields(r, "row") for r in table_rows]
    if any(";" in line for line in row_lines):
        raise RuntimeError("aten index: a row field holds ';'")
    lines = [_fields(by_packet[p], "position") + "|" + ";".join(f"{i} {row_lines[i]}" for i in by_packet_rows.get(p, ()))
             for p in by_packet]
    return (
        '"""Written by ``make gen`` (do not edit; ``tests/package/test_generated_indexes.py`` checks it):\n'
        "the built-in operators' declared schemas, their ``out=`` rows, per operator row where its kernels\n"
        "live, and the packets torch has as functions and methods (Note [Kernel modules on first use],\n"
        "``_aten/__init__.py``; ``_aten/_table.py`` derives it). The large tables are strings, one entry\n"
        'per line, decoded when first read (Note [Packed operator index], ``_table.py``)."""\n\n'
        "# The SCHEMAS of the declaring modules, in module order.\n"
        f'SCHEMAS = tuple("""\\\n{_lines(schemas(), "schema")}""".split("\\n"))\n\n'
        "# (out= schema, functional overload, exact dtype?) declared beside their functional operators.\n"
        f"OUT = {pprint.pformat(out_rows(), width=118)}\n\n"
        "# Every operator's qualified name (aten::name[.overload], no .default), in _aten.SCHEMAS order.\n"
        f'_QUALIFIED = """\\\n{_lines(qualified(names), "name")}"""\n\n'
        "# The packets, in order of first appearance in _aten.SCHEMAS (PACKETS' keys).\n"
        f'_PACKET_NAMES = """\\\n{_lines(list(by_packet), "packet")}"""\n\n'
        "# Per packet, same order (Note [Operators defined on first use]): the positions of its schemas in\n"
        "# _aten.SCHEMAS (base, declared, out=), then after | its rows, separated by ;, each its position in\n"
        "# ROWS, name, module, kernel table, kind and meta kernel's module.table (- for none).\n"
        f'_PACKETS = """\\\n{chr(10).join(lines)}"""\n\n'
        "# Packets torch has as torch.<name> and as Tensor.<name> (variants.txt).\n"
        f"FUNCTIONS = {names_literal(functions)}\n"
        f"METHODS = {names_literal(methods)}\n"
        + _DECODER)


PATH = os.path.join(_HERE, "_index.py")
