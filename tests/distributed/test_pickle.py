"""Every public object kind pickles into another process and back, and copies, exactly.

One subprocess loads the whole table (so the objects really cross a process
boundary, into an interpreter that only imported opyard and the extension
module), describes what it received and pickles it back; each row then checks
both what the other process saw and what came back.
"""

import copy
import os
import pickle
import subprocess
import sys

import extension_ops
import numpy as np
import opyard
import pytest
from opyard import nn
from opyard.dispatcher import DispatchKey, DispatchKeySet

TESTS_DIR = os.path.dirname(os.path.abspath(__file__))

_CHILD = """
import pickle, sys
sys.path.insert(0, {tests!r})
import extension_ops
objs = pickle.loads(sys.stdin.buffer.read())
seen = {{k: extension_ops.summary(v) for k, v in objs.items()}}
sys.stdout.buffer.write(pickle.dumps((seen, objs)))
"""


def run_child(payload, script=_CHILD):
    """Unpickle ``payload`` in a fresh interpreter; its stdout (bytes) or a failure with its stderr."""
    proc = subprocess.run([sys.executable, "-c", script.format(tests=TESTS_DIR)], input=payload,
                          capture_output=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout


def _tagged():
    t = extension_ops.Tagged([1, -2, 3])
    t.label = "kept"
    return t


def _non_leaf():
    a = opyard.ones(3, dtype=opyard.float64, requires_grad=True)
    return a * 2


def _graph_module():
    return opyard.fx.make_fx(lambda x, y: extension_ops.scaled_sin(x, 2.0) + y.mm(y).sum())(
        opyard.ones(2, 2), opyard.eye(2))


def _module():
    m = extension_ops.TwoLayer()
    m.eval()
    return m


def _schema():
    return opyard.parse_schema(
        "ns::f.o(Tensor(a!) x, int[2] y=[1, 2], *, float? z=None, Tensor(b -> *)[] w) -> (Tensor(a!) out, Tensor)")


# name -> a function making the object. Tensors cover every dtype and the layouts that strides
# distinguish: transposed, strided slices, negative and zero strides, 0-d, empty, meta.
CASES = {
    "tensor float32": lambda: opyard.tensor([[1.5, -2.0], [3.25, 0.1]]),
    "tensor float64": lambda: opyard.tensor([0.1, 1e-300, 1.0 / 3.0], dtype=opyard.float64),
    "tensor float16": lambda: opyard.tensor([0.5, 65504.0], dtype=opyard.float16),
    "tensor int32": lambda: opyard.tensor([2**31 - 1, -(2**31)], dtype=opyard.int32),
    "tensor int64": lambda: opyard.tensor([2**62, -5]),
    "tensor int16": lambda: opyard.tensor([-300, 300], dtype=opyard.int16),
    "tensor int8": lambda: opyard.tensor([-128, 127], dtype=opyard.int8),
    "tensor uint8": lambda: opyard.tensor([0, 255], dtype=opyard.uint8),
    "tensor bool": lambda: opyard.tensor([True, False, True]),
    "tensor complex64": lambda: opyard.tensor([1 + 2j, -3j], dtype=opyard.complex64),
    "tensor complex128": lambda: opyard.tensor([1e-200 + 1j], dtype=opyard.complex128),
    "tensor 0-d": lambda: opyard.tensor(7.0, dtype=opyard.float64),
    "tensor empty": lambda: opyard.zeros(0, 3, dtype=opyard.int32),
    "tensor transposed": lambda: opyard.arange(12, dtype=opyard.float64).reshape(3, 4).t(),
    "tensor strided view": lambda: opyard.arange(20, dtype=opyard.int32)[3:17:4],
    "tensor column view": lambda: opyard.arange(12.0).reshape(3, 4)[:, 1],
    "tensor expanded": lambda: opyard.tensor([1.0, 2.0, 3.0]).expand(2, 3),
    "tensor negative stride": lambda: opyard.from_numpy(np.arange(6.0)[::-2]),
    "tensor fortran order": lambda: opyard.from_numpy(np.asfortranarray(np.arange(6).reshape(2, 3))),
    "tensor requires_grad": lambda: opyard.tensor([1.0, 2.0], requires_grad=True),
    "tensor non-leaf": _non_leaf,
    "tensor privateuseone": lambda: opyard.arange(6.0, device="privateuseone").reshape(2, 3).t(),
    "tensor meta": lambda: opyard.empty(2, 3, dtype=opyard.float64, device="meta"),
    "tensor meta transposed": lambda: opyard.empty(2, 3, device="meta").t(),
    "tensor subclass": _tagged,
    "Parameter": lambda: nn.Parameter(opyard.tensor([1.0, 2.0], dtype=opyard.float64)),
    "Parameter frozen": lambda: nn.Parameter(opyard.ones(2), requires_grad=False),
    "Size": lambda: opyard.Size([2, 3]),
    "dtype": lambda: opyard.float64,
    "dtypes": lambda: [opyard.int32, opyard.bool, opyard.complex64, opyard.uint8],
    "device cpu": lambda: opyard.device("cpu"),
    "device cuda:1": lambda: opyard.device("cuda", 1),
    "device meta": lambda: opyard.device("meta"),
    "memory_format": lambda: opyard.contiguous_format,
    "FunctionSchema": _schema,
    "Argument": lambda: _schema().arguments[0],
    "Argument kwarg-only": lambda: _schema().arguments[2],
    "Argument return": lambda: _schema().returns[1],
    "AliasInfo": lambda: _schema().arguments[0].alias_info,
    "AliasInfo wildcard": lambda: opyard.parse_schema("f(Tensor(b -> *) x) -> ()").arguments[0].alias_info,
    "SchemaError": lambda: _schema_error(),
    "Tag": lambda: opyard.Tag.pt2_compliant_tag,
    "version": lambda: opyard.version.torch_api,
    "DispatchKey": lambda: DispatchKey.AutogradCPU,
    "DispatchKeySet": lambda: DispatchKeySet([DispatchKey.CPU, DispatchKey.AutogradCPU, DispatchKey.Fake]),
    "DispatchKeySet empty": lambda: DispatchKeySet(),
    "OpOverload aten": lambda: opyard.ops.aten.add.Tensor,
    "OpOverloadPacket aten": lambda: opyard.ops.aten.add,
    "OpOverload custom": lambda: opyard.ops.extension_ops.scaled_sin.default,
    "OpOverload Library": lambda: opyard.ops.extension_ops.axpy.default,
    "OpOverloadPacket custom": lambda: opyard.ops.extension_ops.scaled_sin,
    "CustomOpDef": lambda: extension_ops.scaled_sin,
    "nn.Module": _module,
    "nn.Linear": lambda: nn.Linear(3, 2),
    "GraphModule": _graph_module,
    "no_grad": lambda: opyard.no_grad(),
    "opyard.ops": lambda: opyard.ops,
    "ops namespace": lambda: opyard.ops.extension_ops,
    "optim.SGD": lambda: _stepped_sgd(),
}


def _stepped_sgd():
    m = nn.Linear(2, 1)
    opt = opyard.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    m(opyard.ones(1, 2)).sum().backward()
    opt.step()
    return opt


def _schema_error():
    try:
        opyard.parse_schema("f(Tensor x")
    except opyard.SchemaError as e:
        return e
    raise AssertionError("parse_schema accepted a bad schema")


@pytest.fixture(scope="module")
def objects():
    opyard.manual_seed(0)
    return {name: make() for name, make in CASES.items()}


@pytest.fixture(scope="module")
def across(objects):
    """What the other process saw of each object, and each object as it came back."""
    seen, back = pickle.loads(run_child(pickle.dumps(objects)))
    return seen, back


# Kinds that are singletons or registry entries: they come back as the very same object.
_IDENTICAL = (opyard.dtype, opyard.memory_format, DispatchKey, opyard.Tag, opyard.library.CustomOpDef,
              type(opyard.ops), type(opyard.ops.aten))
# Kinds with a meaningful ``==`` (beyond the summary).
_EQUAL = (opyard.FunctionSchema, DispatchKeySet, opyard.library.OpOverload, opyard.Size, opyard.device,
          str)


def check_same(orig, back):
    """``back`` is an exact copy of ``orig`` (identical where the kind is a singleton or a name)."""
    assert type(back) is type(orig)
    assert extension_ops.summary(back) == extension_ops.summary(orig)
    if isinstance(orig, opyard.Tensor):
        if not orig.is_meta:
            assert np.array_equal(back.detach().numpy(), orig.detach().numpy())
        assert back.is_leaf
    if isinstance(orig, list):
        assert all(b is o for b, o in zip(back, orig))
    if isinstance(orig, _IDENTICAL):
        assert back is orig
    if isinstance(orig, _EQUAL):
        assert back == orig


@pytest.mark.parametrize("name", list(CASES))
def test_pickle_roundtrip_across_processes(name, objects, across):
    seen, back = across
    orig = objects[name]
    assert seen[name] == extension_ops.summary(orig), "the other process saw a different object"
    check_same(orig, back[name])


@pytest.mark.parametrize("name", list(CASES))
def test_deepcopy_is_exact(name, objects):
    orig = objects[name]
    if name == "tensor non-leaf":
        with pytest.raises(RuntimeError, match=r"Only Tensors created explicitly by the user \(graph leaves\)"):
            copy.deepcopy(orig)
        return
    if name == "tensor subclass":
        # torch's: a subclass's default new_empty() gives a plain tensor, which deepcopy refuses
        with pytest.raises(RuntimeError, match=r"__deepcopy__\(\) for non-wrapper subclasses only works for "
                                               r"subclass types that implement new_empty\(\)"):
            copy.deepcopy(orig)
        return
    check_same(orig, copy.deepcopy(orig))


@pytest.mark.parametrize("name", [n for n in CASES if not n.startswith(("tensor", "Parameter"))])
def test_copy_is_exact(name, objects):
    check_same(objects[name], copy.copy(objects[name]))


@pytest.mark.parametrize("name", [n for n in CASES if n.startswith(("tensor", "Parameter"))])
def test_copy_shares_memory(name, objects):
    orig = objects[name]
    out = copy.copy(orig)
    assert extension_ops.describe(out) == extension_ops.describe(orig)
    if not orig.is_meta and orig.numel() and orig.detach().numpy().flags.writeable:
        assert np.shares_memory(out.detach().numpy(), orig.detach().numpy())


# --- tensors: what pickle keeps and drops, what deepcopy shares -----------------------------------

def test_pickle_keeps_exact_bits_and_layout():
    base = opyard.arange(24, dtype=opyard.float64).reshape(2, 3, 4)
    t = base.permute(2, 0, 1)[1:, :, ::2]
    back = pickle.loads(pickle.dumps(t))
    assert back.stride() == t.stride() and back.shape == t.shape and not back.is_contiguous()
    assert np.array_equal(back.numpy(), t.numpy())
    assert back._base is None  # a fresh tensor with its own memory, as torch's unpickled tensors
    back.add_(1)  # writable, and not an alias of the original
    assert np.array_equal(t.numpy(), base.permute(2, 0, 1)[1:, :, ::2].numpy())


def test_pickle_drops_grad_and_graph_like_torch():
    a = opyard.ones(2, requires_grad=True)
    (a * 3).sum().backward()
    back = pickle.loads(pickle.dumps(a))
    assert back.requires_grad and back.is_leaf and back.grad is None
    out = pickle.loads(pickle.dumps(a * 2))
    assert out.requires_grad and out.is_leaf and out.grad_fn is None


def test_read_only_tensor_stays_read_only():
    t = opyard.tensor([1.0, 2.0]).expand(3, 2)
    back = pickle.loads(pickle.dumps(t))
    assert back.stride() == (0, 1)
    with pytest.raises(RuntimeError, match="refers to a single memory location"):
        back.copy_(opyard.zeros(3, 2))


def test_out_of_band_buffers_come_back_writable():
    t = opyard.arange(6, dtype=opyard.int32)
    buffers = []
    data = pickle.dumps(t, protocol=5, buffer_callback=buffers.append)
    back = pickle.loads(data, buffers=[bytes(b.raw()) for b in buffers])
    back.add_(1)
    assert back.tolist() == [1, 2, 3, 4, 5, 6] and t.tolist() == [0, 1, 2, 3, 4, 5]


def test_deepcopy_keeps_views_of_one_base_sharing_memory():
    base = opyard.arange(8.0)
    view = base[2:6:2]
    b2, v2 = copy.deepcopy([base, view])
    assert v2._base is b2 and v2.stride() == view.stride() and v2.storage_offset() == 2
    b2[4] = 100.0
    assert v2.tolist() == [2.0, 100.0] and view.tolist() == [2.0, 4.0]
    before = v2._version
    b2.add_(1)
    assert v2._version == before + 1


class _CopyableTagged(extension_ops.Tagged):
    def new_empty(self, shape):  # what torch's deepcopy of a non-wrapper subclass needs
        return type(self)(shape)


def test_deepcopy_copies_grad_and_user_state():
    a = _CopyableTagged([1.0, 2.0]).requires_grad_()
    a.label = ["mutable"]
    a.grad = opyard.tensor([0.5, 0.5])
    c = copy.deepcopy(a)
    assert type(c) is _CopyableTagged and c.requires_grad and c.is_leaf and c.tolist() == [1.0, 2.0]
    assert c.grad.tolist() == [0.5, 0.5] and c.grad is not a.grad
    assert c.label == ["mutable"] and c.label is not a.label


@pytest.mark.parametrize("make", [
    lambda: opyard.ones(2, requires_grad=True) * 2,
    lambda: opyard.ones(4, requires_grad=True)[1:3],
])
def test_deepcopy_of_a_non_leaf_fails_like_torch(make):
    with pytest.raises(RuntimeError, match=r"Only Tensors created explicitly by the user \(graph leaves\) "
                                           r"support the deepcopy protocol"):
        copy.deepcopy(make())


def test_copy_is_shallow_like_torch():
    p = nn.Parameter(opyard.zeros(3))
    c = copy.copy(p)
    assert type(c) is nn.Parameter and c.requires_grad and c is not p
    with opyard.no_grad():
        c[0] = 5.0
    assert p[0].item() == 5.0


@pytest.mark.parametrize("action", ["pickle", "deepcopy", "copy"])
def test_fake_tensors_refuse(action):
    from opyard.fake import FakeTensorMode

    with FakeTensorMode():
        x = opyard.empty(2, 3)
    do = {"pickle": pickle.dumps, "deepcopy": copy.deepcopy, "copy": copy.copy}[action]
    with pytest.raises(TypeError, match=rf"cannot {action} a FakeTensor \(shape \[2, 3\], opyard.float32\): "
                                        r"it holds no data.*device='meta'"):
        do(x)


# --- modules ------------------------------------------------------------------------------------

def test_module_keeps_tied_parameters_and_parameter_type():
    m = extension_ops.TwoLayer()
    m.extra = m.first.weight  # the same Parameter reachable twice
    for out in (pickle.loads(pickle.dumps(m)), copy.deepcopy(m)):
        assert type(out.first.weight) is nn.Parameter and out.first.weight.requires_grad
        assert out.extra is out.first.weight
        assert out.first.weight is not m.first.weight
        assert np.array_equal(out.first.weight.detach().numpy(), m.first.weight.detach().numpy())
        assert [n for n, _ in out.named_parameters()] == [n for n, _ in m.named_parameters()]


def test_deepcopied_module_trains_independently():
    m = nn.Linear(2, 1)
    c = copy.deepcopy(m)
    c(opyard.ones(1, 2)).sum().backward()
    assert c.weight.grad is not None and m.weight.grad is None


def test_optimizer_travels_with_its_module_and_keeps_training_alike():
    m = nn.Linear(2, 1)
    opt = opyard.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
    m(opyard.ones(1, 2)).sum().backward()
    opt.step()  # momentum buffers exist: they must travel with their parameters
    m2, opt2 = pickle.loads(pickle.dumps((m, opt)))
    assert opt2.param_groups[0]["params"][0] is m2.weight
    for model, optimizer in ((m, opt), (m2, opt2)):
        for _ in range(2):
            optimizer.zero_grad()
            model(opyard.ones(1, 2)).sum().backward()
            optimizer.step()
    assert np.array_equal(m2.weight.detach().numpy(), m.weight.detach().numpy())


@pytest.mark.parametrize("action", [pickle.dumps, copy.deepcopy, copy.copy])
def test_library_refuses_to_be_copied(action, ns):
    lib = opyard.library.Library(ns, "DEF")
    with pytest.raises(TypeError, match=rf"cannot pickle or copy Library\(kind=DEF, ns={ns}, .*a Library holds "
                                        rf"this process's registrations; pickle its operators \(opyard.ops.{ns}.<name>\)"):
        action(lib)
    lib._destroy()


@pytest.mark.parametrize("device", ["cpu", "meta"])
@pytest.mark.parametrize("action", [lambda t: pickle.loads(pickle.dumps(t)), copy.copy, copy.deepcopy])
def test_extra_dispatch_keys_travel(device, action):
    # A subclass may put keys of its own (Python, Functionalize, ...) on its tensors: they come back.
    t = opyard.ones(2, device=device).requires_grad_()
    t._keyset |= DispatchKeySet([DispatchKey.Functionalize, DispatchKey.Python]).raw()
    out = action(t)
    assert DispatchKeySet.from_raw(out._keyset) == DispatchKeySet.from_raw(t._keyset)
