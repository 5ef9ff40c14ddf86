"""Metadata answered by ``__torch_dispatch__`` (``dispatch_sizes_strides_policy``, ``dispatch_device``,
``dispatch_layout``), against torch 2.15's recorded answers (``tests/data/torch_protocol_answers.json``)."""

import json
import os

import pytest

import opyard

DATA_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
DATA = json.load(open(os.path.join(DATA_DIR, "torch_protocol_answers.json")))
POLICY = DATA["metadata_policy"]

OPTIONS = {
    "sizes": {"dispatch_sizes_strides_policy": "sizes"},
    "strides": {"dispatch_sizes_strides_policy": "strides"},
    "device": {"dispatch_device": True},
    "layout": {"dispatch_layout": True},
}
VALUES = {
    "aten.sym_size.default": (5, 3), "aten.sym_stride.default": (4, 2), "aten.dim.default": 2,
    "aten.sym_numel.default": 15, "aten.is_contiguous.default": False,
    "aten.is_contiguous.memory_format": True, "aten.sym_storage_offset.default": 7,
    "prim.device.default": opyard.device("meta"), "prim.layout.default": opyard.strided,
}
QUERIES = {
    "size()": lambda e: e.size(), "size(1)": lambda e: e.size(1), "size(-1)": lambda e: e.size(-1),
    "shape": lambda e: e.shape, "stride()": lambda e: e.stride(), "stride(0)": lambda e: e.stride(0),
    "dim()": lambda e: e.dim(), "ndim": lambda e: e.ndim, "numel()": lambda e: e.numel(),
    "nelement()": lambda e: e.nelement(), "len()": lambda e: len(e),
    "is_contiguous()": lambda e: e.is_contiguous(),
    "is_contiguous(channels_last)": lambda e: e.is_contiguous(memory_format=opyard.channels_last),
    "storage_offset()": lambda e: e.storage_offset(), "device": lambda e: e.device,
    "layout": lambda e: e.layout, "is_cpu": lambda e: e.is_cpu, "is_meta": lambda e: e.is_meta,
    "get_device()": lambda e: e.get_device(), "dtype": lambda e: e.dtype is opyard.float32,
}
# torch's text when a handler answers None for ``prim.device`` is a C++ conversion message
# ("unpackString: expected bytes or unicode object"); opyard names the query and the expected type.
OWN_TEXT = {"device returned invalid type NoneType, expected Device"}


def describe(value):
    if isinstance(value, tuple) and all(isinstance(v, int) for v in value):
        return {"sizes": list(value)}
    if isinstance(value, opyard.device):
        return {"device": str(value)}
    if isinstance(value, opyard.layout):
        return {"layout": value.name}
    if isinstance(value, (bool, int, float)):
        return value
    return repr(value)


def make_class(maker, policy, handler, calls):
    class E(opyard.Tensor):
        @staticmethod
        def __new__(cls, data):
            if maker == "wrapper":
                return opyard.Tensor._make_wrapper_subclass(cls, data.size(), strides=data.stride(), dtype=data.dtype,
                                                            device=data.device, **OPTIONS[policy])
            return opyard.Tensor._make_subclass(cls, data, False, **OPTIONS[policy])

        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            calls.append(str(func))
            if handler == "none":
                return None
            if handler == "values" and str(func) in VALUES:
                return VALUES[str(func)]
            return NotImplemented
    return E


@pytest.mark.parametrize("key", sorted(POLICY))
def test_metadata_query_matches_torch(key):
    maker, policy, handler, query = key.split("|")
    expected = POLICY[key]
    calls = []
    e = make_class(maker, policy, handler, calls)(opyard.randn(2, 3))
    calls.clear()
    try:
        got = {"value": describe(QUERIES[query](e))}
    except Exception as exc:  # noqa: BLE001 -- the answer is the exception
        got = {"error": type(exc).__name__, "message": str(exc).split("\n")[0]}
    got["calls"] = calls
    if "error" in expected and "error" in got:
        torch_text = expected["message"].replace("torch.ops.", "opyard.ops.").replace("torch._ops.", "opyard._ops.")
        if got["message"] in OWN_TEXT:
            torch_text = got["message"]
        assert (got["error"], got["message"], got["calls"]) == (expected["error"], torch_text, expected["calls"])
    else:
        assert got == expected


def test_metadata_cases_cover_every_query_and_policy():
    assert len(POLICY) == 2 * 4 * 3 * len(QUERIES)


def test_policies_stay_per_instance():
    # A class's other instances (made without the option) keep the metadata they were made with.
    calls = []
    E = make_class("wrapper", "sizes", "values", calls)
    routed = E(opyard.randn(2, 3))
    plain = opyard.Tensor._make_wrapper_subclass(E, (4,))
    assert routed.size() == (5, 3) and plain.size() == (4,) and plain.shape == (4,)
    assert opyard.randn(2).size() == (2,)  # plain tensors never ask


def test_positional_wrapper_arguments_are_torchs():
    # (cls, size, strides, storage_offset, memory_format, dtype, layout, device, pin_memory,
    #  requires_grad, dispatch_sizes_strides_policy, dispatch_device, dispatch_layout, _extra_dispatch_keys)
    seen = []

    class P(opyard.Tensor):
        @classmethod
        def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
            seen.append(str(func))
            return (7, 7) if str(func) == "aten.sym_size.default" else None

    t = opyard.Tensor._make_wrapper_subclass(P, (2, 3), (3, 1), 0, opyard.contiguous_format, opyard.float64,
                                             opyard.strided, opyard.device("cpu"), False, True, "sizes")
    assert t.dtype is opyard.float64 and t.requires_grad and t.stride() == (3, 1)
    assert t.size() == (7, 7) and "aten.sym_size.default" in seen
    K = opyard.dispatcher.DispatchKey
    n = opyard.Tensor._make_wrapper_subclass(P, (3,), (1,), 0, opyard.contiguous_format, opyard.float32,
                                             opyard.strided, opyard.device("cpu"), False, False, None, False, False,
                                             opyard.dispatcher.DispatchKeySet(K.NestedTensor))
    keys = opyard._C._dispatch_keys(n)
    assert keys.has(K.NestedTensor) and not keys.has(K.AutogradNestedTensor) and keys.has(K.Python)


def test_nested_tensor_keys_have_torchs_bits():
    K, KS = opyard.dispatcher.DispatchKey, opyard.dispatcher.DispatchKeySet
    assert KS(K.NestedTensor).raw_repr() == 33554432
    assert KS(K.AutogradNestedTensor).raw_repr() == 137438953472
    assert KS(K.Autograd).has(K.AutogradNestedTensor)
    assert opyard._C.DispatchKey.NestedTensor is K.NestedTensor
