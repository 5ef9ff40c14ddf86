"""Nested values (tuples, lists, dicts, named tuples of tensors) as flat leaves, and back.

One implementation for every transform: ``vmap`` and the ``func`` transforms
flatten inputs and outputs with it (and broadcast ``in_dims`` prefixes), and
``make_fx`` gives each leaf its own placeholder in this order. Containers are
``tuple``, ``list``, ``dict`` (values in insertion order), ``OrderedDict``,
``collections.namedtuple`` (rebuilt with ``_make``) and structseqs such as
``opyard.return_types.max`` (rebuilt from one sequence); anything else,
subclasses of those included, is a leaf — torch's ``torch.utils._pytree``
rules for these types.

Example::

    >>> leaves, spec = tree_flatten((x, {"a": y}))
    >>> tree_unflatten([x * 2, y * 2], spec)
    (x * 2, {'a': y * 2})
"""

from collections import OrderedDict as _OrderedDict

__all__ = ["LEAF", "TreeSpec", "broadcast_prefix", "describe", "tree_flatten", "tree_leaves", "tree_map",
           "tree_unflatten", "treespec_pprint"]


class TreeSpec:
    """A container type, its keys (dict keys, else None) and the specs of its children."""

    __slots__ = ("children", "context", "type")

    def __init__(self, type_, context, children):
        self.type = type_
        self.context = context
        self.children = children

    def __eq__(self, other):
        return (isinstance(other, TreeSpec) and self.type is other.type and self.context == other.context
                and self.children == other.children)

    def __hash__(self):
        return hash((self.type, self.context))

    @property
    def num_leaves(self):
        return sum(1 if c is LEAF else c.num_leaves for c in self.children)

    def __repr__(self, indent=0):
        # torch's layout: each child after the first on its own line, indented by depth.
        if _is_named_tuple_type(self.type):
            head = f"TreeSpec({'structseq' if hasattr(self.type, 'n_sequence_fields') else 'namedtuple'}, " \
                f"{self.type}, ["
        else:
            head = f"TreeSpec({self.type.__name__}, {self.context}, ["
        indent += 2
        parts = ["*" if c is LEAF else c.__repr__(indent) for c in self.children]
        return head + (",\n" + " " * indent).join(parts) + "])"


# The spec of a leaf.
LEAF = "*"


def _is_named_tuple_type(cls):
    """A ``collections.namedtuple`` or a structseq: a tuple subclass with named fields."""
    return issubclass(cls, tuple) and (hasattr(cls, "_fields") or hasattr(cls, "n_sequence_fields"))


def _children(x):
    """(type, context, children) of a container, or None for a leaf."""
    cls = x.__class__
    if cls is tuple or cls is list:
        return cls, None, list(x)
    if cls is dict or cls is _OrderedDict:
        keys = list(x)
        return cls, keys, [x[k] for k in keys]
    if _is_named_tuple_type(cls):
        return cls, None, list(x)
    return None


def tree_flatten(tree):
    """``(leaves, spec)`` of ``tree``; ``spec`` is :data:`LEAF` when ``tree`` is a leaf."""
    leaves = []
    return leaves, _flatten(tree, leaves)


def tree_leaves(tree):
    """The leaves of ``tree``, in flattening order."""
    return tree_flatten(tree)[0]


def _flatten(x, leaves):
    node = _children(x)
    if node is None:
        leaves.append(x)
        return LEAF
    cls, context, children = node
    return TreeSpec(cls, context, [_flatten(c, leaves) for c in children])


def tree_map(fn, tree):
    """``tree`` with every leaf replaced by ``fn(leaf)``."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def tree_unflatten(leaves, spec):
    """The structure ``spec`` describes, filled with ``leaves`` in order."""
    it = iter(leaves)
    return _build(spec, it)


def _build(spec, it):
    if spec is LEAF:
        return next(it)
    children = [_build(c, it) for c in spec.children]
    if spec.context is not None:
        return spec.type(zip(spec.context, children))
    if spec.type is tuple or spec.type is list:
        return spec.type(children)
    make = getattr(spec.type, "_make", None)  # collections.namedtuple; structseqs take one sequence
    return make(children) if make is not None else spec.type(children)


def broadcast_prefix(prefix, spec):
    """Leaves of ``prefix`` repeated to the leaves of ``spec``; None when the structures differ."""
    out = []
    return out if _broadcast(prefix, spec, out) else None


def _broadcast(prefix, spec, out):
    node = _children(prefix)
    if node is None:
        out.extend([prefix] * (1 if spec is LEAF else spec.num_leaves))
        return True
    cls, context, children = node
    if spec is LEAF or spec.type is not cls or spec.context != context or len(children) != len(spec.children):
        return False
    return all(_broadcast(p, s, out) for p, s in zip(children, spec.children))


class _DummyLeaf:
    def __repr__(self):
        return "*"


def treespec_pprint(spec):
    """torch's short text of a structure: ``*``, ``(*, *)``, ``{'a': *, 'b': [*]}``, ``P(a=*, b=*)``."""
    if spec is LEAF:
        return "*"
    return repr(tree_unflatten([_DummyLeaf() for _ in range(spec.num_leaves)], spec))


def describe(spec):
    """A short text for an error: ``a value``, ``list of 2``, ``dict with keys ['a', 'b']``."""
    if spec is LEAF:
        return "a value"
    if spec.context is not None:
        return f"{spec.type.__name__} with keys {list(spec.context)[:10]}"
    return f"{spec.type.__name__} of {len(spec.children)}"
