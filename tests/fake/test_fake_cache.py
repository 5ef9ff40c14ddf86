"""The fake dispatch cache: hits are right, misses are not shared, nothing is kept alive.

Calls on fake tensors of the thread's mode are keyed in the core (See Note [Fake dispatch
cache in Rust]); these tests check what a hit returns against what a miss computed, for
arguments that differ in one property each. With the fast paths off (``OPYARD_FASTPATH=0``)
the Python fallback and its own cache (``opyard.fake.cache.CACHE``) serve the same calls.
"""

import gc
import threading
import weakref

import opyard
import pytest
from opyard import Tensor
from opyard.fake.symbolic import DynamicOutputShapeException
from opyard.fake import FakeTensor, FakeTensorMode, ShapeEnv, current_mode
from opyard.fake import cache as fake_cache
from opyard.fake.mode import FAKE_FALLBACK, fake_fallback
from opyard.library import Library, custom_op

aten = opyard.ops.aten

# The Rust fallback, or the Python one when the fast paths are off.
FALLBACK = FAKE_FALLBACK if FAKE_FALLBACK is not None else fake_fallback


def cache_clear():
    if FAKE_FALLBACK is not None:
        FAKE_FALLBACK.cache_clear()
    fake_cache.forget()


def cache_len():
    return FAKE_FALLBACK.cache_len() if FAKE_FALLBACK is not None else len(fake_cache.CACHE)


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache_clear()
    yield
    cache_clear()


def _meta(t):
    return (type(t), tuple(t.shape), t.dtype, t.device, t.stride(), t.storage_offset(), t._keyset)


def _twice(fn):
    """``fn()`` as a miss and then as a hit: both must describe the same tensor."""
    first = fn()
    second = fn()
    assert second is not first
    assert _meta(second) == _meta(first)
    return second


def test_a_hit_returns_a_new_fake_tensor_like_the_miss():
    with FakeTensorMode() as mode:
        a, b = opyard.randn(2, 3), opyard.randn(2, 3)
        before = cache_len()
        out = _twice(lambda: a + b)
        assert cache_len() == before + 1
    assert type(out) is FakeTensor and out.fake_mode is mode
    assert tuple(out.shape) == (2, 3) and out.dtype == opyard.float32
    assert out._keyset == a._keyset


@pytest.mark.parametrize("make_pair, expect", [
    # shapes
    (lambda: (opyard.randn(3), opyard.randn(2, 3)), [(3,), (2, 3)]),
    # dtypes
    (lambda: (opyard.randn(3), opyard.randn(3, dtype=opyard.float64)), [opyard.float32, opyard.float64]),
    # devices
    (lambda: (opyard.randn(3), opyard.randn(3, device="cuda")), ["cpu", "cuda"]),
    # strides: contiguous vs transposed, same shape
    (lambda: (opyard.randn(2, 3), opyard.randn(3, 2).t()), [(3, 1), (1, 2)]),
    # storage offset of an input view
    (lambda: (opyard.randn(3, 3), opyard.randn(4, 3)[1:]), [0, 3]),
])
def test_arguments_differing_in_one_property_do_not_share_an_entry(make_pair, expect):
    with FakeTensorMode():
        x, y = make_pair()
        for _ in range(2):  # the second round is served by the cache
            ox, oy = x + 1, y + 1
            got = [_differing(ox, oy, x, y)]
            assert got[0] == expect, got
            assert _meta(ox) != _meta(oy) or x.storage_offset() != y.storage_offset()


def _differing(ox, oy, x, y):
    for f in (lambda t: tuple(t.shape), lambda t: t.dtype, lambda t: t.device.type, lambda t: t.stride()):
        if f(ox) != f(oy):
            return [f(ox), f(oy)]
    return [x.storage_offset(), y.storage_offset()]


@pytest.mark.parametrize("scalar, dtype", [(1, opyard.int32), (1.0, opyard.float32), (True, opyard.int32),
                                           (2, opyard.int32), (-0.0, opyard.float32)])
def test_scalars_equal_in_python_are_distinct_keys(scalar, dtype):
    # 1 == 1.0 == True in Python; the results' dtypes differ, so their entries must.
    with FakeTensorMode():
        x = opyard.zeros(3, dtype=opyard.int32)
        for s in (1, 1.0, True, 2, -0.0):
            x + s
        assert _twice(lambda: x + scalar).dtype == dtype


def test_int_lists_and_bools_are_part_of_the_key():
    with FakeTensorMode():
        x = opyard.randn(2, 3)
        assert tuple(_twice(lambda: x.sum([0])).shape) == (3,)
        assert tuple(_twice(lambda: x.sum([1])).shape) == (2,)
        assert tuple(_twice(lambda: x.sum([1], True)).shape) == (2, 1)
        assert tuple(_twice(lambda: x.view([3, 2])).shape) == (3, 2)
        assert tuple(_twice(lambda: x.view((6,))).shape) == (6,)


def test_a_hit_belongs_to_the_mode_of_the_call():
    with FakeTensorMode() as m1:
        a = opyard.randn(3)
        a + a
    with FakeTensorMode() as m2:
        b = opyard.randn(3)
        out = b + b  # same key as in m1: served from the cache, but in m2
    assert m1 is not m2 and out.fake_mode is m2


def test_tensors_of_another_mode_are_still_refused_after_caching():
    with FakeTensorMode():
        a = opyard.randn(3)
        a + a
    with FakeTensorMode():
        b = opyard.randn(3)
        b + b
        with pytest.raises(Exception, match="mode"):
            a + b


def test_real_tensors_are_still_refused_after_caching():
    real = opyard.randn(3)
    with FakeTensorMode():
        f = opyard.randn(3)
        f + f
        with pytest.raises(RuntimeError, match="FakeTensor"):
            f + real


def test_an_entry_keeps_no_tensor_alive():
    with FakeTensorMode():
        a, b = opyard.randn(4, 5), opyard.randn(4, 5)
        out = a + b
        out2 = a + b  # a hit
        refs = [weakref.ref(t) for t in (a, b, out, out2)]
        del a, b, out, out2
    gc.collect()
    assert cache_len() >= 1
    assert [r() for r in refs] == [None] * 4
    entries = FAKE_FALLBACK._entries() if FAKE_FALLBACK is not None else fake_cache.CACHE.values()
    for data, dev, strides, offset, keys in entries:
        assert not isinstance(data, Tensor) and not isinstance(dev, Tensor)


def test_inplace_and_out_ops_are_not_cached():
    with FakeTensorMode():
        a, b, out = opyard.randn(3), opyard.randn(3), opyard.empty(3)
        for round in range(3):  # were they cached, later rounds would return new tensors
            assert a.add_(b) is a
            assert aten.add.out(a, b, out=out) is out
            if round == 0:  # (their Meta kernels may cache the functional ops they call)
                n = cache_len()
        assert cache_len() == n


def test_views_are_not_served_from_the_cache():
    with FakeTensorMode():
        a = opyard.randn(2, 3)
        v1, v2 = a.t(), a.t()
        assert v1._base is a and v2._base is a
        assert v1.untyped_storage() is a.untyped_storage()


def test_symbolic_sizes_are_not_cached():
    mode = FakeTensorMode(shape_env=ShapeEnv())
    x = mode.from_tensor(opyard.randn(3, 4))
    with mode:
        n = cache_len()
        y = x + x
        y2 = x + x
        assert cache_len() == n
    assert str(y.shape[0]) == str(x.shape[0]) == str(y2.shape[0])


def test_fake_impls_run_on_every_call():
    calls = []

    @custom_op("fakecache::counted", mutates_args=())
    def counted(x: Tensor) -> Tensor:
        return x.clone()

    @counted.register_fake
    def _(x):
        calls.append(1)
        return opyard.empty_like(x)

    with FakeTensorMode():
        x = opyard.randn(3)
        outs = [counted(x) for _ in range(3)]
    assert len(calls) == 3
    assert all(type(o) is FakeTensor and tuple(o.shape) == (3,) for o in outs)


def test_a_fake_impl_registered_later_is_used_despite_earlier_calls():
    lib = Library("fakecachelate", "FRAGMENT")
    try:
        # A keyword argument: the call takes the Python path, whose verdicts were memoized too.
        lib.define("f(Tensor x, *, int n=0) -> Tensor")
        lib.impl("f", lambda x, n=0: x.clone(), "CPU")
        op = opyard.ops.fakecachelate.f.default
        with FakeTensorMode():
            x = opyard.randn(3)
            for kw in ({}, {"n": 1}):
                with pytest.raises(Exception, match="fake impl"):
                    op(x, **kw)
        calls = []

        def fake(x, n=0):
            calls.append(1)
            return x.new_empty((5 + n,))

        opyard.library.register_fake("fakecachelate::f", fake, lib=lib)
        with FakeTensorMode():
            x = opyard.randn(3)
            assert [tuple(op(x, **kw).shape) for kw in ({}, {"n": 1}, {}, {"n": 1})] == [(5,), (6,)] * 2
        assert len(calls) == 4
    finally:
        lib._destroy()


def test_the_mode_is_per_thread():
    seen = {}
    with FakeTensorMode() as mode:
        t = threading.Thread(target=lambda: seen.setdefault("other", current_mode()))
        t.start()
        t.join()
        seen["this"] = current_mode()
    assert seen == {"other": None, "this": mode}
    assert current_mode() is None


def test_threads_share_the_cache_without_mixing_entries():
    errors = []
    barrier = threading.Barrier(4)

    def work(i):
        try:
            with FakeTensorMode() as mode:
                a = opyard.randn(i + 1, 3, dtype=(opyard.float32, opyard.float64)[i % 2])
                barrier.wait()
                for _ in range(300):
                    out = a * 2 + a
                    assert tuple(out.shape) == (i + 1, 3)
                    assert out.dtype == a.dtype and out.fake_mode is mode
                    cache_clear() if i == 0 and _ % 50 == 0 else None
        except Exception as e:  # noqa: BLE001 (reported below, with the thread's index)
            errors.append((i, e))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []


def test_the_fallback_can_be_called_directly():
    with FakeTensorMode():
        a = opyard.randn(3)
        out = FALLBACK(opyard.dispatcher.DispatchKeySet(opyard.dispatcher.DispatchKey.Fake),
                            aten.add.Tensor, a, a)
    assert type(out) is FakeTensor and tuple(out.shape) == (3,)


def test_get_ctx_in_a_fake_impl_reached_through_the_core():
    seen = []

    @custom_op("fakecache::nonzeroish", mutates_args=())
    def nonzeroish(x: Tensor) -> Tensor:
        return x.clone()

    @nonzeroish.register_fake
    def _(x):
        ctx = opyard.library.get_ctx()
        seen.append(ctx is opyard.library.get_ctx())  # one context per call
        return x.new_empty((ctx.new_dynamic_size(),))

    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)):
        x = opyard.randn(3)  # static sizes: the call is keyed in the core
        a, b = nonzeroish(x), nonzeroish(x)
    assert seen == [True, True]
    assert str(a.shape[0]) != str(b.shape[0])  # fresh unbacked sizes: never cached
    assert opyard.library.get_ctx() is None  # outside a fake impl, as torch's
    with FakeTensorMode(), pytest.raises(Exception, match="ShapeEnv"):
        nonzeroish(opyard.randn(3))


def test_fields_written_from_python_are_read_by_the_key():
    with FakeTensorMode():
        contiguous = opyard.randn(2, 3)
        transposed = opyard.randn(3, 2).t()
        contiguous + 1, transposed + 1  # both layouts cached
        z = opyard.randn(2, 3)
        z._meta_strides = (1, 2)  # a TensorBase field: the key reads the struct, not a dict
        assert z.stride() == (1, 2)
        assert (z + 1).stride() == (1, 2) == (transposed + 1).stride()
        assert (contiguous + 1).stride() == (3, 1)


def test_a_storage_offset_written_later_keys_apart():
    with FakeTensorMode():
        a = opyard.randn(3)
        assert (a + a).storage_offset() == 0
        n = cache_len()
        b = opyard.randn(3)
        b._meta_offset = 1
        out = b + b  # a different key: not the entry made with offset 0
        assert out.storage_offset() == 0 and b.storage_offset() == 1
        assert cache_len() == n + 1
        assert (a + a).storage_offset() == 0
        assert cache_len() == n + 1


def test_a_thread_may_end_inside_a_mode():
    def leave_mode_open():
        FakeTensorMode().__enter__()
        a = opyard.randn(3)
        a + a

    for _ in range(20):
        t = threading.Thread(target=leave_mode_open)
        t.start()
        t.join()
    gc.collect()
    assert current_mode() is None


def test_data_dependent_ops_cache_nothing():
    with FakeTensorMode(shape_env=ShapeEnv(allow_dynamic_output_shape_ops=True)):
        x, y = opyard.randn(4), opyard.randn(4)
        n = cache_len()
        first, again, other = opyard.nonzero(x), opyard.nonzero(x), opyard.nonzero(y)
        # The size of x's nonzero is remembered for x (torch's nonzero_memo), not for its metadata.
        assert str(first.shape[0]) == str(again.shape[0]) != str(other.shape[0])
        assert cache_len() == n
    with FakeTensorMode():
        x = opyard.randn(4)
        n = cache_len()
        for _ in range(2):
            with pytest.raises(DynamicOutputShapeException, match="aten.nonzero.default"):
                opyard.nonzero(x)
        assert cache_len() == n
