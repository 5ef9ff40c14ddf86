"""A custom op's Meta kernel and its fake impl are two registrations, in either order.

torch 2.15 registers a custom op's Meta kernel once, with the op, and that kernel reads the fake impl
``register_fake`` stores. So under FakeTensorMode the fake impl runs, and on meta tensors a Meta kernel
the user registered (``register_kernel(op, "meta")`` or ``Library.impl(..., "Meta")``) runs, whichever
of the two was registered first. Without a user Meta kernel, meta tensors run the fake impl.
"""

import itertools
import warnings

import pytest

import opyard
from opyard._subclasses.fake_tensor import FakeTensorMode
from opyard.library import Library

_NAMES = (f"meta_and_fake::op{i}" for i in itertools.count())

META_WAYS = ["register_kernel", "Library.impl", "CustomOpDef.register_kernel"]
FAKE_WAYS = ["library.register_fake", "CustomOpDef.register_fake"]


def _op(calls):
    name = next(_NAMES)

    @opyard.library.custom_op(name, mutates_args=())
    def op(x: opyard.Tensor) -> opyard.Tensor:
        calls.append("kernel")
        return x.clone()
    return name, op


def _register_meta(way, name, op, calls, keep):
    def meta(x):
        calls.append("meta")
        return opyard.empty_like(x)
    if way == "register_kernel":
        opyard.library.register_kernel(name, "meta", meta)
    elif way == "CustomOpDef.register_kernel":
        op.register_kernel("meta", meta)
    else:
        lib = Library(name.split("::")[0], "FRAGMENT")
        keep.append(lib)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # over the op's own Meta kernel
            lib.impl(name.split("::")[1], meta, "Meta")


def _register_fake(way, name, op, calls):
    def fake(x):
        calls.append("fake")
        return opyard.empty_like(x)
    if way == "library.register_fake":
        opyard.library.register_fake(name, fake)
    else:
        op.register_fake(fake)


@pytest.mark.parametrize("meta_first", [True, False], ids=["meta_then_fake", "fake_then_meta"])
@pytest.mark.parametrize("fake_way", FAKE_WAYS)
@pytest.mark.parametrize("meta_way", META_WAYS)
def test_fake_mode_runs_the_fake_impl_and_meta_tensors_the_meta_kernel(meta_way, fake_way, meta_first):
    calls, keep = [], []
    name, op = _op(calls)
    steps = [lambda: _register_meta(meta_way, name, op, calls, keep),
             lambda: _register_fake(fake_way, name, op, calls)]
    for step in steps if meta_first else reversed(steps):
        step()
    with FakeTensorMode():
        out = op(opyard.ones(2, 3))
    assert calls == ["fake"] and tuple(out.shape) == (2, 3)
    calls.clear()
    out = op(opyard.ones(2, 3, device="meta"))
    assert calls == ["meta"] and out.device.type == "meta"
    calls.clear()
    op(opyard.ones(2))
    assert calls == ["kernel"]
    for lib in keep:
        lib._destroy()


@pytest.mark.parametrize("fake_way", FAKE_WAYS)
def test_without_a_meta_kernel_meta_tensors_run_the_fake_impl(fake_way):
    calls = []
    name, op = _op(calls)
    _register_fake(fake_way, name, op, calls)
    out = op(opyard.ones(4, device="meta"))
    assert calls == ["fake"] and out.device.type == "meta"


def test_destroying_the_meta_kernels_library_hands_meta_tensors_back_to_the_fake_impl():
    calls, keep = [], []
    name, op = _op(calls)
    _register_fake("CustomOpDef.register_fake", name, op, calls)
    _register_meta("Library.impl", name, op, calls, keep)
    op(opyard.ones(2, device="meta"))
    keep.pop()._destroy()
    op(opyard.ones(2, device="meta"))
    assert calls == ["meta", "fake"]


def test_a_later_fake_impl_replaces_the_earlier_one():
    calls = []
    name, op = _op(calls)
    op.register_fake(lambda x: (calls.append("first"), opyard.empty_like(x))[1])
    op.register_fake(lambda x: (calls.append("second"), opyard.empty_like(x))[1])
    with FakeTensorMode():
        op(opyard.ones(2))
    op(opyard.ones(2, device="meta"))
    assert calls == ["second", "second"]


def test_register_fake_refuses_what_is_not_callable():
    calls = []
    name, op = _op(calls)
    with pytest.raises(TypeError, match=f"register_fake\\({name}\\): expected a function, got 3"):
        op.register_fake(3)
