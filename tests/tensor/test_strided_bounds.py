"""Geometry that would read memory outside a tensor's storage is refused, never read.

``as_strided`` and unpickling build a numpy view from a storage offset and strides with
``numpy.lib.stride_tricks.as_strided``, which checks nothing: an offset below 0 (which numpy's
slicing counts from the end) or a corrupt pickle would otherwise give a view over memory past the
buffer, whose values are whatever lies there (a different wrong answer each run). Meta views run
the CPU view kernels on a probe over a one-element buffer, which no call may read.
"""

import os
import pickle
import subprocess
import sys

import numpy as np
import opyard
import pytest
from opyard import _pickle
from opyard._aten.meta import _viewable


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("size, stride, offset", [
    ([10], [1], -2), ([100], [1], -2), ([0], [1], -3), ([2, 2], [1, 1], -1), ([3], [1], -12), ([-1], [1], -2),
])
def test_as_strided_refuses_a_negative_storage_offset(device, size, stride, offset):
    x = opyard.arange(12.0, device=device)
    with pytest.raises(RuntimeError, match=rf"^Tensor: invalid storage offset {offset}$"):
        x.as_strided(size, stride, offset)
    with pytest.raises(RuntimeError, match=rf"^Tensor: invalid storage offset {offset}$"):
        opyard.ops.aten.as_strided.default(x, size, stride, offset)


def test_as_strided_checks_keep_their_order_and_messages():
    x = opyard.arange(12.0)
    with pytest.raises(RuntimeError, match=r"mismatch in length of strides and shape"):
        x.as_strided([2, 2], [1], -2)
    with pytest.raises(RuntimeError, match=r"negative sizes or strides are not supported \(sizes \[2\], strides \[-1\]\)"):
        x.as_strided([2], [-1], -2)  # negative strides are reported before the offset, as torch does
    with pytest.raises(RuntimeError, match=r"negative sizes or strides are not supported \(sizes \[-1\]"):
        x.as_strided([-1], [1], 0)
    with pytest.raises(RuntimeError, match=r"out of bounds for storage of size 48"):
        x.as_strided([4], [1], 9)
    assert x.as_strided([2], [2], 4).tolist() == [4.0, 6.0]
    assert x[3:].as_strided([2], [1]).tolist() == [3.0, 4.0]  # a view's own offset, which is >= 0


def _rebuild_args(t):
    fn, args = t.__reduce_ex__(2)
    assert fn is _pickle._rebuild_tensor
    return list(args)


def _strided_example():
    return opyard.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4)).t()[1:]  # strides, offset


def test_a_strided_tensor_round_trips():
    t = _strided_example()
    back = pickle.loads(pickle.dumps(t))
    assert back.tolist() == t.tolist() and back.stride() == t.stride()
    empty = opyard.from_numpy(np.zeros((3, 0), np.float32)).t()
    assert pickle.loads(pickle.dumps(empty)).shape == (0, 3)


@pytest.mark.parametrize("corrupt", [
    lambda a: a.__setitem__(5, -1),                      # offset before the storage
    lambda a: a.__setitem__(5, a[5] + 100),              # offset past it
    lambda a: a.__setitem__(3, (a[3][0] + 5,) + a[3][1:]),  # a size reaching past the end
    lambda a: a.__setitem__(4, (a[4][0] * 50,) + a[4][1:]),  # a stride reaching past the end
    lambda a: a.__setitem__(4, (-1,) + a[4][1:]),        # a stride reaching before the start
    lambda a: a.__setitem__(4, a[4][:1]),                # fewer strides than sizes
])
def test_unpickling_a_corrupt_geometry_raises_instead_of_reading_past_the_storage(corrupt):
    args = _rebuild_args(_strided_example())
    assert args[4] is not None  # the strided form: storage, offset and strides
    corrupt(args)
    with pytest.raises(RuntimeError, match=r"^cannot unpickle a tensor of sizes .* the pickle is corrupt"):
        _pickle._rebuild_tensor(*args)


# --- meta views: the probe's one-element buffer is never read -----------------------------------

_HUGE_META_VIEWS = """
import opyard
m = opyard.empty(30000, 40000, device="meta")  # 1.2e9 elements: a copy of the probe would crash
for r in (m.t().reshape(-1), m.t().flatten(), m.t().reshape(4, -1), m[:, :20000].reshape(-1),
          m.t()[::2].reshape(2, -1), m.reshape(4, -1), m.view(40000, 30000)):
    print(tuple(r.shape), r.stride(), r.storage_offset(), r._base is not None)
try:
    m.t().view(-1)
except RuntimeError as e:
    print(str(e)[:40])
"""


def test_meta_reshape_that_needs_a_copy_reads_no_memory():
    # A subprocess: before the fix numpy's shape setter copied the probe (a read of 4.8 GB from
    # a one-element buffer), which crashes the interpreter.
    env = {**os.environ, "PYTHONPATH": os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")}
    done = subprocess.run([sys.executable, "-c", _HUGE_META_VIEWS], capture_output=True, text=True, env=env,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    # torch 2.15's metadata for the same calls on meta tensors
    assert done.stdout.splitlines() == [
        "(1200000000,) (1,) 0 False", "(1200000000,) (1,) 0 False", "(4, 300000000) (300000000, 1) 0 False",
        "(600000000,) (1,) 0 False", "(2, 300000000) (300000000, 1) 0 False",
        "(4, 300000000) (300000000, 1) 0 True", "(40000, 30000) (30000, 1) 0 True",
        "view size is not compatible with input t",
    ]


def _numpy_views(a, target):
    """Whether numpy reshapes ``a`` to ``target`` without a copy (``copy=False`` from numpy 2.1; the
    ``shape`` setter, deprecated since, before)."""
    if tuple(int(p) for p in np.__version__.split(".")[:2]) >= (2, 1):
        try:
            a.reshape(target, copy=False)
            return True
        except ValueError:
            return False
    try:
        a.view().shape = target
        return True
    except AttributeError:
        return False


def test_the_probes_no_copy_test_is_numpys():
    rng = np.random.default_rng(0)
    checked = 0
    for _ in range(3000):
        nd = int(rng.integers(0, 5))
        shape = tuple(int(v) for v in rng.integers(0, 4, nd))
        a = np.zeros(tuple(2 * s for s in shape), np.float32)
        if nd:  # strided, sliced and permuted
            a = a[tuple(slice(None, None, int(rng.integers(1, 3))) for _ in shape)]
            a = a[tuple(slice(0, s) for s in shape)].transpose(rng.permutation(nd))
        else:
            a = np.zeros((), np.float32)
        for target in {tuple(rng.permutation(a.shape)), (a.size,), (1, a.size), (a.size, 1)}:
            if int(np.prod(target)) != a.size:
                continue
            numpy_views = _numpy_views(a, target)
            assert _viewable(a.shape, [s // a.itemsize for s in a.strides], target) == numpy_views, (
                a.shape, a.strides, target)
            checked += 1
    assert checked > 5000
