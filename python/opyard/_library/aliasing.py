"""The checks torch runs on a custom op's outputs after its kernel, and their errors.

See Note [Custom op aliasing] in ``custom_op.py``: a ``CustomOpDef`` call checks in Rust
and raises through ``output_check_failed``; the autograd kernel uses ``check_aliasing``.
"""

import inspect

from .. import _core

__all__ = ["check_aliasing", "aliasing_error", "output_check_failed"]


_outputs_alias = _core._outputs_alias


def check_aliasing(op_def, args, kwargs, out):
    """torch's ``check_aliasing_constraint``: no output shares storage with an input or another
    output (storage = a view's ``_base``, else the tensor). ``kwargs`` may be None. The walk is
    the Rust one the ``CustomOpDef`` call site runs."""
    if _outputs_alias(args, kwargs, out):
        aliasing_error(op_def)


def _module_of(op_def):
    return inspect.getmodule(op_def._init_fn)


def aliasing_error(op_def):
    # torch's text verbatim (users match on it), naming the op as torch does: without its namespace.
    raise RuntimeError(
        f"{op_def._name} (with implementation in {_module_of(op_def)}): The output of this custom "
        "operator (1) must not also be an input to this custom operator and (2) may not alias any "
        "inputs to this custom operator or other returns. The most common way to trigger this error is "
        "if we have y = custom_op(x) and y and x are the same Tensor. Please instead return a clone of "
        "the offending output tensor(s) (e.g. return x.clone()) or refactor the custom operator to not "
        "return y.")


def output_check_failed(op_def, kind):
    """Raise the error of a failed output check: ``kind`` is "alias", "inplace" or "out"."""
    if kind == "alias":
        aliasing_error(op_def)
    if kind == "inplace":
        raise RuntimeError(f"{op_def._name} (with implementation in {_module_of(op_def)}): An operator "
                           "tagged with opyard.Tag.inplace must return its first argument.")
    raise RuntimeError(f"{op_def._name} (with implementation in {_module_of(op_def)}): An operator "
                       "tagged with opyard.Tag.out must return its mutable keyword-only arguments.")
