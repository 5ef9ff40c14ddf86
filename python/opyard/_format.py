"""torch-style ``repr`` of tensors: ``tensor([1., 2.], requires_grad=True)``."""

import numpy as np

from . import _dtype as D

_DEFAULT_SUFFIXLESS = ("float32", "int64", "bool")


def _fmt_values(arr):
    flat = arr.reshape(-1)
    kind = arr.dtype.kind
    if kind == "b":
        return [("True" if v else "False") for v in flat]
    if kind in "iu":
        return [str(int(v)) for v in flat]
    if kind == "c":
        return [f"{v.real:.4f}{'+' if v.imag >= 0 else '-'}{abs(v.imag):.4f}j" for v in flat]
    finite = flat[np.isfinite(flat)]
    if finite.size and np.all(finite == np.round(finite)) and np.abs(finite).max() < 1e8:
        return [f"{int(v)}." if np.isfinite(v) else str(v) for v in flat]
    big = finite.size and (np.abs(finite).max() >= 1e8 or (np.abs(finite[finite != 0]).min(initial=1) < 1e-4))
    if big:
        return [f"{v:.4e}" for v in flat]
    return [f"{v:.4f}" if np.isfinite(v) else str(v) for v in flat]


def _nest(strs, shape, indent):
    if len(shape) == 0:
        return strs[0]
    if len(shape) == 1:
        return "[" + ", ".join(strs) + "]"
    step = len(strs) // shape[0] if shape[0] else 0
    rows = [_nest(strs[i * step:(i + 1) * step], shape[1:], indent + 1) for i in range(shape[0])]
    sep = "," + "\n" * (len(shape) - 1) + " " * (indent + 1)
    return "[" + sep.join(rows) + "]"


def format_tensor(t, contents=None, prefix="tensor(", no_data=False):
    """``tensor(...)`` with torch's suffixes (device, dtype, grad); ``contents`` (a subclass's
    ``tensor_contents``) stands in for the values; ``no_data``: a tensor without values
    (``FakeTensor(...)`` passes its own prefix), shown as ``...`` and its size."""
    suffix = []
    dt = t.dtype
    if t._dev.type != "cpu":
        suffix.append(f"device='{t._dev}'")
    if contents is not None:
        body = contents
        if t.is_meta:
            suffix.append(f"size={tuple(t.shape)}")
    elif no_data or t.is_meta or getattr(t, "_is_fake", False):
        body = "..."
        suffix.append(f"size={tuple(t.shape)}")
        if dt is not D.get_default_dtype():  # torch names every other dtype of a tensor without data
            suffix.append(f"dtype={dt!r}")
    elif t._data.size == 0:
        body = "[]"
        if t._data.ndim != 1:
            suffix.append(f"size={tuple(t.shape)}")
        if dt is not D.get_default_dtype():  # no element tells int64 (or bool) apart: torch names it
            suffix.append(f"dtype={dt!r}")
    else:
        data = t._data.get() if hasattr(t._data, "get") else t._data
        strs = _fmt_values(data)
        width = max(len(s) for s in strs)
        strs = [s.rjust(width) for s in strs]
        body = _nest(strs, data.shape, len(prefix))
    if body not in ("...", "[]") and dt.name not in _DEFAULT_SUFFIXLESS and dt is not D.get_default_dtype():
        suffix.append(f"dtype={dt!r}")
    try:
        grad_fn = t.grad_fn  # a stale view's is regenerated, or refuses (torch prints <Invalid>)
    except RuntimeError:
        suffix.append("grad_fn=<Invalid>")
    else:
        if grad_fn is not None:
            suffix.append(f"grad_fn=<{type(grad_fn).__name__ if not hasattr(grad_fn, 'name') else grad_fn.name()}>")
        elif t.requires_grad:
            suffix.append("requires_grad=True")
    return prefix + body + "".join(", " + s for s in suffix) + ")"
