"""``functional_call(module, params_and_buffers, args, kwargs=None)``: run a module with other tensors in
place of its parameters and buffers (torch.func's), so transforms can differentiate with respect to them.

The module's own tensors are swapped out for the call and restored afterwards, even on error. Modules
are used through their ``_parameters`` / ``_buffers`` / ``_modules`` stores (``opyard.nn`` sits above
this layer).
"""

from contextlib import contextmanager

from .rules.common import aten

__all__ = ["functional_call", "stack_module_state"]


def _owner(module, path):
    """(submodule, store dict, name) holding the tensor named ``path`` ("layer.0.weight")."""
    *parents, name = path.split(".")
    m = module
    for p in parents:
        sub = m.__dict__.get("_modules", {}).get(p)
        if sub is None:
            raise AttributeError(f"functional_call: {type(m).__name__} has no submodule {p!r} (in {path!r})")
        m = sub
    for store in ("_parameters", "_buffers"):
        d = m.__dict__.get(store, {})
        if name in d:
            return d, name
    raise AttributeError(f"functional_call: {type(m).__name__} has no parameter or buffer {name!r} (in "
                         f"{path!r}); its tensors are {sorted(_names(module))[:20]}")


def _names(module, prefix=""):
    out = []
    for store in ("_parameters", "_buffers"):
        out += [prefix + n for n in module.__dict__.get(store, {})]
    for n, sub in module.__dict__.get("_modules", {}).items():
        if sub is not None:
            out += _names(sub, f"{prefix}{n}.")
    return out


@contextmanager
def _swapped(module, tensors):
    saved = []
    try:
        for path, value in tensors.items():
            d, name = _owner(module, path)
            saved.append((d, name, d[name]))
            d[name] = value
        yield
    finally:
        for d, name, old in reversed(saved):
            d[name] = old


def functional_call(module, parameter_and_buffer_dicts, args=None, kwargs=None, *, tie_weights=True,
                    strict=False):
    """``module(*args, **kwargs)`` with the tensors of ``parameter_and_buffer_dicts`` in place.

    Example::

        >>> params = {k: v.detach() for k, v in model.named_parameters()}
        >>> grads = opyard.func.grad(lambda p, x: functional_call(model, p, (x,)).sum())(params, x)
    """
    dicts = parameter_and_buffer_dicts
    if isinstance(dicts, (list, tuple)):
        merged = {}
        for d in dicts:
            dup = set(merged) & set(d)
            if dup:
                raise ValueError(f"{sorted(dup)} appeared in multiple dictionaries; behavior of "
                                 "functional call is ambiguous")
            merged.update(d)
        dicts = merged
    if not isinstance(dicts, dict):
        raise TypeError(f"Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of dicts, but got "
                        f"{type(dicts)}")
    if strict:
        missing = sorted(set(_names(module)) - set(dicts))
        if missing:
            raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}: Missing key(s): "
                               f"{', '.join(repr(k) for k in missing)}.")
    if args is None:  # torch's default: no positional argument
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _swapped(module, dicts):
        return module(*args, **(kwargs or {}))


def stack_module_state(models):
    """``(params, buffers)``: each parameter and buffer of ``models`` (modules of one class) stacked along a
    new dim 0, by name, for ensembling with ``vmap`` over ``functional_call`` (torch.func's).

    The stacked parameters are new leaves (they require grad when the models' parameters do), unrelated to
    the models' own tensors, so an optimizer can take them.

    Example::

        >>> params, buffers = opyard.func.stack_module_state(models)
        >>> vmap(lambda p, b, x: functional_call(models[0], (p, b), (x,)), in_dims=(0, 0, None))(params, buffers, x)
    """
    if len(models) == 0:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if not (all(m.training for m in models) or all(not m.training for m in models)):
        raise RuntimeError("stack_module_state: Expected all models to have the same training/eval mode.")
    cls = type(models[0])
    if not all(type(m) is cls for m in models):
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf([p[k] for p in all_params], k) for k in all_params[0]}
    buffers = {k: _stacked_leaf([b[k] for b in all_buffers], k) for k in all_buffers[0]}
    return params, buffers


def _stacked_leaf(tensors, name):
    grads = [t.requires_grad for t in tensors]
    if any(grads) and not all(grads):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    out = _stack(tensors)
    return out.detach().requires_grad_() if all(grads) else out


_stack = aten("stack")

from .._exports import public_dir

__dir__ = public_dir(globals())
