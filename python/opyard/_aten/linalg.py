"""Matrix products (numpy), and the composite ones built from them."""

import numpy as np

from .. import _dtype as D
from .common import A, check_same_device, data_as, out, tensor_result_dtype

__all__ = ["KERNELS", "COMPOSITE"]


def _dims(name, t, n):
    if t._data.ndim != n:
        raise RuntimeError(f"{name}: expected {n}D tensors, but got a {t._data.ndim}D tensor")


def _same_dtype(name, a, b):
    """torch's dtype check of each matrix product, in its words."""
    if a._data.dtype == b._data.dtype:
        return
    if name == "aten::bmm":
        raise RuntimeError(f"expected scalar type {D.legacy_name(a.dtype)} but found {D.legacy_name(b.dtype)}")
    if name == "aten::mv":
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {D.legacy_name(b.dtype)}, "
                           f"{D.legacy_name(a.dtype)}, and {D.legacy_name(b.dtype)}")
    if name == "aten::dot":
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {D.legacy_name(a.dtype)} and "
                           f"{D.legacy_name(b.dtype)}")
    raise RuntimeError(f"expected m1 and m2 to have the same dtype, but got: {D.c_type_name(a.dtype)} != "
                       f"{D.c_type_name(b.dtype)}")


# The CPU kernel each product's dispatch macro names when it has no instance for bool.
_BOOL_KERNEL = {"aten::mm": "addmm_impl_cpu_", "aten::bmm": "bmm", "aten::mv": "addmv_impl_cpu", "aten::dot": "dot"}


def _no_bool(name, t):
    if t._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{_BOOL_KERNEL[name]}\" not implemented for 'Bool'")


def _in_dtype(r, x):
    """numpy's matmul over ml_dtypes' bfloat16/float8 answers float32; torch keeps the input dtype."""
    return r if r.dtype is x.dtype else r.astype(x.dtype)


def mm(self, mat2):
    x, y = self._data, mat2._data
    if x.ndim != 2 or y.ndim != 2:
        _dims("mm", self, 2)
        _dims("mm", mat2, 2)
    if self._dev is not mat2._dev:
        check_same_device("aten::mm", self, mat2)
    if x.dtype is not y.dtype:
        _same_dtype("aten::mm", self, mat2)
    if x.dtype.kind == "b":
        _no_bool("aten::mm", self)
    if x.shape[1] != y.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({x.shape[0]}x{x.shape[1]} "
                           f"and {y.shape[0]}x{y.shape[1]}) (aten::mm)")
    r = x @ y
    return out(r if r.dtype is x.dtype else r.astype(x.dtype), self)


def bmm(self, mat2):
    check_same_device("aten::bmm", self, mat2)
    _dims("bmm", self, 3)
    _dims("bmm", mat2, 3)
    _same_dtype("aten::bmm", self, mat2)
    _no_bool("aten::bmm", self)
    a, b = self._data.shape, mat2._data.shape
    if a[0] != b[0] or a[2] != b[1]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{a[0]}, {a[2]}] "
                           f"but got: [{b[0]}, {b[1]}].")
    return out(_in_dtype(np.matmul(self._data, mat2._data), self._data), self)


def dot(self, tensor):
    check_same_device("aten::dot", self, tensor)
    if self._data.ndim != 1 or tensor._data.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {tensor._data.ndim}D tensors")
    if self._data.shape != tensor._data.shape:
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{self._data.shape[0]}] and src "
                           f"[{tensor._data.shape[0]}] to have the same number of elements, but got "
                           f"{self._data.shape[0]} and {tensor._data.shape[0]} elements respectively")
    _same_dtype("aten::dot", self, tensor)
    _no_bool("aten::dot", self)
    return out(_in_dtype(np.asarray(np.dot(self._data, tensor._data)), self._data), self)


def outer(self, vec2):
    check_same_device("aten::outer", self, vec2)
    dt = tensor_result_dtype(self, vec2)
    return out(np.outer(data_as(self, dt), data_as(vec2, dt)), self)


def mv(self, vec):
    if self._data.ndim != 2 or vec._data.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {self._data.ndim}, {vec._data.ndim} (aten::mv)")
    check_same_device("aten::mv", self, vec)
    _same_dtype("aten::mv", self, vec)
    _no_bool("aten::mv", self)
    if self._data.shape[1] != vec._data.shape[0]:
        raise RuntimeError(f"size mismatch, got input ({self._data.shape[0]}), mat ({self._data.shape[0]}x"
                           f"{self._data.shape[1]}), vec ({vec._data.shape[0]}) (aten::mv)")
    return out(_in_dtype(self._data @ vec._data, self._data), self)


# --- einsum: torch's composition (CompositeImplicitAutograd) -------------------------------------
# Each operand is brought to one layout (the output's labels first, in output order, then the
# contracted labels in label order; a repeated label is a diagonal, a missing one a size-1 dim);
# dims only the first operand has are summed out, then each further operand is multiplied in:
# ``mul`` when nothing is contracted, else ``bmm`` (``_sumproduct_pair``). So the result dtypes are
# torch's: a sum of integral data is int64, a contraction wants one dtype and refuses bool, and
# autograd, vmap and fake tensors follow from the ops.

_ELLIPSIS = -1


def _label(c, pos):
    if "A" <= c <= "Z":
        return ord(c) - ord("A")
    if "a" <= c <= "z":
        return 26 + ord(c) - ord("a")
    raise RuntimeError(f"einsum(): invalid subscript given at index {pos} in the equation string, subscripts "
                       "must be in [a-zA-Z]")


def _parse_labels(text, offset, what):
    """The labels of one term (``_ELLIPSIS`` for ``...``), with torch's messages."""
    labels, i = [], 0
    while i < len(text):
        c = text[i]
        if c == " ":
            i += 1
            continue
        if c == ".":
            if text[i:i + 3] != "..." or _ELLIPSIS in labels:
                raise RuntimeError(f"einsum(): found '.' for {what} that is not part of any ellipsis")
            labels.append(_ELLIPSIS)
            i += 3
            continue
        labels.append(_label(c, offset + i))
        i += 1
    return labels


def _parse_einsum(equation, operands):
    lhs, arrow, rhs = equation.partition("->")
    terms, pos = [], 0
    for k, term in enumerate(lhs.split(",")):
        if k >= len(operands):
            raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
        terms.append(_parse_labels(term, pos, f"operand {k}"))
        pos += len(term) + 1
    if len(terms) < len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    out = _parse_labels(rhs, len(lhs) + 2, "output") if arrow else None
    return terms, out


def _sumproduct_pair(left, right, sum_dims):
    """``(left * right).sum(sum_dims)`` as torch computes it: one ``bmm`` over the dims both share."""
    if not sum_dims:
        return A.mul__Tensor(left, right)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:
                left = A.sum__dim_IntList(left, [i], True)
            elif sr:
                right = A.sum__dim_IntList(right, [i], True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    out_size = [left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [right.shape[d] for d in ro]
    order = lro + lo + list(sum_dims) + ro
    left = A.reshape(A.permute(left, lro + lo + list(sum_dims) + ro), [lro_size, lo_size, sum_size])
    right = A.reshape(A.permute(right, lro + list(sum_dims) + ro + lo), [lro_size, sum_size, ro_size])
    r = A.view(A.bmm(left, right), out_size[:len(lro) + len(lo)] + [1] * len(sum_dims) + out_size[len(lro) + len(lo):])
    perm = [0] * len(order)
    for i, d in enumerate(order):
        perm[d] = i
    return A.squeeze__dims(A.permute(r, perm), list(sum_dims))


def einsum(equation, tensors, *, path=None):
    if not tensors:
        raise RuntimeError("einsum(): must provide at least one operand")
    check_same_device("aten::einsum", *tensors)
    terms, out_labels = _parse_einsum(equation, tensors)
    counts = {}
    ell_dims = 0
    for k, (labels, t) in enumerate(zip(terms, tensors)):
        n = len(labels) - (1 if _ELLIPSIS in labels else 0)
        if _ELLIPSIS in labels:
            if n > t.dim():
                raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) is more than the "
                                   f"number of dimensions ({t.dim()}) for operand {k}")
            ell_dims = max(ell_dims, t.dim() - n)
        elif n != t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) does not match the "
                               f"number of dimensions ({t.dim()}) for operand {k} and no ellipsis was given")
        for lab in labels:
            if lab != _ELLIPSIS:
                counts[lab] = counts.get(lab, 0) + 1
    perm_index = {}
    if out_labels is None:  # implicit output: the ellipsis, then the labels seen once, in label order
        ell_index, width = 0, ell_dims
        for lab in sorted(counts):
            if counts[lab] == 1:
                perm_index[lab] = width
                width += 1
    else:
        ell_index, width = None, 0
        for lab in out_labels:
            if lab == _ELLIPSIS:
                ell_index, width = width, width + ell_dims
                continue
            name = chr(ord("A") + lab) if lab < 26 else chr(ord("a") + lab - 26)
            if lab in perm_index:
                raise RuntimeError(f"einsum(): output subscript {name} appears more than once in the output")
            if lab not in counts:
                raise RuntimeError(f"einsum(): output subscript {name} does not appear in the equation for any "
                                   "input operand")
            perm_index[lab] = width
            width += 1
    out_size = width
    for lab in sorted(counts):
        if lab not in perm_index:
            perm_index[lab] = width
            width += 1
    if ell_index is None:  # the ellipsis dims are contracted
        ell_index, width = width, width + ell_dims
    # Each operand in the common layout.
    ops = []
    for labels, t in zip(terms, tensors):
        perm = [-1] * width
        seen = {}
        j = 0
        for lab in labels:
            if lab == _ELLIPSIS:
                n_ell = t.dim() - (len(labels) - 1)
                for k in range(n_ell):
                    perm[ell_index + ell_dims - n_ell + k] = j
                    j += 1
            elif lab in seen:  # a repeated label: the diagonal
                t = A.movedim__int(A.diagonal(t, 0, seen[lab], j), -1, seen[lab])
            else:
                seen[lab] = j
                perm[perm_index[lab]] = j
                j += 1
        for i in range(width):
            if perm[i] == -1:
                t = A.unsqueeze(t, -1)
                perm[i] = j
                j += 1
        ops.append(A.permute(t, perm))
    # Sizes must broadcast across operands.
    seen_size = [1] * width
    for k, (labels, t) in enumerate(zip(terms, ops)):
        for i in range(width):
            n = t.shape[i]
            if n != 1 and seen_size[i] != 1 and n != seen_size[i]:
                lab = next((lb for lb, p in perm_index.items() if p == i), None)
                if lab is None:
                    raise RuntimeError(f"einsum(): operands do not broadcast with remapped shapes "
                                       f"(original->remapped): {[list(x.shape) for x in tensors]}->"
                                       f"{[list(x.shape) for x in ops]}")
                name = chr(ord("A") + lab) if lab < 26 else chr(ord("a") + lab - 26)
                raise RuntimeError(f"einsum(): subscript {name} has size {n} for operand {k} which does not "
                                   f"broadcast with previously seen size {seen_size[i]}")
            if n != 1:
                seen_size[i] = n
    last_op = [0] * width
    zero_size = False
    for k, t in enumerate(ops):
        for i in range(width):
            if t.shape[i] != 1:
                last_op[i] = k
            zero_size = zero_size or t.shape[i] == 0
    if zero_size:
        shape = [max(t.shape[i] for t in ops) for i in range(out_size)]
        return A.zeros(shape, dtype=tensors[0].dtype, device=tensors[0].device)
    result = ops[0]
    if len(ops) == 1:  # one operand: every contracted dim is summed, size 1 too
        return A.sum__dim_IntList(result, list(range(out_size, width))) if width > out_size else result
    dim = out_size
    for i in range(out_size, width):
        if last_op[i] == 0:
            result = A.squeeze__dim(result, dim) if result.shape[dim] == 1 else A.sum__dim_IntList(result, [dim])
        else:
            dim += 1
    for k in range(1, len(ops)):
        operand = ops[k]
        sum_dims = []
        dim = out_size
        for i in range(out_size, width):
            if last_op[i] < k:
                operand = A.squeeze__dim(operand, dim)
            elif last_op[i] == k:
                if result.shape[dim] == 1:
                    operand = A.sum__dim_IntList(operand, [dim])
                    result = A.squeeze__dim(result, dim)
                elif operand.shape[dim] == 1:
                    result = A.sum__dim_IntList(result, [dim])
                    operand = A.squeeze__dim(operand, dim)
                else:
                    sum_dims.append(dim)
                    dim += 1
            else:
                dim += 1
        result = _sumproduct_pair(result, operand, sum_dims)
    return result


KERNELS = {"mm": mm, "bmm": bmm, "dot": dot, "outer": outer, "mv": mv}


def matmul(self, other):
    """torch.matmul's cases, composed of mm / bmm / dot / views (CompositeImplicitAutograd)."""
    check_same_device("aten::matmul", self, other)
    a, b = self.dim(), other.dim()
    if a == 0 or b == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {a}D and {b}D")
    if a == 1 and b == 1:
        return A.dot(self, other)
    if a == 2 and b == 1:
        return A.squeeze__dim(A.mm(self, A.unsqueeze(other, 1)), -1)
    if a == 1 and b == 2:
        return A.squeeze__dim(A.mm(A.unsqueeze(self, 0), other), 0)
    if a == 2 and b == 2:
        return A.mm(self, other)
    # batched: broadcast the batch dimensions, fold them, bmm, unfold.
    x = A.unsqueeze(self, 0) if a == 1 else self
    y = A.unsqueeze(other, -1) if b == 1 else other
    batch = np.broadcast_shapes(tuple(x.shape[:-2]), tuple(y.shape[:-2]))
    n, k = x.shape[-2], x.shape[-1]
    k2, m = y.shape[-2], y.shape[-1]
    nb = int(np.prod(batch, dtype=np.int64))  # explicit: a -1 is ambiguous when a size is 0
    xb = A.reshape(A.expand(x, list(batch) + [n, k]), [nb, n, k])
    yb = A.reshape(A.expand(y, list(batch) + [k2, m]), [nb, k2, m])
    r = A.reshape(A.bmm(xb, yb), list(batch) + [n, m])
    if a == 1:
        r = A.squeeze__dim(r, -2)
    if b == 1:
        r = A.squeeze__dim(r, -1)
    return r


def linear(input, weight, bias=None):
    y = A.matmul(input, A.t(weight))
    return y if bias is None else A.add__Tensor(y, bias)


COMPOSITE = {"matmul": matmul, "linear": linear, "einsum": einsum}
