"""The switchboard: every late-bound call between the layers, installed once.

Note [The switchboard] (src/python/hooks.rs): the Rust core calls into the
Python layers (it makes ``Tensor``s, runs the ``__torch_function__`` protocol,
hands the rare cases of its fast paths to the Python general paths), and a few
Python layers call what a higher one defines (``_tensor`` calls the factories'
``tensor()``, ``_library`` calls ``amp``'s autocast kernel builder). Each such
call is one field of ``_core.Hooks``; this module, in the facade's layer,
imports what defines them and installs them all with one
``_core._install_hooks(...)`` when ``import opyard`` has loaded the eager
layers. The lower layers read theirs through ``_core._hooks()``, so no layer
installs anything into another, and every edge an import scan cannot see is
listed here and documented in ``hooks.rs``.

``fake``, ``func`` and ``amp`` load on first use (the facade's PEP 562
``__getattr__``), so their hooks are small functions that import the module
when they are called (registering an autocast or vmap rule, gradcheck's
batched check), or answer for it while it is not loaded (no fake tensor and no
batched tensor exists before its module is). The ``__torch_dispatch__`` protocol
(``utils.python_dispatch``) loads the same way: the ``Python`` key's fallback
registered here imports it on the first call that reaches the key, and its
real fallback, registered above this one, serves every later call.

The autograd layer's engine, ``Function`` and view-history modules load on
first need too (Note [Autograd modules on first use], ``autograd/__init__.py``):
their hooks are handed over as resolvers (``_resolver``), which the core calls
the first time it needs the hook and whose answer it keeps (Note [Hooks
resolved on first use], ``hooks.rs``), so every later use costs what an eager
hook does.
"""

import importlib
import sys

import numpy as np

from . import _core, _dtype, _factories, _function_protocol, _keys, _memory_format, _ops, _tensor
from .autograd import _tensor_meta, graph, tensor_methods

_PACKAGE = __name__.rpartition(".")[0]


def _on_first_use(module, name):
    """``module.name``, importing ``module`` (relative to the package) on the first call."""
    def call(*args, **kwargs):
        return getattr(importlib.import_module(module, _PACKAGE), name)(*args, **kwargs)
    call.__name__ = call.__qualname__ = name
    return call


def _resolver(module, name):
    """A hook resolved on first use (Note [Hooks resolved on first use], src/python/hooks.rs): the core
    calls this once, when it first needs the hook, and keeps ``module.name`` (``module`` loads now)."""
    def resolve():
        return getattr(importlib.import_module(module, _PACKAGE), name)
    resolve.__name__ = resolve.__qualname__ = f"resolve_{name.lstrip('_')}"
    return resolve


def _if_loaded(module, name, otherwise):
    """``module.name`` once ``module`` is loaded; until then the call answers ``otherwise``."""
    qualified = _PACKAGE + module

    def call(*args, **kwargs):
        loaded = sys.modules.get(qualified)
        return otherwise if loaded is None else getattr(loaded, name)(*args, **kwargs)
    call.__name__ = call.__qualname__ = name
    return call


def _symint_type():
    loaded = sys.modules.get(_PACKAGE + ".fake.symbolic")
    return None if loaded is None else loaded.SymInt


def _batched_tensor():
    batched = importlib.import_module(".func.batched", _PACKAGE)
    return batched.BatchedTensor, batched.wrap_general


def _symbolic_types():
    symbolic = importlib.import_module(".fake.symbolic", _PACKAGE)
    return symbolic.SymInt, symbolic.DynamicOutputShapeException


def _python_key_fallback(keyset, op, *args, **kwargs):
    """The ``Python`` key's fallback until ``utils.python_dispatch`` (the ``__torch_dispatch__``
    protocol) is loaded: loading it registers the real one above this, which it then runs."""
    dispatch = importlib.import_module(".utils.python_dispatch", _PACKAGE)
    return dispatch._python_key_fallback(keyset, op, *args, **kwargs)


# No operator call with plain tensors reaches the ``Python`` key, so the protocol's module loads on
# first need: a tensor carrying the key (a wrapper subclass, a subclass with its own
# ``__torch_dispatch__``) or a ``TorchDispatchMode`` (defined there). The handle lives as long as
# the module.
_PYTHON_KEY_SITE = "opyard/_hooks.py"
_python_key_library = _core._new_library("_", "IMPL", None, _PYTHON_KEY_SITE)
_core._fallback(_python_key_library, "Python", _python_key_fallback, with_keyset=True, fallthrough=False,
                provenance=_PYTHON_KEY_SITE)


_core._install_hooks(
    # the tensor layer
    tensor=_tensor.Tensor,
    size=_tensor.Size,
    ndarray=np.ndarray,
    dtype_of_numpy=_dtype.FROM_NP,
    dtype=_dtype.dtype,
    dtype_from_code=_dtype.FROM_CODE.__getitem__,
    default_dtype=_dtype._Default,
    layout=_tensor.layout,
    layouts=_tensor.LAYOUTS,
    memory_format=_memory_format.memory_format,
    memory_formats=_memory_format.MEMORY_FORMATS,
    float32=_dtype.float32,
    float64=_dtype.float64,
    tensor_from_data=_factories.tensor,
    tensor_subclass=_resolver(".overrides", "_install_routing"),
    lift_fresh=_on_first_use(".fake.mode", "_lift_fresh"),
    # the dispatcher
    dispatch_key=_keys.DispatchKey,
    packet_of=_ops._canonical_packet,
    function_protocol=_resolver(".overrides", "_dispatch_protocol"),
    protocol_of=_function_protocol.protocol_impl,
    symint_type=_symint_type,
    batched_tensor=_batched_tensor,
    number_operands=_on_first_use("._aten.number_operands", "retry"),
    # autograd
    set_requires_grad=tensor_methods._set_requires_grad,
    check_grad=tensor_methods._check_assigned_grad,
    accumulate_grad_node=graph.AccumulateGrad,
    saved_tensor=graph.SavedTensor,
    add=_tensor_meta.add,
    add_=_ops.ops.aten.add_,  # the packets: their overloads are looked up (defined) on first use
    ones_like=_ops.ops.aten.ones_like,
    validate_grad=_resolver(".autograd.engine", "_validate"),
    call_pre_hooks=_resolver(".autograd.engine", "_call_pre_hooks"),
    call_tensor_pre_hooks=_resolver(".autograd.engine", "_call_tensor_pre_hooks"),
    call_post_hooks=_resolver(".autograd.engine", "_call_post_hooks"),
    accumulate_grad=_tensor_meta.accumulate_grad,
    backward=tensor_methods.backward,
    apply_general=_resolver(".autograd.function", "_apply_general"),
    record_outputs=_resolver(".autograd.function", "_record_outputs"),
    check_dirty=_resolver(".autograd.function", "_check_dirty"),
    alias=_tensor_meta.alias,
    zeros=_tensor_meta.zeros,
    freed_message=graph.FREED_MESSAGE,
    rebase_view_history=_resolver(".autograd.views", "rebase_view_history"),
    regenerate_view_history=_resolver(".autograd.views", "regenerate_view_history"),
    # no custom op exists before ``custom_op`` (which imports ``register``) is loaded
    is_custom_op=_if_loaded("._library.register", "_is_custom_op", False),
    batched_tangent=_if_loaded(".func.forward", "_batched_tangent", NotImplemented),
    set_batched_tangent=_if_loaded(".func.forward", "_set_batched_tangent", NotImplemented),
    batched_grad_check=_on_first_use(".func.batched_grad_check", "check_batched_grad"),
    transform_apply=_on_first_use(".func.function", "function_apply"),
    legacy_vmap=_on_first_use(".func.vmap", "legacy_vmap"),
    batched_autograd_grad=_on_first_use(".func.transforms", "batched_autograd_grad"),
    # torch.library
    autocast_kernel=_on_first_use(".amp.kernels", "custom_op_kernel"),
    vmap_kernel=_on_first_use(".func.custom", "make_vmap_kernel"),
    fake_impls_changed=_if_loaded(".fake.mode", "_forget_cached", None),
    symbolic_types=_symbolic_types,
    facade=sys.modules[_PACKAGE],
)
