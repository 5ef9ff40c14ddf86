"""The one device table: which device type reaches which backend key, and which Autograd and
Autocast keys serve each backend, as the core decides them (Note [One device table],
src/python/dispatch/keys.rs). Python reads it once (``opyard._keys``) and keeps no copy of its own."""

import ast
import os

import pytest

import opyard
from opyard import _keys
from opyard.autograd import _tensor_meta
from opyard.dispatcher import DispatchKey, DispatchKeySet

PACKAGE = os.path.join(os.path.dirname(opyard.__file__))
BACKENDS = ["CPU", "CUDA", "XLA", "MPS", "XPU", "HPU", "Lazy", "MAIA", "PrivateUse1", "Meta", "FPGA"]


def test_every_backend_in_priority_order_with_torchs_autograd_key():
    assert [row[1].name for row in _keys.DEVICE_TABLE] == BACKENDS
    assert {row[1].name: row[2].name for row in _keys.DEVICE_TABLE} == {
        **{b: "Autograd" + b for b in BACKENDS if b != "FPGA"}, "FPGA": "AutogradOther"}


def test_device_types_and_autocast_keys():
    assert {t: k.name for t, k in _keys.BACKEND_OF_DEVICE.items()} == {
        "cpu": "CPU", "cuda": "CUDA", "meta": "Meta", "privateuseone": "PrivateUse1"}
    assert {t: k.name for t, k in _keys.AUTOCAST_OF_DEVICE.items()} == {"cpu": "AutocastCPU", "cuda": "AutocastCUDA"}



@pytest.mark.parametrize("device_type", ["cpu", "meta", "privateuseone"])
def test_a_tensor_carries_its_devices_backend_key(device_type):
    assert opyard.empty(1, device=device_type)._keyset == DispatchKeySet(_keys.BACKEND_OF_DEVICE[device_type]).raw()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_tensor_of_any_backend_requires_grad_at_its_own_autograd_key(backend):
    keyset = DispatchKeySet(DispatchKey[backend]).raw()
    want = DispatchKey.AutogradOther if backend == "FPGA" else DispatchKey["Autograd" + backend]
    assert _tensor_meta.autograd_bit(keyset) == DispatchKeySet(want).raw()
    assert _tensor_meta.AUTOGRAD_MASK & DispatchKeySet(want).raw()


def test_the_highest_backend_picks_the_autograd_key():
    keyset = DispatchKeySet([DispatchKey.CPU, DispatchKey.XLA]).raw()
    assert _tensor_meta.autograd_bit(keyset) == DispatchKeySet(DispatchKey.AutogradXLA).raw()


class _Wrapper(opyard.Tensor):
    @classmethod
    def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
        return NotImplemented


def test_a_wrapper_on_meta_that_requires_grad_has_autograd_meta():
    # A wrapper's class defines __torch_dispatch__ (torch refuses Tensor itself: "Tensor must define
    # __torch_dispatch__").
    w = opyard.Tensor._make_wrapper_subclass(_Wrapper, (2,), dtype=opyard.float32, device="meta",
                                             requires_grad=True)
    assert DispatchKeySet.from_raw(w._keyset).has(DispatchKey.AutogradMeta)


_DEVICE_TYPES = {"cpu", "cuda", "meta", "privateuseone", "xpu", "mps", "xla", "hpu", "lazy"}
_KEY_NAMES = {k.name for k in DispatchKey}


def _maps_devices_to_keys(node):
    """A dict literal whose keys are device types and whose values are dispatch keys (members or names)."""
    pairs = [(k, v) for k, v in zip(node.keys, node.values) if isinstance(k, ast.Constant) and k.value in _DEVICE_TYPES]
    return any(isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.value.id == "DispatchKey"
               or isinstance(v, ast.Constant) and v.value in _KEY_NAMES for _, v in pairs)


def test_no_module_keeps_its_own_device_table():
    found = []
    for dirpath, _, files in os.walk(PACKAGE):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read(), path)
                found += [f"{os.path.relpath(path, PACKAGE)}:{n.lineno}" for n in ast.walk(tree)
                          if isinstance(n, ast.Dict) and _maps_devices_to_keys(n)]
    assert not found, f"device -> key tables outside opyard._keys (read _keys.DEVICE_TABLE instead): {found}"
