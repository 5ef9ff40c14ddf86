"""The once-per-process deprecations, the deterministic mode's filled memory, the default device and
the Tensor methods that are no operators, beyond torch's recorded answers (test_surface_answers.py)."""

import warnings

import numpy as np
import pytest

import opyard
from opyard._aten import switches

X = opyard.arange(6.0).reshape(2, 3)

ONCE = {
    "chain_matmul": lambda: opyard.chain_matmul(X, X.t()),
    "frobenius_norm": lambda: opyard.frobenius_norm(X, [0]),
    "nuclear_norm": lambda: opyard.nuclear_norm(X),
}


@pytest.mark.parametrize("name", sorted(ONCE))
def test_deprecations_warn_once_unless_warn_always(name, monkeypatch):
    monkeypatch.setattr(switches, "_warned", set())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ONCE[name]()
        ONCE[name]()
    assert len([w for w in caught if "deprecated" in str(w.message)]) == 1
    opyard.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ONCE[name]()
            ONCE[name]()
    finally:
        opyard.set_warn_always(False)
    assert len([w for w in caught if "deprecated" in str(w.message)]) == 2


def test_range_warns_every_time():
    with pytest.warns(UserWarning, match="opyard.range is deprecated"):
        opyard.range(0, 2)
    with pytest.warns(UserWarning, match="opyard.range is deprecated"):
        assert opyard.range(0, 2).tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("make, filled", [
    (lambda: opyard.empty(3), [float("nan")] * 3),
    (lambda: opyard.empty(2, dtype=opyard.int16), [32767] * 2),
    (lambda: opyard.empty(2, dtype=opyard.uint8), [255] * 2),
    (lambda: opyard.empty(2, dtype=opyard.bool), [True] * 2),
    (lambda: opyard.empty_like(X)[0], [float("nan")] * 3),
    (lambda: opyard.empty_strided((2,), (2,)), [float("nan")] * 2),
    (lambda: X.new_empty((2,)), [float("nan")] * 2),
])
def test_deterministic_mode_fills_uninitialized_memory(make, filled):
    opyard.use_deterministic_algorithms(True)
    try:
        got = make().tolist()
    finally:
        opyard.use_deterministic_algorithms(False)
    np.testing.assert_array_equal(np.array(got), np.array(filled))


def test_default_device_reaches_the_constructors_not_the_operators():
    opyard.set_default_device("meta")
    try:
        made = [opyard.zeros(2), opyard.tensor([1.0]), opyard.rand(2, generator=opyard.Generator()),
                opyard.randint(0, 3, (2,)), opyard.asarray([1, 2]), opyard.range(0, 1)]
        assert all(t.device.type == "meta" for t in made)
        assert (X + 1).device.type == "cpu" and opyard.zeros_like(X).device.type == "cpu"
        assert opyard.zeros(2, device="cpu").device.type == "cpu"
    finally:
        opyard.set_default_device(None)
    assert opyard.zeros(1).device.type == "cpu"


def test_interop_threads_are_set_once():
    state = (switches._State.interop_threads, switches._State.interop_set)
    try:
        switches._State.interop_set = False
        opyard.set_num_interop_threads(3)
        assert opyard.get_num_interop_threads() == 3
        with pytest.raises(RuntimeError, match="cannot set number of interop threads"):
            opyard.set_num_interop_threads(2)
    finally:
        switches._State.interop_threads, switches._State.interop_set = state


def test_resize_records_torchs_node_and_its_gradient():
    x = opyard.arange(6.0, dtype=opyard.float64).requires_grad_()
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        y = x.resize(2, 3)
    assert type(y.grad_fn).__name__ == "ResizeBackward"
    (y * opyard.arange(6.0, dtype=opyard.float64).reshape(2, 3)).sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_apply_and_map_call_python_per_element_and_bump_the_version():
    x = X.clone()
    v = x._version
    assert x.apply_(lambda e: e + 1) is x and x._version > v
    assert x.tolist() == [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    with pytest.raises(RuntimeError, match="map_: expected"):
        X.clone().map_(opyard.ones(3, dtype=opyard.int64), lambda a, b: a)


def test_new_follows_self_dtype_and_device():
    m = opyard.empty(2, dtype=opyard.float64, device="meta")
    assert m.new(3).device.type == "meta" and m.new(3).dtype is opyard.float64
    assert X.new(opyard.Size([4])).shape == (4,)
    assert opyard.ones(1, dtype=opyard.int32).new([1.7]).dtype is opyard.int32


def test_fill_diagonal_on_non_contiguous_and_cube():
    t = opyard.zeros(3, 4).t()
    t.fill_diagonal_(5)
    assert t.tolist() == [[5.0, 0, 0], [0, 5.0, 0], [0, 0, 5.0], [0, 0, 0]]
    c = opyard.zeros(3, 3, 3).fill_diagonal_(1)
    assert c.sum().item() == 3 and c[2, 2, 2].item() == 1


def test_vander_and_chain_matmul_under_vmap():
    xs = opyard.arange(6.0).reshape(2, 3)
    out = opyard.vmap(lambda x: opyard.vander(x, 3))(xs)
    assert out.shape == (2, 3, 3)
    assert opyard.equal(out[1], opyard.vander(xs[1], 3))
