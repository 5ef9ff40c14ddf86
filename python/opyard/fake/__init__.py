"""``opyard.fake``: fake tensors (shape, dtype, strides, device; no data) and symbolic sizes.

torch's ``torch._subclasses.fake_tensor.FakeTensorMode`` lives here as
``opyard.fake.FakeTensorMode``.

Example::

    >>> with opyard.fake.FakeTensorMode():
    ...     y = opyard.randn(2, 3) @ opyard.randn(3, 4)
    >>> y.shape
    opyard.Size([2, 4])
"""

from .convert import NonFakeInputError, UnsupportedOperatorException
from .mode import FakeTensorMode, current_mode, current_shape_env
from .symbolic import (DynamicOutputShapeException, GuardOnDataDependentSymNode, ShapeEnv, ShapeGuard,
                       SymInt)
from .tensor import DataDependentOutputException, FakeTensor

__all__ = ["FakeTensor", "FakeTensorMode", "ShapeEnv", "ShapeGuard", "SymInt", "DynamicOutputShapeException",
           "GuardOnDataDependentSymNode", "DataDependentOutputException", "UnsupportedOperatorException",
           "NonFakeInputError", "current_mode", "current_shape_env"]
