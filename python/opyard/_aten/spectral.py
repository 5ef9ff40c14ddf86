"""Discrete Fourier transforms: torch's three kernels ``_fft_c2c``, ``_fft_r2c`` and ``_fft_c2r``
(numpy's pocketfft, which keeps single precision single), and the ``fft_*`` functions of
``torch.fft`` as the CompositeImplicitAutograd compositions torch makes of them (SpectralOps.cpp):
arguments checked and canonicalised, the input promoted (integers and bool to the default float
dtype, to complex where the transform needs it), cropped or zero-padded to the requested sizes,
then one kernel call. ``fftshift``/``ifftshift`` are ``roll``.

Note [FFT normalization]: the kernels take torch's ``fft_norm_mode`` as an int: 0 no scaling,
1 by ``1/sqrt(n)``, 2 by ``1/n``, whatever the direction; the public functions map their ``norm``
string to it (``"backward"`` scales the inverse transform, ``"forward"`` the forward one).
"""

import warnings

import numpy as np

from .. import _dtype as D
from .._tensor import _make_meta
from ._declare import OpTable
from .common import A, out

__all__ = ["OPS"]

OPS = OpTable()

_NONE, _BY_ROOT_N, _BY_N = 0, 1, 2
# numpy's ``norm`` for (torch's mode, forward): numpy names the direction that is scaled.
_NP_NORM = {(_NONE, True): "backward", (_BY_ROOT_N, True): "ortho", (_BY_N, True): "forward",
            (_NONE, False): "forward", (_BY_ROOT_N, False): "ortho", (_BY_N, False): "backward"}
_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _axes(dim, ndim):
    return tuple(d + ndim if d < 0 else d for d in dim)


def _check_kernel_input(name, x, complex_input):
    if (x.dtype.kind == "c") != complex_input:
        kind = "complex" if complex_input else "real"
        raise RuntimeError(f"{name} expects a {kind} input tensor, but got {D.legacy_name(D.FROM_NP[x.dtype])}")
    if x.dtype not in _COMPLEX_OF and x.dtype.kind != "c":
        raise RuntimeError(f"Unsupported dtype {D.legacy_name(D.FROM_NP[x.dtype])}")


def _m_c2c(self, dim, normalization, forward):
    return _make_meta(tuple(self.shape), self.dtype)


@OPS.op("_fft_c2c(Tensor self, SymInt[] dim, int normalization, bool forward) -> Tensor", meta=_m_c2c,
        out="_fft_c2c.out(Tensor self, SymInt[] dim, int normalization, bool forward, *, Tensor(a!) out) -> Tensor(a!)")
def _fft_c2c(self, dim, normalization, forward):
    """Complex to complex over ``dim`` (Note [FFT normalization])."""
    x = self._data
    _check_kernel_input("_fft_c2c", x, True)
    if not dim or x.size == 0:  # nothing to transform: torch returns the input copied
        return out(x.copy(), self)
    fn = np.fft.fftn if forward else np.fft.ifftn
    r = fn(x, axes=_axes(dim, x.ndim), norm=_NP_NORM[normalization, bool(forward)])
    return out(r.astype(x.dtype, copy=False), self)


def _m_r2c(self, dim, normalization, onesided):
    shape = list(self.shape)
    if onesided and dim:
        last = dim[-1] + len(shape) if dim[-1] < 0 else dim[-1]
        shape[last] = shape[last] // 2 + 1
    return _make_meta(tuple(shape), D.FROM_NP[np.dtype(_COMPLEX_OF[self._data.dtype])])


@OPS.op("_fft_r2c(Tensor self, int[] dim, int normalization, bool onesided) -> Tensor", meta=_m_r2c,
        out="_fft_r2c.out(Tensor self, int[] dim, int normalization, bool onesided, *, Tensor(a!) out) -> Tensor(a!)")
def _fft_r2c(self, dim, normalization, onesided):
    """Real to complex, forward, over ``dim``: with ``onesided`` only the first half (``n // 2 + 1``
    entries) of the last dimension of ``dim``, the rest being its conjugate mirror."""
    x = self._data
    _check_kernel_input("_fft_r2c", x, False)
    axes = _axes(dim, x.ndim)
    norm = _NP_NORM[normalization, True]
    cdt = _COMPLEX_OF[x.dtype]
    if x.size == 0:
        shape = list(x.shape)
        if onesided:
            shape[axes[-1]] = shape[axes[-1]] // 2 + 1
        return out(np.zeros(shape, cdt), self)
    r = np.fft.rfftn(x, axes=axes, norm=norm) if onesided else np.fft.fftn(x, axes=axes, norm=norm)
    return out(r.astype(cdt, copy=False), self)


def _m_c2r(self, dim, normalization, last_dim_size):
    shape = list(self.shape)
    last = dim[-1] + len(shape) if dim[-1] < 0 else dim[-1]
    shape[last] = last_dim_size
    return _make_meta(tuple(shape), D.FROM_NP[self._data.real.dtype])


@OPS.op("_fft_c2r(Tensor self, int[] dim, int normalization, SymInt last_dim_size) -> Tensor", meta=_m_c2r,
        out="_fft_c2r.out(Tensor self, int[] dim, int normalization, SymInt last_dim_size, *, Tensor(a!) out) -> "
            "Tensor(a!)")
def _fft_c2r(self, dim, normalization, last_dim_size):
    """Complex (one half of a Hermitian signal) to real, backward, over ``dim``; the last dimension of
    ``dim`` becomes ``last_dim_size`` long."""
    x = self._data
    _check_kernel_input("_fft_c2r", x, True)
    axes = _axes(dim, x.ndim)
    rdt = x.real.dtype
    shape = [x.shape[a] for a in axes[:-1]] + [last_dim_size]
    if x.size == 0:
        full = list(x.shape)
        full[axes[-1]] = last_dim_size
        return out(np.zeros(full, rdt), self)
    r = np.fft.irfftn(x, s=shape, axes=axes, norm=_NP_NORM[normalization, False])
    return out(r.astype(rdt, copy=False), self)


# ---------------------------------------------------------------------------------------------
# torch.fft: compositions of the kernels


def _norm_mode(norm, forward):
    if norm is None or norm == "backward":
        return _NONE if forward else _BY_N
    if norm == "forward":
        return _BY_N if forward else _NONE
    if norm == "ortho":
        return _BY_ROOT_N
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _wrap(dim, ndim):
    """``maybe_wrap_dim`` without scalar wrapping: a 0-dim tensor has no dimension to transform."""
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if not -ndim <= dim < ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, {ndim - 1}], but got {dim})")
    return dim + ndim if dim < 0 else dim


def _promote(x, require_complex):
    """torch's ``promote_tensor_fft``: integers and bool to the default float dtype, then to complex
    when asked; half precision has no CPU transform."""
    dt = x.dtype
    new = dt
    if not (dt.is_floating_point or dt.is_complex):
        new = D.get_default_dtype()
    if new in (D.float16, D.bfloat16) or new.name == "complex32":
        raise RuntimeError(f"Unsupported dtype {D.legacy_name(new)}")
    if require_complex and not new.is_complex:
        new = D.FROM_NP[np.dtype(_COMPLEX_OF[new.np])]
    return x if new is dt else A._to_copy(x, dtype=new)


def _resize(x, dims, sizes):
    """torch's ``resize_fft_input``: each dimension of ``dims`` cropped or zero-padded to its size."""
    pad = [0] * (2 * x.dim())
    padded = False
    for d, n in zip(dims, sizes):
        if n == -1:
            continue
        have = x.shape[d]
        if have < n:
            padded = True
            pad[len(pad) - 2 * d - 1] = n - have
        elif have > n:
            x = A.slice__Tensor(x, d, 0, n)
    return A.constant_pad_nd(x, pad) if padded else x


def _points(n):
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return n


def _c2c(name, x, n, dim, norm, forward):
    if not x.is_complex():
        raise RuntimeError(f"{name} expects a complex input tensor, but got {D.legacy_name(x.dtype)}")
    d = _wrap(dim, x.dim())
    size = _points(x.shape[d] if n is None else n)
    if n is not None:
        x = _resize(x, [d], [size])
    return A._fft_c2c(x, [d], _norm_mode(norm, forward), forward)


def _r2c(name, x, n, dim, norm, forward, onesided):
    if x.is_complex():
        raise TypeError(f"{name} expects a real input tensor, but got {D.legacy_name(x.dtype)}")
    x = _promote(x, False)
    d = _wrap(dim, x.dim())
    size = _points(x.shape[d] if n is None else n)
    if n is not None:
        x = _resize(x, [d], [size])
    r = A._fft_r2c(x, [d], _norm_mode(norm, forward), onesided)
    return r if forward else A.conj(r)


def _c2r(name, x, n, dim, norm, forward):
    x = _promote(x, True)
    d = _wrap(dim, x.dim())
    size = _points(2 * (x.shape[d] - 1) if n is None else n)
    if n is not None:
        x = _resize(x, [d], [size // 2 + 1])
    if forward:
        x = A.conj(x)
    return A._fft_c2r(x, [d], _norm_mode(norm, forward), size)


_ONE = "(Tensor self, SymInt? n=None, int dim=-1, str? norm=None) -> Tensor"
_ONE_OUT = "(Tensor self, SymInt? n=None, int dim=-1, str? norm=None, *, Tensor(a!) out) -> Tensor(a!)"


@OPS.op("fft_fft" + _ONE, kind="composite")
def fft_fft(self, n=None, dim=-1, norm=None):
    if self.is_complex():
        return _c2c("fft", self, n, dim, norm, True)
    return _r2c("fft", self, n, dim, norm, True, False)


@OPS.op("fft_ifft" + _ONE, kind="composite")
def fft_ifft(self, n=None, dim=-1, norm=None):
    if self.is_complex():
        return _c2c("ifft", self, n, dim, norm, False)
    return _r2c("ifft", self, n, dim, norm, False, False)


@OPS.op("fft_rfft" + _ONE, kind="composite")
def fft_rfft(self, n=None, dim=-1, norm=None):
    return _r2c("rfft", self, n, dim, norm, True, True)


@OPS.op("fft_irfft" + _ONE, kind="composite")
def fft_irfft(self, n=None, dim=-1, norm=None):
    return _c2r("irfft", self, n, dim, norm, False)


@OPS.op("fft_hfft" + _ONE, kind="composite")
def fft_hfft(self, n=None, dim=-1, norm=None):
    return _c2r("hfft", self, n, dim, norm, True)


@OPS.op("fft_ihfft" + _ONE, kind="composite")
def fft_ihfft(self, n=None, dim=-1, norm=None):
    return _r2c("ihfft", self, n, dim, norm, False, True)


def _shape_and_dims(x, s, dim):
    """torch's ``canonicalize_fft_shape_and_dim_args``: ``(sizes, dims)`` of the transform."""
    ndim = x.dim()
    dims = None
    if dim is not None:
        dims = [_wrap(d, ndim) for d in ([dim] if isinstance(dim, int) else dim)]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        s = [s] if isinstance(s, int) else list(s)
        if dims is not None and len(dims) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
        if dims is None:
            dims = list(range(ndim - len(s), ndim))
        sizes = [x.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    elif dims is None:
        dims, sizes = list(range(ndim)), list(x.shape)
    else:
        sizes = [x.shape[d] for d in dims]
    for n in sizes:
        _points(n)
    return sizes, dims


def _c2r_shape_and_dims(name, x, s, dim):
    """``(sizes, dims, last_dim_size)`` of a complex-to-real transform (torch's
    ``canonicalize_fft_c2r_shape_and_dim_args``): the sizes of the Hermitian half on input."""
    sizes, dims = _shape_and_dims(x, s, dim)
    if not sizes:
        raise RuntimeError(f"{name} must transform at least one axis")
    s_list = None if s is None else ([s] if isinstance(s, int) else list(s))
    last = 2 * (x.shape[dims[-1]] - 1) if s_list is None or s_list[-1] == -1 else sizes[-1]
    _points(last)
    sizes[-1] = last // 2 + 1
    return sizes, dims, last


def _fftn(self, s, dim, norm, forward):
    sizes, dims = _shape_and_dims(self, s, dim)
    x = _promote(self, True)
    x = _resize(x, dims, sizes)
    return A._fft_c2c(x, dims, _norm_mode(norm, forward), forward)


def _rfftn(name, self, s, dim, norm):
    if self.is_complex():
        raise TypeError(f"{name} expects a real-valued input tensor, but got {D.legacy_name(self.dtype)}")
    sizes, dims = _shape_and_dims(self, s, dim)
    if not sizes:
        raise RuntimeError(f"{name} must transform at least one axis")
    x = _resize(_promote(self, False), dims, sizes)
    return A._fft_r2c(x, dims, _norm_mode(norm, True), True)


def _irfftn(name, self, s, dim, norm):
    sizes, dims, last = _c2r_shape_and_dims(name, self, s, dim)
    x = _resize(_promote(self, True), dims, sizes)
    return A._fft_c2r(x, dims, _norm_mode(norm, False), last)


def _hfftn(name, self, s, dim, norm):
    sizes, dims, last = _c2r_shape_and_dims(name, self, s, dim)
    x = _resize(_promote(self, True), dims, sizes)
    mode = _norm_mode(norm, True)
    if len(dims) > 1:
        x = A._fft_c2c(x, dims[:-1], mode, True)
    return A._fft_c2r(A.conj(x), [dims[-1]], mode, last)


def _ihfftn(name, self, s, dim, norm):
    if self.is_complex():
        raise TypeError(f"Only supports floating-point dtypes, but found: {D.legacy_name(self.dtype)}")
    sizes, dims = _shape_and_dims(self, s, dim)
    if not sizes:
        raise RuntimeError(f"{name} must transform at least one axis")
    x = _resize(_promote(self, False), dims, sizes)
    mode = _norm_mode(norm, False)
    r = A._fft_r2c(x, [dims[-1]], mode, True)
    if len(dims) == 1:
        return A.conj(r)
    return A._fft_c2c(A.conj_physical(r), dims[:-1], mode, False)


_TWO = "(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None) -> Tensor"
_N = "(Tensor self, SymInt[1]? s=None, int[1]? dim=None, str? norm=None) -> Tensor"


@OPS.op("fft_fft2" + _TWO, kind="composite")
def fft_fft2(self, s=None, dim=(-2, -1), norm=None):
    return _fftn(self, s, dim, norm, True)


@OPS.op("fft_ifft2" + _TWO, kind="composite")
def fft_ifft2(self, s=None, dim=(-2, -1), norm=None):
    return _fftn(self, s, dim, norm, False)


@OPS.op("fft_rfft2" + _TWO, kind="composite")
def fft_rfft2(self, s=None, dim=(-2, -1), norm=None):
    return _rfftn("rfftn", self, s, dim, norm)


@OPS.op("fft_irfft2" + _TWO, kind="composite")
def fft_irfft2(self, s=None, dim=(-2, -1), norm=None):
    return _irfftn("irfftn", self, s, dim, norm)


@OPS.op("fft_hfft2" + _TWO, kind="composite")
def fft_hfft2(self, s=None, dim=(-2, -1), norm=None):
    return _hfftn("hfftn", self, s, dim, norm)


@OPS.op("fft_ihfft2" + _TWO, kind="composite")
def fft_ihfft2(self, s=None, dim=(-2, -1), norm=None):
    return _ihfftn("ihfftn", self, s, dim, norm)


@OPS.op("fft_fftn" + _N, kind="composite")
def fft_fftn(self, s=None, dim=None, norm=None):
    return _fftn(self, s, dim, norm, True)


@OPS.op("fft_ifftn" + _N, kind="composite")
def fft_ifftn(self, s=None, dim=None, norm=None):
    return _fftn(self, s, dim, norm, False)


@OPS.op("fft_rfftn" + _N, kind="composite")
def fft_rfftn(self, s=None, dim=None, norm=None):
    return _rfftn("rfftn", self, s, dim, norm)


@OPS.op("fft_irfftn" + _N, kind="composite")
def fft_irfftn(self, s=None, dim=None, norm=None):
    return _irfftn("irfftn", self, s, dim, norm)


@OPS.op("fft_hfftn" + _N, kind="composite")
def fft_hfftn(self, s=None, dim=None, norm=None):
    return _hfftn("hfftn", self, s, dim, norm)


@OPS.op("fft_ihfftn" + _N, kind="composite")
def fft_ihfftn(self, s=None, dim=None, norm=None):
    return _ihfftn("ihfftn", self, s, dim, norm)


def _shifts(x, dim, half):
    dims = list(range(x.dim())) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    return [half(x.shape[d]) for d in dims], dims


@OPS.op("fft_fftshift(Tensor self, int[1]? dim=None) -> Tensor", kind="composite")
def fft_fftshift(self, dim=None):
    shifts, dims = _shifts(self, dim, lambda n: n // 2)
    return A.roll(self, shifts, dims)


@OPS.op("fft_ifftshift(Tensor self, int[1]? dim=None) -> Tensor", kind="composite")
def fft_ifftshift(self, dim=None):
    shifts, dims = _shifts(self, dim, lambda n: (n + 1) // 2)
    return A.roll(self, shifts, dims)


# ---------------------------------------------------------------------------------------------
# Short-time Fourier transforms


@OPS.op("unfold_backward(Tensor grad_in, SymInt[] input_sizes, int dim, int size, int step) -> Tensor")
def unfold_backward(grad_in, input_sizes, dim, size, step):
    """The gradient of ``unfold(dim, size, step)``: every window element added back to the input
    element it views (overlap-add), one slice per window offset or per window, whichever is fewer."""
    g = grad_in._data
    shape = tuple(input_sizes)
    d = dim + len(shape) if dim < 0 else dim
    r = np.zeros(shape, g.dtype)
    n = g.shape[d] if g.ndim > d else 0
    moved = np.moveaxis(r, d, -1)
    src = np.moveaxis(g, d, -2)  # (..., windows, size)
    if size <= n:
        for k in range(size):
            moved[..., k:k + step * (n - 1) + 1:step] += src[..., :, k]
    else:
        for w in range(n):
            moved[..., w * step:w * step + size] += src[..., w, :]
    return out(r, grad_in)


_WARNED = set()


def _warn_once(key, message):
    if key not in _WARNED:
        _WARNED.add(key)
        warnings.warn(message, UserWarning, stacklevel=3)


def _stft_repr(self, n_fft, hop, win, window, normalized, onesided, return_complex, align):
    w = "None" if window is None else f"opyard.{_tensor_type(window)}{{{list(window.shape)}}}"
    return (f"stft(opyard.{_tensor_type(self)}{list(self.shape)}, n_fft={n_fft}, hop_length={hop}, win_length={win}, "
            f"window={w}, normalized={int(normalized)}, onesided={_opt(onesided)}, "
            f"return_complex={_opt(return_complex)}, align_to_window={_opt(align)}) ")


def _opt(v):
    return "None" if v is None else str(int(v))


def _tensor_type(t):
    return {"float32": "FloatTensor", "float64": "DoubleTensor", "complex64": "ComplexFloatTensor",
            "complex128": "ComplexDoubleTensor", "int64": "LongTensor", "int32": "IntTensor", "int16": "ShortTensor",
            "int8": "CharTensor", "uint8": "ByteTensor", "bool": "BoolTensor", "float16": "HalfTensor",
            "bfloat16": "BFloat16Tensor"}.get(t.dtype.name, "Tensor")


_STFT = ("(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
         "bool normalized=False, bool? onesided=None, bool? return_complex=None, bool? align_to_window=None) -> Tensor")


@OPS.op("stft" + _STFT, kind="composite")
def stft(self, n_fft, hop_length=None, win_length=None, window=None, normalized=False, onesided=None,
         return_complex=None, align_to_window=None):
    """Frames of ``n_fft`` samples every ``hop_length``, windowed, each transformed: ``(*, n_fft // 2 + 1
    or n_fft, frames)`` (torch's composition: ``as_strided`` frames, ``mul``, ``_fft_r2c``/``_fft_c2c``)."""
    complex_window = window is not None and window.is_complex()
    if return_complex is None:
        return_complex = self.is_complex() or complex_window
        if not return_complex:
            raise RuntimeError("stft requires the return_complex parameter be given for real inputs, and will further "
                               "require that return_complex=True in a future PyTorch release.")
    elif not return_complex:
        _warn_once("stft_real", "stft with return_complex=False is deprecated. In a future pytorch release, stft will "
                   "return complex tensors for all inputs, and return_complex=False will raise an error.\nNote: you can "
                   "still call torch.view_as_real on the complex output to recover the old return format.")
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    rep = _stft_repr(self, n_fft, hop, win, window, normalized, onesided, return_complex, align_to_window)
    if window is None:
        _warn_once("stft_window", "A window was not provided. A rectangular window will be applied,which is known to "
                   "cause spectral leakage. Other windows such as torch.hann_window or torch.hamming_window are "
                   "recommended to reduce spectral leakage.To suppress this warning and use a rectangular window, "
                   "explicitly set `window=torch.ones(n_fft, device=<device>)`.")
    if not (self.dtype.is_floating_point or self.dtype.is_complex):
        raise NotImplementedError(rep + ": expected a tensor of floating point or complex values")
    if self.dim() not in (1, 2):
        raise RuntimeError(rep + ": expected a 1D or 2D tensor")
    x = A.unsqueeze(self, 0) if self.dim() == 1 else self
    if align_to_window and win < n_fft:  # frames start where the window starts
        left = (n_fft - win) // 2
        x = A.constant_pad_nd(x, [left, n_fft - win - left])
    length = x.shape[1]
    if n_fft <= 0 or n_fft > length:
        raise RuntimeError(rep + f": expected 0 < n_fft < {length}, but got n_fft={win}")
    if hop <= 0:
        raise RuntimeError(rep + f": expected hop_length > 0, but got hop_length={hop}")
    if win <= 0 or win > n_fft:
        raise RuntimeError(rep + f": expected 0 < win_length <= n_fft, but got win_length={win}")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(rep + f": expected a 1D window tensor of size equal to win_length={win}, but got window "
                           f"with size {list(window.shape)}")
    if win < n_fft:  # the window centred in n_fft, zeros around it
        left = (n_fft - win) // 2
        w = window if window is not None else A.ones([win], dtype=self.dtype, device=self.device)
        window = A.constant_pad_nd(w, [left, n_fft - win - left])
    x = A.unfold(x, 1, n_fft, hop)  # (batch, frames, n_fft): torch's as_strided frames, as a view op vmap knows
    if window is not None:
        x = A.mul__Tensor(x, window)
    mode = _BY_ROOT_N if normalized else _NONE
    if x.is_complex():
        if onesided:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        r = A._fft_c2c(x, [2], mode, True)
    else:
        r = A._fft_r2c(x, [2], mode, True if onesided is None else onesided)
    r = A.transpose__int(r, 1, 2)
    if self.dim() == 1:
        r = A.squeeze__dim(r, 0)
    return r if return_complex else A.view_as_real(r)


@OPS.op("stft.center(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool center=True, str pad_mode=\"reflect\", bool normalized=False, bool? onesided=None, "
        "bool? return_complex=None, bool? align_to_window=None) -> Tensor", kind="composite")
def stft_center(self, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
                normalized=False, onesided=None, return_complex=None, align_to_window=None):
    """``stft`` of the signal padded by ``n_fft // 2`` on both sides (``pad_mode``) when ``center``."""
    if center and align_to_window is not None:
        raise RuntimeError("stft align_to_window should only be set when center = false")
    x = self
    if center:
        ndim = self.dim()
        pad = n_fft // 2
        x = A.pad(A.view(x, [1] * (3 - ndim) + list(x.shape)), [pad, pad], pad_mode)
        x = A.view(x, list(x.shape[-ndim:]))
    return stft(x, n_fft, hop_length, win_length, window, normalized, onesided, return_complex, align_to_window)


@OPS.op("istft(Tensor self, int n_fft, int? hop_length=None, int? win_length=None, Tensor? window=None, "
        "bool center=True, bool normalized=False, bool? onesided=None, int? length=None, bool return_complex=False) -> "
        "Tensor", kind="composite")
def istft(self, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False, onesided=None,
          length=None, return_complex=False):
    """The inverse of ``stft``: each frame transformed back, windowed, overlap-added and divided by
    the overlap-added squared window (torch's composition)."""
    hop = n_fft >> 2 if hop_length is None else hop_length
    win = n_fft if win_length is None else win_length
    if not self.is_complex():
        raise RuntimeError("istft requires a complex-valued input tensor matching the output from stft with "
                           "return_complex=True.")
    x = A.view_as_real(A.resolve_conj(self))
    ndim = x.dim()
    frames, fft_size = x.shape[-2], x.shape[-3]
    expected = n_fft + hop * (frames - 1)
    rep = "istft(...) "
    if x.numel() == 0:
        raise RuntimeError(rep + ": input tensor cannot be empty.")
    if ndim not in (3, 4):
        raise RuntimeError(rep + f": expected a tensor with 3 or 4 dimensions of complex dtype, but got {ndim}")
    onesided_ = fft_size != n_fft if onesided is None else onesided
    if onesided_ and n_fft // 2 + 1 != fft_size:
        raise RuntimeError(rep + ": expected the frequency dimension (3rd to the last) of the input tensor to match "
                           f"n_fft / 2 + 1 when onesided=True, but got {fft_size}")
    if not onesided_ and n_fft != fft_size:
        raise RuntimeError(rep + ": expected the frequency dimension (3rd to the last) of the input tensor to match "
                           f"n_fft when onesided=False, but got {fft_size}")
    if not 0 < hop <= win:
        raise RuntimeError(rep + ": expected 0 < hop_length <= win_length")
    if not 0 < win <= n_fft:
        raise RuntimeError(rep + ": expected 0 < win_length <= n_fft")
    if window is not None and (window.dim() != 1 or window.shape[0] != win):
        raise RuntimeError(rep + ": Invalid window shape. window has to be 1D and length of `win_length`")
    w = window if window is not None else A.ones([win], dtype=x.dtype, device=x.device)
    if win != n_fft:
        left = (n_fft - win) // 2
        w = A.constant_pad_nd(w, [left, n_fft - win - left], 0)
    if ndim == 3:
        x = A.unsqueeze(x, 0)
    x = A.view_as_complex(A.contiguous(A.transpose__int(x, 1, 2)))  # (channel, frames, fft_size)
    mode = _BY_ROOT_N if normalized else _BY_N
    if return_complex:
        if onesided_:
            raise RuntimeError("Cannot have onesided output if window or input is complex")
        x = A._fft_c2c(x, [2], mode, False)
    else:
        if window is not None and window.is_complex():
            raise RuntimeError("Complex windows are incompatible with return_complex=False")
        if not onesided_:
            x = A.slice__Tensor(x, -1, 0, n_fft // 2 + 1)
        x = A._fft_c2r(x, [2], mode, n_fft)
    y = A.unfold_backward(A.mul__Tensor(x, A.view(w, [1, 1, n_fft])), [x.shape[0], expected], 1, n_fft, hop)
    envelope = A.unfold_backward(A.expand(A.view(A.pow__Tensor_Scalar(w, 2), [1, 1, n_fft]), [1, frames, n_fft]),
                                 [1, expected], 1, n_fft, hop)
    start = n_fft // 2 if center else 0
    end = start + length if length is not None else (-(n_fft // 2) if center else expected)
    y = A.slice__Tensor(y, 1, start, end)
    envelope = A.slice__Tensor(envelope, 1, start, end)
    if envelope.numel() and envelope.device.type != "meta" and bool(A.lt__Scalar(A.min(A.abs(envelope)), 1e-11).item()):
        raise RuntimeError("istft(...) window overlap add min: 1")
    y = A.div__Tensor(y, envelope)
    if ndim == 3:
        y = A.squeeze__dim(y, 0)
    if end > expected:
        _warn_once("istft_length", "The length of signal is shorter than the length parameter. Result is being padded "
                   "with zeros in the tail. Please check your center and hop_length settings.")
        y = A.constant_pad_nd(y, [0, end - expected], 0)
    return y
