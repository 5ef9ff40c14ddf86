"""``opyard.fft``: torch.fft's discrete Fourier transforms over the ``aten::fft_*`` operators.

Example::

    >>> opyard.fft.rfft(opyard.tensor([1.0, 0.0, 0.0, 0.0]))
    tensor([1.+0.j, 1.+0.j, 1.+0.j])
"""

from ._dtype import get_default_dtype as _default
from ._dtype import int64 as _int64
from ._ops import ops

__all__ = ["fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "irfft", "rfft2", "irfft2", "rfftn", "irfftn",
           "hfft", "ihfft", "hfft2", "ihfft2", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift"]

_A = ops.aten


def _out(r, out):
    return r if out is None else out.copy_(r)


def fft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_A.fft_fft.default(input, n, dim, norm), out)


def ifft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_A.fft_ifft.default(input, n, dim, norm), out)


def rfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_A.fft_rfft.default(input, n, dim, norm), out)


def irfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_A.fft_irfft.default(input, n, dim, norm), out)


def hfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_A.fft_hfft.default(input, n, dim, norm), out)


def ihfft(input, n=None, dim=-1, norm=None, *, out=None):
    return _out(_A.fft_ihfft.default(input, n, dim, norm), out)


def _listed(v):
    return [v] if isinstance(v, int) else (None if v is None else list(v))


def fft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _out(_A.fft_fft2.default(input, _listed(s), _listed(dim), norm), out)


def ifft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _out(_A.fft_ifft2.default(input, _listed(s), _listed(dim), norm), out)


def rfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _out(_A.fft_rfft2.default(input, _listed(s), _listed(dim), norm), out)


def irfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _out(_A.fft_irfft2.default(input, _listed(s), _listed(dim), norm), out)


def hfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _out(_A.fft_hfft2.default(input, _listed(s), _listed(dim), norm), out)


def ihfft2(input, s=None, dim=(-2, -1), norm=None, *, out=None):
    return _out(_A.fft_ihfft2.default(input, _listed(s), _listed(dim), norm), out)


def fftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_A.fft_fftn.default(input, _listed(s), _listed(dim), norm), out)


def ifftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_A.fft_ifftn.default(input, _listed(s), _listed(dim), norm), out)


def rfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_A.fft_rfftn.default(input, _listed(s), _listed(dim), norm), out)


def irfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_A.fft_irfftn.default(input, _listed(s), _listed(dim), norm), out)


def hfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_A.fft_hfftn.default(input, _listed(s), _listed(dim), norm), out)


def ihfftn(input, s=None, dim=None, norm=None, *, out=None):
    return _out(_A.fft_ihfftn.default(input, _listed(s), _listed(dim), norm), out)


def fftshift(input, dim=None):
    return _A.fft_fftshift.default(input, _listed(dim))


def ifftshift(input, dim=None):
    return _A.fft_ifftshift.default(input, _listed(dim))


def fftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of an ``n``-point transform with sample spacing ``d``:
    ``[0, 1, ..., (n - 1) // 2, -(n // 2), ..., -1] / (d * n)``."""
    idx = _A.arange.default(n, dtype=_int64, device=device)
    idx = _A.where.self(_A.lt.Scalar(idx, (n + 1) // 2), idx, _A.sub.Scalar(idx, n))
    r = _out(_A.mul.Scalar(_A._to_copy.default(idx, dtype=dtype or _default()), 1.0 / (n * d)), out)
    return r.requires_grad_() if requires_grad else r


def rfftfreq(n, d=1.0, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    """The sample frequencies of ``rfft``'s ``n // 2 + 1`` outputs: ``[0, 1, ..., n // 2] / (d * n)``."""
    idx = _A.arange.default(n // 2 + 1, dtype=_int64, device=device)
    r = _out(_A.mul.Scalar(_A._to_copy.default(idx, dtype=dtype or _default()), 1.0 / (n * d)), out)
    return r.requires_grad_() if requires_grad else r


from ._exports import public_dir  # noqa: E402

__dir__ = public_dir(globals())
