"""The ops that add a scaled term to ``self``, with torch's scaling semantics in one helper
(``_scaled_sum``): the BLAS family ``addmm``, ``addmv``, ``addr``, ``addbmm``, ``baddbmm``
(``beta * self + alpha * product``) and the pointwise ``addcmul``/``addcdiv``
(``self + value * t1 op t2``).

torch's rules (measured on torch 2.15):

- ``beta == 0`` ignores ``self`` and ``alpha == 0`` ignores the product entirely: nan and inf
  there do not reach the result (``addmm(full(nan), a, b, beta=0)`` is ``a @ b``).
- ``alpha``/``beta``/``value`` are converted to the element type by ``scalars.checked`` (an
  integral result truncates 0.5 to 0; a value the type cannot hold raises), except for ``addr``,
  which refuses a floating scalar for integral data and a bool one for non-bool data
  (``alpha_check``).
- The BLAS ops want one dtype for all their tensors (torch's messages name the pair); ``addr`` and
  ``addcmul``/``addcdiv`` promote. Bool data is refused except by ``addr`` (logical or/and).
- Half-precision data is multiplied and accumulated in float32 and rounded once
  (``precision.compute_np``).
- ``self`` is expanded to the result's shape (torch's expand message when it cannot be).

Each op has its in-place form (``self`` must already have the result's shape) and its ``out=``
form; the derivative formulas are in ``autograd/derivatives/scaled.py`` (``addmm``'s in
``reductions.py``).
"""

import numpy as np

from .. import _core
from .. import _dtype as D
from ._declare import OpTable
from .common import broadcast_error, check_same_device, inplace_result, out, quietly, read_only_error, \
    tensor_result_dtype
from .precision import compute_np
from .scalars import checked
from .shape import expand_error as _expand_error

__all__ = ["OPS", "addmm"]

OPS = OpTable()

def _legacy(t):
    return D.legacy_name(t.dtype)


def _no_bool(kernel, *tensors):
    for t in tensors:
        if t.dtype is D.bool:
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


def _expanded(self, target):
    """``self``'s data expanded to ``target`` (torch's expand and its messages)."""
    x = self._data
    if x.shape == tuple(target):
        return x
    if x.ndim > len(target):
        raise RuntimeError(f"expand({self.type()}{{{list(x.shape)}}}, size={list(target)}): the number of sizes "
                           f"provided ({len(target)}) must be greater or equal to the number of dimensions in the "
                           f"tensor ({x.ndim})")
    err = _expand_error(x.shape, tuple(target))
    if err is not None:
        raise err
    return np.broadcast_to(x, tuple(target))


def _scaled_sum(self_arr, term, beta, alpha, dt, zero_skips=True):
    """``beta * self + alpha * term`` in the computation dtype of ``dt``, rounded once to ``dt``: with
    ``zero_skips`` (the BLAS ops) a zero ``beta`` ignores ``self`` and a zero ``alpha`` the term
    entirely (their nan and inf too; addcmul/addcdiv multiply by their zero ``value``). ``term`` is
    already in the computation dtype; ``beta``/``alpha`` were converted by the caller."""
    cdt = compute_np(dt.np)
    with np.errstate(all="ignore"):
        if alpha == 0 and zero_skips:
            r = np.zeros(term.shape, cdt)
        else:
            r = term if alpha == 1 else term * alpha
        if beta != 0:
            s = self_arr.astype(cdt, copy=False)
            r = r + (s if beta == 1 else s * beta)
        r = np.asarray(r)
        return r if r.dtype == dt.np else r.astype(dt.np)


def _factors(dt, beta, alpha):
    """``beta`` and ``alpha`` in the element type (``scalars.checked``: truncated for integral data)."""
    return checked(beta, dt), checked(alpha, dt)


def _up(arr):
    """``arr`` in its computation dtype (half-precision data as float32)."""
    cdt = compute_np(arr.dtype)
    return arr if arr.dtype == cdt else arr.astype(cdt)


_FLOAT32_64 = (D.float32, D.float64)


def _matrix_pair(name, self, mat1, mat2):
    """torch's addmm/addbmm dtype checks: self against mat2 first, then mat1 against mat2."""
    if self.dtype is not mat2.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_legacy(self)} and {_legacy(mat2)}")
    if mat1.dtype is not mat2.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_legacy(mat1)} and {_legacy(mat2)}")


@OPS.op("addmm(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        out="addmm.out(Tensor self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) "
            "-> Tensor(a!)", exact=True)
def addmm(self, mat1, mat2, *, beta=1, alpha=1):
    check_same_device("aten::addmm", self, mat1, mat2)
    if mat1._data.ndim != 2:
        raise RuntimeError(f"addmm: self must be a matrix, got {mat1._data.ndim}-D tensor")
    if mat2._data.ndim != 2:
        raise RuntimeError(f"addmm: mat2 must be a matrix, got {mat2._data.ndim}-D tensor")
    a, b = mat1._data.shape, mat2._data.shape
    if a[1] != b[0]:
        raise RuntimeError(f"addmm: mat1 and mat2 shapes cannot be multiplied ({a[0]}x{a[1]} and {b[0]}x{b[1]})")
    _matrix_pair("addmm", self, mat1, mat2)
    _no_bool("addmm_impl_cpu_", mat1)
    dt = mat1.dtype
    x = self._data
    if beta.__class__ is int and alpha.__class__ is int and beta == alpha == 1 and dt in _FLOAT32_64 \
            and (x.shape == (b[1],) or x.shape == (a[0], b[1])):
        # ``linear``'s call, 5 us where the general route's expand, factors and error state take 14: the
        # same product plus ``self`` broadcast by numpy as ``_expanded`` spells it, in the data's dtype,
        # written into the product.
        term = mat1._data @ mat2._data
        return out(quietly(np.add, term, x, term), mat1)
    beta, alpha = _factors(dt, beta, alpha)
    s = _expanded(self, (a[0], b[1]))
    term = _up(mat1._data) @ _up(mat2._data) if alpha != 0 else np.zeros((a[0], b[1]), compute_np(dt.np))
    return out(_scaled_sum(s, term, beta, alpha, dt), mat1)


@OPS.op("addmv(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        out="addmv.out(Tensor self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) "
            "-> Tensor(a!)", exact=True)
def addmv(self, mat, vec, *, beta=1, alpha=1):
    check_same_device("aten::addmv", self, mat, vec)
    m, v, x = mat._data, vec._data, self._data
    if m.ndim != 2 or v.ndim != 1 or x.ndim > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {x.ndim}, {m.ndim}, {v.ndim}")
    if m.shape[1] != v.shape[0] or (x.ndim == 1 and x.shape[0] not in (1, m.shape[0])):
        raise RuntimeError(f"size mismatch, got input ({x.shape[0] if x.ndim else 1}), mat "
                           f"({m.shape[0]}x{m.shape[1]}), vec ({v.shape[0]})")
    if not self.dtype is mat.dtype is vec.dtype:
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_legacy(self)}, {_legacy(mat)}, "
                           f"and {_legacy(vec)}")
    _no_bool("addmv_impl_cpu", mat)
    dt = mat.dtype
    beta, alpha = _factors(dt, beta, alpha)
    term = _up(m) @ _up(v) if alpha != 0 else np.zeros(m.shape[:1], compute_np(dt.np))
    return out(_scaled_sum(np.broadcast_to(x, m.shape[:1]), term, beta, alpha, dt), mat)


def _alpha_check(dt, value, name):
    """torch's ``alpha_check`` (addr): the kind of ``alpha``/``beta`` must fit the result dtype."""
    if isinstance(value, bool) and dt is not D.bool:
        raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
    if dt._cat < 2 and isinstance(value, float):
        raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")


@OPS.op("addr(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        inplace="addr_(Tensor(a!) self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1) -> Tensor(a!)",
        out="addr.out(Tensor self, Tensor vec1, Tensor vec2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) "
            "-> Tensor(a!)")
def addr(self, vec1, vec2, *, beta=1, alpha=1):
    check_same_device("aten::addr", self, vec1, vec2)
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    dt = tensor_result_dtype(self, vec1, vec2)
    _alpha_check(dt, beta, "beta")
    _alpha_check(dt, alpha, "alpha")
    shape = (vec1._data.shape[0], vec2._data.shape[0])
    s = _expanded(self, shape)
    if dt is D.bool:  # torch's logical form: (beta and self) or (alpha and vec1 outer vec2)
        r = np.zeros(shape, bool)
        if alpha:
            r = np.logical_and.outer(vec1._data.astype(bool), vec2._data.astype(bool))
        if beta:
            r = r | s.astype(bool)
        return out(r, vec1)
    # torch's addr kernel works in the element type, rounding after each operation (half data too):
    # ``beta * self + (alpha * vec1) * vec2``, with ``self`` left out when ``beta`` is 0 but the
    # product always kept (a zero ``alpha`` still carries nan from the vectors).
    npdt = dt.np
    b, a = (np.asarray(v, npdt) for v in _factors(dt, beta, alpha))
    v1, v2 = vec1._data.astype(npdt, copy=False), vec2._data.astype(npdt, copy=False)
    with np.errstate(all="ignore"):
        r = np.multiply.outer(v1 * a, v2)
        if beta != 0:
            r = s.astype(npdt, copy=False) * b + r
    return out(np.asarray(r, npdt), vec1)


def _batches(name, b1, b2):
    x, y = b1._data, b2._data
    for t in (x, y):
        if t.ndim != 3:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{t.ndim}, {t.ndim - 1}], but got 2)")
    if x.shape[0] != y.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {x.shape[0]} and {y.shape[0]}")
    if x.shape[2] != y.shape[1]:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({x.shape[1]}x{x.shape[2]} and "
                           f"{y.shape[1]}x{y.shape[2]})")


@OPS.op("addbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        out="addbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, Tensor(a!) out) "
            "-> Tensor(a!)", exact=True)
def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    check_same_device("aten::addbmm", self, batch1, batch2)
    _batches("addbmm", batch1, batch2)
    _matrix_pair("addbmm", self, batch1, batch2)
    _no_bool("addmm_impl_cpu_", batch1)
    dt = batch1.dtype
    beta, alpha = _factors(dt, beta, alpha)
    x, y = batch1._data, batch2._data
    shape = (x.shape[1], y.shape[2])
    s = _expanded(self, shape)
    cdt = compute_np(dt.np)
    if alpha == 0 or not x.shape[0]:
        return out(_scaled_sum(s, np.zeros(shape, cdt), beta, alpha, dt), batch1)
    if cdt == dt.np:
        return out(_scaled_sum(s, np.einsum("bij,bjk->ik", x, y), beta, alpha, dt), batch1)
    # Half data: torch adds one batch's product at a time into the result, rounding each step.
    r = _scaled_sum(s, _up(x[0]) @ _up(y[0]), beta, alpha, dt)
    for i in range(1, x.shape[0]):
        r = _scaled_sum(r, _up(x[i]) @ _up(y[i]), 1, alpha, dt)
    return out(r, batch1)


@OPS.op("baddbmm(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1) -> Tensor",
        out="baddbmm.out(Tensor self, Tensor batch1, Tensor batch2, *, Scalar beta=1, Scalar alpha=1, "
            "Tensor(a!) out) -> Tensor(a!)", exact=True)
def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    check_same_device("aten::baddbmm", self, batch1, batch2)
    x, y = batch1._data, batch2._data
    if x.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if y.ndim != 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [-{y.ndim}, {y.ndim - 1}], but got 2)")
    if y.shape[0] != x.shape[0] or y.shape[1] != x.shape[2]:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{x.shape[0]}, "
                           f"{x.shape[2]}] but got: [{y.shape[0]}, {y.shape[1]}].")
    if not self.dtype is batch1.dtype is batch2.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {D.c_type_name(self.dtype)}, batch1: "
                           f"{D.c_type_name(batch1.dtype)}, batch2: {D.c_type_name(batch2.dtype)}")
    _no_bool("baddbmm", batch1)
    dt = batch1.dtype
    beta, alpha = _factors(dt, beta, alpha)
    shape = (x.shape[0], x.shape[1], y.shape[2])
    s = _expanded(self, shape)
    term = np.matmul(_up(x), _up(y)) if alpha != 0 else np.zeros(shape, compute_np(dt.np))
    return out(_scaled_sum(s, term, beta, alpha, dt), batch1)


# --- addcmul / addcdiv: self + value * (tensor1 op tensor2) ----------------------------------------

_ADDCDIV_INT = ("Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
                "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
                "as (input + value * opyard.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
                "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")


# From this many elements addcmul/addcdiv of contiguous operands run ``_core._fused_addc``.
_FUSED_ADDC_MIN = 1 << 12
_F32_MAX = float(np.finfo(np.float32).max)  # a finite value past it is the one ``checked`` refuses (float32)


def _addc_passes(s, a, b, value, op):
    """``_addc``'s numpy passes for operands of one shape and dtype: ``(a op b) * value + s``."""
    term = op(a, b)
    if value != 1 or isinstance(value, bool):
        term *= value
    term += s
    return term


def _addc(self, tensor1, tensor2, value, op, name, kernel):
    s, a, b = self._data, tensor1._data, tensor2._data
    if s.dtype is a.dtype is b.dtype and s.dtype.kind == "f" and s.itemsize > 2 and s.shape == a.shape == b.shape \
            and self._dev is tensor1._dev is tensor2._dev and s.size < _FUSED_ADDC_MIN:
        # float32/float64 operands of one shape (the common call of a small size): the numpy passes
        # below without the promotion and broadcast around them. Not Rust: its nan bits where two
        # nans meet are the compiler's choice, not numpy's.
        if not (type(value) in (int, float) and -_F32_MAX <= value <= _F32_MAX):  # else unchanged by it
            value = checked(value, D.FROM_NP[s.dtype])
        return out(quietly(_addc_passes, s, a, b, value, op), self)
    check_same_device("aten::" + name, self, tensor1, tensor2)
    dt = tensor_result_dtype(self, tensor1, tensor2)
    if dt is D.bool:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")
    value = checked(value, dt)
    cdt = compute_np(dt.np)
    a, b, s = (t._data.astype(cdt, copy=False) for t in (tensor1, tensor2, self))
    try:  # (one shape needs no ``np.broadcast_shapes``, 2 us)
        shape = s.shape if s.shape == a.shape == b.shape else np.broadcast_shapes(s.shape, a.shape, b.shape)
    except ValueError:
        raise broadcast_error("aten::" + name, self, tensor1, tensor2) from None
    if (a.size >= _FUSED_ADDC_MIN and cdt.kind == "f" and cdt.itemsize >= 4 and type(value) is not complex
            and s.shape == shape and a.shape == shape and b.shape == shape):
        # one pass in Rust for contiguous float32/float64 operands of one shape (the same values)
        r = _core._fused_addc(s, a, b, float(value), value != 1 or isinstance(value, bool), op is np.true_divide)
        if r is not None:
            if r.dtype != dt.np:
                with np.errstate(all="ignore"):  # float16 overflow: inf, as torch's
                    r = r.astype(dt.np)
            return out(r, self)
    with np.errstate(all="ignore"):
        term = op(a, b)
        if term.shape == shape and term.dtype == cdt:  # a fresh array of the result's shape: in place
            if value != 1 or isinstance(value, bool):
                term *= value
            term += s
            return out(term if term.dtype == dt.np else term.astype(dt.np), self)
    r = _scaled_sum(np.broadcast_to(s, shape), np.broadcast_to(term, shape), 1, value, dt, zero_skips=False)
    return out(r, self)


@OPS.op("addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", kind="pointwise",
        inplace="addcmul_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)",
        out="addcmul.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) "
            "-> Tensor(a!)")
def addcmul(self, tensor1, tensor2, *, value=1):
    return _addc(self, tensor1, tensor2, value, np.multiply, "addcmul", "addcmul_cpu_out")


@OPS.op("addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor", kind="pointwise",
        inplace="addcdiv_(Tensor(a!) self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor(a!)",
        out="addcdiv.out(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1, Tensor(a!) out) "
            "-> Tensor(a!)")
def addcdiv(self, tensor1, tensor2, *, value=1):
    if tensor1.dtype._cat < 2 and tensor2.dtype._cat < 2:
        raise RuntimeError(_ADDCDIV_INT)
    return _addc(self, tensor1, tensor2, value, np.true_divide, "addcdiv", "addcdiv_cpu_out")



def _blas_inplace(kernel, name, resizes=False):
    """The in-place form of a BLAS op: its result written into ``self``, which must already have the
    result's shape (torch: "Bad in-place call"), except for ``addbmm_`` (``resizes``), which torch
    writes through its ``out=`` kernel: ``self`` is resized to the result's shape, silently."""
    op_name = "aten::" + name

    def inplace(self, *args, **kwargs):
        r = kernel(self, *args, **kwargs)._data
        if resizes and r.shape != self._data.shape and self._data.flags.writeable:
            self._data = np.empty(r.shape, self._data.dtype)
        if r.shape != self._data.shape:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(self._data.shape)} and output tensor "
                               f"size {list(r.shape)} should match")
        if not self._data.flags.writeable:
            raise read_only_error(op_name, self._data)
        return inplace_result(self, r, op_name)
    inplace.__name__ = inplace.__qualname__ = name
    return inplace


for _name, _kernel, _schema in (
        ("addmm_", addmm, "addmm_(Tensor(a!) self, Tensor mat1, Tensor mat2, *, Scalar beta=1, Scalar alpha=1) "
                          "-> Tensor(a!)"),
        ("addmv_", addmv, "addmv_(Tensor(a!) self, Tensor mat, Tensor vec, *, Scalar beta=1, Scalar alpha=1) "
                          "-> Tensor(a!)"),
        ("addbmm_", addbmm, "addbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
                            "Scalar alpha=1) -> Tensor(a!)"),
        ("baddbmm_", baddbmm, "baddbmm_(Tensor(a!) self, Tensor batch1, Tensor batch2, *, Scalar beta=1, "
                              "Scalar alpha=1) -> Tensor(a!)")):
    OPS.op(_schema, kind="inplace")(_blas_inplace(_kernel, _name, resizes=_name == "addbmm_"))
del _name, _kernel, _schema
