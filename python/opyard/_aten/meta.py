"""Meta kernels: shape, dtype and device of the result, without computing data.

Note [Meta strategies]: a meta tensor's ``_data`` is a zero-stride broadcast
array (see Note [Tensor layout]), so
- views run their CPU kernel unchanged: numpy view operations only touch metadata;
- pointwise ops run their CPU kernel on 0-d stand-ins (for torch's result
  dtype) and broadcast the shapes;
- reductions run their CPU kernel on a stand-in whose every dimension has
  size 2, which tells which dimensions survive;
- everything else runs on small stand-ins built from the shape rule of the op,
  or (matrix products, indexing, concatenation) on zero-filled stand-ins of
  the real shape, whose result is immediately reduced to its metadata.
"""

import numpy as np

from .. import _dtype as D
from .._tensor import Tensor, _make, _make_meta
from .common import check_same_device

__all__ = ["pointwise", "inplace", "reduction", "view", "proxy", "like", "data_dependent"]


def _tensors(args, kwargs):
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, Tensor):
            yield a
        elif isinstance(a, (list, tuple)):
            yield from (x for x in a if isinstance(x, Tensor))


def _to_meta(result):
    if isinstance(result, Tensor):
        return _make_meta(result._data.shape, D.FROM_NP[result._data.dtype])
    if isinstance(result, (list, tuple)):
        return type(result)(_to_meta(r) for r in result)
    return result


def _stand_in(x, shape_fn):
    if isinstance(x, Tensor):
        return _make(np.zeros(shape_fn(x._data.shape), dtype=x._data.dtype))
    if isinstance(x, (list, tuple)) and any(isinstance(e, Tensor) for e in x):
        return type(x)(_stand_in(e, shape_fn) for e in x)
    return x


def _call_on(kernel, args, kwargs, shape_fn):
    a = [_stand_in(x, shape_fn) for x in args]
    k = {n: _stand_in(v, shape_fn) for n, v in kwargs.items()}
    return kernel(*a, **k)


def pointwise(kernel, name):
    def meta(*args, **kwargs):
        ts = list(_tensors(args, kwargs))
        check_same_device(name, *ts)
        shape = np.broadcast_shapes(*(t._data.shape for t in ts))
        r = _call_on(kernel, args, kwargs, lambda s: ())
        if isinstance(r, Tensor):
            return _make_meta(shape, D.FROM_NP[r._data.dtype])
        return r
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def inplace(kernel, name):
    base = pointwise(kernel, name)

    def meta(self, *args, **kwargs):
        r = base(self, *args, **kwargs)
        if isinstance(r, Tensor) and np.broadcast_shapes(r._data.shape, self._data.shape) != self._data.shape:
            raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                               f"{list(r._data.shape)} ({name})")
        self._bump_version()
        return self
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def reduction(kernel, name):
    def meta(self, *args, **kwargs):
        shape = self._data.shape
        # Dimension i of the stand-in has size i + 2: surviving sizes name their dimension.
        r = _call_on(kernel, (self,) + args, kwargs, lambda s: tuple(i + 2 for i in range(len(s))))

        def fix(t):
            if not isinstance(t, Tensor):
                return t
            real = tuple(shape[s - 2] if s >= 2 else 1 for s in t._data.shape)
            return _make_meta(real, D.FROM_NP[t._data.dtype])
        return tuple(fix(t) for t in r) if isinstance(r, tuple) else fix(r)
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def view(kernel, name):
    """Views only transform metadata: the CPU kernel is the meta kernel."""
    return kernel


def proxy(kernel, name):
    def meta(*args, **kwargs):
        check_same_device(name, *_tensors(args, kwargs))
        return _to_meta(_call_on(kernel, args, kwargs, lambda s: s))
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def like(kernel, name):
    """``*_like`` / ``new_*``: the requested (or the input's) shape and dtype, on the meta device."""
    creates_new_shape = name.startswith("aten::new_")

    def meta(self, *args, dtype=None, **kwargs):
        shape = args[0] if creates_new_shape else self._data.shape
        return _make_meta(tuple(int(s) for s in shape), dtype if dtype is not None else D.FROM_NP[self._data.dtype])
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta


def data_dependent(kernel, name):
    def meta(*args, **kwargs):
        raise NotImplementedError(
            f"{name}: the output shape depends on the input data, which meta tensors do not have; "
            "under FakeTensorMode register a fake impl that uses ctx.new_dynamic_size()"
        )
    meta.__name__ = f"meta_{kernel.__name__}"
    return meta
