"""``library.register_torch_dispatch``'s table: what runs for (operator, mode or subclass type).

A rule takes the place of the class's ``__torch_dispatch__`` for one operator, for exactly that
class (not its subclasses), as torch's ``GenericTorchDispatchRuleHolder``. The ``Python`` key's
fallback (``opyard.utils.python_dispatch``) reads the table; registration (``opyard.library``,
``CustomOpDef.register_torch_dispatch``) writes it.
"""

__all__ = ["RULES", "register_rule"]

#: ``(OpOverload, class) -> fn``: ``fn(mode_or_class, func, types, args, kwargs)``.
RULES = {}


def register_rule(op, torch_dispatch_class, fn):
    """Add a rule; returns the callable that removes it (for a library's teardown)."""
    if not isinstance(torch_dispatch_class, type):
        raise TypeError("register_torch_dispatch: torch_dispatch_class must be a Tensor subclass with "
                        f"__torch_dispatch__ or a TorchDispatchMode class, got {torch_dispatch_class!r}")
    if not callable(fn):
        raise TypeError(f"register_torch_dispatch: expected a callable rule, got {fn!r}")
    key = (op, torch_dispatch_class)
    if key in RULES:
        raise RuntimeError(f"{torch_dispatch_class} already has a `__torch_dispatch__` rule registered for "
                           f"{op.name()}")
    RULES[key] = fn

    def undo():
        if RULES.get(key) is fn:
            del RULES[key]
    return undo
