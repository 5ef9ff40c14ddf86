"""The Rust CPU kernel of ``expand`` (``_aten/fast.py``): the Python kernel's view (strides, base,
version counter, keys), its fallbacks for the sizes it does not cover, and its use under autograd.

Each fast path gives the Python kernel's result bit for bit (dtype, shape, every byte); a
``RustKernel`` built around a recording fallback (``kernel_probe``) tells which of the two ran.
"""

import re

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from kernel_probe import Recorder, run
from kernel_values import DTYPES, same_view, tensor


@pytest.mark.parametrize("shape, size", [
    ((3,), [2, 3]), ((1, 3), [4, 3]), ((3, 1), [-1, 4]), ((), [2, 2]), ((2, 1, 3), [5, 2, 7, -1]),
    ((3,), (3,)), ((0,), [2, 0]), ((1,), [0]),
])
@pytest.mark.parametrize("dt", DTYPES + [np.bool_, np.complex64])
def test_expand_is_the_python_kernels_view(shape, size, dt):
    x = tensor((np.arange(int(np.prod(shape))) % 3).astype(dt).reshape(shape))
    got, fast_ran = run("expand", x, size)
    assert fast_ran
    same_view(got, fast.PYTHON_KERNELS["expand"](x, size), x)


def test_expand_of_a_strided_view_shares_the_roots_counter():
    root = opyard.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4))
    col = root.t()[1:2]  # a (1, 3) view with strides (4, 16)
    got, fast_ran = run("expand", col, [5, 3])
    assert fast_ran
    same_view(got, fast.PYTHON_KERNELS["expand"](col, [5, 3]), col)
    v = got._version
    root.add_(1)
    assert got._version == v + 1 and got.tolist()[4] == [2.0, 6.0, 10.0]


@pytest.mark.parametrize("size, kwargs", [
    ([-1, 3], {}), ([2, -2], {}), ([2, 4], {}), ([], {}), ([2, 3.0], {}), ([2, 3], {"implicit": True}),
])
def test_expand_falls_back_for_other_sizes(size, kwargs):
    x = tensor(np.ones(3, np.float32))
    rec = Recorder("expand")
    k = _core.RustKernel("expand", rec)
    try:
        want = fast.PYTHON_KERNELS["expand"](x, size, **kwargs)
    except Exception as e:  # noqa: BLE001  (the Rust kernel must raise the same error)
        with pytest.raises(type(e), match=re.escape(str(e))):
            k(x, size, **kwargs)
    else:
        same_view(k(x, size, **kwargs), want, x)
    assert rec.calls == 1


def test_expand_through_the_dispatcher_and_autograd():
    x = opyard.ones(3, requires_grad=True)
    y = x.expand(2, 3)
    assert y.shape == (2, 3) and y._base is x
    (y * 2.0).sum().backward()
    assert x.grad.tolist() == [4.0, 4.0, 4.0]
    with pytest.raises(RuntimeError, match="must match the existing size"):
        opyard.ones(3).expand(2, 4)
