"""Decomposition tables: Python functions that ``make_fx`` traces in place of an operator.

``make_fx(f, decomposition_table=table)`` records, for a call of an operator that
``table`` maps (``{OpOverload: fn}``), the calls ``fn(*args, **kwargs)`` makes instead
of the operator itself (torch's ``ProxyTorchDispatchMode`` does the same). Libraries
fill tables at import with ``register_decomposition`` (torch's ``torch._decomp`` API):

    >>> @register_decomposition(opyard.ops.mylib.scale.default)
    ... def _(x, s):
    ...     return x * s
    >>> make_fx(f, decomposition_table=decomposition_table)(x)

``decomposition_table`` is the process-wide table (torch's ``torch._decomp``
``decomposition_table``; ``type="pre_autograd"`` and ``"meta"`` have tables of their
own); ``inductor_decompositions`` is the one ``register_inductor_decomposition`` fills
(torch's ``torch._inductor.decomposition.register_decomposition``, which torchao
calls at import), with ``select_decomp_table()`` returning it.
"""

import logging

from .._ops import OpOverload, OpOverloadPacket, registered_keys, resolve

__all__ = ["register_decomposition", "get_decompositions", "decomposition_table", "global_decomposition_table",
           "inductor_decompositions", "register_inductor_decomposition", "select_decomp_table"]

decomposition_table = {}
pre_autograd_decomposition_table = {}
meta_table = {}
# torch's ``global_decomposition_table``: one table per kind of decomposition.
global_decomposition_table = {"post_autograd": decomposition_table, "pre_autograd": pre_autograd_decomposition_table,
                              "meta": meta_table}
inductor_decompositions = {}


def _overloads(op):
    """The overloads ``op`` stands for: itself (an overload, a custom op, a name), or every overload
    of a packet."""
    if isinstance(op, OpOverloadPacket):
        return [getattr(op, name) for name in op.overloads()]
    if isinstance(op, (OpOverload, str)) or isinstance(getattr(op, "_opoverload", None), OpOverload):
        return [resolve(op)]
    raise AssertionError(f"expected OpOverloadPacket, got {type(op)}")


def _flat(ops):
    if isinstance(ops, (list, tuple)):
        for op in ops:
            yield from _flat(op)
    else:
        yield ops


def _add_to(registry, op, fn):
    for overload in _overloads(op):
        if overload in registry:
            raise RuntimeError(f"duplicate registrations for {overload}")
        # As torch: an overload with no kernel anywhere is left out (it cannot be called).
        if registered_keys(overload.name()):
            registry[overload] = fn


def register_decomposition(aten_op, registry=None, *, type="post_autograd", unsafe=False):
    """Decorator: ``fn`` becomes the decomposition of ``aten_op`` (an OpOverload, a packet, meaning
    every overload, or a list of them) in ``registry`` (default: the ``type`` table). Registering
    an overload twice raises, as torch. Returns ``fn`` unchanged."""
    if type not in global_decomposition_table:
        raise AssertionError(f"type must be one of post_autograd, pre_autograd, or meta, got {type}")

    def decorator(fn):
        table = global_decomposition_table[type] if registry is None else registry
        for op in _flat(aten_op):
            _add_to(table, op, fn)
        return fn
    return decorator


def get_decompositions(aten_ops, type="post_autograd"):
    """``{overload: fn}`` of the ``type`` table for ``aten_ops`` (packets give every overload with a
    decomposition); operators without one are left out."""
    table = global_decomposition_table[type]
    wanted = set()
    for op in _flat(list(aten_ops)):
        wanted.update(_overloads(op))
    return {op: fn for op, fn in table.items() if op in wanted}


def register_inductor_decomposition(ops):
    """torch's ``torch._inductor.decomposition.register_decomposition``: into ``inductor_decompositions``
    (an overload registered there before logs torch's warning, then raises as a duplicate)."""
    for op in ops if isinstance(ops, list) else [ops]:
        if any(o in inductor_decompositions for o in _overloads(op)):
            logging.getLogger(__name__).warning("duplicate decomp: %s", ops)
    return register_decomposition(ops, inductor_decompositions)


def select_decomp_table():
    """The table the inductor's registrations fill (what ``make_fx`` should be given for them)."""
    return inductor_decompositions


from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
