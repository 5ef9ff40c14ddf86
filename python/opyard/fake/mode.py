"""``FakeTensorMode`` and the ``Fake`` fallback: run programs on metadata alone.

Inside a mode the thread includes the ``Fake`` key, so factories dispatch to
the fallback below and make fake tensors (``opyard.tensor``/``as_tensor`` make a
real tensor first, then ``lift_fresh`` turns it fake); fake tensors carry the
key themselves, so operators on them reach the fallback too. The fallback
- refuses real tensor arguments, as torch does, unless the mode was made with
  ``allow_non_fake_inputs=True``: then it converts them with ``mode.from_tensor``;
- runs the op's fake impl (``register_fake``) with ``get_ctx()`` available, or
  else what torch's FakeTensorMode runs (See Note [Fake fallbacks]): a
  data-dependent rule, a constructor on the meta device, the fake impl torch
  derives, or the op's Meta kernel on the fake tensors (they look like meta
  tensors: see Note [Fake tensor layout]);
- re-badges the results as fake tensors on the device the inputs pretend to be
  on (or the ``device`` argument), putting back symbolic sizes (Note [Unbacked
  hints]).
The metadata cache in front of it: See Note [Fake dispatch cache] (``cache.py``).
"""

import numpy as np

from .. import _core, _factories
from .._library._opdefs import OPDEFS
from .._library.fake_impl import FAKE_IMPLS, ctx_slot, is_builtin, run_fake_impl, trivial_fake_impl
from .._registration import KernelLibrary
from .._tensor import CPU, META, Tensor, device_keys
from ..dispatcher import DispatchKey, DispatchKeySet
from .cache import CACHE, cacheable, call_key, entry_of, fake_impl_of, forget, from_entry
from .convert import fake_of, missing_fake_impl, mixed_modes, refuse_real_input
from .data_dependent import RULES, data_dependent_refused, dynamic_shape_refused
from .perturb import check_outputs, perturbation_of
from .readback import hinted, readback_of, restore_scalar, restore_symbols
from .tensor import FAKE_BIT, FakeTensor, hinting, make_fake

__all__ = ["FakeTensorMode", "current_mode", "current_shape_env", "fake_fallback"]

_FAKE = DispatchKeySet(DispatchKey.Fake)
_META_SET = DispatchKeySet(DispatchKey.Meta)


# The thread's innermost active mode lives in the core, where the cache's fast path reads it.
_swap_mode = _core._fake_mode_swap
current_mode = _core._fake_mode


def current_shape_env():
    mode = current_mode()
    return mode.shape_env if mode is not None else None


class FakeTensorMode:
    """Context manager: factories make fake tensors and operators run on metadata only.

    ``shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)`` lets fake impls create
    data-dependent sizes (``get_ctx().new_dynamic_size()``), gives ``nonzero`` & co. and
    ``item()`` unbacked symbols, and makes ``from_tensor`` give symbolic sizes (unless
    ``static_shapes=True``). A real tensor passed to an op under the mode raises, as in
    torch, unless ``allow_non_fake_inputs=True``. ``allow_fallback_kernels`` (default True)
    lets a built-in op without a Meta kernel run its real kernel on zeros of the inputs'
    metadata, as torch's mode does.
    """

    def __init__(self, *, allow_fallback_kernels=True, allow_non_fake_inputs=False, shape_env=None,
                 static_shapes=None):
        self.allow_fallback_kernels = allow_fallback_kernels
        self.allow_non_fake_inputs = allow_non_fake_inputs
        self.shape_env = shape_env
        self.static_shapes = shape_env is None if static_shapes is None else static_shapes
        self._saved = []
        self._memo = {}  # id(real tensor) -> (real tensor, its fake)

    def __repr__(self):
        return f"<FakeTensorMode at {id(self):#x}, shape_env={self.shape_env!r}>"

    def __enter__(self):
        guard = _core._KeyGuard(include=_FAKE)
        guard.__enter__()
        self._saved.append((guard, _swap_mode(self)))
        return self

    def __exit__(self, *exc):
        guard, prev = self._saved.pop()
        _swap_mode(prev)
        guard.__exit__(*exc)
        return False

    def from_tensor(self, t, *, static_shapes=None, source=None):
        """A fake tensor with ``t``'s shape, dtype, strides, offset, device, ``requires_grad``,
        subclass and storage sharing (memoized per tensor); symbolic sizes under a ShapeEnv
        unless ``static_shapes`` (``source`` names them, e.g. ``"input0"``)."""
        if isinstance(t, FakeTensor):
            return t
        if not isinstance(t, Tensor):
            raise TypeError(f"FakeTensorMode.from_tensor: expected an opyard.Tensor, got {type(t).__name__}")
        static = self.static_shapes if static_shapes is None else static_shapes
        return fake_of(self, t, static_shapes=static, source=source)


class _Real:
    """Marks that a real tensor is among the arguments (see ``_check_inputs``)."""


def _check_inputs(mode, args, kwargs):
    """One pass over the arguments: a fake tensor of another mode than ``mode`` (refused first),
    else ``_Real`` if a real tensor is among them, else None."""
    real = None
    for a in (*args, *kwargs.values()) if kwargs else args:
        for t in a if isinstance(a, (list, tuple)) else (a,):
            if isinstance(t, FakeTensor):
                if t.fake_mode is not mode and t.fake_mode is not None:
                    return t
            elif isinstance(t, Tensor):
                real = _Real
    return real


def _convert_real(mode, x):
    if isinstance(x, Tensor) and not isinstance(x, FakeTensor):
        return mode.from_tensor(x)
    if isinstance(x, (list, tuple)) and any(isinstance(e, Tensor) for e in x):
        return type(x)(_convert_real(mode, e) for e in x)
    return x


def _lift_fresh(t):
    """``Hooks.lift_fresh``: a tensor ``opyard.tensor``/``as_tensor`` just made is fake under a mode."""
    mode = current_mode()
    if mode is None:
        return t
    return fake_of(mode, t, static_shapes=True, memo=False)



def _mode_of(args):
    mode = current_mode()
    if mode is not None:
        return mode
    for a in args:
        if isinstance(a, FakeTensor) and a.fake_mode is not None:
            return a.fake_mode
    return FakeTensorMode()


# --- the fallback --------------------------------------------------------------------------------
def _miss(mode, op, args):
    """A call the core's cache keyed and has not seen: every argument is a fake tensor of ``mode``
    (the thread's mode) or a scalar. Returns the outputs and what to cache of them (None: nothing).

    A fake impl (never cached) is called from here, this frame the only one between it and the
    dispatcher: the mode is already the thread's (nothing to swap), and ``get_ctx()``'s slot is
    set here as ``run_fake_impl`` would.
    """
    impl, name = fake_impl_of(op)
    if impl is not None:
        if hinting.active:
            return _run_fake_impl(mode, impl, name, args, {}), None
        prev = ctx_slot.ctx
        ctx_slot.ctx = (mode.shape_env, name)
        try:
            out = impl(*args)
        finally:
            ctx_slot.ctx = prev
        if out.__class__ is FakeTensor and out.fake_mode is mode:
            return out, None
        return _fakeify_outputs(out, _device_of(args, {}), mode, None), None
    out = _run(mode, op, args, {})
    return out, (entry_of(out) if cacheable(op) else None)


def fake_fallback(keyset, op, *args, **kwargs):
    """The boxed ``Fake`` fallback (see the module docstring): calls the core's cache cannot key."""
    mode = current_mode() or _mode_of(args)
    key = None
    foreign = _check_inputs(mode, args, kwargs)
    if foreign is not None:
        if foreign is not _Real:
            raise mixed_modes(op, foreign, mode)
        if not mode.allow_non_fake_inputs:
            raise refuse_real_input(op, args, kwargs)
        args = tuple(_convert_real(mode, a) for a in args)
        kwargs = {k: _convert_real(mode, v) for k, v in kwargs.items()}
    if cacheable(op):
        key = call_key(op, args, kwargs)
        if key is not None:
            entry = CACHE.get(key)
            if entry is not None:
                return from_entry(entry, mode)
    out = _run(mode, op, args, kwargs)
    if key is not None:
        entry = entry_of(out)
        if entry is not None:
            CACHE[key] = entry
    return out


# Note [Fake fallbacks]: an op with no fake impl of its own runs what torch's FakeTensorMode
# runs for it, in torch's order:
# 1. a custom_op without a fake impl: the fake impl torch derives (``trivial_fake_impl``: the out=
#    arguments of a Tag.out op, the first argument of a Tag.inplace op, None for a mutating op
#    returning nothing), else torch's "There was no fake impl registered" error;
# 2. an op whose output depends on the data (``data_dependent.RULES``: nonzero, masked_select,
#    boolean masks, ...): an unbacked size under a ShapeEnv, else DynamicOutputShapeException;
#    any other op tagged ``dynamic_output_shape`` raises it, one tagged ``data_dependent_output``
#    (``equal``, ``allclose``) DataDependentOutputException;
# 3. a constructor (no tensor argument, one Tensor result) of another namespace than torch's own:
#    its kernel below the mode, with ``device="meta"`` when it takes a device;
# 4. the Meta kernel (a CompositeExplicitAutograd kernel serves Meta too, as in torch);
# 5. no Meta kernel: the derived fake impl, else for a built-in op the real kernel on zeros of the
#    inputs' metadata (``allow_fallback_kernels``), else UnsupportedOperatorException.
def _run(mode, op, args, kwargs):
    name = op.name()
    impl = FAKE_IMPLS.get(name)
    if impl is not None:
        return _run_fake_impl(mode, impl, name, args, kwargs)
    if name in OPDEFS:
        trivial = trivial_fake_impl(op)
        if trivial is None:
            raise missing_fake_impl(name)
        return trivial(*args, **kwargs)
    rule = RULES.get(name)
    if rule is not None:
        out = rule(mode, op, *args, **kwargs)
        if out is not NotImplemented:
            return out
    else:
        data_tag = _data_tag(op)
        if data_tag == "dynamic_output_shape":
            raise dynamic_shape_refused(op)
        if data_tag == "data_dependent_output":
            raise data_dependent_refused(op)
    if not is_builtin(op) and _is_constructor(op):
        return _run_constructor(mode, op, args, kwargs)
    dev = _device_of(args, kwargs)
    if not _has_meta_kernel(name):
        return _without_meta(mode, op, args, kwargs)
    rb = readback_of(args, kwargs)
    if rb is None:
        return _fakeify_outputs(op.redispatch(_META_SET, *args, **kwargs), dev, mode, None)
    out = _fakeify_outputs(_run_hinted(op, tuple(hinted(a) for a in args),
                                       {k: hinted(v) for k, v in kwargs.items()}), dev, mode, rb)
    shift = perturbation_of(args, kwargs) if mode.shape_env is not None and not op._schema.is_mutable else None
    if shift:  # See Note [Perturbed run]
        check_outputs(lambda a, k: _run_hinted(op, a, k), out, args, kwargs, shift, rb.candidates,
                      mode.shape_env, name)
    return out


_data_tags = {}


def _data_tag(op):
    """``dynamic_output_shape`` or ``data_dependent_output`` when ``op`` carries that tag, else ""."""
    hit = _data_tags.get(op)
    if hit is None:
        names = {t.name for t in op.tags}
        hit = _data_tags[op] = next((t for t in ("dynamic_output_shape", "data_dependent_output") if t in names), "")
    return hit


_constructors = {}


def _is_constructor(op):
    """torch's ``_is_tensor_constructor``: no tensor argument and one plain ``Tensor`` result."""
    hit = _constructors.get(op)
    if hit is None:
        schema = op._schema
        hit = _constructors[op] = (not any("Tensor" in a.real_type for a in schema.arguments)
                                   and len(schema.returns) == 1 and schema.returns[0].real_type == "Tensor")
    return hit


def _run_constructor(mode, op, args, kwargs):
    """A constructor's own kernel below the mode: on the meta device when it takes ``device`` (then a
    fake tensor on the device asked for, CPU by default), else a real tensor whose metadata becomes
    the fake one's."""
    at = next((i for i, a in enumerate(op._schema.arguments)
               if a.name == "device" and a.real_type in ("Device", "Device?")), None)
    out_device = CPU
    if at is not None:
        args, kwargs = list(args), dict(kwargs)
        given = args[at] if at < len(args) else kwargs.get("device")
        if given is not None:
            out_device = given if isinstance(given, _core.device) else _core.device(given)
        if at < len(args):
            args[at] = META
        else:
            kwargs["device"] = META
    with _below_fake():
        r = op(*args, **kwargs)
    if not isinstance(r, Tensor):
        return r
    return _to_fake(r, out_device if r._dev is META else r._dev, mode, None)


class _below_fake:
    """Runs real kernels: the thread's mode is off and the ``Fake`` key excluded (torch's
    ``in_kernel_invocation_manager`` for constructors, ``no_dispatch`` for fallback kernels)."""

    def __enter__(self):
        self._guard = _core._KeyGuard(exclude=_FAKE)
        self._guard.__enter__()
        self._prev = _swap_mode(None)

    def __exit__(self, *exc):
        _swap_mode(self._prev)
        self._guard.__exit__(*exc)
        return False


def _without_meta(mode, op, args, kwargs):
    """No fake impl and no Meta kernel: the derived fake impl, else a built-in op's real kernel
    on zeros (``allow_fallback_kernels``), else torch's UnsupportedOperatorException."""
    trivial = trivial_fake_impl(op)
    if trivial is not None:
        return trivial(*args, **kwargs)
    name = op.name()
    if not (mode.allow_fallback_kernels and is_builtin(op)) or readback_of(args, kwargs) is not None:
        raise missing_fake_impl(name)
    try:  # what torch's fallback re-raises when it cannot help: the Meta key's own refusal
        op.redispatch(_META_SET, *args, **kwargs)
        refusal = missing_fake_impl(name)
    except NotImplementedError as e:
        refusal = e
    return _run_fallback_kernel(mode, op, args, kwargs, refusal)


def _run_fallback_kernel(mode, op, args, kwargs, refusal):
    """torch's ``run_fallback_kernel``: the real kernel on zeros shaped like the fake inputs; an
    output that is one of those stand-ins is its fake input; one sharing memory with them raises
    ``refusal`` (fake tensors cannot follow the aliasing)."""
    stand_ins = {}

    def real(a):
        if isinstance(a, FakeTensor):
            z = _factories.zeros(tuple(a.shape), dtype=a.dtype)
            stand_ins[id(z)] = (z, a)
            return z
        if isinstance(a, (list, tuple)):
            return type(a)(real(e) for e in a)
        return a

    with _below_fake():
        r = op(*[real(a) for a in args], **{k: real(v) for k, v in kwargs.items()})
    dev = _device_of(args, kwargs)
    buffers = [z._data for z, _ in stand_ins.values()]

    def back(o):
        if isinstance(o, Tensor):
            hit = stand_ins.get(id(o))
            if hit is not None and hit[0] is o:
                return hit[1]
            if any(np.shares_memory(o._data, b) for b in buffers):
                raise refusal
            return _to_fake(o, dev, mode, None)
        if isinstance(o, (list, tuple)):
            return type(o)(back(e) for e in o)
        return o
    return back(r)


def _run_fake_impl(mode, impl, name, args, kwargs):
    """The op's fake impl, with ``mode`` as the thread's mode and the symbols showing."""
    prev, prev_hinting = _swap_mode(mode), hinting.active
    if prev_hinting:
        hinting.active = False  # a fake impl sees the symbols, even inside a Meta kernel
    try:
        out = run_fake_impl(impl, name, mode.shape_env, args, kwargs)
    finally:
        _swap_mode(prev)
        if prev_hinting:
            hinting.active = True
    return _fakeify_outputs(out, _device_of(args, kwargs), mode, None)


def _run_hinted(op, args, kwargs):
    """The Meta kernel on int sizes, fake tensors showing their hints (See Note [Kernels see hints])."""
    prev_hinting, hinting.active = hinting.active, True
    try:
        return op.redispatch(_META_SET, *args, **kwargs)
    finally:
        hinting.active = prev_hinting


_meta_ok = {}


def _has_meta_kernel(name):
    """A Meta table entry serves this op: a Meta kernel, a fake impl or a decomposition."""
    hit = _meta_ok.get(name)
    if hit is None:
        rows = {key: reason for key, _, reason, _ in _core._table_entries(name)}
        hit = rows.get("Meta") in ("kernel", "math kernel", "default backend kernel")
        if hit:  # only positive answers are cached: a kernel may be registered later
            _meta_ok[name] = hit
    return hit


def _fakeify_outputs(out, dev, mode, rb):
    """Outputs as fake tensors on ``dev``; symbols read back when ``rb`` (a Readback) is given."""
    if isinstance(out, Tensor):
        return _to_fake(out, dev, mode, rb)
    if isinstance(out, (list, tuple)):
        return type(out)(_fakeify_outputs(o, dev, mode, rb) for o in out)
    if rb is not None and isinstance(out, int) and not isinstance(out, bool):
        return restore_scalar(out, rb)
    return out


def _to_fake(o, dev, mode, rb):
    """A Meta kernel's (or fake impl's) result as a fake tensor on ``dev``."""
    if isinstance(o, FakeTensor):
        if o.__class__ is not FakeTensor:
            o.__class__ = FakeTensor  # a view of a fake Parameter is a plain fake tensor, as in torch
        if rb is not None and o._sym_shape is None:
            restore_symbols(o, rb)
        if o.fake_mode is None:
            o.fake_mode = mode
        return o
    if o._dev is META and type(o) is Tensor:
        # A meta tensor (zero-stride data, layout in _meta_*): re-badge it in place.
        o.__class__ = FakeTensor
    else:
        # A real tensor (a fake impl computed data): keep only its metadata.
        o = make_fake(o._data.shape, o._data.dtype, dev, mode, o.stride(), o.storage_offset())
    o._dev = dev
    o._keyset = device_keys(dev) | FAKE_BIT
    o.fake_mode = mode
    if rb is not None:
        restore_symbols(o, rb)
    return o


def _device_of(args, kwargs):
    dev = kwargs.get("device")
    if dev is not None:
        return dev if isinstance(dev, _core.device) else _core.device(dev)
    for a in args:
        if isinstance(a, FakeTensor):
            return a._dev
        if isinstance(a, (list, tuple)):
            for e in a:
                if isinstance(e, FakeTensor):
                    return e._dev
    for a in kwargs.values():
        if isinstance(a, FakeTensor):
            return a._dev
    for a in args:
        if isinstance(a, _core.device):
            return a
    return CPU


_lib = KernelLibrary("_", "IMPL")
# The core keys and serves cached calls, and hands the rest to the two functions above; with the fast
# paths off, ``fake_fallback`` serves every call (Note [Fast paths and general paths], hooks.rs).
FAKE_FALLBACK = _core.FakeFallback(fake_fallback, _miss, FakeTensor, np.ndarray) if _core.FAST_PATHS else None
_lib.fallback(FAKE_FALLBACK or fake_fallback, "Fake", with_keyset=True)


def _forget_cached():
    """``Hooks.fake_impls_changed``: an op gained or lost its fake impl, so whether it may be cached,
    and what was, is stale."""
    forget()
    if FAKE_FALLBACK is not None:
        FAKE_FALLBACK.cache_clear()


from .._exports import public_dir

__dir__ = public_dir(globals())
