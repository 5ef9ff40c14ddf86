"""``import opyard`` loads what an operator call can reach; ``amp``, ``func``, ``fx``, ``nn``, ``optim``,
``version`` and torch's private alias modules load on first use (PEP 562), invisibly to users.

Each check runs in a fresh interpreter: the test process itself has long imported everything.
"""

import os
import subprocess
import sys
import textwrap

import pytest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")
LAZY = ["amp", "func", "fx", "nn", "optim", "version", "_C", "_custom_ops", "_prims_common",
        "_python_dispatcher", "_subclasses", "overrides", "_override_listing", "utils", "_lowrank", "cuda"]
# Modules below the facade that load on first use too, and standard modules numpy (2.3+) does not load
# (``threading``: its locks and thread-locals come from ``_thread``; ``copy``: on the first deep copy).
LAZY_INNER = ["numpy.random", "opyard._opcheck", "opyard.autograd.functional", "opyard.fx.experimental", "ml_dtypes", "logging",
              "hashlib", "dataclasses", "threading", "copy", "opyard._compat",
              "opyard.utils._python_dispatch", "opyard.utils._mode_utils", "opyard.utils.python_dispatch",
              "opyard.utils._aliasing", "opyard.utils._dispatch_checks", "opyard._library", "opyard._aten.joining_ops",
              "opyard._aten.shape", "opyard._aten.reduction", "opyard._aten.unary", "opyard._aten.pointwise",
              "opyard._aten.meta", "opyard._aten.extra_ops", "opyard._aten.resize_ops", "opyard._torch_dispatch_rules",
              # Note [Autograd modules on first use] (``autograd/__init__.py``)
              "opyard.autograd.engine", "opyard.autograd.function", "opyard.autograd._apply_args",
              "opyard.autograd.forward_ad", "opyard.autograd.views", "opyard.autograd.variable",
              "opyard.autograd.gradcheck", "opyard.autograd.derivatives.registry",
              "opyard.autograd.derivatives._kernel_parts", "opyard.autograd.derivatives._index"]


def run(code):
    """Run ``code`` in a fresh interpreter with this checkout's package; return its stdout."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(PYTHON_DIR)}
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_import_leaves_the_lazy_modules_unloaded():
    out = run("""
        import sys, opyard
        print(sorted(m for m in sys.modules if m.startswith("opyard.")
                     and m.split(".")[1] in %r))
    """ % (LAZY,))
    assert out.strip() == "[]"


def test_import_leaves_the_inner_lazy_modules_unloaded():
    # What numpy's own import loads does not count (numpy 2.2, the last for Python 3.10, loads threading).
    out = run("""
        import sys, numpy
        before = set(sys.modules)
        import opyard
        print(sorted(m for m in %r if m in sys.modules and m not in before))
    """ % (LAZY_INNER,))
    assert out.strip() == "[]"


def test_fx_loads_with_its_experimental_spellings():
    out = run("""
        import sys, opyard
        fx = opyard.fx
        print(fx.experimental.proxy_tensor.make_fx is fx.make_fx,
              fx.experimental.symbolic_shapes.ShapeEnv is opyard.fake.ShapeEnv)
    """)
    assert out.split() == ["True", "True"]


@pytest.mark.parametrize("name, module", [
    ("nn", "opyard.nn"), ("optim", "opyard.optim"), ("func", "opyard.func"), ("amp", "opyard.amp"),
    ("fx", "opyard.fx"),
    ("vmap", "opyard.func"), ("autocast", "opyard.amp"), ("__version__", "opyard.version"),
    ("_C", "opyard._C"), ("_subclasses", "opyard._subclasses"),
])
def test_first_attribute_access_loads_the_module(name, module):
    out = run(f"""
        import sys, opyard
        value = opyard.{name}
        print({module!r} in sys.modules, opyard.__dict__[{name!r}] is value)
    """)
    assert out.split() == ["True", "True"]


def test_from_import_dir_and_all_see_the_lazy_names():
    out = run("""
        import opyard
        from opyard import nn, optim, vmap, autocast, __version__
        assert nn.Linear and optim.SGD and callable(vmap) and callable(autocast) and __version__
        missing = [n for n in opyard.__all__ if not hasattr(opyard, n)]
        print(missing, all(n in dir(opyard) for n in ("nn", "optim", "func", "amp", "vmap", "_C")))
    """)
    assert out.strip() == "[] True"


def test_unknown_attribute_is_an_attribute_error():
    out = run("""
        import opyard
        try:
            opyard.no_such_thing
        except AttributeError as e:
            print(e)
    """)
    assert out.strip() == "module 'opyard' has no attribute 'no_such_thing'"


def test_register_vmap_loads_func_on_first_registration():
    out = run("""
        import sys, opyard

        @opyard.library.custom_op("lazy_t::twice", mutates_args=())
        def twice(x: opyard.Tensor) -> opyard.Tensor:
            return x * 2

        calls = []

        @twice.register_vmap
        def _(info, in_dims, x):
            calls.append(in_dims)
            return x * 2, in_dims[0]

        assert "opyard.func" in sys.modules
        y = opyard.vmap(twice)(opyard.ones(3, 2))
        print(calls, y.tolist())
    """)
    assert out.strip() == "[(0,)] [[2.0, 2.0], [2.0, 2.0], [2.0, 2.0]]"


def test_register_autocast_loads_amp_on_first_registration():
    out = run("""
        import sys, opyard

        @opyard.library.custom_op("lazy_t::ident", mutates_args=())
        def ident(x: opyard.Tensor) -> opyard.Tensor:
            return x.clone()

        ident.register_autocast("cpu", opyard.float16)
        assert "opyard.amp" in sys.modules
        with opyard.autocast("cpu", dtype=opyard.float16):
            print(ident(opyard.ones(2)).dtype)
    """)
    assert out.strip() == "opyard.float16"


def test_autocast_policy_of_builtin_ops_is_there_on_first_use():
    out = run("""
        import opyard
        a = opyard.ones(2, 2)
        with opyard.autocast("cpu", dtype=opyard.float16):
            print(opyard.mm(a, a).dtype)
    """)
    assert out.strip() == "opyard.float16"


def test_batched_gradcheck_loads_func():
    out = run("""
        import sys, opyard
        x = opyard.tensor([1.0, 2.0], dtype=opyard.float64, requires_grad=True)
        ok = opyard.autograd.gradcheck(lambda t: (t * t).sum(), (x,), check_batched_grad=True)
        print(ok, "opyard.func" in sys.modules)
    """)
    assert out.strip() == "True True"


def test_opcheck_loads_on_first_use_from_library():
    out = run("""
        import sys, opyard
        loaded = "opyard._opcheck" in sys.modules
        listed = {"opcheck", "OpCheckError", "generate_opcheck_tests"} <= set(dir(opyard.library))
        from opyard.library import opcheck, OpCheckError
        print(loaded, listed, opcheck.__module__.startswith("opyard._opcheck"),
              issubclass(OpCheckError, Exception))
        try:
            opyard.library.no_such_thing
        except AttributeError as e:
            print(e)
    """)
    assert out.splitlines() == ["False True True True", "module 'opyard.library' has no attribute 'no_such_thing'"]


def test_numpy_random_loads_on_the_first_draw():
    out = run("""
        import sys, opyard
        before = "numpy.random" in sys.modules
        x = opyard.rand(2, 3)
        print(before, "numpy.random" in sys.modules, tuple(x.shape), bool(((x >= 0) & (x < 1)).all()))
        opyard.manual_seed(7)
        a = opyard.randn(4).tolist()
        opyard.manual_seed(7)
        print(a == opyard.randn(4).tolist())
    """)
    assert out.splitlines() == ["False True (2, 3) True", "True"]


def test_extended_dtypes_load_ml_dtypes_on_first_use():
    out = run("""
        import sys, opyard
        print("ml_dtypes" in sys.modules, opyard.bfloat16.itemsize, opyard.float8_e4m3fn.is_floating_point)
        x = opyard.ones(3, dtype=opyard.bfloat16)
        print("ml_dtypes" in sys.modules, x.dtype, x.sin().dtype, (x + 1).tolist())
        m = opyard.empty(2, 3, dtype=opyard.float8_e5m2, device="meta")
        print(m.dtype, tuple(m.shape), opyard.finfo(opyard.bfloat16).eps)
    """)
    assert out.splitlines() == ["False 2 True", "True opyard.bfloat16 opyard.bfloat16 [2.0, 2.0, 2.0]",
                                "opyard.float8_e5m2 (2, 3) 0.0078125"]


def test_an_array_of_the_users_own_ml_dtypes_is_known():
    out = run("""
        import numpy as np, ml_dtypes, opyard
        a = np.ones(2, dtype=ml_dtypes.bfloat16)
        t = opyard.from_numpy(a)
        print(t.dtype, t.sin().dtype, t.is_floating_point(), opyard.tensor(a.astype(ml_dtypes.float8_e4m3fn)).dtype)
    """)
    assert out.split() == ["opyard.bfloat16", "opyard.bfloat16", "True", "opyard.float8_e4m3fn"]


@pytest.mark.parametrize("first", ["wrapper", "subclass", "mode", "reentrant"])
def test_dispatch_protocol_loads_on_first_need(first):
    # ``utils.python_dispatch`` (the ``Python`` key's fallback) is not loaded by the import; the first
    # tensor carrying the key, the first mode or the first read of its helpers loads it, and the
    # operator reaches the class's or the mode's ``__torch_dispatch__`` from the first call on.
    out = run("""
        import sys, opyard
        seen = []
        first = %r
        loaded = "opyard.utils.python_dispatch" in sys.modules

        class Wrapper(opyard.Tensor):
            @staticmethod
            def __new__(cls, inner):
                return opyard.Tensor._make_wrapper_subclass(cls, inner.shape, dtype=inner.dtype)

            def __init__(self, inner):
                self.inner = inner

            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                seen.append(str(func))
                unwrapped = [a.inner if isinstance(a, Wrapper) else a for a in args]
                return func(*unwrapped, **(kwargs or {}))

        class Plain(opyard.Tensor):
            @classmethod
            def __torch_dispatch__(cls, func, types, args=(), kwargs=None):
                seen.append(str(func))
                return super().__torch_dispatch__(func, types, args, kwargs)

        if first == "wrapper":
            y = Wrapper(opyard.ones(2)) + 1
        elif first == "subclass":
            y = opyard.ones(2).as_subclass(Plain).mul(2)
        elif first == "mode":
            from opyard.utils.python_dispatch import TorchDispatchMode

            class Log(TorchDispatchMode):
                def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                    seen.append(str(func))
                    return func(*args, **(kwargs or {}))

            with Log():
                y = opyard.ones(2) * 3
        else:
            with opyard.overrides.enable_reentrant_dispatch():
                y = opyard.ones(2) - 1
            seen.append("-")
        print(loaded, "opyard.utils.python_dispatch" in sys.modules, seen[:1], y.tolist())
    """ % (first,))
    expected = {"wrapper": "False True ['aten.add.Tensor'] [2.0, 2.0]",
                "subclass": "False True ['aten.mul.Tensor'] [2.0, 2.0]",
                "mode": "False True ['aten.ones.default'] [3.0, 3.0]",
                "reentrant": "False True ['-'] [0.0, 0.0]"}
    assert out.strip() == expected[first]


def test_import_defines_no_builtin_packet():
    # The factories, indexing and the sized Tensor methods look their overloads up on first call;
    # the switchboard holds the ``add_`` and ``ones_like`` packets, whose overloads the engine looks
    # up on the first backward pass (Note [Packets the switchboard holds], src/python/hooks.rs).
    out = run("""
        import opyard
        print(opyard._aten._DEFINED)
        x = opyard.zeros(2, 3)
        print(x[1].tolist(), x[:, 1:].shape, opyard.ones_like(x).sum().item(), x.new_ones(2).tolist(),
              x.tile(2).shape, opyard.empty(2, dtype=opyard.int64).dtype, opyard.randn_like(x).shape)
        w = opyard.ones(2, requires_grad=True)
        (w * 2).sum().backward()
        (w * 3).sum().backward()  # accumulates into the existing grad
        print(w.grad.tolist())
    """)
    assert out.splitlines() == ["[]",
                                "[0.0, 0.0, 0.0] opyard.Size([2, 2]) 6.0 [1.0, 1.0] opyard.Size([2, 6]) "
                                "opyard.int64 opyard.Size([2, 3])", "[5.0, 5.0]"]


@pytest.mark.parametrize("name", ["python_dispatch", "_python_dispatch", "_mode_utils", "_pytree", "weak"])
def test_utils_submodules_load_on_first_attribute_access(name):
    out = run(f"""
        import sys, opyard
        module = getattr(opyard.utils, {name!r})
        print(module is sys.modules["opyard.utils.{name}"])
    """)
    assert out.strip() == "True"
