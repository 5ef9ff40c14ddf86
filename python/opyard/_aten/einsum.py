"""``einsum`` as torch composes it (CompositeImplicitAutograd): each operand's subscripts are
parsed into labels, the operand is permuted to one common order (output labels first, then the
ellipsis dims when the output has none, then the contracted labels), a repeated label takes the
diagonal and a missing one becomes a dim of size 1; then the operands are contracted pairwise
(from the left, or in the order ``path`` gives), each contracted dim summed as soon as no other
operand has it (``sum`` when one of the pair alone has it, a ``bmm`` of the flattened pair when
both do, ``mul`` when nothing is summed); a single operand's contracted dims are summed at once,
the size-1 dims left after contracting several are viewed away.

Autograd, vmap and meta tensors follow from the operators it calls, and so do torch's result dtypes
(an integer dim summed within one operand gives int64, as ``sum`` does) and views (a pure
permutation or diagonal is a view of its operand).
"""

import functools

from ._declare import OpTable
from .common import A, check_same_device

__all__ = ["OPS"]

OPS = OpTable()

_ELLIPSIS = 52  # labels: "A"-"Z" are 0-25, "a"-"z" 26-51 (torch's order for the implicit output)


def _label(c):
    return ord(c) - ord("A") if c <= "Z" else ord(c) - ord("a") + 26


def _subscript(label):
    return chr(label + ord("A")) if label < 26 else chr(label - 26 + ord("a"))


def _is_subscript(c):
    return "a" <= c <= "z" or "A" <= c <= "Z"


def _parse_inputs(lhs, num_ops):
    labels = [[] for _ in range(num_ops)]
    ell = False
    op = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell:
                raise RuntimeError(f"einsum(): found '.' for operand {op} for which an ellipsis was already found")
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' for operand {op} that is not part of any ellipsis")
            i += 2
            labels[op].append(_ELLIPSIS)
            ell = True
        elif c == ",":
            op += 1
            if op >= num_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
            ell = False
        else:
            if not _is_subscript(c):
                raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                                   "subscripts must be in [a-zA-Z]")
            labels[op].append(_label(c))
        i += 1
    if op != num_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    return labels


@functools.lru_cache(maxsize=256)
def _plan(equation, ndims):
    """``equation`` parsed for operands of ``ndims`` dims: each operand's labels, then
    ``_permutation``'s bookkeeping. Cached (a program repeats its few equations; parsing one took a
    third of a small einsum's time); an invalid equation raises each time, as exceptions are not
    cached."""
    arrow = equation.find("->")
    op_labels = _parse_inputs(equation if arrow < 0 else equation[:arrow], len(ndims))
    index, ell_index, ell_dims, out_size, total = _permutation(equation, op_labels, ndims)
    return tuple(tuple(labels) for labels in op_labels), tuple(index), ell_index, ell_dims, out_size, total


def _permutation(equation, op_labels, ndims):
    """torch's label bookkeeping: the position of each label in the common order, where the
    ellipsis dims go, how many dims the ellipsis covers and how many dims the output has."""
    count = [0] * _ELLIPSIS
    ell_dims = 0
    for i, (labels, ndim) in enumerate(zip(op_labels, ndims)):
        n = len(labels)
        has_ell = _ELLIPSIS in labels
        if has_ell:
            n -= 1
            ell_dims = max(ell_dims, ndim - n)
        for lab in labels:
            if lab != _ELLIPSIS:
                count[lab] += 1
        if (n > ndim) if has_ell else (n != ndim):
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                               f"{'is more than' if has_ell else 'does not match'} the number of dimensions ({ndim}) "
                               f"for operand {i}{'' if has_ell else ' and no ellipsis was given'}")
    index = [-1] * _ELLIPSIS
    arrow = equation.find("->")
    ell_index = 0
    ell_out = False
    if arrow < 0:  # implicit output: the ellipsis dims, then the labels seen once, in label order
        pos = ell_dims
        ell_out = True
        for lab in range(_ELLIPSIS):
            if count[lab] == 1:
                index[lab] = pos
                pos += 1
    else:
        rhs = equation[arrow + 2:]
        pos = 0
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_out:
                    raise RuntimeError("einsum(): found '.' for output but an ellipsis (...) was already found")
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise RuntimeError("einsum(): found '.' for output that is not part of any ellipsis (...)")
                i += 2
                ell_index = pos
                pos += ell_dims
                ell_out = True
            else:
                if not _is_subscript(c):
                    raise RuntimeError(f"einsum(): invalid subscript given at index {arrow + 2 + i} in the equation "
                                       "string, subscripts must be in [a-zA-Z]")
                lab = _label(c)
                if count[lab] == 0 or index[lab] != -1:
                    why = "appears more than once in the output" if index[lab] != -1 else \
                        "does not appear in the equation for any input operand"
                    raise RuntimeError(f"einsum(): output subscript {c} {why}")
                index[lab] = pos
                pos += 1
            i += 1
    out_size = pos
    if not ell_out:
        ell_index = pos
        pos += ell_dims
    for lab in range(_ELLIPSIS):
        if count[lab] > 0 and index[lab] == -1:
            index[lab] = pos
            pos += 1
    return index, ell_index, ell_dims, out_size, pos


def _align(i, t, labels, index, ell_index, ell_dims, total, label_size, ell_sizes, counts):
    """Operand ``i`` permuted to the common order: diagonals for repeated labels, size-1 dims for
    the labels (and ellipsis dims) it does not have; checks that sizes broadcast and counts, per
    dim, the operands where it is not 1."""
    perm = [-1] * total
    dim = 0
    shape = tuple(t.shape)  # a plain tuple: Size's indexing is a Python method
    for lab in labels:
        if lab == _ELLIPSIS:
            covered = t.dim() - (len(labels) - 1)
            for j in range(ell_dims - covered, ell_dims):
                size = shape[dim]
                if size != 1:
                    if ell_sizes[j] not in (1, size):
                        raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {i}has size "
                                           f"{size} which does not broadcast with previously seen ellipsis with size "
                                           f"{ell_sizes[j]} for the respective dimension")
                    ell_sizes[j] = size
                    counts[ell_index + j] += 1
                perm[ell_index + j] = dim
                dim += 1
        elif perm[index[lab]] == -1:
            size = shape[dim]
            if size != 1:
                if label_size[lab] not in (1, size):
                    raise RuntimeError(f"einsum(): subscript {_subscript(lab)} has size {size} for operand {i} which "
                                       f"does not broadcast with previously seen size {label_size[lab]}")
                label_size[lab] = size
                counts[index[lab]] += 1
            perm[index[lab]] = dim
            dim += 1
        else:  # a repeated subscript: the diagonal
            prev = perm[index[lab]]
            if shape[dim] != shape[prev]:
                raise RuntimeError(f"einsum(): subscript {_subscript(lab)} is repeated for operand {i} but the sizes "
                                   f"don't match, {shape[dim]} != {shape[prev]}")
            t = A.movedim__int(A.diagonal(t, 0, prev, dim), -1, prev)
            shape = tuple(t.shape)
    for k in range(total):
        if perm[k] == -1:
            t = A.unsqueeze(t, dim)
            perm[k] = dim
            dim += 1
    return A.permute(t, perm)


def _sumproduct_pair(left, right, sum_dims):
    """``sum(left * right, sum_dims, keepdim=True)`` through one ``bmm``: the dims both have, then
    left's own, the summed ones and right's own, flattened to three (torch's ``sumproduct_pair``)."""
    if not sum_dims:
        return A.mul__Tensor(left, right)
    ndim = left.dim()
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    ls, rs = tuple(left.shape), tuple(right.shape)  # plain tuples: Size's indexing is a Python method
    for i in range(ndim):
        sl, sr = ls[i] != 1, rs[i] != 1
        if i in summed:
            if sl and sr:
                if ls[i] != rs[i]:
                    raise RuntimeError("non-broadcast dimensions must match")
                sum_size *= ls[i]
            elif sl:
                left = A.sum__dim_IntList(left, [i], True)
                ls = tuple(left.shape)
            elif sr:
                right = A.sum__dim_IntList(right, [i], True)
                rs = tuple(right.shape)
        elif sl and sr:
            if ls[i] != rs[i]:
                raise RuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= ls[i]
        elif sl:
            lo.append(i)
            lo_size *= ls[i]
        else:
            ro.append(i)
            ro_size *= rs[i]
    out_shape = [ls[d] for d in lro] + [ls[d] for d in lo] + [1] * len(sum_dims) + [rs[d] for d in ro]
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [0] * len(out_shape)
    for k, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = k
    lmat = A.reshape(A.permute(left, lperm), [lro_size, lo_size, sum_size])
    rmat = A.reshape(A.permute(right, rperm), [lro_size, sum_size, ro_size])
    return A.permute(A.view(A.bmm(lmat, rmat), out_shape), operm)


@OPS.op("einsum(str equation, Tensor[] tensors, *, int[]? path=None) -> Tensor", kind="composite")
def einsum(equation, tensors, *, path=None):
    """torch's contraction (module docstring); ``path`` lists the pairs to contract (the order
    ``opt_einsum`` chose), each result joining the end of the list."""
    if not tensors:
        raise RuntimeError("einsum(): must provide at least one operand")
    check_same_device("aten::einsum", *tensors)
    op_labels, index, ell_index, ell_dims, out_size, total = _plan(equation, tuple(t.dim() for t in tensors))
    label_size = [1] * _ELLIPSIS
    ell_sizes = [1] * ell_dims
    counts = [0] * total
    ops = [_align(i, t, labels, index, ell_index, ell_dims, total, label_size, ell_sizes, counts)
           for i, (t, labels) in enumerate(zip(tensors, op_labels))]
    num_ops = len(ops)
    steps = iter(path or ())
    while len(ops) > 1:
        i, j = 0, 1
        if path is not None:
            i, j = next(steps), next(steps)
            if j < i:
                i, j = j, i
            if i == j or i < 0 or j >= len(ops):
                why = "cannot contract an operand with itself" if i == j else "operand index is out of bounds"
                raise RuntimeError(f"einsum(): invalid contraction ({i}, {j}) {why}")
        a, b = ops[i], ops[j]
        del ops[j], ops[i]
        # the dims that can be summed now: in both (and no other operand), or in one of them only
        sum_dims, a_sum, b_sum = [], [], []
        a_shape, b_shape = tuple(a.shape), tuple(b.shape)
        for d in range(out_size, total):
            if a_shape[d] != 1 and b_shape[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:
                if a_shape[d] != 1:
                    a_sum.append(d)
                    counts[d] = 0
                elif b_shape[d] != 1:
                    b_sum.append(d)
                    counts[d] = 0
        if a_sum:
            a = A.sum__dim_IntList(a, a_sum, True)
        if b_sum:
            b = A.sum__dim_IntList(b, b_sum, True)
        pair = _sumproduct_pair(a, b, sum_dims)
        if path is not None:
            ops.append(pair)
        else:
            ops.insert(0, pair)
    result = ops[0]
    if total > out_size:
        if num_ops > 1:  # every contracted dim has size 1 by now
            return A.view(result, list(result.shape[:out_size]))
        return A.sum__dim_IntList(result, list(range(out_size, total)))
    return result
