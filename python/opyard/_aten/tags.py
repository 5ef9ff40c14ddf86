"""torch's operator tags of the built-in ``aten`` operators.

The facts are in ``tags.txt`` beside this module: generated from PyTorch's
``native_functions.yaml`` (each function's ``tags:``) and ``tags.yaml`` (the
tag names) as torch 2.15 reports them in ``OpOverload.tags``. torchgen gives
every aten operator ``pt2_compliant_tag``, so the file lists only the other
tags. Import costs nothing but the hand-over of the operators' names; the file
is read the first time a ``.tags`` of a built-in operator is asked (see Note
[Built-in tags] in ``_ops.py``); the call path never reads tags.
"""

import os

from .._ops import Tag, register_builtin_tags

__all__ = ["attach", "load"]

# os.path, not pathlib: pathlib is not imported otherwise and would cost import time.
DATA = os.path.join(os.path.dirname(__file__), "tags.txt")


def _tags(names, lineno):
    try:
        tags = {Tag[n.strip()] for n in names.split(",")}
    except KeyError as e:
        raise RuntimeError(f"tags.txt:{lineno}: unknown tag {e.args[0]!r}; "
                           f"the tags are {[t.name for t in Tag]}") from None
    return tuple(sorted(tags | {Tag.pt2_compliant_tag}, key=lambda t: t.value))


def load():
    """``({"name.overload": (Tag, ...)}, tags of an overload not listed)``, in torch's order."""
    table = {}
    with open(DATA, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for lineno, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        names, _, overloads = line.partition(":")
        table.update(dict.fromkeys(overloads.split(), _tags(names, lineno)))
    return table, (Tag.pt2_compliant_tag,)


def attach(qualified_names):
    """Give the built-in operators ``qualified_names()`` (``aten::name[.overload]``, read when tags are
    first asked for) torch's tags."""
    register_builtin_tags(qualified_names, load)
