"""``test_aot_dispatch_static`` / ``_dynamic``: the op traced and re-run agrees with eager.

torch compiles the call with AOTAutograd; opyard traces it with ``make_fx``
(fake tensors for static, symbolic sizes for dynamic) and runs the graph on
real copies of the inputs. Outputs are compared, and gradients too when an
input and an output require grad (torch's ``check_gradients="auto"``).
"""

from .._tensor import Tensor
from ..autograd import grad
from ..fx import make_fx
from .common import GRADIENTS_MSG, OUTPUTS_MSG, assert_close, clone_tensors
from .checks import flat_tensors

__all__ = ["aot_autograd_check"]


def _replace_tensors(x, it):
    if isinstance(x, Tensor):
        return next(it)
    if isinstance(x, (list, tuple)):
        return type(x)(_replace_tensors(e, it) for e in x)
    if isinstance(x, dict):
        return {k: _replace_tensors(v, it) for k, v in x.items()}
    return x


def _forward_backward(f, inputs):
    diff = [t for t in inputs if t.requires_grad]
    out = f(*inputs)
    total = None
    for o in flat_tensors(out):
        s = o.sum().abs()
        total = s if total is None else total + s
    if total is None:
        raise AssertionError(f"Expected sm to be a Tensor, got {type(total)}")
    return out, grad(total, diff, allow_unused=True)


def aot_autograd_check(op, args, kwargs, dynamic, *, rtol=None, atol=None):
    """Compare ``op(*args, **kwargs)`` in eager mode with its traced graph re-run."""
    tensors = list(flat_tensors((args, kwargs)))

    def func_no_tensors(*ts):
        a, k = _replace_tensors((args, kwargs), iter(ts))
        return op(*a, **k)

    compiled = make_fx(func_no_tensors, tracing_mode="symbolic" if dynamic else "fake")(*clone_tensors(tensors))
    out = func_no_tensors(*clone_tensors(tensors))
    check_gradients = (any(t.requires_grad for t in tensors)
                       and any(o.requires_grad for o in flat_tensors(out)))
    if not check_gradients:
        assert_close(compiled(*clone_tensors(tensors)), out, rtol, atol, OUTPUTS_MSG)
        return
    orig_out, orig_grad = _forward_backward(func_no_tensors, clone_tensors(tensors))
    compiled_out, compiled_grad = _forward_backward(compiled, clone_tensors(tensors))
    assert_close(compiled_out, orig_out, rtol, atol, OUTPUTS_MSG)
    assert_close(list(compiled_grad), list(orig_grad), rtol, atol, GRADIENTS_MSG)
