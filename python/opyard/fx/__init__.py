"""``opyard.fx``: tracing programs into graphs of operator calls.

torch's ``torch.fx.experimental.proxy_tensor.make_fx`` lives here as
``opyard.fx.make_fx``.

Example::

    >>> gm = opyard.fx.make_fx(lambda x: x.sin() + 1)(opyard.randn(3))
    >>> print(gm.code)
"""

from .graph import Graph, GraphModule, Node
from .proxy_tensor import make_fx

__all__ = ["make_fx", "Graph", "GraphModule", "Node"]
