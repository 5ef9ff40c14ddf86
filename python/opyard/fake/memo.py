"""``TensorMemo``: a data-dependent answer remembered per fake tensor while it is unchanged."""

import weakref

__all__ = ["TensorMemo"]


class TensorMemo:
    """Per-tensor memory of a data-dependent answer, valid while the tensor's version is unchanged
    (torch's ``nonzero_memo``/``item_memo``). Weakly keyed: it never keeps a tensor alive."""

    def __init__(self):
        self._by_id = {}

    def get(self, t):
        hit = self._by_id.get(id(t))
        if hit is None:
            return None
        ref, version, value = hit
        return value if ref() is t and version == t._version else None

    def put(self, t, value):
        key = id(t)
        self._by_id[key] = (weakref.ref(t, lambda _, key=key: self._by_id.pop(key, None)), t._version, value)
        return value

from .._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
