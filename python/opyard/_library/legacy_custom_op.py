"""torch's oldest custom-op API, ``torch._custom_op.impl`` (deprecated in torch, still imported by
extension code written for torch 2.0/2.1): ``custom_op(qualname)`` declares an operator from a
typed signature and returns a ``CustomOp`` whose ``impl``, ``impl_abstract``, ``impl_factory``,
``impl_save_for_backward`` and ``impl_backward`` register its parts.

Example::

    >>> @custom_op("mylib::numpy_sin")
    ... def numpy_sin(x: Tensor) -> Tensor: ...
    >>> @numpy_sin.impl("cpu")
    ... def _(x):
    ...     return opyard.from_numpy(np.sin(x.numpy()))

The backward pair maps onto ``register_autograd``: ``impl_save_for_backward(fn)`` gets the inputs
(a named tuple) and the output and returns what to save; ``impl_backward(fn)`` gets
``(ctx, saved, *grads)`` and returns ``{input name: gradient}`` for every Tensor input.
"""

import inspect
import warnings
from collections import namedtuple

from .._provenance import caller_site
from .._registration import KernelLibrary
from .._tensor import Tensor
from ..autograd.grad_mode import is_grad_enabled
from ..dispatcher import below_autograd
from .custom_op import _split_name
from .infer_schema import infer_schema
from .register import device_keys, install_fake, install_kernel

__all__ = ["custom_op", "CustomOp", "get_op", "global_registry"]

# "ns::name" -> its CustomOp (torch keeps them all alive: its NOTE [CustomOp lifetime])
global_registry = {}

_DEVICE_TYPES = ("cpu", "cuda")


def warn_deprecated():
    warnings.warn("opyard._custom_op is deprecated and will be removed in PyTorch 2.6, please use the equivalent "
                  "opyard.library API instead.", DeprecationWarning, stacklevel=3)


def custom_op(qualname, manual_schema=None):
    """Decorator: declare ``qualname`` from the decorated function's signature (or ``manual_schema``);
    the function itself is not a kernel. Returns a ``CustomOp``."""
    warn_deprecated()

    def inner(func):
        if not inspect.isfunction(func):
            raise ValueError(f"custom_op(...)(func): Expected `func` to be a Python function, got: {type(func)}")
        ns, name = _split_name(qualname)
        if func.__name__ != name:
            raise ValueError(
                f"custom_op(qualname='{qualname}', ...)(func): expected `func` to have name '{name}' but got "
                f"'{func.__name__}'. Please either change the name of `func` or the qualname that is passed "
                "to `custom_op`")
        schema = infer_schema(func, mutates_args=()) if manual_schema is None else manual_schema
        lib = KernelLibrary(ns, "FRAGMENT")
        lib.define(name + schema)
        result = CustomOp(lib, ns, name)
        result.__name__ = func.__name__
        result.__module__ = func.__module__
        result.__doc__ = func.__doc__
        global_registry[result._qualname] = result
        return result

    return inner


class CustomOp:
    """An operator declared by ``custom_op``: callable, with the ``impl*`` registration methods."""

    def __init__(self, lib, ns, name):
        from .._ops import ops

        self._lib = lib
        self._namespace, self._opname = ns, name
        self._qualname = f"{ns}::{name}"
        self._opoverload = getattr(getattr(ops, ns), name).default
        self._impls = {}  # kind -> (function, where it was registered)
        self._output_differentiability = None
        lib.impl(self._opoverload, self._autograd_missing, "Autograd", with_keyset=True)

    @property
    def _schema(self):
        return self._opoverload._schema

    def __repr__(self):
        return f'<CustomOp(op="{self._qualname}")>'

    def __call__(self, *args, **kwargs):
        return self._opoverload(*args, **kwargs)

    def _register_impl(self, kind, fn):
        if kind in self._impls:
            raise RuntimeError(f"Attempting to register a {kind} impl for operator {self._qualname} that already "
                               f"has a {kind} impl registered from Python at {self._impls[kind][1]}. This is not "
                               "supported.")
        self._impls[kind] = (fn, caller_site())

    def impl(self, device_types, _stacklevel=2):
        """Register the decorated function as the kernel for ``device_types`` ("cpu", "cuda")."""
        device_types = [device_types] if isinstance(device_types, str) else list(device_types)
        for d in device_types:
            if d not in _DEVICE_TYPES:
                raise ValueError(f"CustomOp.impl(device_types=[{d}, ...]): we only support device_type in "
                                 f"{set(_DEVICE_TYPES)}.")

        def inner(f):
            for d in dict.fromkeys(device_types):
                self._register_impl(d, f)
                install_kernel(self._lib, self._opoverload, f, device_keys(d, f"impl({self._qualname})"))
            return f
        return inner

    def impl_factory(self):
        """Register the decorated function for calls without tensor arguments (every device)."""
        def inner(f):
            self._register_impl("factory", f)
            install_kernel(self._lib, self._opoverload, f, ["CompositeExplicitAutograd"])
            return f
        return inner

    def impl_abstract(self, _stacklevel=2):
        """Register the decorated function as the fake impl (its Meta kernel too)."""
        def inner(f):
            self._register_impl("abstract", f)
            install_fake(self._lib, self._opoverload, f)
            return f
        return inner

    def impl_save_for_backward(self, _stacklevel=2):
        """Register ``fn(inputs, output) -> saved``; with ``impl_backward`` it makes the autograd formula."""
        def inner(f):
            self._register_impl("save_for_backward", f)
            if "backward" in self._impls:
                self._install_autograd()
        return inner

    def impl_backward(self, output_differentiability=None, _stacklevel=2):
        """Register ``fn(ctx, saved, *grads) -> {input name: grad}`` (with ``impl_save_for_backward``)."""
        if output_differentiability is not None:
            ok = (isinstance(output_differentiability, list) and all(isinstance(d, bool) for d in output_differentiability)
                  and len(self._schema.returns) == len(output_differentiability))
            if not ok:
                raise RuntimeError(f"impl_backward(output_differentiability): expected output_differentiability to be "
                                   "a list of bools with length equal to the number of outputs of this CustomOp got: "
                                   f"{output_differentiability}")

        def inner(f):
            self._register_impl("backward", f)
            self._output_differentiability = output_differentiability
            if "save_for_backward" in self._impls:
                self._install_autograd()
        return inner

    def _autograd_missing(self, keyset, *args, **kwargs):
        """The Autograd kernel until both backward parts are registered (torch's indirection)."""
        half = [k for k in ("save_for_backward", "backward") if k in self._impls]
        if half:
            missing = "backward" if half == ["save_for_backward"] else "save_for_backward"
            raise RuntimeError(
                f"We found a '{half[0]}' registration for {self} at {self._impls[half[0]][1]} but were unable to "
                f"find a '{missing}' registration. To use the CustomOp API to register a backward formula, please "
                "provide us both a backward function and a 'save for backward' function via `impl_backward` and "
                "`impl_save_for_backward` respectively.")
        if is_grad_enabled() and any(isinstance(x, Tensor) and x.requires_grad for x in _leaves((args, kwargs))):
            raise RuntimeError("Autograd has not been implemented for operator")
        with below_autograd():
            return self._opoverload(*args, **kwargs)

    def _install_autograd(self):
        from .autograd import install_autograd

        save_fn, backward_fn = self._impls["save_for_backward"][0], self._impls["backward"][0]
        schema = self._schema
        names = [a.name for a in schema.arguments]
        args_cls = namedtuple(f"{self._opname}_args", names)
        tensor_like = {a.name for a in schema.arguments if a.real_type.startswith("Tensor")}
        differentiability = self._output_differentiability
        op = self

        def setup_context(ctx, inputs, *rest):
            output = rest[-1]
            values = list(inputs) + (list(rest[0].values()) if len(rest) == 2 else [])
            saved = save_fn(args_cls(*values), output)
            # As torch: the tensors in what was saved go through save_for_backward (version checks).
            tensors = [x for x in _leaves(saved) if isinstance(x, Tensor)]
            ctx.save_for_backward(*tensors)
            ctx._legacy_saved = _replace_tensors(saved, iter(range(len(tensors))))
            if differentiability is not None:
                outs = output if isinstance(output, tuple) else (output,)
                ctx.mark_non_differentiable(*[o for o, d in zip(outs, differentiability)
                                              if isinstance(o, Tensor) and not d])

        def backward(ctx, *grads):
            saved = _restore_tensors(ctx._legacy_saved, ctx.saved_tensors)
            result = backward_fn(object(), saved, *grads)
            where = f"In the backward function defined for {op} at {op._impls['backward'][1]} using the CustomOp API,"
            if not isinstance(result, dict):
                raise RuntimeError(f"{where} expected the output of the backward function to be a dict but got "
                                   f"{type(result)}")
            if set(result) != tensor_like:
                raise RuntimeError(f"{where} expected the returned grad_input dict to have keys {tensor_like} but got "
                                   f"{result.keys()}. The backward function must return a gradient (can be None) for "
                                   "each arg to the CustomOp that may be a Tensor or Sequence[Tensor]. Args declared "
                                   "to be non-Tensor-like types should not appear in the grad_input dict")
            for name, g in result.items():
                if g is not None and not isinstance(g, (Tensor, list, tuple)):
                    raise RuntimeError(f"{where} got object of type {type(g)} as the gradient for input '{name}', "
                                       "but expected the gradient to be either None or a Tensor")
            return tuple(result.get(n) for n in names)

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # replaces the stand-in above, on purpose
            install_autograd(self._lib, self._opoverload, backward, setup_context, str(self))

    def _destroy(self):
        global_registry.pop(self._qualname, None)
        self._lib._destroy()


class _Slot:
    """Where a saved tensor sat in what ``save_for_backward`` returned (its index in ``saved_tensors``)."""

    __slots__ = ("index",)

    def __init__(self, index):
        self.index = index


def _leaves(x):
    if isinstance(x, (list, tuple)):
        for e in x:
            yield from _leaves(e)
    elif isinstance(x, dict):
        for e in x.values():
            yield from _leaves(e)
    else:
        yield x


def _replace_tensors(x, counter):
    if isinstance(x, Tensor):
        return _Slot(next(counter))
    if isinstance(x, list):
        return [_replace_tensors(e, counter) for e in x]
    if isinstance(x, tuple):
        items = [_replace_tensors(e, counter) for e in x]
        return type(x)(*items) if hasattr(x, "_fields") else tuple(items)
    if isinstance(x, dict):
        return {k: _replace_tensors(e, counter) for k, e in x.items()}
    return x


def _restore_tensors(x, tensors):
    if isinstance(x, _Slot):
        return tensors[x.index]
    if isinstance(x, list):
        return [_restore_tensors(e, tensors) for e in x]
    if isinstance(x, tuple):
        items = [_restore_tensors(e, tensors) for e in x]
        return type(x)(*items) if hasattr(x, "_fields") else tuple(items)
    if isinstance(x, dict):
        return {k: _restore_tensors(e, tensors) for k, e in x.items()}
    return x


def get_op(qualname):
    """The operator ``qualname`` (its default overload): a ``CustomOp``'s or one defined otherwise."""
    from .._ops import resolve

    return resolve(qualname)


def _find_custom_op(qualname, also_check_torch_library=False):
    found = global_registry.get(qualname)
    if found is None:
        raise RuntimeError(f"Could not find custom op \"{qualname}\". Did you register it via the "
                           "opyard._custom_ops API?")
    return found

