"""opyard: PyTorch's operator-extension model on numpy, with a Rust core.

Function schemas, the dispatcher (keys, key sets, cached tables), the
``torch.library`` API, fake tensors and the autograd ``Function`` API, as a
standalone package::

    import opyard
    lib = opyard.library.Library("mylib", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x + x, "CPU")
    opyard.ops.mylib.twice(opyard.ones(3))

This module is the facade: it imports the layers bottom-up (README, "Layout")
and names what they export. Importing a layer registers its kernels, so the
order below is the order of registration.

``import opyard`` loads only what an operator call can reach; everything else
loads on first attribute access (PEP 562 ``__getattr__`` below). To add a
public name that loads on first use, add one line to ``_LAZY``:
``"name": (".module", "attribute")`` (or ``(".module", None)`` for the module
itself), and list it in ``__all__`` (and in the ``TYPE_CHECKING`` block for
type checkers); ``dir(opyard)``, ``hasattr`` and ``from opyard import name``
then see it, and ``tests/package/test_lazy_import.py`` can name its module
among those that stay unloaded at import.
"""

import builtins as _builtins
import importlib as _importlib
import typing as _typing

# _core: schemas and the dispatcher's registry, in Rust.
from . import _core
from ._core import AliasInfo, Argument, FunctionSchema, SchemaError, parse_schema
# The intra-op thread pool of the large kernels (torch's functions of the same names).
from ._core import get_num_threads, set_num_threads

# tensor: dtypes, Tensor, devices.
from . import _dtype
from ._dtype import (
    bfloat16, bool, cdouble, cfloat, complex64, complex128, double, dtype, finfo, float, float8_e4m3fn,
    float8_e4m3fnuz, float8_e5m2, float8_e5m2fnuz, float16, float32, float64, get_default_dtype, half,
    iinfo, int, int8, int16, int32, int64, long, set_default_dtype, short, uint8, uint16, uint32, uint64,
)
from ._tensor import (Size, Tensor, _mkldnn, contiguous_format, device, jagged, layout, memory_format,
                      preserve_format, sparse_bsc, sparse_bsr, sparse_coo, sparse_csc, sparse_csr, strided)

# built-in ops: the dispatcher's Python side, default fallthroughs, the aten library, factories.
from ._ops import ops
from . import dispatcher
from . import _fallbacks  # noqa: F401  (registers the default fallthroughs)
from . import _aten  # noqa: F401  (defines and registers the built-in operators)
from ._aten import return_types
from . import _pickle, _reducers  # noqa: F401  (pickling and copying: tensors, core types)
from ._factories import *
from ._factories import __all__ as _factory_names
from ._functional import *
from ._functional import __all__ as _functional_names
# torch's small functions and constants that are no operators (or whose signature is not their
# operator's: ``chain_matmul(*matrices)``, the deprecated ``range``), and its non-operator Tensor methods.
from ._surface import *
from ._surface import __all__ as _surface_names
from . import _tensor_methods  # noqa: F401  (binds new_tensor, new, dim_order, ... onto Tensor)

# autograd: derivative kernels, the autograd fallback, grad modes.
from . import autograd
from .autograd import enable_grad, inference_mode, is_grad_enabled, no_grad, set_grad_enabled

# What plain calls reach loads now. What a user enters explicitly (fake tensors, tracing, vmap/grad,
# autocast), the ``__torch_function__`` protocol (``overrides``: its hooks load it with the first
# Tensor subclass or override found, Note [The switchboard]), ``utils`` and the modules built on
# everything load on first attribute access (PEP 562), so ``import opyard`` pays only for what an op
# call can need. A fake tensor exists only once ``opyard.fake`` is loaded, so its Fake-key fallback is
# not needed before.
# ``Tensor._make_wrapper_subclass`` / ``_make_subclass``; the ``__torch_dispatch__`` protocol itself
# (``utils.python_dispatch``) loads on first need (Note [The switchboard], ``_hooks.py``).
from . import _wrapper_subclass  # noqa: F401

from ._ops import Tag

# Every late-bound call between the layers, installed once now that the eager layers are loaded
# (Note [The switchboard], src/python/hooks.rs).
from . import _hooks  # noqa: F401

# ``{attribute: (module, name in it or None for the module itself)}``, loaded by ``__getattr__``.
_LAZY = {
    "amp": (".amp", None), "autocast": (".amp", "autocast"),
    **{name: (".amp.autocast_mode", name) for name in (
        "get_autocast_dtype", "set_autocast_dtype", "is_autocast_enabled", "set_autocast_enabled",
        "is_autocast_cache_enabled", "set_autocast_cache_enabled", "clear_autocast_cache",
        "autocast_increment_nesting", "autocast_decrement_nesting", "is_autocast_cpu_enabled",
        "set_autocast_cpu_enabled", "get_autocast_cpu_dtype", "set_autocast_cpu_dtype", "get_autocast_gpu_dtype",
        "set_autocast_gpu_dtype")},
    "func": (".func", None), "vmap": (".func", "vmap"), "fx": (".fx", None), "fake": (".fake", None),
    "nn": (".nn", None), "optim": (".optim", None), "linalg": (".linalg", None), "fft": (".fft", None),
    "special": (".special", None), "signal": (".signal", None), "masked": (".masked", None),
    "types": (".types", None), "library": (".library", None), "viz": (".viz", None),
    "overrides": (".overrides", None), "utils": (".utils", None), "cuda": (".cuda", None),
    "install_as_torch": ("._install_as_torch", "install_as_torch"),
    "version": (".version", None), "__version__": (".version", "__version__"),
    "_C": ("._C", None), "_custom_ops": ("._custom_ops", None), "_prims_common": ("._prims_common", None),
    "_python_dispatcher": ("._python_dispatcher", None), "_subclasses": ("._subclasses", None),
    "_decomp": ("._decomp", None), "_inductor": ("._inductor", None), "_custom_op": ("._custom_op", None),
    # random number generators (torch's ``torch.Generator``, ``torch.random`` and its functions)
    "Generator": ("._aten.generators", "Generator"), "default_generator": ("._aten.generators", "default_generator"),
    "random": (".random", None),
    **{name: (".random", name) for name in ("seed", "initial_seed", "get_rng_state", "set_rng_state")},
    "is_inference_mode_enabled": (".autograd.grad_mode", "is_inference_mode_enabled"),
    # torch's randomized low-rank factorizations (``torch.svd_lowrank``), Python over the operators
    "svd_lowrank": ("._lowrank", "svd_lowrank"), "pca_lowrank": ("._lowrank", "pca_lowrank"),
}
# torch's private names from the alias table's ``opyard`` row (``opyard._check``, ``opyard.SymInt``):
# most live in ``opyard.fake``, which loads when one of them is first read, as does the table
# (``opyard._compat``, whose FACADE_NAMES these are; tests/compat/test_private_aliases.py checks it).
_LAZY.update(dict.fromkeys((
    "_check", "_check_with", "_check_is_size", "_check_index", "_check_value", "_check_type",
    "_check_not_implemented", "_check_tensor_all", "SymInt", "SymFloat", "SymBool", "sym_int", "sym_float",
    "sym_max", "sym_min", "sym_not", "Tag"), ("._compat", "opyard")))

# Submodules that load with a lazy module, so that they are its attributes as in torch
# (``opyard.fx.experimental.proxy_tensor``); they sit in the facade's layer, above the module.
_LAZY_WITH = {".fx": (".fx.experimental",)}


# What ``__getattr__`` loads, spelled out for type checkers (``typing`` is loaded already by numpy, and
# the block never runs).
if _typing.TYPE_CHECKING:
    from . import (amp, cuda, fake, fft, func, fx, library, linalg, masked, nn, optim, overrides, signal, special,
                   utils, version, viz)
    from ._install_as_torch import install_as_torch
    from ._lowrank import pca_lowrank, svd_lowrank
    from .amp import autocast
    from .func import vmap
    from .version import __version__


def __getattr__(name):
    try:
        module, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module 'opyard' has no attribute '{name}'") from None
    value = _importlib.import_module(module, __name__)
    for submodule in _LAZY_WITH.get(module, ()):
        _importlib.import_module(submodule, __name__)
    if module == "._compat":
        value = value.names_of(attr)[name]
    elif attr is not None:
        value = getattr(value, attr)
    globals()[name] = value  # later lookups are plain module attributes, never this function
    return value


def __dir__():
    return sorted({*globals(), *_LAZY})


__all__ = [
    "__version__", "version",
    "AliasInfo", "Argument", "FunctionSchema", "SchemaError", "device", "parse_schema",
    "get_num_threads", "set_num_threads",
    "Tensor", "Size", "dtype", "get_default_dtype", "set_default_dtype", "memory_format",
    "contiguous_format", "preserve_format", "layout", "strided", "sparse_coo", "sparse_csr", "sparse_csc",
    "sparse_bsr", "sparse_bsc", "jagged", "cuda",
    "ops", "dispatcher", "return_types", "linalg", "fft", "special", "signal", "masked",
    "autograd", "enable_grad", "inference_mode", "is_grad_enabled", "no_grad", "set_grad_enabled",
    "library",
    "amp", "autocast", "fake", "func", "fx", "overrides", "utils", "vmap",
    "nn", "optim", "viz", "install_as_torch",
    "Generator", "default_generator", "random", "seed", "initial_seed", "get_rng_state", "set_rng_state",
    "is_inference_mode_enabled", "svd_lowrank", "pca_lowrank",
    "Tag", "SymInt", "SymFloat", "SymBool", "sym_int", "sym_float", "sym_max", "sym_min", "sym_not",
]
# dtypes named like builtins (bool, int, float) stay attributes only, so that
# ``from opyard import *`` does not shadow the builtins.
__all__ += [n for n in _dtype.__all__
            if n not in __all__ and n not in ("promote_types", "result_type", "bool", "int", "float")]
_listed = frozenset(__all__)  # a set: ~550 names are tested against it
__all__ += [n for n in dict.fromkeys((*_factory_names, *_functional_names, *_surface_names))
            if n not in _listed and n not in _builtins.__dict__]
del _listed
