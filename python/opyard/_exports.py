"""``dir()`` of a public module: its own names, not the standard-library helpers it imports.

A public module imports ``warnings``, ``functools``, ``np``, ``dataclass``... for
its own use; those are not its API. Each public module ends with
``__dir__ = public_dir(globals())`` (PEP 562), so ``dir(opyard.library)`` and tab
completion list what opyard defines or re-exports, while the module's code
keeps the plain spellings (``warnings.warn``).
"""

import types as _types
import typing as _typing

if _typing.TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["public_dir", "is_foreign"]


def is_foreign(name, value, exported=()):
    """Whether ``value`` (bound to ``name``) is an import from outside opyard that ``__all__`` does not name.

    Foreign: a module outside opyard (``np``, ``warnings``), or a class or function defined outside
    opyard (``dataclass``, ``OrderedDict``). Data (numbers, tables) and opyard's own objects are not.
    """
    if name in exported:
        return False
    if isinstance(value, _types.ModuleType):
        return not value.__name__.startswith("opyard")
    if isinstance(value, type) or callable(value):
        module = getattr(value, "__module__", None)
        return isinstance(module, str) and not module.startswith("opyard")
    return False


def public_dir(namespace: "dict[str, object]") -> "Callable[[], list[str]]":
    """A module-level ``__dir__`` over ``namespace`` (the module's ``globals()``) without foreign imports."""
    def __dir__() -> "list[str]":
        exported = namespace.get("__all__", ())
        return sorted(k for k, v in list(namespace.items()) if not is_foreign(k, v, exported))
    return __dir__
