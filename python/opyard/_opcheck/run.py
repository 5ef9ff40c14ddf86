"""``opcheck`` itself: the test utilities in torch's order and the loop that runs them."""

from .._ops import OpOverload, OpOverloadPacket, resolve
from ..fake import FakeTensor
from .aot import aot_autograd_check
from .checks import autograd_registration_check, fake_check, flat_tensors, schema_check
from .common import OpCheckError, clone_tensors

__all__ = ["opcheck", "ALL_TEST_UTILS", "DEFAULT_TEST_UTILS", "resolve_unique_overload_or_throw"]


def _is_abstract(t):
    return t.is_meta or isinstance(t, FakeTensor)


def _any_abstract(args, kwargs):
    return any(_is_abstract(t) for t in flat_tensors((args, kwargs)))


def safe_schema_check(op, args, kwargs, *, copy_inputs=True, rtol=None, atol=None):
    if copy_inputs:
        args, kwargs = clone_tensors((args, kwargs))
    if _any_abstract(args, kwargs):
        return None
    return schema_check(op, args, kwargs)


def safe_autograd_registration_check(op, args, kwargs, *, copy_inputs=True, rtol=None, atol=None):
    if _any_abstract(args, kwargs):
        return None
    if copy_inputs:
        args, kwargs = clone_tensors((args, kwargs))
    # Nothing to check when no input requires grad (a forward-only call).
    if not any(t.requires_grad for t in flat_tensors((args, kwargs))):
        return None
    return autograd_registration_check(op, args, kwargs)


def safe_fake_check(op, args, kwargs, *, copy_inputs=True, rtol=None, atol=None):
    if _any_abstract(args, kwargs):
        return None
    if copy_inputs:
        args, kwargs = clone_tensors((args, kwargs))
    return fake_check(op, args, kwargs)


def _make_aot_check(dynamic):
    def safe_aot_autograd_check(op, args, kwargs, *, copy_inputs=True, rtol=None, atol=None):
        # The inputs are always copied: the op runs several times.
        if _any_abstract(args, kwargs):
            return None
        return aot_autograd_check(op, args, kwargs, dynamic, rtol=rtol, atol=atol)
    return safe_aot_autograd_check


# The order matters: opcheck runs them in this order.
ALL_TEST_UTILS = {
    "test_schema": safe_schema_check,
    "test_autograd_registration": safe_autograd_registration_check,
    "test_faketensor": safe_fake_check,
    "test_aot_dispatch_static": _make_aot_check(False),
    "test_aot_dispatch_dynamic": _make_aot_check(True),
}

DEFAULT_TEST_UTILS = ["test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic"]


def resolve_unique_overload_or_throw(packet):
    names = packet.overloads()
    if len(names) != 1:
        raise RuntimeError(
            "opcheck can only test operators without overloads. Got the following overloads for "
            f"{packet._qualified_op_name}: {['' if n == 'default' else n for n in names]}")
    return getattr(packet, names[0])


def _resolve(op):
    if isinstance(op, OpOverloadPacket):
        return resolve_unique_overload_or_throw(op)
    if isinstance(op, str) or isinstance(getattr(op, "_opoverload", None), OpOverload):
        return resolve(op)  # a name or a CustomOpDef
    if not isinstance(op, OpOverload):
        raise ValueError("opcheck(op, ...): op must be instance of opyard.ops.OpOverload, e.g. "
                         f"opyard.ops.aten.sin.default, got {type(op)}")
    return op


def opcheck(op, args, kwargs=None, *, test_utils=DEFAULT_TEST_UTILS, raise_exception=True, rtol=None, atol=None):
    """Run ``test_utils`` on ``op(*args, **kwargs)``: ``{test: "SUCCESS" | exception}``.

    ``test_utils`` is a name, a list of names from :data:`ALL_TEST_UTILS`, or ``"ALL"``.
    With ``raise_exception=True`` the first failure raises :class:`OpCheckError`.
    """
    if (rtol is None) ^ (atol is None):
        raise ValueError("opcheck(op, ...): if you specify one of rtol/atol, you must specify both")
    kwargs = {} if kwargs is None else kwargs
    op = _resolve(op)
    if test_utils == "ALL":
        test_utils = tuple(ALL_TEST_UTILS)
    if isinstance(test_utils, str):
        test_utils = (test_utils,)
    if not isinstance(test_utils, (tuple, list)) or not set(test_utils) <= set(ALL_TEST_UTILS):
        raise ValueError(f"opcheck(op, ..., test_utils={test_utils}), expected test_utils to be subset of "
                         f"{tuple(ALL_TEST_UTILS)} but it was not")
    results = {}
    for name in test_utils:
        try:
            ALL_TEST_UTILS[name](op, args, kwargs, rtol=rtol, atol=atol)
            results[name] = "SUCCESS"
        except Exception as ex:  # every failure is reported; the first one raised if asked
            if raise_exception:
                raise OpCheckError(f"opcheck(op, ...): {name} failed with {ex} (scroll up for stack trace)") from ex
            results[name] = ex
    return results
