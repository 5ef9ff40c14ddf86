"""Weak references keyed by identity (torch's ``torch.utils.weak``).

A tensor's ``__eq__`` compares elements and its hash is its identity, so a ``WeakKeyDictionary``
cannot key on tensors; these containers key on the object's identity and drop an entry when the
object dies. ``WeakTensorKeyDictionary`` is the identity-keyed dictionary (torch's alias).
"""

import weakref
from collections.abc import MutableMapping

__all__ = ["WeakIdRef", "WeakIdKeyDictionary", "WeakTensorKeyDictionary", "TensorWeakRef"]


class WeakIdRef(weakref.ref):
    """A weak reference equal to another exactly when both refer to the same object (while it lives);
    its hash is the object's id, taken when the reference is made."""

    __slots__ = ("_id",)

    def __new__(cls, key, callback=None):
        return weakref.ref.__new__(cls, key, callback)

    def __init__(self, key, callback=None):
        super().__init__(key, callback)
        self._id = id(key)

    def __call__(self):
        return super().__call__()

    def __hash__(self):
        return self._id

    def __eq__(self, other):
        if not isinstance(other, WeakIdRef):
            return NotImplemented
        a, b = self(), other()
        if a is not None and b is not None:
            return a is b
        return self is other


class WeakIdKeyDictionary(MutableMapping):
    """A mapping whose keys are held weakly and compared by identity."""

    def __init__(self, data=None):
        self._data = {}
        self_ref = weakref.ref(self)

        def remove(ref):
            owner = self_ref()
            if owner is not None:
                owner._data.pop(ref, None)

        self._remove = remove
        if data is not None:
            self.update(data)

    def __getitem__(self, key):
        return self._data[WeakIdRef(key)]

    def __setitem__(self, key, value):
        self._data[WeakIdRef(key, self._remove)] = value

    def __delitem__(self, key):
        del self._data[WeakIdRef(key)]

    def __contains__(self, key):
        try:
            ref = WeakIdRef(key)
        except TypeError:
            return False
        return ref in self._data

    def __iter__(self):
        for ref in list(self._data):
            obj = ref()
            if obj is not None:
                yield obj

    def __len__(self):
        return sum(1 for ref in list(self._data) if ref() is not None)

    def __repr__(self):
        return f"<{type(self).__name__} with {len(self)} entries>"

    def copy(self):
        return type(self)(dict(self.items()))


WeakTensorKeyDictionary = WeakIdKeyDictionary


class TensorWeakRef:
    """A weak reference to a tensor (torch's ``TensorWeakRef``): ``ref()`` is the tensor or None."""

    __slots__ = ("ref",)

    def __init__(self, tensor):
        self.ref = weakref.ref(tensor)

    def __call__(self):
        return self.ref()
