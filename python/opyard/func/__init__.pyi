# The types of ``opyard.func``'s transforms. ``make lint`` runs mypy.stubtest on this stub.
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

from .._tensor import Tensor

__all__ = ["BatchedTensor", "VmapInfo", "functional_call", "grad", "grad_and_value", "hessian", "jacfwd",
           "jacrev", "jvp", "vjp", "vmap"]

_Randomness = Literal["error", "different", "same"]
_Argnums = int | tuple[int, ...]
_InDims = int | None | Sequence[Any]

class BatchedTensor(Tensor):
    """A tensor seen per example inside ``vmap``."""

class VmapInfo:
    """What a ``register_vmap`` rule is told: the batch size and the randomness mode."""

    def __init__(self, batch_size: int, randomness: _Randomness = "error") -> None: ...
    @property
    def batch_size(self) -> int: ...
    @property
    def randomness(self) -> str: ...

def vmap(func: Callable[..., Any], in_dims: _InDims = 0, out_dims: int | None | Sequence[Any] = 0,
         randomness: _Randomness = "error", *, chunk_size: int | None = None) -> Callable[..., Any]: ...
def grad(func: Callable[..., Any], argnums: _Argnums = 0, has_aux: bool = False) -> Callable[..., Any]: ...
def grad_and_value(func: Callable[..., Any], argnums: _Argnums = 0,
                   has_aux: bool = False) -> Callable[..., Any]: ...
def vjp(func: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple[Any, ...]: ...
def jvp(func: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], *, strict: bool = False,
        has_aux: bool = False) -> tuple[Any, ...]: ...
def jacrev(func: Callable[..., Any], argnums: _Argnums = 0) -> Callable[..., Any]: ...
def jacfwd(func: Callable[..., Any], argnums: _Argnums = 0, *,
           randomness: _Randomness = "error") -> Callable[..., Any]: ...
def hessian(func: Callable[..., Any], argnums: _Argnums = 0) -> Callable[..., Any]: ...
def functional_call(module: Any, parameter_and_buffer_dicts: Mapping[str, Tensor] | Sequence[Mapping[str, Tensor]],
                    args: Any = (), kwargs: dict[str, Any] | None = None, *, tie_weights: bool = True,
                    strict: bool = False) -> Any: ...
