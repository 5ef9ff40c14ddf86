"""torch's ``return_types``: the structured tuples of ops that return several tensors
(``values, indices = x.max(0)``; ``x.max(0).indices``), indexable and unpackable.

Like torch's structseqs (and unlike ``collections.namedtuple``) they are built from one
sequence, ``return_types.max((values, indices))``, so code that rebuilds a result with
``type(out)(f(o) for o in out)`` (fake tensors, tracing) keeps the type.
"""

from operator import itemgetter

# Note [Return types on first use]: each class is made on its first read (PEP 562), not with
# ``import opyard``: a kernel or ``opyard.return_types.max`` reads it when it is needed; a made class
# is then a plain module attribute, so a result's type is the same object every time (pickling too).
_FIELDS = {
    "max": ("values", "indices"),
    "min": ("values", "indices"),
    "sort": ("values", "indices"),
    "topk": ("values", "indices"),
    "kthvalue": ("values", "indices"),
    "aminmax": ("min", "max"),
    "cummax": ("values", "indices"),
    "cummin": ("values", "indices"),
    "median": ("values", "indices"),
    "mode": ("values", "indices"),
    "nanmedian": ("values", "indices"),
    "histogram": ("hist", "bin_edges"),
    "histogramdd": ("hist", "bin_edges"),
    # the linear-algebra results (torch.return_types.linalg_eig, ...)
    "linalg_cholesky_ex": ("L", "info"),
    "linalg_eig": ("eigenvalues", "eigenvectors"),
    "linalg_eigh": ("eigenvalues", "eigenvectors"),
    "linalg_inv_ex": ("inverse", "info"),
    "linalg_ldl_factor": ("LD", "pivots"),
    "linalg_ldl_factor_ex": ("LD", "pivots", "info"),
    "linalg_lstsq": ("solution", "residuals", "rank", "singular_values"),
    "linalg_lu": ("P", "L", "U"),
    "linalg_lu_factor": ("LU", "pivots"),
    "linalg_lu_factor_ex": ("LU", "pivots", "info"),
    "linalg_polar": ("U", "H"),
    "linalg_qr": ("Q", "R"),
    "linalg_slogdet": ("sign", "logabsdet"),
    "linalg_solve_ex": ("result", "info"),
    "linalg_svd": ("U", "S", "Vh"),
    "slogdet": ("sign", "logabsdet"),
    "svd": ("U", "S", "V"),
    "lu_unpack": ("P", "L", "U"),
    "geqrf": ("a", "tau"),
    "triangular_solve": ("solution", "cloned_coefficient"),
    "frexp": ("mantissa", "exponent"),
}

__all__ = [*_FIELDS, "make"]

# Kernels build results with ``make(cls, (values, indices))``: tuple's own constructor, no Python
# frame (the checking ``__new__`` below is for users and for code rebuilding a result).
make = tuple.__new__


class _StructSeq(tuple):
    __slots__ = ()
    _fields = ()

    def __new__(cls, sequence):
        items = tuple(sequence)
        if len(items) != len(cls._fields):
            raise TypeError(f"opyard.return_types.{cls.__name__} takes a {len(cls._fields)}-sequence "
                            f"({len(items)}-sequence given)")
        return tuple.__new__(cls, items)

    def __repr__(self):
        body = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"opyard.return_types.{type(self).__name__}(\n{body})"

    def __reduce__(self):
        return (type(self), (tuple(self),))


def _make(name, fields):
    namespace = {"__slots__": (), "_fields": fields, "__module__": __name__, "__qualname__": name}
    namespace.update({f: property(itemgetter(i), doc=f"Alias for field number {i}")
                      for i, f in enumerate(fields)})
    return type(name, (_StructSeq,), namespace)



def __getattr__(name):
    fields = _FIELDS.get(name)
    if fields is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return globals().setdefault(name, _make(name, fields))  # one class even when threads race here


def __dir__():
    return sorted({*globals(), *_FIELDS})
