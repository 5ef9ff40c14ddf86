"""Replay torch 2.15's recorded answers (``tests/data/conformance/*.npz``) through opyard.

``generate.py`` (run with torch) wrote, per OpInfo entry, the sample inputs and what torch
gave for each kind of case; ``replay_entry`` runs the same calls through opyard and returns
one outcome per case: ``"ok"`` or the kind of difference:

======================  ==================================================================
``missing``             opyard has no such function/method (or a value type the call needs)
``raises``              torch returns, opyard raises
``returns``             torch raises, opyard returns
``exc_type``            both raise, opyard's exception is not torch's class or a subclass
``value``/``dtype``/    both return, results differ in values / dtype / shape / structure
``shape``/``structure``
``requires_grad``       a result's ``requires_grad`` differs
``stride``              an output torch returns as a view of an input differs in strides
                        or offset, or is not a view in opyard
``alias``               opyard returns a view of an input where torch returns a new tensor
``grad*``               the gradient case: ``grad_raises``, ``grad_returns``, ``grad_value``,
                        ``grad_dtype``, ``grad_shape``, ``grad_none`` (None where torch has
                        a gradient or the reverse)
``vmap*``               the vmap case: ``vmap_raises``, ``vmap_returns``, ``vmap_meta``
                        (dtype/shape/structure), ``vmap_value`` (differs from opyard's own
                        calls per example)
``inplace*``            the in-place variant: same kinds, prefixed
``err_returns``/        an error input: torch raises, opyard returns / raises another class
``err_type``
======================  ==================================================================

Case ids are ``<kind>:<dtype>:<sample index>`` (``fwd``, ``grad``, ``vmap``, ``inplace``)
and ``err:<index>``.
"""

from __future__ import annotations

import json
import math
import os
import warnings

import numpy as np

import opyard

from .adapters import ADAPTERS
from .policy import EQUIVALENCES

DATA = os.path.join(os.path.dirname(__file__), "..", "data", "conformance")

SILENT = {"value", "dtype", "shape", "structure", "requires_grad", "stride", "alias", "grad_value",
          "grad_dtype", "grad_shape", "grad_none", "vmap_value", "vmap_meta", "inplace_value",
          "inplace_dtype", "inplace_shape", "inplace_structure", "inplace_same"}

# Tolerances by dtype (rtol, atol): torch.testing's defaults, a little wider for the reduced
# floating types, whose results torch computes in float32 and rounds once.
TOLERANCE = {"float16": (1e-3, 1e-3), "bfloat16": (1.6e-2, 1e-2), "float32": (1.3e-5, 1e-5),
             "float64": (1e-7, 1e-7), "complex64": (1.3e-5, 1e-5), "complex128": (1e-7, 1e-7)}


class Missing(Exception):
    """opyard lacks a name the call needs."""


class Outcome(str):
    """A case's outcome (``"ok"`` or a kind of difference) with what explains it."""

    detail = ""


def diff(kind, detail=""):
    o = Outcome(kind)
    o.detail = detail
    return o


def _exc(exc):
    text = f"{type(exc).__name__}: {exc}"
    return text if len(text) < 300 else text[:300] + "..."


def _is_missing(exc):
    """An AttributeError naming an opyard module or Tensor: a function opyard does not have."""
    return isinstance(exc, AttributeError) and ("module 'opyard" in str(exc) or "'Tensor' object" in str(exc)
                                                or "type object 'Tensor'" in str(exc))


def entries():
    """The recorded entry ids, in op_db order."""
    path = os.path.join(DATA, "ENTRIES.txt")
    with open(path) as f:
        rows = [line.rstrip("\n").split("\t") for line in f if not line.startswith("#")]
    seen, out = set(), []
    for entry, name, fname in rows:
        if entry not in seen and os.path.exists(os.path.join(DATA, fname)):
            seen.add(entry)
            out.append((entry, name, fname))
    return out


def load(fname):
    """``(meta, arrays)`` of one recorded entry."""
    with np.load(os.path.join(DATA, fname)) as z:
        meta = json.loads(bytes(z["__meta__"]))
        blob = z["blob"].tobytes()
    arrays = []
    for dt, shape, off in meta["arrays"]:
        dtype = np.dtype(dt)
        n = int(np.prod(shape)) if shape else 1
        arrays.append(np.frombuffer(blob, dtype=dtype, count=n, offset=off).reshape(shape))
    return meta, arrays


# ---------------------------------------------------------------------------------------------
# Decoding recorded values into opyard values


def _np_dtype(name):
    if name == "bfloat16" or name.startswith("float8"):
        import ml_dtypes
        return np.dtype(getattr(ml_dtypes, name))
    return np.dtype(name)


def expected_array(enc, arrays):
    """The numpy array a recorded tensor holds (with its recorded strides)."""
    buf = arrays[enc["T"]]
    dt = enc["dt"]
    if dt == "bfloat16" or dt.startswith("float8"):
        buf = buf.view(_np_dtype(dt))
    if "st" in enc:
        item = buf.dtype.itemsize
        return np.lib.stride_tricks.as_strided(
            buf[enc["off"]:], shape=enc["sh"], strides=[s * item for s in enc["st"]], writeable=False)
    return buf.reshape(enc["sh"])


def _attr(obj, name):
    try:
        return getattr(obj, name)
    except AttributeError:
        raise Missing(f"opyard.{name}") from None


class Decoder:
    """Turns recorded values into opyard values; ``leaves`` collects the tensors that require
    grad, in torch's flattening order (input, args, kwargs)."""

    def __init__(self, arrays, transform=None):
        self.arrays = arrays
        self.leaves = []
        self.tensors = []
        self.transform = transform  # numpy array -> numpy array (the vmap copies)

    def tensor(self, enc):
        if enc.get("meta"):
            return opyard.empty(enc["sh"], dtype=_attr(opyard, enc["dt"]), device="meta")
        arr = np.array(expected_array(enc, self.arrays))  # a writable copy with its own buffer
        if self.transform is not None:
            arr = self.transform(arr)
        dtype = _attr(opyard, enc["dt"])
        if "st" in enc and self.transform is None:
            buf = np.array(self.arrays[enc["T"]])
            if enc["dt"] == "bfloat16" or enc["dt"].startswith("float8"):
                buf = buf.view(_np_dtype(enc["dt"]))
            t = opyard.from_numpy(buf).as_strided(enc["sh"], enc["st"], enc["off"])
            if enc.get("rg"):
                t = t.detach().requires_grad_()
        else:
            t = opyard.from_numpy(arr)
            if enc.get("rg"):
                t.requires_grad_()
        if t.dtype != dtype:
            raise AssertionError(f"decoded {t.dtype} for {enc['dt']}")
        if enc.get("rg"):
            self.leaves.append(t)
        self.tensors.append(t)
        return t

    def value(self, v):
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if not isinstance(v, dict):
            return v
        if "T" in v:
            return self.tensor(v)
        if "tuple" in v:
            return tuple(self.value(x) for x in v["tuple"])
        if "dict" in v:
            return {k: self.value(x) for k, x in v["dict"].items()}
        if "Size" in v:
            return opyard.Size(v["Size"])
        if "dtype" in v:
            return _attr(opyard, v["dtype"])
        if "device" in v:
            return opyard.device(v["device"])
        if "memory_format" in v:
            return _attr(opyard, v["memory_format"])
        if "layout" in v:
            return _attr(opyard, v["layout"])
        if "slice" in v:
            return slice(*(self.value(x) for x in v["slice"]))
        if "ellipsis" in v:
            return Ellipsis
        if "float" in v:
            return float(v["float"])
        if "int" in v:
            return int(v["int"])
        if "complex" in v:
            return complex(float(v["complex"][0]), float(v["complex"][1]))
        if "module" in v:  # a torch.nn module passed as a function: opyard's module of that class
            return _attr(opyard.nn, v["module"])(**{k: self.value(x) for k, x in v["kwargs"].items()})
        raise AssertionError(f"unknown encoding {v!r}")


def resolve(path):
    """The opyard callable for a recorded call path (``torch.x.y``, ``torch.Tensor.m``,
    ``torch.ops.ns.op.overload``, ``adapter:<entry>``)."""
    if path.startswith("adapter:"):
        fn = ADAPTERS.get(path[len("adapter:"):])
        if fn is None:
            raise Missing(path)
        return fn
    obj = opyard
    for part in path.split(".")[1:]:
        obj = _attr(obj, part)
    return obj


# ---------------------------------------------------------------------------------------------
# Comparing


def _close(actual, expected, dtname):
    if expected.shape != actual.shape:
        return False
    if dtname in ("bool",) or dtname.startswith(("int", "uint")):
        return np.array_equal(actual, expected)
    rtol, atol = TOLERANCE.get(dtname, (1e-7, 1e-7))
    if dtname.startswith("complex"):
        # As torch.testing: the distance between complex numbers against the expected magnitude;
        # a nan in either part is a nan, infinities must match part by part.
        a, e = actual.astype(np.complex128), expected.astype(np.complex128)
        nan_a, nan_e = np.isnan(a), np.isnan(e)
        if not np.array_equal(nan_a, nan_e):
            return False
        a, e = a[~nan_e], e[~nan_e]
        inf = np.isinf(e) | np.isinf(a)
        if not np.array_equal(a[inf], e[inf]):
            return False
        a, e = a[~inf], e[~inf]
        with np.errstate(all="ignore"):
            return bool(np.all(np.abs(a - e) <= atol + rtol * np.abs(e)))
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    nan_a, nan_e = np.isnan(a), np.isnan(e)
    if not np.array_equal(nan_a, nan_e):
        return False
    a, e = a[~nan_e], e[~nan_e]
    inf = np.isinf(e) | np.isinf(a)
    if not np.array_equal(a[inf], e[inf]):
        return False
    a, e = a[~inf], e[~inf]
    with np.errstate(all="ignore"):
        return bool(np.all(np.abs(a - e) <= atol + rtol * np.abs(e)))


def tensor_numpy(t):
    t = t.detach()
    if getattr(t, "is_conj", None) and t.is_conj():
        t = t.resolve_conj()
    return np.asarray(t.numpy())


def compare(actual, enc, arrays, *, values=True, check_rg=True):
    """``None`` when ``actual`` (an opyard value) matches the recorded ``enc``, else the kind of
    difference: structure, dtype, shape, value, requires_grad."""
    if isinstance(enc, dict) and "T" in enc:
        if not isinstance(actual, opyard.Tensor):
            return "structure"
        if str(actual.dtype).removeprefix("opyard.") != enc["dt"]:
            return "dtype"
        if list(actual.shape) != enc["sh"]:
            return "shape"
        if values and enc["T"] is not None and actual.device.type != "meta":
            if not _close(tensor_numpy(actual), expected_array(enc, arrays), enc["dt"]):
                return "value"
        if check_rg and bool(enc.get("rg")) != bool(actual.requires_grad):
            return "requires_grad"
        return None
    if isinstance(enc, list) or (isinstance(enc, dict) and "tuple" in enc):
        items = enc if isinstance(enc, list) else enc["tuple"]
        if not isinstance(actual, (list, tuple)) or len(actual) != len(items):
            return "structure"
        for a, e in zip(actual, items):
            diff = compare(a, e, arrays, values=values, check_rg=check_rg)
            if diff:
                return diff
        return None
    if isinstance(enc, dict) and "Size" in enc:
        return None if isinstance(actual, tuple) and list(actual) == enc["Size"] else "structure"
    if isinstance(enc, dict) and "dtype" in enc:
        return None if str(actual).removeprefix("opyard.") == enc["dtype"] else "value"
    if isinstance(actual, opyard.Tensor):
        return "structure"  # torch gives a Python value here
    if isinstance(enc, bool) or enc is None or isinstance(enc, str):
        return None if actual == enc and type(actual) is type(enc) else (
            "structure" if type(actual) is not type(enc) else "value")
    if isinstance(enc, (int, float)) or (isinstance(enc, dict) and ("float" in enc or "int" in enc)):
        e = float(enc["float"]) if isinstance(enc, dict) and "float" in enc else (
            int(enc["int"]) if isinstance(enc, dict) else enc)
        if isinstance(actual, bool) or not isinstance(actual, (int, float)):
            return "structure"
        if isinstance(e, int) and not isinstance(actual, int):
            return "structure"
        if isinstance(e, float) and math.isnan(e):
            return None if isinstance(actual, float) and math.isnan(actual) else "value"
        return None if math.isclose(actual, e, rel_tol=1e-6, abs_tol=1e-6) or actual == e else "value"
    if isinstance(enc, dict) and "complex" in enc:
        e = complex(float(enc["complex"][0]), float(enc["complex"][1]))
        return None if isinstance(actual, complex) and abs(actual - e) <= 1e-6 * (1 + abs(e)) else "value"
    return None if actual == enc else "value"


def describe(actual, enc, arrays):
    """A short account of how ``actual`` differs from the recorded value."""
    def show(v):
        if isinstance(v, dict) and "T" in v:
            body = ""
            if v["T"] is not None:
                body = np.array2string(np.asarray(expected_array(v, arrays)).reshape(-1)[:6], precision=5)
            return f"{v['dt']}{v['sh']} {body}"
        if isinstance(v, opyard.Tensor):
            body = "" if v.device.type == "meta" else np.array2string(tensor_numpy(v).reshape(-1)[:6], precision=5)
            return f"{str(v.dtype).removeprefix('opyard.')}{list(v.shape)} {body} rg={v.requires_grad}"
        if isinstance(v, dict) and "tuple" in v:
            return "(" + ", ".join(show(x) for x in v["tuple"]) + ")"
        if isinstance(v, (list, tuple)) and not isinstance(v, opyard.Size):
            return ("[" if isinstance(v, list) else "(") + ", ".join(show(x) for x in v) + (
                "]" if isinstance(v, list) else ")")
        return repr(v)[:80]
    return f"torch {show(enc)[:300]}; opyard {show(actual)[:300]}"


def _flat(v, out):
    if isinstance(v, opyard.Tensor):
        out.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _flat(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _flat(x, out)
    return out


def _shares(a, b):
    if a.device.type == "meta" or b.device.type == "meta" or not a.numel() or not b.numel():
        return False
    return bool(np.shares_memory(a.detach().numpy(), b.detach().numpy(), max_work=10**6))


def check_views(result, rec, inputs):
    """``stride`` when a recorded view differs, ``alias`` when opyard shares an input's memory
    where torch did not."""
    outs = _flat(result, [])
    views = {v["out"]: v for v in rec.get("views", ())}
    for i, out in enumerate(outs):
        v = views.get(i)
        if v is not None:
            if v["input"] >= len(inputs):
                continue
            inp = inputs[v["input"]]
            if not _shares(out, inp):
                return "stride"
            if list(out.stride()) != v["st"] or out.storage_offset() - inp.storage_offset() != v["off"]:
                return "stride"
        elif any(_shares(out, inp) for inp in inputs):
            return "alias"
    return None


def exc_matches(exc, rec):
    """opyard's exception is torch's class or a subclass of it (by name)."""
    names = {c.__name__ for c in type(exc).__mro__}
    return rec["raises"] in names


# ---------------------------------------------------------------------------------------------
# Running the cases of one entry


def weights(n, k):
    return np.cos(np.arange(n, dtype=np.float64) * 0.7 + k)


def weighted_loss(result):
    outs = [t for t in _flat(result, []) if (t.dtype.is_floating_point or t.dtype.is_complex)
            and t.requires_grad]
    if not outs:
        return None
    loss = 0
    for k, t in enumerate(outs):
        real = t.real if t.dtype.is_complex else t
        w = opyard.from_numpy(weights(t.numel(), k)).to(real.dtype)
        loss = loss + (real.reshape(-1) * w).sum()
        if t.dtype.is_complex:
            w2 = opyard.from_numpy(weights(t.numel(), k + 17)).to(real.dtype)
            loss = loss + (t.imag.reshape(-1) * w2).sum()
    return loss


def _call(fn, case, arrays, transform=None):
    d = Decoder(arrays, transform)
    inp = d.value(case["input"])
    args = d.value(case["args"])
    kwargs = d.value(case["kwargs"])
    return d, inp, args, kwargs


def _normalise_phase(m, ref, axis_rows):
    """Each column of ``m`` (rows if ``axis_rows``) divided by the phase of its entry where
    ``ref``'s column is largest, so vectors equal up to a phase compare equal."""
    if axis_rows:
        m, ref = np.swapaxes(m, -1, -2), np.swapaxes(ref, -1, -2)
    r = np.argmax(np.abs(ref), axis=-2)[..., None, :]
    pick = np.take_along_axis(m, r, axis=-2)
    with np.errstate(all="ignore"):
        phase = np.where(np.abs(pick) > 0, pick / np.abs(pick), 1)
    return m / phase


def _phase_equivalent(result, enc, arrays, parts):
    if not isinstance(result, tuple):
        return False
    items = enc["tuple"]
    vector_outputs = dict(parts)
    # The number of determined vectors: the length of the values (eigenvalues, singular values).
    n = next(e["sh"][-1] for k, e in enumerate(items) if k not in vector_outputs)
    for k, (got, e) in enumerate(zip(result, items)):
        if k not in vector_outputs:
            if compare(got, e, arrays):
                return False
            continue
        if compare(got, e, arrays, values=False):
            return False
        a, x = tensor_numpy(got), np.asarray(expected_array(e, arrays))
        rows = vector_outputs[k] == "rows"
        # Only the first n vectors are determined; the others span a fixed space.
        sl = (Ellipsis, slice(None), slice(0, n)) if not rows else (Ellipsis, slice(0, n), slice(None))
        a_n, x_n = _normalise_phase(a[sl], x[sl], rows), _normalise_phase(x[sl], x[sl], rows)
        if not _close(a_n, x_n, e["dt"]):
            return False
    return True


def equivalent(entry, result, enc, arrays, inputs):
    """Whether a result that differs from torch's is one torch's contract allows
    (``policy.EQUIVALENCES``)."""
    rule = EQUIVALENCES.get(entry)
    if rule is None or not isinstance(enc, dict) or "tuple" not in enc:
        return False
    return _phase_equivalent(result, enc, arrays, rule[1])


def run_fwd(fn, case, arrays, random, entry=""):
    rec = case["fwd"]
    d, inp, args, kwargs = _call(fn, case, arrays)
    inputs = list(d.tensors)
    try:
        result = fn(inp, *args, **kwargs)
    except Missing:
        raise
    except Exception as exc:  # noqa: BLE001 - opyard's answer, compared with torch's
        if _is_missing(exc):
            raise Missing(str(exc)) from None
        if "raises" in rec:
            return "ok" if exc_matches(exc, rec) else diff("exc_type", f"torch {rec['raises']}; opyard {_exc(exc)}")
        return diff("raises", _exc(exc))
    if "raises" in rec:
        return diff("returns", f"torch raises {rec['raises']}: {rec['msg'][:200]}")
    d = compare(result, rec["out"], arrays, values=not random)
    if d == "value" and equivalent(entry, result, rec["out"], arrays, inputs):
        d = None
    if d:
        return diff(d, describe(result, rec["out"], arrays))
    if not random:
        d = check_views(result, rec, inputs)
    return diff(d) if d else "ok"


def run_grad(fn, case, arrays, random=False):
    rec = case["grad"]
    d, inp, args, kwargs = _call(fn, case, arrays)
    try:
        loss = weighted_loss(fn(inp, *args, **kwargs))
        if loss is None:
            return "ok" if rec.get("none") else "grad_none"
        grads = opyard.autograd.grad(loss, d.leaves, allow_unused=True)
    except Missing:
        raise
    except Exception as exc:  # noqa: BLE001
        if _is_missing(exc):
            raise Missing(str(exc)) from None
        if "raises" in rec:
            return "ok" if exc_matches(exc, rec) else diff("grad_raises", _exc(exc))
        return diff("grad_raises", _exc(exc))
    if "raises" in rec:
        return diff("grad_returns", f"torch raises {rec['raises']}: {rec['msg'][:200]}")
    if rec.get("none"):
        return diff("grad_none", "torch: no output requires grad")
    for i, (g, e) in enumerate(zip(grads, rec["grads"])):
        if (g is None) != (e is None):
            return diff("grad_none", f"input {i}: torch {'None' if e is None else 'a gradient'}, opyard {g!r:.80}")
        if g is not None:
            d = compare(g, e, arrays, values=not random, check_rg=False)
            if d:
                kind = "grad_" + (d if d in ("dtype", "shape") else "value")
                return diff(kind, f"input {i}: " + describe(g, e, arrays))
    return "ok"


def _reverse(arr):
    return np.ascontiguousarray(arr.reshape(-1)[::-1]).reshape(arr.shape)


def _batched(case, arrays, dims):
    """The vmap inputs: each batched positional argument stacked from the sample and its
    reversed copy, as the recording did."""
    d0, inp0, args0, kwargs = _call(None, case, arrays)
    d1, inp1, args1, _ = _call(None, case, arrays, transform=_reverse)
    pos0, pos1 = [inp0] + list(args0), [inp1] + list(args1)

    def stack(a, b, dim):
        if dim is None:
            return a
        if isinstance(a, opyard.Tensor):
            return opyard.stack([a.detach(), b.detach()])
        return type(a)(stack(x, y, 0) for x, y in zip(a, b))

    return [stack(a, b, dim) for a, b, dim in zip(pos0, pos1, dims)], pos0, pos1, kwargs


def run_vmap(fn, case, arrays, random):
    rec = case["vmap"]
    dims = tuple(rec["in_dims"])
    batched, pos0, pos1, kwargs = _batched(case, arrays, dims)
    try:
        result = opyard.vmap(lambda *a: fn(*a, **kwargs), in_dims=dims)(*batched)
    except Missing:
        raise
    except Exception as exc:  # noqa: BLE001
        if _is_missing(exc):
            raise Missing(str(exc)) from None
        if "raises" in rec:
            return "ok"  # vmap's own refusals differ in class between implementations
        return diff("vmap_raises", _exc(exc))
    if "raises" in rec:
        return diff("vmap_returns", f"torch raises {rec['raises']}: {rec['msg'][:200]}")
    if compare(result, rec["out"], arrays, values=False, check_rg=False):
        return diff("vmap_meta", describe(result, rec["out"], arrays))
    if random:
        return "ok"
    try:
        per = [fn(*[_detached(a) for a in pos], **kwargs) for pos in (pos0, pos1)]
    except Exception:  # noqa: BLE001 - the per-example call is checked by the fwd case
        return "ok"
    return "ok" if _same_batched(result, per) else diff("vmap_value", "differs from the per-example calls")


def _detached(v):
    if isinstance(v, opyard.Tensor):
        return v.detach()
    if isinstance(v, (list, tuple)):
        return type(v)(_detached(x) for x in v)
    return v


def _same_batched(result, per):
    if isinstance(result, opyard.Tensor):
        if not all(isinstance(p, opyard.Tensor) for p in per):
            return False
        got = tensor_numpy(result)
        for b, p in enumerate(per):
            exp = tensor_numpy(p)
            dt = str(p.dtype).removeprefix("opyard.")
            if got.shape[1:] != exp.shape or not _close(got[b], exp, dt):
                return False
        return True
    if isinstance(result, (list, tuple)):
        return all(isinstance(p, (list, tuple)) and len(p) == len(result) for p in per) and all(
            _same_batched(r, [p[i] for p in per]) for i, r in enumerate(result))
    return all(p == result for p in per)


def run_inplace(name, case, arrays, random):
    rec = case["inplace"]
    d, inp, args, kwargs = _call(None, case, arrays)
    method = getattr(opyard.Tensor, name, None)
    if method is None:
        raise Missing("Tensor." + name)
    inp = inp.detach()
    try:
        r = method(inp, *args, **kwargs)
    except Exception as exc:  # noqa: BLE001
        if "raises" in rec:
            return "ok" if exc_matches(exc, rec) else diff("inplace_exc_type", _exc(exc))
        return diff("inplace_raises", _exc(exc))
    if "raises" in rec:
        return diff("inplace_returns", f"torch raises {rec['raises']}: {rec['msg'][:200]}")
    d = compare(inp, rec["out"], arrays, values=not random, check_rg=False)
    if d:
        return diff("inplace_" + d, describe(inp, rec["out"], arrays))
    if rec.get("same") and r is not inp:
        return diff("inplace_same", "the in-place method returns another object")
    return "ok"


def run_error(fn, case, arrays):
    rec = case["fwd"]
    if rec.get("no_raise"):
        return None  # torch returns on CPU: not an error case here
    d, inp, args, kwargs = _call(fn, case, arrays)
    try:
        fn(inp, *args, **kwargs)
    except Missing:
        raise
    except Exception as exc:  # noqa: BLE001
        if _is_missing(exc):
            raise Missing(str(exc)) from None
        return "ok" if exc_matches(exc, rec) else diff("err_type", f"torch {rec['raises']}; opyard {_exc(exc)}")
    return diff("err_returns", f"torch raises {rec['raises']}: {rec['msg'][:200]}")


def replay_entry(fname):
    """``(meta, {case id: outcome})`` for one recorded entry."""
    meta, arrays = load(fname)
    out = {}
    try:
        fn = resolve(meta["call"])
    except Missing:
        fn = None
    random = meta["random"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with np.errstate(all="ignore"):
            for case in meta["samples"]:
                key = f"{case['dtype']}:{case['i']}"
                runs = [("fwd", lambda c=case: run_fwd(fn, c, arrays, random, meta["entry"]))]
                if case.get("grad") is not None:
                    runs.append(("grad", lambda c=case: run_grad(fn, c, arrays, random)))
                if case.get("vmap") is not None:
                    runs.append(("vmap", lambda c=case: run_vmap(fn, c, arrays, random)))
                if case.get("inplace") is not None:
                    runs.append(("inplace", lambda c=case: run_inplace(meta["inplace"], c, arrays, random)))
                for kind, run in runs:
                    if fn is None and kind != "inplace":
                        out[f"{kind}:{key}"] = "missing"
                        continue
                    try:
                        opyard.manual_seed(case["i"])  # random ops: the same draws on every run
                        out[f"{kind}:{key}"] = run()
                    except Missing:
                        out[f"{kind}:{key}"] = "missing"
            for case in meta["errors"]:
                key = f"err:{case['i']}"
                if fn is None:
                    if not case["fwd"].get("no_raise"):
                        out[key] = "missing"
                    continue
                try:
                    r = run_error(fn, case, arrays)
                except Missing:
                    r = "missing"
                if r is not None:
                    out[key] = r
    return meta, out
