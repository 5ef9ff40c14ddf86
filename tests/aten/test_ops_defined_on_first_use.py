"""The built-in ``aten`` packets are defined on their first use (Note [Operators defined on first
use], src/python/dispatch/lazy.rs), invisibly: every way of reaching an operator by name defines it first,
a user's kernel registered before the first use still wins, and two threads define a packet once.

Each check runs in a fresh interpreter, where ``aten::sin`` & co. are still pending (the test
process itself has long defined them).
"""

import os
import pickle
import subprocess
import sys
import textwrap

import opyard
import pytest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")

# Run first in each child: the packets the checks touch must still be pending there.
PRELUDE = """
import opyard
from opyard import _core
PACKETS = ("aten::sin", "aten::cos", "aten::tanh", "aten::exp", "aten::sqrt", "aten::neg")
assert all(_core._is_pending(p) for p in PACKETS), [p for p in PACKETS if not _core._is_pending(p)]
x = opyard.tensor([0.5, 1.0])
"""


def run(code):
    """Run the prelude and ``code`` in a fresh interpreter; return its stdout."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(PYTHON_DIR)}
    done = subprocess.run([sys.executable, "-c", PRELUDE + textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_import_defines_few_packets():
    out = run("""
        from opyard import _aten
        print(len(_core._pending_definitions()), len(_aten._index.PACKETS))
    """)
    pending, total = map(int, out.split())
    assert pending >= total * 0.9, (pending, total)


def test_a_call_defines_the_packet_with_its_kernels_and_derivative():
    out = run("""
        y = opyard.sin(x)
        assert not _core._is_pending("aten::sin")
        t = x.clone().requires_grad_()
        t.cos().sum().backward()
        print((y.tolist(), t.grad.tolist(), sorted(opyard.ops.aten.sin.overloads())))
    """)
    import math
    values, grad, overloads = eval(out)
    assert values == pytest.approx([math.sin(0.5), math.sin(1.0)])
    assert grad == pytest.approx([-math.sin(0.5), -math.sin(1.0)])
    assert overloads == ["default", "out"]


def test_lookups_by_name_see_pending_packets():
    out = run("""
        assert hasattr(opyard.ops.aten, "tanh") and not hasattr(opyard.ops.aten, "no_such_op")
        assert opyard._C._dispatch_has_kernel_for_dispatch_key("aten::exp", "CPU")
        assert "Meta: registered at" in opyard.dispatcher.dump("aten::sqrt")
        assert "Autograd" in opyard.dispatcher.dump("aten::sqrt")
        assert _core._find_op("aten::neg") is not None
        assert opyard.ops.aten.cos.default.name() == "aten::cos"
        print("ok")
    """)
    assert out.strip() == "ok"


def test_user_kernel_registered_before_first_use_wins():
    out = run("""
        lib = opyard.library.Library("aten", "IMPL")
        lib.impl("sin", lambda self: self * 0 + 7, "CPU")
        print(opyard.sin(x).tolist(), opyard.ops.aten.sin.default(x).tolist())
    """)
    assert out.strip() == "[7.0, 7.0] [7.0, 7.0]"


def test_fragment_overload_of_a_pending_packet_comes_after_the_built_ins():
    out = run("""
        lib = opyard.library.Library("aten", "FRAGMENT")
        lib.define("tanh.twice(Tensor self, int k) -> Tensor")
        print(opyard.ops.aten.tanh.overloads())
        try:
            lib.define("exp(Tensor self) -> Tensor")
        except RuntimeError as e:
            print("refused:", "exp" in str(e))
    """)
    first, second = out.strip().split("\n")
    assert eval(first)[-1] == "twice" and "default" in eval(first)
    assert second == "refused: True"


def test_two_threads_first_touching_one_packet():
    out = run("""
        import threading
        results, errors = [], []
        barrier = threading.Barrier(4)
        def touch():
            try:
                barrier.wait()
                results.append(opyard.exp(x).tolist())
            except BaseException as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=touch) for _ in range(4)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(errors, len({str(r) for r in results}), len(results), opyard.ops.aten.exp.overloads())
    """)
    assert out.strip() == "[] 1 4 ['default', 'out']"


def test_a_caller_waits_until_every_kernel_of_the_packet_is_in():
    # Note [Definitions published with their kernels]: while the first use of ``cos`` registers its
    # kernels (here: inside a hook run with them), another thread calling ``cos`` finds the packet
    # empty and waits, then gets the derivative: it never sees the overloads without their kernels.
    out = run("""
        import threading
        from opyard import _aten
        y = opyard.ones(2, requires_grad=True)
        seen, waiting = [], []
        def other():
            out = opyard.cos(y)
            seen.append(type(out.grad_fn).__name__)
            out.sum().backward()
            seen.append(y.grad.tolist())
        def hook(names):
            if "aten::cos" in names:
                t = threading.Thread(target=other)
                t.start()
                t.join(0.5)
                seen.append(("waiting", t.is_alive()))
                waiting.append(t)
        _aten.on_define(hook)
        print([round(v, 4) for v in opyard.cos(x).tolist()])
        for t in waiting: t.join()
        print(seen[0], seen[1], [round(v, 4) for v in seen[2]])
    """)
    assert out.splitlines() == ["[0.8776, 0.5403]", "('waiting', True) CosBackward0 [-0.8415, -0.8415]"]


def test_threads_first_calling_packets_with_autograd():
    # eight threads call the same pending packets first, each in its own order: every result has
    # its derivative (no autograd fallback node from a packet seen half-registered)
    out = run("""
        import threading
        fns = [opyard.sin, opyard.cos, opyard.tanh, opyard.exp, opyard.sqrt, opyard.neg]
        barrier = threading.Barrier(8)
        names, errors = set(), []
        def work(i):
            try:
                barrier.wait()
                for f in fns[i % 6:] + fns[:i % 6]:
                    t = opyard.full((3,), 0.5, requires_grad=True)
                    out = f(t)
                    names.add(type(out.grad_fn).__name__)
                    out.sum().backward()
            except BaseException as e:
                errors.append(repr(e))
        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(errors, sorted(names))
    """)
    assert out.strip() == ("[] ['CosBackward0', 'ExpBackward0', 'NegBackward0', 'SinBackward0', "
                           "'SqrtBackward0', 'TanhBackward0']")


def test_fake_and_meta_kernels_on_first_use():
    out = run("""
        from opyard.fake import FakeTensorMode
        with FakeTensorMode():
            f = opyard.empty(2, 3)
            print(tuple(opyard.tanh(f).shape), tuple(opyard.neg(opyard.empty(4, device="meta")).shape))
    """)
    assert out.strip() == "(2, 3) (4,)"


def test_an_operator_pickled_here_loads_where_its_packet_is_pending():
    blob = pickle.dumps((opyard.ops.aten.sqrt.default, opyard.ops.aten.sqrt))
    out = run(f"""
        import pickle
        overload, packet = pickle.loads({blob!r})
        print(overload.name(), packet.overloads())
    """)
    assert out.strip() == "aten::sqrt ['default', 'out']"


def test_fake_layer_loads_on_first_use_of_its_names():
    out = run("""
        import sys
        loaded = lambda: sorted(m for m in sys.modules if m.startswith("opyard.fake"))
        before = loaded()
        assert "fake" in dir(opyard) and "SymInt" in dir(opyard) and "_check" in dir(opyard)
        check, sym_int = opyard._check, opyard.SymInt
        after_names = loaded()
        ns = {}
        exec("from opyard import *", ns)
        with opyard.fake.FakeTensorMode():
            f = opyard.ones(2, 3)
        from opyard._subclasses.fake_tensor import FakeTensor
        print(before, "opyard.fake.symbolic" in after_names, ns["SymInt"] is sym_int, isinstance(f, FakeTensor),
              tuple(f.shape), check is opyard.fake.checks.check)
    """)
    assert out.strip().splitlines()[-1] == "[] True True True (2, 3) True"


def test_linalg_loads_on_first_use():
    out = run("""
        import sys
        before = "opyard.linalg" in sys.modules or "opyard._aten.linalg_ops" in sys.modules
        print(before, opyard.linalg.vector_norm(opyard.tensor([3.0, 4.0])).item(), opyard.linalg.LinAlgError.__name__)
    """)
    assert out.strip().splitlines()[-1] == "False 5.0 LinAlgError"


def test_library_loads_on_first_use():
    out = run("""
        import sys
        before = sorted(m for m in ("opyard.library", "opyard._library.custom_op") if m in sys.modules)
        import opyard._custom_ops  # torch's legacy spelling first: the package's names stay functions
        same = opyard._library.custom_op is opyard.library.custom_op and callable(opyard._library.custom_op)

        @opyard.library.custom_op("lazylib::twice", mutates_args=())
        def twice(t: opyard.Tensor) -> opyard.Tensor:
            return t * 2

        print(before, same, twice(x).tolist(), "library" in dir(opyard))
    """)
    assert out.strip().splitlines()[-1] == "[] True [1.0, 2.0] True"
