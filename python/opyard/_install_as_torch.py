"""``opyard.install_as_torch()``: ``import torch`` and ``from torch.X import Y`` reach opyard.

For code that cannot be edited (a library's registration module under test, a
notebook written for torch), as ``pymysql.install_as_MySQLdb()`` does for MySQLdb:
after the call, ``import torch`` gives the ``opyard`` module itself and
``import torch.X.Y`` gives ``opyard.X.Y`` (the same module object, so
``torch.library is opyard.library``). The private spellings extension code
uses resolve to the thin alias modules of their public homes
(``torch._subclasses.fake_tensor``, ``torch._C``, ``torch._custom_ops``,
``torch.fx.experimental.proxy_tensor``, ``torch.utils._python_dispatch``; the
table is ``opyard._compat.ALIASES``).

Opt-in, once per process, and refused when the real torch is imported already
(two ``torch`` modules in one process would mix their tensors). Limits:
``torch.__version__`` is opyard's own version (a gate such as
``torch.__version__ >= "2.4"`` warns and is False: see ``opyard.version``), and a
torch module opyard does not have (``torch._dynamo``, ``torch.testing``)
raises ``ModuleNotFoundError`` naming the opyard module it looked for.

This is the facade layer: it may import any layer, and nothing below it imports it.
"""

import importlib
import importlib.machinery
import sys

__all__ = ["install_as_torch", "TorchAliasFinder"]

_PACKAGE = __name__.rpartition(".")[0]  # "opyard"


def _home(fullname):
    """The opyard module name for a ``torch`` or ``torch.X.Y`` module name."""
    return _PACKAGE + fullname[len("torch"):]


class _AliasLoader:
    """Loads ``torch.X`` as the already importable ``opyard.X``: the module object is shared."""

    def __init__(self, module):
        self.module = module

    def create_module(self, spec):
        return self.module

    def exec_module(self, module):
        # Nothing to run: the module ran when opyard imported it. importlib leaves its
        # ``__name__``, ``__spec__`` and ``__file__`` alone (they are set), so ``opyard.X``
        # keeps its identity under both names.
        pass


class TorchAliasFinder:
    """The meta-path finder that answers every ``torch`` and ``torch.*`` import with opyard's module.

    It answers all of them, those opyard lacks included (with ``ModuleNotFoundError``): left to the
    path finder, ``torch.X`` would be found in ``opyard.__path__`` and imported a second time under
    the name ``torch.X``, a separate copy of opyard's module with its own registrations.
    """

    @classmethod
    def find_spec(cls, fullname, path=None, target=None):
        if fullname != "torch" and not fullname.startswith("torch."):
            return None
        home = _home(fullname)
        module = sys.modules.get(home)
        if module is None:
            try:
                module = importlib.import_module(home)
            except ModuleNotFoundError as e:
                if e.name != home:
                    raise  # opyard's module exists and failed to import something else: say so
                parent, _, child = home.rpartition(".")
                module = getattr(sys.modules.get(parent), child, None)
                if not isinstance(module, type(sys)):
                    raise ModuleNotFoundError(
                        f"No module named {fullname!r}: opyard.install_as_torch() maps torch.* to opyard.*, "
                        f"and opyard has no module {home!r}", name=fullname) from None
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(module), origin=getattr(module, "__file__", None),
                                              is_package=hasattr(module, "__path__"))


def _real_torch():
    module = sys.modules.get("torch")
    if module is None or getattr(module, "__name__", None) == _PACKAGE:
        return None
    return module


def install_as_torch():
    """Make ``import torch`` and ``from torch.X import Y`` resolve to opyard (opt-in, for this process).

    Example::

        >>> import opyard
        >>> opyard.install_as_torch()
        >>> import torch
        >>> from torch.library import custom_op
        >>> from torch._subclasses.fake_tensor import FakeTensorMode
        >>> torch is opyard, custom_op is opyard.library.custom_op
        (True, True)

    Calling it again does nothing. Raises ``RuntimeError`` when the real torch is imported already.
    """
    real = _real_torch()
    if real is not None:
        raise RuntimeError(
            f"opyard.install_as_torch(): the real torch is imported already (from "
            f"{getattr(real, '__file__', None) or repr(real)}), so `import torch` cannot be made to mean opyard in "
            "this process. Call opyard.install_as_torch() before anything imports torch, or run the code "
            "that needs opyard in a separate process.")
    if TorchAliasFinder not in sys.meta_path:
        sys.meta_path.insert(0, TorchAliasFinder)
    # ``torch`` itself now, so that ``sys.modules["torch"]`` is opyard from the call on; its submodules
    # are mapped on their first import (the finder above).
    importlib.import_module("torch")
