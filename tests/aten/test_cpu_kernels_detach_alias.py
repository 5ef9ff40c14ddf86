"""The Rust kernels of ``detach`` and ``alias`` make exactly the Python kernels' tensor
(``_make_view(self._data[...], self)`` for alias, ``_make_detached`` for detach: no ``_base``, the
version counter shared) for plain CPU tensors and fall back for the rest."""

import numpy as np
import opyard
import pytest
from opyard import _core
from opyard._aten import fast
from kernel_probe import Recorder, run

OPS = ["detach", "alias"]




def root_of(t):
    return t._base if t._base is not None else t


def same_view(got, want, x, detached=False):
    """``got`` is the view the Python kernel made (``want``) of ``x``, field by field."""
    g, w = got._data, want._data
    assert type(got) is type(want) is opyard.Tensor
    assert type(g) is type(w) is np.ndarray
    assert g.dtype == w.dtype and g.shape == w.shape and g.strides == w.strides
    assert g.flags.writeable == w.flags.writeable and g.flags.c_contiguous == w.flags.c_contiguous
    assert g.flags.f_contiguous == w.flags.f_contiguous and g.flags.aligned == w.flags.aligned
    # numpy records the array owning the memory as a view's base (x._data, or its base)
    assert g.base is w.base and g.base is (x._data if x._data.base is None else x._data.base)
    assert g.__array_interface__["data"] == w.__array_interface__["data"]
    assert got._keyset == want._keyset and got.device == want.device == x.device
    assert got._base is want._base is (None if detached else root_of(x))
    # A view of a tensor that requires grad, made with nothing recording (the kernel alone), requires grad as
    # its base, as torch's view made in no_grad mode; a detached tensor does not.
    assert got.requires_grad == (x.requires_grad and not detached) and got.grad_fn is None and got.is_leaf
    assert got._version == x._version == root_of(x)._version


def _inputs():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    return [
        ("contiguous", opyard.from_numpy(base.copy())),
        ("0-d", opyard.tensor(3.5)),
        ("empty", opyard.ones(0, 3)),
        ("transposed", opyard.from_numpy(base.copy()).t()),
        ("strided view of a view", opyard.from_numpy(base.copy())[:, ::2][1:]),
        ("negative strides", opyard.from_numpy(base[::-1])),
        ("int64", opyard.arange(5)),
        ("bool", opyard.ones(3, dtype=opyard.bool)),
        ("complex", opyard.ones(2, dtype=opyard.complex64)),
        ("float16", opyard.ones(2, dtype=opyard.float16)),
        ("requires grad leaf", opyard.ones(3, requires_grad=True)),
    ]


@pytest.mark.parametrize("case", _inputs(), ids=lambda c: c[0])
@pytest.mark.parametrize("name", OPS)
def test_same_view_as_the_python_kernel(name, case):
    x = case[1]
    got, fast_ran = run(name, x)
    assert fast_ran
    same_view(got, fast.PYTHON_KERNELS[name](x), x, detached=name == "detach")


def test_read_only_array_gives_a_read_only_view():
    ro = np.arange(3, dtype=np.float32)
    ro.flags.writeable = False
    x = opyard.from_numpy(ro)
    got, fast_ran = run("detach", x)
    assert fast_ran and not got._data.flags.writeable
    same_view(got, fast.PYTHON_KERNELS["detach"](x), x, detached=True)


@pytest.mark.parametrize("name", OPS)
def test_version_and_data_are_shared_with_base_and_root(name):
    root = opyard.from_numpy(np.arange(12, dtype=np.float32).reshape(3, 4))
    view = root[1:]
    d, fast_ran = run(name, view)
    assert fast_ran and d._base is (None if name == "detach" else root)
    v = root._version
    d.add_(1)
    assert root._version == view._version == d._version == v + 1
    assert root.tolist()[1] == [5.0, 6.0, 7.0, 8.0]
    root.mul_(2)
    assert d._version == v + 2 and d.tolist()[0] == [10.0, 12.0, 14.0, 16.0]
    dd, fast_ran = run(name, d)  # a view of a view records the root
    assert fast_ran and dd._base is (None if name == "detach" else root)
    assert dd._version == root._version


class Sub(opyard.Tensor):
    pass


class Kept(opyard.Tensor):
    _keep_subclass = True


def _fallbacks():
    swapped = opyard.ones(3)
    swapped._data = np.ones(3, ">f4")
    return [
        ("subclass", opyard.ones(3).as_subclass(Sub)),
        ("subclass kept by views", opyard.ones(3).as_subclass(Kept)),
        ("meta", opyard.ones(3, device="meta")),
        ("cpu:0 device object", opyard.ones(3, device="cpu:0")),
    ]


@pytest.mark.parametrize("case", _fallbacks(), ids=lambda c: c[0])
@pytest.mark.parametrize("name", OPS)
def test_other_tensors_reach_the_python_kernel(name, case):
    x = case[1]
    got, fast_ran = run(name, x)
    assert not fast_ran
    want = fast.PYTHON_KERNELS[name](x)
    assert type(got) is type(want) and got.device == want.device and got._base is want._base
    assert got._keyset == want._keyset and got.shape == want.shape


@pytest.mark.parametrize("name", OPS)
def test_extra_arguments_reach_the_python_kernel(name):
    rec = Recorder(name)
    with pytest.raises(TypeError):
        _core.RustKernel(name, rec)(opyard.ones(3), 1)
    assert rec.calls == 1


def test_fake_tensor_detach_keeps_its_class():
    with opyard.fake.FakeTensorMode():
        x = opyard.ones(2, 3)
        d = x.detach()
    assert type(x) is opyard.fake.FakeTensor
    assert type(d) is opyard.fake.FakeTensor and d.shape == (2, 3)


def test_parameter_gives_a_plain_tensor():
    p = opyard.nn.Parameter(opyard.ones(3))
    got, fast_ran = run("detach", p)
    assert fast_ran
    same_view(got, fast.PYTHON_KERNELS["detach"](p), p, detached=True)


def test_registered_at_cpu():
    assert "CPU: detach [kernel]" in opyard.dispatcher.dump_table("aten::detach")
    assert "CPU: alias [kernel]" in opyard.dispatcher.dump_table("aten::alias")


def test_detach_under_autograd_drops_history():
    x = opyard.ones(3, requires_grad=True)
    d = x.detach()
    assert not d.requires_grad and d.grad_fn is None and d.is_leaf and d._base is None
    d.add_(0)  # allowed: no view of the leaf for autograd (torch's detach)
    assert x._version == 1
    y = x * 2.0
    e = y.detach()
    assert not e.requires_grad and e.grad_fn is None and e._base is None
    e.add_(1)  # an in-place change of the detached tensor bumps the non-leaf's version
    assert y._version == e._version == 1
    z = (x * 3.0).sum()
    z.backward()
    assert x.grad.tolist() == [3.0, 3.0, 3.0]


def test_detach_in_a_custom_function_forward():
    class F(opyard.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x.detach()

        @staticmethod
        def backward(ctx, g):
            return g * 2.0

    x = opyard.ones(3, requires_grad=True)
    y = F.apply(x)
    assert y.requires_grad and y.grad_fn is not None
    y.sum().backward()
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
