"""``SymInt`` and ``ShapeEnv``: symbolic sizes for data-dependent output shapes."""

import itertools

__all__ = ["SymInt", "ShapeEnv", "GuardOnDataDependentSymNode", "DynamicOutputShapeException"]


class GuardOnDataDependentSymNode(RuntimeError):
    """A branch on a symbolic size that its known bounds cannot decide."""


class DynamicOutputShapeException(RuntimeError):
    """An op's output shape depends on data and no ShapeEnv allows that."""


class ShapeEnv:
    """Owns the unbacked symbols ``u0, u1, ...`` and their value ranges."""

    def __init__(self, *, allow_dynamic_output_shape_ops=True):
        self.allow_dynamic_output_shape_ops = allow_dynamic_output_shape_ops
        self._counter = itertools.count()
        self.var_to_range = {}

    def create_unbacked_symint(self, *, min=0, max=None):
        name = f"u{next(self._counter)}"
        self.var_to_range[name] = (min, max)
        return SymInt(name, self, (min, max))


def _bounds(x):
    return x._range if isinstance(x, SymInt) else (x, x)


class SymInt:
    """A symbolic integer: a name or expression with a value range."""

    __slots__ = ("_expr", "_env", "_range")

    def __init__(self, expr, env=None, value_range=(0, None)):
        self._expr, self._env, self._range = expr, env, value_range

    @property
    def node(self):
        return self._expr

    def __str__(self):
        return self._expr

    __repr__ = __str__

    def _binop(self, other, op, combine):
        if not isinstance(other, (int, SymInt)):
            return NotImplemented
        text = f"{self._expr} {op} {other}" if not isinstance(other, SymInt) else f"{self._expr} {op} {other._expr}"
        return SymInt(text, self._env, combine(_bounds(self), _bounds(other)))

    def __add__(self, o):
        return self._binop(o, "+", lambda a, b: (a[0] + b[0], None if a[1] is None or b[1] is None else a[1] + b[1]))

    __radd__ = __add__

    def __mul__(self, o):
        return self._binop(o, "*", lambda a, b: (a[0] * b[0], None if a[1] is None or b[1] is None else a[1] * b[1]))

    __rmul__ = __mul__

    def __sub__(self, o):
        return self._binop(o, "-", lambda a, b: (a[0] - (b[1] if b[1] is not None else a[0]), a[1]))

    def __floordiv__(self, o):
        return self._binop(o, "//", lambda a, b: (0, a[1]))

    def __mod__(self, o):
        return self._binop(o, "%", lambda a, b: (0, b[1]))

    def _compare(self, other, op):
        lo, hi = self._range
        if isinstance(other, SymInt) and other._expr == self._expr:
            return op in ("==", "<=", ">=")
        if isinstance(other, int):
            decided = {
                ">=": (True if lo >= other else False if hi is not None and hi < other else None),
                ">": (True if lo > other else False if hi is not None and hi <= other else None),
                "<": (True if hi is not None and hi < other else False if lo >= other else None),
                "<=": (True if hi is not None and hi <= other else False if lo > other else None),
                "==": (False if lo > other or (hi is not None and hi < other) else None),
                "!=": (True if lo > other or (hi is not None and hi < other) else None),
            }[op]
            if decided is not None:
                return decided
        raise GuardOnDataDependentSymNode(
            f"Could not guard on data-dependent expression {self._expr} {op} {other} "
            f"(value range {list(self._range)}); the branch depends on data a fake tensor does not have"
        )

    def __ge__(self, o):
        return self._compare(o, ">=")

    def __gt__(self, o):
        return self._compare(o, ">")

    def __le__(self, o):
        return self._compare(o, "<=")

    def __lt__(self, o):
        return self._compare(o, "<")

    def __eq__(self, o):
        return self._compare(o, "==")

    def __ne__(self, o):
        return self._compare(o, "!=")

    def __hash__(self):
        return hash(self._expr)

    def __int__(self):
        raise GuardOnDataDependentSymNode(f"Could not extract a concrete value from the symbolic size {self._expr}")

    __index__ = __int__

    def __bool__(self):
        return self._compare(0, "!=")

    def hint(self):
        """A concrete stand-in used to run meta kernels (the lower bound, at least 2)."""
        return max(self._range[0] or 0, 2)
