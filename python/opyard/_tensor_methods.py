"""Tensor methods of torch that are no operators: ``new_tensor``, ``new``, the deprecated
``resize``/``resize_as``, the Python-callable maps ``apply_``/``map_``/``map2_``, ``dim_order``,
``const_data_ptr``, ``name`` and the layout/backend flags (``is_sparse``, ``is_quantized``,
``is_mkldnn``, ...: False, as opyard tensors are dense CPU/meta tensors), ``is_distributed``.

``install()`` binds them onto ``Tensor`` (``import opyard`` runs it).
"""

import warnings

import numpy as np

from . import _dtype as D
from ._factories import empty, tensor
from ._function_protocol import name_routed_methods
from ._tensor import Size, Tensor
from .autograd.grad_mode import no_grad

__all__ = ["install"]


def new_tensor(self, data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False):
    """A new tensor holding a copy of ``data``, of ``self``'s dtype and device unless given."""
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than "
                      "tensor.new_tensor(sourceTensor).", UserWarning, stacklevel=2)
        data = data.detach()
    return tensor(data, dtype=dtype if dtype is not None else self.dtype,
                  device=device if device is not None else self.device, requires_grad=requires_grad)


def new(self, *args, device=None):
    """torch's legacy ``Tensor.new``: no argument, an empty tensor; sizes (ints or a ``Size``), an
    uninitialized tensor of them; other data, a copy; all of ``self``'s dtype and device."""
    dev = device if device is not None else self.device
    if not args:
        return empty(0, dtype=self.dtype, device=dev)
    if len(args) == 1 and isinstance(args[0], Tensor):
        return type(self)(args[0])
    sizes = args[0] if len(args) == 1 and isinstance(args[0], Size) else args
    if all(isinstance(a, int) and not isinstance(a, bool) for a in sizes):
        return empty(*sizes, dtype=self.dtype, device=dev)
    if len(args) > 1:
        raise TypeError(f"new() received an invalid combination of arguments - got "
                        f"({', '.join(type(a).__name__ for a in args)})")
    return tensor(args[0], dtype=self.dtype, device=dev)


def _sizes_text(sizes):
    return "x".join(str(s) for s in sizes)


def _resized(self, sizes):
    numel = 1
    for s in sizes:
        numel = numel * s
    if numel != self.numel():
        shown = ", ".join(str(s) for s in sizes) if len(sizes) > 1 or not isinstance(sizes[0], tuple) else \
            str(sizes[0])
        raise RuntimeError(f"requested resize to {shown} ({numel} elements in total), but the given tensor has a "
                           f"size of {_sizes_text(self.shape)} ({self.numel()} elements). autograd's resize can "
                           "only change the shape of a given tensor, while preserving the number of elements. ")
    return _resize_function().apply(self, sizes)


_RESIZE = []


def _resize_function():
    """torch's autograd function of the out-of-place resize (its node: ``ResizeBackward``), defined on
    first use so that ``import opyard`` does not load ``autograd.function``."""
    if not _RESIZE:
        from .autograd.function import Function

        class Resize(Function):
            @staticmethod
            def forward(ctx, tensor, sizes):
                ctx.input_sizes = tuple(tensor.shape)
                return tensor.contiguous().view(*sizes).clone()

            @staticmethod
            def backward(ctx, grad_output):
                return grad_output.contiguous().view(*ctx.input_sizes), None

        _RESIZE.append(Resize)
    return _RESIZE[0]


def resize(self, *sizes):
    """The deprecated out-of-place ``resize``: ``self`` in a new shape of as many elements."""
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    return _resized(self, sizes)


def resize_as(self, tensor):
    """The deprecated out-of-place ``resize_as``: ``self`` in ``tensor``'s shape."""
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return _resized(self, tuple(tensor.shape))


def _mapped(self, name, fn, *others):
    """``self`` overwritten with ``fn`` applied per element (others broadcast to ``self``'s shape)."""
    if self.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    if self.device.type != "cpu":
        raise TypeError(f"{name}_ is only implemented on CPU tensors")
    args = [self.numpy().astype(object)]
    for other in others:
        if other.dtype != self.dtype:
            raise RuntimeError(f"{name}: expected {other.dtype} to be {self.dtype} (the tensors' dtypes must agree)")
        args.append(np.broadcast_to(other.numpy(), tuple(self.shape)).astype(object))
    # one Python call per element, as torch's (the callable is arbitrary Python)
    values = np.frompyfunc(fn, len(args), 1)(*args)
    with no_grad():
        self.copy_(tensor(np.asarray(values, dtype=self.dtype.np if self.dtype is not D.bfloat16 else np.float64)))
    return self


def apply_(self, callable):
    """Apply ``callable`` to every element in place (CPU; slow: a Python call per element)."""
    return _mapped(self, "apply_", callable)


def map_(self, tensor, callable):
    """``self[i] = callable(self[i], tensor[i])`` in place, ``tensor`` broadcast to ``self``."""
    return _mapped(self, "map_", callable, tensor)


def map2_(self, x, y, callable):
    """``self[i] = callable(self[i], x[i], y[i])`` in place, ``x`` and ``y`` broadcast to ``self``."""
    return _mapped(self, "map2_", callable, x, y)


def const_data_ptr(self):
    """``data_ptr`` (opyard has no separate read-only pointer)."""
    return self.data_ptr()


def _should_swap(shape, strides, a, b):
    """torch's order of two dimensions by their strides (``compute_elementwise_output_logical_to_physical_perm``)."""
    sa, sb = strides[a], strides[b]
    if sa == 0 or sb == 0:
        return 0

    def ge(x, y):
        return True if y == 0 else False if x == 0 else x >= y or x % y == 0
    if sa == sb:
        return 0 if ge(shape[b], shape[a]) else 1
    if ge(sb, sa):
        return -1
    return 1 if ge(sa, sb) else 0


def dim_order(self, *, ambiguity_check=False):
    """The dimensions from outermost to innermost in memory (torch's ``Tensor.dim_order``)."""
    from ._memory_format import channels_last, contiguous_format, memory_format

    if not isinstance(ambiguity_check, bool):
        if not isinstance(ambiguity_check, list) or not all(isinstance(m, memory_format) for m in ambiguity_check):
            raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
    shape, strides, nd = tuple(self.shape), self.stride(), self.dim()
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    if check and (1 in shape or len(set(strides)) < nd):
        if sum(1 for m in formats if self.is_contiguous(memory_format=m)) != 1:
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the given "
                               "memory formats.")
    if nd <= 1:
        return tuple(range(nd))
    contiguous = self.is_contiguous(memory_format=contiguous_format)
    last = nd == 4 and self.is_contiguous(memory_format=channels_last)
    if contiguous and not last:
        return tuple(range(nd))
    if last and not contiguous:
        return (0, *range(2, nd), 1)
    perm = list(reversed(range(nd)))
    for i in range(1, nd):
        d1 = i
        for d0 in reversed(range(i)):
            c = _should_swap(shape, strides, perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    if ambiguity_check is True and any(_should_swap(shape, strides, perm[i], perm[i + 1]) != -1
                                       for i in range(nd - 1)):
        raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(reversed(perm))


def is_distributed(self):
    """False: opyard tensors are never distributed."""
    return False


# The layouts and backends opyard tensors never have (torch's flags of the same names).
_NEVER = ("is_sparse", "is_sparse_csr", "is_quantized", "is_mkldnn", "is_vulkan", "is_xla", "is_xpu", "is_ipu",
          "is_mps", "is_mtia", "is_maia")


def _false(self):
    return False


def install():
    for fn in (new_tensor, new, resize, resize_as, apply_, map_, map2_, const_data_ptr, dim_order, is_distributed):
        fn.__qualname__ = f"Tensor.{fn.__name__}"
        setattr(Tensor, fn.__name__, fn)
    for name in _NEVER:
        if not hasattr(Tensor, name):
            setattr(Tensor, name, property(_false, doc=f"False: opyard tensors are dense (torch's ``{name}``)."))
    if not hasattr(Tensor, "name"):
        Tensor.name = property(lambda self: None, doc="None: opyard has no named tensors (torch's ``Tensor.name``).")
    # The last methods are bound: the Python-level ones take torch's names (``Tensor.to.__name__``).
    name_routed_methods(Tensor)


install()
