"""What ``FakeTensorMode`` does with operators whose output depends on the data: torch's rules.

A fake tensor has no data, so an operator whose output *shape* depends on it (``nonzero``,
``masked_select``, boolean-mask indexing, ``repeat_interleave(repeats)``, ``unique``, ``bincount``,
...) gets a fresh
unbacked size ``u<k>`` when the mode has a ``ShapeEnv`` that allows dynamic output shapes,
and raises ``DynamicOutputShapeException`` otherwise; a scalar read (``item()``, ``tolist()``,
``int(t)``, ``aten._local_scalar_dense``) gets a fresh unbacked ``SymInt``/``SymFloat``/
``SymBool`` under a ``ShapeEnv`` that allows scalar outputs, and raises
``DataDependentOutputException`` otherwise (``FakeTensor.item``, in ``tensor.py``). As
torch's ``fake_impls`` do, the size of ``nonzero`` and the value of ``item()`` are
remembered per tensor until it is modified, so asking twice gives the same symbol.

``RULES`` maps an operator name to its rule ``rule(mode, op, *args, **kwargs)``; the other
operators tagged ``dynamic_output_shape`` raise (``dynamic_shape_refused``).
"""

from .. import _dtype as D
from .._tensor import Tensor
from .symbolic import DynamicOutputShapeException, SymInt
from .memo import TensorMemo
from .tensor import DataDependentOutputException, make_fake, scalar_of

__all__ = ["RULES", "dynamic_shape_refused", "data_dependent_refused"]


def _dotted(op):
    ns, _, rest = op.name().partition("::")
    name, _, overload = rest.partition(".")
    return f"{ns}.{name}.{overload or 'default'}"


def dynamic_shape_refused(op, why=None):
    """torch's exception for an output shape that depends on data no ShapeEnv may stand for."""
    fix = why or ("its output shape depends on the input data: run under FakeTensorMode(shape_env=ShapeEnv()) "
                  "(allow_dynamic_output_shape_ops=True) for an unbacked size, or on real tensors")
    return DynamicOutputShapeException(f"{_dotted(op)}: {fix}")


def data_dependent_refused(op):
    """torch's exception for an operator whose result is data (``equal``, ``allclose``)."""
    return DataDependentOutputException(f"{_dotted(op)}: its result is data, which a fake tensor does not have; run "
                                        "it on real tensors")


def _allows_dynamic(mode):
    env = mode.shape_env
    return env is not None and env.allow_dynamic_output_shape_ops


_NONZERO = TensorMemo()


def _numel(t):
    n = 1
    for s in t.shape:
        n = n * s
    return n


def _new_size(mode, t):
    """A fresh unbacked size for the number of selected elements of ``t`` (0 when ``t`` is empty)."""
    n = _numel(t)
    if not isinstance(n, SymInt) and n == 0:
        return 0
    # torch bounds it by numel; the range stays open here, so that its hint never equals a
    # size of the program (See Note [Unbacked hints]).
    return mode.shape_env.create_unbacked_symint()


def _fake(mode, shape, dtype, dev, strides=None):
    t = make_fake(tuple(shape), dtype.np, dev, mode, strides)
    if strides is not None and any(isinstance(s, SymInt) for s in shape):
        t._sym_strides = tuple(strides)
    return t


def nonzero(mode, op, self):
    """``(nnz, self.dim())`` int64 indices, strides ``(1, nnz)`` (column-major, as torch's kernel)."""
    if not _allows_dynamic(mode):
        raise dynamic_shape_refused(op)
    nnz = _NONZERO.get(self)
    if nnz is None:
        nnz = _NONZERO.put(self, _new_size(mode, self))
    return _fake(mode, (nnz, self.dim()), D.int64, self._dev, (1, nnz))


def argwhere(mode, op, self):
    # torch's argwhere is nonzero (it decomposes), so the error names nonzero.
    from .._ops import ops

    return nonzero(mode, ops.aten.nonzero.default, self)


def masked_select(mode, op, self, mask):
    if not _allows_dynamic(mode):
        raise dynamic_shape_refused(op)
    return _fake(mode, (_new_size(mode, self),), self.dtype, self._dev)


def repeat_interleave_tensor(mode, op, repeats, *, output_size=None):
    if output_size is None:
        if not _allows_dynamic(mode):
            raise dynamic_shape_refused(op)
        output_size = mode.shape_env.create_unbacked_symint()
    return _fake(mode, (output_size,), repeats.dtype, repeats._dev)


def index_tensor(mode, op, self, indices):
    """Boolean masks select data-dependent positions: each becomes the ``nonzero`` columns it
    stands for (as torch's meta kernel expands them), then the op runs on those index tensors."""
    from .._ops import ops

    if not any(isinstance(i, Tensor) and i.dtype in (D.bool, D.uint8) for i in indices):
        return NotImplemented
    expanded = []
    for i in indices:
        if isinstance(i, Tensor) and i.dtype in (D.bool, D.uint8):
            cols = nonzero(mode, ops.aten.nonzero.default, i)
            nnz = cols.shape[0]
            expanded.extend(_fake(mode, (nnz,), D.int64, i._dev) for _ in range(i.dim()))
        else:
            expanded.append(i)
    return ops.aten.index.Tensor(self, expanded)


_UNIQUE = TensorMemo()
_UNIQUE_CONSECUTIVE = TensorMemo()


def _contiguous(shape):
    strides, step = [], 1
    for n in reversed(shape):
        strides.append(step)
        step = step * n
    return tuple(reversed(strides))


def _unique(mode, op, self, dim, return_inverse, return_counts, consecutive=False):
    """torch's fake ``unique``: an unbacked count of distinct values (of distinct slices along ``dim``),
    remembered per tensor for the flat forms; inverse and counts when asked (always over a dim, as
    torch's CPU kernel computes them)."""
    if not _allows_dynamic(mode):
        raise dynamic_shape_refused(op)
    memo = _UNIQUE_CONSECUTIVE if consecutive else _UNIQUE
    nnz = memo.get(self) if dim is None else None
    if nnz is None:
        if dim is not None:
            dim = dim % max(self.dim(), 1)
        nnz = _new_size(mode, self) if dim is None else (
            0 if not isinstance(self.shape[dim], SymInt) and self.shape[dim] == 0
            else mode.shape_env.create_unbacked_symint())
        if dim is None:
            memo.put(self, nnz)
    shape = (nnz,) if dim is None else tuple(self.shape[:dim]) + (nnz,) + tuple(self.shape[dim + 1:])
    dev = self._dev
    values = _fake(mode, shape, self.dtype, dev, _contiguous(shape))
    over_dim = dim is not None
    inverse = _fake(mode, (tuple(self.shape) if dim is None else (self.shape[dim],))
                    if return_inverse or over_dim else (0,), D.int64, dev)
    counts = _fake(mode, (nnz,) if return_counts or over_dim else (0,), D.int64, dev, (1,))
    return values, inverse, counts


def unique2(mode, op, self, sorted=True, return_inverse=False, return_counts=False):
    return _unique(mode, op, self, None, return_inverse, return_counts)


def unique(mode, op, self, sorted=True, return_inverse=False):
    return _unique(mode, op, self, None, return_inverse, False)[:2]


def unique_dim(mode, op, self, dim, sorted=True, return_inverse=False, return_counts=False):
    return _unique(mode, op, self, dim, return_inverse, return_counts)


def unique_consecutive(mode, op, self, return_inverse=False, return_counts=False, dim=None):
    return _unique(mode, op, self, dim, return_inverse, return_counts, consecutive=True)


def bincount(mode, op, self, weights=None, minlength=0):
    """An unbacked number of bins (``minlength`` for no data): int64 counts, float32 or float64 sums."""
    if not _allows_dynamic(mode):
        raise dynamic_shape_refused(op)
    dtype = D.int64 if weights is None else (D.float32 if weights.dtype is D.float32 else D.float64)
    n = _numel(self)
    if not isinstance(n, SymInt) and n == 0:
        return _fake(mode, (minlength,), D.int64, self._dev)
    return _fake(mode, (mode.shape_env.create_unbacked_symint(),), dtype, self._dev, (1,))


def local_scalar_dense(mode, op, self):
    """torch's ``_local_scalar_dense`` under the mode: what ``item()`` of a fake tensor gives."""
    return scalar_of(self, "item")


RULES = {
    "aten::_local_scalar_dense": local_scalar_dense,
    "aten::nonzero": nonzero,
    "aten::argwhere": argwhere,
    "aten::masked_select": masked_select,
    "aten::repeat_interleave.Tensor": repeat_interleave_tensor,
    "aten::index.Tensor": index_tensor,
    "aten::_unique2": unique2,
    "aten::_unique": unique,
    "aten::unique_dim": unique_dim,
    "aten::unique_consecutive": unique_consecutive,
    "aten::unique_dim_consecutive": unique_dim,
    "aten::bincount": bincount,
}

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
