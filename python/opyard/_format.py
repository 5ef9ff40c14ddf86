"""torch-style ``repr`` of tensors: ``tensor([1., 2.], requires_grad=True)``."""

import numpy as np

from . import _dtype as D


def _default_kind(dt):
    """torch leaves out the dtype of the default float dtype, its complex twin, int64 and bool."""
    default = D.get_default_dtype()
    return dt is default or dt is D.int64 or dt is D.bool or \
        dt is (D.complex128 if default is D.float64 else D.complex64)


# torch's print options (``torch.set_printoptions`` defaults).
PRECISION, THRESHOLD, EDGEITEMS, LINEWIDTH = 4, 1000, 3, 80


class _Formatter:
    """torch's ``_Formatter``: one width, and integer / fixed / scientific notation, chosen from the
    nonzero finite values of a (summarized) array of reals."""

    def __init__(self, arr):
        flat = np.asarray(arr).reshape(-1)
        self.floating = flat.dtype.kind == "f"
        self.int_mode, self.sci_mode, self.max_width = True, False, 1
        if not self.floating:
            for v in flat:
                self.max_width = max(self.max_width, len(self._plain(v)))
            return
        vals = flat.astype(np.float64)
        vals = vals[np.isfinite(vals) & (vals != 0)]
        if vals.size == 0:
            return
        absv = np.abs(vals)
        lo, hi = absv.min(), absv.max()
        self.int_mode = bool(np.all(vals == np.ceil(vals)))
        wide = hi / lo > 1000.0 or hi > 1.0e8
        if self.int_mode:
            if wide:
                self.sci_mode = True
                self.max_width = max(len(f"{v:.{PRECISION}e}") for v in vals)
            else:
                self.max_width = max(len(f"{v:.0f}") + 1 for v in vals)
        elif wide or lo < 1.0e-4:
            self.sci_mode = True
            self.max_width = max(len(f"{v:.{PRECISION}e}") for v in vals)
        else:
            self.max_width = max(len(f"{v:.{PRECISION}f}") for v in vals)

    @staticmethod
    def _plain(v):
        if isinstance(v, (bool, np.bool_)):
            return "True" if v else "False"
        return str(int(v))

    def format(self, v):
        if self.floating:
            v = float(v)
            if self.sci_mode:
                ret = f"{v:{self.max_width}.{PRECISION}e}"
            elif self.int_mode:
                ret = f"{v:.0f}" + ("" if v != v or v in (float("inf"), float("-inf")) else ".")
            else:
                ret = f"{v:.{PRECISION}f}"
        else:
            ret = self._plain(v)
        return (self.max_width - len(ret)) * " " + ret


def _summarized(arr):
    """torch's ``get_summarized_data``: the first and last ``EDGEITEMS`` of every dimension."""
    if arr.ndim == 0:
        return arr
    if arr.ndim == 1:
        return np.concatenate([arr[:EDGEITEMS], arr[-EDGEITEMS:]]) if arr.shape[0] > 2 * EDGEITEMS else arr
    rows = range(arr.shape[0])
    if arr.shape[0] > 2 * EDGEITEMS:
        rows = list(range(EDGEITEMS)) + list(range(arr.shape[0] - EDGEITEMS, arr.shape[0]))
    return np.stack([_summarized(arr[i]) for i in rows])


class _Values:
    """The formatters of an array (one, or the real and imaginary parts' for complex values)."""

    def __init__(self, arr, summarize):
        seen = _summarized(arr) if summarize else arr
        if arr.dtype.kind == "c":
            self.parts = (_Formatter(seen.real), _Formatter(seen.imag))
        else:
            self.parts = (_Formatter(seen), None)

    def element_length(self):
        real, imag = self.parts
        return real.max_width + 2 + (imag.max_width + 1 if imag is not None else 0)

    def format(self, v):
        real, imag = self.parts
        if imag is None:
            return real.format(v)
        real_str = real.format(v.real)
        imag_str = (imag.format(v.imag) + "j").lstrip()
        return real_str + imag_str if imag_str[0] in "+-" else real_str + "+" + imag_str


def _vector(arr, indent, summarize, values):
    per_line = max(1, int((LINEWIDTH - indent) // values.element_length()))
    if summarize and arr.shape[0] > 2 * EDGEITEMS:
        data = [values.format(v) for v in arr[:EDGEITEMS]] + [" ..."] + [values.format(v) for v in arr[-EDGEITEMS:]]
    else:
        data = [values.format(v) for v in arr]
    lines = [", ".join(data[i:i + per_line]) for i in range(0, len(data), per_line)]
    return "[" + ("," + "\n" + " " * (indent + 1)).join(lines) + "]"


def _nested(arr, indent, summarize, values):
    """torch's ``_tensor_str_with_formatter``."""
    if arr.ndim == 0:
        return values.format(arr[()])
    if arr.ndim == 1:
        return _vector(arr, indent, summarize, values)
    if summarize and arr.shape[0] > 2 * EDGEITEMS:
        rows = [_nested(arr[i], indent + 1, summarize, values) for i in range(EDGEITEMS)] + ["..."] + \
            [_nested(arr[i], indent + 1, summarize, values) for i in range(arr.shape[0] - EDGEITEMS, arr.shape[0])]
    else:
        rows = [_nested(arr[i], indent + 1, summarize, values) for i in range(arr.shape[0])]
    return "[" + ("," + "\n" * (arr.ndim - 1) + " " * (indent + 1)).join(rows) + "]"


def _body(data, indent):
    if data.dtype.kind == "f" and data.dtype.itemsize == 2 or data.dtype.kind == "V":
        data = data.astype(np.float32)  # torch prints 16-bit floats through float32
    summarize = data.size > THRESHOLD
    return _nested(data, indent, summarize, _Values(data, summarize))


def _with_suffixes(text, suffixes, indent):
    """torch's ``_add_suffixes``: a suffix that would pass the line width starts a new line."""
    out = [text]
    last = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if last + len(suffix) + 2 > LINEWIDTH:
            out.append(",\n" + " " * indent + suffix)
            last = indent + len(suffix)
        else:
            out.append(", " + suffix)
            last += len(suffix) + 2
    out.append(")")
    return "".join(out)


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
        body = _body(np.asarray(data), len(prefix))
    if body not in ("...", "[]") and not _default_kind(dt):
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
    return _with_suffixes(prefix + body, suffix, len(prefix))
