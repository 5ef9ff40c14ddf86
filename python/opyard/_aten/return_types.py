"""torch's ``return_types``: the structured tuples of ops that return several tensors
(``values, indices = x.max(0)``; ``x.max(0).indices``), indexable and unpackable.

Like torch's structseqs (and unlike ``collections.namedtuple``) they are built from one
sequence, ``return_types.max((values, indices))``, so code that rebuilds a result with
``type(out)(f(o) for o in out)`` (fake tensors, tracing) keeps the type.
"""

from operator import itemgetter

__all__ = ["max", "min", "sort", "topk", "kthvalue", "aminmax", "cummax", "cummin", "median", "mode", "nanmedian", "histogram", "histogramdd", "make",
           "linalg_cholesky_ex", "linalg_eig", "linalg_eigh", "linalg_inv_ex", "linalg_ldl_factor",
           "linalg_ldl_factor_ex", "linalg_lstsq", "linalg_lu", "linalg_lu_factor", "linalg_lu_factor_ex",
           "linalg_polar", "linalg_qr", "linalg_slogdet", "linalg_solve_ex", "linalg_svd", "slogdet", "svd",
           "lu_unpack", "geqrf", "triangular_solve", "frexp"]

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


max = _make("max", ("values", "indices"))  # noqa: A001 (torch.return_types.max)
min = _make("min", ("values", "indices"))  # noqa: A001
sort = _make("sort", ("values", "indices"))
topk = _make("topk", ("values", "indices"))
kthvalue = _make("kthvalue", ("values", "indices"))
aminmax = _make("aminmax", ("min", "max"))
cummax = _make("cummax", ("values", "indices"))
cummin = _make("cummin", ("values", "indices"))
median = _make("median", ("values", "indices"))
mode = _make("mode", ("values", "indices"))
nanmedian = _make("nanmedian", ("values", "indices"))
histogram = _make("histogram", ("hist", "bin_edges"))
histogramdd = _make("histogramdd", ("hist", "bin_edges"))

# The linear-algebra results (torch.return_types.linalg_eig, ...).
linalg_cholesky_ex = _make("linalg_cholesky_ex", ("L", "info"))
linalg_eig = _make("linalg_eig", ("eigenvalues", "eigenvectors"))
linalg_eigh = _make("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_inv_ex = _make("linalg_inv_ex", ("inverse", "info"))
linalg_ldl_factor = _make("linalg_ldl_factor", ("LD", "pivots"))
linalg_ldl_factor_ex = _make("linalg_ldl_factor_ex", ("LD", "pivots", "info"))
linalg_lstsq = _make("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
linalg_lu = _make("linalg_lu", ("P", "L", "U"))
linalg_lu_factor = _make("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _make("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_polar = _make("linalg_polar", ("U", "H"))
linalg_qr = _make("linalg_qr", ("Q", "R"))
linalg_slogdet = _make("linalg_slogdet", ("sign", "logabsdet"))
linalg_solve_ex = _make("linalg_solve_ex", ("result", "info"))
linalg_svd = _make("linalg_svd", ("U", "S", "Vh"))
slogdet = _make("slogdet", ("sign", "logabsdet"))
svd = _make("svd", ("U", "S", "V"))
lu_unpack = _make("lu_unpack", ("P", "L", "U"))
geqrf = _make("geqrf", ("a", "tau"))
triangular_solve = _make("triangular_solve", ("solution", "cloned_coefficient"))
frexp = _make("frexp", ("mantissa", "exponent"))
