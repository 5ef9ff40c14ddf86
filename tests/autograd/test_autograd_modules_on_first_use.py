"""The autograd layer's engine, ``Function``, forward AD, view-history rules, ``Variable`` and gradcheck
load on first need (Note [Autograd modules on first use], ``autograd/__init__.py``), and the core
reaches their functions through hooks resolved on first use (Note [Hooks resolved on first use],
``src/python/hooks.rs``): every path that needs one works in a fresh interpreter, also when several
threads need it first at once.

Each check runs in a fresh interpreter: the test process itself has long loaded every module.
"""

import os
import subprocess
import sys
import textwrap

import pytest

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "python")


def run(code, fastpath=True):
    """Run ``code`` after ``import opyard`` in a fresh interpreter; return its stdout."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(PYTHON_DIR)}
    if not fastpath:
        env["OPYARD_FASTPATH"] = "0"
    done = subprocess.run([sys.executable, "-c", "import sys, opyard\n" + textwrap.dedent(code)],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


FAST_PATH_MODES = pytest.mark.parametrize("fastpath", [True, False], ids=["fast", "general"])


@FAST_PATH_MODES
def test_first_backward_loads_the_engine(fastpath):
    out = run("""
        print("opyard.autograd.engine" in sys.modules)
        x = opyard.ones(3, requires_grad=True)
        (x * 2).sum().backward()
        print(x.grad.tolist())  # the Rust entry runs this one without the engine's module
        y = opyard.ones(2, 3, requires_grad=True)
        (y * opyard.ones(3)).backward(opyard.ones(2, 3))
        print("opyard.autograd.engine" in sys.modules, y.grad.tolist())
    """, fastpath)
    assert out.splitlines() == ["False", "[2.0, 2.0, 2.0]", "True [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]"]


@FAST_PATH_MODES
def test_hooks_of_the_engine_run_on_first_use(fastpath):
    # pre-hooks, tensor hooks, post hooks and a broadcast gradient reduced (validate_grad): each hook the
    # core resolves on first use
    out = run("""
        x = opyard.ones(3, requires_grad=True)
        b = opyard.ones(1, requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(("tensor", g.tolist())))
        y = x * 3 + b
        y.grad_fn.register_prehook(lambda grads: seen.append(("pre", len(grads))))
        y.grad_fn.register_hook(lambda ins, outs: seen.append(("post", len(outs))))
        y.sum().backward()
        print(seen)
        print(x.grad.tolist(), b.grad.tolist())
    """, fastpath)
    lines = out.splitlines()
    assert sorted(eval(lines[0])) == [("post", 1), ("pre", 1), ("tensor", [3.0, 3.0, 3.0])]
    assert lines[1] == "[3.0, 3.0, 3.0] [3.0]"


@FAST_PATH_MODES
def test_function_loads_on_first_access_and_applies(fastpath):
    out = run("""
        print("opyard.autograd.function" in sys.modules)

        class Twice(opyard.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * 2

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return g * 2 + x * 0

        class Dirty(opyard.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.mark_dirty(x)
                return x.mul_(2)

            @staticmethod
            def backward(ctx, g):
                return g * 2

        x = opyard.ones(2, requires_grad=True)
        Twice.apply(x).sum().backward()
        print(x.grad.tolist(), Dirty.apply(opyard.ones(2)).tolist())
        print(opyard.autograd.Function is opyard.autograd.function.Function)
    """, fastpath)
    assert out.splitlines() == ["False", "[2.0, 2.0] [2.0, 2.0]", "True"]


@FAST_PATH_MODES
def test_view_history_rules_load_on_first_use(fastpath):
    # an in-place op on a view of a tensor requiring grad rewrites the view's history (rebase), and the
    # view's grad_fn after its base changed is regenerated: both views.py hooks
    out = run("""
        print("opyard.autograd.views" in sys.modules)
        a = opyard.ones(4, requires_grad=True)
        base = a * 1
        view = base[:2]
        view.mul_(3)
        base.sum().backward()
        print(a.grad.tolist(), type(view.grad_fn).__name__)
        c = (opyard.ones(4, requires_grad=True) * 1)
        v = c[1:]
        c.add_(1)
        print(v.grad_fn is not None)
    """, fastpath)
    assert out.splitlines() == ["False", "[3.0, 3.0, 1.0, 1.0] AsStridedBackward0", "True"]


def test_autograd_names_are_there_and_gradcheck_stays_the_function():
    out = run("""
        import opyard.autograd.gradcheck
        from opyard.autograd import Function, FunctionCtx, InplaceFunction, once_differentiable, Variable
        from opyard.autograd import backward, grad, gradgradcheck, GradcheckError, forward_ad, functional
        ag = opyard.autograd
        print(callable(ag.gradcheck), ag.gradcheck is sys.modules["opyard.autograd.gradcheck"].gradcheck)
        print([n for n in ag.__all__ if not hasattr(ag, n)], all(n in dir(ag) for n in ag.__all__))
        x = opyard.tensor([1.0, 2.0], dtype=opyard.float64, requires_grad=True)
        print(ag.gradcheck(lambda t: (t * t).sum(), (x,)), ag.grad((x * x).sum(), x)[0].tolist())
        try:
            ag.no_such_thing
        except AttributeError as e:
            print(e)
    """)
    assert out.splitlines() == ["True True", "[] True", "True [2.0, 4.0]",
                                "module 'opyard.autograd' has no attribute 'no_such_thing'"]


def test_the_switchboard_answers_a_lazy_hook_with_the_function():
    out = run("""
        from opyard import _core
        hooks = _core._hooks()
        print("opyard.autograd.views" in sys.modules)
        print(hooks.rebase_view_history is sys.modules["opyard.autograd.views"].rebase_view_history)
        print(hooks.apply_general.__module__, hooks.validate_grad.__module__)
    """)
    assert out.splitlines() == ["False", "True", "opyard.autograd.function opyard.autograd.engine"]


@FAST_PATH_MODES
def test_threads_resolving_the_hooks_at_once(fastpath):
    # eight threads start at once with nothing of the engine, Function or views loaded: each runs a
    # first backward, a Function, a view rebase and hooks; every result is right and no thread fails
    out = run("""
        import threading

        class Square(opyard.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, g):
                (x,) = ctx.saved_tensors
                return 2 * x * g

        barrier = threading.Barrier(8)
        results, errors = [], []

        def work(i):
            try:
                barrier.wait()
                x = opyard.full((3,), float(i), requires_grad=True)
                base = Square.apply(x) * 1
                base[:1].mul_(2)
                seen = []
                x.register_hook(lambda g: seen.append(1) or g)
                base.sum().backward()
                results.append((i, x.grad.tolist(), len(seen)))
            except BaseException as e:
                errors.append(repr(e))

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads: t.start()
        for t in threads: t.join()
        print(errors)
        print(all(g == [4.0 * i, 2.0 * i, 2.0 * i] and n == 1 for i, g, n in results), len(results))
    """, fastpath)
    assert out.splitlines() == ["[]", "True 8"]
