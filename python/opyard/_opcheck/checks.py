"""The checks behind ``opcheck``, with torch's semantics and messages.

Each takes ``(op, args, kwargs)`` for one ``OpOverload`` and raises on a
mistake. They do not copy or filter their inputs: ``opcheck`` does (see
``opcheck/__init__.py``), so that ``generate_opcheck_tests`` can run them on the
arguments a test passed.

- :func:`schema_check` (torch's SchemaCheckMode): undeclared mutation,
  undeclared aliasing of an input, outputs aliasing each other.
- :func:`autograd_registration_check`: an output requires grad although the
  op has no autograd kernel (an autograd formula registered at a backend key).
- :func:`fake_check` (torch's CrossRefFakeMode): the fake impl agrees with the
  kernel on every output's metadata.
"""

import numpy as np

from .._keys import AUTOGRAD_OF_BACKEND, BACKEND_OF_DEVICE
from .._library._opdefs import OPDEFS
from .._library.fake_impl import FAKE_IMPLS
from .._library.register import _has_kernel
from .._tensor import Tensor
from ..dispatcher import DispatchKeySet
from ..fake import FakeTensorMode

__all__ = ["schema_check", "autograd_registration_check", "fake_check", "flat_tensors", "is_custom_op",
           "has_kernel"]


def flat_tensors(x):
    """The tensors in ``x`` (nested lists, tuples and dict values), in order."""
    if isinstance(x, Tensor):
        yield x
    elif isinstance(x, (list, tuple)):
        for e in x:
            yield from flat_tensors(e)
    elif isinstance(x, dict):
        for e in x.values():
            yield from flat_tensors(e)


def is_custom_op(op):
    return op.name().split(".")[0] in OPDEFS


def has_kernel(op, key):
    return _has_kernel(op.name(), key)


# --- test_schema ------------------------------------------------------------------------------

def _overlaps(a, b):
    if not isinstance(a, Tensor) or not isinstance(b, Tensor):
        return False  # torch: "Cannot inspect value of type ..." counts as no aliasing
    if a is b:
        return True
    da, db = a._data, b._data
    return da.size > 0 and db.size > 0 and np.shares_memory(da, db)


def _alias_sets(info):
    return set() if info is None else set(info.before_set) | set(info.after_set)


def _may_alias(x, y):
    """Whether two schema alias annotations may refer to the same memory (a shared set or a wildcard)."""
    sx, sy = _alias_sets(x), _alias_sets(y)
    return bool(sx & sy) or (bool(sx) and bool(sy) and ("*" in sx or "*" in sy))


def _bound(schema, args, kwargs):
    """``[(argument, value)]`` for every schema argument that was given (defaults are not needed)."""
    out = []
    for i, a in enumerate(schema.arguments):
        if not a.kwarg_only and i < len(args):
            out.append((a, args[i]))
        elif a.name in kwargs:
            out.append((a, kwargs[a.name]))
    return out


def _snapshot(value):
    return [(np.array(t._data, copy=True), tuple(t.shape), t.stride()) for t in flat_tensors(value)]


def _mutated(before, value):
    for (data, shape, stride), t in zip(before, flat_tensors(value)):
        if tuple(t.shape) != shape or t.stride() != stride:
            return True
        if not np.array_equal(data, t._data, equal_nan=data.dtype.kind in "fc"):
            return True
    return False


def schema_check(op, args, kwargs):
    """torch's SchemaCheckMode on one call: raises the first schema violation."""
    schema = op._schema
    bound = _bound(schema, args, kwargs)
    before = [_snapshot(v) for _, v in bound]
    out = op(*args, **kwargs)
    outs = out if isinstance(out, tuple) else (out,)
    for (arg, value), snap in zip(bound, before):
        name = arg.name if arg.name != "self" else "input"
        if value is None:
            continue
        for j, o in enumerate(outs):
            ret = schema.returns[j].alias_info if j < len(schema.returns) else None
            if _overlaps(o, value):
                if not _may_alias(ret, arg.alias_info):
                    raise RuntimeError(f"Argument {name} is not defined to alias output but was aliasing")
                if o is value and not (arg.alias_info is not None and arg.alias_info.is_write):
                    raise RuntimeError("Dispatcher operators below autograd are not allowed to directly "
                                       f"return inputs.\nHowever, we found that `outputs[{j}] is {name}")
        if snap and _mutated(snap, value) and not (arg.alias_info is not None and arg.alias_info.is_write):
            raise RuntimeError(f"Argument {name} is not defined as mutable but was mutated")
    n = len(schema.returns)
    for i in range(n):
        for j in range(i + 1, n):
            if _overlaps(outs[i], outs[j]) and not _may_alias(schema.returns[i].alias_info,
                                                               schema.returns[j].alias_info):
                raise RuntimeError(f"Outputs {i} and {j} alias unexpectedly")
    return out


# --- test_autograd_registration ---------------------------------------------------------------

# The device types torch's check supports; their keys come from the core's device table.
_CHECKED_DEVICES = ("cpu", "cuda", "xpu")


def autograd_registration_check(op, args, kwargs):
    """torch's ``autograd_registration_check``: needs an input that requires grad.

    Runs the op's backend kernel directly (torch's autograd fallback mode "nothing"): if an
    output that is not an input then requires grad, the kernel did autograd itself, which
    belongs at an Autograd key.
    """
    tensors = list(flat_tensors(args)) + list(flat_tensors(kwargs))
    if not any(t.requires_grad for t in tensors):
        raise RuntimeError("autograd_registration_check: no inputs have requires_grad=True so we are unable to "
                           "actually perform this test. Please pass inputs that do require grad.")
    devices = {t.device.type for t in tensors}
    if not devices <= set(_CHECKED_DEVICES):
        raise NotImplementedError(
            f"autograd_registration_check: NYI devices other than CPU/CUDA/XPU, got {devices}")
    device = "cuda" if "cuda" in devices else "cpu" if "cpu" in devices else "xpu"
    if is_custom_op(op):
        return  # custom_op always has an autograd kernel (it raises at backward without a formula)
    backend = BACKEND_OF_DEVICE[device]
    if any(has_kernel(op, key) for key in (AUTOGRAD_OF_BACKEND[backend].name, "Autograd", "CompositeImplicitAutograd")):
        return
    outs = op.redispatch(DispatchKeySet(backend), *args, **kwargs)
    inputs = {id(t) for t in tensors}
    if any(o.requires_grad and id(o) not in inputs for o in flat_tensors(outs)):
        raise AssertionError(
            f"{op.name()}: at least one output of this operator has requires_grad=True but the operator does "
            "not have an autograd kernel defined at an autograd key (e.g. DispatchKey::Autograd). This could "
            "mean that you have incorrectly registered an autograd kernel to a non-Autograd DispatchKey, which "
            "may lead to silently incorrect results. If your operator consists of regular PyTorch operations, "
            "consider not using an operator at all or registering your operator as CompositeImplicitAutograd. "
            "If you have an autograd.Function registered to a backend (CPU/CUDA/XPU) key, the correct location "
            "for it is the Autograd key.")


# --- test_faketensor --------------------------------------------------------------------------

def _significant_stride_mismatch(r, f):
    for i, n in enumerate(r.shape):
        if n > 1 and r.stride(i) != f.stride(i):
            return i
    return None


def _compare_meta(r, f):
    """torch's ``_check_fake_real_tensors(real, fake)``: the first difference, or None."""
    if r.requires_grad != f.requires_grad:
        # torch words it with an empty context, hence the leading space.
        return (" mismatched requires_grad-ness of outputs. This usually means that you have added autograd "
                "support for your operator at a dispatch key other than Autograd, which will lead to problems")
    if r.storage_offset() != f.storage_offset():
        return " mismatched storage offset"
    if getattr(f, "_sym_shape", None) is None:
        if tuple(r.shape) != tuple(f.shape):
            return f"Shapes {r.shape} and {f.shape} are not equal!"
        if r.numel() > 0:
            i = _significant_stride_mismatch(r, f)
            if i is not None:
                return f"Stride mismatch! Strides are {r.stride()} and {f.stride()} (mismatched at {i})!"
    if r.dtype != f.dtype:
        return f"Dtypes {r.dtype} and {f.dtype} are not equal!"
    if r.device != f.device:
        return f"Devices {r.device} and {f.device} are not equal!"
    return None


def _fakeify(mode, x):
    if isinstance(x, Tensor):
        return mode.from_tensor(x)
    if isinstance(x, (list, tuple)):
        return type(x)(_fakeify(mode, e) for e in x)
    if isinstance(x, dict):
        return {k: _fakeify(mode, v) for k, v in x.items()}
    return x


def _fake_run(op, args, kwargs):
    if is_custom_op(op) and op.name() not in FAKE_IMPLS and not has_kernel(op, "Meta"):
        name = op.name().split(".")[0]
        raise RuntimeError(
            f"There was no fake impl registered for <CustomOpDef({name})>. This is necessary for "
            "fake tensors and opyard.fx.make_fx tracing to work. Please use "
            f"`{name.split('::')[1]}.register_fake` to add an fake impl.")
    mode = FakeTensorMode()
    with mode:
        return op(*_fakeify(mode, args), **_fakeify(mode, kwargs))


def fake_check(op, args, kwargs):
    """torch's CrossRefFakeMode on one call: the fake outputs' metadata equals the real ones'."""
    fake = _fake_run(op, args, kwargs)
    real = op(*args, **kwargs)
    context = f"When comparing the output of {op} on FakeTensor and concrete Tensors, found"
    r_flat = list(_leaves(real))
    f_flat = list(_leaves(fake))
    if len(f_flat) != len(r_flat):
        raise AssertionError(f"{context} mismatch in number of returns {len(f_flat)} != {len(r_flat)}")
    for idx, (r, f) in enumerate(zip(r_flat, f_flat)):
        if isinstance(r, Tensor) != isinstance(f, Tensor):
            raise AssertionError(f"{context} mismatched number of tensor outputs")
        if isinstance(r, Tensor):
            problem = _compare_meta(r, f)
            if problem is not None:
                where = "" if len(r_flat) == 1 else f" for output[{idx}]"
                raise RuntimeError(f"{context} mismatched tensor metadata{where}: {problem}")
    return real


def _leaves(x):
    if isinstance(x, (list, tuple)):
        for e in x:
            yield from _leaves(e)
    else:
        yield x
