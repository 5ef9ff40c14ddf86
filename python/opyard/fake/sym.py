"""``SymFloat`` and the SymInt-aware helpers ``sym_int``, ``sym_float``, ``sym_max``, ``sym_min``, ``sym_not``.

Fake impls use these instead of ``int()``, ``float()``, ``max()``, ``min()``
and ``not`` so that they work on concrete and symbolic sizes alike: on plain
numbers they are the builtins; on a ``SymInt`` they build an expression instead
of asking for a value the fake tensor does not have.

Example::

    >>> from opyard.fake.sym import sym_max
    >>> sym_max(3, 5)
    5
    >>> u0 = ShapeEnv().create_unbacked_symint()
    >>> sym_max(u0, 1)      # a SymInt: max(u0, 1)
"""

import builtins
import math

import numpy as np

from .symbolic import SymBool, SymFloat, SymInt

__all__ = ["SymFloat", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not"]

_INT_TYPES = (builtins.int, np.integer)
_FLOAT_TYPES = (builtins.float, np.floating)


def _expr(x):
    return x._expr if isinstance(x, (SymInt, SymFloat)) else repr(x)


def _hint(x):
    return x._hint if isinstance(x, (SymInt, SymFloat)) else x


def sym_not(a):
    """``not a`` that keeps a ``SymBool`` symbolic."""
    if isinstance(a, SymBool):
        return a.__sym_not__()
    return not a


def sym_float(a):
    """``float(a)`` that keeps a ``SymInt`` symbolic (as a ``SymFloat``)."""
    if isinstance(a, SymFloat):
        return a
    if isinstance(a, SymInt):
        return SymFloat(a._expr, builtins.float(a._hint), a)
    return builtins.float(a)


def sym_int(a):
    """``int(a)`` (truncating) that keeps a ``SymInt`` symbolic."""
    if isinstance(a, SymInt):
        return a
    if isinstance(a, SymFloat):
        if a._source is not None:
            return a._source  # sym_int(sym_float(s)) is s
        return math.trunc(a)
    return builtins.int(a)


def _check_number(api, x):
    if isinstance(x, builtins.bool) or not isinstance(x, (*_INT_TYPES, *_FLOAT_TYPES)):
        raise TypeError(f"opyard.{api}: expected int, float, SymInt or SymFloat arguments, got "
                        f"{type(x).__name__} {str(x)[:100]!r}")


def _sym_extremum(api, pick, a, b):
    """max/min over ranges: decided when the ranges do not overlap, else a symbolic expression."""
    if isinstance(a, SymFloat) or isinstance(b, SymFloat):
        sym, other = (a, b) if isinstance(a, SymFloat) else (b, a)
        return sym.__sym_max__(other) if pick is builtins.max else sym.__sym_min__(other)
    for x in (a, b):
        if not isinstance(x, SymInt):
            _check_number(api, x)
    if not isinstance(a, SymInt) and not isinstance(b, SymInt):
        if isinstance(a, _FLOAT_TYPES) or isinstance(b, _FLOAT_TYPES):
            return builtins.float(pick(a, b))
        return pick(a, b)
    if isinstance(a, _FLOAT_TYPES) or isinstance(b, _FLOAT_TYPES):
        return _sym_extremum(api, pick, sym_float(a), sym_float(b))
    (alo, ahi), (blo, bhi) = _range(a), _range(b)
    if ahi is not None and blo is not None and ahi <= blo:
        return b if pick is builtins.max else a
    if bhi is not None and alo is not None and bhi <= alo:
        return a if pick is builtins.max else b
    lo = pick(alo, blo) if alo is not None and blo is not None else (
        None if pick is builtins.min else alo if blo is None else blo)
    hi = pick(ahi, bhi) if ahi is not None and bhi is not None else (
        None if pick is builtins.max else ahi if bhi is None else bhi)
    sym = a if isinstance(a, SymInt) else b
    fn = sym_max if pick is builtins.max else sym_min
    return SymInt(f"{pick.__name__}({_expr_int(a)}, {_expr_int(b)})", (lo, hi),
                  pick(_hint(a), _hint(b)), sym._env, 3, (fn, a, b),
                  all(x._backed for x in (a, b) if isinstance(x, SymInt)))


def _range(x):
    return x._range if isinstance(x, SymInt) else (x, x)


def _expr_int(x):
    return x._expr if isinstance(x, SymInt) else str(x)


def sym_max(a, b):
    """``max(a, b)`` without branching on ``a < b``; float if either argument is a float."""
    return _sym_extremum("sym_max", builtins.max, a, b)


def sym_min(a, b):
    """``min(a, b)`` without branching on ``a < b``; float if either argument is a float."""
    return _sym_extremum("sym_min", builtins.min, a, b)

from .._exports import public_dir

__dir__ = public_dir(globals())
