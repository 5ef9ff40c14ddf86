"""opyard: PyTorch's operator-extension model on numpy, with a Rust core.

Function schemas, the dispatcher (keys, key sets, cached tables), the
``torch.library`` API, fake tensors and the autograd ``Function`` API, as a
standalone package::

    import opyard
    lib = opyard.library.Library("mylib", "DEF")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x + x, "CPU")
    opyard.ops.mylib.twice(opyard.ones(3))
"""

from . import _core
from ._core import Argument, FunctionSchema, SchemaError, device, parse_schema
from ._ops import ops
from . import dispatcher
from . import library
from . import _fallbacks  # noqa: F401  (registers the default fallthroughs)
from . import overrides

__version__ = _core.__version__

__all__ = [
    "__version__",
    "Argument",
    "FunctionSchema",
    "SchemaError",
    "device",
    "parse_schema",
    "ops",
    "dispatcher",
    "library",
    "overrides",
]

# --- tensor exports (begin) ---
# --- tensor exports (end) ---

# --- autograd exports (begin) ---
# --- autograd exports (end) ---

# --- custom op exports (begin) ---
# --- custom op exports (end) ---
