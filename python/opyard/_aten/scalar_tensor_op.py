"""``scalar_tensor``: a 0-d tensor of a number, of the default floating dtype unless ``dtype`` says
otherwise (``scalar_tensor(1)`` is float32), the number converted by torch's Scalar rules. torch's
compositions make one for a number they combine with a tensor (``where`` with a number is ``where``
of ``scalar_tensor``), so a trace records it."""

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .factory import full

__all__ = ["OPS"]

OPS = OpTable()

_SCHEMA = ("scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
           "bool? pin_memory=None) -> Tensor")


def _dtype(s, dtype):
    D.expect_dtype(dtype, "scalar_tensor", "dtype")
    dt = D.get_default_dtype() if dtype is None else dtype
    if type(s) is complex and not dt.is_complex:
        raise RuntimeError(f"value cannot be converted to type {D.c_type_name(dt)} without overflow")
    return dt


def _meta(s, *, dtype=None, layout=None, device=None, pin_memory=None):
    return _make_meta([], _dtype(s, dtype))


@OPS.op(_SCHEMA, kind="factory", meta=_meta)
def scalar_tensor(s, *, dtype=None, layout=None, device=None, pin_memory=None):
    return full([], s, dtype=_dtype(s, dtype), device=device)
