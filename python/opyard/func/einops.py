"""``rearrange(tensor, pattern, **axes_lengths)``: einops' reordering of axes (transpose, reshape,
squeeze, unsqueeze, stack, concatenate) written as a pattern, torch.func's native version.

A pattern is ``"left -> right"``: each side names the axes, ``(h w)`` composes several into one,
``...`` stands for the axes not named, ``1`` or ``()`` is an axis of size 1. The input is split into
its elementary axes (sizes from the input and ``axes_lengths``, one unknown per group inferred),
permuted into the right side's order and reshaped into its groups; an unnamed axis of the left side
is summed over, as torch's (first-class dimensions) does. Errors are torch's: ``ValueError`` for the
pattern, ``TypeError`` for a length that is no int, ``DimensionBindError`` for sizes that do not fit.

Example::

    >>> images = opyard.randn(32, 30, 40, 3)
    >>> rearrange(images, "b (h h1) (w w1) c -> b h w (c h1 w1)", h1=2, w1=2).shape
    opyard.Size([32, 15, 20, 12])
"""

import keyword
import warnings

from .._tensor import Tensor
from .rules.common import aten

__all__ = ["DimensionBindError", "rearrange"]

_ELLIPSIS = "\u2026"  # "..." once parsed: one character
_stack = aten("stack")
_reshape = aten("reshape")
_permute = aten("permute")
_sum = aten("sum.dim_IntList")


class DimensionBindError(Exception):
    """Sizes that do not fit the pattern (torch's first-class dimensions' error)."""


class _Side:
    """One side of a pattern: ``composition`` lists, per axis of the tensor, the names composing it
    (``[]``: an unnamed axis of size 1) or the ellipsis; ``names`` the identifiers."""

    def __init__(self, text):
        self.names = set()
        self.composition = []
        self.ellipsis = False
        self.ellipsis_grouped = False
        self.numbered = False  # an unnamed axis longer than 1 ("2")
        if "." in text:
            if "..." not in text:
                raise ValueError("Expression may contain dots only inside ellipsis (...)")
            if text.count("...") != 1 or text.count(".") != 3:
                raise ValueError("Expression may contain dots only inside ellipsis (...); only one ellipsis for "
                                 "tensor ")
            text = text.replace("...", _ELLIPSIS)
            self.ellipsis = True
        group = None
        word = None
        for ch in text + " ":
            if ch in "() ":
                if word is not None:
                    self._add(word, group)
                word = None
                if ch == "(":
                    if group is not None:
                        raise ValueError("Axis composition is one-level (brackets inside brackets not allowed)")
                    group = []
                elif ch == ")":
                    if group is None:
                        raise ValueError("Brackets are not balanced")
                    self.composition.append(group)
                    group = None
            elif ch.isalnum() or ch in ("_", _ELLIPSIS):
                word = ch if word is None else word + ch
            else:
                raise ValueError(f"Unknown character '{ch}'")
        if group is not None:
            raise ValueError(f"Imbalanced parentheses in expression: '{text}'")

    def _add(self, name, group):
        if name in self.names:
            raise ValueError(f"Indexing expression contains duplicate dimension '{name}'")
        if name == _ELLIPSIS:
            self.names.add(name)
            if group is None:
                self.composition.append(name)
            else:
                group.append(name)
                self.ellipsis_grouped = True
            return
        if name.isdecimal():
            if int(name) == 1:
                if group is None:
                    self.composition.append([])
                return
            if int(name) < 1:
                raise ValueError(f"Anonymous axis should have positive length, not {int(name)}")
            self.numbered = True
            (self.composition if group is None else group).append(name)
            return
        _check_name(name)
        self.names.add(name)
        if group is None:
            self.composition.append([name])
        else:
            group.append(name)


def _check_name(name):
    if not name.isidentifier():
        raise ValueError(f"Invalid axis identifier: {name}\nnot a valid python identifier")
    if name[0] == "_" or name[-1] == "_":
        raise ValueError(f"Invalid axis identifier: {name}\naxis name should should not start or end with underscore")
    if keyword.iskeyword(name):
        warnings.warn(f"It is discouraged to use axes names that are keywords: {name}", RuntimeWarning, stacklevel=4)
    if name == "axis":
        warnings.warn("It is discouraged to use 'axis' as an axis name and will raise an error in future",
                      FutureWarning, stacklevel=4)


def _parse(pattern, lengths):
    try:
        left, right = pattern.split("->")
    except ValueError:
        raise ValueError("Pattern must contain a single '->' separator") from None
    if _ELLIPSIS in lengths:
        raise ValueError(f"'{_ELLIPSIS}' is not an allowed axis identifier")
    left, right = _Side(left), _Side(right)
    if not left.ellipsis and right.ellipsis:
        raise ValueError(f"Ellipsis found in right side, but not left side of a pattern {pattern}")
    if left.ellipsis and left.ellipsis_grouped:
        raise ValueError(f"Ellipsis is parenthesis in the left side is not allowed: {pattern}")
    for length in lengths.values():
        if type(length) is not int:
            raise TypeError(f"rearrange axis lengths must be integers, got: {type(length)}")
    if left.numbered or right.numbered:
        raise ValueError("rearrange only supports unnamed axes of size 1")
    difference = left.names ^ right.names
    if difference:
        raise ValueError(f"Identifiers only on one side of rearrange expression (should be on both): {difference}")
    unmatched = lengths.keys() - left.names
    if unmatched:
        raise ValueError(f"Identifiers not found in rearrange expression: {unmatched}")
    return left, right


def _pack(names):
    return "(" + ", ".join(names) + ("," if len(names) == 1 else "") + ")"


def _bind(size, axes, known, dim_name):
    """The sizes of the elementary ``axes`` composing an input axis of ``size``."""
    unknown = [a for a in axes if a not in known]
    if len(unknown) > 1:
        raise DimensionBindError(f"cannot infer the sizes of two dimensions at once {dim_name[unknown[0]]} and "
                                 f"{dim_name[unknown[1]]}")
    product = 1
    for a in axes:
        if a in known:
            product *= known[a]
    if unknown:
        if product == 0 or size % product:
            sizes = tuple(known[a] if a in known else "?" for a in axes)
            raise DimensionBindError(f"inferred dimension does not evenly fit into larger dimension: {size} vs "
                                     f"{sizes}")
        known[unknown[0]] = size // product
    elif product != size:
        raise DimensionBindError(f"Dimension sizes to do not match ({size} != {product}) when matching dimension "
                                 f"pack {_pack([dim_name[a] for a in axes])}")


def rearrange(tensor, pattern, **axes_lengths):
    """Reorder ``tensor``'s axes as ``pattern`` says (see the module's docstring); a list or tuple of
    tensors is stacked first (a new leading axis)."""
    if not isinstance(tensor, Tensor):
        tensor = _stack(list(tensor))
    left, right = _parse(pattern, axes_lengths)
    ndim = tensor.dim()
    unnamed = sum(1 for c in left.composition if c == [])
    if left.ellipsis:
        n_ellipsis = ndim - (len(left.composition) - 1)
        pattern_ndim = unnamed + len(left.names) - 1
        if pattern_ndim > ndim:
            raise ValueError(f"Number of dimensions in pattern ({pattern_ndim}) must be less than or equal to the "
                             f"number of dimensions in the tensor ({ndim})")
    else:
        n_ellipsis = 0
        if len(left.composition) != ndim:
            raise ValueError(f"Number of dimensions in pattern ({len(left.composition)}) must be equal to the number "
                             f"of dimensions in the tensor ({ndim})")
    # The elementary axes, in the left side's order (torch names them d0, d1, ... in its messages).
    elementary, groups, anonymous = [], [], []
    for c in left.composition:
        if c == _ELLIPSIS:
            axes = [(_ELLIPSIS, j) for j in range(n_ellipsis)]
            groups.extend([a] for a in axes)
        elif c:
            axes = list(c)
            groups.append(axes)
        else:
            axes = [("anonymous", len(anonymous))]
            anonymous.append(axes[0])
            groups.append(axes)
        elementary.extend(axes)
    dim_name = {a: f"d{i}" for i, a in enumerate(elementary)}
    known = dict(axes_lengths)
    for size, axes in zip(tensor.shape, groups):
        _bind(size, axes, known, dim_name)
    out = _reshape(tensor, [known[a] for a in elementary])
    # Unnamed axes of the left side are summed over (they are on no side's list of names).
    if anonymous:
        out = _sum(out, [elementary.index(a) for a in anonymous])
        elementary = [a for a in elementary if a not in anonymous]
    order, shape = [], []
    for c in right.composition:
        members = []
        for name in ((c,) if c == _ELLIPSIS else c):
            if name == _ELLIPSIS:
                members.extend((_ELLIPSIS, j) for j in range(n_ellipsis))
            else:
                members.append(name)
        order.extend(members)
        if c == _ELLIPSIS:
            shape.extend(known[m] for m in members)
        else:
            size = 1
            for m in members:
                size *= known[m]
            shape.append(size)
    out = _permute(out, [elementary.index(a) for a in order])
    return _reshape(out, shape)


from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
