"""``vmap``: map a function over a batch dimension by running it once on batched tensors.

Each call pushes a vmap *layer* (level, batch size, randomness), wraps the
mapped inputs as ``BatchedTensor``s of that level (batch dim moved to the
front), includes ``VmapMode`` in the thread's key set (random ops consult the
randomness mode there), runs the function once, and turns the batched outputs
back into plain tensors with the batch dim at ``out_dims``. Every operator the
function calls on a batched tensor runs its batching rule at the ``Batched``
key (``opyard.func.rules``): one call per operator, whatever the batch size.
"""

import functools

from .._ops import resolve
from .._tensor import Tensor
from ..utils._pytree import broadcast_prefix, tree_flatten, tree_unflatten
from .._aten.factory import generator as _generator
from .. import _core
from .batched import (BatchedTensor, LegacyVmapLevel, VmapLevel, _level_numbers, _stack, _state, move_dim,
                      pop_layer, push_layer, wrap)

__all__ = ["legacy_vmap", "vmap"]

_RANDOMNESS = ("error", "different", "same")
_expand = resolve("aten::expand")
_cat = resolve("aten::cat")
# The common call in Rust; None with the fast paths off (Note [Fast paths and general paths]).
_vmap_call = _core._vmap_call if _core.FAST_PATHS else None
_VmapFunction = _core.VmapFunction if _core.FAST_PATHS else None


def _name(func):
    return getattr(func, "__name__", repr(func))


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``vmap(f)(xs)`` computes ``stack([f(x) for x in xs])`` with one call of each operator.

    Example::

        >>> x = opyard.randn(64, 16)
        >>> y = opyard.vmap(lambda row: row.sin() * 2)(x)   # same as x.sin() * 2

    ``in_dims``: an int, or a (nested) tuple matching the positional inputs, None for an input
    that is not mapped; ``out_dims``: where the batch dim goes in each output (None: the output
    is the same for every example); ``randomness``: "error" (random ops raise), "different" or
    "same" (random values per example or shared); ``chunk_size``: map that many examples at a time.
    """
    if randomness not in _RANDOMNESS:
        raise RuntimeError(f"Only allowed values for randomness are 'error', 'different', or 'same'. "
                           f"Got {randomness}")
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size <= 0):
        raise ValueError(f"vmap: chunk_size should be None or greater than 0. (got {chunk_size})")

    name = _name(func)
    int_dims = in_dims.__class__ is int
    bad_out_dims = _out_dims_error(func, out_dims)  # raised by each call, as torch's

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        if bad_out_dims is not None:
            raise ValueError(bad_out_dims)
        if int_dims and chunk_size is None:
            # The common call, inlined (see bench/bench_vmap.py): tensors mapped along one dim.
            if len(args) == 1:
                x = args[0]
                shape = x._data.shape if isinstance(x, Tensor) else ()
                size = shape[in_dims] if -len(shape) <= in_dims < len(shape) else None
            else:
                size = _fast_size(args, in_dims)
            if size is not None and in_dims == 0 and _vmap_call is not None:
                # The call in Rust (Note [Batched tensors in Rust]): push the level, include VmapMode,
                # wrap, run, restore; the layer record is made here (as ``push_layer`` makes it).
                level = next(_level_numbers)
                layer = VmapLevel(level, size, randomness, name)
                done, out = _vmap_call(func, args, kwargs or None, layer, level, _stack.levels,
                                       out_dims.__class__ is int)
                if done:
                    return out if out_dims == 0 else move_dim(out, 0, out_dims)
                return _outputs(func, out, out_dims, level, size)
            if size is not None:
                layer = push_layer(size, randomness, name)
                level = layer.level
                try:
                    with _state.vmap_mode:
                        if in_dims == 0:
                            # One input needs no list (a comprehension is a frame of its own).
                            out = (func(wrap(args[0], level), **kwargs) if len(args) == 1
                                   else func(*[wrap(x, level) for x in args], **kwargs))
                        else:
                            out = func(*[wrap(move_dim(x, in_dims, 0), level) for x in args], **kwargs)
                        if out.__class__ is BatchedTensor and out._level == level and out_dims.__class__ is int:
                            value = out._value
                            return value if out_dims == 0 else move_dim(value, 0, out_dims)
                        return _outputs(func, out, out_dims, level, size)
                finally:
                    ls = _stack.levels
                    if ls[-1] is layer:  # pop_layer's common case, inlined
                        ls.pop()
                    else:
                        pop_layer(layer)
        flat, dims, size = _mapped_inputs(func, in_dims, args)
        if chunk_size is not None and chunk_size < size:
            return _chunked(func, flat, dims, size, chunk_size, out_dims, randomness, args, kwargs)
        return _run(func, name, flat, dims, size, out_dims, randomness, args, kwargs)
    if _VmapFunction is not None and chunk_size is None and bad_out_dims is None and callable(func):
        # The common vmap as a Rust callable holding what each call reads (Note [vmap's function in Rust]);
        # ``wrapped`` serves the calls it does not (inputs that are not tensors, unequal sizes, ...).
        if int_dims and in_dims == 0:
            fast = _VmapFunction(func, wrapped, randomness, name, out_dims, _CONTEXT)
            return functools.update_wrapper(fast, func)
        mapped = _flat_mapped(in_dims)
        if mapped is not None:
            fast = _VmapFunction(func, wrapped, randomness, name, out_dims, _CONTEXT, mapped)
            return functools.update_wrapper(fast, func)
    return wrapped


def _flat_mapped(in_dims):
    """For a flat tuple ``in_dims`` of ``0``s (the int) and ``None``s with at least one ``0``: which inputs are
    mapped; else None."""
    if in_dims.__class__ is not tuple or not in_dims:
        return None
    mapped = [d is not None for d in in_dims]
    if not any(mapped) or any(d is not None and (d.__class__ is not int or d != 0) for d in in_dims):
        return None
    return mapped


def legacy_vmap(func):
    """``vmap(func)`` over dim 0 of every argument as ``autograd.functional(vectorize=True)`` maps its
    passes (torch's legacy ``_vmap``): the level is no ``opyard.func`` transform for ``requires_grad_``
    and ``Function``'s rules (``LegacyVmapLevel``)."""
    def wrapped(*args):
        flat, dims, size = _mapped_inputs(func, 0, args)
        return _run(func, _name(func), flat, dims, size, 0, "error", args, {}, LegacyVmapLevel)
    return wrapped


def _fast_size(args, d):
    """The batch size when every input is a tensor with a valid, equal size at ``d`` (else None:
    the general path then checks and reports)."""
    size = None
    for a in args:
        if not isinstance(a, Tensor):
            return None
        shape = a._data.shape
        n = len(shape)
        if not -n <= d < n:
            return None
        s = shape[d]
        if size is None:
            size = s
        elif s != size:
            return None
    return size


def _mapped_inputs(func, in_dims, args):
    """(flat inputs, flat dims, batch size) with torch's checks and messages."""
    if not isinstance(in_dims, int) and not isinstance(in_dims, tuple):
        raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): expected `in_dims` to be int or "
                         f"a (potentially nested) tuple matching the structure of inputs, got: {type(in_dims)}.")
    if not args:
        raise ValueError(f"vmap({_name(func)})(<inputs>): got no inputs. Maybe you forgot to add inputs, or you "
                         "are trying to vmap over a function with no inputs. The latter is unsupported.")
    flat, spec = tree_flatten(args)
    dims = broadcast_prefix(in_dims, spec)
    if dims is None:
        _, dims_spec = tree_flatten(in_dims)
        raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): in_dims is not compatible with "
                         f"the structure of `inputs`. in_dims has structure {dims_spec} but inputs has "
                         f"structure {spec}.")
    sizes = []
    for x, d in zip(flat, dims):
        if d is None:
            continue
        if not isinstance(d, int):
            raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input "
                             "but in_dim must be either an integer dimension or None.")
        if isinstance(d, bool):  # torch takes it for an int and fails on reading the size
            raise TypeError("size(): argument 'dim' (position 1) must be int, not bool")
        if not isinstance(x, Tensor):
            raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for an input "
                             f"but the input is of type {type(x)}. We cannot vmap over non-Tensor arguments, "
                             "please use None as the respective in_dim")
        n = x.dim()
        if not -n <= d < n:
            raise ValueError(f"vmap({_name(func)}, in_dims={in_dims}, ...)(<inputs>): Got in_dim={d} for some "
                             f"input, but that input is a Tensor of dimensionality {n} so expected in_dim to "
                             f"satisfy -{n} <= in_dim < {n}.")
        sizes.append(x.shape[d])
    if not sizes:
        raise ValueError("vmap: Expected at least one Tensor to vmap over")
    if any(s != sizes[0] for s in sizes):
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    return flat, dims, sizes[0]


def _run(func, name, flat, dims, size, out_dims, randomness, args, kwargs, level_cls=VmapLevel):
    layer = push_layer(size, randomness, name, level_cls)
    level = layer.level
    try:
        with _state.vmap_mode:
            if len(flat) == len(args) and not any(isinstance(a, (tuple, list, dict)) for a in args):
                # no containers among the inputs (a one-element tuple also flattens to one leaf): skip the unflatten
                batched = [x if d is None else wrap(x if d == 0 else move_dim(x, d, 0), level)
                           for x, d in zip(flat, dims)]
            else:
                batched = tree_unflatten([x if d is None else wrap(x if d == 0 else move_dim(x, d, 0), level)
                                          for x, d in zip(flat, dims)], tree_flatten(args)[1])
            out = func(*batched, **kwargs)
            return _outputs(func, out, out_dims, level, size)
    finally:
        pop_layer(layer)


def _out_dims_error(func, out_dims):
    """torch's message when a leaf of ``out_dims`` (any pytree) is neither an int nor None, else None."""
    if isinstance(out_dims, int):
        return None
    for d in tree_flatten(out_dims)[0]:
        if d is not None and not isinstance(d, int):
            return (f"vmap({_name(func)}, ..., out_dims={out_dims}): `out_dims` must be an int, None or a python "
                    "collection of ints representing where in the outputs the vmapped dimension should appear.")
    return None


def _outputs(func, out, out_dims, level, size):
    if out.__class__ is BatchedTensor and out._level == level and out_dims.__class__ is int:
        value = out._value
        return value if out_dims == 0 else move_dim(value, 0, out_dims)
    flat, spec = tree_flatten(out)
    if isinstance(out_dims, tuple) and len(out_dims) == 1 and not isinstance(out, (tuple, list)):
        out_dims = out_dims[0]
    dims = broadcast_prefix(out_dims, spec)
    if dims is None:
        _, dims_spec = tree_flatten(out_dims)
        raise ValueError(f"vmap({_name(func)}, ..., out_dims={out_dims})(<inputs>): out_dims is not compatible "
                         f"with the structure of `outputs`. out_dims has structure {dims_spec} but outputs has "
                         f"structure {spec}.")
    return tree_unflatten([_output(func, o, d, level, size) for o, d in zip(flat, dims)], spec)


def _output(func, o, d, level, size):
    if not isinstance(o, Tensor):
        if d is None:
            return o
        raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` must only return Tensors, got type {type(o)}. "
                         "Did you mean to set out_dims= to None for output?")
    if o.__class__ is BatchedTensor and o._level > level:
        raise RuntimeError(f"vmap({_name(func)}, ...): returned a BatchedTensor of an inner vmap (level "
                           f"{o._level}) that escaped it")
    if o.__class__ is BatchedTensor and o._level == level:
        if d is None:
            raise ValueError(f"vmap({_name(func)}, ...): `{_name(func)}` can not return a BatchedTensor when "
                             "out_dim is None")
        return o._value if d == 0 else move_dim(o._value, 0, d)
    if d is None:
        return o
    # The same tensor for every example: torch expands it along the new dim.
    n = o.dim() + 1
    if not isinstance(d, int) or not -n <= d < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {d})")
    expanded = _expand(o, (size,) + tuple(o.shape))
    return expanded if d % n == 0 else move_dim(expanded, 0, d)


# What every ``VmapFunction`` call reads besides its arguments.
_CONTEXT = (VmapLevel, _level_numbers, _stack, _outputs, move_dim)


def _chunked(func, flat, dims, size, chunk_size, out_dims, randomness, args, kwargs):
    """Run ``chunk_size`` examples at a time and concatenate the outputs along their batch dims."""
    _, spec = tree_flatten(args)
    pieces = []
    # randomness="same": every chunk draws what the first drew (torch restores its RNG state per chunk).
    rng_state = _generator().bit_generator.state if randomness == "same" else None
    for start in range(0, size, chunk_size):
        n = min(chunk_size, size - start)
        part = [x if d is None else x.narrow(d, start, n) for x, d in zip(flat, dims)]
        part_args = tree_unflatten(part, spec)
        if rng_state is not None:
            _generator().bit_generator.state = rng_state
        pieces.append(_run(func, _name(func), part, dims, n, out_dims, randomness, part_args, kwargs))
    __, out_spec = tree_flatten(pieces[0])
    od = broadcast_prefix(out_dims[0] if isinstance(out_dims, tuple) and len(out_dims) == 1
                          and not isinstance(pieces[0], (tuple, list)) else out_dims, out_spec)
    flats = [tree_flatten(p)[0] for p in pieces]
    merged = []
    for j, d in enumerate(od):
        parts = [f[j] for f in flats]
        merged.append(parts[0] if d is None else _cat(parts, d))
    return tree_unflatten(merged, out_spec)

from .._exports import public_dir

__dir__ = public_dir(globals())
