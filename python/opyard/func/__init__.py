"""``opyard.func``: function transforms. ``vmap`` runs a function once on batched tensors; ``grad``,
``vjp``, ``jvp``, ``jacrev``, ``jacfwd``, ``hessian`` differentiate, composing with ``vmap`` both ways.

Example::

    >>> x = opyard.randn(64, 16)
    >>> opyard.func.vmap(lambda row: row.sin() * 2)(x).shape
    opyard.Size([64, 16])

Operators meet batched tensors at the ``Batched`` key, where the built-in ops
have batching rules (``opyard.func.rules``) and custom ops their
``register_vmap`` rule; anything else runs per example (torch's slow fallback).
"""

from . import batched_grad_check, function, inplace, rules  # noqa: F401  (install the Batched kernels, the
# gradcheck hook, Function's rules under transforms and the captured-tensor check)
from .batch_norm_replacement import replace_all_batch_norm_modules_
from .batched import BatchedTensor, debug_unwrap
from .custom import VmapInfo
from .einops import rearrange
from .functionalize import functionalize
from .functional_call import functional_call, stack_module_state
from .forward import hessian, jacfwd, jvp, linearize
from .transforms import grad, grad_and_value, jacrev, vjp
from .vmap import vmap

__all__ = ["BatchedTensor", "VmapInfo", "debug_unwrap", "functional_call", "functionalize", "grad",
           "grad_and_value", "hessian", "jacfwd", "jacrev", "jvp", "linearize", "rearrange",
           "replace_all_batch_norm_modules_", "stack_module_state", "vjp", "vmap"]
