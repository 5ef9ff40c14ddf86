"""The backward graph: nodes, edges, saved tensors and hooks.

A tensor that requires grad is either a *leaf* (no ``grad_fn``; gradients
accumulate into its ``.grad`` through an :class:`AccumulateGrad` node) or the
output ``output_nr`` of a node (its ``grad_fn``). A node's
``next_functions`` are the edges ``(node, input_nr)`` towards the inputs of
the forward call that created it, ``(None, 0)`` for inputs that do not need
a gradient. The engine (``engine.py``) walks these edges.

See Note [Tensor autograd fields]: the per-tensor state this module reads
and writes lives in fields of the tensor's ``TensorBase`` (``_grad_fn``,
``_output_nr``, ``_grad_accumulator``, ``_backward_hooks``,
``_retains_grad``), all owned by ``opyard.autograd``.
"""

import contextlib
import itertools
import _thread  # threading's locks and ``local``, without loading threading (numpy does not)
import weakref

from .. import _core
from . import _tensor_meta as meta

__all__ = [
    "Node",
    "AccumulateGrad",
    "RemovableHandle",
    "gradient_edge",
    "set_history",
    "SavedTensor",
    "increment_version",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
]

next_sequence_nr = _core._next_sequence_nr

FREED_MESSAGE = (
    "Trying to backward through the graph a second time (or directly access saved tensors "
    "after they have already been freed). Saved intermediate values of the graph are freed "
    "when you call .backward() or autograd.grad(). Specify retain_graph=True if you need to "
    "backward through the graph a second time or if you need to access saved tensors after "
    "calling backward."
)


class RemovableHandle:
    """Returned by ``register_hook``: ``handle.remove()`` unregisters the hook."""

    _ids = itertools.count()

    def __init__(self, hooks_dict):
        self.hooks_dict_ref = weakref.ref(hooks_dict)
        self.id = next(RemovableHandle._ids)

    def remove(self):
        hooks = self.hooks_dict_ref()
        if hooks is not None:
            hooks.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _HookDict(dict):
    """A dict that can be weakly referenced (handles hold it weakly, like torch's)."""

    __slots__ = ("__weakref__",)


def _add_hook(owner, attr, fn):
    hooks = getattr(owner, attr, None)
    if hooks is None:
        hooks = _HookDict()
        setattr(owner, attr, hooks)
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    return handle


class Node(_core.NodeBase):
    """One backward function of the graph.

    Subclasses implement ``apply(grads)``: ``grads`` has one entry per output
    of the forward call (``None`` where no gradient flowed), and the result
    has one gradient (or ``None``) per edge of ``next_functions``.

    The graph fields (``next_functions``, ``_sequence_nr``, ``_out_shapes``,
    ``_released``, ``_saved``, the hook slots) are Rust fields of
    ``_core.NodeBase`` (See Note [Rust graph nodes] in ``src/python/autograd/node/mod.rs``);
    a node gets an instance dict only when a subclass or a user sets another
    attribute. The sequence number is assigned when the node is created.
    """

    def __init__(self, next_functions=(), out_shapes=()):
        self.next_functions = next_functions
        self._out_shapes = out_shapes

    def name(self):
        """The node's name, e.g. ``MulBackward0``."""
        return type(self).__name__

    def __repr__(self):
        return f"<{self.name()} object at {id(self):#x}>"

    def __call__(self, *grads):
        return self.apply(list(grads))

    def apply(self, grads):
        raise NotImplementedError(f"{self.name()}.apply is not implemented")

    def _sequence(self):
        return self._sequence_nr

    @property
    def metadata(self):
        if self.metadata_dict is None:
            self.metadata_dict = {}
        return self.metadata_dict

    def register_hook(self, fn):
        """``fn(grad_inputs, grad_outputs)`` runs after this node; may return new grad_inputs."""
        self._hooked = True
        return _add_hook(self, "_post_hooks", fn)

    def register_prehook(self, fn):
        """``fn(grad_outputs)`` runs before this node; may return new grad_outputs."""
        self._hooked = True
        return _add_hook(self, "_pre_hooks", fn)

    @property
    def _retains_grad_hooks(self):
        """``{output_nr: weakref to tensor}`` of outputs that ``retain_grad()``."""
        return self._retains_grad_hooks_

    @_retains_grad_hooks.setter
    def _retains_grad_hooks(self, hooks):
        self._hooked = True
        self._retains_grad_hooks_ = hooks

    def _register_tensor_hook(self, output_nr, fn):
        self._hooked = True
        if self._tensor_pre_hooks is None:
            self._tensor_pre_hooks = {}
        per_output = self._tensor_pre_hooks.setdefault(output_nr, _HookDict())
        handle = RemovableHandle(per_output)
        per_output[handle.id] = fn
        return handle


class AccumulateGrad(Node):
    """Sink of a leaf tensor: adds the incoming gradient into ``variable.grad``."""

    def __init__(self, variable):
        # Highest priority: accumulate as soon as ready (torch: UINT64_MAX); the engine
        # accumulates in Rust when the leaf has no hooks, and calls ``apply`` otherwise.
        self._init_sink(variable)

    @property
    def variable(self):
        return self._saved[0]

    @property
    def _out_shapes(self):
        # Read at backward time only: creating the node stays cheap on the forward path.
        return (self.variable.shape,)

    def apply(self, grads):
        grad = grads[0]
        grads[0] = None
        if grad is None:
            return ()
        var = self.variable
        hooks = var._backward_hooks
        if hooks:
            for hook in tuple(hooks.values()):
                new = hook(grad)
                if new is not None:
                    grad = new
        meta.accumulate_grad(var, grad)
        post = var._post_accumulate_hooks
        if post:
            for hook in tuple(post.values()):
                returned = hook(var)
                if returned is not None:  # torch's check: the hook mutates .grad, returns None
                    if meta.is_tensor(returned):
                        raise RuntimeError("Tensor post accumulate grad hooks should return None.")
                    raise TypeError(f"expected Variable, but hook returned '{type(returned).__name__}'")
        return ()


def gradient_edge(t):
    """The edge a gradient for tensor ``t`` flows into: ``(grad_fn, output_nr)``, the
    leaf's ``AccumulateGrad``, or ``(None, 0)`` when ``t`` does not require grad."""
    fn = t.grad_fn  # a stale view's history regenerated (Note [View history])
    if fn is not None:
        return (fn, t._output_nr)
    if meta.requires_grad(t):
        return (grad_accumulator(t), 0)
    return (None, 0)


# The (cached, weakly held) ``AccumulateGrad`` of leaf ``t``, made in Rust.
grad_accumulator = _core._grad_accumulator


def set_history(t, node, output_nr):
    """Make ``t`` output ``output_nr`` of ``node`` (it then requires grad, and is no leaf)."""
    t._grad_fn = node
    t._output_nr = output_nr
    meta.set_requires_grad_bit(t, True)


class _Packed:
    """What a pack hook made of a saved tensor, and the unpack hook that restores it (Note
    [Saved tensor hooks] in src/python/autograd/saved_hooks.rs). Never a tensor: the Rust readers of saved
    tensors hand it to ``SavedTensor.unpack``."""

    __slots__ = ("value", "unpack_hook")

    def __init__(self, value, unpack_hook):
        self.value, self.unpack_hook = value, unpack_hook

    def unpack(self):
        t = self.unpack_hook(self.value)
        if not isinstance(t, _core.TensorBase):
            raise TypeError("Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                            f"{type(t).__name__}")
        return t


_current_hooks = _core._current_saved_tensors_hooks


class SavedTensor:
    """A tensor saved for backward, with the version it had when saved.

    Unpacking checks that no in-place operation changed it since, and that
    the graph was not freed by an earlier backward. Under ``saved_tensors_hooks``
    it holds what the pack hook returned instead, and unpacking calls the unpack
    hook (no version check then, as in torch); ``register_hooks`` packs one saved
    tensor (what ``grad_fn._raw_saved_<name>`` returns).
    """

    __slots__ = ("tensor", "version", "is_output", "node_name", "output_nr")

    def __init__(self, tensor, is_output=False, node_name="", output_nr=0):
        hooks = _current_hooks() if tensor is not None else None
        if hooks is None:
            self.tensor = tensor
            self.version = meta.version(tensor) if tensor is not None else 0
        else:
            pack, unpack = hooks
            self.tensor = _Packed(pack(tensor), unpack)
            self.version = 0
        self.is_output = is_output
        self.node_name = node_name
        self.output_nr = output_nr

    def unpack(self, released=False):
        if released:
            raise RuntimeError(FREED_MESSAGE)
        t = self.tensor
        if t is None:
            return None
        if t.__class__ is _Packed:
            return t.unpack()
        if meta.version(t) != self.version:
            raise RuntimeError(modified_message(t, self.version, self._producer(t)))
        return t

    def register_hooks(self, pack_hook, unpack_hook):
        """Pack this saved tensor now with ``pack_hook``; ``unpack_hook`` restores it when read."""
        if not callable(pack_hook) or not callable(unpack_hook):
            raise TypeError("register_hooks(): incompatible function arguments: expected two callables "
                            f"(pack_hook, unpack_hook), got {type(pack_hook).__name__} and "
                            f"{type(unpack_hook).__name__}")
        if self.tensor.__class__ is _Packed:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. "
                               "Hint: only one pair of hooks is allowed at a time.")
        if self.tensor is None:
            raise RuntimeError(FREED_MESSAGE)
        t = self.unpack()
        self.tensor = _Packed(pack_hook(t), unpack_hook)
        self.version = 0

    def _producer(self, t):
        if self.is_output:
            return self.node_name, self.output_nr
        fn = t._grad_fn
        return (fn.name(), t._output_nr) if fn is not None else None


class _HooksDisabled(_thread._local):
    message = None  # the error that registering hooks raises (disable_saved_tensors_hooks)


_hooks_disabled = _HooksDisabled()


class saved_tensors_hooks:
    """Context manager: every tensor saved for backward inside it is packed by ``pack_hook(tensor)``
    and unpacked by ``unpack_hook(packed)`` (which must return a tensor) when backward reads it.

    The innermost pair applies; the hooks are per thread. Example (what ``save_on_cpu`` does)::

        >>> with saved_tensors_hooks(lambda t: (t.device, t.cpu()), lambda p: p[1].to(p[0])):
        ...     y = x.exp()
    """

    def __init__(self, pack_hook, unpack_hook):
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self):
        if _hooks_disabled.message is not None:
            raise RuntimeError(_hooks_disabled.message)
        _core._push_saved_tensors_hooks(self.pack_hook, self.unpack_hook)
        return self

    def __exit__(self, *exc):
        _core._pop_saved_tensors_hooks()
        return False


class save_on_cpu(saved_tensors_hooks):
    """Saved tensors are kept on the CPU and moved back to their device when backward reads
    them (a CPU tensor is kept as it is). ``pin_memory`` is accepted for torch's signature."""

    def __init__(self, pin_memory=False, device_type="cuda"):
        def pack_to_cpu(tensor):
            return (tensor.device, tensor.cpu())

        def unpack_from_cpu(packed):
            device, tensor = packed
            return tensor.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


@contextlib.contextmanager
def disable_saved_tensors_hooks(error_message):
    """Inside, registering saved-tensor hooks raises ``RuntimeError(error_message)``; entering it
    while hooks are active raises that error too (as torch). Usable as a decorator."""
    if _current_hooks() is not None:
        raise RuntimeError(error_message)
    prev = _hooks_disabled.message
    _hooks_disabled.message = error_message
    try:
        yield
    finally:
        _hooks_disabled.message = prev


def modified_message(t, expected, producer):
    """torch's message for a saved tensor changed by an in-place op.

    The hint differs from torch's (which points to anomaly mode, not part of opyard)."""
    where = f", which is output {producer[1]} of {meta.short_node_name(producer[0])}," if producer else ""
    return (
        "one of the variables needed for gradient computation has been modified by an inplace "
        f"operation: [{meta.type_string(t)} {list(meta.shape(t))}]{where} is at version "
        f"{meta.version(t)}; expected version {expected} instead. Hint: the in-place operation ran after "
        "the tensor was saved for backward; use its out-of-place form or .clone() the tensor "
        "before modifying it."
    )

from .._exports import public_dir

__dir__ = public_dir(globals())


def increment_version(tensor):
    """Record an in-place change autograd cannot see (a kernel writing through ``data_ptr``).

    Takes a tensor or an iterable of tensors; saved tensors of that memory then fail the
    version check on backward, as after any in-place op. Example::

        >>> increment_version(t)  # t._version goes up by one
    """
    if isinstance(tensor, _core.TensorBase):
        tensor._bump_version()
        return
    try:
        tensors = tuple(tensor)
    except TypeError:
        tensors = None
    if tensors is None or not all(isinstance(t, _core.TensorBase) for t in tensors):
        raise RuntimeError(f"increment_version expect a Iterable[Tensor] as input (got "
                           f"{type(tensor).__name__})")
    for t in tensors:
        t._bump_version()
