"""Record torch's answers for every OpInfo of ``op_db`` as data the test suite replays.

Run only in the bench venv that has torch (``make conformance-expect``); the test suite
never imports torch. For each OpInfo entry (``name`` + ``variant_test_name``) it draws CPU
sample inputs for every dtype torch supports for it, its ``error_inputs``, and records
what torch gives:

* ``fwd``: the result (values, dtype, shape, requires_grad; strides and storage offset of
  outputs that alias an input) or the exception (type, its MRO names, message);
* ``grad``: gradients of a fixed weighted sum of the floating outputs w.r.t. the floating
  inputs (primary dtype, samples whose gradient is the op's own result);
* ``vmap``: whether ``torch.func.vmap`` over a leading batch dim of 2 (the sample and the
  sample with every tensor's elements reversed) returns, and its results' dtypes and shapes
  (the replay compares values with its own calls on each example);
* ``inplace``: the in-place variant on a copy of the input;
* ``error``: each ``error_inputs`` sample (the raised type and message).

One ``<entry>.npz`` per OpInfo entry under the output folder (see ``save``). Values are encoded by ``encode`` (below):
tensors as ``{"T": array id, ...}``, Python containers and scalars as JSON. Sample counts
are capped per dtype so the data stays small (see ``Budget``).
"""

from __future__ import annotations

import argparse
import io
import json
import math
import os
import re
import sys
import time
import traceback
import warnings

import numpy as np

import torch
from torch.testing._internal.common_methods_invocations import op_db


FORMAT = 3

# Ops whose values depend on an RNG or are undefined (empty): only metadata is compared.
RANDOM = {
    "cauchy", "exponential", "geometric", "log_normal", "normal", "uniform", "randn", "rand_like",
    "randn_like", "randint", "randint_like", "multinomial", "bernoulli", "nn.functional.dropout",
    "nn.functional.dropout2d", "nn.functional.dropout3d", "nn.functional.alpha_dropout",
    "nn.functional.feature_alpha_dropout", "nn.functional.rrelu", "nn.functional.fractional_max_pool2d",
    "nn.functional.fractional_max_pool3d", "svd_lowrank", "pca_lowrank", "empty", "empty_like",
    "new_empty", "new_empty_strided", "empty_strided", "empty_permuted", "torch.empty_permuted",
    "nn.functional.multi_head_attention_forward",
}

DTYPE_NAMES = {
    torch.float16: "float16", torch.bfloat16: "bfloat16", torch.float32: "float32",
    torch.float64: "float64", torch.complex64: "complex64", torch.complex128: "complex128",
    torch.bool: "bool", torch.uint8: "uint8", torch.int8: "int8", torch.int16: "int16",
    torch.int32: "int32", torch.int64: "int64", torch.uint16: "uint16", torch.uint32: "uint32",
    torch.uint64: "uint64",
}
for _name in ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "complex32"):
    if hasattr(torch, _name):
        DTYPE_NAMES[getattr(torch, _name)] = _name
# How each dtype's values are stored in the npz (numpy has no bfloat16/float8 of its own).
STORE_AS = {"bfloat16": np.uint16, "float8_e4m3fn": np.uint8, "float8_e5m2": np.uint8,
            "float8_e4m3fnuz": np.uint8, "float8_e5m2fnuz": np.uint8}
UNSUPPORTED_DTYPES = {"complex32"}  # no numpy twin: not drawn


# torch.nn modules the samples pass as functions, by class: their constructor arguments.
MODULE_ARGS = {
    "PairwiseDistance": lambda m: {"p": m.norm, "eps": m.eps, "keepdim": m.keepdim},
    "CosineSimilarity": lambda m: {"dim": m.dim, "eps": m.eps},
}


class Unencodable(Exception):
    """A value the data format cannot carry (an nn.Module, an options object, ...)."""


class Budget:
    """Samples kept per (entry, dtype): all kinds for the primary dtype, fewer for others."""

    def __init__(self, args):
        self.primary = args.primary
        self.float32 = args.float32
        self.other = args.other
        self.grad = args.grad
        self.vmap = args.vmap
        self.inplace = args.inplace
        self.errors = args.errors
        self.max_elems = args.max_elems


class Writer:
    """Collects the arrays of one entry and encodes values into JSON."""

    def __init__(self):
        self.arrays = []

    def array(self, arr):
        self.arrays.append(np.ascontiguousarray(arr))
        return len(self.arrays) - 1

    def tensor(self, t, *, values=True):
        if t.layout != torch.strided:
            raise Unencodable(f"layout {t.layout}")
        if t.is_quantized or t.is_nested:
            raise Unencodable("quantized/nested")
        if t.dim() > 32:
            raise Unencodable("more than 32 dims")
        dt = DTYPE_NAMES.get(t.dtype)
        if dt is None or dt in UNSUPPORTED_DTYPES:
            raise Unencodable(f"dtype {t.dtype}")
        if t.device.type == "meta":
            return {"T": None, "dt": dt, "sh": list(t.shape), "meta": True}
        d = {"T": None, "dt": dt, "sh": list(t.shape)}
        if t.requires_grad:
            d["rg"] = True
        if t.is_conj():
            t = t.resolve_conj()
        if t.is_neg():
            t = t.resolve_neg()
        if not values:
            return d
        if t.is_contiguous() or t.numel() <= 1:
            d["T"] = self.array(_to_numpy(t.detach().contiguous(), dt))
        else:
            # The covering buffer and the layout inside it, so the replay builds the same strides.
            st, off = list(t.stride()), t.storage_offset()
            lo = off + sum(s * (n - 1) for s, n in zip(st, t.shape) if s < 0)
            span = 1 + sum(abs(s) * (n - 1) for s, n in zip(st, t.shape))
            buf = t.detach().as_strided((span,), (1,), lo) if t.numel() else t.new_empty(0)
            d["T"] = self.array(_to_numpy(buf.contiguous(), dt))
            d["st"] = st
            d["off"] = off - lo
        return d

    def encode(self, v, *, values=True):
        if isinstance(v, torch.Tensor):
            return self.tensor(v, values=values)
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, int):
            return v if abs(v) < 2**53 else {"int": str(v)}
        if isinstance(v, float):
            return v if math.isfinite(v) else {"float": repr(v)}
        if isinstance(v, complex):
            return {"complex": [repr(v.real), repr(v.imag)]}
        if isinstance(v, torch.Size):
            return {"Size": list(v)}
        if isinstance(v, torch.dtype):
            if v not in DTYPE_NAMES or DTYPE_NAMES[v] in UNSUPPORTED_DTYPES:
                raise Unencodable(f"dtype {v}")
            return {"dtype": DTYPE_NAMES[v]}
        if isinstance(v, torch.device):
            return {"device": str(v)}
        if isinstance(v, torch.memory_format):
            return {"memory_format": str(v).removeprefix("torch.")}
        if isinstance(v, torch.layout):
            return {"layout": str(v).removeprefix("torch.")}
        if isinstance(v, slice):
            return {"slice": [self.encode(v.start), self.encode(v.stop), self.encode(v.step)]}
        if v is Ellipsis:
            return {"ellipsis": True}
        if isinstance(v, tuple) and hasattr(v, "_fields"):  # a named tuple of results
            return {"tuple": [self.encode(x, values=values) for x in v]}
        if isinstance(v, tuple):
            return {"tuple": [self.encode(x, values=values) for x in v]}
        if isinstance(v, list):
            return [self.encode(x, values=values) for x in v]
        if isinstance(v, dict):
            return {"dict": {str(k): self.encode(x, values=values) for k, x in v.items()}}
        if isinstance(v, (np.integer, np.floating, np.bool_)):
            return self.encode(v.item())
        if isinstance(v, torch.nn.Module) and type(v).__name__ in MODULE_ARGS:
            # A stateless module passed as a function (a distance_function): its class and constructor arguments.
            return {"module": type(v).__name__,
                    "kwargs": {k: self.encode(x) for k, x in MODULE_ARGS[type(v).__name__](v).items()}}
        raise Unencodable(type(v).__name__)


def _to_numpy(t, dt):
    if dt in STORE_AS:
        return t.view(getattr(torch, {np.uint16: "int16", np.uint8: "uint8"}[STORE_AS[dt]])).numpy().view(STORE_AS[dt])
    if dt in ("uint16", "uint32", "uint64"):
        return t.numpy()
    return t.resolve_conj().numpy()


def error_record(exc):
    msg = str(exc)
    if len(msg) > 400:
        msg = msg[:400] + "..."
    return {"raises": type(exc).__name__, "mro": [c.__name__ for c in type(exc).__mro__[:-2]],
            "msg": msg}


def entry_id(op):
    return op.name + ("." + op.variant_test_name if op.variant_test_name else "")


def _resolve(path):
    obj = torch
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def call_path(op):
    """How the replay calls this entry: ``torch.x.y`` (the public function), ``torch.Tensor.m``
    (a method), ``torch.ops.aten.x.overload``, or ``adapter:<entry>`` (a call written in the
    replay for OpInfo entries whose callable is a lambda)."""
    f = op.op
    if isinstance(f, torch._ops.OpOverload):
        return f"torch.ops.{f.namespace}.{f._opname}.{f._overloadname}"
    if isinstance(f, torch._ops.OpOverloadPacket):
        return f"torch.ops.{f._qualified_op_name.replace('::', '.')}"
    name = op.name
    if name.startswith("torch.ops."):
        return name
    try:
        if _resolve("torch." + name) is f:
            return "torch." + name
    except AttributeError:
        pass
    fname = getattr(f, "__name__", "")
    if fname == "<lambda>":
        # ``lambda inp, *args, **kwargs: wrapper_set_seed(torch.x.y, inp, *args, **kwargs)``: the
        # call is torch.x.y itself (seeded, for the random ops).
        code = f.__code__
        names = code.co_names
        passes_through = code.co_argcount <= 1 and code.co_flags & 0x04  # (x, *args, **kwargs)
        if passes_through and len(names) > 2 and names[0] == "wrapper_set_seed" and names[1] == "torch":
            path = ".".join(names[1:])
            try:
                _resolve(path)
                return path
            except AttributeError:
                pass
    if fname and fname != "<lambda>":
        for prefix in ("torch.", "torch.Tensor.", "torch.nn.functional."):
            try:
                if _resolve(prefix + fname) is f:
                    return prefix + fname
            except AttributeError:
                pass
    return "adapter:" + entry_id(op)


def _default_process_fn(fn):
    code = getattr(fn, "__code__", None)
    return code is not None and code.co_filename.endswith("opinfo/core.py")


def _flat_tensors(v, out):
    if isinstance(v, torch.Tensor):
        out.append(v)
    elif isinstance(v, (list, tuple)):
        for x in v:
            _flat_tensors(x, out)
    elif isinstance(v, dict):
        for x in v.values():
            _flat_tensors(x, out)
    return out


def weights(n, k):
    """The fixed weights of output ``k`` (n elements): the replay computes the same."""
    return np.cos(np.arange(n, dtype=np.float64) * 0.7 + k)


def weighted_loss(result):
    outs = [t for t in _flat_tensors(result, []) if t.dtype.is_floating_point or t.dtype.is_complex]
    outs = [t for t in outs if t.requires_grad]
    if not outs:
        return None
    loss = 0
    for k, t in enumerate(outs):
        w = torch.from_numpy(weights(t.numel(), k)).to(t.real.dtype if t.is_complex() else t.dtype)
        if t.is_complex():
            w2 = torch.from_numpy(weights(t.numel(), k + 17)).to(t.real.dtype)
            loss = loss + (t.real.reshape(-1) * w).sum() + (t.imag.reshape(-1) * w2).sum()
        else:
            loss = loss + (t.reshape(-1) * w).sum()
    return loss


def _clone_inputs(sample):
    """A fresh copy of the sample's tensors (leaves with the same requires_grad)."""
    def cp(v):
        if isinstance(v, torch.Tensor):
            return _copy_tensor(v)
        if isinstance(v, list):
            return [cp(x) for x in v]
        if isinstance(v, tuple) and not hasattr(v, "_fields"):
            return tuple(cp(x) for x in v)
        if isinstance(v, dict):
            return {k: cp(x) for k, x in v.items()}
        return v
    return cp(sample.input), cp(list(sample.args)), cp(dict(sample.kwargs))


def _copy_tensor(v):
    """A leaf copy of ``v`` with its strides: an overlapping (expanded) layout is rebuilt on a
    copy of its buffer when it needs no gradient, else made contiguous (a leaf cannot overlap)."""
    rg = v.requires_grad
    v = v.detach()
    if v.is_contiguous() or v.numel() <= 1:
        return v.clone().requires_grad_(rg)
    st, off = v.stride(), v.storage_offset()
    span = 1 + sum(s * (n - 1) for s, n in zip(st, v.shape))
    overlapping = len(set(
        sum(s * i for s, i in zip(st, idx)) for idx in np.ndindex(*v.shape))) < v.numel() if v.numel() < 5000 else True
    if not overlapping:
        return torch.empty_strided(v.shape, st, dtype=v.dtype).copy_(v).requires_grad_(rg)
    if rg:
        return v.clone(memory_format=torch.contiguous_format).requires_grad_()
    return v.as_strided((span,), (1,), off).clone().as_strided(v.shape, st, 0)


def _input_storages(inp, args, kwargs):
    ts = _flat_tensors([inp, args, kwargs], [])
    return [(t.untyped_storage().data_ptr() if t.numel() else None, t) for t in ts]


def result_record(w, result, inputs_flat):
    rec = {"out": w.encode(result)}
    # Views: for every output tensor that shares storage with an input, its strides and offset.
    views = []
    for i, t in enumerate(_flat_tensors(result, [])):
        if not isinstance(t, torch.Tensor) or not t.numel() or t.layout != torch.strided:
            continue
        ptr = t.untyped_storage().data_ptr()
        for j, (p, inp) in enumerate(inputs_flat):
            if p == ptr:
                views.append({"out": i, "input": j, "st": list(t.stride()),
                              "off": t.storage_offset() - inp.storage_offset()})
                break
    if views:
        rec["views"] = views
    return rec


def run_sample(w, op, call, sample, kinds, budget_flags):
    inp, args, kwargs = _clone_inputs(sample)
    case = {"input": w.encode(inp), "args": w.encode(args), "kwargs": w.encode(kwargs)}
    if sample.broadcasts_input:
        case["broadcasts_input"] = True
    storages = _input_storages(inp, args, kwargs)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call(inp, *args, **kwargs)
        case["fwd"] = result_record(w, result, storages)
    except Unencodable:
        raise
    except Exception as exc:  # noqa: BLE001 - torch's answer, whatever it is
        case["fwd"] = error_record(exc)
        result = None
    if "grad" in kinds and result is not None and _default_process_fn(sample.output_process_fn_grad):
        case["grad"] = grad_record(w, call, sample)
    if "vmap" in kinds:
        v = vmap_record(w, call, sample)
        if v is not None:
            case["vmap"] = v
    if "inplace" in kinds and _tensor_method(op.inplace_variant):
        case["inplace"] = inplace_record(w, op, sample)
    return case


def grad_record(w, call, sample):
    inp, args, kwargs = _clone_inputs(sample)
    leaves = [t for t in _flat_tensors([inp, args, kwargs], []) if t.requires_grad]
    if not leaves:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loss = weighted_loss(call(inp, *args, **kwargs))
            if loss is None:
                return {"none": True}
            grads = torch.autograd.grad(loss, leaves, allow_unused=True)
        # torch may answer a gradient that is zero by construction with a ZeroTensor (sgn of real
        # data), which has no memory to read: record its value, zeros.
        grads = [torch.zeros(g.shape, dtype=g.dtype) if g is not None and g._is_zerotensor() else g for g in grads]
        return {"grads": [None if g is None else w.encode(g) for g in grads]}
    except Unencodable:
        raise
    except Exception as exc:  # noqa: BLE001
        return error_record(exc)


def _reversed_copy(t):
    return t.detach().reshape(-1).flip(0).reshape(t.shape)


def _in_dims(args):
    dims = []
    for a in args:
        ts = _flat_tensors(a, [])
        if isinstance(a, torch.Tensor):
            dims.append(0)
        elif not ts:
            dims.append(None)
        elif isinstance(a, (list, tuple)) and all(isinstance(x, torch.Tensor) for x in a):
            dims.append(0)
        else:
            return None
    return tuple(dims)


def vmap_record(w, call, sample):
    inp, args, kwargs = _clone_inputs(sample)
    pos = [inp] + list(args)
    dims = _in_dims(pos)
    if dims is None or all(d is None for d in dims):
        return None

    def batch(v, d):
        if d is None:
            return v
        if isinstance(v, torch.Tensor):
            return torch.stack([v.detach(), _reversed_copy(v)])
        return type(v)(batch(x, 0) for x in v)

    batched = [batch(v, d) for v, d in zip(pos, dims)]
    # The batched inputs are not stored: the replay stacks the sample's own tensors the same way.
    rec = {"in_dims": list(dims)}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = torch.func.vmap(lambda *a: call(*a, **kwargs), in_dims=dims)(*batched)
        # Metadata only: the replay checks values against its own per-example calls.
        rec["out"] = w.encode(result, values=False)
    except Unencodable:
        raise
    except Exception as exc:  # noqa: BLE001
        rec.update(error_record(exc))
    return rec


def inplace_record(w, op, sample):
    inp, args, kwargs = _clone_inputs(sample)
    if not isinstance(inp, torch.Tensor):
        return None
    inp = inp.detach()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = op.inplace_variant(inp, *args, **kwargs)
        return {"out": w.encode(inp), "same": r is inp}
    except Unencodable:
        raise
    except Exception as exc:  # noqa: BLE001
        return error_record(exc)


def _numel(sample):
    return sum(t.numel() for t in _flat_tensors([sample.input, list(sample.args), dict(sample.kwargs)], []))


def _call_of(op, path):
    if path.startswith("adapter:"):
        return op.op
    return _resolve(path) if not path.startswith("torch.Tensor.") else getattr(torch.Tensor, path.rsplit(".", 1)[1])


def _tensor_method(fn):
    """The name of ``fn`` when it is a method of torch.Tensor, else None (lambdas, partials)."""
    name = getattr(fn, "__name__", None)
    return name if name and getattr(torch.Tensor, name, None) is fn else None


def spread(items, n):
    """``n`` of ``items`` evenly spaced over the list, in an order that starts with the
    middle ones (the first samples of many generators are the degenerate shapes), so that a
    smaller share of kinds (grad, vmap) still sees typical inputs."""
    if len(items) <= n:
        picked = list(items)
    else:
        picked = [items[round(k * (len(items) - 1) / (n - 1))] if n > 1 else items[len(items) // 2]
                  for k in range(n)]
    mid = len(picked) // 2
    order = sorted(range(len(picked)), key=lambda k: (abs(k - mid), k))
    return [picked[k] for k in order]


def record_entry(op, budget):
    w = Writer()
    path = call_path(op)
    call = op.op  # torch's own callable, also for adapters (the replay has its own)
    dtypes = [d for d in sorted(op.supported_dtypes("cpu"), key=str) if d in DTYPE_NAMES
              and DTYPE_NAMES[d] not in UNSUPPORTED_DTYPES]
    primary = torch.float64 if torch.float64 in dtypes else (
        torch.float32 if torch.float32 in dtypes else (dtypes[0] if dtypes else None))
    meta = {"format": FORMAT, "entry": entry_id(op), "name": op.name, "variant": op.variant_test_name,
            "call": path, "random": op.name in RANDOM or entry_id(op) in RANDOM,
            "method": _tensor_method(op.method_variant), "inplace": _tensor_method(op.inplace_variant),
            "aten": op.aten_name, "info": type(op).__name__, "supports_autograd": bool(op.supports_autograd),
            "dtypes": [DTYPE_NAMES[d] for d in dtypes], "primary": DTYPE_NAMES.get(primary),
            "samples": [], "errors": [], "skipped": {}}

    def skip(reason):
        meta["skipped"][reason] = meta["skipped"].get(reason, 0) + 1

    for dt in dtypes:
        cap = budget.primary if dt is primary else budget.float32 if dt is torch.float32 else budget.other
        rg = dt is primary and op.supports_autograd and (dt.is_floating_point or dt.is_complex)
        torch.manual_seed(0)
        try:
            samples = list(enumerate(op.sample_inputs("cpu", dt, requires_grad=rg)))
            small = [(i, x) for i, x in samples if _numel(x) <= budget.max_elems]
            if len(small) < len(samples):
                skip("large")
            if not small and samples:  # every sample is large: the smallest one, so the entry is still checked
                small = [min(samples, key=lambda s: _numel(s[1]))]
            for kept, (i, sample) in enumerate(spread(small, cap)):
                kinds = set()
                if dt is primary:
                    if kept < budget.grad and rg:
                        kinds.add("grad")
                    if kept < budget.vmap:
                        kinds.add("vmap")
                    if kept < budget.inplace:
                        kinds.add("inplace")
                n_arrays = len(w.arrays)
                try:
                    torch.manual_seed(1000 + i)
                    case = run_sample(w, op, call, sample, kinds, None)
                except Unencodable as exc:
                    del w.arrays[n_arrays:]
                    skip(f"unencodable: {exc}")
                    continue
                case["dtype"] = DTYPE_NAMES[dt]
                case["i"] = i
                meta["samples"].append(case)
        except Exception as exc:  # noqa: BLE001 - a generator torch cannot run on CPU
            skip(f"sample_inputs raised {type(exc).__name__}")
    try:
        errors = list(op.error_inputs("cpu"))
    except Exception:  # noqa: BLE001
        errors = []
    errors = [(i, ei) for i, ei in enumerate(errors) if _numel(ei.sample_input) <= budget.max_elems]
    for i, ei in errors[: budget.errors]:
        n_arrays = len(w.arrays)
        try:
            s = ei.sample_input
            inp, args, kwargs = _clone_inputs(s)
            case = {"input": w.encode(inp), "args": w.encode(args), "kwargs": w.encode(kwargs), "i": i}
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    call(inp, *args, **kwargs)
                case["fwd"] = {"no_raise": True}
            except Exception as exc:  # noqa: BLE001
                case["fwd"] = error_record(exc)
            case["expected_type"] = ei.error_type.__name__
            meta["errors"].append(case)
        except Unencodable as exc:
            del w.arrays[n_arrays:]
            skip(f"unencodable error input: {exc}")
    return meta, w.arrays


def save(path, meta, arrays):
    """One compressed npz: ``__meta__`` (the JSON, utf-8) and ``blob`` (every array's bytes, one
    after another; ``meta["arrays"]`` gives each one's dtype, shape and byte offset)."""
    layout, chunks, offset = [], [], 0
    for a in arrays:
        raw = a.tobytes()
        layout.append([a.dtype.str, list(a.shape), offset])
        chunks.append(raw)
        offset += len(raw)
    meta = dict(meta, arrays=layout)
    payload = {"__meta__": np.frombuffer(json.dumps(meta, separators=(",", ":")).encode(), dtype=np.uint8),
               "blob": np.frombuffer(b"".join(chunks), dtype=np.uint8)}
    buf = io.BytesIO()
    np.savez_compressed(buf, **payload)
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(buf.getvalue())
    os.replace(tmp, path)


def file_name(entry):
    return re.sub(r"[^A-Za-z0-9_.]", "_", entry) + ".npz"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "data", "conformance"))
    p.add_argument("--only", nargs="*", help="entry names (default: every op_db entry)")
    p.add_argument("--primary", type=int, default=40)
    p.add_argument("--float32", type=int, default=14)
    p.add_argument("--other", type=int, default=6)
    p.add_argument("--grad", type=int, default=32)
    p.add_argument("--vmap", type=int, default=20)
    p.add_argument("--inplace", type=int, default=12)
    p.add_argument("--errors", type=int, default=32)
    p.add_argument("--max-elems", type=int, default=500)
    args = p.parse_args(argv)
    budget = Budget(args)
    os.makedirs(args.out, exist_ok=True)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(False)
    seen = set()
    t0 = time.time()
    index = []
    for op in op_db:
        entry = entry_id(op)
        if entry in seen:
            continue
        seen.add(entry)
        if args.only and entry not in args.only and op.name not in args.only:
            continue
        t1 = time.time()
        try:
            meta, arrays = record_entry(op, budget)
        except Exception:  # noqa: BLE001
            print(f"{entry}: generator failed\n{traceback.format_exc()}", file=sys.stderr)
            continue
        save(os.path.join(args.out, file_name(entry)), meta, arrays)
        index.append(entry)
        print(f"{entry}: {len(meta['samples'])} samples, {len(meta['errors'])} errors, "
              f"{time.time() - t1:.1f}s", flush=True)
    if not args.only:
        with open(os.path.join(args.out, "ENTRIES.txt"), "w") as f:
            f.write(f"# op_db entries recorded from torch {torch.__version__} ({len(op_db)} entries, "
                    f"{len({o.name for o in op_db})} names)\n")
            for o in op_db:
                f.write(f"{entry_id(o)}\t{o.name}\t{file_name(entry_id(o))}\n")
    print(f"done in {time.time() - t0:.0f}s", flush=True)


if __name__ == "__main__":
    main()
