"""What the ``opyard.func`` transforms check about their arguments and the function's outputs, with
torch.func's exception types and messages, and the ``argnums`` selection they share."""

from .._tensor import Tensor
from ..utils._pytree import tree_flatten

__all__ = ["check_argnums", "check_non_empty_tensor_outputs", "error_if_complex", "replace_args",
           "slice_argnums", "tensors_only"]


def _wrap_argnum(argnum, n):
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if 0 <= argnum < n:
        return argnum
    if -n <= argnum < 0:
        return argnum + n
    raise RuntimeError(f"Got argnum={argnum}, but only {n} positional inputs")


def check_argnums(argnums, n):
    """``argnums`` (an int or a tuple of ints) made non-negative, with torch's checks."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, n)
    wrapped = tuple(_wrap_argnum(a, n) for a in argnums)
    if len(wrapped) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(wrapped)) != len(wrapped):
        raise RuntimeError(f"argnums elements must be unique, got {wrapped}")
    return wrapped


def slice_argnums(args, argnums, as_tuple=True):
    """The arguments ``argnums`` selects: ``args[argnums]`` (a 1-tuple when ``as_tuple``) or a tuple."""
    nums = check_argnums(argnums, len(args))
    if isinstance(nums, int):
        return (args[nums],) if as_tuple else args[nums]
    return tuple(args[i] for i in nums)


def replace_args(args, new, argnums):
    """``args`` with the arguments ``argnums`` selects replaced by ``new`` (one per selected)."""
    nums = check_argnums(argnums, len(args))
    if isinstance(nums, int):
        return tuple(new[0] if i == nums else a for i, a in enumerate(args))
    return tuple(new[nums.index(i)] if i in nums else a for i, a in enumerate(args))


def error_if_complex(api, args, is_input):
    for idx, arg in enumerate(tree_flatten(args)[0]):
        if isinstance(arg, Tensor) and arg.dtype.is_complex:
            what = "inputs" if is_input else "outputs"
            raise RuntimeError(f"{api}: Expected all {what} to be real but received complex tensor at flattened "
                               f"input idx: {idx}")


def check_non_empty_tensor_outputs(flat, api):
    if (len(flat) == 1 and flat[0] is None) or len(flat) < 1:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {flat})")
    for o in flat:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


def tensors_only(flat, api, argname):
    if len(flat) == 0:
        raise RuntimeError(f"{api}: Expected {argname} to contain at least one Tensor.")
    for x in flat:
        if not isinstance(x, Tensor):
            raise RuntimeError(f"{api}: Expected {argname} to only contain Tensors, got {type(x)}")

from .._exports import public_dir

__dir__ = public_dir(globals())
