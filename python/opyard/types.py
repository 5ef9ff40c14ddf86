"""torch's ``torch.types``: the type aliases library code annotates with.

``Number`` (``int | float | bool``) is what ``infer_schema`` maps to ``Scalar``;
the underscore names are torch's spellings of the basic types.

Example::

    >>> def f(x: opyard.Tensor, alpha: opyard.types.Number) -> opyard.Tensor: ...
    >>> opyard.library.infer_schema(f, mutates_args=())
    '(Tensor x, Scalar alpha) -> Tensor'
"""

import builtins
from typing import Union

from . import _core, _tensor
from . import _dtype as _dtypes

__all__ = ["Number", "Device", "IntLikeType", "FloatLikeType", "BoolLikeType"]

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_complex = builtins.complex
_dtype = _dtypes.dtype
_device = _core.device
_layout = _tensor.layout
_size = Union[_tensor.Size, list[builtins.int], tuple[builtins.int, ...]]
_TensorOrTensors = Union[_tensor.Tensor, tuple[_tensor.Tensor, ...]]

# torch.types.Number: a Python scalar (``Scalar`` in a schema).
Number = Union[builtins.int, builtins.float, builtins.bool]
Device = Union[_device, builtins.str, builtins.int, None]
IntLikeType = builtins.int  # (torch: int | SymInt; a SymInt is an int-like here)
FloatLikeType = builtins.float
BoolLikeType = builtins.bool

from ._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
