# The types of the tensor factories (``opyard.tensor``, ``zeros``, ``randn``, ...); most are built from the
# aten operators when the package loads. ``make lint`` runs mypy.stubtest on this stub.
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._core import device
from ._aten.generators import Generator
from ._dtype import dtype
from ._memory_format import memory_format
from ._tensor import Tensor, layout

__all__ = [
    "tensor", "as_tensor", "from_numpy", "from_dlpack", "zeros", "ones", "empty", "full", "eye",
    "arange", "linspace", "logspace", "rand", "randn", "randint", "zeros_like", "ones_like", "empty_like",
    "full_like", "rand_like", "randn_like", "randint_like", "empty_permuted", "tril_indices", "triu_indices",
    "manual_seed", "scalar_tensor", "empty_strided",
    "hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window", "randperm",
]

_Device = device | str | int
_Number = int | float | bool
_Scalar = int | float | bool | complex
_Size = int | Sequence[int]

def tensor(data: Any, *, dtype: dtype | None = None, device: _Device | None = None, requires_grad: bool = False,
           pin_memory: bool = False) -> Tensor: ...
def as_tensor(data: Any, dtype: dtype | None = None, device: _Device | None = None) -> Tensor: ...
def from_numpy(arr: np.ndarray[Any, Any]) -> Tensor: ...
def from_dlpack(ext: Any) -> Tensor: ...
def zeros(*size: _Size, out: Tensor | None = None, dtype: dtype | None = None, layout: layout | None = None,
          device: _Device | None = None, requires_grad: bool = False, pin_memory: bool = False,
          **memory_format: memory_format) -> Tensor: ...
def ones(*size: _Size, out: Tensor | None = None, dtype: dtype | None = None, layout: layout | None = None,
         device: _Device | None = None, requires_grad: bool = False, pin_memory: bool = False,
         **memory_format: memory_format) -> Tensor: ...
def empty(*size: _Size, out: Tensor | None = None, dtype: dtype | None = None, layout: layout | None = None,
          device: _Device | None = None, requires_grad: bool = False, pin_memory: bool = False,
          **memory_format: memory_format) -> Tensor: ...
def empty_strided(size: Sequence[int], stride: Sequence[int], *, dtype: dtype | None = None,
                  layout: layout | None = None, device: _Device | None = None, requires_grad: bool = False,
                  pin_memory: bool = False) -> Tensor: ...
def rand(*size: _Size, out: Tensor | None = None, dtype: dtype | None = None, layout: layout | None = None,
         device: _Device | None = None, requires_grad: bool = False, pin_memory: bool = False,
         **memory_format: memory_format) -> Tensor: ...
def randn(*size: _Size, out: Tensor | None = None, dtype: dtype | None = None, layout: layout | None = None,
          device: _Device | None = None, requires_grad: bool = False, pin_memory: bool = False,
          **memory_format: memory_format) -> Tensor: ...
def full(size: Sequence[int], fill_value: _Scalar, *, dtype: dtype | None = None, device: _Device | None = None,
         requires_grad: bool = False, layout: layout | None = None, pin_memory: bool = False) -> Tensor: ...
def eye(n: int, m: int | None = None, *, dtype: dtype | None = None, device: _Device | None = None,
        requires_grad: bool = False, layout: layout | None = None, pin_memory: bool = False) -> Tensor: ...
def arange(start: _Number, end: _Number | None = None, step: _Number = 1, *, dtype: dtype | None = None,
           device: _Device | None = None, requires_grad: bool = False, layout: layout | None = None,
           pin_memory: bool = False) -> Tensor: ...
def linspace(start: _Number, end: _Number, steps: int, *, dtype: dtype | None = None,
             device: _Device | None = None, requires_grad: bool = False, layout: layout | None = None) -> Tensor: ...
def logspace(start: _Scalar | Tensor, end: _Scalar | Tensor, steps: int, base: float = 10.0, *,
             dtype: dtype | None = None, layout: layout | None = None, device: _Device | None = None,
             requires_grad: bool = False, pin_memory: bool = False, out: Tensor | None = None) -> Tensor: ...
def randint(low: int, high: int | None = None, size: Sequence[int] | None = None, *,
            generator: Generator | None = None, dtype: dtype | None = None, device: _Device | None = None,
            requires_grad: bool = False, layout: layout | None = None, pin_memory: bool = False) -> Tensor: ...
def zeros_like(input: Tensor, *, dtype: dtype | None = None, layout: layout | None = None,
               device: _Device | None = None, requires_grad: bool = False,
               memory_format: memory_format | None = None) -> Tensor: ...
def ones_like(input: Tensor, *, dtype: dtype | None = None, layout: layout | None = None,
              device: _Device | None = None, requires_grad: bool = False,
              memory_format: memory_format | None = None) -> Tensor: ...
def empty_like(input: Tensor, *, dtype: dtype | None = None, layout: layout | None = None,
               device: _Device | None = None, requires_grad: bool = False,
               memory_format: memory_format | None = None) -> Tensor: ...
def full_like(input: Tensor, fill_value: _Scalar, *, dtype: dtype | None = None, device: _Device | None = None,
              requires_grad: bool = False, layout: layout | None = None,
              memory_format: memory_format | None = None) -> Tensor: ...
def rand_like(input: Tensor, *, dtype: dtype | None = None, layout: layout | None = None,
              device: _Device | None = None, requires_grad: bool = False,
              memory_format: memory_format | None = None) -> Tensor: ...
def randn_like(input: Tensor, *, dtype: dtype | None = None, layout: layout | None = None,
               device: _Device | None = None, requires_grad: bool = False,
               memory_format: memory_format | None = None) -> Tensor: ...
def randint_like(input: Tensor, low: int | Tensor = 0, high: int | None = None, *, dtype: dtype | None = None,
                 layout: layout | None = None, device: _Device | None = None, requires_grad: bool = False,
                 memory_format: memory_format | None = None, generator: Generator | None = None) -> Tensor: ...
def empty_permuted(size: Sequence[int], physical_layout: Sequence[int], *, dtype: dtype | None = None,
                   layout: layout | None = None, device: _Device | None = None, requires_grad: bool = False,
                   pin_memory: bool = False) -> Tensor: ...
def tril_indices(row: int, col: int, offset: int = 0, *, dtype: dtype | None = None, device: _Device | None = None,
                 layout: layout | None = None) -> Tensor: ...
def triu_indices(row: int, col: int, offset: int = 0, *, dtype: dtype | None = None, device: _Device | None = None,
                 layout: layout | None = None) -> Tensor: ...
def manual_seed(seed: int | float | str) -> Generator: ...
def scalar_tensor(value: _Scalar, *, dtype: dtype | None = None, layout: layout | None = None,
                  device: _Device | None = None, pin_memory: bool | None = None,
                  requires_grad: bool = False) -> Tensor: ...

def hann_window(window_length: int, periodic: bool = True, *, dtype: dtype | None = None,
                layout: layout | None = None, device: _Device | None = None, pin_memory: bool | None = None,
                requires_grad: bool = False) -> Tensor: ...
def hamming_window(window_length: int, periodic: bool = True, alpha: float = 0.54, beta: float = 0.46, *,
                   dtype: dtype | None = None, layout: layout | None = None, device: _Device | None = None,
                   pin_memory: bool | None = None, requires_grad: bool = False) -> Tensor: ...
def blackman_window(window_length: int, periodic: bool = True, *, dtype: dtype | None = None,
                    layout: layout | None = None, device: _Device | None = None, pin_memory: bool | None = None,
                    requires_grad: bool = False) -> Tensor: ...
def bartlett_window(window_length: int, periodic: bool = True, *, dtype: dtype | None = None,
                    layout: layout | None = None, device: _Device | None = None, pin_memory: bool | None = None,
                    requires_grad: bool = False) -> Tensor: ...
def kaiser_window(window_length: int, periodic: bool = True, beta: float = 12.0, *, dtype: dtype | None = None,
                  layout: layout | None = None, device: _Device | None = None, pin_memory: bool | None = None,
                  requires_grad: bool = False) -> Tensor: ...
def randperm(n: int, *, generator: Any = None, dtype: dtype | None = None, layout: layout | None = None,
             device: _Device | None = None, pin_memory: bool | None = None, requires_grad: bool = False) -> Tensor: ...
