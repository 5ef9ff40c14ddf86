"""Derivatives of views and shape ops: the gradient is reshaped/permuted/padded back.

Every forward formula applies the same view to the tangent (a view's tangent
is the view of the tangent).
"""

from ._helpers import A, pad_along
from .registry import Formula as F


def _reshape_back(grads, a, n):
    return (A.reshape.default(grads[0], list(a.self.shape)),)


def _permute_back(grads, a, n):
    dims = [d % len(a.self.shape) for d in a.dims]
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d] = i
    return (A.permute.default(grads[0], inverse),)


def _expand_back(grads, a, n):
    g = grads[0]
    shape = a.self.shape
    lead = len(g.shape) - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1]
    if dims:
        g = A.sum.dim_IntList(g, dims, True)
    return (A.reshape.default(g, list(shape)) if lead or dims else g,)


def _select_back(grads, a, n):
    shape = a.self.shape
    dim = a.dim % len(shape)
    index = a.index % shape[dim]
    g = A.unsqueeze.default(grads[0], dim)
    return (pad_along(g, dim, index, shape[dim] - index - 1, shape),)


def _slice_back(grads, a, n):
    shape = a.self.shape
    dim = a.dim % len(shape)
    size = shape[dim]
    start = 0 if a.start is None else (a.start + size if a.start < 0 else a.start)
    start = max(0, min(start, size))
    g = grads[0]
    m = g.shape[dim]
    if a.step != 1 and m > 0:
        g = _spread(g, dim, m, a.step)
    return (pad_along(g, dim, start, size - start - g.shape[dim], shape),)


def _spread(g, dim, m, step):
    """``g``'s ``m`` slices along ``dim`` placed ``step`` apart with zeros between (length
    ``(m - 1) * step + 1``), from differentiable ops so a double backward works."""
    sizes = list(g.shape)
    gaps = sizes[:dim + 1] + [step - 1] + sizes[dim + 1:]
    paired = A.cat.default([A.unsqueeze.default(g, dim + 1), A.new_zeros.default(g, gaps)], dim + 1)
    sizes[dim] = m * step
    return A.narrow.default(A.reshape.default(paired, sizes), dim, 0, (m - 1) * step + 1)


def _cat_back(grads, a, n):
    g = grads[0]
    dim = a.dim
    out = []
    offset = 0
    for m in a.tensors:
        if len(m.shape) == 1 and m.shape[0] == 0:  # torch's legacy empty tensors skip cat: an empty gradient
            out.append(A.new_zeros.default(g, [0]))
            continue
        d = dim % len(m.shape)
        out.append(A.narrow.default(g, d, offset, m.shape[d]))
        offset += m.shape[d]
    return (out,)


def _stack_back(grads, a, n):
    g = grads[0]
    dim = a.dim % (len(a.tensors[0].shape) + 1)
    return ([A.select.int(g, dim, i) for i in range(len(a.tensors))],)


def _squeeze_back(grads, a, n):
    return (A.reshape.default(grads[0], list(a.self.shape)),)


def _narrow_back(grads, a, n):
    dim = a.dim % len(a.self.shape)
    size = a.self.shape[dim]
    start = a.start + size if a.start < 0 else a.start  # narrow counts a negative start from the end
    return (pad_along(grads[0], dim, start, size - start - a.length, a.self.shape),)


def _same_view(op):
    """Forward formula of a view: apply the view to the tangent with the same arguments."""
    return lambda t, a: op(t[0], a)


FORMULAS = {
    "aten::view": F("ViewBackward0", ("self",), _reshape_back,
                    forward=_same_view(lambda t, a: A.view.default(t, a.size)), rust_apply="reshape"),
    "aten::reshape": F("ReshapeAliasBackward0", ("self",), _reshape_back,
                       forward=_same_view(lambda t, a: A.reshape.default(t, a.shape)), rust_apply="reshape"),
    "aten::_reshape_alias": F("ReshapeAliasBackward0", ("self",), _reshape_back,
                              forward=_same_view(lambda t, a: A.reshape.default(t, a.size)), rust_apply="reshape"),
    "aten::_unsafe_view": F("UnsafeViewBackward0", ("self",), _reshape_back,
                            forward=_same_view(lambda t, a: A.reshape.default(t, a.size)), rust_apply="reshape"),
    "aten::t": F("TBackward0", ("self",), lambda g, a, n: (A.t.default(g[0]),),
                 forward=_same_view(lambda t, a: A.t.default(t))),
    "aten::transpose.int": F("TransposeBackward0", ("self",),
                             lambda g, a, n: (A.transpose.int(g[0], a.dim0, a.dim1),),
                             forward=_same_view(lambda t, a: A.transpose.int(t, a.dim0, a.dim1))),
    "aten::permute": F("PermuteBackward0", ("self",), _permute_back,
                       forward=_same_view(lambda t, a: A.permute.default(t, a.dims))),
    "aten::unsqueeze": F("UnsqueezeBackward0", ("self",),
                         lambda g, a, n: (A.squeeze.dim(g[0], a.dim),),
                         forward=_same_view(lambda t, a: A.unsqueeze.default(t, a.dim)), rust_apply="unsqueeze"),
    "aten::squeeze": F("SqueezeBackward0", ("self",), _squeeze_back,
                       forward=_same_view(lambda t, a: A.squeeze.default(t)), rust_apply="reshape"),
    "aten::squeeze.dim": F("SqueezeBackward1", ("self",), _squeeze_back,
                           forward=_same_view(lambda t, a: A.squeeze.dim(t, a.dim)), rust_apply="reshape"),
    "aten::squeeze.dims": F("SqueezeBackward2", ("self",), _squeeze_back,
                            forward=_same_view(lambda t, a: A.squeeze.dims(t, a.dim)), rust_apply="reshape"),
    "aten::expand": F("ExpandBackward0", ("self",), _expand_back,
                      forward=_same_view(lambda t, a: A.expand.default(t, a.size))),
    "aten::select.int": F("SelectBackward0", ("self",), _select_back,
                          forward=_same_view(lambda t, a: A.select.int(t, a.dim, a.index))),
    "aten::slice.Tensor": F("SliceBackward0", ("self",), _slice_back,
                            forward=_same_view(lambda t, a: A.slice.Tensor(t, a.dim, a.start, a.end, a.step))),
    # torch's narrow is a composite of slice, so its node is a SliceBackward0.
    "aten::narrow": F("SliceBackward0", ("self",), _narrow_back,
                      forward=_same_view(lambda t, a: A.narrow.default(t, a.dim, a.start, a.length))),
    "aten::cat": F("CatBackward0", ("tensors",), _cat_back,
                   forward=lambda t, a: A.cat.default(
                       [ti if ti is not None else A.zeros_like.default(x) for ti, x in zip(t[0], a.tensors)],
                       a.dim)),
    "aten::stack": F("StackBackward0", ("tensors",), _stack_back,
                     forward=lambda t, a: A.stack.default(
                         [ti if ti is not None else A.zeros_like.default(x) for ti, x in zip(t[0], a.tensors)],
                         a.dim)),
    "aten::clone": F("CloneBackward0", ("self",), lambda g, a, n: (g[0],),
                     forward=lambda t, a: A.clone.default(t[0]), rust_apply="clone"),
    "aten::alias": F("AliasBackward0", ("self",), lambda g, a, n: (g[0],),
                     forward=lambda t, a: A.alias.default(t[0]), rust_apply="identity"),
    "aten::_to_copy": F("ToCopyBackward0", ("self",),
                        lambda g, a, n: (A._to_copy.default(g[0], dtype=a.self.dtype),),
                        forward=lambda t, a: A._to_copy.default(t[0], dtype=a.dtype)),
}

# These formulas only move, sum or copy the gradient's elements (a complex gradient converted to a
# real input's dtype keeps its real part, as torch's): they hold for complex results as written
# (Note [Complex outputs] in src/python/autograd/kernel/output.rs).
for _name in ("aten::view", "aten::reshape", "aten::_reshape_alias", "aten::_unsafe_view", "aten::t",
              "aten::transpose.int", "aten::permute", "aten::unsqueeze", "aten::squeeze", "aten::squeeze.dim",
              "aten::squeeze.dims", "aten::expand", "aten::select.int", "aten::slice.Tensor", "aten::narrow",
              "aten::cat", "aten::stack", "aten::clone", "aten::alias", "aten::_to_copy"):
    FORMULAS[_name].complex = True

