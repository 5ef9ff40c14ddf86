"""Real tensors to fake ones: ``FakeTensorMode.from_tensor``, fresh tensors, and refusing real inputs.

``from_tensor(t)`` keeps what torch's meta-conversion keeps: shape, dtype,
strides, storage offset, device, ``requires_grad``, the tensor's plain Python
subclass (so a fake ``Parameter`` is still ``isinstance(p, nn.Parameter)``),
and storage sharing: the fake of a view views the fake of its base, so two
views of one base share one fake storage (``_base``, ``untyped_storage()``).
Under a ``ShapeEnv`` (``static_shapes=False``) the sizes become backed symbols
named after their source (``input0.size()[1]``; See Note [Backed symbols]).
"""

import math

from .._library._opdefs import OPDEFS, no_fake_impl_message
from .._tensor import Tensor, _retype
from .tensor import FakeTensor, make_fake, remember_item

__all__ = ["fake_of", "fake_class", "NonFakeInputError", "MixedFakeModesError", "UnsupportedOperatorException",
           "refuse_real_input", "missing_fake_impl", "mixed_modes"]


class NonFakeInputError(AssertionError, RuntimeError):
    """A real tensor reached an op under a strict FakeTensorMode.

    torch raises an ``AssertionError`` here; opyard's fake-data errors are
    ``RuntimeError``\\ s: this is both, so either ``except`` catches it.
    """


class MixedFakeModesError(AssertionError, RuntimeError):
    """An op got fake tensors of two FakeTensorModes (torch: an ``AssertionError``, "Mixing fake modes NYI")."""


def mixed_modes(op, fake, mode):
    return MixedFakeModesError(
        f"Mixing fake modes NYI: {dotted(op.name())} got a fake tensor of size {tuple(fake.shape)} made by "
        f"{fake.fake_mode!r} while running under {mode!r}; make every fake tensor of a program with one "
        "FakeTensorMode (its from_tensor converts real tensors)")


class UnsupportedOperatorException(NotImplementedError):
    """An op FakeTensorMode cannot run: no fake impl and no Meta kernel (torch's exception name;
    a ``RuntimeError``, as there, and a ``NotImplementedError``, as opyard's "no kernel" errors)."""


def dotted(name):
    """``ns::op.overload`` as torch prints an OpOverload in fake-tensor errors: ``ns.op.overload``."""
    ns, _, rest = name.partition("::")
    op, _, overload = rest.partition(".")
    return f"{ns}.{op}.{overload or 'default'}"


def missing_fake_impl(name):
    """torch's error for an op with no fake impl under FakeTensorMode (custom_op's text for its ops)."""
    qualname = name.split(".")[0]
    opdef = OPDEFS.get(qualname)
    if opdef is not None:
        return RuntimeError(no_fake_impl_message(opdef))
    return UnsupportedOperatorException(
        f"{dotted(name)}: it has no fake impl and no Meta kernel, so FakeTensorMode cannot run it on tensors "
        f"without data; use opyard.library.register_fake(\"{qualname}\") to say what it returns")


def fake_of(mode, t, *, static_shapes, source=None, memo=True):
    """The fake tensor standing for the real tensor ``t`` in ``mode`` (memoized per tensor)."""
    if memo:
        hit = mode._memo.get(id(t))
        if hit is not None and hit[0] is t:
            return hit[1]
    base = t._base
    fake_base = fake_of(mode, base, static_shapes=static_shapes) if base is not None and memo else None
    shape = t._data.shape
    env = mode.shape_env
    if not static_shapes and env is not None:
        if source is None:  # torch's name for a tensor converted without a source
            source = f"__meta_utils_unknown_tensor{len(mode._memo)}"
        shape = tuple(env.create_symbol(int(n), f"{source}.size()[{d}]") for d, n in enumerate(shape))
    fake = make_fake(shape, t._data.dtype, t._dev, mode, t.stride(), t.storage_offset())
    cls = fake_class(type(t))
    if cls is not FakeTensor:
        fake = _retype(fake, cls)  # a Parameter's class has a __dict__: a new object, not a swap
    if fake_base is not None:
        fake._base = fake_base
        fake._vc = fake_base._counter()
    if t.requires_grad:
        fake.requires_grad = True
    if env is None and source is None and not shape and t._dev.type == "cpu" and type(t) is Tensor \
            and t._data.dtype.name in _VALUE_KEPT:
        # As torch (for a FakeTensorMode used by hand, without a ShapeEnv): the value of a plain
        # 0-d CPU tensor of these dtypes is kept, so ``item()`` of its fake gives it.
        value = t._data.item()
        if not math.isnan(value) and not math.isinf(value):
            remember_item(fake, value)
    if memo:
        mode._memo[id(t)] = (t, fake)
    return fake


_VALUE_KEPT = frozenset({"int64", "int32", "int16", "int8", "float64"})


_FAKE_CLASSES = {}
_DISPATCH_HOOKS = ("__opyard_dispatch__", "__torch_dispatch__")


def fake_class(cls):
    """The class of the fake of a ``cls`` tensor: FakeTensor, mixed with ``cls`` when it is a
    plain Python subclass (one that does not take over dispatch), e.g. ``nn.Parameter``."""
    if cls is Tensor or issubclass(cls, FakeTensor):
        return FakeTensor
    hit = _FAKE_CLASSES.get(cls)
    if hit is None:
        plain = not any(name in vars(c) for c in cls.__mro__ if c is not Tensor and issubclass(c, Tensor)
                        for name in _DISPATCH_HOOKS)
        if not plain:
            hit = FakeTensor
        else:
            def __repr__(self):
                return f"{cls.__name__}({FakeTensor.__repr__(self)})"
            hit = type(f"Fake{cls.__name__}", (FakeTensor, cls),
                       {"__repr__": __repr__, "__str__": __repr__, "__module__": __name__,
                        "_fake_of_subclass": cls})
        _FAKE_CLASSES[cls] = hit
    return hit


def refuse_real_input(op, args, kwargs):
    """torch's error for a real tensor among the arguments of a strict FakeTensorMode's op."""
    shown = [_show(a) for a in args] + [f"{k}={_show(v)}" for k, v in kwargs.items()]
    call = f"{dotted(op.name())}({', '.join(shown)})"
    if len(call) > 200:
        call = call[:197] + "..."
    return NonFakeInputError(
        "Please convert all Tensors to FakeTensors first or instantiate FakeTensorMode with "
        f"'allow_non_fake_inputs'. Found in {call}")


def _show(a):
    if isinstance(a, Tensor):
        size = tuple(a.shape)
        extra = "" if a.dtype.name == "float32" else f", dtype=opyard.{a.dtype.name}"
        if isinstance(a, FakeTensor):
            dev = "" if a._dev.type == "cpu" else f"device='{a._dev}', "
            return f"FakeTensor(..., {dev}size={size}{extra})"
        return f"tensor([...], size={size}{extra})"
    if isinstance(a, (list, tuple)):
        inner = ", ".join(_show(e) for e in a)
        return f"[{inner}]" if isinstance(a, list) else f"({inner})"
    return repr(a)[:40]

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
