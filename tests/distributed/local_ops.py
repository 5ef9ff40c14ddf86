"""An extension module that the tests' worker processes never import.

Shipping its operator to a worker shows the error a user gets when the
worker has not imported the library that defines an operator.
"""

import opyard
from opyard.library import custom_op


@custom_op("local_ops::double", mutates_args=())
def double(x: opyard.Tensor) -> opyard.Tensor:
    return x * 2
