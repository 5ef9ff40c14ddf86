"""``SymInt`` and ``SymBool``: symbolic sizes (of inputs, and data-dependent ones) and conditions on them.

Note [Unbacked hints]: an unbacked symbol (``u0``) has no value, but the Meta
kernels that compute fake results need concrete sizes. Each symbol therefore
carries a *hint*: a stand-in value distinct from the sizes programs use
(``1031 + 7 * k`` when unbounded, clamped into ``[min, max]``). Fake tensors keep
their data at the hint size (zero-stride, so no memory) and their symbolic
shape beside it; after a Meta kernel runs, every output size equal to a hint of
a symbol in the inputs is read back as that symbol. Hints never decide a guard:
comparisons use the value ranges only, as torch does for unbacked symbols.

Note [Backed symbols]: a *backed* symbol (``s75``) stands for a size the traced
program was given (``make_fx(..., tracing_mode="symbolic")`` makes one per input
dimension). Its hint is that real value: a comparison its value range cannot
decide is decided by the hint, and the answer is recorded as a guard in the
ShapeEnv (``env.guards``), as torch's ``ShapeEnv.evaluate_expr`` does; the
graph is then valid for every input that satisfies the guards.
"""

import operator
from typing import NamedTuple

from .ranges import DECIDE, add_range, floordiv_range, mod_range, mul_range, sub_range

__all__ = ["SymInt", "SymBool", "ShapeEnv", "ShapeGuard", "GuardOnDataDependentSymNode",
           "DynamicOutputShapeException"]


class GuardOnDataDependentSymNode(RuntimeError):
    """A branch on a symbolic size that its value range cannot decide."""


class DynamicOutputShapeException(RuntimeError):
    """An op's output shape depends on data and no ShapeEnv allows that."""


def _range(x):
    return x._range if isinstance(x, SymInt) else (x, x)


def _hint(x):
    return x._hint if isinstance(x, SymInt) else x


def _backed(x):
    return x._backed if isinstance(x, SymInt) else True


def _text(x, parent_prec):
    if isinstance(x, SymInt):
        return f"({x._expr})" if x._prec < parent_prec else x._expr
    return str(x)


_OPERATORS = {"+": operator.add, "-": operator.sub, "*": operator.mul, "//": operator.floordiv,
              "%": operator.mod}



class SymInt:
    """A symbolic integer: a name (``s75``, ``u0``) or an expression of names, with a value range.

    Arithmetic (``+ - * // %``) builds expressions; comparisons are answered from
    the value ranges when they can be; otherwise they give a ``SymBool``, which
    a backed expression decides by its hint, recording a guard (Note [Backed
    symbols]), and an unbacked one refuses to decide
    (``GuardOnDataDependentSymNode``), as torch does.
    """

    __slots__ = ("_expr", "_range", "_hint", "_env", "_prec", "_parts", "_backed")

    def __init__(self, expr, value_range=(0, None), hint=2, env=None, prec=3, parts=None, backed=False):
        self._expr, self._range, self._hint, self._env, self._prec = expr, value_range, hint, env, prec
        self._parts = parts  # (operator function, *operands) of a compound expression; None for a symbol
        self._backed = backed  # every symbol in it is backed: the hint is the real value

    @property
    def node(self):
        return self._expr

    def __str__(self):
        return self._expr

    def __repr__(self):
        return self._expr

    def __format__(self, spec):
        return format(self._expr, spec)

    def hint(self):
        """The stand-in value fake tensors are shaped with (See Note [Unbacked hints])."""
        return self._hint

    def value_range(self):
        """``(min, max)``; ``None`` for an unknown bound."""
        return self._range

    # --- arithmetic -----------------------------------------------------
    def _bin(self, other, op, prec, combine, compute, reflected=False):
        if isinstance(other, bool) or not isinstance(other, (int, SymInt)):
            return NotImplemented
        a, b = (other, self) if reflected else (self, other)
        expr = f"{_text(a, prec)} {op} {_text(b, prec + 1)}"
        return SymInt(expr, combine(_range(a), _range(b)), compute(_hint(a), _hint(b)), self._env, prec,
                      (_OPERATORS[op], a, b), _backed(a) and _backed(b))

    def __add__(self, o):
        if not isinstance(o, SymInt) and o == 0:
            return self
        return self._bin(o, "+", 1, add_range, lambda a, b: a + b)

    def __radd__(self, o):
        if not isinstance(o, SymInt) and o == 0:
            return self
        return self._bin(o, "+", 1, add_range, lambda a, b: a + b, True)

    def __sub__(self, o):
        if not isinstance(o, SymInt) and o == 0:
            return self
        return self._bin(o, "-", 1, sub_range, lambda a, b: a - b)

    def __rsub__(self, o):
        return self._bin(o, "-", 1, sub_range, lambda a, b: a - b, True)

    def __mul__(self, o):
        if not isinstance(o, SymInt) and o == 1:
            return self
        return self._bin(o, "*", 2, mul_range, lambda a, b: a * b)

    def __rmul__(self, o):
        if not isinstance(o, SymInt) and o == 1:
            return self
        return self._bin(o, "*", 2, mul_range, lambda a, b: a * b, True)

    def __floordiv__(self, o):
        if not isinstance(o, SymInt) and o == 1:
            return self
        return self._bin(o, "//", 2, floordiv_range, lambda a, b: a // b)

    def __rfloordiv__(self, o):
        return self._bin(o, "//", 2, floordiv_range, lambda a, b: a // b, True)

    def __mod__(self, o):
        return self._bin(o, "%", 2, mod_range, lambda a, b: a % b)

    def __rmod__(self, o):
        return self._bin(o, "%", 2, mod_range, lambda a, b: a % b, True)

    def __neg__(self):
        lo, hi = self._range
        return SymInt(f"-{_text(self, 3)}", (None if hi is None else -hi, None if lo is None else -lo),
                      -self._hint, self._env, 3, (operator.neg, self), self._backed)

    # --- comparisons: decided by ranges or refused ------------------------
    def _compare(self, other, op):
        if isinstance(other, bool) or not isinstance(other, (int, SymInt)):
            return NotImplemented
        if isinstance(other, SymInt) and other._expr == self._expr:
            return op in ("==", "<=", ">=")
        a, b = _range(self), _range(other)
        lt = DECIDE["<"]
        decided = {
            "<": lt(a, b), ">": lt(b, a),
            "<=": None if lt(b, a) is None else not lt(b, a),
            ">=": None if lt(a, b) is None else not lt(a, b),
        }.get(op)
        if op in ("==", "!="):
            differ = lt(a, b) or lt(b, a)
            decided = (not differ if op == "==" else differ) if differ else None
            if decided is None and a[0] == a[1] == b[0] == b[1] and a[0] is not None:
                decided = op == "=="
        if decided is None:
            # See Note [Undecided comparisons]
            return SymBool(self, op, other)
        return decided

    def __lt__(self, o):
        return self._compare(o, "<")

    def __le__(self, o):
        return self._compare(o, "<=")

    def __gt__(self, o):
        return self._compare(o, ">")

    def __ge__(self, o):
        return self._compare(o, ">=")

    def __eq__(self, o):
        return self._compare(o, "==")

    def __ne__(self, o):
        return self._compare(o, "!=")

    def __hash__(self):
        return hash(self._expr)

    def __bool__(self):
        return bool(self._compare(0, "!="))

    def __int__(self):
        if self._backed:
            # torch's guard_int: the graph specializes to this value (a guard records it).
            _record_guard(self, "==", self._hint, True)
            _narrow(self, self._hint, self._hint)
            return self._hint
        raise GuardOnDataDependentSymNode(
            f"Could not extract specialized integer from data-dependent expression {self._expr}: its "
            "value is only known when the program runs on real tensors")

    __index__ = __int__


# Note [Undecided comparisons]: a comparison the value ranges cannot decide
# yields a SymBool instead of raising, as in torch, so that ``opyard._check``
# can accept it as a runtime assertion (and narrow the symbol's range). Using
# it as a Python bool (``if``, ``and``, ``assert``) still raises
# GuardOnDataDependentSymNode with the ranges in the message.


class SymBool:
    """A symbolic boolean: ``lhs op rhs`` over symbolic sizes, undecided by their value ranges."""

    __slots__ = ("_op", "_lhs", "_rhs", "_negated")

    def __init__(self, lhs, op, rhs, negated=False):
        self._lhs, self._op, self._rhs, self._negated = lhs, op, rhs, negated

    @property
    def node(self):
        return str(self)

    def __str__(self):
        text = guard_text(self._lhs, self._op, self._rhs)  # torch's printing: Eq(u0, 3), u0 > 3
        return f"Not({text})" if self._negated else text

    __repr__ = __str__

    def __hash__(self):
        return hash(str(self))

    def __sym_not__(self):
        return SymBool(self._lhs, self._op, self._rhs, not self._negated)

    def shape_env(self):
        """The ShapeEnv of the symbols compared (None for a hand-made SymInt)."""
        for side in (self._lhs, self._rhs):
            if isinstance(side, SymInt) and side._env is not None:
                return side._env
        return None

    def backed(self):
        """Both sides are backed: the hints decide this condition (See Note [Backed symbols])."""
        return _backed(self._lhs) and _backed(self._rhs)

    def __bool__(self):
        if self.backed():
            raw = _COMPARE[self._op](_hint(self._lhs), _hint(self._rhs))
            _record_guard(self._lhs, self._op, self._rhs, raw)
            SymBool(self._lhs, self._op if raw else _NEGATE[self._op], self._rhs).refine()
            return raw != self._negated
        lo, hi = _range(self._lhs)
        raise GuardOnDataDependentSymNode(
            f"Could not guard on data-dependent expression {self} "
            f"(value range of {_text(self._lhs, 0)}: [{lo}, {'inf' if hi is None else hi}]). "
            "The branch depends on data that a fake tensor does not have; if the size is known to "
            "be in a range, give new_dynamic_size(min=..., max=...) that range, or state it with "
            "opyard._check(...) before branching.")

    def refine(self):
        """Narrow the range of a bare symbol compared with a constant, as if this held."""
        sym, op, bound = self._lhs, self._op, self._rhs
        if self._negated or not isinstance(sym, SymInt) or sym._parts is not None \
                or isinstance(bound, SymInt):
            return
        lo, hi = sym._range
        if op in (">=", ">"):
            lo = max(lo if lo is not None else bound, bound + (op == ">"))
        elif op in ("<=", "<"):
            hi = min(hi if hi is not None else bound, bound - (op == "<"))
        elif op == "==":
            lo = hi = bound
        else:
            return
        _narrow(sym, lo, hi)


def _narrow(sym, lo, hi):
    """Narrow a bare symbol's range (a compound expression keeps its own)."""
    if sym._parts is not None:
        return
    sym._range = (lo, hi)
    if sym._env is not None:
        sym._env.var_to_range[sym._expr] = (lo, hi)


_COMPARE = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq,
            "!=": operator.ne}
_NEGATE = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def guard_text(lhs, op, rhs):
    """A condition as torch prints its guards: ``Eq(s0, 3)``, ``Ne(s0, s1)``, ``s0 > 2``."""
    a, b = _text(lhs, 0), _text(rhs, 0)
    if op == "==":
        return f"Eq({a}, {b})"
    if op == "!=":
        return f"Ne({a}, {b})"
    return f"{a} {op} {b}"


def _record_guard(lhs, op, rhs, held):
    """Record in the ShapeEnv that ``lhs op rhs`` held (or its negation did)."""
    env = next((x._env for x in (lhs, rhs) if isinstance(x, SymInt) and x._env is not None), None)
    if env is not None:
        env.record_guard(guard_text(lhs, op if held else _NEGATE[op], rhs))


class ShapeGuard(NamedTuple):
    """A condition the trace relied on: ``expr`` is torch's printing (``Eq(s75, 3)``, ``s75 > 2``)."""

    expr: str


class ShapeEnv:
    """Owns the symbols of a trace, their value ranges, and the guards the trace relied on.

    Two kinds of symbols, as in torch: *backed* ``s<k>`` (``create_symbol``), the
    size of an input, its real value as hint (See Note [Backed symbols]); sizes 0
    and 1 are not made symbols (torch's zero/one specialization) and equal sizes
    share one symbol (duck sizing). *Unbacked* ``u<k>`` (``create_unbacked_symint``):
    a data-dependent size (See Note [Unbacked hints]).

    Example::

        >>> env = ShapeEnv()
        >>> s = env.create_symbol(3, "input0.size()[0]")
        >>> s, env.create_symbol(3, "input1.size()[0]"), env.create_symbol(1, "input1.size()[1]")
        (s75, s75, 1)
        >>> bool(s > 2), [g.expr for g in env.guards]
        (True, ['s75 > 2'])
    """

    def __init__(self, *, allow_dynamic_output_shape_ops=True, allow_scalar_outputs=True,
                 specialize_zero_one=True, duck_shape=True):
        self.allow_dynamic_output_shape_ops = allow_dynamic_output_shape_ops
        self.allow_scalar_outputs = allow_scalar_outputs
        self.specialize_zero_one = specialize_zero_one
        self.duck_shape = duck_shape
        self._counter = 0  # the next symbol's number (an int, not itertools.count: environments pickle)
        self.var_to_range = {}
        self.var_to_val = {}  # backed symbol name -> the value it was created from
        self.backed_var_to_val = self.var_to_val  # torch 2.15's name for it
        self.val_to_var = {}  # value -> its backed symbol (duck sizing)
        self.var_to_sources = {}  # backed symbol name -> the sources ("input0.size()[0]") it stands for
        self.source_to_var = {}
        self.unique_ids = set()
        self.guards = []  # ShapeGuards, in the order the trace relied on them
        self.runtime_asserts = []  # SymBools that opyard._check accepted without deciding them

    def __repr__(self):
        return f"ShapeEnv(symbols={list(self.var_to_range)})"

    def create_symbol(self, val, source, *, positive=True):
        """The symbol for an input's size ``val`` found at ``source`` (a name such as ``input0.size()[1]``).

        0 and 1 come back as ints, an already-seen value as its symbol (duck sizing),
        as torch's ``create_symbol`` does. ``positive=None`` (an int input) makes
        the range unbounded instead of ``[2, inf]``.
        """
        if isinstance(val, bool) or not isinstance(val, int):
            raise TypeError(f"ShapeEnv.create_symbol: expected an int value, got {type(val).__name__} "
                            f"{str(val)[:100]!r}")
        if positive and val < 0:
            raise ValueError(f"ShapeEnv.create_symbol: positive set for negative value: {val}")
        source = str(source)
        hit = self.source_to_var.get(source)
        if hit is not None:
            return hit
        if val in (0, 1) and self.specialize_zero_one:
            return val
        sym = self.val_to_var.get(val) if self.duck_shape else None
        if sym is None:
            name = f"s{self._unique_id(source)}"
            if positive:
                lo = 2 if self.specialize_zero_one else 0
                value_range = (lo, None)
            else:
                value_range = (None, None)
            self.var_to_range[name] = value_range
            self.var_to_val[name] = val
            self.var_to_sources[name] = []
            sym = SymInt(name, value_range, val, self, backed=True)
            if self.duck_shape:
                self.val_to_var[val] = sym
        self.var_to_sources[sym._expr].append(source)
        self.source_to_var[source] = sym
        return sym

    def create_derived_symbol(self, val, source):
        """A backed symbol for a size computed from other symbols in a way no expression here
        states (See Note [Perturbed run]); ``val`` is its value in this trace."""
        name = f"s{self._unique_id(source)}"
        self.var_to_range[name] = (0, None)
        self.var_to_val[name] = val
        self.var_to_sources[name] = [source]
        return SymInt(name, (0, None), val, self, backed=True)

    def _unique_id(self, source):
        # torch 2.15 names a symbol after a hash of its first source, so names are stable
        # across runs and independent of creation order; collisions probe upwards.
        import hashlib  # here, not at import: hashlib costs ``import opyard`` more than all its calls

        attempt = int(hashlib.sha256(source.encode()).hexdigest(), 16) % 100
        while attempt in self.unique_ids:
            attempt += 1
        self.unique_ids.add(attempt)
        return attempt

    def create_symintnode(self, sym, *, hint=None, source=None):
        """torch's wrapper step: our symbols are already SymInts (ints stay ints)."""
        return sym

    def create_unbacked_symint(self, *, min=0, max=None, source=None):
        """A fresh symbol ``u<k>`` whose value lies in ``[min, max]`` (``max=None``: unbounded)."""
        k = self._counter
        self._counter += 1
        name = f"u{k}"
        self.var_to_range[name] = (min, max)
        hint = 1031 + 7 * k  # See Note [Unbacked hints]
        if hint < min:
            hint = min
        if max is not None and hint > max:
            hint = max
        return SymInt(name, (min, max), hint, self)

    def record_guard(self, expr):
        """Record that the trace relied on ``expr`` (torch's ``ShapeEnv.guards``); duplicates once."""
        if all(g.expr != expr for g in self.guards):
            self.guards.append(ShapeGuard(expr))

    def format_guards(self):
        """The guards, one ``- expr`` line each (as torch's ``format_guards``, without source lines)."""
        return "\n".join(f" - {g.expr}" for g in self.guards)


from .._exports import public_dir

__dir__ = public_dir(globals())
