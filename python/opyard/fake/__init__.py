"""``opyard.fake``: fake tensors (shape, dtype, device; no data) and symbolic sizes.

Example::

    >>> with opyard.fake.FakeTensorMode():
    ...     y = opyard.randn(2, 3) @ opyard.randn(3, 4)
    >>> y.shape
    opyard.Size([2, 4])
"""

from .mode import FakeTensor, FakeTensorMode, current_shape_env
from .symbolic import DynamicOutputShapeException, GuardOnDataDependentSymNode, ShapeEnv, SymInt

__all__ = ["FakeTensor", "FakeTensorMode", "ShapeEnv", "SymInt", "DynamicOutputShapeException",
           "GuardOnDataDependentSymNode", "current_shape_env"]
