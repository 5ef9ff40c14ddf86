"""``opyard.func.vmap``: map a function over a batch dimension.

Operators with a vmap rule (``register_vmap``) called directly under ``vmap``
run the rule once on the whole batch; everything else runs per example and
the results are stacked (torch's slow fallback, always correct).
"""

import functools

__all__ = ["vmap", "register_vmap_rule"]

_RULES = {}  # "ns::op.overload" -> rule(info, in_dims, *args, **kwargs) -> (out, out_dims)


class VmapInfo:
    def __init__(self, batch_size, randomness="error"):
        self.batch_size = batch_size
        self.randomness = randomness


def register_vmap_rule(lib, overload, rule):
    import weakref

    name = overload.name()
    _RULES[name] = rule
    weakref.finalize(lib, _RULES.pop, name, None)


def _batch_size(args, in_dims):
    sizes = {a.shape[d] for a, d in zip(args, in_dims) if d is not None and hasattr(a, "shape")}
    if len(sizes) != 1:
        raise ValueError(f"vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sorted(sizes)} for the mapped dimension" if sizes else
                         "vmap: at least one input must be mapped (in_dims all None)")
    return sizes.pop()


def vmap(func, in_dims=0, out_dims=0, randomness="error", *, chunk_size=None):
    """``vmap(f)(xs)`` == ``stack([f(x) for x in xs])``, using ``f``'s vmap rule when it has one."""
    import opyard

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        dims = tuple(in_dims) if isinstance(in_dims, (list, tuple)) else (in_dims,) * len(args)
        if len(dims) != len(args):
            raise ValueError(f"vmap: in_dims is not compatible with the structure of `inputs`: {len(dims)} "
                             f"in_dims for {len(args)} inputs")
        n = _batch_size(args, dims)
        name = getattr(getattr(func, "_opoverload", func), "name", lambda: None)()
        rule = _RULES.get(name) if name else None
        if rule is not None:
            out, odims = rule(VmapInfo(n, randomness), dims, *args, **kwargs)
            return _move(out, odims, out_dims)
        results = []
        for i in range(n):
            sliced = [a.select(d, i) if d is not None else a for a, d in zip(args, dims)]
            results.append(func(*sliced, **kwargs))
        first = results[0]
        if isinstance(first, tuple):
            od = out_dims if isinstance(out_dims, (list, tuple)) else (out_dims,) * len(first)
            return tuple(opyard.stack([r[j] for r in results], od[j]) for j in range(len(first)))
        return opyard.stack(results, out_dims)

    return wrapped


def _move(out, have, want):
    if isinstance(out, tuple):
        have = have if isinstance(have, (list, tuple)) else (have,) * len(out)
        want = want if isinstance(want, (list, tuple)) else (want,) * len(out)
        return tuple(_move(o, h, w) for o, h, w in zip(out, have, want))
    if have is None or have == want:
        return out
    return out.movedim(have, want) if hasattr(out, "movedim") else _movedim(out, have, want)


def _movedim(t, src, dst):
    perm = list(range(t.dim()))
    perm.pop(src)
    perm.insert(dst if dst >= 0 else t.dim() + dst, src)
    return t.permute(perm)
