"""``opyard.autograd.Function``: user-defined forward and backward.

Example (the seed's ``MulConstant``)::

    >>> class MulConstant(Function):
    ...     @staticmethod
    ...     def forward(ctx, tensor, constant):
    ...         ctx.constant = constant
    ...         return tensor * constant
    ...     @staticmethod
    ...     def backward(ctx, grad_output):
    ...         return grad_output * ctx.constant, None
    >>> y = MulConstant.apply(opyard.ones(2, requires_grad=True), 3.0)

Note [Function.apply hot path]: everything that depends only on the class
(its Backward node class, ``forward``, whether ``setup_context`` is defined)
is computed once in ``__init_subclass__`` into ``cls._apply_spec``; ``apply``
then is one Rust call (``MyFn.apply`` is the spec; See Note [Function.apply in
Rust] in ``src/python/autograd/function/mod.rs``). The ctx is the node: ``needs_input_grad``,
``to_save``, ``_dirty``, ``_non_differentiable``, ``materialize_grads`` are Rust
fields of it, its ``save_for_backward``, ``mark_dirty``, ``saved_tensors``, ...
are Rust methods of ``NodeBase`` that take precedence over ``FunctionCtx``'s
(See Note [Ctx fields in Rust] in ``src/python/autograd/node/ctx.rs``), and its instance
dict exists only once a user sets an attribute.
"""

import functools
import warnings

from .. import _core
from ..dispatcher import AUTOGRAD_KEYS
from . import _tensor_meta as meta
from . import forward_ad as _fwad
from . import transform_levels as _transforms
from ._apply_args import bind_apply_args, positional_params
from .grad_mode import _no_grad_guard, no_grad
from .grad_mode import grad_off_in_forward_ad as _fw_off
from .graph import (
    FREED_MESSAGE,
    Node,
    SavedTensor,
    gradient_edge,
)

__all__ = ["FunctionCtx", "BackwardCFunction", "Function", "InplaceFunction", "apply_plain",
           "once_differentiable"]

_is_excluded = _core._is_excluded
_FunctionSpec = _core._FunctionSpec
_TensorBase = _core.TensorBase
_AUTOGRAD_KEYS = AUTOGRAD_KEYS
_AG_MASK = meta.AUTOGRAD_MASK
_NON_TENSOR = (None, -1)  # edge of a non-tensor argument (it never gets a gradient)
_NO_EDGE = (None, 0)  # edge of a tensor that does not require grad
_fw_state = _fwad._state


class FunctionCtx:
    """The ``ctx`` of ``forward``/``setup_context``/``backward``: state for the backward pass."""

    to_save = ()
    saved_for_forward = ()
    _saved: "tuple | None" = None
    _dirty = ()
    _non_differentiable = ()
    materialize_grads = True
    needs_input_grad = ()

    def save_for_backward(self, *tensors):
        """Save tensors (inputs or outputs of forward, or ``None``) for ``backward``."""
        for i, t in enumerate(tensors):
            if t is not None and not meta.is_tensor(t):
                raise TypeError(f"save_for_backward can only save variables, but argument {i} "
                                f"is of type {type(t).__name__}")
        self.to_save = tensors

    def save_for_forward(self, *tensors):
        """Save tensors for ``jvp`` (available there as ``ctx.saved_tensors``)."""
        for i, t in enumerate(tensors):
            if t is not None and not meta.is_tensor(t):
                raise TypeError(f"save_for_forward expects all arguments to be tensors or None, "
                                f"but argument {i} is of type {type(t).__name__}.")
        self.saved_for_forward = tensors

    def mark_dirty(self, *args):
        """Declare the inputs ``forward`` modified in place (they must be returned as outputs)."""
        self._dirty = args

    def mark_shared_storage(self, *pairs):
        raise RuntimeError("mark_shared_storage is deprecated. Tensors with shared storages are "
                           "automatically tracked.")

    def mark_non_differentiable(self, *args):
        """Declare outputs that are not differentiable (their gradient is always zero)."""
        self._non_differentiable = args

    def set_materialize_grads(self, value):
        """With ``False``, ``backward`` receives ``None`` (not zeros) for unused outputs."""
        self.materialize_grads = bool(value)

    @property
    def saved_tensors(self):
        saved = self._saved
        if saved is None:
            if self._released_for_ctx():
                raise RuntimeError(FREED_MESSAGE)
            # Inside forward/setup_context/jvp: what was given so far.
            return tuple(self.saved_for_forward or self.to_save)
        released = self._released
        return tuple(s.unpack(released) for s in saved)

    def _released_for_ctx(self):
        return getattr(self, "_released", False)


class BackwardCFunction(Node, FunctionCtx):
    """The ctx object is also the graph node; its class is ``<Function>Backward``.

    ``Node`` comes first in the bases so that the node's Rust fields (``_saved``,
    ``next_functions``, ...) take precedence over ``FunctionCtx``'s class defaults."""

    _forward_cls = None
    __init__ = object.__init__  # apply() sets the node fields only when it records

    def apply(self, grads):
        cls = self._forward_cls
        if self.materialize_grads:
            dtypes = self._out_dtypes
            for i, g in enumerate(grads):
                # A non-tensor output (dtype None) has no gradient: backward gets None, as torch.
                if g is None and dtypes[i] is not None:
                    grads[i] = meta.zeros(self._out_shapes[i], dtypes[i])
        result = cls._backward_impl(self, *grads)
        if not isinstance(result, tuple):
            result = (result,)
        edges = self.next_functions
        n = len(edges)
        if len(result) != n:
            if len(result) > n and all(r is None for r in result[n:]):
                result = result[:n]
            else:
                raise RuntimeError(f"function {self.name()} returned an incorrect number of "
                                   f"gradients (expected {n}, got {len(result)})")
        for i, g in enumerate(result):
            if g is not None and not isinstance(g, _TensorBase):
                # torch's text is the tail ("expected Variable or None (got int)"); the head says where.
                raise RuntimeError(f"function {self.name()} returned an invalid gradient at "
                                   f"position {i + 1}: expected Variable or None (got "
                                   f"{type(g).__name__})")
            if g is not None and edges[i] == _NON_TENSOR:
                raise RuntimeError(f"function {self.name()} returned a gradient different than None "
                                   f"at position {i + 1}, but the corresponding forward input was "
                                   f"not a Variable")
        return result

    def _released_for_ctx(self):
        return self._released

    if not _core.FAST_PATHS:
        # The ctx methods are Rust methods of the node (Note [Ctx fields in Rust]); their general
        # path is ``FunctionCtx``'s, which takes precedence here with the fast paths off.
        save_for_backward = FunctionCtx.save_for_backward
        save_for_forward = FunctionCtx.save_for_forward
        mark_dirty = FunctionCtx.mark_dirty
        mark_non_differentiable = FunctionCtx.mark_non_differentiable
        set_materialize_grads = FunctionCtx.set_materialize_grads
        saved_tensors = FunctionCtx.saved_tensors

    def __repr__(self):
        return f"<{self.name()} object at {id(self):#x}>"


def _check_forward_defined(cls):
    return cls.forward is not _SingleLevelFunction.forward


class _SingleLevelFunction:
    @staticmethod
    def forward(*args, **kwargs):
        """Compute the outputs (``forward(ctx, *args)``, or ``forward(*args)`` + ``setup_context``)."""
        raise NotImplementedError("You must implement the forward function for custom "
                                  "autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        """Save what backward needs, when ``forward`` does not take ``ctx``."""
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        """One gradient per forward input, given one gradient per output."""
        raise NotImplementedError("You must implement either the backward or vjp method for your "
                                  "custom autograd.Function to use it with backward mode AD.")

    vjp = backward

    @staticmethod
    def jvp(ctx, *grad_inputs):
        """One output tangent per output, given one tangent per input (forward-mode AD)."""
        raise NotImplementedError("You must implement the jvp function for custom autograd.Function "
                                  "to use it with forward mode AD.")

    @staticmethod
    def vmap(info, in_dims, *args):
        """``(outputs, out_dims)`` of the batched call (``opyard.func.vmap``): ``in_dims`` gives each
        argument's batch dim (None: not batched), ``info`` the batch size and randomness."""
        raise NotImplementedError("To use autograd.Function with vmap, you must either override the vmap "
                                  "staticmethod or set generate_vmap_rule=True.")


class Function(_SingleLevelFunction):
    """Base class of custom autograd operations; call them through ``apply``.

    Under ``opyard.func`` transforms a Function needs ``setup_context`` (``forward`` without ctx), and
    under ``vmap`` a ``vmap`` staticmethod or ``generate_vmap_rule = True``, as torch's: see
    ``opyard/func/function.py``."""

    # ``vmap`` of this Function runs ``forward``/``backward``/``jvp`` themselves under vmap.
    generate_vmap_rule = False
    # The Function of a ``register_autograd`` formula: a plain Function under transforms, as the
    # custom op's own kernels handle them (``register_vmap`` at the ``Batched`` key).
    _op_autograd = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        has_backward = cls.backward is not _SingleLevelFunction.backward
        has_vjp = cls.vjp is not _SingleLevelFunction.vjp
        if has_backward and has_vjp and cls.backward is not cls.vjp:
            raise RuntimeError("Implementing both 'backward' and 'vjp' for a custom Function is not "
                               "allowed. You should only implement one of them.")
        cls._backward_impl = staticmethod(cls.vjp if has_vjp and not has_backward else cls.backward)
        cls._setup_context_defined = cls.setup_context is not _SingleLevelFunction.setup_context
        cls._backward_cls = type(cls.__name__ + "Backward", (BackwardCFunction,),
                                 {"_forward_cls": cls, "__module__": cls.__module__})
        # Under a grad/jvp transform torch applies a generated copy of the Function, whose nodes
        # are named ``<Name>GeneratedBackward``.
        cls._generated_backward_cls = type(cls.__name__ + "GeneratedBackward", (BackwardCFunction,),
                                           {"_forward_cls": cls, "__module__": cls.__module__})
        cls._signature, cls._params = positional_params(cls.forward, cls._setup_context_defined)
        # setup_context sees every input: calls with fewer arguments get forward's defaults.
        has_defaults = any(p.default is not p.empty for p in cls._params)
        cls._fill_defaults_below = len(cls._params) if cls._setup_context_defined and has_defaults else 0
        cls._apply_spec = _FunctionSpec(cls, cls._backward_cls, cls.forward,
                                        cls.setup_context if cls._setup_context_defined else None,
                                        cls._fill_defaults_below, f"{cls.__qualname__}.apply",
                                        cls._backward_impl)
        if _core.FAST_PATHS and _inherits_builtin_apply(cls):
            cls.apply = cls._apply_spec  # See Note [apply on each class] in src/python/autograd/function/mod.rs

    def __init__(self, *args, **kwargs):
        warnings.warn(
            f"{self.__class__} should not be instantiated. Methods on autograd functions are all "
            "static, so you should invoke them on the class itself. Instantiating an autograd "
            "function will raise an error in a future version of PyTorch.", DeprecationWarning,
            stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use "
            "new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")

    # ``MyFn.apply`` is ``MyFn._apply_spec``, a Rust callable: ``apply(*args)`` is one Rust
    # call (See Note [Function.apply hot path]); keywords, missing defaulted inputs and
    # forward-mode AD take ``_apply_general``, which is ``apply`` with the fast paths off (Note
    # [Fast paths and general paths] in src/python/hooks.rs).
    if _core.FAST_PATHS:
        apply = _core._ApplyDescriptor()
    else:
        @classmethod
        def apply(cls, *args, **kwargs):
            """Run ``forward`` and record the node (``_apply_general``)."""
            return _apply_general(cls, args, kwargs)


def _inherits_builtin_apply(cls):
    """Whether ``cls.apply`` resolves to ours (``Function``'s or a spec), not a user's own."""
    for k in cls.__mro__:
        if "apply" in k.__dict__:
            return k.__dict__["apply"] is Function.__dict__["apply"] or isinstance(
                k.__dict__["apply"], (_FunctionSpec, _core._ApplyDescriptor))
    return False


class InplaceFunction(Function):
    """A ``Function`` whose instances carry an ``inplace`` flag (torch's legacy base class)."""

    def __init__(self, inplace=False):
        super().__init__()
        self.inplace = inplace


_SAVED_INPUT_OUTPUT = (
    "An input that has been returned as-is as output is being saved for backward. This is not supported if "
    "you override setup_context. You should return and save a view of the input instead, e.g. with "
    "x.view_as(x) or setup ctx inside the forward function itself.")


def _apply_general(cls, args, kwargs):
    """``apply`` with keywords, defaults to fill in, a forward-AD level or a transform active."""
    if _transforms.active() and not cls._op_autograd:
        # ``opyard.func``'s rules for a Function under transforms (``Hooks.transform_apply``: a higher
        # layer; a transform is active only once it is loaded).
        return _core._hooks().transform_apply(cls, args, kwargs)
    if kwargs or len(args) < cls._fill_defaults_below:
        args = bind_apply_args(cls, args, kwargs)
    return apply_plain(cls, args, cls._backward_cls)


def apply_plain(cls, args, backward_cls):
    """The recording ``apply`` of ``cls`` on bound positional ``args``; the node is a ``backward_cls``."""
    ctx = backward_cls()
    edges = []
    needs = []
    any_grad = False
    if not _is_excluded(_AUTOGRAD_KEYS) and not _fw_off():
        for a in args:
            if isinstance(a, _TensorBase):
                if a._keyset & _AG_MASK:
                    edges.append(gradient_edge(a))
                    needs.append(True)
                    any_grad = True
                    continue
                edges.append(_NO_EDGE)
            else:
                edges.append(_NON_TENSOR)
            needs.append(False)
    else:
        # Without grad mode no graph is recorded, but the flags still say which
        # inputs require grad (torch's ``needs_input_grad`` does).
        needs = [isinstance(a, _TensorBase) and bool(a._keyset & _AG_MASK) for a in args]
    ctx.needs_input_grad = tuple(needs)
    with _no_grad_guard():
        if cls._setup_context_defined:
            output = cls.forward(*args)
            cls.setup_context(ctx, args, output)
        else:
            output = cls.forward(ctx, *args)
    if cls._setup_context_defined and ctx.to_save:
        _check_saved_inputs(ctx.to_save, args, output, not _is_excluded(_AUTOGRAD_KEYS) and not _fw_off())
    if any_grad:
        ctx.next_functions = edges
        output = _record_outputs(ctx, args, output)
    elif ctx._dirty:
        _check_dirty(ctx, args, output)
    if _fw_state.level is not None:
        _fwad.function_jvp(cls, ctx, args, output)
    return output


def _check_saved_inputs(to_save, args, output, grad_on):
    """torch refuses to save an input that ``forward`` returned as-is when ``setup_context`` is used
    (except, as torch, with grad mode off for an input that requires grad)."""
    outs = output if isinstance(output, tuple) else (output,)
    for t in to_save:
        if t is not None and (grad_on or not meta.requires_grad(t)) and _contains(args, t) and _contains(outs, t):
            raise RuntimeError(_SAVED_INPUT_OUTPUT)


def _record_outputs(ctx, args, output):
    """Attach ``ctx`` as grad_fn of the differentiable outputs; save tensors with versions.

    ``apply``'s Rust path records plain outputs by the same rules (See Note [Function outputs in
    Rust] in ``src/python/autograd/function/outputs.rs``): a change here is a change there."""
    is_tuple = isinstance(output, tuple)
    outs = output if is_tuple else (output,)
    shapes = []
    dtypes = []
    new_outs = []
    dirty = ctx._dirty
    nondiff = ctx._non_differentiable
    for i, o in enumerate(outs):
        if not meta.is_tensor(o):
            shapes.append(())
            dtypes.append(None)
            new_outs.append(o)
            continue
        if dirty and _contains(dirty, o):
            meta.check_inplace(o)
        elif _contains(args, o):
            o = meta.alias(o)  # an input returned as-is: a new tensor, so the input keeps its history
        shapes.append(meta.shape(o))
        dtypes.append(meta.dtype(o))
        if (not nondiff or not _contains(nondiff, o)) and meta.is_differentiable_dtype(o):
            o._grad_fn = ctx
            o._output_nr = i
            meta.set_requires_grad_bit(o, True)
        new_outs.append(o)
    if dirty:
        _check_dirty_inputs(ctx, args)
        _check_dirty_outputs(ctx, outs)
    ctx._out_shapes = tuple(shapes)
    ctx._out_dtypes = tuple(dtypes)
    to_save = ctx.to_save
    if to_save:
        name = ctx.name()
        ctx._saved = tuple(_saved_of(t, new_outs, name) for t in to_save)
    if is_tuple:
        return tuple(new_outs)
    return new_outs[0]


def _saved_of(t, outs, name):
    """A ``SavedTensor`` of ``t``; the node's name matters only for an output (``_producer``)."""
    is_out = _contains(outs, t)
    return SavedTensor(t, is_out, name if is_out else "", _index(outs, t))


def _contains(seq, x):
    for y in seq:
        if y is x:
            return True
    return False


def _index(seq, x):
    for i, y in enumerate(seq):
        if y is x:
            return i
    return 0


def _check_dirty(ctx, args, output):
    _check_dirty_inputs(ctx, args)
    _check_dirty_outputs(ctx, output)


def _check_dirty_inputs(ctx, args):
    if any(not _contains(args, t) for t in ctx._dirty):
        warnings.warn("ctx.mark_dirty() received a tensor that was not an input. Only input Tensors "
                      "that have been mutated should be passed to ctx.mark_dirty().", stacklevel=3)


def _check_dirty_outputs(ctx, outs):
    outs = outs if isinstance(outs, tuple) else (outs,)
    for t in ctx._dirty:
        if not _contains(outs, t):
            raise RuntimeError("Some elements marked as dirty during the forward method were not "
                               "returned as output. The inputs that are modified inplace must all "
                               "be outputs of the Function.")


class _DelayedError(Node):
    """A node whose backward raises: used by ``once_differentiable`` outputs."""

    def __init__(self, message, inputs):
        super().__init__(tuple(gradient_edge(t) for t in inputs),
                         tuple(meta.shape(t) for t in inputs))
        self.message = message

    def name(self):
        return "DelayedError"

    def apply(self, grads):
        raise RuntimeError(self.message)


def once_differentiable(fn):
    """Decorate ``backward``: it runs without recording; differentiating it again raises."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            outputs = fn(ctx, *args)
        if not any(meta.is_tensor(a) and meta.requires_grad(a) for a in args):
            return outputs
        if _is_excluded(_AUTOGRAD_KEYS):  # no create_graph: nothing will differentiate this
            return outputs
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else outputs
        grad_inputs = tuple(a for a in args if meta.is_tensor(a) and meta.requires_grad(a))
        err = _DelayedError("trying to differentiate twice a function that was marked with "
                            "@once_differentiable", grad_inputs)
        wrapped = []
        for i, o in enumerate(outs):
            if meta.is_tensor(o):
                o = meta.alias(o)
                o._grad_fn = err
                o._output_nr = i
                meta.set_requires_grad_bit(o, True)
            wrapped.append(o)
        err._out_shapes = tuple(meta.shape(o) if meta.is_tensor(o) else () for o in wrapped)
        return wrapped[0] if single else tuple(wrapped)

    return wrapper


from .._exports import public_dir

__dir__ = public_dir(globals())
