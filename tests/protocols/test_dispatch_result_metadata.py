"""check_dispatch_results: sizes and dtypes of __torch_dispatch__ results against the Meta kernels.

Off by default (torch checks neither); on, a wrong size or dtype names the operator and the class.
"""

import opyard
import pytest
from opyard.library import Library
from opyard.utils import _dispatch_checks
from opyard.utils.python_dispatch import TorchDispatchMode, check_dispatch_results


@pytest.fixture
def checking():
    previous = check_dispatch_results(True)
    _dispatch_checks._meta_results.clear()
    try:
        yield
    finally:
        check_dispatch_results(previous)


class Wrap(opyard.Tensor):
    """Wraps one tensor; ``fake`` replaces what ops return (or None: the true result)."""

    fake = None
    calls = []

    @staticmethod
    def __new__(cls, inner):
        out = opyard.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype)
        out.inner = inner
        return out

    def __init__(self, inner):
        pass

    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        cls.calls.append(func)
        if cls.fake is not None:
            return cls.fake(func)

        def un(x):
            if isinstance(x, Wrap):
                return x.inner
            if isinstance(x, (list, tuple)):
                return type(x)(un(v) for v in x)
            return x
        out = func(*un(args), **{k: un(v) for k, v in (kwargs or {}).items()})
        if isinstance(out, opyard.Tensor):
            return Wrap(out)
        if isinstance(out, (list, tuple)):
            return type(out)(Wrap(o) if isinstance(o, opyard.Tensor) else o for o in out)
        return out


@pytest.fixture(autouse=True)
def _reset():
    Wrap.fake = None
    yield
    Wrap.fake = None


def test_off_by_default_like_torch():
    assert check_dispatch_results(False) is False
    Wrap.fake = lambda func: Wrap(opyard.ones(7, dtype=opyard.float64))
    out = Wrap(opyard.ones(3)) + Wrap(opyard.ones(3))
    assert out.shape == (7,) and out.dtype == opyard.float64


@pytest.mark.parametrize("fake, match", [
    (lambda func: Wrap(opyard.ones(7)),
     r"Wrap.__torch_dispatch__ returned a tensor of size \[7\] and dtype opyard.float32 for "
     r"aten.add.Tensor, whose Meta kernel computes size \[3\] and dtype opyard.float32"),
    (lambda func: Wrap(opyard.ones(3, dtype=opyard.float64)),
     r"returned a tensor of size \[3\] and dtype opyard.float64 for aten.add.Tensor, whose Meta "
     r"kernel computes size \[3\] and dtype opyard.float32 .*check_dispatch_results\(False\)"),
    (lambda func: opyard.ones(2, 3),
     r"returned a tensor of size \[2, 3\] .* computes size \[3\]"),
])
def test_wrong_size_or_dtype_names_op_and_subclass(checking, fake, match):
    a = Wrap(opyard.ones(3))
    Wrap.fake = fake
    with pytest.raises(RuntimeError, match=match):
        a + a


def test_right_results_pass_and_are_cached(checking):
    a, b = Wrap(opyard.ones(2, 3)), Wrap(opyard.ones(3))
    out = (a * b).sum(0)
    assert out.shape == (3,) and out.inner.tolist() == [2.0, 2.0, 2.0]
    keys = [k for k in _dispatch_checks._meta_results if k[0] == opyard.ops.aten.mul.Tensor]
    assert len(keys) == 1
    before = len(_dispatch_checks._meta_results)
    a * b
    assert len(_dispatch_checks._meta_results) == before  # the same metadata: one lookup


def test_multi_output_op_names_the_output(checking):
    a = Wrap(opyard.ones(4))
    Wrap.fake = lambda func: (Wrap(opyard.ones(4)), Wrap(opyard.ones(5, dtype=opyard.int64)))
    with pytest.raises(RuntimeError, match=r"returned output 1 a tensor of size \[5\] and dtype "
                                           r"opyard.int64 for aten.sort.default, whose Meta kernel "
                                           r"computes size \[4\] and dtype opyard.int64"):
        opyard.sort(a)


def test_list_output_checked_element_by_element(checking):
    a = Wrap(opyard.ones(4))
    Wrap.fake = lambda func: [Wrap(opyard.ones(2)), Wrap(opyard.ones(3))]
    with pytest.raises(RuntimeError, match=r"size \[3\] .* for aten.split.Tensor, whose Meta kernel "
                                           r"computes size \[2\]"):
        opyard.split(a, 2)


def test_data_dependent_ops_are_not_checked(checking):
    a = Wrap(opyard.tensor([0.0, 1.0, 2.0]))
    Wrap.fake = lambda func: Wrap(opyard.zeros(5, 1, dtype=opyard.int64))
    assert opyard.Tag.dynamic_output_shape in opyard.ops.aten.nonzero.default.tags
    assert opyard.nonzero(a).shape == (5, 1)


def test_custom_op_checked_through_its_fake_kernel(checking):
    lib = Library("_dmeta", "DEF")
    try:
        lib.define("twice(Tensor x) -> Tensor")
        lib.impl("twice", lambda x: opyard.cat([x, x]), "CPU")
        lib.impl("twice", lambda x: opyard.empty(2 * x.shape[0], dtype=x.dtype, device=x.device), "Meta")
        a = Wrap(opyard.ones(3))
        assert opyard.ops._dmeta.twice(a).shape == (6,)
        Wrap.fake = lambda func: Wrap(opyard.ones(3))
        with pytest.raises(RuntimeError, match=r"for _dmeta.twice.default, whose Meta kernel computes "
                                               r"size \[6\]"):
            opyard.ops._dmeta.twice(a)
    finally:
        lib._destroy()


def test_op_without_meta_kernel_is_not_checked(checking):
    lib = Library("_dmeta2", "DEF")
    try:
        lib.define("odd(Tensor x) -> Tensor")
        lib.impl("odd", lambda x: x[:1].clone(), "CPU")
        a = Wrap(opyard.ones(3))
        assert opyard.ops._dmeta2.odd(a).shape == (1,)
    finally:
        lib._destroy()


def test_modes_are_checked_too(checking):
    class Wrong(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            return opyard.ones(9)

    x = opyard.ones(2)
    with pytest.raises(RuntimeError, match=r"Wrong.__torch_dispatch__ returned a tensor of size \[9\] "
                                           r"and dtype opyard.float32 for aten.mul.Tensor"):
        with Wrong():
            x * x


def test_keyword_arguments_are_part_of_the_cache_key(checking):
    a = Wrap(opyard.ones(2, 3))
    assert opyard.sum(a, dim=0).shape == (3,)
    assert opyard.sum(a, dim=1).shape == (2,)
    Wrap.fake = lambda func: Wrap(opyard.ones(3))
    with pytest.raises(RuntimeError, match=r"returned a tensor of size \[3\] .* for aten.sum.dim_IntList, "
                                           r"whose Meta kernel computes size \[2\]"):
        opyard.sum(a, dim=1)
    keys = [k for k in _dispatch_checks._meta_results if k[0] == opyard.ops.aten.sum.dim_IntList]
    assert len(keys) == 2


def test_custom_op_with_register_fake_is_checked(checking):
    @opyard.library.custom_op("_dmeta3::halve", mutates_args=())
    def halve(x: opyard.Tensor) -> opyard.Tensor:
        return x[: x.shape[0] // 2].clone()

    @halve.register_fake
    def _(x):
        return x.new_empty(x.shape[0] // 2)

    a = Wrap(opyard.ones(4))
    assert halve(a).shape == (2,)
    Wrap.fake = lambda func: Wrap(opyard.ones(4))
    with pytest.raises(RuntimeError, match=r"for _dmeta3.halve.default, whose Meta kernel computes "
                                           r"size \[2\]"):
        halve(a)


def test_cache_is_bounded(checking, monkeypatch):
    monkeypatch.setattr(_dispatch_checks, "_MAX_CACHED", 3)
    for n in range(1, 8):
        a = Wrap(opyard.ones(n))
        assert (a + a).shape == (n,)
        assert len(_dispatch_checks._meta_results) <= 3
