"""``opcheck``: test a custom op's registrations for the common mistakes, as torch's.

The tests run in torch's order (:data:`ALL_TEST_UTILS`), each on copies of the
inputs, and each skips calls with meta or fake inputs. What each accepts:

- ``test_schema``: the kernel mutates and aliases only what the schema declares.
- ``test_autograd_registration``: only when an input requires grad; then an
  op without an autograd kernel must not produce outputs that require grad.
- ``test_faketensor``: the fake impl agrees with the kernel on the outputs.
- ``test_aot_dispatch_static`` / ``_dynamic``: the op traced with ``make_fx``
  (fake / symbolic shapes) and re-run gives eager's outputs, and eager's
  gradients when an input and an output require grad.

Example::

    >>> opcheck(mylib_sin, (opyard.randn(3),))
    {'test_schema': 'SUCCESS', 'test_autograd_registration': 'SUCCESS', ...}
"""

from .common import OpCheckError
from .generate import generate_opcheck_tests
from .run import ALL_TEST_UTILS, DEFAULT_TEST_UTILS, opcheck

__all__ = ["ALL_TEST_UTILS", "DEFAULT_TEST_UTILS", "OpCheckError", "generate_opcheck_tests", "opcheck"]
