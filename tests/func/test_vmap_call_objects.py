"""The objects a vmap call goes through: the function ``vmap(f)`` returns (a Python function's
attributes and binding, every call shape it serves or hands on), a one-Tensor custom op's
``register_vmap`` kernel (info, in_dims, results it wraps or hands to the checks), and a custom
op's own call. Each behaves the same with the fast paths on and off (``OPYARD_FASTPATH=0``)."""

import functools
import threading

import numpy as np
import opyard as O
import pytest
from opyard import Tensor, _core
from opyard.autograd import transform_levels
from opyard.dispatcher import DispatchKey
from opyard.library import custom_op

X = O.randn(4, 3)


def close(a, b):
    assert a.shape == b.shape
    np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-6, atol=1e-6)


def scaled(r, k=2.0):
    """Doubles a row."""
    return r * k


def vmode_included():
    return O._C._dispatch_tls_is_dispatch_key_included(DispatchKey.VmapMode)


# --- the function vmap returns -------------------------------------------------------------------

def test_carries_the_functions_attributes():
    v = O.vmap(scaled)
    assert v.__name__ == "scaled" and v.__qualname__ == "scaled"
    assert v.__doc__ == "Doubles a row." and v.__wrapped__ is scaled and v.__module__ == __name__
    assert repr(v).startswith("<function scaled at ")
    assert callable(v)
    assert (type(v).__name__ == "VmapFunction") == _core.FAST_PATHS  # the Rust callable when fast paths are on


def test_binds_as_a_method_like_a_function():
    def method(self, r):
        return r * 2

    class Holder:
        m = O.vmap(method, in_dims=(None, 0))  # the general path
        f = O.vmap(method)

    h = Holder()
    close(h.m(X), X * 2)
    # ``h.f(X)`` maps over ``h`` too, as a Python function bound as a method would.
    with pytest.raises(ValueError, match="Got in_dim=0 for an input but the input is of type"):
        h.f(X)
    assert Holder.__dict__["f"].__get__(None, Holder) is Holder.__dict__["f"]


@pytest.mark.parametrize("out_dims", [0, 1, -1, (1,)])
def test_results_and_out_dims(out_dims):
    got = O.vmap(scaled, out_dims=out_dims)(X)
    want = X * 2 if out_dims in (0, (0,)) else (X * 2).movedim(0, -1)
    close(got, want)


def test_keywords_and_several_inputs():
    close(O.vmap(scaled)(X, k=3.0), X * 3)
    close(O.vmap(lambda a, b: a * b)(X, X + 1), X * (X + 1))
    close(O.vmap(lambda a, b: a + b)(X, X)[0], X[0] * 2)


def test_nested_calls():
    m = O.randn(2, 4, 3)
    close(O.vmap(O.vmap(scaled))(m), m * 2)
    close(O.vmap(lambda r: O.vmap(scaled)(r) + r.sum())(m), m * 2 + m.sum((1, 2), keepdim=True))


@pytest.mark.parametrize("args, exc, match", [
    ((O.ones(3), O.ones(4)), ValueError, "Expected all tensors to have the same size in the mapped dimension"),
    ((O.tensor(1.0),), ValueError, "expected in_dim to satisfy -0 <= in_dim < 0"),
    ((3.0,), ValueError, "We cannot vmap over non-Tensor arguments"),
    ((), ValueError, "got no inputs"),
])
def test_calls_it_hands_to_the_checks(args, exc, match):
    with pytest.raises(exc, match=match):
        O.vmap(lambda *a: a[0])(*args)
    assert transform_levels.levels() == [] and not vmode_included()


@pytest.mark.parametrize("in_dims", [(None, 0), (0, None), (0, 0), (None, 0, None)])
def test_flat_in_dims_of_zeros_and_nones(in_dims):
    w = O.randn(3)
    args = [X if d == 0 else w for d in in_dims]
    got = O.vmap(lambda *a: sum(a[1:], a[0]) * 2, in_dims=in_dims)(*args)
    close(got, sum(args[1:], args[0]) * 2)
    v = O.vmap(lambda *a: a[0], in_dims=in_dims)
    # The Rust callable for a flat tuple of 0s and Nones (fast paths on); any other in_dims is Python's.
    assert (type(v).__name__ == "VmapFunction") == _core.FAST_PATHS
    assert type(O.vmap(lambda a, b: a, in_dims=(1, None))).__name__ == "function"
    assert type(O.vmap(lambda a, b: a, in_dims=(None, None))).__name__ == "function"
    assert type(O.vmap(lambda a, b: a, in_dims=(0, (None,)))).__name__ == "function"


@pytest.mark.parametrize("args, exc, match", [
    ((X,), ValueError, "in_dims is not compatible with the structure of `inputs`"),
    ((X, X, X), ValueError, "in_dims is not compatible with the structure of `inputs`"),
    ((3.0, X), ValueError, "We cannot vmap over non-Tensor arguments"),
    ((O.ones(4), O.ones(4)), None, None),
    ((O.ones(3), (X, X)), None, None),
    ((O.ones(3), [X]), None, None),
    ((O.ones(3), {"a": X}), None, None),
    ((O.tensor(1.0), X), ValueError, "expected in_dim to satisfy -0 <= in_dim < 0"),
])
def test_flat_in_dims_calls_it_hands_on(args, exc, match):
    """Calls the Rust callable does not take reach the Python function, which checks or rebuilds them."""
    seen = []

    def f(a, b):
        seen.append(b)
        return a * 2
    v = O.vmap(f, in_dims=(0, None))
    if exc is None:
        close(v(*args), args[0] * 2)
        assert type(seen[0]) is type(args[1]) and len(seen[0]) == len(args[1])
    else:
        with pytest.raises(exc, match=match):
            v(*args)
    assert transform_levels.levels() == [] and not vmode_included()


def test_outputs_that_are_not_batched():
    close(O.vmap(lambda r: O.ones(2))(X), O.ones(4, 2))
    assert O.vmap(lambda r: 7, out_dims=None)(X) == 7
    with pytest.raises(ValueError, match="must only return Tensors, got type <class 'int'>"):
        O.vmap(lambda r: 7)(X)
    a, b = O.vmap(lambda r: (r, r * 2))(X)
    close(a, X) and close(b, X * 2)


def test_an_exception_restores_the_stack_and_keys():
    def boom(r):
        assert transform_levels.levels()[-1].batch_size == 4 and vmode_included()
        raise KeyError("inside")
    with pytest.raises(KeyError, match="inside"):
        O.vmap(boom)(X)
    assert transform_levels.levels() == [] and not vmode_included()


def test_each_call_has_its_own_level_record():
    seen = []

    def f(r):
        layer = transform_levels.levels()[-1]
        seen.append((layer.level, layer.batch_size, layer.randomness, layer.name, layer.info))
        return r
    v = O.vmap(f, randomness="same")
    v(X), v(X[:2])
    (l1, *rest1), (l2, *rest2) = seen
    assert l2 > l1 and rest1 == [4, "same", "f", None] and rest2 == [2, "same", "f", None]


def test_the_level_record_is_the_one_its_class_makes():
    # The record is written slot by slot without its ``__init__``: every slot of the class (its own
    # and its bases') holds what ``VmapLevel(level, batch_size, randomness, name)`` stores.
    from opyard.func.batched import VmapLevel
    made = []
    O.vmap(lambda r: (made.append(transform_levels.levels()[-1]), r)[1], randomness="different")(X)
    (layer,) = made
    want = VmapLevel(layer.level, 4, "different", "<lambda>")
    slots = [n for k in type(want).__mro__ for n in k.__dict__.get("__slots__", ())]
    assert type(layer) is VmapLevel and set(slots) >= {"level", "batch_size", "randomness", "name", "info"}
    assert [getattr(layer, n) for n in slots] == [getattr(want, n) for n in slots]


def test_other_threads_have_their_own_stack():
    out, inside = {}, []

    def f(r):
        inside.append(len(transform_levels.levels()))
        return r * 2

    def run():
        out["y"] = O.vmap(f)(X)
        out["after"] = list(transform_levels.levels())

    t = threading.Thread(target=run)
    with_main = O.vmap(lambda r: (t.start(), t.join(), f(r))[2])(X)
    close(with_main, X * 2)
    close(out["y"], X * 2)
    assert out["after"] == [] and inside == [1, 1]


# --- a one-Tensor custom op's register_vmap kernel -----------------------------------------------

@pytest.fixture
def op_with_rule(ns):
    seen = []

    @custom_op(f"{ns}::twice", mutates_args=())
    def twice(x: Tensor) -> Tensor:
        return x * 2

    state = {"result": None}

    @twice.register_vmap
    def _(info, in_dims, x):
        seen.append((type(info).__name__, info.batch_size, info.randomness, in_dims, tuple(x.shape)))
        if state["result"] is not None:
            return state["result"](x)
        return twice(x), 0
    twice.seen, twice.state = seen, state
    return twice


def test_rule_kernel_gets_info_and_in_dims(op_with_rule):
    close(O.vmap(op_with_rule, randomness="different")(X), X * 2)
    assert op_with_rule.seen == [("VmapInfo", 4, "different", (0,), (4, 3))]


def test_rule_kernel_info_is_a_vmap_info(op_with_rule):
    infos = []
    op_with_rule.state["result"] = lambda x: (infos.append(transform_levels.levels()[-1].info), (x, 0))[1]
    O.vmap(op_with_rule, randomness="same")(X)
    (info,) = infos
    assert repr(info) == "VmapInfo(batch_size=4, randomness='same')"


def test_rule_kernel_info_is_made_once_per_level(op_with_rule):
    infos = []
    op_with_rule.state["result"] = lambda x: (infos.append(transform_levels.levels()[-1].info), (x, 0))[1]
    O.vmap(lambda r: op_with_rule(op_with_rule(r)))(X)
    assert len(infos) == 2 and infos[0] is infos[1] and infos[0].batch_size == 4


@pytest.mark.parametrize("result, want", [
    (lambda x: (x.movedim(0, 1), 1), lambda: X),
    (lambda x: (x, None), lambda: X),
    (lambda x: ((x, x), 0), None),
])
def test_rule_kernel_results_other_than_a_tensor_at_dim_0(op_with_rule, result, want):
    op_with_rule.state["result"] = result
    if want is None:  # the schema returns one tensor: a tuple is the kernel's error
        with pytest.raises(RuntimeError, match="returned tuple"):
            O.vmap(op_with_rule)(X)
        return
    got = O.vmap(op_with_rule)(X)
    close(got, want() if got.shape == want().shape else want().expand(4, 4, 3))


@pytest.mark.parametrize("result, match", [
    (lambda x: x, "expected it to return \\(outputs, out_dims\\), got Tensor"),
    (lambda x: (3, 0), "out_dims=0 for an output of type int"),
    (lambda x: (x, 0.0), "expected out_dims to be an int or None per output, got 0.0"),
])
def test_rule_kernel_bad_results(op_with_rule, result, match):
    op_with_rule.state["result"] = result
    with pytest.raises(ValueError, match=match):
        O.vmap(op_with_rule)(X)
    assert transform_levels.levels() == []


def test_rule_kernel_in_nested_vmaps_finds_its_level(op_with_rule):
    m = O.randn(2, 4, 3)
    # The op sees the outer level's tensor while the inner vmap is innermost.
    out = O.vmap(lambda a: O.vmap(lambda b: op_with_rule(a) + b)(a))(m)
    close(out, (m * 2)[:, None, :, :] + m[:, :, None, :])  # out[i, j] = 2 m[i] + m[i, j]
    assert [s[1] for s in op_with_rule.seen] == [2]


def test_rule_kernel_with_an_escaped_batched_tensor(op_with_rule):
    kept = []
    O.vmap(lambda r: (kept.append(r), r)[1])(X)
    with pytest.raises(RuntimeError, match="was used outside the vmap that created it"):
        op_with_rule(kept[0])


def test_rule_kernel_with_keywords_takes_the_python_kernel(ns):
    @custom_op(f"{ns}::scale", mutates_args=())
    def scale(x: Tensor, *, k: float = 2.0) -> Tensor:
        return x * k

    @scale.register_vmap
    def _(info, in_dims, x, *, k=2.0):
        return scale(x, k=k), 0
    close(O.vmap(lambda r: scale(r, k=3.0))(X), X * 3)
    close(O.vmap(scale)(X), X * 2)


# --- a custom op's own call ----------------------------------------------------------------------

def test_custom_op_call_forms(op_with_rule):
    close(op_with_rule(X), X * 2)
    close(op_with_rule.__call__(X), X * 2)
    close(type(op_with_rule).__call__(op_with_rule, X), X * 2)
    close(functools.partial(op_with_rule)(X), X * 2)


def test_custom_op_subclasses(ns):
    base = type(custom_op(f"{ns}::a", lambda x: x.clone(), mutates_args=(), schema="(Tensor x) -> Tensor"))

    class Calls(base):
        def __call__(self, *args):
            return ("own", len(args))
    assert Calls.__call__ is not base.__call__
    with pytest.raises(TypeError, match="takes no keyword arguments"):
        type("Bad", (base,), {}, flavour=1)


@pytest.mark.parametrize("make, match", [
    (lambda x: x, "alias"),
    (lambda x: x.view(-1), "alias"),
    (lambda x: x[0], "alias"),
])
def test_custom_op_output_aliasing_an_input_is_refused(ns, make, match):
    op = custom_op(f"{ns}::bad", make, mutates_args=(), schema="(Tensor x) -> Tensor")
    with pytest.raises(RuntimeError, match=match):
        op(O.randn(2, 2))


def test_custom_op_output_checks_with_lists_and_numbers(ns):
    op = custom_op(f"{ns}::lst", lambda xs, k: xs[0] * k, mutates_args=(), schema="(Tensor[] xs, float k) -> Tensor")
    close(op([X, X], 2.0), X * 2)
    bad = custom_op(f"{ns}::lstbad", lambda xs, k: xs[1], mutates_args=(), schema="(Tensor[] xs, float k) -> Tensor")
    with pytest.raises(RuntimeError, match="alias"):
        bad([X, X + 1], 2.0)


def test_a_function_referring_to_its_vmapped_form_is_collected():
    import gc
    import weakref

    def make():
        def f(r):
            return r * 2 if v is not None else r
        v = O.vmap(f)
        return v, weakref.ref(f)
    v, ref = make()
    close(v(X), X * 2)
    del v
    gc.collect()
    assert ref() is None
