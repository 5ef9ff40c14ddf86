"""``gradcheck`` / ``gradgradcheck``: analytical gradients against finite differences.

Example (the seed's check)::

    >>> input = (opyard.randn(20, 20, dtype=opyard.double, requires_grad=True),
    ...          opyard.randn(30, 20, dtype=opyard.double, requires_grad=True))
    >>> gradcheck(linear, input, eps=1e-6, atol=1e-4)
    True

Jacobians follow torch's layout: for input ``i`` and output ``o``, a matrix
of shape ``(input.numel(), output.numel())``; entry ``[j, k]`` is
d output[k] / d input[j]. Central differences give the numerical one; the
analytical one comes from one ``autograd.grad`` call per output element
(rows of the vector-Jacobian product) or, with ``check_forward_ad``, one
forward-mode pass per input element.
"""

import warnings

import numpy as np

from .. import _core
from . import _tensor_meta as meta
from . import forward_ad as fwAD
from .engine import grad as autograd_grad

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian",
           "get_analytical_jacobian"]




class GradcheckError(RuntimeError):
    """Raised by ``gradcheck``/``gradgradcheck`` when a check fails."""


def _as_tuple(x):
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _diff_inputs(inputs):
    return [i for i, x in enumerate(inputs) if meta.is_tensor(x) and meta.requires_grad(x)]


def _outputs(func, inputs):
    return _as_tuple(func(*inputs))


def _tensor_outputs(outs):
    return [o for o in outs if meta.is_tensor(o) and meta.is_floating(o)]


def get_numerical_jacobian(func, inputs, eps=1e-3):
    """Per differentiable input: a list (one per output) of ``(input.numel(), output.numel())`` arrays."""
    inputs = _as_tuple(inputs)
    result = []
    # Not under no_grad: ``func`` may itself differentiate (gradgradcheck's vjp).
    base_outs = _tensor_outputs(_outputs(func, inputs))
    for i in _diff_inputs(inputs):
        x = np.array(meta.to_numpy(inputs[i]))
        jac = [np.zeros((x.size, meta.numel(o))) for o in base_outs]
        flat = x.reshape(-1)
        for j in range(flat.size):
            cols = []
            for delta in (eps, -eps):
                pert = flat.copy()
                pert[j] += delta
                args = list(inputs)
                args[i] = meta.from_numpy(pert.reshape(x.shape), like=inputs[i], requires_grad=True)
                cols.append([meta.to_numpy(o).astype(np.float64).reshape(-1)
                             for o in _tensor_outputs(_outputs(func, args))])
            for k in range(len(base_outs)):
                jac[k][j] = (cols[0][k] - cols[1][k]) / (2 * eps)
        result.append(jac)
    return result


def get_analytical_jacobian(inputs, outputs):
    """Per differentiable input: a list (one per output) of ``(input.numel(), output.numel())`` arrays."""
    inputs = _as_tuple(inputs)
    diff = [inputs[i] for i in _diff_inputs(inputs)]
    outs = _tensor_outputs(_as_tuple(outputs))
    jac = [[np.zeros((meta.numel(x), meta.numel(o))) for o in outs] for x in diff]
    for k, o in enumerate(outs):
        if not meta.requires_grad(o):
            continue
        n = meta.numel(o)
        for m in range(n):
            onehot = np.zeros(n, dtype=meta.to_numpy(o).dtype)
            onehot[m] = 1
            g_out = meta.from_numpy(onehot.reshape(meta.shape(o)), like=o)
            grads = autograd_grad(o, diff, g_out, retain_graph=True, allow_unused=True)
            for i, g in enumerate(grads):
                if g is not None:
                    jac[i][k][:, m] = meta.to_numpy(g).astype(np.float64).reshape(-1)
    return jac


def _forward_jacobian(func, inputs):
    """Per differentiable input, per output: the Jacobian from forward-mode AD."""
    diff = _diff_inputs(inputs)
    result = []
    with fwAD.dual_level():
        for i in diff:
            x = inputs[i]
            n = meta.numel(x)
            per_out = None
            for j in range(n):
                onehot = np.zeros(n, dtype=meta.to_numpy(x).dtype)
                onehot[j] = 1
                args = list(inputs)
                args[i] = fwAD.make_dual(x.detach(), meta.from_numpy(onehot.reshape(meta.shape(x)), like=x))
                outs = _tensor_outputs(_outputs(func, args))
                if per_out is None:
                    per_out = [np.zeros((n, meta.numel(o))) for o in outs]
                for k, o in enumerate(outs):
                    t = fwAD.unpack_dual(o).tangent
                    if t is not None:
                        per_out[k][j] = meta.to_numpy(t).astype(np.float64).reshape(-1)
            result.append(per_out)
    return result


def _fast_check(func, inputs, eps, atol, rtol, raise_exception):
    """torch's fast mode: for random ``u`` (input-shaped) and ``v`` (output-shaped), the central
    difference of ``<v, f(x + t u)>`` against ``<vjp(v), u>``: two evaluations and one backward
    per input instead of a full Jacobian each."""
    rng = np.random.default_rng(0)
    outs = _tensor_outputs(_outputs(func, inputs))
    vs = [rng.standard_normal(meta.shape(o)) for o in outs]
    for i in _diff_inputs(inputs):
        x = np.array(meta.to_numpy(inputs[i]))
        u = rng.standard_normal(x.shape)
        ends = []
        for delta in (eps, -eps):
            args = list(inputs)
            args[i] = meta.from_numpy((x + delta * u).astype(x.dtype), like=inputs[i], requires_grad=True)
            ends.append([meta.to_numpy(o).astype(np.float64) for o in _tensor_outputs(_outputs(func, args))])
        for k, o in enumerate(outs):
            numerical = float(np.sum((ends[0][k] - ends[1][k]) / (2 * eps) * vs[k]))
            analytical = 0.0
            if meta.requires_grad(o):
                v = meta.from_numpy(vs[k].astype(meta.to_numpy(o).dtype), like=o)
                g = autograd_grad(o, inputs[i], v, retain_graph=True, allow_unused=True)[0]
                if g is not None:
                    analytical = float(np.sum(meta.to_numpy(g).astype(np.float64) * u))
            if not abs(analytical - numerical) <= atol + rtol * abs(numerical):
                return _fail(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                             f"numerical:{numerical}\nanalytical:{analytical}\n\n"
                             "The above quantities relating the numerical and analytical jacobians are computed "
                             "in fast mode (a random projection v^T J u of each Jacobian); run gradcheck with "
                             "fast_mode=False to compare the whole Jacobians.", raise_exception)
    return True


def _fmt(a):
    return repr(meta.from_numpy(a, like=None))


def _fail(msg, raise_exception):
    if raise_exception:
        raise GradcheckError(msg)
    return False


def _check_inputs(inputs):
    diff = _diff_inputs(inputs)
    if not diff:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none "
                         "of them have requires_grad=True.")
    for idx in diff:
        if meta.dtype_name(inputs[idx]) not in ("float64", "complex128"):
            warnings.warn(
                f"Input #{idx} requires gradient and is not a double precision floating point or "
                "complex. This check will likely fail if all the inputs are not of double precision "
                "floating point or complex. ")
    return diff


def _close(a, n, atol, rtol):
    return bool(np.all(np.abs(a - n) <= atol + rtol * np.abs(n)))


def gradcheck(func, inputs, *, eps=1e-6, atol=1e-5, rtol=1e-3, raise_exception=True,
              nondet_tol=0.0, check_undefined_grad=True, check_grad_dtypes=False,
              check_batched_grad=False, check_backward_ad=True, check_forward_ad=False,
              fast_mode=False):
    """Check ``func``'s gradients w.r.t. the inputs that require grad (use float64 inputs).

    Returns True, or raises :class:`GradcheckError` (``raise_exception=False``: returns False).
    ``fast_mode`` compares one random projection ``v^T J u`` per (input, output) pair instead
    of whole Jacobians (torch's fast mode). ``check_batched_grad`` also computes the gradients
    for a batch of grad_outputs with one vmapped backward pass and compares them with one
    backward pass per grad_output.
    """
    inputs = _as_tuple(inputs)
    _check_inputs(inputs)
    if check_batched_grad and check_backward_ad:
        # ``Hooks.batched_grad_check``: ``opyard.func`` (a higher layer) runs torch's check.
        error = _core._hooks().batched_grad_check(func, inputs, [inputs[i] for i in _diff_inputs(inputs)], atol, rtol)
        if error is not None:
            return _fail(error, raise_exception)
    if fast_mode and check_backward_ad and not _fast_check(func, inputs, eps, atol, rtol, raise_exception):
        return False
    numerical = None if fast_mode and not check_forward_ad else get_numerical_jacobian(func, inputs, eps)
    if check_backward_ad and not fast_mode:
        outputs = _outputs(func, inputs)
        analytical = get_analytical_jacobian(inputs, outputs)
        again = get_analytical_jacobian(inputs, _outputs(func, inputs))
        for i, (num_i, ana_i) in enumerate(zip(numerical, analytical)):
            for k, (n, a) in enumerate(zip(num_i, ana_i)):
                if not _close(a, n, atol, rtol):
                    # Printed in the input's dtype, as torch's Jacobians are.
                    dt = meta.to_numpy(inputs[_diff_inputs(inputs)[i]]).dtype
                    return _fail(f"Jacobian mismatch for output {k} with respect to input {i},\n"
                                 f"numerical:{_fmt(n.astype(dt))}\nanalytical:{_fmt(a.astype(dt))}\n",
                                 raise_exception)
                if np.max(np.abs(again[i][k] - a), initial=0.0) > nondet_tol:
                    return _fail(
                        "Backward is not reentrant, i.e., running backward with same input and "
                        "grad_output multiple times gives different values, although analytical "
                        "gradient matches numerical gradient.The tolerance for nondeterminism was "
                        f"{nondet_tol}.", raise_exception)
        if check_grad_dtypes:
            for idx in _diff_inputs(inputs):
                x = inputs[idx]
                out = _tensor_outputs(outputs)
                if out and meta.requires_grad(out[0]):
                    g = autograd_grad(out[0], x, meta.ones_like(out[0]), allow_unused=True)[0]
                    if g is not None and meta.dtype_name(g) != meta.dtype_name(x):
                        return _fail("Gradient has dtype mismatch", raise_exception)
    if check_forward_ad:
        fw = _forward_jacobian(func, inputs)
        for i, (num_i, fw_i) in enumerate(zip(numerical, fw)):
            for k, (n, a) in enumerate(zip(num_i, fw_i)):
                if not _close(a, n, atol, rtol):
                    return _fail(f"Jacobian computed with forward mode mismatch for output {k} with "
                                 f"respect to input {i},\nnumerical:{_fmt(n)}\nanalytical:{_fmt(a)}\n",
                                 raise_exception)
    return True


def gradgradcheck(func, inputs, grad_outputs=None, *, eps=1e-6, atol=1e-5, rtol=1e-3,
                  gen_non_contig_grad_outputs=False, raise_exception=True, nondet_tol=0.0,
                  check_undefined_grad=True, check_grad_dtypes=False, check_batched_grad=False,
                  check_fwd_over_rev=False, check_rev_over_rev=True, fast_mode=False):
    """Check second derivatives: ``gradcheck`` of the vector-Jacobian product of ``func``."""
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        outs = _tensor_outputs(_outputs(func, inputs))
        rng = np.random.default_rng(0)
        grad_outputs = tuple(
            meta.from_numpy(rng.standard_normal(meta.shape(o)).astype(meta.to_numpy(o).dtype),
                            like=o, requires_grad=True)
            for o in outs if meta.requires_grad(o))
    grad_outputs = _as_tuple(grad_outputs)
    n_in = len(inputs)
    diff = _diff_inputs(inputs)

    def vjp(*args):
        ins, gos = args[:n_in], args[n_in:]
        outs = [o for o in _tensor_outputs(_outputs(func, ins)) if meta.requires_grad(o)]
        grads = autograd_grad(outs, [ins[i] for i in diff], gos, create_graph=True, allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(vjp, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol, check_batched_grad=check_batched_grad,
                     fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev)

from .._exports import public_dir

__dir__ = public_dir(globals())
