"""One declaration per built-in operator: its schema, kernel, kind and variants in one place.

A kernel module makes one table, ``OPS = OpTable()``, and declares each operator on its kernel::

    @OPS.op("logaddexp2(Tensor self, Tensor other) -> Tensor", kind="pointwise",
            out="logaddexp2.out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)")
    def logaddexp2(self, other):
        ...

Nothing here runs on the call path: the table is data that ``make gen`` reads (``_table.py``
derives ``_index.py`` from every kernel module) and that ``_aten/__init__`` reads a kernel from
when the operator's packet is first defined (Note [Kernel modules on first use]). Modules written
before this table hold the same facts in module-level tables (``SCHEMAS``, ``KERNELS``,
``COMPOSITE``, ``META_KERNELS``, ``POINTWISE``, ...), which ``_table.py`` reads alike.
"""

from .common import inplace_result

__all__ = ["OpTable", "KINDS"]

# The kinds an operator may declare (how its Meta kernel and batching rule are derived; Note [Kernel
# modules on first use]). ``composite``: one CompositeImplicitAutograd kernel, autograd records what
# it calls; ``own_meta``: the declaration gives ``meta=``; the others name a ``meta`` deriver.
KINDS = ("pointwise", "inplace", "reduction", "view", "like", "data_dependent", "topk", "proxy",
         "meta_aware", "factory", "own_meta", "composite")


def _name(schema):
    return schema[:schema.index("(")]


def _inplace_kernel(kernel, name):
    """The in-place form of a functional kernel: its result written into ``self`` (torch's cast and
    shape rules, the version bumped)."""
    op_name = "aten::" + name

    def inplace(self, *args, **kwargs):
        return inplace_result(self, kernel(self, *args, **kwargs)._data, op_name)
    inplace.__name__ = inplace.__qualname__ = name.replace(".", "_")
    return inplace


class OpTable:
    """The operators one kernel module declares, as the tables ``_table.py`` reads:
    ``SCHEMAS`` (in declaration order), ``KERNELS`` (one per backend, Meta derived by kind),
    ``COMPOSITE`` (CompositeImplicitAutograd), ``META_KERNELS``, ``KINDS`` and ``OUT``
    (``(out= schema, functional overload, exact dtype)`` rows: ``out_variants`` makes their
    kernels and defines their schemas)."""

    __slots__ = ("SCHEMAS", "KERNELS", "COMPOSITE", "META_KERNELS", "KINDS", "OUT")

    def __init__(self):
        self.SCHEMAS = []
        self.KERNELS = {}
        self.COMPOSITE = {}
        self.META_KERNELS = {}
        self.KINDS = {}
        self.OUT = []

    def op(self, schema, *, kind=None, inplace=None, out=None, exact=False, meta=None):
        """Declare the operator ``schema`` (verbatim from native_functions.yaml) with the decorated
        function as its kernel.

        ``kind`` says how its Meta kernel is derived (``KINDS``; by default ``inplace`` for a name
        ending in ``_``, else ``proxy``: the kernel run on stand-ins); ``composite`` registers the
        function as its CompositeImplicitAutograd kernel instead; ``meta`` gives a hand-written Meta
        kernel.
        ``inplace`` (a schema) also declares the in-place form, writing the result into ``self``;
        ``out`` (a schema) the ``out=`` form, with torch's checks on ``out``; ``exact`` makes it
        require ``out``'s dtype to be the result's (torch's matrix products). Which of them are
        ``opyard.<name>`` and ``Tensor.<name>`` follows torch (``variants.txt``).
        """
        if kind is not None and kind not in KINDS:
            raise ValueError(f"OpTable.op({schema!r}): kind must be one of {KINDS}, not {kind!r}")
        name = _name(schema)

        def declare(kernel):
            self._add(schema, kernel, kind, meta)
            if inplace is not None:
                self._add(inplace, _inplace_kernel(kernel, _name(inplace)), "inplace", None)
            if out is not None:
                self.OUT.append((out, name, exact))
            return kernel
        return declare

    def _add(self, schema, kernel, kind, meta):
        name = _name(schema)
        if name in self.KINDS:
            raise ValueError(f"OpTable: aten::{name} is declared twice")
        if kind is None:
            kind = "inplace" if name.partition(".")[0].endswith("_") else "proxy"
        self.SCHEMAS.append(schema)
        (self.COMPOSITE if kind == "composite" else self.KERNELS)[name] = kernel
        self.KINDS[name] = "own_meta" if meta is not None else kind
        if meta is not None:
            self.META_KERNELS[name] = meta

    def __repr__(self):
        return f"<OpTable of {len(self.KINDS)} operators>"
