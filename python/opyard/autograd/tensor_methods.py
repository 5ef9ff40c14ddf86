"""Autograd methods of ``opyard.Tensor``, bound onto the class by :func:`install`.

``backward``, ``register_hook``, ``register_post_accumulate_grad_hook``,
``retain_grad``/``retains_grad``, ``grad_fn``, ``is_leaf``,
``requires_grad`` (property and setter), ``requires_grad_``, ``output_nr``
and ``_fw_grad`` live here so the Tensor class does not depend on the
autograd package. See Note [Tensor autograd fields] in ``_tensor_meta.py``.
"""

import weakref

from .. import _core
from . import _tensor_meta as meta
from . import transform_levels as _transforms
from .graph import _add_hook

__all__ = ["IN_TRANSFORM", "install"]


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulate the gradient of this tensor w.r.t. the graph leaves into their ``.grad``.

    ``Tensor.backward`` is the Rust method ``_core._backward_method`` makes: it does
    ``loss.backward()`` of a plain one-element floating tensor itself and calls this
    function for every other call (See Note [Backward entry in Rust] in
    ``src/python/autograd/backward_entry.rs``).

    Example::

        >>> x = opyard.ones(2, requires_grad=True)
        >>> (x * 3).sum().backward()
        >>> x.grad
        tensor([3., 3.])
    """
    from . import engine  # loads on the first backward (Note [Hooks resolved on first use], hooks.rs)

    if gradient is None and inputs is None and not create_graph:
        engine.backward_scalar(self, retain_graph)
    else:
        engine.backward(self, gradient, retain_graph, create_graph, inputs=inputs)


def register_hook(self, hook):
    """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
    if not meta.requires_grad(self):
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    fn = self.grad_fn  # a stale view's new history gets the hook (Note [View history])
    if fn is None:
        return _add_hook(self, "_backward_hooks", hook)
    return fn._register_tensor_hook(self._output_nr, hook)


def register_post_accumulate_grad_hook(self, hook):
    """Call ``hook(tensor)`` after the gradient was accumulated into this leaf's ``.grad``."""
    if not meta.requires_grad(self):
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self._grad_fn is not None:
        raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
    return _add_hook(self, "_post_accumulate_hooks", hook)


def retain_grad(self):
    """Populate ``.grad`` of this non-leaf tensor during backward (a no-op on leaves)."""
    if not meta.requires_grad(self):
        raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
    if _transforms.active():
        raise RuntimeError("You are attempting to call Tensor.retain_grad() inside of a function being transformed "
                           "by a functorch transform. This is unsupported, please attempt to use the functorch "
                           "transforms (e.g. grad, vjp, jacrev, jacfwd, hessian) or call retain_grad() outside of a "
                           "function being transformed instead.")
    fn = self.grad_fn
    if fn is None or self._retains_grad:
        return
    if fn._retains_grad_hooks is None:
        fn._retains_grad_hooks = {}
    fn._retains_grad_hooks[self._output_nr] = weakref.ref(self)
    self._retains_grad = True


# How torch's ``.grad`` setter names dtypes: the C++ element type of the gradient, the
# ScalarType of the tensor.
_CPP_TYPE = {"float32": "float", "float64": "double", "float16": "c10::Half",
             "bfloat16": "c10::BFloat16", "int64": "long int", "int32": "int", "int16": "short int",
             "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
             "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}
_SCALAR_TYPE = {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
                "int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte",
                "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _check_assigned_grad(self, g):
    if not meta.is_tensor(g):
        raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                        f"{type(g).__name__}")
    if g.dtype != self.dtype:
        got, want = meta.dtype_name(g), meta.dtype_name(self)
        raise RuntimeError(
            f"attempting to assign a gradient with dtype '{_CPP_TYPE.get(got, got)}' to a tensor with "
            f"grad_dtype '{_SCALAR_TYPE.get(want, want)}'. The gradient must match the tensor's "
            "grad_dtype (defaults to the tensor's dtype).")
    if g.device.type != self.device.type:
        raise RuntimeError(
            f"attempting to assign a gradient with device type '{g.device.type}' to a tensor with "
            f"device type '{self.device.type}'. Please ensure that the gradient and the tensor are on "
            "the same device")
    if tuple(g.shape) != tuple(self.shape):
        raise RuntimeError(
            f"attempting to assign a gradient of size '{list(g.shape)}' to a tensor of size "
            f"'{list(self.shape)}'. Please ensure that the gradient and the tensor are the same size")


def _set_requires_grad(self, flag):
    if not isinstance(flag, bool):
        raise TypeError(f"requires_grad must be a bool, got {type(flag).__name__}")
    if self._grad_fn is not None:
        if flag:
            return
        raise RuntimeError("you can only change requires_grad flags of leaf variables. If you want to "
                           "use a computed variable in a subgraph that doesn't require differentiation "
                           "use var_no_grad = var.detach().")
    if flag and not meta.is_floating(self):
        raise RuntimeError("only Tensors of floating point dtype can require gradients")
    meta.set_requires_grad_bit(self, flag)


IN_TRANSFORM = ("You are attempting to call Tensor.requires_grad_() (or perhaps using torch.autograd.functional.* "
                "APIs) inside of a function being transformed by a functorch transform. This is unsupported, please "
                "attempt to use the functorch transforms (e.g. grad, vjp, jacrev, jacfwd, hessian) or call "
                "requires_grad_() outside of a function being transformed instead.")


def requires_grad_(self, requires_grad=True):
    """Set ``requires_grad`` in place (leaves only) and return ``self``."""
    if _transforms.active():
        raise RuntimeError(IN_TRANSFORM)
    _set_requires_grad(self, requires_grad)
    return self


# --- in-place view operations ------------------------------------------------------------------
def _inplace_view(self, make):
    """``self`` becomes ``make(self)``, a view of its own memory made by the matching view op: its
    metadata, history (the view op's node) and tangents, as torch's in-place view ops (``squeeze_``,
    ``unsqueeze_``, ``transpose_``, ``t_``) leave the tensor; the version counter is bumped."""
    adopt = getattr(type(self), "_adopt_view", None)
    # A wrapper that adopts the view (``vmap``'s batched tensor) holds its history on the tensor it wraps.
    leaf = self if adopt is None else self._physical()
    if leaf._grad_fn is None and meta.requires_grad(leaf):
        meta.check_inplace(leaf)  # a leaf that requires grad: torch's message
    out = make(self)
    if adopt is not None:
        adopt(self, out)
    else:
        for field in _VIEW_FIELDS:
            setattr(self, field, getattr(out, field))
        if self._base is not None:  # a view stays a view of its root: the new replay from it
            self._view_fn = out._view_fn
        if meta.requires_grad(out):
            self._grad_fn = out._grad_fn
            self._output_nr = out._output_nr
    if out._fw_grad is not None:  # a tangent exists only once forward_ad is loaded
        from . import forward_ad
        for level, tangent in out._fw_grad.items():
            forward_ad.set_tangent(self, tangent, level)
    self._bump_version()
    return self


# What a view's state is beyond its memory: the array and the metadata of meta and fake tensors.
_VIEW_FIELDS = ("_data", "_meta_strides", "_meta_offset", "_sym_shape", "_sym_strides")


def squeeze_(self, dim=None):
    """``squeeze`` in place: ``self`` without (the given) size-1 dims."""
    return _inplace_view(self, lambda t: t.squeeze() if dim is None else t.squeeze(dim))


def unsqueeze_(self, dim):
    """``unsqueeze`` in place: a size-1 dim inserted at ``dim``."""
    return _inplace_view(self, lambda t: t.unsqueeze(dim))


def transpose_(self, dim0, dim1):
    """``transpose`` in place."""
    if self.dim() == 0:  # a 0-dim tensor transposes its (one) dim with itself: nothing moves
        for d in (dim0, dim1):
            if d not in (-1, 0):
                raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {d})")
        self._bump_version()
        return self
    return _inplace_view(self, lambda t: t.transpose(dim0, dim1))


def t_(self):
    """``t`` in place (tensors of at most 2 dims)."""
    return _inplace_view(self, lambda t: t.t())


def install(tensor_cls):
    """Bind the autograd methods onto ``tensor_cls`` (idempotent)."""
    # The fields and the attributes over them (``grad``, ``grad_fn``, ``is_leaf``,
    # ``requires_grad``, ``retains_grad``, ``output_nr``) live in ``TensorBase`` (Note [Tensor
    # slots]); its setters call these for torch's checks.
    # The Rust method serves ``loss.backward()`` and calls ``backward`` for the rest (Note [Fast paths
    # and general paths] in src/python/hooks.rs: with them off, ``backward`` is the method).
    if _core.FAST_PATHS:
        tensor_cls.backward = _core._backward_method(tensor_cls)
    else:
        backward.__qualname__ = "Tensor.backward"  # torch's name, as the Rust method's
        tensor_cls.backward = backward
    tensor_cls.register_hook = register_hook
    tensor_cls.register_post_accumulate_grad_hook = register_post_accumulate_grad_hook
    tensor_cls.retain_grad = retain_grad
    tensor_cls.requires_grad_ = requires_grad_
    for fn in (squeeze_, unsqueeze_, transpose_, t_):
        setattr(tensor_cls, fn.__name__, fn)

from .._exports import public_dir

__dir__ = public_dir(globals())
