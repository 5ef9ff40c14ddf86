"""Operators returning ``Tensor[]``: their public forms (``opyard.split``, ``Tensor.unbind``) return
tuples, as torch's bindings do, and the operator (``ops.aten.split``) returns the schema's list."""

import re

import pytest

import opyard
from opyard import _functional
from opyard._aten import SCHEMAS
from opyard._aten._index import FUNCTIONS, METHODS

ops = opyard.ops

_LIST_RETURN = re.compile(r"Tensor(\([^)]*\))?\[\]")


def _list_returning_public_names():
    names = {s.split("(")[0].split(".")[0] for s in SCHEMAS if _LIST_RETURN.search(s.rsplit("->", 1)[1])}
    public = set(FUNCTIONS) | set(METHODS)
    # Python-level forms (atleast_1d, broadcast_tensors, meshgrid, histogramdd's structure) are
    # functions of their own, checked in the table below.
    return {n for n in names & public if isinstance(getattr(opyard, n, getattr(opyard.Tensor, n, None)),
                                                        type(ops.aten.add))}


def test_every_list_returning_packet_has_a_tuple_form():
    assert _list_returning_public_names() == set(_functional._TUPLE_RESULTS)


x = opyard.arange(24.0).reshape(6, 4)

CALLS = {
    "split": (lambda f: f(x, 2), "split.Tensor", lambda op: op(x, 2)),
    "split_sizes": (lambda f: f(x, [2, 4]), "split_with_sizes.default", lambda op: op(x, [2, 4])),
    "split_with_sizes": (lambda f: f(x, [1, 5]), "split_with_sizes.default", lambda op: op(x, [1, 5])),
    "chunk": (lambda f: f(x, 3), "chunk.default", lambda op: op(x, 3)),
    "unbind": (lambda f: f(x, 1), "unbind.int", lambda op: op(x, 1)),
    "tensor_split": (lambda f: f(x, 3), "tensor_split.sections", lambda op: op(x, 3)),
    "hsplit": (lambda f: f(x, 2), "hsplit.int", lambda op: op(x, 2)),
    "vsplit": (lambda f: f(x, 3), "vsplit.int", lambda op: op(x, 3)),
    "unsafe_split": (lambda f: f(x, 2), "unsafe_split.Tensor", lambda op: op(x, 2)),
    "unsafe_chunk": (lambda f: f(x, 2), "unsafe_chunk.default", lambda op: op(x, 2)),
    "unsafe_split_with_sizes": (lambda f: f(x, [3, 3]), "unsafe_split_with_sizes.default",
                                lambda op: op(x, [3, 3])),
    "split_copy": (lambda f: f(x, 2), "split_copy.Tensor", lambda op: op(x, 2)),
    "split_with_sizes_copy": (lambda f: f(x, [2, 4]), "split_with_sizes_copy.default", lambda op: op(x, [2, 4])),
    "unbind_copy": (lambda f: f(x), "unbind_copy.int", lambda op: op(x)),
    "gradient": (lambda f: f(x), "gradient.scalarint", lambda op: op(x)),
}


def _overload(qualified):
    name, overload = qualified.split(".")
    return getattr(getattr(ops.aten, name), overload)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_public_forms_return_tuples_and_the_operator_a_list(name):
    public, qualified, direct = CALLS[name]
    fname = "split" if name == "split_sizes" else name
    expected = direct(_overload(qualified))
    assert type(expected) is list
    forms = [getattr(opyard, fname, None), getattr(opyard.Tensor, fname, None)]
    forms = [f for f in forms if f is not None]
    assert forms
    for form in forms:
        got = public(form)
        assert type(got) is tuple, (name, form)
        assert len(got) == len(expected)
        for a, b in zip(got, expected):
            assert opyard.equal(a, b)
    if getattr(opyard.Tensor, fname, None) is not None:
        assert type(public(lambda *a: getattr(a[0], fname)(*a[1:]))) is tuple
    assert type(public(getattr(ops.aten, fname))) is list


def test_a_result_of_several_keeps_its_type_with_its_lists_as_tuples():
    h = opyard.histogramdd(x[:, :2], bins=2)
    assert type(h).__name__ == "histogramdd" and type(h.bin_edges) is tuple and len(h.bin_edges) == 2
    raw = ops.aten.histogramdd(x[:, :2], [2, 2])
    assert type(raw[1]) is list
    assert opyard.equal(raw[0], h.hist)


def test_tuple_forms_share_the_operator_objects():
    assert opyard.split.Tensor is ops.aten.split.Tensor
    assert opyard.split == ops.aten.split and hash(opyard.split) == hash(ops.aten.split)
    assert opyard.Tensor.unbind.int is ops.aten.unbind.int


def test_tuple_results_concatenate_with_tuples():
    a, b = x.split(3)
    assert len(x.split(3) + (a,)) == 3
    assert len(opyard.chunk(x, 2) + x.unbind(0)) == 8


class _Logged(opyard.Tensor):
    seen = []

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        cls.seen.append(func)
        return super().__torch_function__(func, types, args, kwargs or {})


def test_the_function_protocol_sees_the_public_form_and_returns_a_tuple():
    t = x.as_subclass(_Logged)
    _Logged.seen.clear()
    out = opyard.split(t, 2)
    assert type(out) is tuple and all(type(p) is _Logged for p in out)
    assert opyard.split in _Logged.seen


def test_tuple_form_of_an_operator_form_is_refused():
    with pytest.raises(TypeError, match="operator form"):
        opyard._core._tuple_packet(opyard.Tensor.__add__)
